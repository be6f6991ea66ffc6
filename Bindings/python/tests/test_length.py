"""Object (fish) length from depth: analytic scenes rendered per depth pixel with numpy (a plane, a rod, an
ellipsoid "fish" at known poses), with and without noise and outliers, and the error bar's coverage.

Scale of the scenes: a 256x192 depth grid for a 1920x1440 RGB image with fx = 1450 px, so one depth pixel
is fx' = 193.3 px: a footprint of 3.1 mm at 0.6 m. Tolerances below are stated in footprints.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _depth_reference import Grid, render_ellipsoid, render_plane, render_rod, rotation

GRID = Grid()
K = fathom.Intrinsics(GRID.fx, GRID.fy, GRID.cx, GRID.cy, GRID.rgb_w, GRID.rgb_h)
FXD = GRID.k[0]  # depth-grid focal length


def _frame(depth: np.ndarray, **kwargs) -> fathom.DepthFrame:
    return fathom.DepthFrame(np.where(np.isfinite(depth), depth, 0).astype(np.float32), K, **kwargs)


def _ray(u: float, v: float) -> np.ndarray:
    """Optical-frame ray (z = 1) of an RGB pixel."""
    return np.array([(u - GRID.cx) / GRID.fx, (v - GRID.cy) / GRID.fy, 1.0])


def _plane_point(u: float, v: float, p0: np.ndarray, n: np.ndarray) -> np.ndarray:
    r = _ray(u, v)
    return r * (n @ p0) / (n @ r)


# ------------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------------


def test_options_default_to_the_library() -> None:
    o = fathom.LengthOptions()
    # what fathom_length_options_init writes (the header's documented defaults)
    assert o.keypoint_depth is fathom.KeypointDepth.MEDIAN and o.out_frame is fathom.PointFrame.CAMERA
    assert (o.window, o.trim_points, o.trim_fraction, o.edge_noise) == (5, 0, 0.0, 1.0)
    assert (o.plane_threshold, o.plane_iterations, o.plane_seed) == (0.005, 100, 0)
    assert (o.depth_noise, o.depth_noise_growth, o.pixel_noise) == (0.005, 2.0, 1.0)
    changed = o.replace(keypoint_depth="plane", out_frame="world", window=7)
    assert changed.keypoint_depth is fathom.KeypointDepth.PLANE and changed.out_frame is fathom.PointFrame.WORLD
    assert o.window == 5  # frozen: replace makes a copy
    assert o.noise(2.0) == pytest.approx(0.005 * 4)
    with pytest.raises(ValueError, match="keypoint_depth"):
        fathom.LengthOptions(keypoint_depth="mean")
    with pytest.raises(TypeError):
        o.replace(windows=3)


# ------------------------------------------------------------------------------------------------
# Two keypoints
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["nearest", "median"])
def test_two_keypoints_at_equal_depth_hand_computed(method: str) -> None:
    """reference/depth-and-fish.md: two keypoints at equal depth are their back-projected distance,
    L = d * hypot((u1 - u2) / fx, (v1 - v2) / fy)."""
    d = 0.75
    frame = _frame(np.full((GRID.h, GRID.w), d))
    head, tail = (400.0, 500.0), (1500.0, 900.0)
    result = frame.length_keypoints(head, tail, method=method)
    expected = d * math.hypot((400 - 1500) / GRID.fx, (500 - 900) / GRID.fy)  # 0.6048... m
    assert result.value == pytest.approx(expected, rel=1e-6)
    np.testing.assert_allclose(result.head, _ray(*head) * d * [1, -1, -1], rtol=1e-6)  # camera frame by default
    np.testing.assert_allclose(result.tail, _ray(*tail) * d * [1, -1, -1], rtol=1e-6)
    np.testing.assert_array_equal(result.head_pixel, head)
    np.testing.assert_array_equal(result.tail_pixel, tail)
    assert result.rms == 0 and result.samples == (2 if method == "nearest" else 50)
    assert result.sigma > 0
    assert float(result) == result.value and "Length(" in repr(result)


def test_keypoint_endpoints_in_every_frame() -> None:
    d = 0.9
    m = np.eye(4)
    m[:3, :3] = rotation([0, 1, 0], 0.5)
    m[:3, 3] = [1, 1.5, -1]
    frame = _frame(np.full((GRID.h, GRID.w), d), pose=fathom.Pose(m))
    head, tail = (300.0, 300.0), (1700.0, 1200.0)
    optical = frame.length_keypoints(head, tail, out_frame="optical")
    np.testing.assert_allclose(optical.head, _ray(*head) * d, rtol=1e-6)
    world = frame.length_keypoints(head, tail, out_frame=fathom.PointFrame.WORLD)
    cam = _ray(*tail) * d * [1, -1, -1]
    np.testing.assert_allclose(world.tail, m[:3, :3] @ cam + m[:3, 3], rtol=1e-6, atol=1e-6)
    assert world.value == pytest.approx(optical.value, rel=1e-9)


def test_plane_keypoints_on_a_tilted_plane() -> None:
    """On a tilted plane a keypoint's own sample is off by the slope over half a pixel; the plane method
    intersects each ray with the RANSAC plane, exact here (noise-free) up to float32 depth storage."""
    n = np.array([0.25, -0.3, -1.0])
    n /= np.linalg.norm(n)
    p0 = np.array([0.0, 0.0, 0.7])
    depth = render_plane(GRID, p0, n)
    frame = _frame(depth)
    mask = np.zeros((GRID.rgb_h, GRID.rgb_w), bool)
    mask[400:1000, 300:1600] = True  # an RGB-resolution mask
    head, tail = (350.0, 450.0), (1550.0, 950.0)
    expected = np.linalg.norm(_plane_point(*head, p0, n) - _plane_point(*tail, p0, n))
    result = frame.length_keypoints(head, tail, mask, method="plane")
    assert result.value == pytest.approx(expected, rel=2e-5)
    assert result.rms < 1e-5
    inside = frame.count(mask=mask)
    assert result.samples == inside  # every masked sample is an inlier of the exact plane
    np.testing.assert_allclose(result.head, _plane_point(*head, p0, n) * [1, -1, -1], rtol=2e-5, atol=1e-6)


def test_plane_keypoints_with_noise_and_outliers(rng: np.random.Generator) -> None:
    n = np.array([0.1, 0.35, -1.0])
    n /= np.linalg.norm(n)
    p0 = np.array([0.02, -0.01, 0.6])
    depth = render_plane(GRID, p0, n)
    noisy = depth + rng.normal(scale=0.0015, size=depth.shape)
    outliers = rng.random(depth.shape) < 0.1
    noisy[outliers] += rng.uniform(0.03, 0.3, outliers.sum())  # things above or below the fish
    mask = np.zeros(depth.shape, bool)
    mask[60:130, 40:220] = True
    head, tail = (400.0, 600.0), (1550.0, 900.0)
    expected = np.linalg.norm(_plane_point(*head, p0, n) - _plane_point(*tail, p0, n))
    result = _frame(noisy).length_keypoints(head, tail, mask, method="plane", plane_iterations=200)
    # ~11000 inliers with 1.5 mm noise: the plane's offset is known to ~0.015 mm and its tilt to ~1e-4, so the
    # length (0.3 m) is within 0.5 mm; the outliers (>= 3 cm off, beyond the 5 mm threshold) must not count.
    assert abs(result.value - expected) < 5e-4
    assert result.samples == pytest.approx((~outliers[mask]).sum(), rel=0.02)
    assert 0.001 < result.rms < 0.002  # the inliers' residual: the 1.5 mm noise, truncated at 5 mm


# ------------------------------------------------------------------------------------------------
# Mask lengths of rendered objects
# ------------------------------------------------------------------------------------------------


def _rod_scene(length=0.40, radius=0.02, depth=0.6, yaw=0.35, pitch=0.25, shift=(0.0, 0.0)):
    axis = rotation([0, 0, 1], yaw) @ rotation([0, 1, 0], pitch) @ np.array([1.0, 0, 0])
    center = np.array([shift[0], shift[1], depth])
    return render_rod(GRID, center, axis, length, radius), center, axis


def test_rod_mask_length() -> None:
    """A closed cylinder 40 cm long, 2 cm radius, at 0.6 m, turned 20 degrees in the image and 14 degrees in
    depth. Its visible extreme points are its caps' rims, exactly 40 cm apart along the axis. Each end is
    sampled within one footprint (3.1 mm at 0.6 m, more at the far end): the length is within 2 footprints."""
    depth, center, axis = _rod_scene()
    mask = np.isfinite(depth)
    result = _frame(depth).length_mask(mask)
    far = (center + 0.2 * axis)[2]
    tol = 2 * GRID.footprint(far)
    assert abs(result.value - 0.40) < tol, (result.value, tol)
    # endpoints near the rod's ends, head the smaller projection (the line's direction has its largest
    # component positive: +x optical), in the camera frame
    ends = np.stack([center - 0.2 * axis, center + 0.2 * axis]) * [1, -1, -1]
    assert np.linalg.norm(result.head - ends[0]) < 0.03 and np.linalg.norm(result.tail - ends[1]) < 0.03
    assert 0 < result.samples <= mask.sum()  # the body plane's inliers
    assert result.rms < 0.02  # points on the visible half-cylinder: within a radius of the fitted line
    # the RGB pixels of the endpoints are where they project
    np.testing.assert_allclose(result.head_pixel, GRID.project_rgb(result.head * [1, -1, -1]), atol=0.05)


def test_rod_mask_at_rgb_resolution() -> None:
    """The same rod with its mask at the RGB image's resolution (rendered at RGB pixel centres)."""
    depth, center, axis = _rod_scene(yaw=-0.2, pitch=-0.3)
    rgb_grid = Grid(w=GRID.rgb_w // 4, h=GRID.rgb_h // 4)  # a 480x360 segmentation
    mask = np.isfinite(render_rod(rgb_grid, center, axis, 0.40, 0.02))
    result = _frame(depth).length_mask(mask)
    far = max((center + 0.2 * axis)[2], (center - 0.2 * axis)[2])
    assert abs(result.value - 0.40) < 2 * GRID.footprint(far)


@pytest.mark.parametrize("pitch", [0.0, 0.35])
def test_ellipsoid_fish_mask_length_untrimmed(pitch: float) -> None:
    """An ellipsoid 'fish' 36 cm long (semi-axes 18, 3, 2 cm) at 0.55 m. Its tips are points, but the body is
    still over 3 depth pixels wide one footprint from a tip, so without trimming the outermost samples are
    within about a footprint of each tip: the length is within 3 footprints (pitched, the silhouette's tips
    are not the body's) and within its 2-sigma bar."""
    axes = rotation([0, 0, 1], 0.3) @ rotation([0, 1, 0], pitch)
    center = np.array([0.03, -0.02, 0.55])
    depth = render_ellipsoid(GRID, center, axes, [0.18, 0.03, 0.02])
    mask = np.isfinite(depth)
    result = _frame(depth).length_mask(mask, trim_points=0, trim_fraction=0.0)
    far = center[2] + 0.18 * abs(axes[2, 0])
    assert abs(result.value - 0.36) < min(3 * GRID.footprint(far), 2 * result.sigma), result
    # trimming (off by default) drops outline pixels at each tip, where the body is thinnest: shorter
    trimmed = _frame(depth).length_mask(mask, trim_points=3)
    assert trimmed.value < result.value


def test_mask_length_with_noise_and_outliers(rng: np.random.Generator) -> None:
    depth, center, axis = _rod_scene(yaw=0.1, pitch=0.1)
    mask = np.isfinite(depth)
    noisy = depth + rng.normal(scale=0.002, size=depth.shape)
    # 0.3% of the samples are wild (mask-edge mixtures, reflections): 5 to 30 cm deeper or nearer
    wild = mask & (rng.random(depth.shape) < 0.003)
    noisy[wild] += rng.choice([-1, 1], wild.sum()) * rng.uniform(0.05, 0.3, wild.sum())
    result = _frame(noisy).length_mask(mask)
    # noise of 2 mm moves an end sample's projection by ~(x/z) * 2 mm < 1 mm; the few outliers that project
    # past an end are trimmed (0.5% per end). Within 3 footprints (1 cm) of the truth.
    assert abs(result.value - 0.40) < 3 * GRID.footprint(0.62), result


def test_polyline_along_a_rod() -> None:
    """A traced centre line along the rod's image: each pixel's median depth lies on the rod's near surface,
    so the fitted line's extent equals the traced extent along the axis (the points at 0 and 1 of the trace)."""
    depth, center, axis = _rod_scene(pitch=0.0)
    frame = _frame(depth)
    near = center - np.array([0, 0, 0.02])  # the rod's near surface line (axis in the image plane, pitch 0)
    ts = np.linspace(-0.18, 0.18, 25)
    pts = near + ts[:, None] * axis
    pixels = GRID.project_rgb(pts)
    result = frame.length_polyline(pixels)
    # the 5x5 median at the rod's centre line reads the near surface within the curvature over 2 pixels
    # (radius 2 cm, 2 footprints = 6 mm off-centre: 1 mm deeper at most), which changes x, y by < 1 mm
    assert abs(result.value - 0.36) < 2e-3
    assert result.rms < 1e-3
    np.testing.assert_allclose(result.head_pixel, pixels[0], atol=1e-3)
    np.testing.assert_allclose(result.tail_pixel, pixels[-1], atol=1e-3)


def test_polyline_skips_pixels_without_depth() -> None:
    depth = np.full((GRID.h, GRID.w), 0.8)
    depth[:, :40] = np.nan
    frame = _frame(depth)
    pixels = np.array([[100.0, 700.0], [600.0, 700.0], [1200.0, 700.0]])  # the first has no depth
    result = frame.length_polyline(pixels, method="nearest")
    assert result.value == pytest.approx(0.8 * 600 / GRID.fx, rel=1e-6)
    assert result.samples == 2


def test_mask_endpoints() -> None:
    mask = np.zeros((120, 160), bool)
    rr, cc = np.mgrid[0:120, 0:160]
    # an ellipse along a 30-degree axis centred at (80.5, 60.5) (pixel centres at i + 0.5)
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    x, y = cc + 0.5 - 80.5, rr + 0.5 - 60.5
    along, across = x * c + y * s, -x * s + y * c
    mask[(along / 60) ** 2 + (across / 12) ** 2 <= 1] = True
    end0, end1, axis = fathom.mask_endpoints(mask)
    centres = np.stack([cc[mask] + 0.5, rr[mask] + 0.5], 1)
    ref = fathom.fit_line_2d(centres)
    np.testing.assert_allclose(axis.direction, ref.direction, atol=1e-9)
    np.testing.assert_allclose(axis.point, centres.mean(0), atol=1e-9)
    t = (centres - centres.mean(0)) @ ref.direction
    np.testing.assert_allclose(end0, centres[np.argmin(t)], atol=1e-4)
    np.testing.assert_allclose(end1, centres[np.argmax(t)], atol=1e-4)
    assert np.linalg.norm(end1 - end0) == pytest.approx(120, abs=3)  # the ellipse's 120 px major axis
    assert abs(axis.direction[1] / axis.direction[0] - math.tan(math.radians(30))) < 0.01


# ------------------------------------------------------------------------------------------------
# The error bar: coverage over many trials with noise drawn from the options' model
# ------------------------------------------------------------------------------------------------

TRIALS = 200
# For p = 0.683 over 200 trials the binomial sd is 0.033: 3 sd either side is [0.58, 0.78]. For 2 sigma
# (p = 0.954, sd 0.015) at least 0.90.
ONE_SIGMA_RANGE = (0.58, 0.78)
TWO_SIGMA_MIN = 0.90


def _coverage(errors: np.ndarray, sigmas: np.ndarray) -> tuple[float, float]:
    z = np.abs(errors) / sigmas
    return float(np.mean(z <= 1)), float(np.mean(z <= 2))


def _keypoint_trials(method: str, seed: int) -> tuple[float, float]:
    """Fronto-parallel plane at a random depth; keypoints moved by pixel noise (1 px); every depth sample with
    Gaussian noise depth_noise * d^2 (the default model)."""
    rng = np.random.default_rng(seed)
    o = fathom.LengthOptions()
    errors, sigmas = [], []
    for _ in range(TRIALS):
        d = rng.uniform(0.4, 1.2)
        depth = d + rng.normal(scale=o.depth_noise * d**o.depth_noise_growth, size=(GRID.h, GRID.w))
        head = rng.uniform([200, 300], [700, 1100])
        tail = rng.uniform([1200, 300], [1700, 1100])
        true = d * np.linalg.norm((head - tail) / [GRID.fx, GRID.fy])
        seen_head = head + rng.normal(scale=o.pixel_noise, size=2)
        seen_tail = tail + rng.normal(scale=o.pixel_noise, size=2)
        mask = np.ones((GRID.h, GRID.w), bool) if method == "plane" else None
        r = _frame(depth).length_keypoints(seen_head, seen_tail, mask, method=method)
        errors.append(r.value - true)
        sigmas.append(r.sigma)
    return _coverage(np.array(errors), np.array(sigmas))


@pytest.mark.parametrize("method", ["nearest", "median"])
def test_keypoint_error_bar_coverage(method: str) -> None:
    one, two = _keypoint_trials(method, 11)
    print(f"keypoints/{method}: {one:.1%} within 1 sigma, {two:.1%} within 2 sigma")
    assert ONE_SIGMA_RANGE[0] <= one <= ONE_SIGMA_RANGE[1], (one, two)
    assert two >= TWO_SIGMA_MIN, (one, two)


def test_plane_keypoint_error_bar_coverage() -> None:
    one, two = _keypoint_trials("plane", 12)
    print(f"keypoints/plane: {one:.1%} within 1 sigma, {two:.1%} within 2 sigma")
    assert ONE_SIGMA_RANGE[0] <= one <= ONE_SIGMA_RANGE[1], (one, two)
    assert two >= TWO_SIGMA_MIN, (one, two)
