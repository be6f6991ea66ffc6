"""Pinhole camera intrinsics, screen-point rays and projection.

Pixel coordinates are continuous: (0, 0) is the top-left corner of the top-left pixel, u grows right
and v down, so the centre of pixel (column i, row j) is (i + 0.5, j + 0.5). Camera poses are
camera-to-world with ARKit axes (+x right, +y up, looking along -z): a :class:`fathom.Pose` or a (4, 4)
matrix (rows as rows, translation in the last column; the library checks it is rigid). The ray through
pixel (u, v) starts at the camera centre with direction ((u - cx) / fx, -(v - cy) / fy, -1) in the camera
frame, normalized, rotated into the world (reference/conventions.md, "Screen-point rays"). A camera's 3D points
(back-projected depth, measured endpoints) are in one of the frames of :class:`PointFrame`.

numpy style: :func:`camera_ray` takes u and v as numbers or as arrays of one shape, :func:`project` one (3,)
point or (N, 3) points; arrays give arrays of results. The C API has one call per pixel and per point here,
so an array is looped over in Python, one library call per element (fine for keypoints and taps; for every
pixel of an image use :func:`grid_rays`, one call).
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_float, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntEnum, IntFlag
from typing import Any, NamedTuple

import numpy as np

from ._arrays import ArrayLike, at_index, pixel_arrays, point_buffer, pose_struct, vec3_from_c
from ._lib import IntrinsicsPtr, IntrinsicsStruct, PosePtr, RayPtr, RayStruct, Vec3, status_function
from ._scalars import real, uint32
from ._sized import sized
from .errors import FathomError
from .geometry import PoseLike

__all__ = ["Intrinsics", "PointFrame", "Projection", "ProjectFlags", "Ray", "camera_ray", "grid_rays", "intrinsics_struct",
           "project"]

_IntrinsicsPtr = IntrinsicsPtr
_intrinsics_scale = status_function("fathom_intrinsics_scale", _IntrinsicsPtr, c_uint32, c_uint32, _IntrinsicsPtr)
_camera_ray = status_function("fathom_camera_ray", _IntrinsicsPtr, PosePtr, c_float, c_float, RayPtr)
_camera_project = status_function(
    "fathom_camera_project", _IntrinsicsPtr, PosePtr, Vec3, POINTER(c_float), POINTER(c_float), POINTER(c_uint32)
)
_camera_grid_rays = status_function(
    "fathom_camera_grid_rays", _IntrinsicsPtr, PosePtr, c_uint32, RayPtr, c_size_t, POINTER(c_size_t)
)


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole intrinsics in pixels of an image of ``width`` x ``height`` pixels.

    Pixel (0, 0) is the top-left corner of the top-left pixel; u grows right, v down.

    Attributes:
        fx, fy: focal lengths, pixels (> 0).
        cx, cy: principal point from the image's top-left corner, pixels.
        width, height: the image size these are for, pixels (>= 1).
    """

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    def _to_c(self) -> IntrinsicsStruct:
        return IntrinsicsStruct(
            float(self.fx), float(self.fy), float(self.cx), float(self.cy),
            uint32(self.width, "width"), uint32(self.height, "height"),
        )

    @classmethod
    def _from_c(cls, c: IntrinsicsStruct) -> "Intrinsics":
        return cls(float(c.fx), float(c.fy), float(c.cx), float(c.cy), int(c.width), int(c.height))

    def scaled(self, width: int, height: int) -> "Intrinsics":
        """The same sensor at another resolution: fx' = fx * width/self.width, cx' likewise; fy, cy by height.

        E.g. from the 1920x1440 RGB image to the 256x192 depth map. Raises
        :class:`fathom.OutOfRangeError` for a zero size or a focal length <= 0.
        """
        out = IntrinsicsStruct()
        _intrinsics_scale(byref(self._to_c()), uint32(width, "width"), uint32(height, "height"), byref(out))
        return Intrinsics._from_c(out)

    @property
    def matrix(self) -> np.ndarray:
        """The 3x3 camera matrix K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (float32)."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]], dtype=np.float32)

    def ray(self, camera_to_world: PoseLike, u: Any, v: Any) -> "Ray":
        """The ray from the camera centre through pixel (u, v) (numbers or arrays); see :func:`camera_ray`."""
        return camera_ray(self, camera_to_world, u, v)

    def project(self, camera_to_world: PoseLike, point: ArrayLike) -> "Projection":
        """Pixel coordinates of a world point (3,) or of points (N, 3); see :func:`project`."""
        return project(self, camera_to_world, point)

    def grid_rays(self, camera_to_world: PoseLike, step: int = 1) -> np.ndarray:
        """Rays through every ``step``-th pixel centre; see :func:`grid_rays`."""
        return grid_rays(self, camera_to_world, step)


class PointFrame(IntEnum):
    """The frame of a camera's 3D points (``fathom_frame``): back-projected depth, measured endpoints."""

    OPTICAL = 0  # x right, y down, z forward (the depth)
    CAMERA = 1  # ARKit camera: x right, y up, looking along -z
    WORLD = 2  # camera_to_world * camera-frame point


