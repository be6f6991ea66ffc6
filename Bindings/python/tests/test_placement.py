"""Tag poses, covariances, fusion and label placement against numpy and reference/placement.md."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _reference import quat_to_matrix, random_rotation, rigid, same_rotation

F = np.diag([1.0, -1.0, -1.0, 1.0])


def _random_pose(rng: np.random.Generator) -> np.ndarray:
    return rigid(random_rotation(rng), rng.uniform(-3, 3, size=3))


def _spd(rng: np.random.Generator) -> np.ndarray:
    A = rng.normal(size=(3, 3))
    return A @ A.T * 0.01 + np.eye(3) * 1e-3


# -- tags -----------------------------------------------------------------------------------------


def test_tag_world_pose(rng: np.random.Generator) -> None:
    for _ in range(10):
        T_wc, T_opt = _random_pose(rng), _random_pose(rng)
        out = fathom.tag_world_pose(fathom.Pose(T_wc), fathom.Pose(T_opt))
        np.testing.assert_allclose(out.matrix, T_wc @ F @ T_opt, atol=1e-5)


def test_tag_world_pose_hand_derived() -> None:
    # camera at the origin looking down -z (ARKit); a tag 2 m in front (optical z = 2) is at world z = -2
    out = fathom.tag_world_pose(fathom.Pose(), fathom.Pose(rigid(np.eye(3), (0.5, 0.25, 2.0))))
    np.testing.assert_allclose(out.translation, [0.5, -0.25, -2.0], atol=1e-6)


def test_snap_vertical(rng: np.random.Generator) -> None:
    for _ in range(20):
        T = _random_pose(rng)
        out = fathom.snap_vertical(fathom.Pose(T)).matrix.astype(np.float64)
        x, z = T[:3, 0], T[:3, 2]
        z_new = np.cross(x, [0.0, 1.0, 0.0])  # perpendicular to x (a turn about x) and horizontal
        z_new /= np.linalg.norm(z_new)
        if np.dot(z_new, z) < 0:
            z_new = -z_new  # the horizontal direction nearest the original z
        expected = np.column_stack([x, np.cross(z_new, x), z_new])
        np.testing.assert_allclose(out[:3, :3], expected, atol=1e-5)
        np.testing.assert_allclose(out[:3, 3], T[:3, 3], atol=1e-6)
        assert abs(out[1, 2]) < 1e-6


def test_snap_vertical_keeps_a_vertical_tag() -> None:
    T = rigid(np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], float), (1, 2, 3))  # z horizontal already
    np.testing.assert_allclose(fathom.snap_vertical(fathom.Pose(T)).matrix, T, atol=1e-6)


def test_rotate_covariance(rng: np.random.Generator) -> None:
    T = _random_pose(rng)
    S = _spd(rng)
    out = fathom.rotate_covariance(fathom.Pose(T), S)
    assert out.shape == (3, 3) and out.dtype == np.float32
    R = T[:3, :3]
    np.testing.assert_allclose(out, R @ S @ R.T, atol=1e-6)


def test_rotate_covariance_hand_derived() -> None:
    # 90 degrees about z swaps the x and y variances
    R = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]], float)
    out = fathom.rotate_covariance(fathom.Pose(rigid(R, (5, 5, 5))), np.diag([4.0, 1.0, 9.0]))
    np.testing.assert_allclose(out, np.diag([1.0, 4.0, 9.0]), atol=1e-6)


def _markley_average(quats: np.ndarray, weights: np.ndarray) -> np.ndarray:
    M = np.einsum("i,ij,ik->jk", weights, quats, quats)
    evals, evecs = np.linalg.eigh(M)
    return evecs[:, -1]


def _noisy_observations(rng: np.random.Generator, n: int):
    base = random_rotation(rng)
    poses = []
    for _ in range(n):
        axis = rng.normal(size=3)
        small = fathom.quat_to_matrix(fathom.quat_from_axis_angle(axis, rng.normal(scale=0.05)))
        poses.append(rigid(small @ base, np.array([1.0, 2.0, 3.0]) + rng.normal(scale=0.02, size=3)))
    return poses


def test_fuse_with_covariances(rng: np.random.Generator) -> None:
    poses = _noisy_observations(rng, 6)
    covs = np.array([_spd(rng) for _ in poses])
    fused, cov = fathom.fuse_tag_observations([fathom.Pose(p) for p in poses], covs)
    infos = np.linalg.inv(covs)
    expected_cov = np.linalg.inv(infos.sum(axis=0))
    positions = np.array([p[:3, 3] for p in poses])
    expected_pos = expected_cov @ np.einsum("ijk,ik->j", infos, positions)
    np.testing.assert_allclose(fused.translation, expected_pos, atol=1e-5)
    np.testing.assert_allclose(cov, expected_cov, rtol=1e-4, atol=1e-8)
    quats = np.array([fathom.quat_from_matrix(p[:3, :3]) for p in poses], dtype=np.float64)
    quats *= np.sign(quats[:, 3:4])  # sign does not matter for q q^T; keep them tidy anyway
    expected_q = _markley_average(quats, 1.0 / np.trace(covs, axis1=1, axis2=2))
    assert same_rotation(fused.rotation, expected_q, atol=1e-4)


def test_fuse_without_covariances(rng: np.random.Generator) -> None:
    poses = _noisy_observations(rng, 5)
    fused, cov = fathom.fuse_tag_observations(np.array(poses))  # an (N, 4, 4) array works too
    positions = np.array([p[:3, 3] for p in poses])
    np.testing.assert_allclose(fused.translation, positions.mean(axis=0), atol=1e-5)
    # "the sample covariance of the positions divided by count"
    np.testing.assert_allclose(cov, np.cov(positions.T) / len(poses), rtol=1e-3, atol=1e-9)
    quats = np.array([fathom.quat_from_matrix(p[:3, :3]) for p in poses], dtype=np.float64)
    assert same_rotation(fused.rotation, _markley_average(quats, np.ones(len(poses))), atol=1e-4)


def test_fuse_handles_q_and_minus_q(rng: np.random.Generator) -> None:
    q = fathom.quat_from_axis_angle((0, 1, 0), 0.3)
    a = fathom.Pose.from_rotation_translation(q, (0, 0, 0))
    b = fathom.Pose.from_rotation_translation(-q, (0, 0, 0))  # same rotation, opposite sign
    fused, _ = fathom.fuse_tag_observations([a, b])
    assert same_rotation(fused.rotation, q, atol=1e-5)


def test_fuse_single_observation(rng: np.random.Generator) -> None:
    T = _random_pose(rng)
    fused, cov = fathom.fuse_tag_observations([fathom.Pose(T)])
    np.testing.assert_allclose(fused.matrix, T, atol=1e-5)
    np.testing.assert_array_equal(cov, np.zeros((3, 3)))


def test_fuse_single_observation_with_covariance(rng: np.random.Generator) -> None:
    T, S = _random_pose(rng), _spd(rng)
    fused, cov = fathom.fuse_tag_observations([fathom.Pose(T)], [S])
    np.testing.assert_allclose(fused.matrix, T, atol=1e-5)
    np.testing.assert_allclose(cov, S, rtol=1e-4)


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


def test_label_orientation_lays_panel_on_image() -> None:
    # the panel's normal (+z) turned -90 degrees about x points along the image's +y (its normal)
    out = fathom.place_label("center", "image", target_size=(W, H), panel_size=(w, h))
    np.testing.assert_allclose(quat_to_matrix(out.orientation) @ [0, 0, 1], [0, 1, 0], atol=1e-6)


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


def test_fuse_not_positive_definite(rng: np.random.Generator) -> None:
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
