"""The capture app's tap flows (reference/box.md): each casts the ray of a screen tap from the camera.

A tap is a pixel (u, v) of the image the ``intrinsics`` describe (continuous coordinates, (0, 0) the
top-left corner); the camera pose is camera-to-world, a :class:`fathom.Pose` or a (4, 4) matrix. See
:func:`fathom.camera_ray` for the ray.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_bool, c_float, c_uint32
from typing import Any, Optional

from ._arrays import ArrayLike, pose_struct, to_vec3
from ._lib import BoxStruct, IntrinsicsPtr, MeshPtr, PosePtr, Vec3, status_function
from ._scalars import real
from .box import Box, Face
from .camera import Intrinsics, intrinsics_struct
from .geometry import PoseLike
from .mesh import Mesh
from .raycast import NO_HIT

__all__ = ["tap_box_face", "tap_floor_height", "tap_place_box"]

_tap_floor_height = status_function(
    "fathom_tap_floor_height", IntrinsicsPtr, PosePtr, c_float, c_float, MeshPtr, Vec3, Vec3,
    POINTER(c_float), POINTER(c_bool),
)
_tap_place_box = status_function(
    "fathom_tap_place_box", IntrinsicsPtr, PosePtr, c_float, c_float, MeshPtr, POINTER(BoxStruct), POINTER(c_bool)
)
_tap_box_face = status_function(
    "fathom_tap_box_face", IntrinsicsPtr, PosePtr, c_float, c_float, POINTER(BoxStruct), POINTER(c_uint32)
)


def _mesh(value: Any) -> Any:
    if value is None:
        return None
    if not isinstance(value, Mesh):
        raise TypeError(f"mesh must be a fathom.Mesh or None, got {type(value).__name__}")
    return value._handle()


def _box(value: Any) -> Box:
    if not isinstance(value, Box):
        raise TypeError(f"box must be a fathom.Box, got {type(value).__name__}")
    return value


def tap_floor_height(
    intrinsics: Intrinsics,
    camera_to_world: PoseLike,
    u: float,
    v: float,
    mesh: Optional[Mesh] = None,
    plane: Optional[tuple[ArrayLike, ArrayLike]] = None,
) -> Optional[float]:
    """The floor height (world y) under a tap, or None if nothing is hit.

    The y of the tap ray's first hit on ``mesh`` or, when no mesh is given or it is missed, on
    ``plane`` = (point, normal) (a detected plane; the normal must not be zero).
    """
    if plane is None:
        point, normal = Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.0)  # a zero normal: no plane
    else:
        try:
            p, n = plane
        except (TypeError, ValueError):
            raise TypeError("plane must be a (point, normal) pair or None") from None
        point, normal = to_vec3(p, "plane point"), to_vec3(n, "plane normal")
        if normal.x == 0.0 and normal.y == 0.0 and normal.z == 0.0:
            raise ValueError("plane normal must not be zero (pass plane=None for no plane)")
    height, found = c_float(), c_bool(False)
    _tap_floor_height(
        byref(intrinsics_struct(intrinsics)), byref(pose_struct(camera_to_world, "camera_to_world")),
        real(u, "u"), real(v, "v"), _mesh(mesh), point, normal, byref(height), byref(found),
    )
    return float(height.value) if found.value else None


def tap_place_box(
    intrinsics: Intrinsics,
    camera_to_world: PoseLike,
    u: float,
    v: float,
    box: Box,
    mesh: Optional[Mesh] = None,
) -> bool:
    """Stands ``box`` on its floor where a tap's ray meets ``mesh`` (or, if None or missed, the box's
    floor plane): the box's centre moves to the hit's x, z (:meth:`fathom.Box.set_center_on_floor`).

    Changes ``box`` in place and returns True, or returns False and leaves it unchanged when nothing
    is hit. The box must have a floor (:class:`fathom.InvalidStateError`).
    """
    b = _box(box)
    found = c_bool(False)
    _tap_place_box(
        byref(intrinsics_struct(intrinsics)), byref(pose_struct(camera_to_world, "camera_to_world")),
        real(u, "u"), real(v, "v"), _mesh(mesh), b, byref(found),
    )
    return bool(found.value)


def tap_box_face(intrinsics: Intrinsics, camera_to_world: PoseLike, u: float, v: float, box: Box) -> Optional[Face]:
    """The :class:`fathom.Face` of ``box`` under a tap (the face its ray enters; the exit face when the
    camera is inside the box), or None when the ray misses the box."""
    b = _box(box)
    face = c_uint32(0)
    _tap_box_face(
        byref(intrinsics_struct(intrinsics)), byref(pose_struct(camera_to_world, "camera_to_world")),
        real(u, "u"), real(v, "v"), b, byref(face),
    )
    return None if face.value == NO_HIT else Face(face.value)
