"""Point clouds and PLY files.

A :class:`PointCloud` owns a ``fathom_point_cloud`` handle: N points (float32 x, y, z, meters) with optional
unit normals, RGB colours and per-point confidence (ARKit: 0 low, 1 medium, 2 high). It is immutable, so it
may be read from many threads at once. :func:`read_ply` reads the vertex element of any PLY (ascii, binary
little- or big-endian; x, y, z as float or double; other properties and a mesh's faces are skipped), and
:func:`write_ply` writes points (with normals, colours, confidence) as binary or ascii PLY.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_char_p, c_size_t, c_uint8, c_uint32
from typing import Any, Optional

import numpy as np

from ._arrays import ArrayLike, point_buffer
from ._handle import Handle
from ._lib import CONSTANTS, FloatPtr, PointCloudInfoStruct, PointCloudPtr, c_function, status_function
from ._scalars import PathLike, path_bytes

__all__ = ["PointCloud", "read_ply", "write_ply"]


_PLY_BINARY = int(CONSTANTS["FATHOM_PLY_BINARY"])
_PLY_ASCII = int(CONSTANTS["FATHOM_PLY_ASCII"])
_BytePtr = POINTER(c_uint8)

_load_ply = status_function("fathom_point_cloud_load_ply", c_char_p, POINTER(PointCloudPtr))
_cloud_destroy = c_function("fathom_point_cloud_destroy", None, PointCloudPtr)
_get_info = status_function("fathom_point_cloud_get_info", PointCloudPtr, POINTER(PointCloudInfoStruct))
_points = status_function("fathom_point_cloud_points", PointCloudPtr, FloatPtr, c_size_t)
_normals = status_function("fathom_point_cloud_normals", PointCloudPtr, FloatPtr, c_size_t)
_colors = status_function("fathom_point_cloud_colors", PointCloudPtr, _BytePtr, c_size_t)
_confidence = status_function("fathom_point_cloud_confidence", PointCloudPtr, _BytePtr, c_size_t)
_save_ply = status_function("fathom_point_cloud_save_ply", PointCloudPtr, c_char_p, c_uint32)
_write_points = status_function(
    "fathom_ply_write_points", c_char_p, FloatPtr, c_size_t, c_size_t, FloatPtr, _BytePtr, _BytePtr, c_uint32
)


def _format(binary: bool) -> int:
    if not isinstance(binary, (bool, np.bool_)):
        raise TypeError(f"binary must be a bool, got {type(binary).__name__}")
    return _PLY_BINARY if binary else _PLY_ASCII


class PointCloud(Handle):
    """A point cloud (``fathom_point_cloud``): points with optional normals, colours and confidence.

    Made by :func:`read_ply` (or :meth:`load`) and by library functions that return clouds. Immutable; the
    arrays below are fresh copies on every access (``points`` etc. are (N, 3) numpy arrays). ``len(cloud)``
    is the number of points.

    Thread safety: any number of threads may read a cloud at once (but not close it while others read).
    """

    __slots__ = ("_info",)
    _destroy = _cloud_destroy

    def __init__(self, pointer: Any) -> None:
        """Wraps an owned ``fathom_point_cloud *`` (use :func:`read_ply` to read a file)."""
        self._info: Optional[PointCloudInfoStruct] = None
        Handle.__init__(self, pointer)

    @classmethod
    def _from_pointer(cls, pointer: Any) -> "PointCloud":
        """Takes ownership of a ``fathom_point_cloud *`` returned by the library (freed with the object)."""
        return cls(pointer)

    @classmethod
    def load(cls, path: PathLike) -> "PointCloud":
        """Reads a PLY file; see :func:`read_ply`."""
        out = PointCloudPtr()
        _load_ply(path_bytes(path), byref(out))
        return cls(out)

    def _get_info(self) -> PointCloudInfoStruct:
        handle = self._handle()
        info = self._info
        if info is None:
            info = PointCloudInfoStruct()
            _get_info(handle, byref(info))
            self._info = info  # immutable cloud: never changes
        return info

    def __len__(self) -> int:
        return int(self._get_info().count)

    @property
    def count(self) -> int:
        """Number of points."""
        return len(self)

    @property
    def has_normals(self) -> bool:
        """True if the cloud has normals."""
        return bool(self._get_info().has_normals)

    @property
    def has_colors(self) -> bool:
        """True if the cloud has RGB colours."""
        return bool(self._get_info().has_colors)

    @property
    def has_confidence(self) -> bool:
        """True if the cloud has confidence values."""
        return bool(self._get_info().has_confidence)

    @property
    def points(self) -> np.ndarray:
        """(N, 3) float32 positions, meters."""
        out = np.empty((len(self), 3), dtype=np.float32)
        _points(self._handle(), out.ctypes.data_as(FloatPtr), out.shape[0])
        return out

    @property
    def normals(self) -> Optional[np.ndarray]:
        """(N, 3) float32 unit normals, or None when the cloud has none."""
        if not self.has_normals:
            return None
        out = np.empty((len(self), 3), dtype=np.float32)
        _normals(self._handle(), out.ctypes.data_as(FloatPtr), out.shape[0])
        return out

    @property
    def colors(self) -> Optional[np.ndarray]:
        """(N, 3) uint8 RGB colours, or None."""
        if not self.has_colors:
            return None
        out = np.empty((len(self), 3), dtype=np.uint8)
        _colors(self._handle(), out.ctypes.data_as(_BytePtr), out.shape[0])
        return out

    @property
    def confidence(self) -> Optional[np.ndarray]:
        """(N,) uint8 confidence (ARKit: 0 low, 1 medium, 2 high), or None."""
        if not self.has_confidence:
            return None
        out = np.empty(len(self), dtype=np.uint8)
        _confidence(self._handle(), out.ctypes.data_as(_BytePtr), out.shape[0])
        return out

    @property
    def bounds(self) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """(min, max) corners of the points as (3,) float32 arrays, or None for an empty cloud."""
        p = self.points
        return (p.min(axis=0), p.max(axis=0)) if len(p) else None

    def save_ply(self, path: PathLike, binary: bool = True) -> None:
        """Writes the cloud as PLY (binary little-endian, or ascii with ``binary=False``): float x, y, z, then
        float nx, ny, nz, uchar red, green, blue and uchar confidence for what the cloud has. Raises
        :class:`fathom.FathomIOError` if the file cannot be written."""
        _save_ply(self._handle(), path_bytes(path), _format(binary))

    def __repr__(self) -> str:
        if self._ptr is None:
            return "PointCloud(<closed>)"
        extras = [name for name, has in (("normals", self.has_normals), ("colors", self.has_colors),
                                         ("confidence", self.has_confidence)) if has]
        text = f"PointCloud(points={len(self)}"
        b = self.bounds
        if b is not None:
            lo, hi = b
            text += f", bounds=(({lo[0]:.6g}, {lo[1]:.6g}, {lo[2]:.6g}), ({hi[0]:.6g}, {hi[1]:.6g}, {hi[2]:.6g}))"
        return text + (", with " + ", ".join(extras) if extras else "") + ")"


def read_ply(path: PathLike) -> PointCloud:
    """Reads the vertex element of a PLY file as a :class:`PointCloud`.

    Accepts ascii, binary_little_endian and binary_big_endian; x, y, z as float or double (doubles rounded to
    float32); nx, ny, nz (float or double) as normals and red, green, blue (uchar) as colours when all three are
    present; a uchar ``confidence``. Other properties (alpha, intensity, ...) and other elements (a mesh's
    faces) are skipped. Raises :class:`fathom.FathomIOError` if the file cannot be read,
    :class:`fathom.ParseError` / :class:`fathom.FormatError` naming the file and the line or byte offset of
    the first problem (a cut file, counts larger than the file, a missing x, a non-finite point).
    """
    return PointCloud.load(path)


def _packed(value: Any, name: str, dtype: Any, count: int, width: int) -> np.ndarray:
    if dtype == np.uint8:
        a = np.asarray(value)
        if not (np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_):
            raise TypeError(f"{name} must hold integers 0..255, got dtype {a.dtype}")
        if a.size and (int(a.min()) < 0 or int(a.max()) > 255):
            raise ValueError(f"{name} must hold values in 0..255, got {int(a.min())}..{int(a.max())}")
    else:
        a = np.asarray(value, dtype=dtype)
    shape = (count, width) if width > 1 else (count,)
    if width > 1 and a.shape == (width,) and count == 1:
        a = a.reshape(1, width)
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (one per point), got shape {a.shape}")
    return np.ascontiguousarray(a, dtype=dtype)


def write_ply(
    path: PathLike,
    points: ArrayLike,
    normals: Optional[ArrayLike] = None,
    colors: Optional[ArrayLike] = None,
    confidence: Optional[ArrayLike] = None,
    binary: bool = True,
) -> None:
    """Writes points as a PLY file (what :func:`read_ply`, Open3D, plyfile and MeshLab read).

    Args:
        points: (N, 3) positions (or one (3,) point); a float32 (N, k >= 3) array is read in place.
        normals: optional (N, 3) normals (converted to float32).
        colors: optional (N, 3) RGB values 0..255 (stored as uchar).
        confidence: optional (N,) values 0..255 (uchar).
        binary: binary little-endian (default) or ascii.

    N may be 0. Raises :class:`fathom.NotFiniteError` naming the first non-finite point or normal (nothing is
    written then), :class:`fathom.FathomIOError` if the file cannot be written.
    """
    a = points if isinstance(points, np.ndarray) else np.asarray(points, dtype=np.float32)
    if a.ndim == 1 and a.size:
        a = a.reshape(1, -1)  # one point
    if a.size == 0 and (a.ndim == 1 or (a.ndim == 2 and a.shape[1] >= 3)):
        n, ptr, stride, keep = 0, None, 12, a  # no points: a file with an empty vertex element
    else:
        buffer = point_buffer(a, "points")
        ptr, stride, keep, n = buffer.pointer, buffer.stride, buffer.array, buffer.count
    nrm = None if normals is None else _packed(normals, "normals", np.float32, n, 3)
    col = None if colors is None else _packed(colors, "colors", np.uint8, n, 3)
    con = None if confidence is None else _packed(confidence, "confidence", np.uint8, n, 1)
    _write_points(
        path_bytes(path), ptr, n, stride,
        None if nrm is None else nrm.ctypes.data_as(FloatPtr),
        None if col is None else col.ctypes.data_as(_BytePtr),
        None if con is None else con.ctypes.data_as(_BytePtr),
        _format(binary),
    )
    del keep
