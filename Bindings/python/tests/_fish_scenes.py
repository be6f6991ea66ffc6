"""Synthetic "fish on a board" captures for Monte Carlo validation of length measurements (numpy/scipy only).

A flat fish silhouette (Shape) lies on a plane board (Placement) in front of an ARKit-like camera (Grid).
`render` gives the board's z-depth at every depth sample (the fish has no relief and the
board is everywhere, so every sample is valid before damage), the centre-sampled silhouette mask, damaged
copies of both (Damage) and the ground truth: snout tip, midline end, straight and midline lengths.
Nothing here calls the library.

Conventions (reference/conventions.md): optical frame x right, y down, z forward; an RGB pixel (u, v) is
continuous, u = fx x / z + cx; depth sample (i, j) sits at (i + 0.5, j + 0.5) of the depth grid, whose intrinsics
are the RGB ones scaled to it (fx' = fx w / W, cx' = cx w / W, fy', cy' by height); mask pixel (i, j) of an mh x mw mask covers u in [i W / mw, (i + 1) W / mw)
and is sampled at its centre; depth values are optical z in float32 metres, 0 = invalid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.interpolate import PchipInterpolator
from scipy.ndimage import distance_transform_edt, gaussian_filter, maximum_filter, minimum_filter
from scipy.spatial import cKDTree

# ARKit-like: a 1920x1440 RGB image with a 256x192 LiDAR depth map.
RGB_W, RGB_H = 1920, 1440
DEPTH_W, DEPTH_H = 256, 192
FX = FY = 1450.0
CX, CY = 962.5, 718.25


@dataclass(frozen=True)
class Grid:
    """RGB intrinsics and a depth grid size; ``k`` are the intrinsics scaled to the grid."""

    fx: float = FX
    fy: float = FY
    cx: float = CX
    cy: float = CY
    rgb_w: int = RGB_W
    rgb_h: int = RGB_H
    w: int = DEPTH_W
    h: int = DEPTH_H

    @property
    def k(self) -> tuple[float, float, float, float]:
        sx, sy = self.w / self.rgb_w, self.h / self.rgb_h
        return self.fx * sx, self.fy * sy, self.cx * sx, self.cy * sy

    def rays(self) -> np.ndarray:
        """(h, w, 3) optical-frame rays with z = 1 through every sample centre (float64)."""
        fx, fy, cx, cy = self.k
        rays = np.empty((self.h, self.w, 3))
        rays[..., 0] = ((np.arange(self.w) + 0.5 - cx) / fx)[None, :]
        rays[..., 1] = ((np.arange(self.h) + 0.5 - cy) / fy)[:, None]
        rays[..., 2] = 1.0
        return rays

    def project_rgb(self, p: np.ndarray) -> np.ndarray:
        """RGB pixel (u, v) of optical-frame points (..., 3)."""
        p = np.asarray(p, dtype=np.float64)
        return np.stack([self.fx * p[..., 0] / p[..., 2] + self.cx, self.fy * p[..., 1] / p[..., 2] + self.cy], -1)


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rodrigues' rotation matrix: ``angle`` about ``axis`` (right-hand rule)."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k

# Body profiles as full width / `width` at s / L. Interpolated as g = fraction / sqrt(s / L) (PCHIP: positive,
# no overshoot) so that h ~ sqrt(s) at the snout, a rounded tip; _SNOUT is g at s = 0.
# Widest (1.0) at 0.353 L, caudal peduncle 0.12 wide at 0.82 L, snout radius of curvature 0.45 width**2 / L.
_T = np.array([0.0, 0.05, 0.18, 0.35, 0.52, 0.70, 0.82, 0.91, 1.0])
_FUSIFORM = np.array([0.0, 0.40, 0.84, 1.0, 0.80, 0.52, 0.12, 0.30, 0.60])   # truncate tail, 0.6 wide
_FORKED = np.array([0.0, 0.40, 0.84, 1.0, 0.80, 0.52, 0.12, 0.30, 0.50])     # lobe tips at n = +-0.25 width
_SNOUT = 1.9
NOTCH = 0.9   # the fork's notch reaches back to NOTCH * length on the midline


def _profile(fractions: np.ndarray) -> PchipInterpolator:
    g = np.concatenate([[_SNOUT], fractions[1:] / np.sqrt(_T[1:])])
    return PchipInterpolator(_T, g)


_PROFILES = {"fusiform": _profile(_FUSIFORM), "forked": _profile(_FORKED)}


@dataclass(frozen=True)
class Shape:
    """A fish silhouette in body coordinates (s along the midline from the snout, n lateral; metres).
    The midline is straight (bend = 0) or a circular arc of arc length `length` turning by `bend` radians."""

    kind: str                 # "ellipse" | "fusiform" | "forked"
    length: float = 0.30      # snout tip (s = 0) to tail tip (s = length) along the midline
    width: float = 0.07       # greatest body width
    bend: float = 0.0         # total turning angle of the midline, radians (symmetric C bend)

    def __post_init__(self) -> None:
        if self.kind not in ("ellipse", "fusiform", "forked"):
            raise ValueError(f"unknown fish kind {self.kind!r}")

    def half_width(self, s: np.ndarray) -> np.ndarray:
        """The outer half-width h(s) (s clipped to [0, length]); h(0) = 0, h ~ sqrt(s) at the snout."""
        t = np.clip(np.asarray(s, dtype=np.float64) / self.length, 0.0, 1.0)
        if self.kind == "ellipse":
            return self.width / 2 * np.sqrt(np.maximum(0.0, 1.0 - (2 * t - 1) ** 2))
        return self.width / 2 * np.sqrt(t) * _PROFILES[self.kind](t)

    def notch(self, s: np.ndarray) -> np.ndarray:
        """Half-width of the fork's V notch (forked only): 0 at NOTCH * length, the lobe tips' h at length."""
        tip = self.half_width(self.length)
        return tip * np.clip((np.asarray(s) / self.length - NOTCH) / (1 - NOTCH), 0.0, None)

    def inside_body(self, s: np.ndarray, n: np.ndarray) -> np.ndarray:
        """Whether body points (s, n) are inside the silhouette."""
        s, a = np.asarray(s, dtype=np.float64), np.abs(n)
        ok = (s >= 0) & (s <= self.length) & (a <= self.half_width(s))
        if self.kind == "forked":
            ok &= ~((s > NOTCH * self.length) & (a < self.notch(s)))
        return ok

    def to_plane(self, s: np.ndarray, n: np.ndarray) -> np.ndarray:
        """(..., 2) fish-plane coordinates (before yaw and offset) of body points: (s - L/2, n) when straight;
        on the arc of radius L / bend about (0, R), symmetric about x = 0 with its chord along x, otherwise."""
        s, n = np.asarray(s, dtype=np.float64), np.asarray(n, dtype=np.float64)
        if self.bend == 0:
            return np.stack(np.broadcast_arrays(s - self.length / 2, n), -1)
        r = self.length / self.bend
        phi = (s - self.length / 2) / r
        return np.stack([(r - n) * np.sin(phi), r - (r - n) * np.cos(phi)], -1)

    def from_plane(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Body coordinates (s, n) of fish-plane points (..., 2): polar coordinates about the arc centre."""
        x, y = p[..., 0], p[..., 1]
        if self.bend == 0:
            return x + self.length / 2, y
        r = self.length / self.bend
        sg = np.sign(r)
        phi = np.arctan2(sg * x, -sg * (y - r))
        return self.length / 2 + r * phi, r - sg * np.hypot(x, y - r)

    def outline(self, n: int = 4000) -> np.ndarray:
        """(n, 2) closed fish-plane outline from the snout tip along +n to the tail and back along -n, evenly
        spaced by arc length within each piece; the pieces' ends (snout, tail ends, lobe tips) are vertices."""
        L, m = self.length, 4001
        s = L * (1 - np.cos(np.linspace(0.0, np.pi, m))) / 2   # dense at the rounded ends
        h, tip = self.half_width(s), self.half_width(L)
        pieces = [(s, h)]
        if self.kind == "fusiform":
            pieces.append((np.full(m, L), np.linspace(tip, -tip, m)))
        elif self.kind == "forked":
            pieces += [(np.linspace(L, NOTCH * L, m), np.linspace(tip, 0.0, m)),
                       (np.linspace(NOTCH * L, L, m), np.linspace(0.0, -tip, m))]
        pieces.append((s[::-1], -h[::-1]))
        return _resample([self.to_plane(*p) for p in pieces], n)


