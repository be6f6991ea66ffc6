"""Rays, hits, and ray casts against single primitives (plane, floor, sphere, oriented box, triangle).

Rays: a ray is the points ``origin + t * direction``. Arrays of rays are (N, 6) float32, origin xyz then
direction xyz per row, the layout of the library's ``fathom_ray``: :func:`make_rays` builds one from
(N, 3) origins and (N, 3) directions (either may be a single (3,) row, broadcast), converting once.
Directions need not be unit: ``t`` is in units of the direction's length (meters for a unit direction).
A zero direction is :class:`fathom.DegenerateError`, a NaN or infinite one :class:`fathom.NotFiniteError`.

Ranges: every cast reports hits with ``tmin <= t <= tmax`` only; ``0 <= tmin <= tmax`` and ``tmax`` may
be ``math.inf`` (``tmin > tmax`` is :class:`fathom.OutOfRangeError`).

Hits: a single cast returns a :class:`Hit` or None on a miss. Batch casts (:meth:`fathom.Mesh.cast`)
return a numpy structured array of dtype :data:`HIT_DTYPE`, the exact layout of ``fathom_hit`` (the
library writes into it directly). A miss has ``primitive == NO_HIT`` and ``t == inf``;
:func:`hit_mask` gives the hits as a boolean mask.
"""

from __future__ import annotations

import ctypes
import math
from ctypes import POINTER, byref, c_float
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Optional, Union

import numpy as np

from ._arrays import ArrayLike, to_vec3, vec3_from_c
from ._lib import CONSTANTS, BoxHitStruct, HitPtr, HitStruct, ObbStruct, RayPtr, RayStruct, Vec3, status_function
from ._scalars import real
from .box import Box, Face
from .obb import OrientedBox

__all__ = [
    "HIT_DTYPE",
    "NO_HIT",
    "BoxHit",
    "Hit",
    "MeshClass",
    "empty_hits",
    "hit_mask",
    "make_rays",
    "ray_floor",
    "ray_obb",
    "ray_plane",
    "ray_sphere",
    "ray_triangle",
]

#: ``FATHOM_NO_HIT``: the ``primitive`` of a miss.
NO_HIT: int = int(CONSTANTS["FATHOM_NO_HIT"])


class MeshClass(IntEnum):
    """ARKit's classification of a mesh face (``fathom_mesh_class``); a hit's ``classification``."""

    NONE = 0
    WALL = 1
    FLOOR = 2
    CEILING = 3
    TABLE = 4
    SEAT = 5
    WINDOW = 6
    DOOR = 7


#: The numpy mirror of ``fathom_hit`` (44 bytes): arrays of it are passed to the library in place.
HIT_DTYPE = np.dtype(
    [
        ("t", np.float32),
        ("point", np.float32, (3,)),
        ("normal", np.float32, (3,)),
        ("u", np.float32),
        ("v", np.float32),
        ("primitive", np.uint32),
        ("classification", np.uint8),
        ("front_face", np.bool_),
        ("reserved", np.uint8, (2,)),
    ],
    align=True,
)


def _check_hit_dtype() -> None:
    if HIT_DTYPE.itemsize != ctypes.sizeof(HitStruct):
        raise ImportError(f"HIT_DTYPE is {HIT_DTYPE.itemsize} bytes, fathom_hit {ctypes.sizeof(HitStruct)}")
    fields = HIT_DTYPE.fields
    assert fields is not None
    for field in HitStruct._fields_:
        name = field[0]
        if fields[name][1] != getattr(HitStruct, name).offset:
            raise ImportError(f"HIT_DTYPE.{name} is not at the offset of fathom_hit.{name}")


_check_hit_dtype()

_F32 = np.dtype(np.float32)

# ------------------------------------------------------------------------------------------------
# Arrays of rays and hits
# ------------------------------------------------------------------------------------------------


