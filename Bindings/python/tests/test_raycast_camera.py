"""Screen-point rays, projection and pixel grids through the binding: intrinsics, poses (as fathom.Pose and as
(4, 4) arrays, rows as rows), scalars and arrays of pixels or points in and out, checked on a hand-placed camera.
The formulas on random cameras are the core tests' (CameraRayTests.swift)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom

K = fathom.Intrinsics(fx=1450.0, fy=1452.0, cx=960.5, cy=719.25, width=1920, height=1440)


#: A camera at (1, 2, 3) turned 90 degrees about +y (R_y(pi/2): camera x -> world -z, camera z -> world x), so that
#: a transposed matrix or a lost translation gives other rays.
TURNED = np.array([[0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 2.0], [-1.0, 0.0, 0.0, 3.0], [0.0, 0.0, 0.0, 1.0]])


@pytest.fixture
def pose() -> fathom.Pose:
    return fathom.Pose(TURNED)


def test_identity_centre_ray_looks_down_minus_z() -> None:
    origin, direction = fathom.camera_ray(K, fathom.Pose(), K.cx, K.cy)
    np.testing.assert_allclose(origin, [0, 0, 0], atol=1e-7)
    np.testing.assert_allclose(direction, [0, 0, -1], atol=1e-7)


def test_pixel_right_and_down_of_centre() -> None:
    # u grows right (+x), v grows down (-y): one focal length right and down is 45 degrees off-axis each way
    _, d = fathom.camera_ray(K, fathom.Pose(), K.cx + K.fx, K.cy + K.fy)
    np.testing.assert_allclose(d, np.array([1.0, -1.0, -1.0]) / math.sqrt(3.0), atol=1e-6)


def test_camera_ray_of_a_turned_camera(pose: fathom.Pose) -> None:
    """The camera's -z is world -x; a pixel one focal length right of and below the centre is camera (1, -1, -1),
    world (-1, -1, -1), normalized. The origin is the camera's position."""
    origin, direction = fathom.camera_ray(K, pose, K.cx, K.cy)
    assert origin.dtype == direction.dtype == np.float32 and origin.shape == direction.shape == (3,)
    np.testing.assert_allclose(origin, [1, 2, 3], atol=1e-7)
    np.testing.assert_allclose(direction, [-1, 0, 0], atol=1e-7)
    _, corner = fathom.camera_ray(K, pose, K.cx + K.fx, K.cy + K.fy)
    np.testing.assert_allclose(corner, np.array([-1.0, -1.0, -1.0]) / math.sqrt(3.0), atol=1e-6)
    _, outside = fathom.camera_ray(K, pose, -K.fx + K.cx, K.cy)  # left of the image: no clipping to it
    np.testing.assert_allclose(outside, np.array([-1.0, 0.0, 1.0]) / math.sqrt(2.0), atol=1e-6)


def test_intrinsics_methods_are_the_functions(pose: fathom.Pose) -> None:
    a = K.ray(pose, 100.25, 200.5)
    b = fathom.camera_ray(K, pose, 100.25, 200.5)
    np.testing.assert_array_equal(a.origin, b.origin)
    np.testing.assert_array_equal(a.direction, b.direction)
    p = b.origin + 2.0 * b.direction
    assert K.project(pose, p) == fathom.project(K, pose, p)
    np.testing.assert_array_equal(K.grid_rays(pose, 64), fathom.grid_rays(K, pose, 64))


def test_project_with_a_turned_camera(pose: fathom.Pose) -> None:
    """Camera point (0.5, -0.25, -2): u = cx + fx * 0.5 / 2, v = cy + fy * 0.25 / 2; in the world it is
    (1, 2, 3) + R (0.5, -0.25, -2) = (-1, 1.75, 2.5). Behind the camera (world +x of it): BEHIND, u = v = 0."""
    u, v, flags = fathom.project(K, pose, (-1.0, 1.75, 2.5))
    assert flags == 0
    assert (u, v) == pytest.approx((K.cx + K.fx / 4, K.cy + K.fy / 8), rel=1e-6)
    behind = fathom.project(K, pose, (3.0, 2.0, 3.0))
    assert behind.flags == fathom.ProjectFlags.BEHIND and (behind.u, behind.v) == (0.0, 0.0)


def test_project_flags_by_hand() -> None:
    ident = fathom.Pose()
    assert fathom.project(K, ident, (0, 0, -2)) == (pytest.approx(K.cx), pytest.approx(K.cy), 0)
    behind = fathom.project(K, ident, (0, 0, 2))
    assert behind.flags == fathom.ProjectFlags.BEHIND and (behind.u, behind.v) == (0.0, 0.0)
    assert fathom.project(K, ident, (0, 0, 0)).flags == fathom.ProjectFlags.BEHIND  # z >= 0 is behind
    side = fathom.project(K, ident, (10, 0, -1))  # far to the right: u = cx + 10 fx
    assert side.flags == fathom.ProjectFlags.OUTSIDE
    assert side.u == pytest.approx(K.cx + 10 * K.fx, rel=1e-6)
    assert isinstance(side.flags, fathom.ProjectFlags)


