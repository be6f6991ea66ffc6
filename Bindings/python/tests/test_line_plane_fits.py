"""Least-squares and RANSAC line and plane fits against numpy (lstsq, SVD, eigh) on random data.

(tests/test_fits.py is the box fits'.)
"""

from __future__ import annotations

import numpy as np
import pytest

import fathom


def _canonical(v: np.ndarray) -> np.ndarray:
    """The header's sign rule: the largest-magnitude component positive."""
    return v if v[np.argmax(np.abs(v))] > 0 else -v


def _line_points(rng: np.random.Generator, n: int, dims: int, noise: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    direction = rng.normal(size=dims)
    direction /= np.linalg.norm(direction)
    origin = rng.uniform(-2, 2, dims)
    t = rng.uniform(-1.5, 2.5, n)
    pts = origin + t[:, None] * direction + rng.normal(scale=noise, size=(n, dims))
    return pts, origin, direction


def _check_residuals(fit: fathom.LineFit, pts: np.ndarray, residuals: np.ndarray) -> None:
    assert fit.rms == pytest.approx(np.sqrt(np.mean(residuals**2)), rel=1e-9, abs=1e-14)
    assert fit.max_residual == pytest.approx(residuals.max(), rel=1e-9, abs=1e-14)
    t = (pts - fit.point) @ fit.direction
    assert fit.t_min == pytest.approx(t.min(), abs=1e-12)
    assert fit.t_max == pytest.approx(t.max(), abs=1e-12)
    assert fit.length == pytest.approx(t.max() - t.min(), abs=1e-12)
    np.testing.assert_allclose(fit.start, fit.point + t.min() * fit.direction, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# Least squares
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trial", range(5))
def test_ordinary_2d_matches_lstsq(rng: np.random.Generator, trial: int) -> None:
    x = rng.uniform(-5, 5, 200)
    y = 0.7 * x - 1.3 + rng.normal(scale=0.2, size=200) + trial
    pts = np.stack([x, y], 1)
    (a, b), *_ = np.linalg.lstsq(np.stack([x, np.ones_like(x)], 1), y, rcond=None)
    fit = fathom.fit_line_2d(pts, method="ordinary")
    assert fit.point.shape == (2,) and fit.direction.shape == (2,)
    np.testing.assert_allclose(fit.point, pts.mean(0), atol=1e-12)
    np.testing.assert_allclose(fit.direction, _canonical(np.array([1.0, a]) / np.hypot(1, a)), atol=1e-12)
    _check_residuals(fit, pts, np.abs(y - (a * x + b)))  # vertical residuals
    assert fit.used == 200


def test_ordinary_and_total_differ_as_expected(rng: np.random.Generator) -> None:
    """With noise in x too, ordinary least squares attenuates the slope; total least squares does not."""
    t = rng.uniform(-5, 5, 5000)
    x = t + rng.normal(scale=1.0, size=t.size)
    y = 2.0 * t + rng.normal(scale=1.0, size=t.size)
    pts = np.stack([x, y], 1)
    ordinary = fathom.fit_line_2d(pts, "ordinary")
    total = fathom.fit_line_2d(pts, fathom.LineMethod.TOTAL)
    assert ordinary.direction[1] / ordinary.direction[0] < total.direction[1] / total.direction[0]


@pytest.mark.parametrize("dims", [2, 3])
def test_total_least_squares_matches_svd(rng: np.random.Generator, dims: int) -> None:
    pts, _, _ = _line_points(rng, 300, dims, 0.05)
    centroid = pts.mean(0)
    _, _, vt = np.linalg.svd(pts - centroid)
    expected = _canonical(vt[0])
    fit = fathom.fit_line_2d(pts) if dims == 2 else fathom.fit_line_3d(pts)
    np.testing.assert_allclose(fit.point, centroid, atol=1e-12)
    np.testing.assert_allclose(fit.direction, expected, atol=1e-10)
    q = pts - centroid
    t = q @ expected
    _check_residuals(fit, pts, np.sqrt(np.maximum((q * q).sum(1) - t * t, 0)))
    np.testing.assert_allclose(fit.distance(pts), np.sqrt(np.maximum((q * q).sum(1) - t * t, 0)), atol=1e-9)


def test_plane_matches_eigh(rng: np.random.Generator) -> None:
    n = np.array([0.2, -0.5, 0.8])
    n /= np.linalg.norm(n)
    u = np.cross(n, [1, 0, 0])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    pts = 0.5 + rng.uniform(-1, 1, (400, 1)) * u + rng.uniform(-2, 2, (400, 1)) * v + rng.normal(scale=0.01, size=(400, 1)) * n
    centroid = pts.mean(0)
    w, vecs = np.linalg.eigh(np.cov((pts - centroid).T, bias=True))
    expected = _canonical(vecs[:, 0])
    fit = fathom.fit_plane(pts)
    np.testing.assert_allclose(fit.point, centroid, atol=1e-12)
    np.testing.assert_allclose(fit.normal, expected, atol=1e-10)
    d = (pts - centroid) @ expected
    assert fit.rms == pytest.approx(np.sqrt(np.mean(d**2)), rel=1e-8)
    assert fit.max_residual == pytest.approx(np.abs(d).max(), rel=1e-8)
    assert fit.used == 400
    np.testing.assert_allclose(fit.distance(pts), d, atol=1e-12)


def test_exact_fits_have_zero_residual() -> None:
    line = fathom.fit_line_3d([[0, 0, 0], [1, 2, 2], [2, 4, 4]])
    np.testing.assert_allclose(line.direction, [1 / 3, 2 / 3, 2 / 3], atol=1e-12)
    assert line.rms < 1e-12 and line.t_min == pytest.approx(-3) and line.t_max == pytest.approx(3)
    plane = fathom.fit_plane([[0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]])
    np.testing.assert_allclose(plane.normal, [0, 0, 1], atol=1e-12)
    assert plane.rms < 1e-12


def test_points_layouts(rng: np.random.Generator) -> None:
    """A strided float64 view is read in place; float32, lists and wider arrays give the same fit."""
    pts, _, _ = _line_points(rng, 50, 3, 0.01)
    wide = np.zeros((50, 5))
    wide[:, :3] = pts
    reference = fathom.fit_line_3d(pts)
    for variant in (wide, wide[:, :3], pts.tolist(), np.asfortranarray(pts), pts[::-1].copy()[::-1]):
        fit = fathom.fit_line_3d(variant)
        np.testing.assert_allclose(fit.direction, reference.direction, atol=1e-12)
    f32 = fathom.fit_line_3d(pts.astype(np.float32))
    np.testing.assert_allclose(f32.direction, reference.direction, atol=1e-5)
    line2 = fathom.fit_line_2d(wide[:, :2])  # (N, k >= 2): the first two columns
    np.testing.assert_allclose(line2.direction, fathom.fit_line_2d(pts[:, :2].copy()).direction, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# RANSAC
# ------------------------------------------------------------------------------------------------


def _with_outliers(rng: np.random.Generator, pts: np.ndarray, fraction: float, spread: float) -> np.ndarray:
    n_out = int(len(pts) * fraction / (1 - fraction))
    lo, hi = pts.min(0) - spread, pts.max(0) + spread
    return np.vstack([pts, rng.uniform(lo, hi, (n_out, pts.shape[1]))])


@pytest.mark.parametrize("dims", [2, 3])
def test_ransac_line_recovers_the_line(rng: np.random.Generator, dims: int) -> None:
    inliers, origin, direction = _line_points(rng, 300, dims, 0.002)
    pts = _with_outliers(rng, inliers, 0.4, 1.0)
    rng.shuffle(pts)
    fit = fathom.fit_line_ransac(pts, threshold=0.01, iterations=200, seed=3)
    assert fit.direction.shape == (dims,)
    assert abs(np.dot(fit.direction, direction)) > 1 - 1e-5  # within ~0.25 degrees
    # the refit is the total-least-squares line of the points within the threshold of the best candidate
    ls = fathom.fit_line_2d(inliers) if dims == 2 else fathom.fit_line_3d(inliers)
    assert abs(np.dot(fit.direction, ls.direction)) > 1 - 1e-6
    assert 300 <= fit.used <= 300 + 10  # every true inlier (noise 0.002 << 0.01), few chance outliers
    # plain least squares is pulled off by the outliers
    plain = fathom.fit_line_2d(pts) if dims == 2 else fathom.fit_line_3d(pts)
    assert abs(np.dot(plain.direction, direction)) < abs(np.dot(fit.direction, direction))


def _plane_basis(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u = np.cross(n, [0, 0, 1])
    u /= np.linalg.norm(u)
    return u, np.cross(n, u)


def test_ransac_inliers_are_the_points_used(rng: np.random.Generator) -> None:
    """inliers marks exactly the points on the model (outliers are kept at least 10 thresholds away), its count
    is `used`, and the fit is numpy's least-squares fit of the marked points."""
    n = np.array([0.3, -0.2, 0.93])
    n /= np.linalg.norm(n)
    u, v = _plane_basis(n)
    on = rng.uniform(-1, 1, (200, 1)) * u + rng.uniform(-1, 1, (200, 1)) * v + rng.normal(scale=0.001, size=(200, 1)) * n
    off = rng.uniform(-1, 1, (150, 1)) * u + rng.uniform(-1, 1, (150, 1)) * v
    off += (rng.choice([-1, 1], (150, 1)) * rng.uniform(0.05, 0.5, (150, 1))) * n
    pts = np.vstack([on, off])
    truth = np.arange(len(pts)) < len(on)
    order = rng.permutation(len(pts))
    pts, truth = pts[order], truth[order]
    fit = fathom.fit_plane_ransac(pts, threshold=0.005, iterations=200, seed=1)
    assert fit.inliers.dtype == np.bool_ and fit.inliers.shape == (len(pts),)
    np.testing.assert_array_equal(fit.inliers, truth)
    assert fit.inliers.sum() == fit.used
    centred = pts[fit.inliers] - pts[fit.inliers].mean(0)
    normal = np.linalg.svd(centred)[2][-1]
    assert abs(np.dot(fit.normal, normal)) > 1 - 1e-12
    np.testing.assert_allclose(fit.point, pts[fit.inliers].mean(0), atol=1e-12)
    assert fathom.fit_plane(pts).inliers is None

    # A 2D line: the same, with numpy's principal direction of the marked points.
    t = rng.uniform(-2, 2, 120)
    line = np.stack([t, 0.5 * t + 0.1 + rng.normal(scale=0.001, size=120)], 1)
    far = rng.uniform(-2, 2, (60, 2))
    far = far[np.abs(far[:, 1] - 0.5 * far[:, 0] - 0.1) / np.sqrt(1.25) > 0.05]
    pts2 = np.vstack([line, far])
    fit2 = fathom.fit_line_ransac(pts2, threshold=0.005, iterations=200, seed=2)
    np.testing.assert_array_equal(fit2.inliers, np.arange(len(pts2)) < len(line))
    direction = np.linalg.svd(pts2[fit2.inliers] - pts2[fit2.inliers].mean(0))[2][0]
    assert abs(np.dot(fit2.direction, direction)) > 1 - 1e-12


def test_ransac_line_is_reproducible(rng: np.random.Generator) -> None:
    inliers, _, _ = _line_points(rng, 100, 3, 0.01)
    pts = _with_outliers(rng, inliers, 0.5, 1.0)
    a = fathom.fit_line_ransac(pts, 0.03, iterations=20, seed=42)
    b = fathom.fit_line_ransac(pts.copy(), 0.03, iterations=20, seed=42)
    assert (a.used, a.rms, a.t_min, a.t_max) == (b.used, b.rms, b.t_min, b.t_max)
    np.testing.assert_array_equal(a.direction, b.direction)


def test_ransac_line_keeps_the_sampled_pair() -> None:
    """The best pair's own points are inliers of its line. (Regression: the refit's distance test took the
    square root of |q|^2 - t^2, which rounding makes slightly negative for the pair's second point: NaN, so
    the point was dropped and a 4-point fit failed with "a line needs at least 2 points, got 1".)"""
    pts = np.array([[0, 0, 0], [1, 1.1, 1], [2, 1.9, 2], [3, 3, 3.1]], dtype=np.float64)
    for seed in range(30):
        fit = fathom.fit_line_ransac(pts, threshold=0.1, iterations=10, seed=seed)
        assert fit.used >= 2
        fit2 = fathom.fit_line_ransac(pts[:, :2], threshold=0.05, iterations=10, seed=seed)
        assert fit2.used >= 2
    t = np.linspace(0, 1, 7)
    exact = np.stack([t, 1.1 * t + 0.3, 0.9 * t - 0.2], 1)
    for seed in range(10):
        assert fathom.fit_line_ransac(exact, threshold=1e-6, iterations=5, seed=seed).used == 7


def test_ransac_plane_recovers_the_plane(rng: np.random.Generator) -> None:
    n = np.array([0.1, 0.9, -0.3])
    n /= np.linalg.norm(n)
    u = np.cross(n, [0, 0, 1])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    inliers = (np.array([0.2, -1.0, 2.0]) + rng.uniform(-1, 1, (400, 1)) * u + rng.uniform(-1, 1, (400, 1)) * v
               + rng.normal(scale=0.001, size=(400, 1)) * n)
    pts = _with_outliers(rng, inliers, 0.45, 0.5)
    rng.shuffle(pts)
    fit = fathom.fit_plane_ransac(pts, threshold=0.005, iterations=300, seed=9)
    assert abs(np.dot(fit.normal, n)) > 1 - 1e-5
    ls = fathom.fit_plane(inliers)
    assert abs(np.dot(fit.normal, ls.normal)) > 1 - 1e-6
    assert 400 <= fit.used <= 400 + 15
    same = fathom.fit_plane_ransac(pts, threshold=0.005, iterations=300, seed=9)
    np.testing.assert_array_equal(same.normal, fit.normal)
    assert same.used == fit.used


# ------------------------------------------------------------------------------------------------
# Degenerate and bad input
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: fathom.fit_line_2d([[1.0, 2.0]]), "at least 2 points"),
        (lambda: fathom.fit_line_3d([[1.0, 2.0, 3.0]]), "at least 2 points"),
        (lambda: fathom.fit_line_3d([[1.0, 2.0, 3.0]] * 5), "coincide"),
        (lambda: fathom.fit_line_2d([[1.0, 2.0]] * 5, "total"), "coincide"),
        (lambda: fathom.fit_line_2d([[1.0, 2.0], [1.0, 3.0], [1.0, 5.0]], "ordinary"), "distinct x"),
        (lambda: fathom.fit_plane([[0, 0, 0], [1, 1, 1]]), "at least 3 points"),
        (lambda: fathom.fit_plane([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]]), "collinear"),
        (lambda: fathom.fit_plane([[1, 1, 1]] * 4), "coincide"),
        (lambda: fathom.fit_plane_ransac([[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]], 0.01), "spans a plane"),
        (lambda: fathom.fit_line_ransac([[1.0, 2.0, 3.0]] * 5, 0.01), "coincide"),
    ],
)
def test_degenerate_input(call, match: str) -> None:
    with pytest.raises(fathom.DegenerateError, match=match) as info:
        call()
    assert info.value.status_name == "FATHOM_ERR_DEGENERATE"
    assert "fathom_fit_" in info.value.message


