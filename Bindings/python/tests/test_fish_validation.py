"""The length methods on fish-shaped silhouettes (`_fish_validation`): tapered, forked and bent bodies on a
tilted board, with the noise the default options describe, and masks with the damage real ones have."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _fish_scenes import Damage, Grid, Placement, Shape, render
from _fish_validation import BENT, STRAIGHT, Scenario, summary, trials

GRID = Grid()
K = fathom.Intrinsics(fx=GRID.fx, fy=GRID.fy, cx=GRID.cx, cy=GRID.cy, width=GRID.rgb_w, height=GRID.rgb_h)


# Coverage bands: 68 +- 5% for one sigma and >= 93% for two (the binomial sd is 2.7% for 300 trials, 1.9% for
# 600); with fixed seeds the draws are the same on every run.
ONE_SIGMA = (0.63, 0.73)
TWO_SIGMA = 0.93
METHODS = ["keypoints median", "keypoints plane", "polyline", "mask", "midline"]


@pytest.fixture(scope="module")
def tapered() -> dict[str, np.ndarray]:
    """Ellipses and bent ellipses at 0.3 to 1.5 m, flat or tilted up to 0.6 rad, with the default noise."""
    return trials(Scenario("tapered", (Shape("ellipse"), Shape("ellipse", bend=0.8)), (0.3, 1.5)), 600, 21)


@pytest.fixture(scope="module")
def every_shape() -> dict[str, np.ndarray]:
    """Ellipses, fusiform bodies, forked tails and bent bodies at 0.45 to 0.55 m."""
    return trials(Scenario("0.5 m", STRAIGHT + BENT, (0.45, 0.55)), 300, 22)


@pytest.fixture(scope="module")
def every_shape_but_forked() -> dict[str, np.ndarray]:
    """Ellipses, fusiform bodies (a blunt, truncate tail) and bent bodies at 0.45 to 0.55 m."""
    return trials(Scenario("0.5 m", STRAIGHT[:2] + BENT, (0.45, 0.55)), 400, 23)


@pytest.fixture(scope="module")
def forked() -> dict[str, np.ndarray]:
    """Forked tails alone at 0.45 to 0.55 m."""
    return trials(Scenario("forked", STRAIGHT[2:], (0.45, 0.55)), 300, 25)


@pytest.fixture(scope="module")
def clean_masks() -> dict[str, np.ndarray]:
    """Every shape, forked tails included, at 0.45 to 0.55 m with masks as the pixel grid samples the outline
    (edge_noise 0): the tip gaps alone, sharp lobes' among them."""
    return trials(Scenario("clean", STRAIGHT + BENT, (0.45, 0.55), damage=Damage(), edge_noise=0.0), 400, 24)


def _report(name: str, method: str, results: dict[str, np.ndarray]) -> tuple[float, float, float]:
    median, one, two = summary(results[method])
    print(f"{name}, {method}: median |error| {median:.2f} mm, {one:.1%} within 1 sigma, {two:.1%} within 2")
    return median, one, two


@pytest.mark.parametrize("method", METHODS)
def test_error_bars_cover_the_truth_on_tapered_fish(tapered: dict[str, np.ndarray], method: str) -> None:
    _, one, two = _report("tapered", method, tapered)
    assert ONE_SIGMA[0] <= one <= ONE_SIGMA[1] and two >= TWO_SIGMA, (one, two)


@pytest.mark.parametrize("method", ["keypoints median", "keypoints plane", "polyline"])
def test_keypoint_error_bars_cover_the_truth_on_every_shape(every_shape: dict[str, np.ndarray], method: str) -> None:
    _, one, two = _report("every shape", method, every_shape)
    assert ONE_SIGMA[0] <= one <= ONE_SIGMA[1] and two >= TWO_SIGMA, (one, two)


@pytest.mark.parametrize("method", ["mask", "midline"])
def test_mask_error_bars_cover_the_truth_on_every_shape_but_the_forked_tail(
        every_shape_but_forked: dict[str, np.ndarray], method: str) -> None:
    _, one, two = _report("every shape but the forked tail", method, every_shape_but_forked)
    assert ONE_SIGMA[0] <= one <= ONE_SIGMA[1] and two >= TWO_SIGMA, (one, two)


