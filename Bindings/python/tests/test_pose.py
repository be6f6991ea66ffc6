"""Pose against numpy matrix algebra."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fathom
from _reference import axis_angle_matrix, quat_to_matrix, random_rotation, rigid


@pytest.fixture
def T(rng: np.random.Generator) -> np.ndarray:
    return rigid(random_rotation(rng), rng.uniform(-5, 5, size=3))


def test_identity_default() -> None:
    p = fathom.Pose()
    np.testing.assert_array_equal(p.matrix, np.eye(4, dtype=np.float32))
    assert p.matrix.dtype == np.float32
    assert p == fathom.Pose.identity()


def test_matrix_round_trip_and_layouts(T: np.ndarray) -> None:
    p = fathom.Pose(T)
    np.testing.assert_allclose(p.matrix, T, atol=1e-6)
    # column-major: element (r, c) at c*4 + r; translation at 12, 13, 14
    np.testing.assert_allclose(p.column_major, T.T.reshape(16), atol=1e-6)
    np.testing.assert_allclose(p.column_major[12:15], T[:3, 3], atol=1e-6)
    np.testing.assert_allclose(p.row_major, T.reshape(16), atol=1e-6)
    np.testing.assert_allclose(np.asarray(p), T, atol=1e-6)


def test_from_row_major_flat_and_nested(T: np.ndarray) -> None:
    nested = T.tolist()  # NeRF transforms.json "transform_matrix": 4 rows
    np.testing.assert_allclose(fathom.Pose.from_row_major(nested).matrix, T, atol=1e-6)
    np.testing.assert_allclose(fathom.Pose.from_row_major(T.reshape(16)).matrix, T, atol=1e-6)


def test_from_column_major(T: np.ndarray) -> None:
    np.testing.assert_allclose(fathom.Pose.from_column_major(T.T.reshape(16)).matrix, T, atol=1e-6)


def test_rotation_translation(rng: np.random.Generator) -> None:
    for _ in range(10):
        R, t = random_rotation(rng), rng.normal(size=3)
        p = fathom.Pose(rigid(R, t))
        q = p.rotation
        assert q[3] >= 0  # w >= 0
        np.testing.assert_allclose(quat_to_matrix(q), R, atol=1e-5)
        np.testing.assert_allclose(p.translation, t, atol=1e-6)


def test_from_rotation_translation() -> None:
    q = [0, np.sin(0.3), 0, np.cos(0.3)]  # 0.6 rad about y
    p = fathom.Pose.from_rotation_translation(q, (1, 2, 3))
    np.testing.assert_allclose(p.matrix, rigid(axis_angle_matrix((0, 1, 0), 0.6), (1, 2, 3)), atol=1e-6)
    p2 = fathom.Pose.from_rotation_translation(rotation=q, translation=(1, 2, 3))
    assert p2.isclose(p)


def test_inverse(T: np.ndarray) -> None:
    np.testing.assert_allclose(fathom.Pose(T).inverse().matrix, np.linalg.inv(T), atol=1e-5)


def test_compose_order(rng: np.random.Generator) -> None:
    A = rigid(random_rotation(rng), rng.normal(size=3))
    B = rigid(random_rotation(rng), rng.normal(size=3))
    np.testing.assert_allclose((fathom.Pose(A) @ fathom.Pose(B)).matrix, A @ B, atol=1e-5)
    np.testing.assert_allclose(fathom.Pose(A).compose(fathom.Pose(B)).matrix, A @ B, atol=1e-5)


def test_matmul_with_non_pose_is_type_error() -> None:
    with pytest.raises(TypeError):
        fathom.Pose() @ np.eye(4)  # type: ignore[operator]


def test_transform_point_and_direction(T: np.ndarray, rng: np.random.Generator) -> None:
    p = fathom.Pose(T)
    v = rng.normal(size=3)
    np.testing.assert_allclose(p.transform_point(v), T[:3, :3] @ v + T[:3, 3], atol=1e-5)
    np.testing.assert_allclose(p.transform_direction(v), T[:3, :3] @ v, atol=1e-5)


def test_transform_points(T: np.ndarray, rng: np.random.Generator) -> None:
    pts = rng.normal(size=(1000, 3)).astype(np.float32)
    out = fathom.Pose(T).transform_points(pts)
    assert out.shape == (1000, 3) and out.dtype == np.float32
    np.testing.assert_allclose(out, pts @ T[:3, :3].T + T[:3, 3], atol=1e-5)


def test_transform_points_strided_float32_reads_in_place(T: np.ndarray, rng: np.random.Generator) -> None:
    # (N, 6) float32: xyz + three columns the library must skip (NaN, so reading them would fail).
    data = np.full((500, 6), np.nan, dtype=np.float32)
    data[:, :3] = rng.normal(size=(500, 3))
    out = fathom.Pose(T).transform_points(data)
    np.testing.assert_allclose(out, data[:, :3].astype(np.float64) @ T[:3, :3].T + T[:3, 3], atol=1e-5)
    # every other row of a packed array: stride 24 bytes
    pts = rng.normal(size=(400, 3)).astype(np.float32)
    out2 = fathom.Pose(T).transform_points(pts[::2])
    np.testing.assert_allclose(out2, pts[::2].astype(np.float64) @ T[:3, :3].T + T[:3, 3], atol=1e-5)


def test_transform_points_converts_other_layouts(T: np.ndarray, rng: np.random.Generator) -> None:
    pts = rng.normal(size=(3, 50))  # float64, transposed view (column stride 8 * 50)
    out = fathom.Pose(T).transform_points(pts.T)
    np.testing.assert_allclose(out, pts.T @ T[:3, :3].T + T[:3, 3], atol=1e-5)
    out_list = fathom.Pose(T).transform_points([[1, 2, 3]])
    np.testing.assert_allclose(out_list[0], T[:3, :3] @ [1, 2, 3] + T[:3, 3], atol=1e-5)


def _yaw_reference(R: np.ndarray) -> float:
    z = R[:, 2]
    if np.hypot(z[0], z[2]) > 1e-6:
        return float(np.arctan2(z[0], z[2]))  # R_y(a) (0, 0, 1) = (sin a, 0, cos a)
    x = R[:, 0]
    return float(np.arctan2(-x[2], x[0]))  # R_y(a) (1, 0, 0) = (cos a, 0, -sin a)


def test_yaw(rng: np.random.Generator) -> None:
    for _ in range(20):
        R = random_rotation(rng)
        assert fathom.Pose(rigid(R, (0, 0, 0))).yaw == pytest.approx(_yaw_reference(R), abs=1e-5)


def test_yaw_of_pure_heading_and_box_agreement() -> None:
    for a in (-3.0, -1.0, 0.0, 0.5, 3.0):
        assert fathom.Pose(rigid(axis_angle_matrix((0, 1, 0), a), (0, 0, 0))).yaw == pytest.approx(a, abs=1e-5)


def test_yaw_looking_straight_down() -> None:
    # camera looking down (-z local = -y world) with heading 0.7 about y: local z is vertical (+y)
    R = axis_angle_matrix((0, 1, 0), 0.7) @ axis_angle_matrix((1, 0, 0), -np.pi / 2)
    assert abs(R[1, 2]) == pytest.approx(1.0)
    assert fathom.Pose(rigid(R, (0, 0, 0))).yaw == pytest.approx(0.7, abs=1e-5)


def test_yaw_range_is_half_open() -> None:
    yaw = fathom.Pose(rigid(axis_angle_matrix((0, 1, 0), np.pi), (0, 0, 0))).yaw
    assert yaw == pytest.approx(np.pi, abs=1e-5)  # pi, not -pi: the range is (-pi, pi]


def test_distance_to(rng: np.random.Generator) -> None:
    Ra, Rb = random_rotation(rng), random_rotation(rng)
    ta, tb = rng.normal(size=3), rng.normal(size=3)
    d = fathom.Pose(rigid(Ra, ta)).distance_to(fathom.Pose(rigid(Rb, tb)))
    assert d.meters == pytest.approx(np.linalg.norm(ta - tb), abs=1e-5)
    assert d.radians == pytest.approx(np.arccos(np.clip((np.trace(Ra.T @ Rb) - 1) / 2, -1, 1)), abs=1e-4)
    meters, radians = d
    assert (meters, radians) == (d.meters, d.radians)


def test_orthonormalized_is_polar_decomposition(rng: np.random.Generator) -> None:
    R = random_rotation(rng)
    M = rigid(R + rng.normal(scale=2e-3, size=(3, 3)), (1, 2, 3))  # off by more than 1e-3
    with pytest.raises(fathom.NotRigidError):
        fathom.Pose(M)
    U, _, Vt = np.linalg.svd(M[:3, :3])
    fixed = fathom.Pose.nearest_rigid(M, max_deviation=0.05)
    np.testing.assert_allclose(fixed.matrix, rigid(U @ Vt, (1, 2, 3)), atol=1e-5)
    fixed.check_rigid(1e-5)


def test_orthonormalized_method(rng: np.random.Generator) -> None:
    R = random_rotation(rng)
    M = rigid(R + rng.normal(scale=1e-4, size=(3, 3)), (1, 2, 3))
    p = fathom.Pose(M)  # within the rigid tolerance
    U, _, Vt = np.linalg.svd(M[:3, :3])
    np.testing.assert_allclose(p.orthonormalized(0.01).matrix, rigid(U @ Vt, (1, 2, 3)), atol=1e-5)


def test_check_rigid_tolerance(rng: np.random.Generator) -> None:
    M = rigid(random_rotation(rng) * 1.0002, (0, 0, 0))  # R^T R - I = 4e-4 I
    p = fathom.Pose(M)
    p.check_rigid(0.01)
    with pytest.raises(fathom.NotRigidError, match="fathom_pose_check_rigid"):
        p.check_rigid(1e-5)


def test_equality_hash_pickle_repr(T: np.ndarray) -> None:
    p = fathom.Pose(T)
    q = fathom.Pose(T)
    assert p == q and hash(p) == hash(q)
    assert p != fathom.Pose()
    assert pickle.loads(pickle.dumps(p)) == p
    r = repr(p)
    assert r.startswith("Pose(rotation=(") and "translation=" in r


# -- bad input ------------------------------------------------------------------------------------


def test_non_rigid_matrix() -> None:
    with pytest.raises(fathom.NotRigidError, match="fathom_pose_check_rigid") as info:
        fathom.Pose(np.diag([2.0, 1.0, 1.0, 1.0]))
    assert info.value.status == 6 and info.value.status_name == "FATHOM_ERR_NOT_RIGID"


def test_projective_bottom_row_is_not_rigid() -> None:
    M = np.eye(4)
    M[3, 2] = 0.5
    with pytest.raises(fathom.NotRigidError):
        fathom.Pose(M)


def test_non_rigid_row_major() -> None:
    with pytest.raises(fathom.NotRigidError, match="fathom_pose_from_row_major"):
        fathom.Pose.from_row_major(np.diag([1.0, 3.0, 1.0, 1.0]))


def test_non_rigid_column_major() -> None:
    with pytest.raises(fathom.NotRigidError):
        fathom.Pose.from_column_major(np.arange(16.0))


def test_nan_in_matrix() -> None:
    M = np.eye(4)
    M[0, 3] = np.nan
    with pytest.raises(fathom.NotFiniteError):
        fathom.Pose(M)


def test_infinite_translation() -> None:
    with pytest.raises(fathom.NotFiniteError):
        fathom.Pose.from_rotation_translation((0, 0, 0, 1), (0, np.inf, 0))


def test_orthonormalize_refuses_a_scale() -> None:
    with pytest.raises(fathom.NotRigidError, match="fathom_pose_orthonormalize"):
        fathom.Pose.nearest_rigid(np.diag([2.0, 2.0, 2.0, 1.0]), max_deviation=0.01)


def test_orthonormalize_max_deviation_must_be_positive() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="max_deviation"):
        fathom.Pose().orthonormalized(0.0)


def test_check_rigid_tolerance_must_be_positive() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="tolerance"):
        fathom.Pose().check_rigid(-1.0)


def test_transform_points_nan() -> None:
    with pytest.raises(fathom.NotFiniteError, match="fathom_pose_transform_points"):
        fathom.Pose().transform_points([[0, 0, 0], [np.nan, 0, 0]])


def test_transform_points_empty() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="count"):
        fathom.Pose().transform_points(np.empty((0, 3), dtype=np.float32))


def test_transform_points_wrong_shape() -> None:
    with pytest.raises(ValueError, match=r"points must have shape \(N, 3\)"):
        fathom.Pose().transform_points(np.zeros((5, 2)))
    with pytest.raises(ValueError, match=r"points must have shape"):
        fathom.Pose().transform_points(np.zeros(3))


def test_pose_wrong_shapes() -> None:
    with pytest.raises(ValueError, match=r"\(4, 4\)"):
        fathom.Pose(np.eye(3))
    with pytest.raises(ValueError, match="16 numbers"):
        fathom.Pose.from_row_major(np.arange(12.0))
    with pytest.raises(ValueError, match="16 numbers"):
        fathom.Pose.from_column_major(np.eye(4))


def test_distance_to_requires_pose() -> None:
    with pytest.raises(TypeError, match="fathom.Pose"):
        fathom.Pose().distance_to(np.eye(4))  # type: ignore[arg-type]
