"""Object (fish) length from depth through the binding: keypoints, masks (at the depth grid's or the RGB image's
resolution) and traced polylines in, the Length result (value, sigma, ends in the frame asked for, their RGB pixels,
samples, rms) out, options by keyword, and the error bar's coverage by Monte Carlo. Checked on walls and planes whose
lengths are worked out by hand; accuracy on rendered fish is test_fish_validation's, the arithmetic the core tests'
(KeypointLengthTests, DepthFitTests).

A 256x192 depth grid for a 1920x1440 RGB image with fx = 1450 px: one depth pixel is fx' = 193.3 px.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _poses import rot_y

FX = FY = 1450.0
CX, CY = 962.5, 718.25
RGB_W, RGB_H, W, H = 1920, 1440, 256, 192
K = fathom.Intrinsics(FX, FY, CX, CY, RGB_W, RGB_H)
FXD = FX * W / RGB_W  # depth-grid focal length


def _frame(depth: np.ndarray, **kwargs) -> fathom.DepthFrame:
    return fathom.DepthFrame(np.where(np.isfinite(depth), depth, 0).astype(np.float32), K, **kwargs)


def _ray(u: float, v: float) -> np.ndarray:
    """Optical-frame ray (z = 1) of an RGB pixel."""
    return np.array([(u - CX) / FX, (v - CY) / FY, 1.0])


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
    frame = _frame(np.full((H, W), d))
    head, tail = (400.0, 500.0), (1500.0, 900.0)
    result = frame.length_keypoints(head, tail, method=method)
    expected = d * math.hypot((400 - 1500) / FX, (500 - 900) / FY)  # 0.6048... m
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
    m[:3, :3] = rot_y(0.5)
    m[:3, 3] = [1, 1.5, -1]
    frame = _frame(np.full((H, W), d), pose=fathom.Pose(m))
    head, tail = (300.0, 300.0), (1700.0, 1200.0)
    optical = frame.length_keypoints(head, tail, out_frame="optical")
    np.testing.assert_allclose(optical.head, _ray(*head) * d, rtol=1e-6)
    world = frame.length_keypoints(head, tail, out_frame=fathom.PointFrame.WORLD)
    cam = _ray(*tail) * d * [1, -1, -1]
    np.testing.assert_allclose(world.tail, m[:3, :3] @ cam + m[:3, 3], rtol=1e-6, atol=1e-6)
    assert world.value == pytest.approx(optical.value, rel=1e-9)


def test_plane_keypoints_on_a_tilted_plane() -> None:
    """The plane z = 0.7 + x / 4 (optical): along a ray (r, ., 1) it is at z = 0.7 / (1 - r / 4), on every sample and
    under every keypoint. The plane method intersects each keypoint's ray with the plane fitted to the masked samples
    (exact here up to float32 depth storage); the mask is at the RGB image's resolution."""
    r = (np.arange(W) + 0.5 - CX * W / RGB_W) / FXD
    depth = np.broadcast_to(0.7 / (1 - r / 4), (H, W))
    frame = _frame(depth)
    mask = np.zeros((RGB_H, RGB_W), bool)
    mask[400:1000, 300:1600] = True

    def on_plane(u: float, v: float) -> np.ndarray:
        ray = _ray(u, v)
        return 0.7 / (1 - ray[0] / 4) * ray

    head, tail = (350.0, 450.0), (1550.0, 950.0)
    result = frame.length_keypoints(head, tail, mask, method="plane")
    assert result.value == pytest.approx(np.linalg.norm(on_plane(*head) - on_plane(*tail)), rel=2e-5)
    assert result.rms < 1e-5
    assert result.samples == frame.count(mask=mask)  # every masked sample is an inlier of the exact plane
    np.testing.assert_allclose(result.head, on_plane(*head) * [1, -1, -1], rtol=2e-5, atol=1e-6)
    with pytest.raises(fathom.OutOfRangeError, match="iterations must be >= 1, got 0"):  # the RANSAC settings reach it
        frame.length_keypoints(head, tail, mask, method="plane", plane_iterations=0)


# ------------------------------------------------------------------------------------------------
# Mask and polyline lengths on a wall
# ------------------------------------------------------------------------------------------------

#: A wall 0.8 m away, where one depth pixel is a footprint of 0.8 / fx' m.
WALL = np.full((H, W), 0.8)
FOOTPRINT = 0.8 / FXD


def _bar(first: int, last: int) -> np.ndarray:
    """A bar on the wall: rows 90 to 93, columns first to last of the depth grid."""
    bar = np.zeros((H, W), bool)
    bar[90:94, first:last + 1] = True
    return bar


BAR = _bar(50, 200)


