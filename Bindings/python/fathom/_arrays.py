"""Checks and conversions between numpy arrays and the C structs and buffers of the library.

Point buffers cross the ABI as (pointer, count, stride): a float32 array of shape (N, k >= 3) whose
rows are evenly spaced and whose first three columns are consecutive floats is passed as it is, with
no copy. Any other array-like (float64, a list, a transposed or reversed view) is converted once to a
packed (N, 3) float32 array. Shapes are checked here, before any call, with a ValueError that says
what was expected; values (NaN, infinity, negative sizes) are the library's to judge.
"""

from __future__ import annotations

import ctypes
from typing import Any, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._lib import FloatPtr, PoseStruct, Quat, Vec3

__all__ = [
    "ArrayLike",
    "PointBuffer",
    "matrix3_from_c",
    "matrix3_to_c",
    "float_ptr",
    "point_buffer",
    "pose_array_ptr",
    "quat_from_c",
    "to_quat",
    "to_vec3",
    "vec3_from_c",
]

ArrayLike = Union[npt.ArrayLike, Sequence[float]]

_F32 = np.dtype(np.float32)


def _shape_error(name: str, expected: str, got: Any) -> ValueError:
    return ValueError(f"{name} must have shape {expected}, got shape {got}")


def _as_float_array(value: Any, name: str) -> np.ndarray:
    try:
        return np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers, got {type(value).__name__}: {exc}") from None


def to_vec3(value: ArrayLike, name: str = "vector") -> Vec3:
    """A ``fathom_vec3`` from three numbers (any array-like of shape (3,))."""
    a = _as_float_array(value, name)
    if a.shape != (3,):
        raise _shape_error(name, "(3,)", a.shape)
    return Vec3(float(a[0]), float(a[1]), float(a[2]))


def vec3_from_c(v: Vec3) -> np.ndarray:
    """A (3,) float32 array from a ``fathom_vec3``."""
    return np.array((v.x, v.y, v.z), dtype=np.float32)


def to_quat(value: ArrayLike, name: str = "quaternion") -> Quat:
    """A ``fathom_quat`` from four numbers (x, y, z, w)."""
    a = _as_float_array(value, name)
    if a.shape != (4,):
        raise _shape_error(name, "(4,) as (x, y, z, w)", a.shape)
    return Quat(float(a[0]), float(a[1]), float(a[2]), float(a[3]))


def quat_from_c(q: Quat) -> np.ndarray:
    """A (4,) float32 array (x, y, z, w) from a ``fathom_quat``."""
    return np.array((q.x, q.y, q.z, q.w), dtype=np.float32)


def matrix3_to_c(value: ArrayLike, name: str = "matrix") -> np.ndarray:
    """Nine float32 in column-major order from a 3x3 matrix (rows as usual in numpy)."""
    a = _as_float_array(value, name)
    if a.shape != (3, 3):
        raise _shape_error(name, "(3, 3)", a.shape)
    return np.ascontiguousarray(a.T).reshape(9)


def matrix3_from_c(values: np.ndarray) -> np.ndarray:
    """A (3, 3) float32 matrix from nine column-major floats."""
    return np.ascontiguousarray(values.reshape(3, 3).T)


def float_ptr(array: np.ndarray) -> Any:
    """A ``float *`` to the data of a float32 array (the array must stay alive during the call)."""
    return array.ctypes.data_as(FloatPtr)


def pose_array_ptr(array: np.ndarray) -> Any:
    """A ``fathom_pose *`` to an (N, 16) float32 C-contiguous array of column-major matrices."""
    return array.ctypes.data_as(ctypes.POINTER(PoseStruct))


class PointBuffer:
    """A point array ready for the ABI: ``array`` (kept alive), ``pointer``, ``count``, ``stride``."""

    __slots__ = ("array", "pointer", "count", "stride")

    def __init__(self, array: np.ndarray, count: int, stride: int) -> None:
        self.array = array
        self.pointer = array.ctypes.data_as(FloatPtr)
        self.count = count
        self.stride = stride


def _zero_copy(a: np.ndarray) -> bool:
    """True if the library can read ``a`` (float32, (N, k >= 3)) in place as (pointer, N, stride)."""
    if a.dtype != _F32 or not a.dtype.isnative or a.ctypes.data % 4 != 0:
        return False
    row, col = a.strides
    if col != 4:
        return False
    return a.shape[0] <= 1 or (row >= 12 and row % 4 == 0)  # one row: its stride is never used


def point_buffer(points: Any, name: str = "points") -> PointBuffer:
    """Checks ``points`` (shape (N, 3) or (N, k >= 3)) and returns it as a :class:`PointBuffer`.

    A float32 array whose rows are evenly spaced by a positive multiple of 4 bytes and whose columns
    are packed (``strides == (s, 4)``) is passed without a copy (only its first three columns are
    read). Anything else is converted once to a packed float32 (N, 3) array. N may be 0; the library
    refuses an empty buffer with :class:`fathom.OutOfRangeError`.
    """
    if isinstance(points, np.ndarray):
        a = points
    else:
        a = _as_float_array(points, name)
    if a.ndim != 2 or a.shape[1] < 3:
        raise _shape_error(name, "(N, 3) or (N, k) with k >= 3", a.shape)
    if not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
    if not _zero_copy(a):
        a = np.array(a[:, :3], dtype=np.float32, order="C")  # always a fresh, aligned, packed copy
    stride = a.strides[0] if a.shape[0] > 1 else 12
    return PointBuffer(a, a.shape[0], stride)