@pytest.mark.parametrize("step", [1, 7, 64, 5000])
def test_grid_rays_count_order_and_directions(pose: fathom.Pose, step: int) -> None:
    k = K.scaled(256, 192)
    rays = fathom.grid_rays(k, pose, step)
    nx, ny = math.ceil(k.width / step), math.ceil(k.height / step)
    assert rays.shape == (nx * ny, 6) and rays.dtype == np.float32 and rays.flags.c_contiguous
    jj, ii = np.divmod(np.arange(nx * ny), nx)  # row by row
    u, v = ii * step + 0.5, jj * step + 0.5
    d = np.stack([(u - k.cx) / k.fx, -(v - k.cy) / k.fy, -np.ones_like(u)], axis=1)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    m = pose.matrix.astype(np.float64)
    np.testing.assert_allclose(rays[:, 3:], d @ m[:3, :3].T, atol=2e-6)
    np.testing.assert_allclose(rays[:, :3], np.broadcast_to(m[:3, 3], (len(rays), 3)), atol=1e-6)


def test_grid_ray_matches_camera_ray(pose: fathom.Pose) -> None:
    k = fathom.Intrinsics(200.0, 210.0, 33.0, 21.0, 64, 48)
    rays = fathom.grid_rays(k, pose, 5)
    nx = math.ceil(64 / 5)
    for index in (0, 1, nx - 1, nx, len(rays) - 1):
        j, i = divmod(index, nx)
        origin, direction = fathom.camera_ray(k, pose, i * 5 + 0.5, j * 5 + 0.5)
        np.testing.assert_allclose(rays[index, :3], origin, atol=1e-6)
        np.testing.assert_allclose(rays[index, 3:], direction, atol=1e-6)


