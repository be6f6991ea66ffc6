"""The capture app's tap flows through the binding: intrinsics, pose, pixel, plane, mesh and box reach the library,
and the results (heights, the box moved in place, faces, None for a miss) come back; checked on hand-placed cameras,
planes and boxes whose answers are worked out in the comments."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
K = fathom.Intrinsics(500.0, 500.0, 320.0, 240.0, 640, 480)
C30, S30 = math.cos(math.radians(30)), math.sin(math.radians(30))
#: 1.5 m above the origin, 2 m back, pitched 30 degrees down (R_x(-30 deg)): the image centre's ray is
#: (0, -sin 30, -cos 30) = (0, -0.5, -0.866).
PITCHED = np.array([[1, 0, 0, 0], [0, C30, S30, 1.5], [0, -S30, C30, 2.0], [0, 0, 0, 1]])
#: Looking along -z, level, 1.5 m up: pixel (u, v) looks along ((u - 320) / 500, -(v - 240) / 500, -1).
LEVEL = np.array([[1, 0, 0, 0], [0, 1, 0, 1.5], [0, 0, 1, 0], [0, 0, 0, 1]], np.float64)

FLOOR_Y, TABLE_Y = -1.0, -0.3


def _quad(x0, x1, z0, z1, y) -> tuple[np.ndarray, np.ndarray]:
    v = np.array([[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]], np.float32)
    return v, np.array([[0, 2, 1], [0, 3, 2]], np.uint32)  # counter-clockwise from above: normal +y


@pytest.fixture(scope="module")
def room():
    fv, ft = _quad(-10, 10, -10, 10, FLOOR_Y)
    tv, tt = _quad(-0.5, 0.5, -1.5, -0.5, TABLE_Y)
    v = np.concatenate([fv, tv])
    t = np.concatenate([ft, tt + 4])
    classes = np.array([fathom.MeshClass.FLOOR] * 2 + [fathom.MeshClass.TABLE] * 2, np.uint8)
    with fathom.Mesh(v, t, classes) as mesh:
        yield mesh


def _centre_hit(height: float) -> np.ndarray:
    """Where PITCHED's centre ray (0, -0.5, -cos 30) from (0, 1.5, 2) meets the plane y = height."""
    t = (1.5 - height) / S30
    return np.array([0.0, height, 2.0 - t * C30])


def test_floor_height_from_plane() -> None:
    pose = fathom.Pose(PITCHED)
    h = fathom.tap_floor_height(K, pose, 320, 240, plane=((0, -1.2, 0), (0, 1, 0)))
    assert h == pytest.approx(-1.2, abs=1e-5)
    tilted = fathom.tap_floor_height(K, pose, 320, 240, plane=((0, -1.2, 0), (0, 1, 0.2)))  # a ramp
    # (y + 1.2) + 0.2 z = 0 along y = 1.5 - 0.5 t, z = 2 - cos30 t: t = 3.1 / (0.5 + 0.2 cos 30)
    t = 3.1 / (S30 + 0.2 * C30)
    assert tilted == pytest.approx(1.5 - S30 * t, abs=1e-5)


def test_floor_height_from_mesh(room) -> None:
    pose = fathom.Pose(PITCHED)
    # the centre of the image meets the table's height at z = 2 - 3.6 cos 30 = -1.12, on the table (z in -1.5..-0.5)
    assert -1.5 < _centre_hit(TABLE_Y)[2] < -0.5
    assert fathom.tap_floor_height(K, pose, 320, 240, mesh=room) == pytest.approx(TABLE_Y, abs=1e-5)
    # pixel (40, 400) looks along R_x(-30) (-0.56, -0.32, -1) = (-0.56, -0.777, -0.706): at the table's height
    # x = -0.56 * 1.8 / 0.777 = -1.3, left of the table (x in -0.5..0.5): the floor
    assert fathom.tap_floor_height(K, pose, 40, 400, mesh=room) == pytest.approx(FLOOR_Y, abs=1e-5)
    # the mesh wins over the plane when it is hit
    assert fathom.tap_floor_height(K, pose, 320, 240, mesh=room, plane=((0, -5, 0), (0, 1, 0))) == pytest.approx(
        TABLE_Y, abs=1e-5
    )


def test_floor_height_falls_back_to_the_plane(room) -> None:
    small = _quad(50, 51, 50, 51, 0.0)  # a mesh the taps never see
    with fathom.Mesh(*small) as far_mesh:
        h = fathom.tap_floor_height(K, fathom.Pose(PITCHED), 320, 240, mesh=far_mesh, plane=((0, -2, 0), (0, 1, 0)))
    assert h == pytest.approx(-2.0, abs=1e-5)


