"""Checks and conversions between numpy arrays and the C structs and buffers of the library.

Every module converts its array arguments here, so each kind of argument is read one way everywhere:

- Points (:func:`point_buffer`): an (N, 3) or (N, k >= 3) array, or one (3,) point. Point buffers cross the
  ABI as (pointer, count, stride): a float32 array whose rows are evenly spaced and whose first three columns
  are consecutive floats is passed as it is, with no copy. Any other array-like (float64, a list, a transposed
  or reversed view) is converted once to a packed (N, 3) float32 array. The double-precision fits use the same
  function with ``dtype=np.float64`` and 2 or 3 columns. A single point gives the single result
  (:meth:`PointBuffer.result`), as numpy functions do.
- Poses (:func:`pose_struct`, :func:`pose_column_major`, :func:`poses_column_major`): a :class:`fathom.Pose` or any
  (4, 4) array-like (rows as rows, translation in the last column; a Pose is one through ``__array__``), and
  for many poses an (N, 4, 4) array-like or a sequence of those. They become the library's column-major
  ``fathom_pose``; the library checks that each is rigid and finite where it reads it.
- Pixel coordinates (:func:`pixel_arrays`): u and v as numbers, or as arrays of one shape (broadcast).
- Masks (:func:`as_mask`, :func:`mask_struct`): any 2D bool or numeric array, nonzero inside.

Shapes and dtypes are checked here, before any call, with a ValueError or TypeError that says what was
expected; values (NaN, infinity, negative sizes, non-rigid matrices) are the library's to judge.
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._lib import DoublePtr, FloatPtr, MaskStruct, PoseStruct, Quat, Vec3
from ._scalars import uint32
from .errors import FathomError

__all__ = [
    "ArrayLike",
    "PointBuffer",
    "as_mask",
    "at_index",
    "matrix3_from_c",
    "matrix3_to_c",
    "float_ptr",
    "mask_struct",
    "pixel_arrays",
    "point_buffer",
    "pose_array_ptr",
    "pose_column_major",
    "pose_struct",
    "poses_column_major",
    "quat_from_c",
    "to_quat",
    "to_vec3",
    "vec3_from_c",
]

ArrayLike = Union[npt.ArrayLike, Sequence[float]]

_F32 = np.dtype(np.float32)
_POINTERS = {_F32: FloatPtr, np.dtype(np.float64): DoublePtr}  # the C pointer type of each point dtype


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
    """A point array ready for the ABI: ``array`` (kept alive), ``pointer``, ``count``, ``stride`` (bytes), and
    ``single``: True when the caller gave one point as a 1-D array (it is then a buffer of one point)."""

    __slots__ = ("array", "pointer", "count", "stride", "single")

    def __init__(self, array: np.ndarray, count: int, stride: int, single: bool = False) -> None:
        self.array = array
        self.pointer = array.ctypes.data_as(_POINTERS[array.dtype])
        self.count = count
        self.stride = stride
        self.single = single

    def result(self, out: Any) -> Any:
        """``out`` (one entry per point along its first axis), or its only entry when the points were one point."""
        return out[0] if self.single else out


def _real_dtype(a: np.ndarray, name: str) -> None:
    if not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")


def _zero_copy(a: np.ndarray, dtype: np.dtype, columns: int) -> bool:
    """True if the library can read ``a`` ((N, k >= columns) of ``dtype``) in place as (pointer, N, stride)."""
    item = dtype.itemsize
    if a.dtype != dtype or not a.dtype.isnative or a.ctypes.data % item != 0:
        return False
    row, col = a.strides
    if col != item:
        return False
    return a.shape[0] <= 1 or (row >= item * columns and row % item == 0)  # one row: its stride is never used


def point_buffer(
    points: Any, name: str = "points", *, dtype: Any = np.float32, columns: Optional[int] = 3
) -> PointBuffer:
    """Checks ``points`` and returns it as a :class:`PointBuffer`: shape (N, 3) or (N, k >= 3), or (3,) for one
    point.

    An array of ``dtype`` whose rows are evenly spaced by a positive multiple of the item size and whose
    columns are packed (``strides == (s, itemsize)``) is passed without a copy (only its first ``columns``
    columns are read). Anything else is converted once to a packed (N, columns) array of ``dtype``. N may be 0;
    the library refuses an empty buffer with :class:`fathom.OutOfRangeError`.

    ``dtype`` and ``columns`` serve the double-precision fits: ``np.float64`` with 2 or 3 columns, or
    ``columns=None`` for 2D or 3D points told by the shape (only 2 or 3 columns then).
    """
    dt = np.dtype(dtype)
    if isinstance(points, np.ndarray):
        a = points
    else:
        try:
            a = np.asarray(points, dtype=dt)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be an array of numbers, got {type(points).__name__}: {exc}") from None
    single = a.ndim == 1 and (a.shape[0] in (2, 3) if columns is None else a.shape[0] == columns)
    if single:
        a = a.reshape(1, -1)  # one point: exactly its coordinates (a longer 1-D array is refused, not guessed at)
    if columns is None:
        if a.ndim != 2 or a.shape[1] not in (2, 3):
            raise _shape_error(name, "(N, 2) or (N, 3), or (2,) or (3,) for one point", a.shape)
        columns = a.shape[1]
    elif a.ndim != 2 or a.shape[1] < columns:
        expected = f"(N, {columns}) or (N, k) with k >= {columns}, or ({columns},) for one point"
        raise _shape_error(name, expected, a.shape)
    _real_dtype(a, name)
    if not _zero_copy(a, dt, columns):
        a = np.array(a[:, :columns], dtype=dt, order="C")  # always a fresh, aligned, packed copy
    stride = a.strides[0] if a.shape[0] > 1 else dt.itemsize * columns
    return PointBuffer(a, a.shape[0], stride, single)


# ------------------------------------------------------------------------------------------------
# Poses
# ------------------------------------------------------------------------------------------------

_POSE = "a fathom.Pose or a (4, 4) array-like (rows as rows, translation in the last column)"
_POSES = "an (N, 4, 4) array-like or a sequence of fathom.Pose objects and (4, 4) matrices"


def _pose_matrices(value: Any, name: str, many: bool) -> np.ndarray:
    """The one conversion of pose arguments: float32 column-major (16,) for one pose, (N, 16) for many."""
    what = _POSES if many else _POSE
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    try:
        a = np.asarray(value)  # a fathom.Pose gives its (4, 4) matrix (float32) through __array__
    except (TypeError, ValueError):  # a ragged sequence
        raise ValueError(f"{name} must be {what}, got items of different shapes") from None
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} of dtype {a.dtype}")
    if not many:
        if a.shape != (4, 4):
            raise ValueError(f"{name} must be {_POSE}, got shape {a.shape}")
        return np.ascontiguousarray(a.T, dtype=np.float32).reshape(16)
    if a.shape == (4, 4) and not isinstance(value, (np.ndarray, list, tuple)):
        raise TypeError(f"{name} must be {what}, got a {type(value).__name__} (for one pose, use [pose])")
    if a.size == 0 and a.ndim == 1:
        return np.empty((0, 16), dtype=np.float32)  # [] or an empty array: no poses
    if a.ndim != 3 or a.shape[1:] != (4, 4):
        hint = " (for one pose, use [pose])" if a.shape == (4, 4) else ""
        raise ValueError(f"{name} must be {what}, got shape {a.shape}{hint}")
    return np.ascontiguousarray(a.transpose(0, 2, 1), dtype=np.float32).reshape(-1, 16)


def pose_column_major(value: Any, name: str = "pose") -> np.ndarray:
    """The 16 float32 of one pose argument (a :class:`fathom.Pose` or a (4, 4) array-like), column-major."""
    return _pose_matrices(value, name, many=False)


def pose_struct(value: Any, name: str = "pose") -> PoseStruct:
    """A ``fathom_pose`` from a :class:`fathom.Pose` or a (4, 4) array-like (pass it with ``byref``)."""
    c = PoseStruct()
    ctypes.memmove(c.m, pose_column_major(value, name).ctypes.data, 64)
    return c


def poses_column_major(values: Any, name: str = "poses") -> np.ndarray:
    """(N, 16) C-contiguous float32 column-major matrices from an (N, 4, 4) array-like or a sequence of
    :class:`fathom.Pose` objects and (4, 4) matrices (:func:`pose_array_ptr` passes them to C)."""
    return _pose_matrices(values, name, many=True)


# ------------------------------------------------------------------------------------------------
# Pixel coordinates and batches of single calls
# ------------------------------------------------------------------------------------------------


def pixel_arrays(u: Any, v: Any) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """None when ``u`` and ``v`` are both single numbers (the caller's scalar path checks them); otherwise both
    as float64 arrays of their common (broadcast) shape, read-only views where broadcast."""
    if np.ndim(u) == 0 and np.ndim(v) == 0:
        return None
    arrays = []
    for value, name in ((u, "u"), (v, "v")):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a number or an array of numbers (pixels), got {type(value).__name__}")
        try:
            a = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be a number or an array of numbers (pixels): {exc}") from None
        _real_dtype(a, name)
        arrays.append(a.astype(np.float64, copy=False))
    try:
        ua, va = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(
            f"u and v must have the same shape (or shapes that broadcast), got {arrays[0].shape} and {arrays[1].shape}"
        ) from None
    return ua, va


def at_index(error: FathomError, flat: int, shape: tuple[int, ...], values: str) -> FathomError:
    """``error``, raised by one call of a batch looped in Python, with the element's index and ``values`` (its
    inputs, e.g. ``"u=1.5, v=nan"``) added to its message, of the same class."""
    index: Any = flat if len(shape) <= 1 else tuple(int(i) for i in np.unravel_index(flat, shape))
    return type(error)(error.status, error.status_name, f"{error.message} (at element {index}: {values})")


# ------------------------------------------------------------------------------------------------
# Masks
# ------------------------------------------------------------------------------------------------


def as_mask(mask: Any, name: str = "mask") -> np.ndarray:
    """A 2D mask as a C-contiguous uint8 array (nonzero inside), converted once when needed.

    bool arrays are reinterpreted (no copy when contiguous); uint8 arrays are used as they are when
    contiguous; other numeric arrays become ``mask != 0``.
    """
    a = mask if isinstance(mask, np.ndarray) else np.asarray(mask)
    if a.ndim != 2:
        raise ValueError(f"{name} must be a 2D array (height, width), got shape {a.shape}")
    if a.dtype == np.bool_:
        return np.ascontiguousarray(a).view(np.uint8)
    if a.dtype == np.uint8:
        return np.ascontiguousarray(a)
    if not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
        raise TypeError(f"{name} must be a bool or numeric array, got dtype {a.dtype}")
    return np.ascontiguousarray(a != 0).view(np.uint8)


def mask_struct(mask: Any, name: str = "mask") -> tuple[MaskStruct, np.ndarray]:
    """The ``fathom_mask`` of a mask and the array it points into (keep it alive during the call)."""
    a = as_mask(mask, name)
    h, w = a.shape
    c = MaskStruct(
        a.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)), uint32(w, f"{name} width"), uint32(h, f"{name} height"),
        a.strides[0] if h > 1 else 0,
    )
    return c, a