def _float_array(value: Any, name: str) -> np.ndarray:
    if isinstance(value, np.ndarray) and (
        not np.issubdtype(value.dtype, np.number) or np.issubdtype(value.dtype, np.complexfloating)
    ):
        raise TypeError(f"{name} must hold real numbers, got dtype {value.dtype}")
    try:
        return np.asarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers, got {type(value).__name__}: {exc}") from None


def make_rays(origins: ArrayLike, directions: ArrayLike) -> np.ndarray:
    """An (N, 6) float32 C-contiguous ray array from origins and directions.

    Each of ``origins`` and ``directions`` is (N, 3) or a single (3,) row used for every ray (a camera
    centre with many directions). The result is a new array, written once (any dtype is converted
    there); pass it to the batch queries as ``mesh.cast(rays)`` to reuse it without further copies.
    """
    o = _float_array(origins, "origins")
    d = _float_array(directions, "directions")
    for a, name in ((o, "origins"), (d, "directions")):
        if a.ndim not in (1, 2) or a.shape[-1] != 3:
            raise ValueError(f"{name} must have shape (N, 3) or (3,), got shape {a.shape}")
    if o.ndim == 2 and d.ndim == 2 and o.shape[0] != d.shape[0]:
        raise ValueError(f"origins and directions must have the same length, got {o.shape[0]} and {d.shape[0]}")
    n = o.shape[0] if o.ndim == 2 else d.shape[0] if d.ndim == 2 else 1
    rays = np.empty((n, 6), dtype=np.float32)
    rays[:, :3] = o
    rays[:, 3:] = d
    return rays


def _ray_array(origins: Any, directions: Any) -> np.ndarray:
    """(N, 6) float32 C-contiguous rays: ``origins`` as is if it already is such an array and
    ``directions`` is None, else :func:`make_rays`."""
    if directions is not None:
        return make_rays(origins, directions)
    a = origins if isinstance(origins, np.ndarray) else _float_array(origins, "rays")
    if a.ndim != 2 or a.shape[1] != 6:
        raise ValueError(
            f"rays must have shape (N, 6) (origin xyz, direction xyz), got shape {a.shape}; "
            f"or pass origins (N, 3) and directions (N, 3)"
        )
    if a.dtype == _F32 and a.dtype.isnative and a.flags.c_contiguous and a.ctypes.data % 4 == 0:
        return a
    return np.array(_float_array(a, "rays"), dtype=np.float32, order="C")


def _rays_ptr(rays: np.ndarray) -> Any:
    return rays.ctypes.data_as(RayPtr)


def _ray_struct(origin: ArrayLike, direction: ArrayLike) -> RayStruct:
    return RayStruct(to_vec3(origin, "origin"), to_vec3(direction, "direction"))


def _range(tmin: float, tmax: float) -> tuple[float, float]:
    """The (tmin, tmax) floats; their values (NaN, tmin > tmax) are the library's to judge."""
    return real(tmin, "tmin"), real(tmax, "tmax")


def empty_hits(count: int) -> np.ndarray:
    """An uninitialised (count,) array of :data:`HIT_DTYPE`, for the library to fill."""
    return np.empty(count, dtype=HIT_DTYPE)


def _hits_ptr(hits: np.ndarray) -> Any:
    return hits.ctypes.data_as(HitPtr)


def hit_mask(hits: np.ndarray) -> np.ndarray:
    """A boolean mask of the rays that hit: ``hits["primitive"] != NO_HIT``."""
    if not isinstance(hits, np.ndarray) or hits.dtype != HIT_DTYPE:
        raise TypeError("hits must be an array of fathom.HIT_DTYPE (as returned by Mesh.cast)")
    return hits["primitive"] != NO_HIT


# ------------------------------------------------------------------------------------------------
# Single hits
# ------------------------------------------------------------------------------------------------


def _class(value: int) -> Union[MeshClass, int]:
    try:
        return MeshClass(value)
    except ValueError:
        return value