def _resample(pieces: list[np.ndarray], n: int) -> np.ndarray:
    """n points along consecutive polylines (each ending where the next starts, the last at the first's
    start), shared out by length, each piece's first vertex kept."""
    cums = [np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(p, axis=0).T))]) for p in pieces]
    lengths = np.array([c[-1] for c in cums])
    share = n * lengths / lengths.sum()
    counts = np.maximum(1, np.floor(share).astype(int))
    while counts.sum() < n:
        counts[np.argmax(share - counts)] += 1
    while counts.sum() > n:
        counts[np.argmax(np.where(counts > 1, counts - share, -np.inf))] -= 1
    out = []
    for p, c, k in zip(pieces, cums, counts):
        d = np.linspace(0.0, c[-1], k + 1)[:-1]
        out.append(np.stack([np.interp(d, c, p[:, 0]), np.interp(d, c, p[:, 1])], -1))
    return np.concatenate(out)


@dataclass(frozen=True)
class Placement:
    """The board: the plane through (0, 0, distance) with normal R (0, 0, -1), R the rotation by `tilt` about
    the in-image axis (cos tilt_axis, sin tilt_axis, 0); its in-plane basis is (R x, R y). The fish's plane
    coordinates are rotated by `yaw` and shifted by `offset` on the board."""

    distance: float = 0.5
    tilt: float = 0.0
    tilt_axis: float = 0.0
    yaw: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)

    def frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Board origin, in-plane axes bx, by and normal (towards the camera when untilted), optical."""
        r = rotation(np.array([np.cos(self.tilt_axis), np.sin(self.tilt_axis), 0.0]), self.tilt)
        return np.array([0.0, 0.0, self.distance]), r[:, 0], r[:, 1], -r[:, 2]

    def fish_to_board(self, p: np.ndarray) -> np.ndarray:
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        return p @ np.array([[c, s], [-s, c]]) + np.asarray(self.offset)

    def board_to_fish(self, b: np.ndarray) -> np.ndarray:
        c, s = np.cos(self.yaw), np.sin(self.yaw)
        return (b - np.asarray(self.offset)) @ np.array([[c, -s], [s, c]])

    def to_optical(self, p: np.ndarray) -> np.ndarray:
        """(..., 3) optical points of fish-plane points (..., 2)."""
        o, bx, by, _ = self.frame()
        b = self.fish_to_board(p)
        return o + b[..., :1] * bx + b[..., 1:] * by

    def intersect(self, rays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """z (= ray parameter, rays have z = 1) and fish-plane coordinates where rays (..., 3) meet the board."""
        o, bx, by, nrm = self.frame()
        z = (nrm @ o) / (rays @ nrm)
        d = rays * z[..., None] - o
        return z, self.board_to_fish(np.stack([d @ bx, d @ by], -1))


@dataclass(frozen=True)
class Damage:
    """Mask and depth damage (see render); the defaults are none."""

    edge_noise: float = 0.0        # 1-sigma boundary displacement perpendicular to it, mask pixels
    edge_correlation: float = 2.0  # its correlation length along the boundary (Gaussian sigma), mask pixels
    flips: float = 0.0             # probability of flipping each boundary mask pixel (4-neighbourhood)
    strays: int = 0                # isolated stray inside pixels >= 20 mask pixels from the body
    blob: float = 0.0              # radius (mask pixels) of one extra disk >= 20 px from the body, 0 = none
    flying: float = 0.0            # probability of a flying pixel (z * (1 + U(0.03, 0.4))) at silhouette edges
    holes: float = 0.0             # fraction of depth samples under the body set to 0, in disc-shaped clumps


@dataclass(frozen=True, eq=False)
class FishScene:
    depth: np.ndarray            # (h, w) float32 z metres with noise and damage, 0 = invalid
    mask: np.ndarray             # (mh, mw) uint8 0/1, damaged
    clean_mask: np.ndarray       # (mh, mw) uint8, the centre-sampled true silhouette
    grid: Grid
    head: np.ndarray             # (3,) optical snout tip (midline s = 0)
    tail: np.ndarray             # (3,) optical midline end (s = length)
    straight: float              # extent of the true silhouette along unit(tail - head), metres
    midline: float               # arc length of the midline (= shape.length)
    midline_points: np.ndarray   # (200, 3) optical midline points, s = 0 .. length
    head_rgb: np.ndarray         # (2,) RGB pixel of the snout tip
    tail_rgb: np.ndarray         # (2,) RGB pixel of tail_extreme
    tail_extreme: np.ndarray     # (3,) forked: the outline point extreme along the chord (a lobe tip); else tail
    depth_inside: np.ndarray = field(repr=False)   # (h, w) bool, depth samples whose centre is on the fish


def outline(shape: Shape, placement: Placement, n: int = 4000) -> np.ndarray:
    """(n, 3) optical points of the true silhouette outline (closed, from the snout tip)."""
    return placement.to_optical(shape.outline(n))


def _mask_rays(grid: Grid, mw: int, mh: int) -> np.ndarray:
    u = (np.arange(mw) + 0.5) * grid.rgb_w / mw
    v = (np.arange(mh) + 0.5) * grid.rgb_h / mh
    rays = np.ones((mh, mw, 3))
    rays[..., 0] = ((u - grid.cx) / grid.fx)[None, :]
    rays[..., 1] = ((v - grid.cy) / grid.fy)[:, None]
    return rays


def _unit_field(shape: tuple[int, int], sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Stationary Gaussian field of unit variance: white noise smoothed by a Gaussian of `sigma` (periodic),
    divided by the kernel's root sum of squares (the exact standard deviation of every value)."""
    white = rng.standard_normal(shape)
    if sigma <= 0:
        return white
    impulse = np.zeros(shape)
    impulse[0, 0] = 1.0
    norm = np.sqrt(np.sum(gaussian_filter(impulse, sigma, mode="wrap") ** 2))
    return gaussian_filter(white, sigma, mode="wrap") / norm


