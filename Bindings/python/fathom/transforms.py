"""NeRF-style ``transforms.json`` (instant-ngp, nerfstudio): camera poses and intrinsics, read and written.

In the file, ``transform_matrix`` is 4 nested rows (row-major) of a camera-to-world matrix in ARKit / OpenGL
camera axes (+x right, +y up, looking along -z), and the intrinsics ``w, h, fl_x, fl_y, cx, cy`` are shared at
the top level or given per frame. Here poses are (N, 4, 4) arrays with rows as rows, as everywhere in the
binding. The file has no timestamps: :func:`read_transforms` numbers the frames, or spaces them at a given rate.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_char, c_char_p, c_double, c_int64, c_size_t
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._arrays import poses_column_major
from ._lib import IntrinsicsStruct, PoseStruct, TransformsPtr, c_function, status_function
from ._scalars import PathLike, path_bytes
from ._sized import sized
from .camera import Intrinsics
from .geometry import Pose, PoseLike

__all__ = ["Transforms", "read_transforms", "write_transforms"]


_IntrinsicsPtr = POINTER(IntrinsicsStruct)
_PosePtr = POINTER(PoseStruct)

_read = status_function("fathom_transforms_read", c_char_p, c_double, POINTER(TransformsPtr))
_frames = status_function(
    "fathom_transforms_frames", TransformsPtr, POINTER(c_int64), _PosePtr, _IntrinsicsPtr, c_size_t, POINTER(c_size_t)
)
_paths = status_function("fathom_transforms_paths", TransformsPtr, POINTER(c_char), c_size_t, POINTER(c_size_t))
_destroy = c_function("fathom_transforms_destroy", None, TransformsPtr)
_save = status_function("fathom_transforms_save", c_char_p, _PosePtr, _IntrinsicsPtr, c_size_t, POINTER(c_char_p))


class Transforms:
    """The frames of a ``transforms.json``: timestamps, camera-to-world poses and intrinsics.

    Attributes:
        timestamps: (N,) int64 nanoseconds: the frame index, or ``round(i * 1e9 / rate)`` (see :func:`read_transforms`).
        poses: (N, 4, 4) float64 camera-to-world matrices (rows as rows), rigid.
        intrinsics: (N, 3, 3) float64 camera matrices K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]].
        sizes: (N, 2) int64 image sizes (w, h) the intrinsics are for.
        file_paths: the frames' ``file_path`` values (None for a frame without one).
    """

    __slots__ = ("timestamps", "poses", "intrinsics", "sizes", "file_paths")

    def __init__(
        self,
        timestamps: np.ndarray,
        poses: np.ndarray,
        intrinsics: np.ndarray,
        sizes: np.ndarray,
        file_paths: list[Optional[str]],
    ) -> None:
        self.timestamps = timestamps
        self.poses = poses
        self.intrinsics = intrinsics
        self.sizes = sizes
        self.file_paths = file_paths

    def __len__(self) -> int:
        return len(self.timestamps)

    @property
    def size(self) -> Optional[tuple[int, int]]:
        """(w, h) shared by every frame, or None when frames differ (see :attr:`sizes`) or there are none."""
        if len(self.sizes) == 0 or not (self.sizes == self.sizes[0]).all():
            return None
        return int(self.sizes[0, 0]), int(self.sizes[0, 1])

    @property
    def positions(self) -> np.ndarray:
        """(N, 3) camera positions (the poses' translations), meters."""
        return self.poses[:, :3, 3].copy()

    def camera(self, i: int) -> Intrinsics:
        """Frame ``i``'s intrinsics as a :class:`fathom.Intrinsics`."""
        k = self.intrinsics[i]
        w, h = self.sizes[i]
        return Intrinsics(float(k[0, 0]), float(k[1, 1]), float(k[0, 2]), float(k[1, 2]), int(w), int(h))

    def pose(self, i: int) -> Pose:
        """Frame ``i``'s camera-to-world pose as a :class:`fathom.Pose`."""
        return Pose(self.poses[i])

    def __repr__(self) -> str:
        size = self.size
        size_text = f"{size[0]}x{size[1]}" if size else "sizes vary" if len(self) else "no frames"
        return f"Transforms(frames={len(self)}, {size_text})"


def read_transforms(path: PathLike, rate: Optional[float] = None) -> Transforms:
    """Reads a NeRF-style ``transforms.json``.

    Args:
        path: the file.
        rate: frames per second for the timestamps, ``round(i * 1e9 / rate)`` nanoseconds; None (default)
            gives the frame index i as the timestamp.

    Intrinsics per frame: each key from the frame if it has it, else the top level; ``w`` and ``h`` are required,
    ``fl_x`` may come from ``camera_angle_x``, ``fl_y`` defaults to ``fl_x``, ``cx``/``cy`` to the image centre.
    Poses within 0.01 of rigid are re-orthonormalized (within 1e-5 kept as written, as float32).

    Raises :class:`fathom.FathomIOError` if unreadable, :class:`fathom.ParseError` for text that is not JSON,
    :class:`fathom.FormatError` for a missing or mistyped key (naming the frame and key, e.g.
    ``frames[3].transform_matrix``), :class:`fathom.NotRigidError` for a matrix that is not a rigid transform.
    """
    if rate is None:
        r = 0.0
    else:
        if isinstance(rate, bool) or not isinstance(rate, (int, float, np.integer, np.floating)):
            raise TypeError(f"rate must be a number (frames per second) or None, got {type(rate).__name__}")
        r = float(rate)
        if not r > 0:
            raise ValueError(f"rate must be > 0 frames per second (None for frame indices), got {rate}")
    handle = TransformsPtr()
    _read(path_bytes(path), r, byref(handle))
    try:
        (timestamps, poses, ks), n = sized(_frames, (handle,), _frame_arrays)
        paths = _read_paths(handle)
    finally:
        _destroy(handle)
    c = np.ctypeslib.as_array(ks)[:n]  # the structs as a numpy record array, fields fx, fy, cx, cy, width, height
    k = np.zeros((n, 3, 3), dtype=np.float64)
    k[:, 0, 0], k[:, 1, 1], k[:, 0, 2], k[:, 1, 2], k[:, 2, 2] = c["fx"], c["fy"], c["cx"], c["cy"], 1.0
    sizes = np.stack([c["width"], c["height"]], axis=1).astype(np.int64)
    matrices = poses.reshape(n, 4, 4).transpose(0, 2, 1).astype(np.float64)
    return Transforms(timestamps, np.ascontiguousarray(matrices), k, sizes, paths)


def _frame_arrays(n: int) -> tuple[tuple[np.ndarray, np.ndarray, Any], tuple[Any, ...]]:
    """Room for ``n`` frames' timestamps, column-major poses and intrinsics, and the arguments passing it."""
    timestamps = np.zeros(n, dtype=np.int64)
    poses = np.zeros((n, 16), dtype=np.float32)
    ks = (IntrinsicsStruct * max(n, 1))()
    return (timestamps, poses, ks), (timestamps.ctypes.data_as(POINTER(c_int64)), poses.ctypes.data_as(_PosePtr), ks, n)


def _path_bytes(n: int) -> tuple[Any, tuple[Any, int]]:
    buffer = (c_char * max(n, 1))()
    return buffer, (buffer, n)


def _read_paths(handle: Any) -> list[Optional[str]]:
    """Each frame's file_path (None for ""): fathom_transforms_paths writes them NUL-terminated, one after another."""
    buffer, length = sized(_paths, (handle,), _path_bytes)
    parts = buffer.raw[:length].split(b"\0")[:-1]
    return [p.decode("utf-8", "surrogateescape") or None for p in parts]


def _intrinsics_list(intrinsics: Any, n: int) -> list[Intrinsics]:
    if isinstance(intrinsics, Intrinsics):
        return [intrinsics] * n
    items = list(intrinsics)
    if len(items) != n:
        raise ValueError(f"intrinsics must be one fathom.Intrinsics or one per pose ({n}), got {len(items)}")
    for i, k in enumerate(items):
        if not isinstance(k, Intrinsics):
            raise TypeError(f"intrinsics[{i}] must be a fathom.Intrinsics, got {type(k).__name__}")
    return items


def write_transforms(
    path: PathLike,
    poses: Union[Sequence[PoseLike], np.ndarray],
    intrinsics: Union[Intrinsics, Sequence[Intrinsics]],
    file_paths: Optional[Sequence[str]] = None,
) -> None:
    """Writes a NeRF-style ``transforms.json``.

    Args:
        poses: (N, 4, 4) camera-to-world matrices (rows as rows) or a sequence of :class:`fathom.Pose` objects (or
            (4, 4) matrices); rigid.
        intrinsics: one :class:`fathom.Intrinsics` for every frame, or one per frame.
        file_paths: optional N strings written as each frame's ``file_path``.

    ``transform_matrix`` is written row-major; the intrinsics go to the top level (with ``camera_angle_x``)
    when all frames share them, else into each frame. :func:`read_transforms` reads back the same poses and
    intrinsics (as float32 values). Raises :class:`fathom.NotRigidError` naming the pose that is not rigid,
    :class:`fathom.FathomIOError` if the file cannot be written.
    """
    columns = poses_column_major(poses, "poses")
    n = columns.shape[0]
    ks = (IntrinsicsStruct * max(n, 1))(*[k._to_c() for k in _intrinsics_list(intrinsics, n)])
    names = None
    if file_paths is not None:
        items = list(file_paths)
        if len(items) != n:
            raise ValueError(f"file_paths must hold one path per pose ({n}), got {len(items)}")
        encoded = []
        for i, p in enumerate(items):
            if not isinstance(p, str):
                raise TypeError(f"file_paths[{i}] must be a str, got {type(p).__name__}")
            b = p.encode("utf-8")
            if b"\0" in b:
                raise ValueError(f"file_paths[{i}] contains a NUL byte")
            encoded.append(b)
        names = (c_char_p * max(n, 1))(*encoded)
    _save(path_bytes(path), columns.ctypes.data_as(_PosePtr) if n else None, ks if n else None, n, names)