class Ray(NamedTuple):
    """A ray: ``origin`` and ``direction``, (3,) float32 arrays (world).

    Rays of an array of pixels have S + (3,) arrays: views of one S + (6,) float32 ray array, the layout
    :func:`grid_rays` returns (``mesh.cast(ray.origin, ray.direction)`` casts them all).
    """

    origin: np.ndarray
    direction: np.ndarray


class ProjectFlags(IntFlag):
    """Where :func:`project` put a point (``FATHOM_PROJECT_*``); 0 (no flag) means visible."""

    BEHIND = 1  # not in front of the camera (camera-frame z >= 0); u, v are 0
    OUTSIDE = 2  # in front, but u or v outside [0, width] x [0, height]


class Projection(NamedTuple):
    """A projected point: pixel coordinates ``u``, ``v`` and :class:`ProjectFlags` (``visible`` if none).

    For (N, 3) points, ``u`` and ``v`` are (N,) float32 arrays and ``flags`` an (N,) uint32 array of
    :class:`ProjectFlags` bits; :attr:`visible` is then an (N,) bool array.
    """

    u: Any
    v: Any
    flags: Any

    @property
    def visible(self) -> Any:
        """True if the point is in front of the camera and inside the image (per point for many points)."""
        return self.flags == 0


def intrinsics_struct(value: Any) -> IntrinsicsStruct:
    """The ``fathom_intrinsics`` of an :class:`Intrinsics` argument, for a C call (pass it with ``byref``).

    The struct holds fx, fy, cx, cy in pixels of the ``width`` x ``height`` image they describe (with a depth frame,
    its RGB image: the library scales them to the depth grid), pixel (0, 0) at the image's top-left corner, u right
    and v down. Anything but an :class:`Intrinsics` is a TypeError (a (3, 3) matrix does not say its image size).
    """
    if not isinstance(value, Intrinsics):
        raise TypeError(f"intrinsics must be a fathom.Intrinsics, got {type(value).__name__}")
    return value._to_c()


