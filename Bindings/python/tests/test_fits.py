"""Box fits: PCA against numpy's eigh, the upright fit against a known yawed box."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _reference import local_coords, quat_to_matrix, random_rotation, rot_y


def _cloud(rng: np.random.Generator, n: int = 4000):
    R = random_rotation(rng)
    half = np.array([2.0, 0.8, 0.3])  # distinct variances along three axes
    local = rng.uniform(-1, 1, size=(n, 3)) * half
    center = np.array([1.0, -2.0, 0.5])
    return (center + local @ R.T).astype(np.float32), R


def test_pca_axes_match_numpy_eigh(rng: np.random.Generator) -> None:
    pts, _ = _cloud(rng)
    obb = fathom.fit_obb_pca(pts)
    x = pts.astype(np.float64)
    evals, evecs = np.linalg.eigh(np.cov(x.T))
    order = np.argsort(evals)[::-1]  # largest variance first as local x
    axes = quat_to_matrix(obb.rotation)
    for k in range(3):
        assert abs(np.dot(axes[:, k], evecs[:, order[k]])) == pytest.approx(1.0, abs=1e-4)


def test_pca_box_is_the_tight_box_in_those_axes(rng: np.random.Generator) -> None:
    pts, _ = _cloud(rng)
    obb = fathom.fit_obb_pca(pts)
    axes = quat_to_matrix(obb.rotation)
    proj = pts.astype(np.float64) @ axes
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    np.testing.assert_allclose(obb.scale, hi - lo, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(obb.center, axes @ ((lo + hi) / 2), atol=1e-4)
    assert obb.volume == pytest.approx(np.prod(hi - lo), rel=1e-4)


def test_pca_box_encloses_every_point(rng: np.random.Generator) -> None:
    pts, _ = _cloud(rng)
    obb = fathom.fit_obb_pca(pts)
    local = local_coords(pts, obb.center, quat_to_matrix(obb.rotation))
    assert np.all(np.abs(local) <= obb.scale / 2 + 1e-5)  # extreme points lie on faces, up to rounding
    assert obb.signed_distance(pts).max() <= 1e-5
    assert obb.rotation[3] ** 2 + np.sum(obb.rotation[:3] ** 2) == pytest.approx(1.0, abs=1e-5)


def test_pca_right_handed(rng: np.random.Generator) -> None:
    pts, _ = _cloud(rng)
    assert np.linalg.det(quat_to_matrix(fathom.fit_obb_pca(pts).rotation)) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("yaw", [0.0, 0.4, 1.2, -0.9, 2.8])
def test_upright_fit_of_points_in_a_yawed_box(rng: np.random.Generator, yaw: float) -> None:
    size = np.array([1.2, 0.7, 0.5])
    center = np.array([0.3, 0.35, -1.0])
    local = rng.uniform(-0.5, 0.5, size=(5000, 3)) * size
    # include the 8 corners so the hull is the true rectangle and the height is exact
    corners = np.array([[sx, sy, sz] for sx in (-.5, .5) for sy in (-.5, .5) for sz in (-.5, .5)]) * size
    pts = (center + np.vstack([local, corners]) @ rot_y(yaw).T).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    assert box.floor is None
    assert 0.0 <= box.rot_y < np.pi / 2
    footprint = box.scale[0] * box.scale[2]
    assert footprint == pytest.approx(size[0] * size[2], rel=1e-4)
    assert box.scale[1] == pytest.approx(size[1], rel=1e-5)
    np.testing.assert_allclose(box.center, center, atol=1e-4)
    assert box.volume == pytest.approx(np.prod(size), rel=1e-4)
    # every point inside (up to float rounding on the faces)
    assert box.to_obb().signed_distance(pts).max() <= 1e-5
    # the rectangle's axes are the true ones up to a quarter turn
    d = (box.rot_y - yaw) % (np.pi / 2)
    assert min(d, np.pi / 2 - d) == pytest.approx(0.0, abs=1e-3)


def test_upright_fit_y_extent_is_lowest_to_highest(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(1000, 3)).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    lo, hi = pts[:, 1].min(), pts[:, 1].max()
    assert box.scale[1] == pytest.approx(hi - lo, rel=1e-5)
    assert box.center[1] == pytest.approx((hi + lo) / 2, abs=1e-5)


def test_upright_fit_is_minimal_over_all_yaws(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(300, 3)) * [1.0, 1.0, 0.4]
    pts = (pts @ rot_y(0.5).T).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    xz = pts[:, [0, 2]].astype(np.float64)
    angles = np.linspace(0, np.pi / 2, 4001)  # brute force over yaw, one vectorised sweep
    c, s = np.cos(angles), np.sin(angles)
    u = xz[:, :1] * c + xz[:, 1:] * (-s)  # local x of every point at every angle (R_y(a)^T)
    v = xz[:, :1] * s + xz[:, 1:] * c
    areas = (u.max(0) - u.min(0)) * (v.max(0) - v.min(0))
    best = areas.min()
    assert box.scale[0] * box.scale[2] <= best * (1 + 1e-5)
    assert box.scale[0] * box.scale[2] >= best * (1 - 2e-3)  # the sweep's grid is fine enough


@pytest.mark.parametrize("seed", range(12))
def test_upright_fit_encloses_small_random_clouds(seed: int) -> None:
    # few points make small hulls, where every caliper of the rectangle search matters
    rng = np.random.default_rng(seed)
    pts = (rng.normal(size=(int(rng.integers(5, 30)), 3)) @ rot_y(rng.uniform(-3, 3)).T).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    assert box.to_obb().signed_distance(pts).max() <= 1e-5
    xz = pts[:, [0, 2]].astype(np.float64)
    angles = np.linspace(0, np.pi / 2, 4001)
    c, s = np.cos(angles), np.sin(angles)
    u, v = xz[:, :1] * c - xz[:, 1:] * s, xz[:, :1] * s + xz[:, 1:] * c
    best = ((u.max(0) - u.min(0)) * (v.max(0) - v.min(0))).min()
    assert box.scale[0] * box.scale[2] == pytest.approx(best, rel=2e-3)


# -- bad input ------------------------------------------------------------------------------------


def test_pca_too_few_points() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_obb_fit_pca"):
        fathom.fit_obb_pca(np.eye(3, dtype=np.float32))


def test_pca_coplanar_points(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(100, 3))
    pts[:, 2] = 1.0
    with pytest.raises(fathom.DegenerateError):
        fathom.fit_obb_pca(pts)


def test_pca_coincident_points() -> None:
    with pytest.raises(fathom.DegenerateError):
        fathom.fit_obb_pca(np.ones((10, 3)))


def test_pca_nan_point(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(10, 3))
    pts[4, 1] = np.nan
    with pytest.raises(fathom.NotFiniteError, match="fathom_obb_fit_pca"):
        fathom.fit_obb_pca(pts)


def test_pca_empty() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="count"):
        fathom.fit_obb_pca(np.empty((0, 3)))


def test_upright_flat_points(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(100, 3))
    pts[:, 1] = 0.0  # no height
    with pytest.raises(fathom.DegenerateError, match="fathom_box_fit_upright"):
        fathom.fit_box_upright(pts)


def test_upright_collinear_footprint(rng: np.random.Generator) -> None:
    t = rng.normal(size=100)
    pts = np.column_stack([t, rng.normal(size=100), 2 * t])  # x-z on one line: no area
    with pytest.raises(fathom.DegenerateError):
        fathom.fit_box_upright(pts)


def test_upright_infinite_point(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(10, 3))
    pts[0, 0] = np.inf
    with pytest.raises(fathom.NotFiniteError):
        fathom.fit_box_upright(pts)


def test_upright_wrong_shape() -> None:
    with pytest.raises(ValueError, match="points must have shape"):
        fathom.fit_box_upright(np.zeros((10, 2)))
