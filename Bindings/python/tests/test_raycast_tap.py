"""The capture app's tap flows, against numpy rays (conventions.md) met with hand-placed planes and boxes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _raycast_reference import camera_ray
from _reference import axis_angle_matrix, rigid

K = fathom.Intrinsics(500.0, 500.0, 320.0, 240.0, 640, 480)
#: 1.5 m above the origin, 2 m back, pitched 30 degrees down.
PITCHED = rigid(axis_angle_matrix((1, 0, 0), math.radians(-30)), (0.0, 1.5, 2.0))
LEVEL = rigid(np.eye(3), (0.0, 1.5, 0.0))  # looking along -z, level: the top half of the image sees the sky

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


def _plane_hit(pose, u, v, height):
    o, d = camera_ray(K, pose, u, v)
    t = (height - o[1]) / d[1]
    return o + t * d if t > 0 else None


def _on_table(p) -> bool:
    return p is not None and -0.5 <= p[0] <= 0.5 and -1.5 <= p[2] <= -0.5


def test_floor_height_from_plane() -> None:
    pose = fathom.Pose(PITCHED)
    h = fathom.tap_floor_height(K, pose, 320, 240, plane=((0, -1.2, 0), (0, 1, 0)))
    assert h == pytest.approx(-1.2, abs=1e-5)
    tilted = fathom.tap_floor_height(K, pose, 320, 240, plane=((0, -1.2, 0), (0, 1, 0.2)))  # a ramp
    o, d = camera_ray(K, PITCHED, 320, 240)
    n = np.array([0, 1, 0.2])
    t = (np.array([0, -1.2, 0]) - o) @ n / (d @ n)
    assert tilted == pytest.approx((o + t * d)[1], abs=1e-5)


def test_floor_height_from_mesh(room) -> None:
    pose = fathom.Pose(PITCHED)
    table_tap = _plane_hit(PITCHED, 320, 240, TABLE_Y)
    assert _on_table(table_tap)  # the centre of the image looks at the table
    assert fathom.tap_floor_height(K, pose, 320, 240, mesh=room) == pytest.approx(TABLE_Y, abs=1e-5)
    assert not _on_table(_plane_hit(PITCHED, 40, 400, TABLE_Y))  # bottom left: past the table, the floor
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
    box = fathom.Box(center=(5, 0, 5), scale=(0.4, 0.6, 0.4), rot_y=0.3, floor=-1.2)
    assert fathom.tap_place_box(K, fathom.Pose(PITCHED), 300, 260, box) is True
    p = _plane_hit(PITCHED, 300, 260, -1.2)
    np.testing.assert_allclose(box.center, [p[0], -1.2 + 0.3, p[2]], atol=1e-5)
    assert box.rot_y == pytest.approx(0.3) and box.floor == pytest.approx(-1.2)
    np.testing.assert_allclose(box.scale, [0.4, 0.6, 0.4])


def test_place_box_on_mesh(room) -> None:
    box = fathom.Box(center=(5, 0, 5), scale=(0.4, 0.6, 0.4), floor=FLOOR_Y)
    assert fathom.tap_place_box(K, fathom.Pose(PITCHED), 320, 240, box, mesh=room)
    p = _plane_hit(PITCHED, 320, 240, TABLE_Y)  # the ray meets the table first
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
    down = fathom.Pose(rigid(axis_angle_matrix((1, 0, 0), -math.pi / 2), (0, 5, -3)))
    assert fathom.tap_box_face(K, down, 320, 240, box) == fathom.Face.TOP
    # from inside: the exit face
    inside = fathom.Box(center=(0, 0, 0), scale=(2, 2, 2))
    assert fathom.tap_box_face(K, ident, 320, 240, inside) == fathom.Face.FRONT
    # a tap right of centre enters through the side the ray meets first (here still BACK, unrotated box)
    wide = fathom.Box(center=(0, 0, -3), scale=(4, 1, 1))
    face = fathom.tap_box_face(K, ident, 320 + 100, 240, wide)
    o, d = camera_ray(K, np.eye(4), 420, 240)
    t_back = (-2.5 - o[2]) / d[2]
    assert abs((o + t_back * d)[0]) <= 2.0 and face == fathom.Face.BACK
