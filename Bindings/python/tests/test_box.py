"""The capture app's box through the binding: fields in and out as float32 arrays, corners and faces in the
FATHOM_CORNER_* / FATHOM_FACE_* order, edits in place, value semantics and errors; checked on boxes whose corners,
faces and edits are worked out by hand from reference/box.md (a quarter turn, so that x and z trade places). The
formulas on random boxes are the core tests' (BoxTests, BoxFacesTests, BoxEditsTests)."""

from __future__ import annotations

import copy
import ctypes
import pickle

import numpy as np
import pytest

import fathom
from _poses import rigid, rot_x, rot_y

ATOL = 1e-5
#: Local corner signs in FATHOM_CORNER_* order (box.md's table): front is local -z, left -x, top +y.
CORNER_SIGNS = np.array([(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1),
                         (-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)], np.float64)


@pytest.fixture
def box() -> fathom.Box:
    return fathom.Box(center=(1.0, 0.5, -2.0), scale=(0.4, 1.0, 0.6), rot_y=0.3)


def test_fields(box: fathom.Box) -> None:
    np.testing.assert_allclose(box.center, [1.0, 0.5, -2.0])
    np.testing.assert_allclose(box.scale, [0.4, 1.0, 0.6])
    assert box.rot_y == pytest.approx(0.3)
    assert box.floor is None
    assert box.center.dtype == np.float32


def test_corners_hand_derived() -> None:
    """90 degrees about +y: local +x -> world -z, local +z -> world +x (R_y(pi/2) columns); every corner is
    (center) + (sz/2 * sign_z, sy/2 * sign_y, -sx/2 * sign_x), in the header's corner order."""
    corners = fathom.Box((1, 2, 3), (2, 4, 6), np.pi / 2).corners
    assert corners.shape == (8, 3) and corners.dtype == np.float32
    signs = CORNER_SIGNS
    np.testing.assert_allclose(corners, np.array([1, 2, 3]) + np.column_stack([3 * signs[:, 2], 2 * signs[:, 1],
                                                                              -1 * signs[:, 0]]), atol=ATOL)
    # top_left_front: local (-1, +2, -3) -> world (1 - 3, 2 + 2, 3 + 1)
    np.testing.assert_allclose(corners[fathom.Corner.TOP_LEFT_FRONT], [-2, 4, 4], atol=ATOL)


def test_corners_clamped_to_floor() -> None:
    b = fathom.Box((0, 0.2, 0), (1, 1, 1), 0.0, floor=0.0)  # bottom at -0.3 raised to the floor at 0
    expected = np.column_stack([0.5 * CORNER_SIGNS[:, 0], np.where(CORNER_SIGNS[:, 1] > 0, 0.7, 0.0),
                                0.5 * CORNER_SIGNS[:, 2]])
    np.testing.assert_allclose(b.corners, expected, atol=ATOL)
    assert b.floor == pytest.approx(0.0)
    np.testing.assert_allclose(b.center, [0, 0.2, 0])  # the box does not move


def test_floor_below_box_changes_nothing() -> None:
    b = fathom.Box((0, 2, 0), (1, 1, 1), 0.0, floor=-1.0)
    np.testing.assert_allclose(b.corners, [0, 2, 0] + 0.5 * CORNER_SIGNS, atol=ATOL)


def test_corner_and_face_names() -> None:
    assert fathom.CORNER_NAMES == ("top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
                                   "top_left_back", "top_right_back", "bot_right_back", "bot_left_back")
    assert fathom.FACE_NAMES == ("front", "left", "right", "bottom", "top", "back")
    assert fathom.Corner.BOT_LEFT_BACK == 7 and fathom.Face.TOP == 4


# -- edits ----------------------------------------------------------------------------------------


def test_set_center(box: fathom.Box) -> None:
    out = box.set_center((3, 4, 5))
    np.testing.assert_allclose(out, [3, 4, 5])
    np.testing.assert_allclose(box.center, [3, 4, 5])


def test_update_center_world(box: fathom.Box) -> None:
    out = box.update_center((0.1, -0.2, 0.3))
    np.testing.assert_allclose(out, [1.1, 0.3, -1.7], atol=ATOL)


def test_update_center_in_camera_frame(box: fathom.Box) -> None:
    R = rot_y(np.pi / 2) @ rot_x(-0.3)
    camera = fathom.Pose(rigid(R, (10, 20, 30)))  # the camera's translation must not matter
    offset = np.array([0.1, 0.0, -0.5])
    expected = np.array([1.0, 0.5, -2.0]) + R @ offset
    np.testing.assert_allclose(box.update_center(offset, camera=camera), expected, atol=ATOL)


