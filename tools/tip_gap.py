"""The gap between a mask end's true tip and the last inside pixel centre along the body's axis, tabulated against
the tip radius the library measures from the outline (R = w^2 / 16 from the outline's width w two pixels behind
the last centre, plus a pixel), as Sources/FathomCore/Length/BodyEnd.swift does.

A pixel is inside when its centre is. The tips are a mix of the ends fish have: rounded wedges (3 in 4; tip
radius log-uniform in 0.3...20 px, half-angle uniform in 8...75 degrees: snouts, tail lobes, tapered ends) and
square ends (1 in 4; half-width uniform in 1...12 px: truncate tails), at random sub-pixel offsets and directions
on the pixel grid. For each node radius the script prints the gap's mean and standard deviation over the tips
whose measured radius lies within a factor sqrt(2) of it, which TipGap.swift interpolates (linearly in log R).

A sharp tip (below a pixel in radius both as measured from w2 and as w6^2 / 48, a parabola w6 wide six pixels
behind) is told apart better by how fast it widens: the opening o = (w6 - w2) / 4 from the widths w2 and w6 two
and six pixels behind its last centre (each plus a pixel). Over sharp wedges (cap radius log-uniform in
0.01...0.2 px, half-angle uniform in 3...45 degrees, the bisector turned up to 35 degrees from the measuring
direction: a forked tail's lopsided lobes) the script also tabulates, against o, the gap's mean and standard
deviation and the median of 1 / sin(half-angle), how far the tip recedes per pixel its outline moves inward (o
overstates a thin wedge's opening: the run ends' spread counts whole pixels), for TipGap.swift.
Run: python3 tools/tip_gap.py
"""

import numpy as np

NODES = 0.1 * 2.0 ** np.arange(10)  # 0.1 ... 51.2 px
OPENINGS = 0.25 * 2.0 ** (np.arange(6) / 2)  # 0.25 ... 1.41 pixels of width per pixel behind (w6 below 4 sqrt(3))
BODY = 16  # pixels of body behind the tip


def inside(q: np.ndarray, square: bool, radius: float, half_angle: float, half_width: float) -> np.ndarray:
    """Which points q (body frame: x along the axis, the tip's end at x = radius or 0) are inside the tip."""
    x, y = q[:, 0], q[:, 1]
    if square:
        return (x <= 0) & (np.abs(y) <= half_width)
    s, c = np.sin(half_angle), np.cos(half_angle)
    sides = (x * s + y * c <= radius) & (x * s - y * c <= radius)
    return (x * x + y * y <= radius * radius) | (sides & (x <= radius * s))


def trial(rng: np.random.Generator, sharp: bool = False) -> tuple[float, float, float, float] | None:
    """(w2, w6, gap, 1 / sin(half-angle)) of one random tip (a sharp wedge when `sharp`), or
    None when fewer than two pixel centres are inside."""
    square = not sharp and rng.uniform() < 0.25
    if sharp:
        radius = float(np.exp(rng.uniform(np.log(0.01), np.log(0.2))))
        half_angle = np.radians(rng.uniform(3, 45))
    else:
        radius = 0.0 if square else float(np.exp(rng.uniform(np.log(0.3), np.log(20))))
        half_angle = np.radians(rng.uniform(8, 75))
    half_width = float(rng.uniform(1, 12))
    # The measuring direction: the bisector, or for sharp wedges turned from it, as a lobe's is from the axis
    # (the tip's extreme along it stays its cap's while the turn is below 90 degrees - the half-angle).
    turn = np.radians(rng.uniform(-1, 1) * min(35, 80 - np.degrees(half_angle))) if sharp else 0.0
    r = int(BODY + max(radius, half_width)) + 3
    xs, ys = np.meshgrid(np.arange(-r, r + 1) + 0.5, np.arange(-r, r + 1) + 0.5)
    centres = np.stack([xs.ravel(), ys.ravel()], 1) - rng.uniform(0, 1, 2)
    angle = rng.uniform(0, 2 * np.pi)
    bisector, normal = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    q = np.stack([centres @ bisector, centres @ normal], 1)
    mask = inside(q, square, radius, half_angle, half_width) & (q[:, 0] > -BODY) & (np.abs(q[:, 1]) < BODY)
    if mask.sum() < 2:
        return None
    axis = np.cos(turn) * bisector + np.sin(turn) * normal
    side = np.array([-axis[1], axis[0]])
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

    def width(behind: float) -> float:
        band = lateral[(along <= last + 1e-9) & (along >= last - behind)]
        return band.max() - band.min() + 1 if len(band) >= 2 else 1.0

    w2, w6 = width(2), width(6)
    return w2, w6, radius - last, 1 / np.sin(half_angle)


def main() -> None:
    rng = np.random.default_rng(0)
    tips = np.array([t for t in (trial(rng) for _ in range(200000)) if t is not None])
    measured, gap = np.maximum(0.1, tips[:, 0] ** 2 / 16), tips[:, 2]
    means, sds = [], []
    for node in NODES:
        near = (measured >= node / np.sqrt(2)) & (measured < node * np.sqrt(2))
        means.append(gap[near].mean())
        sds.append(gap[near].std())
        print(f"R {node:5.1f} px ({near.sum():5d} tips): gap mean {means[-1]:.3f}, sd {sds[-1]:.3f}")
    print("mean:", ", ".join(f"{m:.3f}" for m in means))
    print("sd:  ", ", ".join(f"{s:.3f}" for s in sds))

    sharp = np.array([t for t in (trial(rng, sharp=True) for _ in range(100000)) if t is not None])
    sharp = sharp[(sharp[:, 0] ** 2 / 16 < 1) & (sharp[:, 1] ** 2 / 48 < 1)]  # the library's test for a sharp tip
    opening, gap, recession = (sharp[:, 1] - sharp[:, 0]) / 4, sharp[:, 2], sharp[:, 3]
    columns = {"mean": [], "sd": [], "recession": []}
    for node in OPENINGS:
        near = (opening >= node / 2 ** 0.25) & (opening < node * 2 ** 0.25)
        if node == OPENINGS[0]:
            near |= opening < node  # the lowest node takes every thinner tip
        columns["mean"].append(gap[near].mean())
        columns["sd"].append(gap[near].std())
        columns["recession"].append(np.median(recession[near]))
        print(f"o {node:5.2f} ({near.sum():5d} sharp tips): gap mean {gap[near].mean():.3f}, sd {gap[near].std():.3f}, "
              f"1 / sin(half-angle) {np.median(recession[near]):.2f}")
    for name, values in columns.items():
        print(f"sharp {name}:", ", ".join(f"{v:.3f}" for v in values))


if __name__ == "__main__":
    main()