@pytest.mark.parametrize("method", ["mask", "midline"])
def test_mask_error_bars_are_cautious_on_forked_tails(forked: dict[str, np.ndarray], method: str) -> None:
    # A lobe's error is skewed, long on the short side (README, "Uncertainty"): the bar keeps the lobe's whole
    # recession, so one sigma holds more than 68% of the tails (78-85% over seeds) and two about 91-96%.
    _, one, two = _report("forked tails", method, forked)
    assert one >= 0.73 and two >= 0.90, (one, two)


@pytest.mark.parametrize("method", METHODS)
def test_error_bars_cover_the_truth_on_clean_masks(clean_masks: dict[str, np.ndarray], method: str) -> None:
    _, one, two = _report("clean masks", method, clean_masks)
    assert ONE_SIGMA[0] <= one <= ONE_SIGMA[1] and two >= TWO_SIGMA, (one, two)


@pytest.mark.parametrize("method", METHODS)
def test_median_error_at_half_a_meter(every_shape: dict[str, np.ndarray], method: str) -> None:
    median, one, two = _report("every shape", method, every_shape)
    assert median <= 3.0
    # Floors for the mask methods with forked tails among the shapes, whose skewed error no symmetric bar holds
    # within the bands (test_mask_error_bars_are_cautious_on_forked_tails).
    assert one >= 0.60 and two >= 0.88, (one, two)


def _scene(seed: int, damage: Damage = Damage()) -> tuple:
    rng = np.random.default_rng(seed)
    scene = render(Shape("fusiform"), Placement(distance=0.5, tilt=0.3, tilt_axis=0.5, yaw=0.4), rng, damage=damage)
    return scene, fathom.DepthFrame(scene.depth, K)


def test_strays_and_blobs_away_from_the_body_are_left_out() -> None:
    scene, frame = _scene(3)
    clean = frame.length_mask(scene.mask)
    mask = scene.mask.copy()
    mask[5, 5] = mask[350, 470] = mask[10, 400] = 1            # stray pixels
    yy, xx = np.mgrid[:360, :480]
    mask[(yy - 330) ** 2 + (xx - 30) ** 2 <= 64] = 1           # a blob of 8 px radius in a corner
    damaged = frame.length_mask(mask)
    assert damaged.value == clean.value and damaged.sigma == clean.sigma
    assert frame.length_midline(mask).value == frame.length_midline(scene.mask).value


def test_flying_pixels_and_holes_barely_move_the_length() -> None:
    scene, frame = _scene(4)
    damaged_scene, damaged_frame = _scene(4, Damage(flying=0.5, holes=0.1))
    # the same mask; the depth has flying pixels at the outline and holes under the body
    clean = frame.length_mask(scene.mask).value
    damaged = damaged_frame.length_mask(scene.mask).value
    assert abs(damaged - clean) < 1e-3
    assert abs(damaged - scene.straight) < 3e-3


def test_trimming_is_off_by_default_and_shortens_tapered_tips() -> None:
    scene, frame = _scene(5)
    default = frame.length_mask(scene.mask)
    assert abs(default.value - scene.straight) < 3e-3
    assert frame.length_mask(scene.mask, trim_fraction=0.01).value < default.value - 3e-4


def test_midline_is_longer_than_the_chord_on_a_bent_fish() -> None:
    rng = np.random.default_rng(6)
    scene = render(Shape("ellipse", bend=0.8), Placement(distance=0.5, yaw=0.2), rng)
    frame = fathom.DepthFrame(scene.depth, K)
    straight, midline = frame.length_mask(scene.mask, edge_noise=0), frame.length_midline(scene.mask, edge_noise=0)
    assert abs(straight.value - scene.straight) < 2e-3 and abs(midline.value - scene.midline) < 3e-3
    assert midline.value > straight.value + 5e-3
    curve = midline.curve
    assert curve.shape == (64, 3)
    steps = np.linalg.norm(np.diff(curve, axis=0), axis=1)
    np.testing.assert_allclose(steps, steps.mean(), rtol=0.02)      # evenly spaced by arc length
    assert abs(steps.sum() - midline.value) < 1e-3
    truth = scene.midline_points * [1, -1, -1]                       # optical -> camera
    gaps = np.min(np.linalg.norm(curve[:, None, :] - truth[None, :, :], axis=2), axis=1)
    assert gaps.max() < 4e-3                                         # near the true midline
