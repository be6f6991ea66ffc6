"""The gap between a tip's true end and the last inside pixel centre along a direction, for disc-shaped tips of
radius R pixels at random sub-pixel offsets and directions on the pixel grid (a pixel is inside when its centre
is). Prints the gap's mean and standard deviation per R and the power laws fitted to them, which
Sources/FathomCore/Length/BodyEnd.swift uses. Run: python3 tools/tip_gap.py
"""

import numpy as np


def gaps(radius: float, trials: int, rng: np.random.Generator) -> np.ndarray:
    r = int(radius) + 2
    xs, ys = np.meshgrid(np.arange(-r, r + 1) + 0.5, np.arange(-r, r + 1) + 0.5)
    grid = np.stack([xs.ravel(), ys.ravel()], 1)
    out = []
    for _ in range(trials):
        p = grid - rng.uniform(0, 1, 2)
        angle = rng.uniform(0, np.pi / 2)
        inside = (p**2).sum(1) <= radius * radius
        if inside.any():
            out.append(radius - (p[inside] @ [np.cos(angle), np.sin(angle)]).max())
    return np.array(out)


def main() -> None:
    rng = np.random.default_rng(0)
    radii = np.array([1, 2, 3, 6, 12, 25, 50], float)
    stats = np.array([[g.mean(), g.std()] for g in (gaps(r, 4000, rng) for r in radii)])
    for r, (mean, sd) in zip(radii, stats):
        print(f"R {r:4.0f} px: mean {mean:.3f}, sd {sd:.3f}")
    for name, column in (("mean", 0), ("sd", 1)):
        slope, intercept = np.polyfit(np.log(radii), np.log(stats[:, column]), 1)
        print(f"{name} = {np.exp(intercept):.3f} R^{slope:.3f}")


if __name__ == "__main__":
    main()
