"""Box fits through the binding: points in as numpy arrays, an OrientedBox or a Box out, checked on clouds whose
boxes are known by construction (a box's corners and points inside it). PCA against an eigendecomposition and the
upright fit against a brute force over yaw are the core tests' (FitTests.swift)."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _poses import rot_x, rot_y

#: Local corner signs of a box, every combination of +-1.
SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], np.float64)


def test_pca_of_a_boxs_corners_is_that_box() -> None:
    """The 8 corners of a box of distinct extents 4 x 1.6 x 0.6 (largest first: PCA's local x): their covariance is
    diagonal in the box's axes, so the fitted box is that box, its rotation's columns the box's axes up to sign."""
    R = rot_y(0.7) @ rot_x(-0.4)
    half = np.array([2.0, 0.8, 0.3])
    center = np.array([1.0, -2.0, 0.5])
    local = SIGNS * half
    obb = fathom.fit_obb_pca((center + local @ R.T).astype(np.float32))
    assert isinstance(obb, fathom.OrientedBox)
    np.testing.assert_allclose(obb.center, center, atol=1e-5)
    np.testing.assert_allclose(obb.scale, 2 * half, rtol=1e-5)
    x, y, z, w = obb.rotation.astype(np.float64)
    axes = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])  # R(q), rows as rows
    np.testing.assert_allclose(np.abs(np.sum(axes * R, axis=0)), 1.0, atol=1e-5)  # |column . column| = 1
    assert obb.volume == pytest.approx(np.prod(2 * half), rel=1e-5)


@pytest.mark.parametrize("yaw", [0.0, 0.4, 1.2])
def test_upright_fit_of_points_in_a_yawed_box(rng: np.random.Generator, yaw: float) -> None:
    size = np.array([1.2, 0.7, 0.5])
    center = np.array([0.3, 0.35, -1.0])
    local = rng.uniform(-0.5, 0.5, size=(2000, 3)) * size
    # include the 8 corners so the hull is the true rectangle and the height is exact
    pts = (center + np.vstack([local, SIGNS * size / 2]) @ rot_y(yaw).T).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    assert isinstance(box, fathom.Box) and box.floor is None
    assert 0.0 <= box.rot_y < np.pi / 2
    assert box.scale[0] * box.scale[2] == pytest.approx(size[0] * size[2], rel=1e-4)
    assert box.scale[1] == pytest.approx(size[1], rel=1e-5)
    np.testing.assert_allclose(box.center, center, atol=1e-4)
    # the rectangle's axes are the true ones up to a quarter turn
    d = (box.rot_y - yaw) % (np.pi / 2)
    assert min(d, np.pi / 2 - d) == pytest.approx(0.0, abs=1e-3)


def test_upright_fit_y_extent_is_lowest_to_highest(rng: np.random.Generator) -> None:
    pts = rng.normal(size=(1000, 3)).astype(np.float32)
    box = fathom.fit_box_upright(pts)
    lo, hi = pts[:, 1].min(), pts[:, 1].max()
    assert box.scale[1] == pytest.approx(hi - lo, rel=1e-5)
    assert box.center[1] == pytest.approx((hi + lo) / 2, abs=1e-5)


def test_fits_take_other_layouts_and_dtypes(rng: np.random.Generator) -> None:
    """float64, Fortran order, (N, k > 3) records and lists give the fit of the float32 points."""
    pts = rng.normal(size=(300, 3)) * [1.0, 0.5, 0.3]
    wide = np.hstack([pts, np.full((300, 2), np.nan)]).astype(np.float32)  # the extra columns must not be read
    for fit in (fathom.fit_obb_pca, fathom.fit_box_upright):
        expected = fit(pts.astype(np.float32))
        assert fit(pts) == expected
        assert fit(np.asfortranarray(pts)) == expected
        assert fit(wide) == expected
        assert fit(pts.tolist()) == expected


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