def test_bad_camera_input() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="step"):
        fathom.grid_rays(K, fathom.Pose(), 0)
    with pytest.raises(fathom.NotFiniteError, match="fathom_camera_ray"):
        fathom.camera_ray(K, fathom.Pose(), float("nan"), 10.0)
    with pytest.raises(fathom.NotFiniteError, match="fathom_camera_project"):
        fathom.project(K, fathom.Pose(), (0.0, float("inf"), -1.0))
    with pytest.raises(fathom.OutOfRangeError, match="fx"):
        fathom.camera_ray(fathom.Intrinsics(0.0, 500.0, 320.0, 240.0, 640, 480), fathom.Pose(), 1.0, 1.0)
    with pytest.raises(fathom.OutOfRangeError, match="width"):
        fathom.grid_rays(fathom.Intrinsics(500.0, 500.0, 320.0, 240.0, 0, 480), fathom.Pose(), 1)
    with pytest.raises(TypeError, match="camera_to_world must be a fathom.Pose"):
        fathom.camera_ray(K, "identity", 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(fathom.NotRigidError, match="fathom_camera_ray"):
        fathom.camera_ray(K, np.diag([1.0, 1.0, 3.0, 1.0]), 1.0, 1.0)
    with pytest.raises(TypeError, match="fathom.Intrinsics"):
        fathom.camera_ray((1450.0, 1452.0, 960.5, 719.25, 1920, 1440), fathom.Pose(), 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="step must be an int"):
        fathom.grid_rays(K, fathom.Pose(), 2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="point must have shape"):
        fathom.project(K, fathom.Pose(), (1.0, 2.0))


# ------------------------------------------------------------------------------------------------
# numpy style: arrays of pixels and of points, (4, 4) matrices as poses
# ------------------------------------------------------------------------------------------------


def test_camera_ray_arrays_equal_single_calls(pose: fathom.Pose, rng: np.random.Generator) -> None:
    uv = rng.uniform([-200, -200], [2100, 1600], size=(40, 2))
    rays = fathom.camera_ray(K, pose, uv[:, 0], uv[:, 1])
    assert rays.origin.shape == rays.direction.shape == (40, 3)
    assert rays.origin.dtype == rays.direction.dtype == np.float32
    for i, (u, v) in enumerate(uv):
        one = fathom.camera_ray(K, pose, u, v)
        np.testing.assert_array_equal(rays.origin[i], one.origin)
        np.testing.assert_array_equal(rays.direction[i], one.direction)
    np.testing.assert_allclose(rays.origin, np.broadcast_to([1, 2, 3], (40, 3)), atol=1e-6)


def test_camera_ray_array_shapes(pose: fathom.Pose) -> None:
    us, vs = np.meshgrid(np.arange(4) * 100.0, np.arange(3) * 100.0)  # (3, 4) grids
    rays = fathom.camera_ray(K, pose, us, vs)
    assert rays.origin.shape == rays.direction.shape == (3, 4, 3)
    np.testing.assert_array_equal(rays.direction[2, 1], fathom.camera_ray(K, pose, 100.0, 200.0).direction)
    column = fathom.camera_ray(K, pose, 500.0, [10.0, 20.0, 30.0])  # a scalar u broadcasts against v
    assert column.direction.shape == (3, 3)
    np.testing.assert_array_equal(column.direction[1], fathom.camera_ray(K, pose, 500.0, 20.0).direction)
    empty = fathom.camera_ray(K, pose, [], [])
    assert empty.origin.shape == (0, 3)
    single = fathom.camera_ray(K, pose, np.float32(5.0), np.array(6.0))  # numpy scalars and 0-d arrays: one ray
    assert single.origin.shape == (3,)
    with fathom.Mesh([[-50, -50, -9], [50, -50, -9], [0, 50, -9]], [[0, 1, 2]]) as mesh:  # rays cast as they come
        hits = mesh.cast(*fathom.camera_ray(K, fathom.Pose(), [K.cx, 0.0], [K.cy, 0.0]))
        assert fathom.hit_mask(hits).tolist() == [True, True]


def test_camera_ray_array_errors(pose: fathom.Pose) -> None:
    with pytest.raises(fathom.NotFiniteError, match=r"fathom_camera_ray: u .*\(at element 2: u=nan, v=3.0\)"):
        fathom.camera_ray(K, pose, [1.0, 2.0, np.nan], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"u and v must have the same shape"):
        fathom.camera_ray(K, pose, [1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="u must hold real numbers"):
        fathom.camera_ray(K, pose, np.array([True]), [1.0])
    with pytest.raises(TypeError, match="u must be a number or an array of numbers"):
        fathom.camera_ray(K, pose, "12", [1.0])
    with pytest.raises(TypeError, match="u must be a real number"):
        fathom.camera_ray(K, pose, True, 1.0)


def test_project_arrays_equal_single_calls(pose: fathom.Pose, rng: np.random.Generator) -> None:
    points = (np.array([1.0, 2.0, 3.0]) + rng.uniform(-5, 5, (300, 3))).astype(np.float32)
    got = fathom.project(K, pose, points)
    assert got.u.shape == got.v.shape == got.flags.shape == (300,)
    assert got.u.dtype == got.v.dtype == np.float32 and got.flags.dtype == np.uint32
    for i, p in enumerate(points[:50]):
        one = fathom.project(K, pose, p)
        assert (got.u[i], got.v[i], got.flags[i]) == (np.float32(one.u), np.float32(one.v), one.flags)
    # the camera looks along world -x: points with x > 1 are behind it
    np.testing.assert_array_equal((got.flags & fathom.ProjectFlags.BEHIND) != 0, points[:, 0] >= 1.0)
    assert set(np.unique(got.flags).tolist()) == {0, fathom.ProjectFlags.BEHIND, fathom.ProjectFlags.OUTSIDE}
    np.testing.assert_array_equal(got.visible, got.flags == 0)
    three = fathom.project(K, pose, [(-1.0, 1.75, 2.5), (3.0, 2.0, 3.0), (0.0, 2.0, -10.0)])  # in, behind, outside
    np.testing.assert_array_equal(three.flags, [0, fathom.ProjectFlags.BEHIND, fathom.ProjectFlags.OUTSIDE])
    assert (three.u[0], three.v[0]) == pytest.approx((K.cx + K.fx / 4, K.cy + K.fy / 8), rel=1e-6)
    wide = np.hstack([points, np.ones((300, 2), np.float32)])  # (N, k >= 3) records are read for x, y, z
    np.testing.assert_array_equal(fathom.project(K, pose, wide).u, got.u)
    assert fathom.project(K, pose, np.empty((0, 3))).u.shape == (0,)


def test_project_array_errors(pose: fathom.Pose) -> None:
    with pytest.raises(fathom.NotFiniteError, match=r"fathom_camera_project.*\(at element 1: point \(0.0, inf, -1.0\)"):
        fathom.project(K, pose, [[0.0, 0.0, -1.0], [0.0, np.inf, -1.0]])
    with pytest.raises(ValueError, match=r"point must have shape \(N, 3\) or \(N, k\) with k >= 3, or \(3,\) for one"):
        fathom.project(K, pose, np.zeros((4, 2)))


def test_camera_functions_take_matrices(pose: fathom.Pose) -> None:
    m = pose.matrix.astype(np.float64)
    a, b = fathom.camera_ray(K, m, 100.25, 200.5), fathom.camera_ray(K, pose, 100.25, 200.5)
    np.testing.assert_array_equal(a.direction, b.direction)
    p = b.origin + 2.0 * b.direction
    assert fathom.project(K, m.tolist(), p) == fathom.project(K, pose, p)  # nested lists are array-likes too
    np.testing.assert_array_equal(fathom.grid_rays(K, m, 64), fathom.grid_rays(K, pose, 64))
    assert K.project(m, p) == fathom.project(K, pose, p)
    with pytest.raises(fathom.NotFiniteError, match="fathom_camera_grid_rays"):
        bad = m.copy()
        bad[0, 3] = np.nan
        fathom.grid_rays(K, bad, 64)