def _signed_distance(pts: np.ndarray, poly: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """Distance from points (k, 2) to the closed polyline poly (n, 2), positive where inside."""
    _, k = cKDTree(poly).query(pts)
    a = poly[k]
    best = np.hypot(*(pts - a).T)
    for b in (np.roll(poly, 1, 0)[k], np.roll(poly, -1, 0)[k]):
        seg = b - a
        t = np.einsum("ij,ij->i", pts - a, seg) / np.maximum(np.einsum("ij,ij->i", seg, seg), 1e-300)
        t = np.clip(t, 0.0, 1.0)
        best = np.minimum(best, np.hypot(*(pts - a - t[:, None] * seg).T))
    return np.where(inside, best, -best)


def _boundary(m: np.ndarray) -> np.ndarray:
    """Inside pixels with an outside 4-neighbour and outside pixels with an inside 4-neighbour."""
    p = np.pad(m, 1, mode="edge")
    nb = [p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]]
    return np.where(m, ~(nb[0] & nb[1] & nb[2] & nb[3]), nb[0] | nb[1] | nb[2] | nb[3])


def _damage_mask(clean: np.ndarray, poly_px: np.ndarray, damage: Damage, rng: np.random.Generator) -> np.ndarray:
    """Edge noise, flips, strays and a blob (in that order) on a copy of the clean mask (bool)."""
    m = clean.copy()
    if damage.edge_noise > 0:
        # Signed distance (mask pixels) of pixel centres to the outline projected into mask pixel coordinates,
        # in the band the field can reach, plus edge_noise * a unit field: inside where positive.
        reach = np.where(clean, distance_transform_edt(clean), distance_transform_edt(~clean))
        band = reach <= 6 * damage.edge_noise + 2.5
        jj, ii = np.nonzero(band)
        sd = _signed_distance(np.stack([ii + 0.5, jj + 0.5], -1), poly_px, clean[jj, ii])
        noise = damage.edge_noise * _unit_field(clean.shape, damage.edge_correlation, rng)
        m[jj, ii] = sd + noise[jj, ii] > 0
    if damage.flips > 0:
        m ^= _boundary(m) & (rng.random(m.shape) < damage.flips)
    if damage.strays or damage.blob > 0:
        far = distance_transform_edt(~m)    # distance of each pixel to the body (damaged so far)
        cand = np.flatnonzero(far >= 20)
        placed = 0
        for c in rng.permutation(cand):
            if placed == damage.strays:
                break
            j, i = divmod(int(c), m.shape[1])
            if not m[max(j - 1, 0):j + 2, max(i - 1, 0):i + 2].any():   # isolated from other strays
                m[j, i] = True
                placed += 1
        if placed < damage.strays:
            raise ValueError("no room for the stray pixels")
        if damage.blob > 0:
            r = damage.blob
            jj, ii = np.indices(m.shape)
            room = (far >= 20 + r) & (ii + 0.5 >= r) & (ii + 0.5 <= m.shape[1] - r) \
                & (jj + 0.5 >= r) & (jj + 0.5 <= m.shape[0] - r)
            if not room.any():
                raise ValueError("no room for the blob")
            j, i = divmod(int(rng.choice(np.flatnonzero(room))), m.shape[1])
            m |= (ii - i) ** 2 + (jj - j) ** 2 <= r * r
    return m