@dataclass(frozen=True, eq=False)
class Hit:
    """A ray's hit.

    Attributes:
        t: distance along the ray, in units of ``|direction|``.
        point: ``origin + t * direction``, (3,) float32.
        normal: unit geometric normal, (3,) float32: a mesh triangle's (v1 - v0) x (v2 - v0) side, a
            plane's given normal, a box face's or sphere's outward normal.
        u, v: barycentrics of a triangle hit, ``point = (1-u-v) v0 + u v1 + v v2``; 0 otherwise.
        primitive: triangle index; box face index (:class:`fathom.Face`); 0 for planes and spheres.
        classification: a mesh triangle's :class:`MeshClass`, else ``MeshClass.NONE``.
        front_face: True if the ray meets the side the normal points to.
    """

    t: float
    point: np.ndarray
    normal: np.ndarray
    u: float
    v: float
    primitive: int
    classification: Union[MeshClass, int]
    front_face: bool

    @classmethod
    def _from_c(cls, c: HitStruct) -> Optional["Hit"]:
        if c.primitive == NO_HIT:
            return None
        return cls(
            float(c.t), vec3_from_c(c.point), vec3_from_c(c.normal), float(c.u), float(c.v),
            int(c.primitive), _class(int(c.classification)), bool(c.front_face),
        )

    @classmethod
    def from_record(cls, record: Any) -> Optional["Hit"]:
        """The :class:`Hit` of one element of a :data:`HIT_DTYPE` array, or None for a miss."""
        if int(record["primitive"]) == NO_HIT:
            return None
        return cls(
            float(record["t"]), np.array(record["point"], np.float32), np.array(record["normal"], np.float32),
            float(record["u"]), float(record["v"]), int(record["primitive"]),
            _class(int(record["classification"])), bool(record["front_face"]),
        )

    def __eq__(self, other: object) -> bool:
        """Exact equality of every field (the arrays element by element)."""
        if not isinstance(other, Hit):
            return NotImplemented
        return (
            (self.t, self.u, self.v, self.primitive, int(self.classification), self.front_face)
            == (other.t, other.u, other.v, other.primitive, int(other.classification), other.front_face)
            and np.array_equal(self.point, other.point)
            and np.array_equal(self.normal, other.normal)
        )

    __hash__ = None  # type: ignore[assignment]  # holds arrays

    def __repr__(self) -> str:
        p, n = self.point, self.normal
        return (
            f"Hit(t={self.t:.6g}, point=({p[0]:.6g}, {p[1]:.6g}, {p[2]:.6g}), "
            f"normal=({n[0]:.6g}, {n[1]:.6g}, {n[2]:.6g}), primitive={self.primitive}, "
            f"front_face={self.front_face})"
        )


@dataclass(frozen=True)
class BoxHit:
    """A ray against an oriented box (:func:`ray_obb`).

    Attributes:
        hit: the first crossing within [tmin, tmax]: the entry, or the exit when the origin is inside.
            ``hit.primitive`` is its face.
        t_enter, t_exit: where the ray's line enters and leaves the box (``t_enter < 0`` from inside).
        face_enter, face_exit: the :class:`fathom.Face` of each crossing (local axes of the box).
        origin_inside: True if the ray's origin is inside the box (faces count as inside).
    """

    hit: Hit
    t_enter: float
    t_exit: float
    face_enter: Face
    face_exit: Face
    origin_inside: bool


# ------------------------------------------------------------------------------------------------
# Primitive casts
# ------------------------------------------------------------------------------------------------

_ray_plane = status_function("fathom_ray_plane", RayPtr, c_float, c_float, Vec3, Vec3, HitPtr)
_ray_floor = status_function("fathom_ray_floor", RayPtr, c_float, c_float, c_float, HitPtr)
_ray_sphere = status_function("fathom_ray_sphere", RayPtr, c_float, c_float, Vec3, c_float, HitPtr)
_ray_obb = status_function("fathom_ray_obb", RayPtr, c_float, c_float, POINTER(ObbStruct), POINTER(BoxHitStruct))
_ray_triangle = status_function("fathom_ray_triangle", RayPtr, c_float, c_float, Vec3, Vec3, Vec3, HitPtr)


