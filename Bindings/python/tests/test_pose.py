"""Pose through the binding: matrix layouts in and out (rows as rows, row- and column-major), quaternion order,
points and directions in numpy arrays of any layout, and errors; checked with numpy's matrix algebra on fixed poses
and hand-derived rotations. Yaw, orthonormalization and distances on random poses are the core tests'
(PoseTests.swift)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fathom
from _poses import rigid, rot_x, rot_y, rot_z


@pytest.fixture
def T() -> np.ndarray:
    """A pose with no symmetry a transposition or a lost translation could hide behind."""
    return rigid(rot_z(0.3) @ rot_y(-1.1) @ rot_x(0.7), (1.5, -2.25, 4.0))


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


@pytest.mark.parametrize(
    "R, q",
    [
        (rot_y(0.6), (0, np.sin(0.3), 0, np.cos(0.3))),  # (x, y, z, w): axis * sin(a / 2), then cos(a / 2)
        (rot_x(-2.0), (-np.sin(1.0), 0, 0, np.cos(1.0))),
        (rot_z(np.pi / 2), (0, 0, np.sqrt(0.5), np.sqrt(0.5))),
        (rot_y(-4.0), (0, np.sin(2.0), 0, -np.cos(2.0))),  # -(0, sin -2, 0, cos -2): the sign with w >= 0
    ],
)
def test_rotation_translation(R: np.ndarray, q) -> None:
    p = fathom.Pose(rigid(R, (0.5, -1.0, 2.0)))
    assert p.rotation.dtype == np.float32 and p.rotation.shape == (4,)
    assert p.rotation[3] >= 0
    np.testing.assert_allclose(p.rotation, q, atol=1e-6)
    np.testing.assert_allclose(p.translation, [0.5, -1.0, 2.0], atol=1e-7)


def test_from_rotation_translation() -> None:
    q = [0, np.sin(0.3), 0, np.cos(0.3)]  # 0.6 rad about y
    p = fathom.Pose.from_rotation_translation(q, (1, 2, 3))
    np.testing.assert_allclose(p.matrix, rigid(rot_y(0.6), (1, 2, 3)), atol=1e-6)
    p2 = fathom.Pose.from_rotation_translation(rotation=q, translation=(1, 2, 3))
    assert p2.isclose(p)


def test_inverse(T: np.ndarray) -> None:
    np.testing.assert_allclose(fathom.Pose(T).inverse().matrix, np.linalg.inv(T), atol=1e-5)


def test_compose_order(T: np.ndarray) -> None:
    A = T
    B = rigid(rot_x(1.2) @ rot_y(0.4), (-0.5, 0.25, 3.0))
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


def test_yaw_of_pure_heading_and_box_agreement() -> None:
    for a in (-3.0, -1.0, 0.0, 0.5, 3.0):
        assert fathom.Pose(rigid(rot_y(a), (0, 0, 0))).yaw == pytest.approx(a, abs=1e-5)
        assert fathom.Pose(rigid(rot_y(a) @ rot_x(-0.4), (0, 0, 0))).yaw == pytest.approx(a, abs=1e-5)  # tilt kept out


def test_yaw_looking_straight_down() -> None:
    # camera looking down (-z local = -y world) with heading 0.7 about y: local z is vertical (+y)
    R = rot_y(0.7) @ rot_x(-np.pi / 2)
    assert abs(R[1, 2]) == pytest.approx(1.0)
    assert fathom.Pose(rigid(R, (0, 0, 0))).yaw == pytest.approx(0.7, abs=1e-5)


def test_yaw_range_is_half_open() -> None:
    yaw = fathom.Pose(rigid(rot_y(np.pi), (0, 0, 0))).yaw
    assert yaw == pytest.approx(np.pi, abs=1e-5)  # pi, not -pi: the range is (-pi, pi]


def test_distance_to() -> None:
    """Origins (1, 2, 3) and (4, 6, 3) are 5 m apart; R_x(0.2) R_y(0.5) against R_x(0.2) R_y(1.2) is 0.7 rad."""
    a = fathom.Pose(rigid(rot_x(0.2) @ rot_y(0.5), (1, 2, 3)))
    d = a.distance_to(fathom.Pose(rigid(rot_x(0.2) @ rot_y(1.2), (4, 6, 3))))
    assert d.meters == pytest.approx(5.0, rel=1e-6)
    assert d.radians == pytest.approx(0.7, abs=1e-5)
    meters, radians = d
    assert (meters, radians) == (d.meters, d.radians)


def test_orthonormalized_is_polar_decomposition(T: np.ndarray, rng: np.random.Generator) -> None:
    M = rigid(T[:3, :3] + rng.normal(scale=2e-3, size=(3, 3)), (1, 2, 3))  # off by more than 1e-3
    with pytest.raises(fathom.NotRigidError):
        fathom.Pose(M)
    U, _, Vt = np.linalg.svd(M[:3, :3])
    fixed = fathom.Pose.nearest_rigid(M, max_deviation=0.05)
    np.testing.assert_allclose(fixed.matrix, rigid(U @ Vt, (1, 2, 3)), atol=1e-5)
    fixed.check_rigid(1e-5)


def test_orthonormalized_method(T: np.ndarray, rng: np.random.Generator) -> None:
    M = rigid(T[:3, :3] + rng.normal(scale=1e-4, size=(3, 3)), (1, 2, 3))
    p = fathom.Pose(M)  # within the rigid tolerance
    U, _, Vt = np.linalg.svd(M[:3, :3])
    np.testing.assert_allclose(p.orthonormalized(0.01).matrix, rigid(U @ Vt, (1, 2, 3)), atol=1e-5)


def test_check_rigid_tolerance(T: np.ndarray) -> None:
    M = rigid(T[:3, :3] * 1.0002, (0, 0, 0))  # R^T R - I = 4e-4 I
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
        fathom.Pose().transform_points(np.zeros(4))


def test_pose_wrong_shapes() -> None:
    with pytest.raises(ValueError, match=r"\(4, 4\)"):
        fathom.Pose(np.eye(3))
    with pytest.raises(ValueError, match="16 numbers"):
        fathom.Pose.from_row_major(np.arange(12.0))
    with pytest.raises(ValueError, match="16 numbers"):
        fathom.Pose.from_column_major(np.eye(4))


def test_distance_to_requires_a_pose_or_matrix() -> None:
    with pytest.raises(TypeError, match=r"other must be a fathom.Pose or a \(4, 4\) array-like"):
        fathom.Pose().distance_to("identity")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"other must be a fathom.Pose or a \(4, 4\) array-like .*got shape \(3, 3\)"):
        fathom.Pose().distance_to(np.eye(3))


# ------------------------------------------------------------------------------------------------
# Every pose argument takes a Pose or a (4, 4) matrix (and many poses an (N, 4, 4) array), through one converter
# ------------------------------------------------------------------------------------------------

import dataclasses  # noqa: E402
from pathlib import Path  # noqa: E402

_K = fathom.Intrinsics(500.0, 500.0, 320.0, 240.0, 640, 480)


def _plain(value):
    """A value made comparable with ==: poses by their floats, arrays as lists, dataclasses field by field."""
    if isinstance(value, fathom.Pose):
        return ("Pose", value.column_major.tolist())
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.descr, value.shape, np.ascontiguousarray(value).tobytes())
    if isinstance(value, fathom.Box):
        return ("Box", _plain(value.center), _plain(value.scale), value.rot_y, value.floor)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(_plain(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def _single_pose_calls(tmp: Path):
    """(name, call taking one pose-like) for every function and method taking one pose."""
    depth = np.full((48, 64), 2.0, np.float32)

    def with_box(p):
        box = fathom.Box(center=(0.0, 0.5, -2.0))
        return box.update_center((0.1, 0.0, -0.2), camera=p)

    def coverage_record(p):
        with fathom.Coverage(fathom.Box(center=(0.0, 0.0, -3.0))) as c:
            return c.record(p, _K)

    def motion_update(p):
        with fathom.Motion() as m:
            m.update(0, fathom.Pose())
            return m.update(10**9, p)

    def capture_add(p):
        with fathom.Capture() as c:
            return c.add_pose(0, p, _K), c.wants_depth(p)

    def scan_append(p):
        folder = tmp / f"scan{len(list(tmp.iterdir()))}"
        with fathom.ScanWriter(folder, "20240101_000000_test", depth_size=(64, 48), rgb_size=(640, 480),
                               depth_format="float32", confidence=False) as w:
            w.append(0, _K, p, depth)
            path = w.finish()
        with fathom.Scan.open(path) as scan:
            return scan.pose(0)

    return [
        ("Pose", lambda p: fathom.Pose(p)),
        ("Pose.nearest_rigid", lambda p: fathom.Pose.nearest_rigid(p, 0.01)),
        ("Pose.compose", lambda p: fathom.Pose.from_rotation_translation((0, 0, 0.6, 0.8), (1, 2, 3)).compose(p)),
        ("Pose.distance_to", lambda p: fathom.Pose().distance_to(p)),
        ("Pose.isclose", lambda p: fathom.Pose().isclose(p, atol=10.0)),
        ("camera_ray", lambda p: fathom.camera_ray(_K, p, 10.0, 20.0)),
        ("camera_ray arrays", lambda p: fathom.camera_ray(_K, p, [10.0, 30.0], [20.0, 40.0])),
        ("project", lambda p: fathom.project(_K, p, (0.0, 0.0, -1.0))),
        ("grid_rays", lambda p: fathom.grid_rays(_K, p, 64)),
        ("Intrinsics.ray", lambda p: _K.ray(p, 10.0, 20.0)),
        ("Intrinsics.project", lambda p: _K.project(p, [[0.0, 0.0, -1.0], [1.0, 0.0, -4.0]])),
        ("Intrinsics.grid_rays", lambda p: _K.grid_rays(p, 64)),
        ("tap_floor_height", lambda p: fathom.tap_floor_height(_K, p, 320.0, 400.0, plane=((0, -5, 0), (0, 1, 0)))),
        ("tap_place_box", lambda p: fathom.tap_place_box(_K, p, 320.0, 400.0, fathom.Box(floor=-5.0))),
        ("tap_box_face", lambda p: fathom.tap_box_face(_K, p, 320.0, 240.0, fathom.Box(center=(0, 0, -3)))),
        ("tag_world_pose camera", lambda p: fathom.tag_world_pose(p, fathom.Pose())),
        ("tag_world_pose tag", lambda p: fathom.tag_world_pose(fathom.Pose(), p)),
        ("snap_vertical", lambda p: fathom.snap_vertical(p)),
        ("rotate_covariance", lambda p: fathom.rotate_covariance(p, np.diag([1.0, 2.0, 3.0]))),
        ("Box.update_center", with_box),
        ("DepthFrame pose", lambda p: fathom.DepthFrame(depth, _K, pose=p).point(300.0, 200.0, frame="world")),
        ("Coverage.record", coverage_record),
        ("Motion.update", motion_update),
        ("Capture.add_pose / wants_depth", capture_add),
        ("ScanWriter.append", scan_append),
    ]


def _many_pose_calls(tmp: Path):
    """(name, call taking a list of two poses) for every function taking many poses."""

    def coverage(ps):
        with fathom.Coverage(fathom.Box(center=(0.0, 0.0, -3.0))) as c:
            return c.record_many(ps, _K)

    def motion(ps):
        with fathom.Motion() as m:
            return m.update_many([0, 10**9], ps)

    def transforms(ps):
        path = tmp / f"transforms{len(list(tmp.iterdir()))}.json"
        fathom.write_transforms(path, ps, _K)
        return fathom.read_transforms(path).poses

    def scan(ps):
        folder = tmp / f"written{len(list(tmp.iterdir()))}"
        depths = np.full((2, 48, 64), 2.0, np.float32)
        path = fathom.write_scan(folder, "20240101_000000_test", [0, 10**9], ps, _K, depths, rgb_size=(640, 480))
        with fathom.Scan.open(path) as s:
            return s.poses

    return [
        ("fuse_tag_observations", lambda ps: fathom.fuse_tag_observations(ps)),
        ("Coverage.record_many", coverage),
        ("Motion.update_many", motion),
        ("summarize_trajectory", lambda ps: fathom.summarize_trajectory([0, 10**9], ps)),
        ("select_frames", lambda ps: fathom.select_frames(ps, min_distance=0.1)),
        ("write_transforms", transforms),
        ("write_scan", scan),
    ]


def _camera_pose() -> fathom.Pose:
    return fathom.Pose.from_rotation_translation(fathom.quat_from_axis_angle((0.2, 1.0, 0.1), 0.4), (0.3, 1.2, 0.5))


def test_every_pose_argument_takes_a_matrix(tmp_path: Path) -> None:
    pose = _camera_pose()
    m = pose.matrix.astype(np.float64)
    for name, call in _single_pose_calls(tmp_path):
        expected = _plain(call(pose))
        assert _plain(call(m)) == expected, name  # float64 (4, 4)
        assert _plain(call(m.tolist())) == expected, name  # nested lists


def test_every_pose_list_takes_an_array_and_mixed_items(tmp_path: Path) -> None:
    a, b = _camera_pose(), fathom.Pose.from_rotation_translation((0, 0, 0, 1), (0.5, 1.2, 0.5))
    stacked = np.stack([a.matrix, b.matrix]).astype(np.float64)
    for name, call in _many_pose_calls(tmp_path):
        expected = _plain(call([a, b]))
        assert _plain(call(stacked)) == expected, name  # (N, 4, 4)
        assert _plain(call([a, b.matrix])) == expected, name  # a Pose and a matrix
        assert _plain(call((a.matrix.tolist(), b))) == expected, name  # a nested list and a Pose, in a tuple


def test_every_pose_argument_refuses_the_same_way(tmp_path: Path) -> None:
    for name, call in _single_pose_calls(tmp_path):
        with pytest.raises(ValueError, match=r"must be a fathom.Pose or a \(4, 4\) array-like .*got shape \(3, 3\)"):
            call(np.eye(3))
        with pytest.raises(TypeError, match=r"must be a fathom.Pose or a \(4, 4\) array-like .*got str"):
            call("identity")
        with pytest.raises(TypeError, match=r"got ndarray of dtype bool"):
            call(np.eye(4, dtype=bool))
        if name not in ("Pose.nearest_rigid", "Pose.isclose"):  # these two read a pose without checking it
            with pytest.raises(fathom.NotRigidError):
                call(np.diag([1.0, 1.0, 2.0, 1.0]))
            nan = np.eye(4)
            nan[1, 3] = np.nan
            with pytest.raises((fathom.NotFiniteError, fathom.NotRigidError)):
                call(nan)
    for name, call in _many_pose_calls(tmp_path):
        with pytest.raises(ValueError, match=r"poses must be an \(N, 4, 4\) array-like .*got shape \(2, 3, 3\)"):
            call(np.stack([np.eye(3), np.eye(3)]))
        with pytest.raises(TypeError, match=r"for one pose, use \[pose\]"):
            call(fathom.Pose())
        with pytest.raises(ValueError, match=r"got shape \(4, 4\) \(for one pose, use \[pose\]\)"):
            call(np.eye(4))
        with pytest.raises(fathom.NotRigidError):
            call([np.eye(4), np.diag([1.0, 1.0, 2.0, 1.0])])


def test_matrix_poses_match_numpy() -> None:
    """The converter's layout (rows as rows, translation in the last column) against numpy's own products."""
    pose = _camera_pose()
    m = pose.matrix.astype(np.float64)
    points = np.array([[0.1, 0.2, -1.0], [2.0, -1.0, 0.5]])
    other = np.eye(4)
    other[:3, 3] = [1.0, -2.0, 0.5]
    np.testing.assert_allclose(pose.compose(other).matrix, m @ other, atol=1e-6)
    np.testing.assert_allclose(fathom.Pose(m).transform_points(points), points @ m[:3, :3].T + m[:3, 3], atol=1e-6)
    assert pose.distance_to(other).meters == pytest.approx(np.linalg.norm(m[:3, 3] - other[:3, 3]), rel=1e-6)


def test_transform_points_one_point_gives_one_point(T: np.ndarray) -> None:
    pose = fathom.Pose(T)
    p = np.array([0.3, -1.0, 2.0])
    one = pose.transform_points(p)
    assert one.shape == (3,) and one.dtype == np.float32
    np.testing.assert_array_equal(one, pose.transform_points(p[None])[0])
    np.testing.assert_allclose(one, T[:3, :3] @ p + T[:3, 3], atol=1e-5)
    assert pose.transform_points([p]).shape == (1, 3)  # a list of one point stays a list
    with pytest.raises(fathom.NotFiniteError, match="fathom_pose_transform_points"):
        pose.transform_points([0.0, np.nan, 0.0])
