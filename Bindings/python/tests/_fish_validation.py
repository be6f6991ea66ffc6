"""Monte Carlo validation of the length methods on fish-shaped silhouettes (`_fish_scenes`).

Each trial renders a fish on a board (shape, distance, tilt, in-plane rotation; the fish's length 0.45 to 0.75
times its distance, as a photo frames it) with the noise the library's
default options describe: Gaussian depth noise depth_noise * d^2, keypoints placed with pixel_noise (1 RGB px)
in u and v, and a mask outline moved by edge_noise (1 mask px) perpendicular to itself, smooth along it. Each
method's error against the true length is divided by its sigma. `python3 _fish_validation.py` prints the
README's table (`make fish-table`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fish_scenes import Damage, FishScene, Grid, Placement, Shape, keypoints, render  # noqa: E402

import fathom  # noqa: E402

METHODS = ("keypoints median", "keypoints plane", "polyline", "mask", "midline")
EDGE = Damage(edge_noise=1.0, edge_correlation=10.0)


@dataclass(frozen=True)
class Scenario:
    name: str
    shapes: tuple[Shape, ...]
    distance: tuple[float, float]
    tilt: float = 0.6
    damage: Damage = EDGE
    mask_size: tuple[int, int] = (480, 360)
    edge_noise: float = 1.0  # what the mask methods are told


def _placement(rng: np.random.Generator, s: Scenario) -> Placement:
    return Placement(distance=float(rng.uniform(*s.distance)), tilt=float(rng.uniform(0, s.tilt)),
                     tilt_axis=float(rng.uniform(0, np.pi)), yaw=float(rng.uniform(-np.pi, np.pi)),
                     offset=tuple(rng.uniform(-0.03, 0.03, 2)))


def _traced(scene: FishScene, rng: np.random.Generator, noise: float) -> np.ndarray:
    """A traced centre line: 12 points of the true midline, each placed with `noise` RGB pixels."""
    g = scene.grid
    pts = scene.midline_points[np.linspace(0, len(scene.midline_points) - 1, 12).astype(int)]
    uv = g.project_rgb(pts)
    return uv + rng.normal(scale=noise, size=uv.shape)


def trials(s: Scenario, count: int, seed: int) -> dict[str, np.ndarray]:
    """(errors, sigmas) per method as an (n, 2) array, meters. Straight methods are compared with the
    straight truth (keypoints: snout tip to the tail's extreme point), the midline with the arc length of the
    true midline (to the level of a forked tail's lobe tips)."""
    rng = np.random.default_rng(seed)
    g = Grid()
    k = fathom.Intrinsics(fx=g.fx, fy=g.fy, cx=g.cx, cy=g.cy, width=g.rgb_w, height=g.rgb_h)
    o = fathom.LengthOptions()
    out: dict[str, list[tuple[float, float]]] = {m: [] for m in METHODS}
    for i in range(count):
        while True:  # the app frames the fish: redraw placements that leave the image
            # A fish fills about half the image's width: its length is 0.45 to 0.75 times its distance.
            placement = _placement(rng, s)
            size = float(rng.uniform(0.45, 0.75)) * placement.distance
            shape = replace(s.shapes[i % len(s.shapes)], length=size, width=size * 0.07 / 0.30)
            scene = render(shape, placement, rng, mask_size=s.mask_size, depth_noise=o.depth_noise,
                           depth_noise_growth=o.depth_noise_growth, damage=s.damage)
            border = np.concatenate([scene.mask[0], scene.mask[-1], scene.mask[:, 0], scene.mask[:, -1]])
            ends = np.array([scene.head_rgb, scene.tail_rgb])
            if not border.any() and (ends >= 10).all() and (ends < [g.rgb_w - 10, g.rgb_h - 10]).all():
                break
        frame = fathom.DepthFrame(scene.depth, k)
        head, tail = keypoints(scene, rng, o.pixel_noise)
        tip_to_tip = float(np.linalg.norm(scene.tail_extreme - scene.head))
        measured: dict[str, Callable[[], tuple[float, float]]] = {
            "keypoints median": lambda: (frame.length_keypoints(head, tail), tip_to_tip),
            "keypoints plane": lambda: (frame.length_keypoints(head, tail, scene.mask, method="plane"), tip_to_tip),
            "mask": lambda: (frame.length_mask(scene.mask, edge_noise=s.edge_noise), scene.straight),
            "midline": lambda: (frame.length_midline(scene.mask, edge_noise=s.edge_noise), scene.midline),
        }
        if shape.bend == 0:  # a straight traced line: its truth is the distance between the midline's ends
            traced = _traced(scene, rng, o.pixel_noise)
            measured["polyline"] = lambda: (frame.length_polyline(traced), float(np.linalg.norm(scene.tail - scene.head)))
        for name, measure in measured.items():
            result, truth = measure()
            out[name].append((result.value - truth, result.sigma))
    return {m: np.array(v).reshape(-1, 2) for m, v in out.items() if v}


def summary(errors_sigmas: np.ndarray) -> tuple[float, float, float]:
    """Median |error| (mm), and the fractions within one and two sigma."""
    e, s = errors_sigmas[:, 0], errors_sigmas[:, 1]
    z = np.abs(e) / s
    return float(np.median(np.abs(e)) * 1e3), float(np.mean(z <= 1)), float(np.mean(z <= 2))


STRAIGHT = (Shape("ellipse"), Shape("fusiform"), Shape("forked"))
BENT = (Shape("ellipse", bend=0.8), Shape("fusiform", bend=-0.6))
TABLE = (
    Scenario("tapered (ellipses, bent ellipses), 0.3-1.5 m", (Shape("ellipse"), Shape("ellipse", bend=0.8)), (0.3, 1.5)),
    Scenario("every shape, 0.5 m", STRAIGHT + BENT, (0.45, 0.55)),
    Scenario("every shape but the forked tail, 0.5 m", STRAIGHT[:2] + BENT, (0.45, 0.55)),
    Scenario("forked tail, 0.5 m", STRAIGHT[2:], (0.45, 0.55)),
    Scenario("every shape, 0.3-0.8 m", STRAIGHT + BENT, (0.3, 0.8)),
    Scenario("every shape, 0.8-1.5 m", STRAIGHT + BENT, (0.8, 1.5)),
    Scenario("every shape, clean mask (edge_noise 0), 0.5 m", STRAIGHT + BENT, (0.45, 0.55), damage=Damage(),
             edge_noise=0.0),
    Scenario("every shape, damaged mask and depth, 0.5 m", STRAIGHT + BENT, (0.45, 0.55),
             damage=Damage(edge_noise=1.0, edge_correlation=10.0, flips=0.02, strays=20, blob=8.0, flying=0.3,
                           holes=0.05)),
)


def main() -> None:
    print("| scenario | method | median error | within 1 sigma | within 2 sigma |")
    print("|---|---|--:|--:|--:|")
    for seed, scenario in enumerate(TABLE):
        results = trials(scenario, 500, 100 + seed)
        for method in METHODS:
            if method in results:
                median, one, two = summary(results[method])
                print(f"| {scenario.name} | {method} | {median:.2f} mm | {one:.0%} | {two:.0%} |")


if __name__ == "__main__":
    main()
