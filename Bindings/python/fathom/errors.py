"""Exceptions raised for the library's status codes, and the binding's warning category.

Every non-OK ``fathom_status`` becomes an instance of the :class:`FathomError` subclass for that
status, carrying the numeric code, its name and the library's message (``fathom_last_error()``,
which names the function and the argument that was wrong). Where a status matches a builtin
exception family, the subclass also derives from it, so ``except ValueError`` catches bad values
whether the binding or the library noticed them.

:class:`PlausibilityWarning` is not a status: the binding warns with it when an input is valid but unlikely to
mean what its caller meant (a depth map in millimetres read as meters).

This module only defines the classes: it imports nothing from the package, so it never loads the library.
:func:`fathom._lib.check_status` builds the exception for a status, with the library's message.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "BufferTooSmallError",
    "DegenerateError",
    "FathomError",
    "FathomIOError",
    "FathomMemoryError",
    "NoDataError",
    "FathomOverflowError",
    "FormatError",
    "InvalidStateError",
    "LapackError",
    "NotABoxError",
    "NotFiniteError",
    "NotRigidError",
    "NullPointerError",
    "OutOfRangeError",
    "ParseError",
    "PlausibilityWarning",
    "exception_class",
]


class FathomError(Exception):
    """A Fathom call failed.

    Attributes:
        status: the ``fathom_status`` code (an int, never 0).
        status_name: its name, e.g. ``"FATHOM_ERR_NOT_RIGID"``.
        message: the library's message, naming the function and the bad argument.
    """

    #: The status this class stands for (``None`` on the base class).
    STATUS: ClassVar[int | None] = None

    def __init__(self, status: int, status_name: str, message: str) -> None:
        self.status = status
        self.status_name = status_name
        self.message = message
        super().__init__(f"{message} [{status_name}]" if message else status_name)

    def __reduce__(self):  # keep pickling working despite the 3-argument constructor
        return (type(self), (self.status, self.status_name, self.message))


class NullPointerError(FathomError, ValueError):
    """FATHOM_ERR_NULL_POINTER: a required pointer argument was NULL."""

    STATUS = 1


class NotFiniteError(FathomError, ValueError):
    """FATHOM_ERR_NOT_FINITE: a number was NaN or infinite."""

    STATUS = 2


class OutOfRangeError(FathomError, ValueError):
    """FATHOM_ERR_OUT_OF_RANGE: a value outside its documented range (scale <= 0, count 0, bad enum)."""

    STATUS = 3


class FathomOverflowError(FathomError, OverflowError):
    """FATHOM_ERR_OVERFLOW: a size computation (count * stride) overflows."""

    STATUS = 4


class BufferTooSmallError(FathomError):
    """FATHOM_ERR_BUFFER_TOO_SMALL: an output buffer's capacity is less than the size needed."""

    STATUS = 5


class NotRigidError(FathomError, ValueError):
    """FATHOM_ERR_NOT_RIGID: a matrix is not a rigid transform within tolerance."""

    STATUS = 6


class DegenerateError(FathomError, ValueError):
    """FATHOM_ERR_DEGENERATE: geometry too degenerate for the operation."""

    STATUS = 7


class InvalidStateError(FathomError):
    """FATHOM_ERR_INVALID_STATE: the object lacks what the call needs (a box without a floor)."""

    STATUS = 8


class ParseError(FathomError, ValueError):
    """FATHOM_ERR_PARSE: text that is not well-formed (truncated or malformed JSON)."""

    STATUS = 9


class FormatError(FathomError, ValueError):
    """FATHOM_ERR_FORMAT: well-formed data with a missing, extra or mistyped field."""

    STATUS = 10


class NotABoxError(FathomError, ValueError):
    """FATHOM_ERR_NOT_A_BOX: eight corners that do not form a box of the kind expected."""

    STATUS = 11


class FathomIOError(FathomError, OSError):
    """FATHOM_ERR_IO: a file could not be opened, read or written."""

    STATUS = 12


class LapackError(FathomError):
    """FATHOM_ERR_LAPACK: a LAPACK routine reported failure."""

    STATUS = 13


class FathomMemoryError(FathomError, MemoryError):
    """FATHOM_ERR_OUT_OF_MEMORY: an allocation failed."""

    STATUS = 14


class NoDataError(FathomError):
    """FATHOM_ERR_NO_DATA: no valid sample where one is needed (invalid depth under a keypoint, an empty mask)."""

    STATUS = 15


class PlausibilityWarning(UserWarning):
    """An input the library accepts but that is unlikely to be what was meant, such as a float depth map whose
    largest depth exceeds :data:`fathom.depth.PLAUSIBLE_DEPTH` (50 m: millimetres passed as meters). Warned with
    :func:`warnings.warn`; ``warnings.simplefilter("error", fathom.PlausibilityWarning)`` makes it raise and
    ``warnings.simplefilter("ignore", fathom.PlausibilityWarning)`` silences it."""


_BY_STATUS: dict[int, type[FathomError]] = {
    cls.STATUS: cls
    for cls in (
        NullPointerError,
        NotFiniteError,
        OutOfRangeError,
        FathomOverflowError,
        BufferTooSmallError,
        NotRigidError,
        DegenerateError,
        InvalidStateError,
        ParseError,
        FormatError,
        NotABoxError,
        FathomIOError,
        LapackError,
        FathomMemoryError,
        NoDataError,
    )
    if cls.STATUS is not None
}


def exception_class(status: int) -> type[FathomError]:
    """The :class:`FathomError` subclass raised for ``status`` (:class:`FathomError` itself for a status this
    binding does not know, such as one added by a newer library)."""
    return _BY_STATUS.get(status, FathomError)