def camera_ray(intrinsics: Intrinsics, camera_to_world: PoseLike, u: Any, v: Any) -> Ray:
    """The ray from the camera centre through pixel (u, v): (origin, unit direction), world frame.

    Direction in the camera frame ((u - cx) / fx, -(v - cy) / fy, -1), normalized, rotated by the
    pose. (u, v) may lie outside the image; the pixel centre of column i, row j is (i + 0.5, j + 0.5).

    ``u`` and ``v`` are numbers (origin and direction are then (3,) float32 arrays), or arrays of one shape
    S, or of shapes that broadcast to S (origin and direction are then S + (3,) float32 arrays: entry i is the
    ray through (u[i], v[i])). A NaN or infinite coordinate raises :class:`fathom.NotFiniteError`, with the
    index of the pixel for arrays.
    """
    k = byref(intrinsics_struct(intrinsics))
    pose = byref(pose_struct(camera_to_world, "camera_to_world"))
    arrays = pixel_arrays(u, v)
    if arrays is None:
        out = RayStruct()
        _camera_ray(k, pose, real(u, "u"), real(v, "v"), byref(out))
        return Ray(vec3_from_c(out.origin), vec3_from_c(out.direction))
    us, vs = arrays
    rays = (RayStruct * us.size)()  # written in place: rays[i] is a view of element i
    for i, (x, y) in enumerate(zip(us.ravel().tolist(), vs.ravel().tolist())):
        try:
            _camera_ray(k, pose, x, y, byref(rays[i]))
        except FathomError as error:
            raise at_index(error, i, us.shape, f"u={x!r}, v={y!r}") from None
    flat = np.frombuffer(rays, dtype=np.float32) if us.size else np.empty(0, np.float32)
    flat = flat.reshape(us.shape + (6,))  # the ctypes array stays alive as the numpy array's base
    return Ray(flat[..., :3], flat[..., 3:])


def project(intrinsics: Intrinsics, camera_to_world: PoseLike, point: ArrayLike) -> Projection:
    """Projects world points to pixel coordinates: (u, v, :class:`ProjectFlags`).

    The inverse of :func:`camera_ray`: a point on the ray through (u, v) projects back to (u, v).
    A point behind the camera gets ``ProjectFlags.BEHIND`` and u = v = 0; one in front but off the
    image gets ``ProjectFlags.OUTSIDE`` with its (outside) coordinates.

    ``point`` is one (3,) point (u and v are then floats and flags a :class:`ProjectFlags`) or (N, 3) points
    (any point array, as :meth:`fathom.Pose.transform_points` takes): u and v are then (N,) float32 arrays and
    flags an (N,) uint32 array. A non-finite point raises :class:`fathom.NotFiniteError`, with its index for
    many points.
    """
    k = byref(intrinsics_struct(intrinsics))
    pose = byref(pose_struct(camera_to_world, "camera_to_world"))
    points = point_buffer(point, "point")
    n = points.count
    us, vs, flags = np.empty(n, np.float32), np.empty(n, np.float32), np.empty(n, np.uint32)
    u, v, f = c_float(), c_float(), c_uint32()
    for i, (x, y, z) in enumerate(points.array[:, :3].tolist()):
        try:
            _camera_project(k, pose, Vec3(x, y, z), byref(u), byref(v), byref(f))
        except FathomError as error:
            raise (error if points.single else at_index(error, i, (n,), f"point ({x!r}, {y!r}, {z!r})")) from None
        us[i], vs[i], flags[i] = u.value, v.value, f.value
    if points.single:
        return Projection(float(us[0]), float(vs[0]), ProjectFlags(int(flags[0])))
    return Projection(us, vs, flags)


def grid_rays(intrinsics: Intrinsics, camera_to_world: PoseLike, step: int = 1) -> np.ndarray:
    """Rays through the centres of every ``step``-th pixel column and row (``step >= 1``).

    Starts at pixel centre (0.5, 0.5) and goes row by row: ray ``j * ceil(width / step) + i`` passes
    through (i * step + 0.5, j * step + 0.5). Returns an (N, 6) float32 ray array (origin, unit
    direction) with N = ceil(width / step) * ceil(height / step), ready for :meth:`fathom.Mesh.cast`.
    """
    step = uint32(step, "step")
    k = byref(intrinsics_struct(intrinsics))
    pose = byref(pose_struct(camera_to_world, "camera_to_world"))
    rays, _ = sized(_camera_grid_rays, (k, pose, step), _ray_array)
    return rays


def _ray_array(n: int) -> tuple[np.ndarray, tuple[Any, int]]:
    rays = np.empty((n, 6), dtype=np.float32)
    return rays, (rays.ctypes.data_as(RayPtr), n)
