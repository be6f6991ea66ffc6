"""Tag poses, covariances, fusion and label placement through the binding: poses, (3, 3) covariances and lists or
arrays of observations in, poses, quaternions and matrices out; checked on fixed poses with numpy's matrix products
and on hand-derived cases from reference/placement.md. The fusion's math on noisy observations is the core tests'
(PlacementTests.swift)."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _poses import rigid, rot_x, rot_y, rot_z

F = np.diag([1.0, -1.0, -1.0, 1.0])
#: Two poses without symmetries, and a covariance with distinct, correlated axes.
CAMERA = rigid(rot_y(0.8) @ rot_x(-0.3), (0.5, 1.4, -2.0))
TAG = rigid(rot_z(0.4) @ rot_x(2.5), (0.1, -0.2, 1.5))
S = np.array([[4e-4, 1e-4, 0.0], [1e-4, 9e-4, -2e-4], [0.0, -2e-4, 1e-4]])


def same_rotation(q1, q2, atol=1e-5) -> bool:
    """q and -q are the same rotation."""
    q1, q2 = np.asarray(q1, np.float64), np.asarray(q2, np.float64)
    return bool(np.allclose(q1, q2, atol=atol) or np.allclose(q1, -q2, atol=atol))


def about_y(angle: float) -> np.ndarray:
    """The quaternion (x, y, z, w) of a turn by ``angle`` about +y."""
    return np.array([0.0, np.sin(angle / 2), 0.0, np.cos(angle / 2)])


# -- tags -----------------------------------------------------------------------------------------


def test_tag_world_pose() -> None:
    """world = camera * diag(1, -1, -1, 1) * tag (the optical frame's y and z flipped to ARKit's)."""
    out = fathom.tag_world_pose(fathom.Pose(CAMERA), fathom.Pose(TAG))
    np.testing.assert_allclose(out.matrix, CAMERA @ F @ TAG, atol=1e-5)


def test_tag_world_pose_hand_derived() -> None:
    # camera at the origin looking down -z (ARKit); a tag 2 m in front (optical z = 2) is at world z = -2
    out = fathom.tag_world_pose(fathom.Pose(), fathom.Pose(rigid(np.eye(3), (0.5, 0.25, 2.0))))
    np.testing.assert_allclose(out.translation, [0.5, -0.25, -2.0], atol=1e-6)


@pytest.mark.parametrize("heading", [0.0, 0.5, -2.0])
def test_snap_vertical(heading: float) -> None:
    """A tag turned by `heading` about y and tilted 0.3 rad about its own x snaps back to the turn alone: only the
    tilt about x is removed, the translation stays."""
    tilted = rigid(rot_y(heading) @ rot_x(0.3), (1.0, -2.0, 0.5))
    out = fathom.snap_vertical(fathom.Pose(tilted))
    np.testing.assert_allclose(out.matrix, rigid(rot_y(heading), (1.0, -2.0, 0.5)), atol=1e-6)


def test_snap_vertical_keeps_a_vertical_tag() -> None:
    T = rigid(np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], float), (1, 2, 3))  # z horizontal already
    np.testing.assert_allclose(fathom.snap_vertical(fathom.Pose(T)).matrix, T, atol=1e-6)


def test_rotate_covariance() -> None:
    out = fathom.rotate_covariance(fathom.Pose(CAMERA), S)
    assert out.shape == (3, 3) and out.dtype == np.float32
    R = CAMERA[:3, :3]
    np.testing.assert_allclose(out, R @ S @ R.T, atol=1e-9)


def test_rotate_covariance_hand_derived() -> None:
    # 90 degrees about z swaps the x and y variances
    R = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)
    out = fathom.rotate_covariance(fathom.Pose(rigid(R, (5, 5, 5))), np.diag([4.0, 1.0, 9.0]))
    np.testing.assert_allclose(out, np.diag([1.0, 4.0, 9.0]), atol=1e-6)


def test_fuse_with_covariances() -> None:
    """Two observations 1 m apart along x with variances 1 and 3 (m^2) on every axis: inverse-variance weights 1
    and 1/3 put the position at x = (1/3) / (4/3) = 0.25 with variance 1 / (4/3) = 0.75. Turned 0.2 and 0.4 rad about
    y, weighted by 1 / trace (1/3 and 1/9): the weighted average of q q^T of turns about one axis is the turn by the
    circular mean, atan2(3 sin 0.2 + sin 0.4, 3 cos 0.2 + cos 0.4)."""
    poses = [fathom.Pose(rigid(rot_y(0.2), (0, 0, 0))), fathom.Pose(rigid(rot_y(0.4), (1, 0, 0)))]
    fused, cov = fathom.fuse_tag_observations(poses, np.array([np.eye(3), 3 * np.eye(3)]))
    assert isinstance(fused, fathom.Pose) and cov.shape == (3, 3)
    np.testing.assert_allclose(fused.translation, [0.25, 0, 0], atol=1e-6)
    np.testing.assert_allclose(cov, 0.75 * np.eye(3), atol=1e-6)
    mean = np.arctan2(3 * np.sin(0.2) + np.sin(0.4), 3 * np.cos(0.2) + np.cos(0.4))
    assert same_rotation(fused.rotation, about_y(mean), atol=1e-6)


def test_fuse_without_covariances() -> None:
    """The mean position, and "the sample covariance of the positions divided by count"."""
    positions = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.5], [0.0, 2.0, 0.25]])
    poses = np.array([rigid(rot_y(0.3), p) for p in positions])
    fused, cov = fathom.fuse_tag_observations(poses)  # an (N, 4, 4) array works too
    np.testing.assert_allclose(fused.translation, [1 / 3, 2 / 3, 0.25], atol=1e-6)
    np.testing.assert_allclose(cov, np.cov(positions.T) / 3, atol=1e-7)
    assert same_rotation(fused.rotation, about_y(0.3), atol=1e-6)


def test_fuse_handles_q_and_minus_q() -> None:
    q = fathom.quat_from_axis_angle((0, 1, 0), 0.3)
    a = fathom.Pose.from_rotation_translation(q, (0, 0, 0))
    b = fathom.Pose.from_rotation_translation(-q, (0, 0, 0))  # same rotation, opposite sign
    fused, _ = fathom.fuse_tag_observations([a, b])
    assert same_rotation(fused.rotation, q, atol=1e-5)


def test_fuse_single_observation() -> None:
    fused, cov = fathom.fuse_tag_observations([fathom.Pose(TAG)])
    np.testing.assert_allclose(fused.matrix, TAG, atol=1e-5)
    np.testing.assert_array_equal(cov, np.zeros((3, 3)))


def test_fuse_single_observation_with_covariance() -> None:
    fused, cov = fathom.fuse_tag_observations([fathom.Pose(TAG)], [S])
    np.testing.assert_allclose(fused.matrix, TAG, atol=1e-5)
    np.testing.assert_allclose(cov, S, rtol=1e-4, atol=1e-12)


# -- labels ---------------------------------------------------------------------------------------

W, H, w, h = 0.4, 0.3, 0.2, 0.1
IMAGE_ORIENTATION = np.array([-np.sin(np.pi / 4), 0, 0, np.cos(np.pi / 4)])  # -90 degrees about x

IMAGE_OFFSETS = {  # (x, z) on the image's x-z plane, +z toward its bottom edge
    "center": (0, 0),
    "cover": (0, 0),
    "top": (0, -(H / 2 + h / 2)),
    "bottom": (0, H / 2 + h / 2),
    "leading": (-(W / 2 + w / 2), 0),
    "trailing": (W / 2 + w / 2, 0),
}


@pytest.mark.parametrize("anchor", sorted(IMAGE_OFFSETS))
def test_label_on_image(anchor: str) -> None:
    rel, off = np.array([0.01, 0.02, 0.03]), np.array([-0.1, 0.05, 0.2])
    out = fathom.place_label(anchor, "image", target_size=(W, H), panel_size=(w, h),
                             relative_position=rel, position_offset=off)
    x, z = IMAGE_OFFSETS[anchor]
    np.testing.assert_allclose(out.position, rel + off + [x, 0, z], atol=1e-6)
    assert same_rotation(out.orientation, IMAGE_ORIENTATION, atol=1e-6)
    assert out.anchor_name == anchor and out.anchor == fathom.Anchor[anchor.upper()]


@pytest.mark.parametrize("anchor", sorted(IMAGE_OFFSETS))
def test_label_on_panel(anchor: str) -> None:
    out = fathom.place_label(anchor, "panel", target_size=(W, H), panel_size=(w, h))
    x, z = IMAGE_OFFSETS[anchor]
    np.testing.assert_allclose(out.position, [x, -z, 0], atol=1e-6)  # x-y plane, top = +y
    np.testing.assert_allclose(out.orientation, [0, 0, 0, 1], atol=1e-7)


@pytest.mark.parametrize(
    "used, expected",
    [((), "top"), (("top",), "bottom"), (("top", "bottom"), "leading"), (("top", "bottom", "leading"), "trailing"),
     (("top", "bottom", "leading", "trailing"), "top"), (("center", "cover"), "top"), (("bottom",), "top")],
)
def test_label_auto(used: tuple[str, ...], expected: str) -> None:
    out = fathom.place_label("auto", target_size=(W, H), panel_size=(w, h), used=used)
    assert out.anchor_name == expected
    x, z = IMAGE_OFFSETS[expected]
    np.testing.assert_allclose(out.position, [x, 0, z], atol=1e-6)


def test_label_enum_arguments() -> None:
    out = fathom.place_label(fathom.Anchor.TRAILING, fathom.LabelTarget.PANEL, target_size=(W, H), panel_size=(w, h),
                             used=[fathom.Anchor.TOP])
    assert out.anchor is fathom.Anchor.TRAILING


# -- bad input ------------------------------------------------------------------------------------


def test_snap_vertical_with_vertical_x_axis() -> None:
    R = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)  # local x -> world +y
    with pytest.raises(fathom.DegenerateError, match="fathom_tag_snap_vertical"):
        fathom.snap_vertical(fathom.Pose(rigid(R, (0, 0, 0))))


def test_rotate_covariance_wrong_shape() -> None:
    with pytest.raises(ValueError, match=r"covariance must have shape \(3, 3\)"):
        fathom.rotate_covariance(fathom.Pose(), np.eye(4))


def test_rotate_covariance_nan() -> None:
    S = np.eye(3)
    S[0, 1] = S[1, 0] = np.nan
    with pytest.raises(fathom.NotFiniteError, match="covariance"):
        fathom.rotate_covariance(fathom.Pose(), S)


def test_tag_functions_require_poses() -> None:
    with pytest.raises(TypeError, match=r"camera_to_world must be a fathom.Pose or a \(4, 4\) array-like"):
        fathom.tag_world_pose(None, fathom.Pose())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"tag_in_optical must be a fathom.Pose .* got shape \(3, 3\)"):
        fathom.tag_world_pose(fathom.Pose(), np.eye(3))
    with pytest.raises(fathom.NotRigidError, match="fathom_tag_world_pose"):
        fathom.tag_world_pose(np.diag([1.0, 2.0, 1.0, 1.0]), fathom.Pose())


def test_fuse_no_observations() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="count"):
        fathom.fuse_tag_observations([])


def test_fuse_not_positive_definite() -> None:
    poses = [fathom.Pose(), fathom.Pose()]
    covs = np.array([np.eye(3), np.diag([1.0, -1.0, 1.0])])
    with pytest.raises(fathom.OutOfRangeError, match="covariance"):
        fathom.fuse_tag_observations(poses, covs)


def test_fuse_not_symmetric() -> None:
    S = np.eye(3)
    S[0, 1] = 0.5  # S[1, 0] stays 0
    with pytest.raises(fathom.OutOfRangeError, match="covariance"):
        fathom.fuse_tag_observations([fathom.Pose()], [S])


def test_fuse_covariance_count_mismatch() -> None:
    with pytest.raises(ValueError, match=r"covariances must have shape \(2, 3, 3\)"):
        fathom.fuse_tag_observations([fathom.Pose(), fathom.Pose()], [np.eye(3)])


def test_fuse_non_rigid_matrix_array() -> None:
    with pytest.raises(fathom.NotRigidError, match="fathom_tag_fuse"):
        fathom.fuse_tag_observations(np.array([np.eye(4), np.diag([2.0, 1, 1, 1])]))


def test_fuse_wrong_items() -> None:
    with pytest.raises(ValueError, match=r"poses must be an \(N, 4, 4\) array-like or a sequence of fathom.Pose objects "
                       r"and \(4, 4\) matrices, got items of different shapes"):
        fathom.fuse_tag_observations([fathom.Pose(), np.eye(3)])
    with pytest.raises(TypeError, match=r"for one pose, use \[pose\]"):
        fathom.fuse_tag_observations(fathom.Pose())  # type: ignore[arg-type]


@pytest.mark.parametrize("sizes", [dict(target_size=(0, H), panel_size=(w, h)), dict(target_size=(W, H), panel_size=(w, -h))])
def test_label_non_positive_size(sizes) -> None:
    with pytest.raises(fathom.OutOfRangeError, match="fathom_label_place"):
        fathom.place_label("top", **sizes)


def test_label_unknown_anchor_number() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="anchor"):
        fathom.place_label(42, target_size=(W, H), panel_size=(w, h))


def test_label_unknown_target_number() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="target"):
        fathom.place_label("top", 7, target_size=(W, H), panel_size=(w, h))


def test_label_unknown_anchor_name() -> None:
    with pytest.raises(ValueError, match="anchor must be one of"):
        fathom.place_label("middle", target_size=(W, H), panel_size=(w, h))


def test_label_nan_offset() -> None:
    with pytest.raises(fathom.NotFiniteError, match="position_offset"):
        fathom.place_label("top", target_size=(W, H), panel_size=(w, h), position_offset=(0, np.nan, 0))


def test_label_sizes_must_be_pairs() -> None:
    with pytest.raises(ValueError, match=r"target_size must be \(width, height\)"):
        fathom.place_label("top", target_size=(W, H, 1), panel_size=(w, h))