def test_floor_height_nothing_hit(room) -> None:
    level = fathom.Pose(LEVEL)
    assert fathom.tap_floor_height(K, level, 320, 10, mesh=room, plane=((0, -1, 0), (0, 1, 0))) is None  # sky
    assert fathom.tap_floor_height(K, level, 320, 400) is None  # neither mesh nor plane
    with pytest.raises(ValueError, match="normal must not be zero"):
        fathom.tap_floor_height(K, level, 320, 400, plane=((0, -1, 0), (0, 0, 0)))
    with pytest.raises(TypeError, match=r"\(point, normal\)"):
        fathom.tap_floor_height(K, level, 320, 400, plane=(0, -1, 0))


def test_place_box_on_floor_plane() -> None:
    """LEVEL's pixel (420, 365) looks along (0.2, -0.25, -1): from 1.5 m it meets y = -1.2 at t = 10.8, at
    (2.16, -1.2, -10.8); the box stands there (centre 0.3 m up)."""
    box = fathom.Box(center=(5, 0, 5), scale=(0.4, 0.6, 0.4), rot_y=0.3, floor=-1.2)
    assert fathom.tap_place_box(K, fathom.Pose(LEVEL), 420, 365, box) is True
    np.testing.assert_allclose(box.center, [2.16, -1.2 + 0.3, -10.8], atol=1e-5)
    assert box.rot_y == pytest.approx(0.3) and box.floor == pytest.approx(-1.2)
    np.testing.assert_allclose(box.scale, [0.4, 0.6, 0.4])


def test_place_box_on_mesh(room) -> None:
    box = fathom.Box(center=(5, 0, 5), scale=(0.4, 0.6, 0.4), floor=FLOOR_Y)
    assert fathom.tap_place_box(K, fathom.Pose(PITCHED), 320, 240, box, mesh=room)
    p = _centre_hit(TABLE_Y)  # the ray meets the table first
    np.testing.assert_allclose(box.center, [p[0], FLOOR_Y + 0.3, p[2]], atol=1e-5)  # stands on its floor at x, z


def test_place_box_miss_and_no_floor(room) -> None:
    box = fathom.Box(center=(5, 0, 5), scale=(0.4, 0.6, 0.4), floor=-1.2)
    before = box.copy()
    assert fathom.tap_place_box(K, fathom.Pose(LEVEL), 320, 10, box, mesh=room) is False  # the sky
    assert box == before
    floating = fathom.Box(center=(5, 0, 5))
    with pytest.raises(fathom.InvalidStateError, match="floor"):
        fathom.tap_place_box(K, fathom.Pose(PITCHED), 320, 240, floating)
    assert floating == fathom.Box(center=(5, 0, 5))
    with pytest.raises(TypeError, match="fathom.Box"):
        fathom.tap_place_box(K, fathom.Pose(PITCHED), 320, 240, fathom.OrientedBox())  # type: ignore[arg-type]


def test_box_face_under_the_tap() -> None:
    ident = fathom.Pose()
    box = fathom.Box(center=(0, 0, -3), scale=(1, 1, 1))
    assert fathom.tap_box_face(K, ident, 320, 240, box) == fathom.Face.BACK  # its +z side faces the camera
    box.set_angle(math.pi / 2)  # local -x now points to world +z
    assert fathom.tap_box_face(K, ident, 320, 240, box) == fathom.Face.LEFT
    assert fathom.tap_box_face(K, ident, 5, 5, box) is None  # the corner of the image misses it
    # from above: the top
    down = fathom.Pose(np.array([[1, 0, 0, 0], [0, 0, 1, 5], [0, -1, 0, -3], [0, 0, 0, 1]], np.float64))  # R_x(-90)
    assert fathom.tap_box_face(K, down, 320, 240, box) == fathom.Face.TOP
    # from inside: the exit face
    inside = fathom.Box(center=(0, 0, 0), scale=(2, 2, 2))
    assert fathom.tap_box_face(K, ident, 320, 240, inside) == fathom.Face.FRONT
    # a tap right of centre enters through the side the ray meets first (here still BACK, unrotated box)
    wide = fathom.Box(center=(0, 0, -3), scale=(4, 1, 1))
    face = fathom.tap_box_face(K, ident, 320 + 100, 240, wide)
    # the ray (0.2, 0, -1) meets the back face's plane z = -2.5 at x = 0.5, within the box's x = -2..2
    assert face == fathom.Face.BACK
