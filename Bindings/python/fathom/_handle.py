"""The base class of every object that owns a library handle (``fathom_mesh *``, ...).

A handle object holds one typed ctypes pointer (``POINTER(MeshOpaque)`` for a mesh: each kind of handle
has its own pointer type, so passing a mesh where the library wants another kind of handle is refused
by ctypes before the call). It frees the handle once: on :meth:`Handle.close`, on leaving a ``with``
block, or when it is garbage collected. ``__del__`` does nothing while the interpreter shuts down (the
process is about to end and the library may already be unloaded). Using a closed object raises
:class:`ClosedHandleError` (a ``ValueError``, like I/O on a closed file) instead of passing NULL or a
freed pointer to the library.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar, Optional

from ._lib import CFunction

__all__ = ["ClosedHandleError", "Handle"]


class ClosedHandleError(ValueError):
    """An operation on a handle object (such as a :class:`fathom.Mesh`) after it was closed."""


class Handle:
    """Owns one library handle. Subclasses set :attr:`_destroy` to the handle's ``_destroy`` function.

    Not thread-safe against :meth:`close`: a handle must not be closed while another thread still
    uses it (the queries themselves may run on many threads, where the kind of handle allows it).
    """

    #: The C function freeing this kind of handle (accepts NULL).
    _destroy: ClassVar[CFunction]

    __slots__ = ("_ptr", "__weakref__")

    def __init__(self, pointer: Any) -> None:
        if not pointer:
            raise ValueError(f"{type(self).__name__} needs a non-NULL handle")
        self._ptr: Optional[Any] = pointer

    # -- the pointer ------------------------------------------------------------------------------

    def _handle(self) -> Any:
        """The typed pointer, or :class:`ClosedHandleError` if the object was closed."""
        ptr = self._ptr
        if ptr is None:
            raise ClosedHandleError(f"this fathom.{type(self).__name__} is closed")
        return ptr

    @property
    def _as_parameter_(self) -> Any:
        """Lets the object be passed straight to C where its handle type is expected."""
        return self._handle()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._ptr is None

    # -- lifetime ---------------------------------------------------------------------------------

    def _release(self) -> None:
        """Hook for subclasses: drop what the handle kept alive (called after the handle is freed)."""

    def close(self) -> None:
        """Frees the handle now. Calling it again does nothing."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            type(self)._destroy(ptr)
            self._release()

    def __enter__(self):  # type: ignore[no-untyped-def]
        self._handle()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self, _finalizing=sys.is_finalizing) -> None:  # bound at import: safe at shutdown
        if getattr(self, "_ptr", None) is None or _finalizing():
            return
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finalizer
            pass

    def __reduce__(self) -> Any:
        raise TypeError(f"fathom.{type(self).__name__} owns a library handle and cannot be pickled")
