"""Pinhole camera intrinsics, screen-point rays and projection.

Pixel coordinates are continuous: (0, 0) is the top-left corner of the top-left pixel, u grows right
and v down, so the centre of pixel (column i, row j) is (i + 0.5, j + 0.5). Camera poses are
camera-to-world with ARKit axes (+x right, +y up, looking along -z). The ray through pixel (u, v)
starts at the camera centre with direction ((u - cx) / fx, -(v - cy) / fy, -1) in the camera frame,
normalized, rotated into the world (reference/conventions.md, "Screen-point rays").
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_float, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntFlag
from typing import Any, NamedTuple

import numpy as np

from ._arrays import ArrayLike, to_vec3, vec3_from_c
from ._lib import IntrinsicsPtr, IntrinsicsStruct, PosePtr, RayPtr, RayStruct, Vec3, status_function
from .errors import BufferTooSmallError, _check
from .geometry import Pose, _require_pose

__all__ = ["Intrinsics", "Projection", "ProjectFlags", "Ray", "camera_ray", "grid_rays", "project"]

_IntrinsicsPtr = IntrinsicsPtr
_intrinsics_scale = status_function("fathom_intrinsics_scale", _IntrinsicsPtr, c_uint32, c_uint32, _IntrinsicsPtr)
_camera_ray = status_function("fathom_camera_ray", _IntrinsicsPtr, PosePtr, c_float, c_float, RayPtr)
_camera_project = status_function(
    "fathom_camera_project", _IntrinsicsPtr, PosePtr, Vec3, POINTER(c_float), POINTER(c_float), POINTER(c_uint32)
)
_camera_grid_rays = status_function(
    "fathom_camera_grid_rays", _IntrinsicsPtr, PosePtr, c_uint32, RayPtr, c_size_t, POINTER(c_size_t)
)

_UINT32_MAX = 2**32 - 1


def _size(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int (pixels), got {type(value).__name__}")
    if not 0 <= int(value) <= _UINT32_MAX:
        raise ValueError(f"{name} must be in 0..{_UINT32_MAX} pixels, got {value}")
    return int(value)


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
            _size(self.width, "width"), _size(self.height, "height"),
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
        _intrinsics_scale(byref(self._to_c()), _size(width, "width"), _size(height, "height"), byref(out))
        return Intrinsics._from_c(out)

    @property
    def matrix(self) -> np.ndarray:
        """The 3x3 camera matrix K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (float32)."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]], dtype=np.float32)

    def ray(self, camera_to_world: Pose, u: float, v: float) -> "Ray":
        """The ray from the camera centre through pixel (u, v); see :func:`camera_ray`."""
        return camera_ray(self, camera_to_world, u, v)

    def project(self, camera_to_world: Pose, point: ArrayLike) -> "Projection":
        """Pixel coordinates of a world point; see :func:`project`."""
        return project(self, camera_to_world, point)

    def grid_rays(self, camera_to_world: Pose, step: int = 1) -> np.ndarray:
        """Rays through every ``step``-th pixel centre; see :func:`grid_rays`."""
        return grid_rays(self, camera_to_world, step)


class Ray(NamedTuple):
    """A ray: ``origin`` and ``direction``, (3,) float32 arrays (world)."""

    origin: np.ndarray
    direction: np.ndarray


class ProjectFlags(IntFlag):
    """Where :func:`project` put a point (``FATHOM_PROJECT_*``); 0 (no flag) means visible."""

    BEHIND = 1  # not in front of the camera (camera-frame z >= 0); u, v are 0
    OUTSIDE = 2  # in front, but u or v outside [0, width] x [0, height]


class Projection(NamedTuple):
    """A projected point: pixel coordinates ``u``, ``v`` and :class:`ProjectFlags` (``visible`` if none)."""

    u: float
    v: float
    flags: ProjectFlags

    @property
    def visible(self) -> bool:
        """True if the point is in front of the camera and inside the image."""
        return self.flags == 0


def _intrinsics(value: Any) -> IntrinsicsStruct:
    if not isinstance(value, Intrinsics):
        raise TypeError(f"intrinsics must be a fathom.Intrinsics, got {type(value).__name__}")
    return value._to_c()


def _pixel(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number (pixels), got {type(value).__name__}")
    return float(value)


def camera_ray(intrinsics: Intrinsics, camera_to_world: Pose, u: float, v: float) -> Ray:
    """The ray from the camera centre through pixel (u, v): (origin, unit direction), world frame.

    Direction in the camera frame ((u - cx) / fx, -(v - cy) / fy, -1), normalized, rotated by the
    pose. (u, v) may lie outside the image; the pixel centre of column i, row j is (i + 0.5, j + 0.5).
    """
    out = RayStruct()
    _camera_ray(byref(_intrinsics(intrinsics)), _require_pose(camera_to_world, "camera_to_world"),
                _pixel(u, "u"), _pixel(v, "v"), byref(out))
    return Ray(vec3_from_c(out.origin), vec3_from_c(out.direction))


def project(intrinsics: Intrinsics, camera_to_world: Pose, point: ArrayLike) -> Projection:
    """Projects one world point to pixel coordinates: (u, v, :class:`ProjectFlags`).

    The inverse of :func:`camera_ray`: a point on the ray through (u, v) projects back to (u, v).
    A point behind the camera gets ``ProjectFlags.BEHIND`` and u = v = 0; one in front but off the
    image gets ``ProjectFlags.OUTSIDE`` with its (outside) coordinates.

    The library projects one point per call (there is no batch projection in the C API); for many
    points, transform them with ``camera_to_world.inverse().transform_points(points)`` and apply the
    pinhole formula in numpy, or call this in a loop.
    """
    u, v, flags = c_float(), c_float(), c_uint32()
    _camera_project(byref(_intrinsics(intrinsics)), _require_pose(camera_to_world, "camera_to_world"),
                    to_vec3(point, "point"), byref(u), byref(v), byref(flags))
    return Projection(float(u.value), float(v.value), ProjectFlags(flags.value))


def grid_rays(intrinsics: Intrinsics, camera_to_world: Pose, step: int = 1) -> np.ndarray:
    """Rays through the centres of every ``step``-th pixel column and row (``step >= 1``).

    Starts at pixel centre (0.5, 0.5) and goes row by row: ray ``j * ceil(width / step) + i`` passes
    through (i * step + 0.5, j * step + 0.5). Returns an (N, 6) float32 ray array (origin, unit
    direction) with N = ceil(width / step) * ceil(height / step), ready for :meth:`fathom.Mesh.cast`.
    """
    if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
        raise TypeError(f"step must be an int (pixels), got {type(step).__name__}")
    if not 0 <= int(step) <= 2**32 - 1:
        raise ValueError(f"step must be in 0..{2**32 - 1} pixels, got {step}")
    k = byref(_intrinsics(intrinsics))
    pose = _require_pose(camera_to_world, "camera_to_world")
    count = c_size_t(0)
    status = _camera_grid_rays.raw(k, pose, int(step), None, 0, byref(count))
    if status != BufferTooSmallError.STATUS:
        _check(status)  # any other error (OK is impossible: every grid has at least one ray)
    rays = np.empty((count.value, 6), dtype=np.float32)
    _camera_grid_rays(k, pose, int(step), rays.ctypes.data_as(RayPtr), count.value, byref(count))
    return rays[: count.value]