def ray_plane(
    origin: ArrayLike, direction: ArrayLike, point: ArrayLike, normal: ArrayLike,
    tmin: float = 0.0, tmax: float = math.inf,
) -> Optional[Hit]:
    """The ray against the plane through ``point`` with ``normal`` (non-zero; need not be unit).

    A ray lying in the plane or parallel to it misses. The hit's normal is the given normal
    (normalized); ``front_face`` says whether the ray comes from the side it points to.
    """
    out = HitStruct()
    lo, hi = _range(tmin, tmax)
    _ray_plane(byref(_ray_struct(origin, direction)), lo, hi, to_vec3(point, "point"), to_vec3(normal, "normal"),
               byref(out))
    return Hit._from_c(out)


def ray_floor(
    origin: ArrayLike, direction: ArrayLike, height: float = 0.0, tmin: float = 0.0, tmax: float = math.inf
) -> Optional[Hit]:
    """The ray against the horizontal plane ``y = height`` (the floor), normal +y."""
    out = HitStruct()
    lo, hi = _range(tmin, tmax)
    _ray_floor(byref(_ray_struct(origin, direction)), lo, hi, real(height, "height"), byref(out))
    return Hit._from_c(out)


def ray_sphere(
    origin: ArrayLike, direction: ArrayLike, center: ArrayLike, radius: float,
    tmin: float = 0.0, tmax: float = math.inf,
) -> Optional[Hit]:
    """The ray against a sphere (``radius > 0``). From inside, the exit point is hit (``front_face``
    False); the normal is always the outward one."""
    out = HitStruct()
    lo, hi = _range(tmin, tmax)
    _ray_sphere(byref(_ray_struct(origin, direction)), lo, hi, to_vec3(center, "center"), real(radius, "radius"),
                byref(out))
    return Hit._from_c(out)


def ray_obb(
    origin: ArrayLike, direction: ArrayLike, box: Union[OrientedBox, Box],
    tmin: float = 0.0, tmax: float = math.inf,
) -> Optional[BoxHit]:
    """The ray against an oriented box (a :class:`fathom.Box` is taken as its :meth:`~fathom.Box.to_obb`).

    Returns a :class:`BoxHit` with the first crossing within [tmin, tmax] and both crossings of the
    ray's line, or None when nothing within the range is hit (the library then reports no crossings).
    """
    if isinstance(box, Box):
        box = box.to_obb()
    elif not isinstance(box, OrientedBox):
        raise TypeError(f"box must be a fathom.OrientedBox or fathom.Box, got {type(box).__name__}")
    out = BoxHitStruct()
    lo, hi = _range(tmin, tmax)
    _ray_obb(byref(_ray_struct(origin, direction)), lo, hi, box, byref(out))
    hit = Hit._from_c(out.hit)
    if hit is None:
        return None
    return BoxHit(
        hit=hit, t_enter=float(out.t_enter), t_exit=float(out.t_exit), face_enter=Face(out.face_enter),
        face_exit=Face(out.face_exit), origin_inside=bool(out.origin_inside),
    )


def ray_triangle(
    origin: ArrayLike, direction: ArrayLike, v0: ArrayLike, v1: ArrayLike, v2: ArrayLike,
    tmin: float = 0.0, tmax: float = math.inf,
) -> Optional[Hit]:
    """The ray against one triangle, with the watertight test the meshes use; both sides are hit.

    ``u``, ``v`` are the barycentrics of the hit (``point = (1-u-v) v0 + u v1 + v v2``); the normal
    is (v1 - v0) x (v2 - v0), normalized. A degenerate (zero-area) triangle is never hit.
    """
    out = HitStruct()
    lo, hi = _range(tmin, tmax)
    _ray_triangle(byref(_ray_struct(origin, direction)), lo, hi, to_vec3(v0, "v0"), to_vec3(v1, "v1"),
                  to_vec3(v2, "v2"), byref(out))
    return Hit._from_c(out)
