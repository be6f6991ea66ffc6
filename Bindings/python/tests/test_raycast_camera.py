"""Screen-point rays, projection and pixel grids against the formulas of reference/conventions.md."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _raycast_reference import camera_ray as ref_ray
from _raycast_reference import project as ref_project
from _reference import random_rotation, rigid

K = fathom.Intrinsics(fx=1450.0, fy=1452.0, cx=960.5, cy=719.25, width=1920, height=1440)


@pytest.fixture
def pose(rng: np.random.Generator) -> fathom.Pose:
    return fathom.Pose(rigid(random_rotation(rng), rng.uniform(-2, 2, 3)))


def test_identity_centre_ray_looks_down_minus_z() -> None:
    origin, direction = fathom.camera_ray(K, fathom.Pose(), K.cx, K.cy)
    np.testing.assert_allclose(origin, [0, 0, 0], atol=1e-7)
    np.testing.assert_allclose(direction, [0, 0, -1], atol=1e-7)


def test_pixel_right_and_down_of_centre() -> None:
    # u grows right (+x), v grows down (-y): one focal length right and down is 45 degrees off-axis each way
    _, d = fathom.camera_ray(K, fathom.Pose(), K.cx + K.fx, K.cy + K.fy)
    np.testing.assert_allclose(d, np.array([1.0, -1.0, -1.0]) / math.sqrt(3.0), atol=1e-6)


def test_camera_ray_matches_formula(pose: fathom.Pose, rng: np.random.Generator) -> None:
    m = pose.matrix
    for u, v in rng.uniform([-200, -200], [2100, 1600], size=(50, 2)):  # outside the image too
        origin, direction = fathom.camera_ray(K, pose, u, v)
        o, d = ref_ray(K, m, u, v)
        np.testing.assert_allclose(origin, o, atol=1e-6)
        np.testing.assert_allclose(direction, d, atol=2e-6)
        assert np.linalg.norm(direction) == pytest.approx(1.0, abs=1e-6)
        assert origin.dtype == direction.dtype == np.float32


def test_intrinsics_methods_are_the_functions(pose: fathom.Pose) -> None:
    a = K.ray(pose, 100.25, 200.5)
    b = fathom.camera_ray(K, pose, 100.25, 200.5)
    np.testing.assert_array_equal(a.origin, b.origin)
    np.testing.assert_array_equal(a.direction, b.direction)
    p = b.origin + 2.0 * b.direction
    assert K.project(pose, p) == fathom.project(K, pose, p)
    np.testing.assert_array_equal(K.grid_rays(pose, 64), fathom.grid_rays(K, pose, 64))


def test_project_round_trip(pose: fathom.Pose, rng: np.random.Generator) -> None:
    for u, v in rng.uniform([0, 0], [1920, 1440], size=(100, 2)):
        origin, direction = fathom.camera_ray(K, pose, u, v)
        depth = rng.uniform(0.5, 20.0)
        pu, pv, flags = fathom.project(K, pose, origin.astype(np.float64) + depth * direction)
        assert flags == 0
        assert (pu, pv) == pytest.approx((u, v), abs=1e-2)  # float32 world points: ~1e-7 m, ~1e-3 px


def test_project_matches_formula(pose: fathom.Pose, rng: np.random.Generator) -> None:
    m = pose.matrix.astype(np.float64)
    for _ in range(200):
        p = m[:3, 3] + rng.uniform(-5, 5, 3)
        u, v, behind, outside = ref_project(K, m, p.astype(np.float32))
        got = fathom.project(K, pose, p.astype(np.float32))
        assert bool(got.flags & fathom.ProjectFlags.BEHIND) == behind
        if behind:
            assert (got.u, got.v) == (0.0, 0.0)
            assert not got.visible
            continue
        assert got.u == pytest.approx(u, rel=1e-4, abs=1e-2)
        assert got.v == pytest.approx(v, rel=1e-4, abs=1e-2)
        if min(abs(u), abs(u - K.width), abs(v), abs(v - K.height)) > 0.1:  # not on the image border
            assert bool(got.flags & fathom.ProjectFlags.OUTSIDE) == outside
            assert got.visible == (not outside)


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
    with pytest.raises(TypeError, match="fathom.Pose"):
        fathom.camera_ray(K, np.eye(4), 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fathom.Intrinsics"):
        fathom.camera_ray((1450.0, 1452.0, 960.5, 719.25, 1920, 1440), fathom.Pose(), 1.0, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="step must be an int"):
        fathom.grid_rays(K, fathom.Pose(), 2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="point must have shape"):
        fathom.project(K, fathom.Pose(), (1.0, 2.0))