def test_a_vertical_line_is_fine_for_total_but_not_ordinary() -> None:
    pts = [[2.0, 0.0], [2.0, 1.0], [2.0, 3.0]]
    np.testing.assert_allclose(fathom.fit_line_2d(pts, "total").direction, [0, 1], atol=1e-12)
    with pytest.raises(fathom.DegenerateError):
        fathom.fit_line_2d(pts, "ordinary")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_points(bad: float) -> None:
    pts = np.array([[0.0, 0, 0], [1, 1, 1], [2, 2, 2.5], [3, 0, 1]])
    pts[2, 1] = bad
    for call in (fathom.fit_line_3d, fathom.fit_plane, lambda p: fathom.fit_line_ransac(p, 0.1),
                 lambda p: fathom.fit_plane_ransac(p, 0.1), lambda p: fathom.fit_line_2d(p[:, :2])):
        with pytest.raises(fathom.NotFiniteError, match=r"points\[2\]"):
            call(pts)


def test_empty_points_are_out_of_range() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="count"):
        fathom.fit_line_3d(np.zeros((0, 3)))
    with pytest.raises(fathom.OutOfRangeError, match="count"):
        fathom.fit_plane(np.zeros((0, 3)))


def test_bad_ransac_options() -> None:
    pts = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(fathom.OutOfRangeError, match="threshold must be > 0"):
        fathom.fit_line_ransac(pts, 0.0)
    with pytest.raises(fathom.OutOfRangeError, match="iterations must be >= 1"):
        fathom.fit_plane_ransac(pts, 0.1, iterations=0)
    with pytest.raises(fathom.NotFiniteError, match="threshold must be finite"):
        fathom.fit_plane_ransac(pts, float("nan"))
    with pytest.raises(ValueError, match=r"\(N, 2\) or \(N, 3\)"):
        fathom.fit_line_ransac(np.zeros((5, 4)), 0.1)


