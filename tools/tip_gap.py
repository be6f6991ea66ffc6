"""The gap between a mask end's true tip and the last inside pixel centre along the body's axis, tabulated against
the tip radius the library measures from the outline (R = w^2 / 16 from the outline's width w two pixels behind
the last centre, plus a pixel), as Sources/FathomCore/Length/BodyEnd.swift does.

A pixel is inside when its centre is. The tips are a mix of the ends fish have: rounded wedges (3 in 4; tip
radius log-uniform in 0.3...20 px, half-angle uniform in 8...75 degrees: snouts, tail lobes, tapered ends) and
square ends (1 in 4; half-width uniform in 1...12 px: truncate tails), at random sub-pixel offsets and directions
on the pixel grid. For each node radius the script prints the gap's mean and standard deviation over the tips
whose measured radius lies within a factor sqrt(2) of it, which BodyEnd.swift interpolates (linearly in log R).
Run: python3 tools/tip_gap.py
"""

import numpy as np

NODES = 0.1 * 2.0 ** np.arange(10)  # 0.1 ... 51.2 px
BODY = 16  # pixels of body behind the tip


def inside(q: np.ndarray, square: bool, radius: float, half_angle: float, half_width: float) -> np.ndarray:
    """Which points q (body frame: x along the axis, the tip's end at x = radius or 0) are inside the tip."""
    x, y = q[:, 0], q[:, 1]
    if square:
        return (x <= 0) & (np.abs(y) <= half_width)
    s, c = np.sin(half_angle), np.cos(half_angle)
    sides = (x * s + y * c <= radius) & (x * s - y * c <= radius)
    return (x * x + y * y <= radius * radius) | (sides & (x <= radius * s))


def trial(rng: np.random.Generator) -> tuple[float, float] | None:
    """(measured radius, gap) of one random tip, or None when no pixel centre is inside."""
    square = rng.uniform() < 0.25
    radius = 0.0 if square else float(np.exp(rng.uniform(np.log(0.3), np.log(20))))
    half_angle = np.radians(rng.uniform(8, 75))
    half_width = float(rng.uniform(1, 12))
    r = int(BODY + max(radius, half_width)) + 3
    xs, ys = np.meshgrid(np.arange(-r, r + 1) + 0.5, np.arange(-r, r + 1) + 0.5)
    centres = np.stack([xs.ravel(), ys.ravel()], 1) - rng.uniform(0, 1, 2)
    angle = rng.uniform(0, 2 * np.pi)
    axis, side = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    q = np.stack([centres @ axis, centres @ side], 1)
    mask = inside(q, square, radius, half_angle, half_width) & (q[:, 0] > -BODY) & (np.abs(q[:, 1]) < BODY)
    if mask.sum() < 2:
        return None
    pixels = centres[mask]
    last = (pixels @ axis).max()
    # The outline: each row's first and last inside pixel (the library's run endpoints).
    rows = np.round(pixels[:, 1] * 2) / 2
    order = np.lexsort((pixels[:, 0], rows))
    pixels, rows = pixels[order], rows[order]
    first = np.r_[True, rows[1:] != rows[:-1]]
    final = np.r_[rows[1:] != rows[:-1], True]
    outline = np.concatenate([pixels[first], pixels[final]])
    along, lateral = outline @ axis, outline @ side
    band = lateral[(along <= last + 1e-9) & (along >= last - 2)]
    width = band.max() - band.min() + 1 if len(band) >= 2 else 1.0
    return max(0.1, width * width / 16), radius - last


def main() -> None:
    rng = np.random.default_rng(0)
    tips = np.array([t for t in (trial(rng) for _ in range(200000)) if t is not None])
    measured, gap = tips[:, 0], tips[:, 1]
    means, sds = [], []
    for node in NODES:
        near = (measured >= node / np.sqrt(2)) & (measured < node * np.sqrt(2))
        means.append(gap[near].mean())
        sds.append(gap[near].std())
        print(f"R {node:5.1f} px ({near.sum():5d} tips): gap mean {means[-1]:.3f}, sd {sds[-1]:.3f}")
    print("mean:", ", ".join(f"{m:.3f}" for m in means))
    print("sd:  ", ", ".join(f"{s:.3f}" for s in sds))


if __name__ == "__main__":
    main()
