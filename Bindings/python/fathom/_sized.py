"""The library's "ask the size, then fill" calls, made one way.

A C function whose result has a size known only to the library takes a capacity and writes the size needed (a
``size_t *out_count`` or ``*out_length`` last): when the capacity is too small it returns
FATHOM_ERR_BUFFER_TOO_SMALL, and the caller allocates that much and calls again. :func:`sized` does this for
arrays, :func:`sized_text` for NUL-terminated strings.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_size_t, c_uint64, create_string_buffer
from typing import Any, Callable, Optional, Sequence, TypeVar

import numpy as np

from ._lib import CFunction, check_status
from .errors import BufferTooSmallError

__all__ = ["sized", "sized_text"]

T = TypeVar("T")


def sized(
    fn: CFunction,
    args: Sequence[Any],
    allocate: Callable[[int], tuple[T, Sequence[Any]]],
    *,
    guess: int = 0,
    offsets: Optional[np.ndarray] = None,
) -> tuple[T, int]:
    """Calls ``fn(*args, *buffers, capacity, out_count)``, and once more if the buffers were too small.

    ``allocate(n)`` gives ``(result, (*buffers, capacity))``: what holds room for ``n`` items, and the arguments
    passing it. The first call gets ``allocate(guess)`` (a guess that is usually big enough saves the second call;
    with 0, FATHOM_OK means an empty result). Returns ``(result, size)``; a result from the guess may be longer than
    the size. Any other status raises, as does a second FATHOM_ERR_BUFFER_TOO_SMALL.

    ``offsets``: the uint64 array of ``fathom_mesh_intersect_all_batch``, which writes per-ray offsets (the last one
    the size) where the others write a count.
    """
    count = c_size_t()
    if offsets is None:
        out_count, size = byref(count), lambda: count.value
    else:
        out_count, size = offsets.ctypes.data_as(POINTER(c_uint64)), lambda: int(offsets[-1])
    result, tail = allocate(guess)
    status = fn.raw(*args, *tail, out_count)
    if status == BufferTooSmallError.STATUS:
        result, tail = allocate(size())
        fn(*args, *tail, out_count)
    else:
        check_status(status)
    return result, size()


def _chars(length: int) -> tuple[Any, tuple[Any, int]]:
    buffer = create_string_buffer(length + 1)  # the library writes the NUL too
    return buffer, (buffer, len(buffer))


def sized_text(fn: CFunction, *args: Any, errors: str = "strict") -> str:
    """The UTF-8 string a ``(buffer, capacity, out_length)`` function writes after ``args`` (``errors`` as for
    :meth:`bytes.decode`)."""
    buffer, length = sized(fn, args, _chars)
    return buffer.raw[:length].decode("utf-8", errors)
