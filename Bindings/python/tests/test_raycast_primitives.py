"""Ray casts against single primitives: the binding's arguments (points, directions, ranges, the box) reach the
library and its hits come back field by field, checked on hand-derived geometry. The math on random rays is the
core tests' (RayCastPrimitiveTests.swift, against Double references)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom

INF = math.inf


def _hit_fields(hit: fathom.Hit, t, point, normal, front: bool, primitive: int = 0, atol: float = 1e-6) -> None:
    assert hit is not None
    assert hit.t == pytest.approx(t, abs=atol, rel=1e-6)
    np.testing.assert_allclose(hit.point, point, atol=atol * 4)
    np.testing.assert_allclose(hit.normal, normal, atol=1e-6)
    assert hit.front_face is front
    assert hit.primitive == primitive
    assert hit.classification == fathom.MeshClass.NONE


# -- planes -------------------------------------------------------------------------------------


def test_plane_by_hand() -> None:
    hit = fathom.ray_plane((0, 2, 0), (0, -1, 0), (0, 0, 0), (0, 1, 0))
    _hit_fields(hit, 2.0, (0, 0, 0), (0, 1, 0), front=True)
    assert (hit.u, hit.v) == (0.0, 0.0)
    below = fathom.ray_plane((1, -3, 2), (0, 0.5, 0), (0, 0, 0), (0, 4, 0))  # non-unit normal and direction
    _hit_fields(below, 6.0, (1, 0, 2), (0, 1, 0), front=False)


def test_plane_misses() -> None:
    assert fathom.ray_plane((0, 1, 0), (1, 0, 0), (0, 0, 0), (0, 1, 0)) is None  # parallel
    assert fathom.ray_plane((0, 0, 0), (1, 0, 0), (0, 0, 0), (0, 1, 0)) is None  # in the plane
    assert fathom.ray_plane((0, 1, 0), (0, 1, 0), (0, 0, 0), (0, 1, 0)) is None  # plane behind the origin


def test_plane_range_is_inclusive() -> None:
    args = ((0, 2, 0), (0, -1, 0), (0, 0, 0), (0, 1, 0))
    assert fathom.ray_plane(*args, tmax=1.999) is None
    assert fathom.ray_plane(*args, tmin=2.001) is None
    assert fathom.ray_plane(*args, tmin=2.0, tmax=2.0).t == 2.0
    assert fathom.ray_plane(*args, tmin=0.5, tmax=INF).t == 2.0


def test_floor() -> None:
    hit = fathom.ray_floor((1, 1, 1), (1, -1, 0.5), height=-1.2)
    _hit_fields(hit, 2.2, (3.2, -1.2, 2.1), (0, 1, 0), front=True)
    assert fathom.ray_floor((0, 1, 0), (0, 1, 0), height=0.0) is None
    assert fathom.ray_floor((0, -1, 0), (0, 1, 0), height=0.0).front_face is False
    assert fathom.ray_floor((0, 1, 0), (0, -1, 0)).t == pytest.approx(1.0)  # default height 0


# -- spheres ------------------------------------------------------------------------------------


def test_sphere_by_hand() -> None:
    hit = fathom.ray_sphere((-2, 2, 3), (1, 0, 0), (1, 2, 3), 0.5)
    _hit_fields(hit, 2.5, (0.5, 2, 3), (-1, 0, 0), front=True)
    inside = fathom.ray_sphere((1, 2, 3), (0, 0, 2), (1, 2, 3), 0.5)  # from inside: the exit, t in |d| units
    _hit_fields(inside, 0.25, (1, 2, 3.5), (0, 0, 1), front=False)
    assert fathom.ray_sphere((-2, 2.6, 3), (1, 0, 0), (1, 2, 3), 0.5) is None  # passes above
    assert fathom.ray_sphere((2, 2, 3), (1, 0, 0), (1, 2, 3), 0.5) is None  # sphere behind
    far = fathom.ray_sphere((-2, 2, 3), (1, 0, 0), (1, 2, 3), 0.5, tmin=2.6)  # entry skipped: the exit
    _hit_fields(far, 3.5, (1.5, 2, 3), (1, 0, 0), front=False)


# -- oriented boxes -----------------------------------------------------------------------------


def _obb_frame():
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])  # 30 degrees about +y (right-hand rule)
    center = np.array([0.5, 1.0, -2.0])
    obb = fathom.OrientedBox(center, (2, 4, 6), fathom.quat_from_matrix(R))
    return obb, center, R


def test_obb_through_front_and_back() -> None:
    obb, c, R = _obb_frame()
    o = c + R @ [0.1, 0.2, -10.0]
    d = R @ [0.0, 0.0, 1.0]
    bh = fathom.ray_obb(o, d, obb)
    assert isinstance(bh, fathom.BoxHit)
    assert bh.t_enter == pytest.approx(7.0, abs=1e-5) and bh.t_exit == pytest.approx(13.0, abs=1e-5)
    assert bh.face_enter == fathom.Face.FRONT and bh.face_exit == fathom.Face.BACK
    assert bh.origin_inside is False
    _hit_fields(bh.hit, 7.0, c + R @ [0.1, 0.2, -3.0], R @ [0, 0, -1], front=True, primitive=fathom.Face.FRONT, atol=1e-5)


def test_obb_from_inside_hits_the_exit() -> None:
    obb, c, R = _obb_frame()
    bh = fathom.ray_obb(c + R @ [0.2, 0.1, 0.3], R @ [2.0, 0.0, 0.0], obb)  # |d| = 2: t in half meters
    assert bh.origin_inside is True
    assert bh.t_enter == pytest.approx(-0.6, abs=1e-5) and bh.t_exit == pytest.approx(0.4, abs=1e-5)
    assert bh.face_enter == fathom.Face.LEFT and bh.face_exit == fathom.Face.RIGHT
    _hit_fields(bh.hit, 0.4, c + R @ [1.0, 0.1, 0.3], R @ [1, 0, 0], front=False, primitive=fathom.Face.RIGHT, atol=1e-5)


def test_obb_top_and_miss_and_box() -> None:
    obb, c, R = _obb_frame()
    down = fathom.ray_obb(c + [0.0, 5.0, 0.0], (0, -1, 0), obb)
    assert down.face_enter == fathom.Face.TOP and down.face_exit == fathom.Face.BOTTOM
    assert down.hit.t == pytest.approx(3.0, abs=1e-5)
    assert fathom.ray_obb(c + [10.0, 5.0, 0.0], (0, -1, 0), obb) is None
    assert fathom.ray_obb(c + [0.0, 5.0, 0.0], (0, -1, 0), obb, tmax=2.9) is None
    box = fathom.Box((0, 0.5, 0), (1, 1, 1), 0.0)
    assert fathom.ray_obb((0, 0.5, -5), (0, 0, 1), box).face_enter == fathom.Face.FRONT  # a Box is its OBB


# -- triangles ----------------------------------------------------------------------------------

TRI = ((0, 0, 0), (1, 0, 0), (0, 1, 0))


def test_triangle_by_hand_both_sides() -> None:
    hit = fathom.ray_triangle((0.2, 0.3, 1), (0, 0, -1), *TRI)
    _hit_fields(hit, 1.0, (0.2, 0.3, 0), (0, 0, 1), front=True)
    assert (hit.u, hit.v) == pytest.approx((0.2, 0.3), abs=1e-6)
    back = fathom.ray_triangle((0.2, 0.3, -1), (0, 0, 4), *TRI)
    _hit_fields(back, 0.25, (0.2, 0.3, 0), (0, 0, 1), front=False)
    assert fathom.ray_triangle((0.7, 0.7, 1), (0, 0, -1), *TRI) is None  # outside the hypotenuse
    assert fathom.ray_triangle((0.2, 0.3, 1), (0, 0, -1), *TRI, tmax=0.5) is None
    assert fathom.ray_triangle((0.2, 0.3, 1), (0, 0, -1), (0, 0, 0), (1, 0, 0), (2, 0, 0)) is None  # zero area


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda **kw: fathom.ray_plane((0, 1, 0), (0, -1, 0), (0, 0, 0), (0, 1, 0), **kw),
        lambda **kw: fathom.ray_floor((0, 1, 0), (0, -1, 0), 0.0, **kw),
        lambda **kw: fathom.ray_sphere((0, 3, 0), (0, -1, 0), (0, 0, 0), 1.0, **kw),
        lambda **kw: fathom.ray_obb((0, 3, 0), (0, -1, 0), fathom.OrientedBox(), **kw),
        lambda **kw: fathom.ray_triangle((0.1, 0.1, 1), (0, 0, -1), *TRI, **kw),
    ],
    ids=["plane", "floor", "sphere", "obb", "triangle"],
)
def test_range_errors(call) -> None:
    assert call() is not None
    with pytest.raises(fathom.OutOfRangeError, match="tmin"):
        call(tmin=2.0, tmax=1.0)
    with pytest.raises(fathom.OutOfRangeError, match="tmin"):
        call(tmin=-1.0)
    with pytest.raises(fathom.NotFiniteError):
        call(tmax=float("nan"))
    with pytest.raises(TypeError, match="tmax must be a real number"):
        call(tmax="far")


def test_bad_rays() -> None:
    with pytest.raises(fathom.DegenerateError, match="direction"):
        fathom.ray_plane((0, 1, 0), (0, 0, 0), (0, 0, 0), (0, 1, 0))
    with pytest.raises(fathom.NotFiniteError, match="direction"):
        fathom.ray_sphere((0, 1, 0), (0, float("nan"), 0), (0, 0, 0), 1.0)
    with pytest.raises(fathom.NotFiniteError, match="origin"):
        fathom.ray_triangle((float("inf"), 1, 0), (0, -1, 0), *TRI)
    with pytest.raises(ValueError, match="direction must have shape"):
        fathom.ray_floor((0, 1, 0), (0, -1))


def test_bad_primitives() -> None:
    with pytest.raises(fathom.DegenerateError, match="normal"):
        fathom.ray_plane((0, 1, 0), (0, -1, 0), (0, 0, 0), (0, 0, 0))
    with pytest.raises(fathom.OutOfRangeError, match="radius"):
        fathom.ray_sphere((0, 3, 0), (0, -1, 0), (0, 0, 0), 0.0)
    with pytest.raises(fathom.OutOfRangeError, match="radius"):
        fathom.ray_sphere((0, 3, 0), (0, -1, 0), (0, 0, 0), -1.0)
    with pytest.raises(fathom.NotFiniteError, match="height"):
        fathom.ray_floor((0, 3, 0), (0, -1, 0), float("nan"))
    with pytest.raises(TypeError, match="OrientedBox"):
        fathom.ray_obb((0, 3, 0), (0, -1, 0), (0, 0, 0))  # type: ignore[arg-type]