def test_mask_length_of_a_bar() -> None:
    """A bar's length runs along its line between its ends, each a fixed gap beyond its last pixel centre: a bar of
    columns 50 to 200 is 50 footprints longer than one of columns 50 to 150, and as long as one of 100 to 250."""
    result = _frame(WALL).length_mask(BAR)
    assert isinstance(result, fathom.Length)
    shorter = _frame(WALL).length_mask(_bar(50, 150)).value
    assert result.value - shorter == pytest.approx(50 * FOOTPRINT, rel=1e-5)
    assert _frame(WALL).length_mask(_bar(100, 250)).value == pytest.approx(result.value, rel=1e-6)
    # head at the smaller projection (the line's largest component, optical +x, positive): the left end; in the
    # camera frame (x, -y, -z) by default
    assert result.head[0] < result.tail[0] and result.head[2] == pytest.approx(-0.8, rel=1e-6)
    assert result.samples == BAR.sum() and result.rms < 1e-6  # every sample on the wall is on the body plane
    # the ends' RGB pixels are where the ends project: u = cx + fx x / z, v = cy + fy y / z (optical)
    for point, pixel in ((result.head, result.head_pixel), (result.tail, result.tail_pixel)):
        x, y, z = point * [1, -1, -1]
        np.testing.assert_allclose(pixel, [CX + FX * x / z, CY + FY * y / z], atol=0.05)
    # the same bar at the RGB image's resolution (each sample's 7.5 x 7.5 pixels): the same samples, and the same length
    # to a hundredth of a footprint (the ends are placed from the mask's own pixels)
    rgb_bar = np.zeros((RGB_H, RGB_W), bool)
    rgb_bar[90 * 15 // 2: 94 * 15 // 2, 50 * 15 // 2: 201 * 15 // 2] = True
    from_rgb = _frame(WALL).length_mask(rgb_bar)
    assert from_rgb.samples == result.samples and abs(from_rgb.value - result.value) < 0.01 * FOOTPRINT
    assert _frame(WALL).length_mask(BAR, out_frame="optical").head[2] == pytest.approx(0.8, rel=1e-6)


def test_mask_length_trimming() -> None:
    """The bar with a spike one pixel tall and ten long off its right end. The outline's end candidates are the first
    and last pixel of every row's run, 8 here; trimming one at each end (trim_points=1, or trim_fraction=0.2 of 8)
    drops the spike's tip, 10 footprints shorter."""
    spiked = BAR.copy()
    spiked[91, 201:211] = True
    full = _frame(WALL).length_mask(spiked).value
    trimmed = _frame(WALL).length_mask(spiked, trim_points=1).value
    assert full - trimmed == pytest.approx(10 * FOOTPRINT, rel=1e-4)
    assert _frame(WALL).length_mask(spiked, trim_fraction=0.2).value == trimmed
    assert _frame(WALL).length_mask(spiked, trim_fraction=0.1).value == full  # 0.8 of a point: none dropped


def test_polyline_on_a_wall() -> None:
    """Pixels traced along a line on the wall: the length runs between the first and last, d |r_last - r_first|;
    each pixel's depth is the median of its 5 x 5 samples (the default)."""
    pixels = np.array([[400.0 + 50 * k, 500.0 + 20 * k] for k in range(9)])
    result = _frame(WALL).length_polyline(pixels)
    assert result.value == pytest.approx(0.8 * math.hypot(400 / FX, 160 / FY), rel=1e-5)
    np.testing.assert_allclose(result.head_pixel, pixels[0], atol=1e-3)
    np.testing.assert_allclose(result.tail_pixel, pixels[-1], atol=1e-3)
    assert result.samples == 9 * 25
    assert _frame(WALL).length_polyline(pixels, method="nearest").samples == 9


def test_polyline_skips_pixels_without_depth() -> None:
    depth = np.full((H, W), 0.8)
    depth[:, :40] = np.nan
    frame = _frame(depth)
    pixels = np.array([[100.0, 700.0], [600.0, 700.0], [1200.0, 700.0]])  # the first has no depth
    result = frame.length_polyline(pixels, method="nearest")
    assert result.value == pytest.approx(0.8 * 600 / FX, rel=1e-6)
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
        depth = d + rng.normal(scale=o.depth_noise * d**o.depth_noise_growth, size=(H, W))
        head = rng.uniform([200, 300], [700, 1100])
        tail = rng.uniform([1200, 300], [1700, 1100])
        true = d * np.linalg.norm((head - tail) / [FX, FY])
        seen_head = head + rng.normal(scale=o.pixel_noise, size=2)
        seen_tail = tail + rng.normal(scale=o.pixel_noise, size=2)
        mask = np.ones((H, W), bool) if method == "plane" else None
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