def test_update_center_camera_must_be_a_pose_or_matrix(box: fathom.Box) -> None:
    with pytest.raises(TypeError, match=r"camera must be a fathom.Pose or a \(4, 4\) array-like"):
        box.update_center((0, 0, 0), camera="front")  # type: ignore[arg-type]
    with pytest.raises(fathom.NotRigidError, match="fathom_box_update_center_in_camera"):
        box.update_center((0, 0, 0), camera=np.diag([2.0, 1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(box.center, [1.0, 0.5, -2.0])  # a refused call moves nothing


def test_set_center_on_floor(box: fathom.Box) -> None:
    box.set_floor(0.25)
    out = box.set_center_on_floor(2.0, -1.0)
    np.testing.assert_allclose(out, [2.0, 0.25 + 1.0 / 2, -1.0], atol=ATOL)


def test_set_scale_without_floor_keeps_center(box: fathom.Box) -> None:
    center, scale = box.set_scale((1, 2, 3))
    np.testing.assert_allclose(scale, [1, 2, 3])
    np.testing.assert_allclose(center, [1.0, 0.5, -2.0])


def test_set_scale_with_floor_reseats(box: fathom.Box) -> None:
    box.set_floor(-0.1)
    center, scale = box.set_scale((1, 2, 3))
    np.testing.assert_allclose(center, [1.0, -0.1 + 1.0, -2.0], atol=ATOL)
    np.testing.assert_allclose(box.corners[:, 1].min(), -0.1, atol=ATOL)


def test_update_scale(box: fathom.Box) -> None:
    center, scale = box.update_scale((2, 0.5, 1))
    np.testing.assert_allclose(scale, [0.8, 0.5, 0.6], atol=ATOL)
    np.testing.assert_allclose(center, [1.0, 0.5, -2.0])


def test_update_scale_with_floor_reseats(box: fathom.Box) -> None:
    box.set_floor(0.0)
    center, scale = box.update_scale((1, 3, 1))
    np.testing.assert_allclose(scale, [0.4, 3.0, 0.6], atol=ATOL)
    np.testing.assert_allclose(center[1], 1.5, atol=ATOL)


def test_angles(box: fathom.Box) -> None:
    assert box.set_angle(1.0) == pytest.approx(1.0)
    assert box.update_angle(0.25) == pytest.approx(1.25)
    assert box.update_angle(10.0) == pytest.approx(11.25)  # not wrapped
    assert box.rot_y == pytest.approx(11.25)


def test_set_and_clear_floor(box: fathom.Box) -> None:
    box.set_floor(0.1)
    assert box.floor == pytest.approx(0.1)
    box.clear_floor()
    assert box.floor is None
    assert box.corners[:, 1].min() == pytest.approx(0.0, abs=ATOL)  # the bottom is at 0.5 - 1.0 / 2 again


def test_property_setters(box: fathom.Box) -> None:
    box.center = (0, 0, 0)
    box.scale = (1, 1, 1)
    box.rot_y = 0.5
    box.floor = -0.5
    assert box.isclose(fathom.Box((0, 0, 0), (1, 1, 1), 0.5, floor=-0.5))
    box.floor = None
    assert box.floor is None


#: Each face's axis and side in FATHOM_FACE_* order: front -z, left -x, right +x, bottom -y, top +y, back +z.
FACE_AXES = [(2, -1), (0, -1), (0, +1), (1, -1), (1, +1), (2, +1)]


def _face_corners(corners: np.ndarray, face: int) -> np.ndarray:
    axis, sign = FACE_AXES[face]
    return corners[CORNER_SIGNS[:, axis] == sign]


@pytest.mark.parametrize("offset", [(0, 0, -0.1), (0, 0, 0.2), (0.15, 0, 0), (-0.05, 0, 0), (0, 0.3, 0), (0, -0.1, 0)])
def test_extend_side_keeps_opposite_face(box: fathom.Box, offset: tuple[float, float, float]) -> None:
    before = box.corners
    center, scale = box.extend_side(offset)
    o = np.array(offset, np.float64)
    np.testing.assert_allclose(scale, np.array([0.4, 1.0, 0.6]) + np.abs(o), atol=ATOL)
    np.testing.assert_allclose(center, np.array([1.0, 0.5, -2.0]) + rot_y(0.3) @ o / 2, atol=ATOL)
    axis = int(np.flatnonzero(o)[0])
    sign = int(np.sign(o[axis]))
    moved = {(2, -1): 0, (0, -1): 1, (0, 1): 2, (1, -1): 3, (1, 1): 4, (2, 1): 5}[(axis, sign)]
    opposite = {(2, -1): 5, (0, -1): 2, (0, 1): 1, (1, -1): 4, (1, 1): 3, (2, 1): 0}[(axis, sign)]
    after = box.corners
    np.testing.assert_allclose(_face_corners(after, opposite), _face_corners(before, opposite), atol=ATOL)
    shift = rot_y(0.3) @ o  # the moved face goes out by |offset| along its outward normal
    np.testing.assert_allclose(_face_corners(after, moved), _face_corners(before, moved) + shift, atol=ATOL)


@pytest.mark.parametrize("offset", [(0, 0, -0.1), (0.15, 0, 0), (0, 0.3, 0), (0, -0.2, 0)])
def test_shrink_side_moves_face_opposite_the_sign(box: fathom.Box, offset: tuple[float, float, float]) -> None:
    before = box.corners
    center, scale = box.shrink_side(offset)
    o = np.array(offset, np.float64)
    np.testing.assert_allclose(scale, np.array([0.4, 1.0, 0.6]) - np.abs(o), atol=ATOL)
    np.testing.assert_allclose(center, np.array([1.0, 0.5, -2.0]) + rot_y(0.3) @ o / 2, atol=ATOL)
    axis = int(np.flatnonzero(o)[0])
    sign = int(np.sign(o[axis]))
    stays = {(2, -1): 0, (0, -1): 1, (0, 1): 2, (1, -1): 3, (1, 1): 4, (2, 1): 5}[(axis, sign)]
    moves = {(2, -1): 5, (0, -1): 2, (0, 1): 1, (1, -1): 4, (1, 1): 3, (2, 1): 0}[(axis, sign)]
    after = box.corners
    np.testing.assert_allclose(_face_corners(after, stays), _face_corners(before, stays), atol=ATOL)
    np.testing.assert_allclose(_face_corners(after, moves), _face_corners(before, moves) + rot_y(0.3) @ o, atol=ATOL)


def test_extend_then_shrink_restores(box: fathom.Box) -> None:
    box.extend_side((0.1, -0.2, 0.3))
    box.shrink_side((-0.1, 0.2, -0.3))
    assert box.isclose(fathom.Box((1.0, 0.5, -2.0), (0.4, 1.0, 0.6), 0.3), atol=1e-5)


# -- faces and distances --------------------------------------------------------------------------


def test_faces_of_a_quarter_turned_box() -> None:
    """R_y(pi/2) at (1, 2, 3), scale (2, 4, 6): the front (local -z) faces world -x, its centre 3 m from the box's;
    left (local -x) faces +z, 1 m off; top +y, 2 m up. A face's frame has its normal as z; its quaternion (x, y, z, w)
    turns +z onto that normal."""
    faces = fathom.Box((1, 2, 3), (2, 4, 6), np.pi / 2).faces
    assert faces.centers.shape == (6, 3) and faces.normals.shape == (6, 3) and faces.orientations.shape == (6, 4)
    normals = [[-1, 0, 0], [0, 0, 1], [0, 0, -1], [0, -1, 0], [0, 1, 0], [1, 0, 0]]
    np.testing.assert_allclose(faces.normals, normals, atol=ATOL)
    np.testing.assert_allclose(faces.centers, np.array([1, 2, 3]) + np.array([3, 1, 1, 2, 2, 3])[:, None] * normals,
                               atol=ATOL)
    for q, n in zip(faces.orientations.astype(np.float64), normals):
        x, y, z, w = q
        turned_z = [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]  # R(q) e_z
        np.testing.assert_allclose(turned_z, n, atol=ATOL)


def test_face_normals_point_outward(box: fathom.Box) -> None:
    R = rot_y(0.3)
    expected = np.array([-R[:, 2], -R[:, 0], R[:, 0], -R[:, 1], R[:, 1], R[:, 2]])
    np.testing.assert_allclose(box.faces.normals, expected, atol=ATOL)


def test_faces_with_floor_use_clamped_corners() -> None:
    """The box spans y 0..0.7 above the floor: side faces centred at y = 0.35, the bottom at 0, the top at 0.7."""
    b = fathom.Box((0, 0.2, 0), (1, 1, 1), 0.0, floor=0.0)
    expected = [[0, 0.35, -0.5], [-0.5, 0.35, 0], [0.5, 0.35, 0], [0, 0, 0], [0, 0.7, 0], [0, 0.35, 0.5]]
    np.testing.assert_allclose(b.faces.centers, expected, atol=ATOL)


def test_face_distances(box: fathom.Box, rng: np.random.Generator) -> None:
    R = rot_y(0.3)
    half = np.array([0.2, 0.5, 0.3])
    for _ in range(20):
        p = rng.normal(size=3) + [1.0, 0.5, -2.0]
        local = R.T @ (p - [1.0, 0.5, -2.0])
        expected = [-local[2] - half[2], -local[0] - half[0], local[0] - half[0],
                    -local[1] - half[1], local[1] - half[1], local[2] - half[2]]
        np.testing.assert_allclose(box.face_distances(p), expected, atol=1e-5)


def test_face_distances_inside_all_negative(box: fathom.Box) -> None:
    d = box.face_distances(box.center)
    assert d.shape == (6,) and np.all(d < 0)


def test_to_obb_and_volume(box: fathom.Box) -> None:
    obb = box.to_obb()
    np.testing.assert_allclose(obb.center, box.center, atol=ATOL)
    np.testing.assert_allclose(obb.scale, box.scale, atol=ATOL)
    np.testing.assert_allclose(obb.rotation, [0, np.sin(0.15), 0, np.cos(0.15)], atol=1e-6)  # (x, y, z, w) of R_y(0.3)
    assert box.volume == pytest.approx(0.4 * 1.0 * 0.6, rel=1e-5)


def test_to_obb_raises_bottom_to_floor() -> None:
    b = fathom.Box((0, 0.2, 0), (1, 1, 1), 0.0, floor=0.0)  # spans -0.3..0.7, floor 0 -> 0..0.7
    obb = b.to_obb()
    np.testing.assert_allclose(obb.center, [0, 0.35, 0], atol=ATOL)
    np.testing.assert_allclose(obb.scale, [1, 0.7, 1], atol=ATOL)
    assert b.volume == pytest.approx(0.7, rel=1e-5)


# -- value semantics ------------------------------------------------------------------------------


def test_copy_is_independent(box: fathom.Box) -> None:
    for other in (box.copy(), copy.copy(box), copy.deepcopy(box)):
        other.set_center((9, 9, 9))
        np.testing.assert_allclose(box.center, [1.0, 0.5, -2.0])


def test_equality_isclose_pickle_repr(box: fathom.Box) -> None:
    same = fathom.Box((1.0, 0.5, -2.0), (0.4, 1.0, 0.6), 0.3)
    assert box == same and box.isclose(same)
    same.update_center((1e-7, 0, 0))
    assert box.isclose(same) and box != same
    floored = box.copy()
    floored.set_floor(0.0)
    assert not box.isclose(floored) and box != floored
    assert pickle.loads(pickle.dumps(floored)) == floored
    assert repr(box) == "Box(center=(1, 0.5, -2), scale=(0.4, 1, 0.6), rot_y=0.3, floor=None)"


# -- bad input ------------------------------------------------------------------------------------


def test_zero_scale() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="scale") as info:
        fathom.Box((0, 0, 0), (1, 0, 1))
    assert "fathom_box_init" in info.value.message


def test_negative_scale() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="scale.y"):
        fathom.Box((0, 0, 0), (1, -0.2, 1))


def test_nan_center() -> None:
    with pytest.raises(fathom.NotFiniteError, match="center"):
        fathom.Box((0, np.nan, 0), (1, 1, 1))


def test_infinite_angle() -> None:
    with pytest.raises(fathom.NotFiniteError, match="rot_y"):
        fathom.Box((0, 0, 0), (1, 1, 1), rot_y=np.inf)


def test_set_scale_negative_leaves_box_unchanged(box: fathom.Box) -> None:
    with pytest.raises(fathom.OutOfRangeError, match="fathom_box_set_scale"):
        box.set_scale((1, -0.2, 1))
    np.testing.assert_allclose(box.scale, [0.4, 1.0, 0.6])


def test_update_scale_zero_multiplier(box: fathom.Box) -> None:
    with pytest.raises(fathom.OutOfRangeError, match="multiplier"):
        box.update_scale((1, 0, 1))
    np.testing.assert_allclose(box.scale, [0.4, 1.0, 0.6])


def test_shrink_past_zero_is_out_of_range_and_box_unchanged(box: fathom.Box) -> None:
    before = (box.center, box.scale, box.rot_y)
    with pytest.raises(fathom.OutOfRangeError, match="fathom_box_shrink_side"):
        box.shrink_side((0.5, 0, 0))  # sx 0.4 - 0.5 < 0
    with pytest.raises(fathom.OutOfRangeError):
        box.shrink_side((0, 0, 0.6))  # exactly zero is refused too
    np.testing.assert_allclose(box.center, before[0])
    np.testing.assert_allclose(box.scale, before[1])
    assert box.rot_y == before[2]


def test_set_center_on_floor_without_floor(box: fathom.Box) -> None:
    with pytest.raises(fathom.InvalidStateError, match="floor"):
        box.set_center_on_floor(0.0, 0.0)
    np.testing.assert_allclose(box.center, [1.0, 0.5, -2.0])


def test_nan_edit_leaves_box_unchanged(box: fathom.Box) -> None:
    with pytest.raises(fathom.NotFiniteError):
        box.update_center((np.nan, 0, 0))
    with pytest.raises(fathom.NotFiniteError):
        box.set_angle(np.nan)
    with pytest.raises(fathom.NotFiniteError):
        box.set_floor(np.inf)
    assert box == fathom.Box((1.0, 0.5, -2.0), (0.4, 1.0, 0.6), 0.3)


def test_update_center_non_rigid_camera_is_refused(box: fathom.Box) -> None:
    # A Pose is always rigid, so build the bad camera below the Pose class (a NULL-free raw call).
    import ctypes

    from fathom import _lib
    from fathom.box import _box_update_center_in_camera

    cam = _lib.PoseStruct((ctypes.c_float * 16)(*np.diag([2.0, 1.0, 1.0, 1.0]).T.reshape(16)))
    with pytest.raises(fathom.NotRigidError, match="camera"):
        _box_update_center_in_camera(box, _lib.Vec3(0.1, 0, 0), ctypes.byref(cam))
    np.testing.assert_allclose(box.center, [1.0, 0.5, -2.0])


def test_faces_of_box_flattened_by_floor() -> None:
    b = fathom.Box((0, 0, 0), (1, 1, 1), floor=0.5)  # top at 0.5: flat
    with pytest.raises(fathom.DegenerateError, match="fathom_box_faces"):
        _ = b.faces
    with pytest.raises(fathom.DegenerateError, match="fathom_box_to_obb"):
        b.to_obb()


def test_invalid_box_struct_is_refused() -> None:
    from fathom import _lib

    c = _lib.BoxStruct()
    c.scale = _lib.Vec3(1, 1, 1)
    # A C bool holds 0 or 1; memory written byte by byte can hold anything (c_bool itself would store 2 as 1).
    ctypes.memset(ctypes.addressof(c) + _lib.BoxStruct.has_floor.offset, 2, 1)
    bad = fathom.Box._wrap(c)
    with pytest.raises(fathom.OutOfRangeError, match="has_floor"):
        bad.check()
    with pytest.raises(fathom.OutOfRangeError):
        _ = bad.corners


def test_wrong_shapes(box: fathom.Box) -> None:
    with pytest.raises(ValueError, match=r"center must have shape \(3,\)"):
        fathom.Box((0, 0), (1, 1, 1))
    with pytest.raises(ValueError, match=r"offset must have shape \(3,\)"):
        box.extend_side((0, 0, 0, 1))
    with pytest.raises(TypeError, match="scale must be an array of numbers"):
        fathom.Box((0, 0, 0), ("a", "b", "c"))


def _big_box(floor: bool) -> fathom.Box:
    # Valid: |center| + 2 * scale and the volume stay within float32 range (the header's rule).
    if floor:
        b = fathom.Box((1e38, 0, 0), (1, 3e37, 1), 0.0)
        b.set_floor(3e38)  # floor + sy is finite; standing on it, |center.y| + 2 * sy is not
        return b
    return fathom.Box((1e38, 0, 0), (1e38, 1, 1), 0.0)


@pytest.mark.parametrize(
    "edit",
    [
        ("extend_side", (3e38, 0, 0), False),
        ("update_center", (3e38, 0, 0), False),
        ("update_scale", (10, 1, 1), False),
        ("update_angle", 3.4e38, False),
        ("set_center_on_floor", None, True),
        ("set_scale", (1, 3e38, 1), True),
        ("update_scale", (1, 1e38, 1), True),
    ],
    ids=lambda e: f"{e[0]}{'-floor' if e[2] else ''}",
)
def test_edit_overflowing_float32_is_refused(edit) -> None:
    """Finite arguments whose result is not finite (float32 overflow) must not corrupt the box."""
    name, arg, floor = edit
    box = _big_box(floor)
    if name == "update_angle":
        box.set_angle(3.4e38)
    before = box.copy()
    with pytest.raises(fathom.NotFiniteError, match=f"fathom_box_{name}"):
        if name == "set_center_on_floor":
            box.set_center_on_floor(0.0, 0.0)
        else:
            getattr(box, name)(arg)
    assert box == before
    box.check()