def test_bad_shapes_and_types() -> None:
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        fathom.fit_plane(np.zeros((5, 2)))
    with pytest.raises(ValueError, match=r"\(N, 2\)"):
        fathom.fit_line_2d(np.zeros(6))
    with pytest.raises(TypeError, match="real numbers"):
        fathom.fit_line_3d(np.zeros((3, 3), complex))
    with pytest.raises(ValueError, match="method"):
        fathom.fit_line_2d(np.zeros((3, 2)), "median")


def test_repr() -> None:
    fit = fathom.fit_line_3d([[0, 0, 0], [1, 0, 0]])
    assert "LineFit(" in repr(fit) and "used=2" in repr(fit)
    plane = fathom.fit_plane([[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    assert "PlaneFit(" in repr(plane)


def test_one_point_is_a_fit_of_one_point() -> None:
    """A single (2,) or (3,) point is read as one point (as numpy would), which no fit accepts."""
    with pytest.raises(fathom.DegenerateError, match="fathom_fit_line2"):
        fathom.fit_line_2d([1.0, 2.0])
    with pytest.raises(fathom.DegenerateError, match="fathom_fit_line3"):
        fathom.fit_line_3d(np.array([1.0, 2.0, 3.0]))
    with pytest.raises(fathom.DegenerateError, match="fathom_fit_plane"):
        fathom.fit_plane([1.0, 2.0, 3.0])
    with pytest.raises(fathom.DegenerateError, match="fathom_fit_line_ransac"):
        fathom.fit_line_ransac([1.0, 2.0], 0.1)
    with pytest.raises(ValueError, match=r"points must have shape \(N, 3\) or \(N, k\) with k >= 3, or \(3,\) for one"):
        fathom.fit_plane([1.0, 2.0])
    with pytest.raises(ValueError, match=r"\(N, 2\) or \(N, 3\), or \(2,\) or \(3,\) for one point, got shape \(4,\)"):
        fathom.fit_line_ransac([1.0, 2.0, 3.0, 4.0], 0.1)


def test_float32_points_are_fitted_in_place_as_their_float64_widening(rng: np.random.Generator) -> None:
    """float32 points (back-projection's) go to the f fits without a copy; widening a float to double is exact, so
    every fit equals the double fit of the same points widened, bit for bit (inliers too)."""
    t = rng.uniform(-1, 1, (300, 1))
    pts = (np.array([0.2, -0.4, 1.5]) + t * np.array([0.6, 0.3, -0.7])
           + rng.normal(scale=0.002, size=(300, 3))).astype(np.float32)
    pts[::7] += rng.uniform(-0.5, 0.5, (len(pts[::7]), 3)).astype(np.float32)
    wide = pts.astype(np.float64)
    records = np.zeros((300, 4), np.float32)  # a strided view: rows of 16 bytes, read in place too
    records[:, :3] = pts
    for fit in [lambda p: fathom.fit_line_3d(p), lambda p: fathom.fit_plane(p),
                lambda p: fathom.fit_line_ransac(p, 0.01, 50, seed=4), lambda p: fathom.fit_plane_ransac(p, 0.01, 50, seed=4),
                lambda p: fathom.fit_line_2d(p[:, :2], "ordinary"), lambda p: fathom.fit_line_ransac(p[:, :2], 0.01, 50)]:
        for narrow in (pts, records[:, :3]):
            a, b = fit(narrow), fit(wide)
            assert repr(a) == repr(b)
            for field in ("point", "direction", "normal"):
                if hasattr(a, field):
                    np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
            assert (a.rms, a.max_residual, a.used) == (b.rms, b.max_residual, b.used)
            if a.inliers is not None:
                np.testing.assert_array_equal(a.inliers, b.inliers)



# ------------------------------------------------------------------------------------------------
# Adaptive stop: the confidence
# ------------------------------------------------------------------------------------------------


def _noisy_plane(rng: np.random.Generator, n_on: int, outlier_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """Points on a tilted plane (1 mm noise) with uniform outliers in the cube around them, and the normal."""
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    u, v = _plane_basis(n)
    on = rng.uniform(-1, 1, (n_on, 1)) * u + rng.uniform(-1, 1, (n_on, 1)) * v + rng.normal(scale=0.001, size=(n_on, 1)) * n
    pts = _with_outliers(rng, on, outlier_fraction, 0.0)
    return pts[rng.permutation(len(pts))], n


def test_confidence_holds_by_monte_carlo() -> None:
    """The stated confidence is the chance of having drawn an all-inlier sample before stopping: over 400 scenes
    (50% outliers, so a triple is all inliers with chance 1/8 and confidence 0.9 stops after about 18 draws),
    the plane is found (normal within 1 degree, as any all-inlier triple with this noise gives after the refits)
    at least 90% of the time, and when found its fit keeps nearly all 200 points on the plane."""
    rng = np.random.default_rng(2026)
    found = 0
    trials = 400
    for trial in range(trials):
        pts, n = _noisy_plane(rng, 200, 0.5)
        fit = fathom.fit_plane_ransac(pts, threshold=0.005, seed=trial, confidence=0.9)
        if abs(np.dot(fit.normal, n)) > np.cos(np.radians(1)):
            found += 1
            assert fit.used >= 196
    # Binomial(400, 0.9) falls below 0.9 - 3 sigma = 0.855 with probability ~1e-3; the refits only add to it.
    assert found / trials >= 0.855, found


def test_tiny_confidence_stops_at_the_first_sample_and_one_draws_all(rng: np.random.Generator) -> None:
    """A confidence next to 0 is reached by the first valid sample: the fit is that of one iteration. A
    confidence of 1 never stops early: the fit is that of the same number of draws at any confidence that has
    not been reached (a line with 90% outliers: 0.5 needs ~69 pairs, more than the 20 drawn)."""
    pts, _ = _noisy_plane(rng, 300, 0.3)
    for seed in range(5):
        first = fathom.fit_plane_ransac(pts, 0.005, iterations=1000, seed=seed, confidence=1e-12)
        one = fathom.fit_plane_ransac(pts, 0.005, iterations=1, seed=seed, confidence=1.0)
        np.testing.assert_array_equal(first.normal, one.normal)
        np.testing.assert_array_equal(first.inliers, one.inliers)
    inliers, _, _ = _line_points(rng, 50, 3, 0.001)
    line = _with_outliers(rng, inliers, 0.9, 1.0)
    a = fathom.fit_line_ransac(line, 0.005, iterations=20, seed=4, confidence=1.0)
    b = fathom.fit_line_ransac(line, 0.005, iterations=20, seed=4, confidence=0.5)
    np.testing.assert_array_equal(a.direction, b.direction)
    np.testing.assert_array_equal(a.inliers, b.inliers)


def test_line_confidence_finds_the_line(rng: np.random.Generator) -> None:
    """Lines stop early too (default confidence 0.99) and still find the line in 2D and 3D; the final fit is
    numpy's total least squares of the points marked."""
    for dims in (2, 3):
        inliers, _, direction = _line_points(rng, 500, dims, 0.002)
        pts = _with_outliers(rng, inliers, 0.5, 1.0)
        pts = pts[rng.permutation(len(pts))]
        fit = fathom.fit_line_ransac(pts, threshold=0.01)
        assert abs(np.dot(fit.direction, direction)) > 1 - 1e-5
        marked = pts[fit.inliers]
        principal = np.linalg.svd(marked - marked.mean(0))[2][0]
        assert abs(np.dot(fit.direction, principal)) > 1 - 1e-12
        assert fit.used == fit.inliers.sum() >= 500


@pytest.mark.parametrize("bad", [0.0, -0.5, 1.5, float("nan")])
def test_bad_confidence(bad: float) -> None:
    pts = np.random.default_rng(0).normal(size=(20, 3))
    error = fathom.NotFiniteError if bad != bad else fathom.OutOfRangeError
    with pytest.raises(error, match=r"confidence"):
        fathom.fit_plane_ransac(pts, 0.1, confidence=bad)
    with pytest.raises(error, match=r"confidence"):
        fathom.fit_line_ransac(pts, 0.1, confidence=bad)
