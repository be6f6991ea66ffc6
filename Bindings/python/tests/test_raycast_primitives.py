"""Ray casts against single primitives, against hand-derived geometry and numpy formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _raycast_reference import PairHits
from _reference import axis_angle_matrix, quat_to_matrix, random_rotation

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


def test_plane_random_against_formula(rng: np.random.Generator) -> None:
    for _ in range(200):
        o, d, p0, n = (rng.normal(size=3) for _ in range(4))
        denom = d @ n
        t = (p0 - o) @ n / denom
        hit = fathom.ray_plane(o, d, p0, n)
        if t < 1e-3 or abs(denom) < 1e-3:
            continue  # near-parallel or at the origin: float32 inputs decide
        assert hit is not None
        assert hit.t == pytest.approx(t, rel=1e-4, abs=1e-5)
        np.testing.assert_allclose(hit.normal, n / np.linalg.norm(n), atol=1e-6)
        assert hit.front_face == (denom < 0)
        np.testing.assert_allclose(hit.point, o + t * d, atol=1e-4 * (1 + abs(t)))


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


def test_sphere_random_against_quadratic(rng: np.random.Generator) -> None:
    for _ in range(300):
        o, d, c = rng.normal(size=3) * 2, rng.normal(size=3), rng.normal(size=3)
        r = rng.uniform(0.2, 2.0)
        a, b, cc = d @ d, 2 * d @ (o - c), (o - c) @ (o - c) - r * r
        disc = b * b - 4 * a * cc
        hit = fathom.ray_sphere(o, d, c, r)
        if abs(disc) < 1e-3 * a or abs(cc) < 1e-3:
            continue  # tangent, or origin on the sphere: float32 decides
        roots = [] if disc < 0 else [(-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)]
        ts = [t for t in roots if t >= 0]
        if not ts:
            assert hit is None
            continue
        assert hit is not None
        assert hit.t == pytest.approx(ts[0], rel=1e-4, abs=1e-5)
        expected_normal = (o + ts[0] * d - c) / r
        np.testing.assert_allclose(hit.normal, expected_normal, atol=1e-4)
        assert hit.front_face == (cc > 0)  # outside: the entry faces the ray


# -- oriented boxes -----------------------------------------------------------------------------


def _obb_frame():
    R = axis_angle_matrix((0, 1, 0), math.radians(30))
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


def test_obb_random_against_slabs(rng: np.random.Generator) -> None:
    for _ in range(200):
        R = random_rotation(rng)
        q = fathom.quat_from_matrix(R)
        R = quat_to_matrix(q)  # the float32 rotation the library uses
        c, half = rng.normal(size=3), rng.uniform(0.2, 1.5, 3)
        obb = fathom.OrientedBox(c, 2 * half, q)
        o, d = rng.normal(size=3) * 3, rng.normal(size=3)
        lo_, ld = R.T @ (o - c), R.T @ d
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (-half - lo_) / ld, (half - lo_) / ld
        tn, tf = np.minimum(t1, t2).max(), np.maximum(t1, t2).min()
        bh = fathom.ray_obb(o, d, obb)
        if abs(tn - tf) < 1e-3 or min(abs(tn), abs(tf)) < 1e-3:
            continue  # grazing an edge, or origin on a face: float32 decides
        if tn > tf or tf < 0:
            assert bh is None
            continue
        assert bh is not None
        assert bh.t_enter == pytest.approx(tn, rel=1e-4, abs=1e-4)
        assert bh.t_exit == pytest.approx(tf, rel=1e-4, abs=1e-4)
        assert bh.origin_inside == (tn < 0)
        assert bh.hit.t == pytest.approx(tn if tn >= 0 else tf, rel=1e-4, abs=1e-4)
        axis_in = int(np.argmax(np.minimum(t1, t2)))
        sign_in = -1 if ld[axis_in] > 0 else 1
        face_of = {(2, -1): 0, (0, -1): 1, (0, 1): 2, (1, -1): 3, (1, 1): 4, (2, 1): 5}
        assert bh.face_enter == face_of[(axis_in, sign_in)]


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


def test_triangle_random_against_moeller_trumbore(rng: np.random.Generator) -> None:
    tris = rng.normal(size=(300, 3, 3)).astype(np.float32)
    o = rng.normal(size=(300, 3)).astype(np.float32) * 2
    d = (tris.mean(axis=1) + rng.normal(size=(300, 3)) * 0.3 - o).astype(np.float32)  # aimed near each
    compared = 0
    for k in range(300):
        ref = PairHits(tris[k], np.array([[0, 1, 2]]), o[k : k + 1], d[k : k + 1])
        hit = fathom.ray_triangle(o[k], d[k], *tris[k])
        if abs(ref.margin[0, 0]) < 1e-5 or (np.isfinite(ref.t[0, 0]) and abs(ref.t[0, 0]) < 1e-5):
            continue  # on an edge or at the origin: float32 decides
        expected = bool(ref.in_range(0.0, INF)[0, 0])
        assert (hit is not None) == expected, k
        if hit is None:
            continue
        compared += 1
        assert hit.t == pytest.approx(ref.t[0, 0], rel=1e-5, abs=1e-6)
        assert (hit.u, hit.v) == pytest.approx((ref.u[0, 0], ref.v[0, 0]), abs=1e-5)
        v0, v1, v2 = tris[k].astype(np.float64)
        np.testing.assert_allclose(hit.point, (1 - hit.u - hit.v) * v0 + hit.u * v1 + hit.v * v2, atol=1e-5)
        n = np.cross(v1 - v0, v2 - v0)
        np.testing.assert_allclose(hit.normal, n / np.linalg.norm(n), atol=1e-5)
        assert hit.front_face == (d[k] @ n < 0)
    assert compared > 100


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