def _damage_depth(depth: np.ndarray, inside: np.ndarray, damage: Damage, rng: np.random.Generator) -> None:
    """Flying pixels at the silhouette's edges and clumped holes under the body, in place."""
    if damage.flying > 0:
        edge = maximum_filter(inside, 3) != minimum_filter(inside, 3)
        fly = edge & (rng.random(depth.shape) < damage.flying)
        depth[fly] *= 1 + rng.uniform(0.03, 0.4, fly.sum())
    target = int(round(damage.holes * inside.sum()))
    hole = np.zeros_like(inside)
    jj, ii = np.indices(inside.shape)
    body = np.flatnonzero(inside)
    while hole.sum() < target:
        j, i = divmod(int(rng.choice(body)), inside.shape[1])
        d2 = (jj - j) ** 2 + (ii - i) ** 2
        disc = (d2 <= rng.uniform(2.0, 5.0) ** 2) & inside & ~hole
        need = target - hole.sum()
        if disc.sum() > need:   # the last clump: only its samples nearest the centre
            keep = np.flatnonzero(disc)[np.argsort(d2[disc], kind="stable")[:need]]
            disc = np.zeros_like(disc)
            disc.flat[keep] = True
        hole |= disc
    depth[hole] = 0.0


def render(shape: Shape, placement: Placement, rng: np.random.Generator, *, grid: Grid = Grid(),
           mask_size: tuple[int, int] = (480, 360), depth_noise: float = 0.005,
           depth_noise_growth: float = 2.0, damage: Damage = Damage()) -> FishScene:
    """A capture of `shape` lying on the board of `placement`.

    depth: the board's z along every depth sample's ray, + N(0, depth_noise * z ** depth_noise_growth), then
    flying pixels and holes. mask (mask_size = (mw, mh)): a pixel is inside when its centre's ray meets the
    board inside the silhouette, then edge noise, flips, strays and a blob (Damage)."""
    mw, mh = mask_size
    _, plane = placement.intersect(_mask_rays(grid, mw, mh))
    clean = shape.inside_body(*shape.from_plane(plane))
    z, dplane = placement.intersect(grid.rays())
    inside_d = shape.inside_body(*shape.from_plane(dplane))

    ol = outline(shape, placement)
    poly_px = grid.project_rgb(ol) * np.array([mw / grid.rgb_w, mh / grid.rgb_h])
    mask = _damage_mask(clean, poly_px, damage, rng)

    depth = z + rng.standard_normal(z.shape) * depth_noise * z ** depth_noise_growth
    _damage_depth(depth, inside_d, damage, rng)

    s = np.linspace(0.0, shape.length, 200)
    mid = placement.to_optical(shape.to_plane(s, np.zeros_like(s)))
    head, tail = mid[0], mid[-1]
    chord = (tail - head) / np.linalg.norm(tail - head)
    along = ol @ chord
    extreme = ol[np.argmax(along)] if shape.kind == "forked" else tail
    return FishScene(depth=depth.astype(np.float32), mask=mask.astype(np.uint8),
                     clean_mask=clean.astype(np.uint8), grid=grid, head=head, tail=tail,
                     straight=float(along.max() - along.min()), midline=float(shape.length),
                     midline_points=mid, head_rgb=grid.project_rgb(head), tail_rgb=grid.project_rgb(extreme),
                     tail_extreme=extreme, depth_inside=inside_d)


def keypoints(scene: FishScene, rng: np.random.Generator, pixel_noise: float) -> tuple[np.ndarray, np.ndarray]:
    """Noisy head and tail keypoints: head_rgb and tail_rgb each + N(0, pixel_noise) in u and v (float64 (2,))."""
    return (np.asarray(scene.head_rgb, dtype=np.float64) + rng.normal(0.0, pixel_noise, 2),
            np.asarray(scene.tail_rgb, dtype=np.float64) + rng.normal(0.0, pixel_noise, 2))
