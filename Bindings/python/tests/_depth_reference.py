"""Independent numpy references for the depth tests: the documented back-projection formula, the mask
cell mapping, and depth maps rendered analytically by casting each depth pixel's ray at a known surface.

Nothing here calls the library. Conventions (reference/conventions.md, include/fathom.h): depth sample
(column i, row j) sits at (i + 0.5, j + 0.5) of the depth grid; the RGB intrinsics are scaled to the grid
(fx' = fx * w / W, cx' = cx * w / W, fy', cy' by height); the optical frame is x right, y down, z forward;
the ARKit camera frame is (X, -Y, -Z) of it; world = pose @ camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
        i = np.arange(self.w) + 0.5
        j = np.arange(self.h) + 0.5
        x = (i - cx) / fx
        y = (j - cy) / fy
        rays = np.empty((self.h, self.w, 3))
        rays[..., 0] = x[None, :]
        rays[..., 1] = y[:, None]
        rays[..., 2] = 1.0
        return rays

    def footprint(self, depth: float) -> float:
        """The width of one depth pixel at ``depth`` meters, fronto-parallel."""
        return depth / self.k[0]

    def project_rgb(self, p: np.ndarray) -> np.ndarray:
        """RGB pixel (u, v) of optical-frame points (..., 3)."""
        p = np.asarray(p, dtype=np.float64)
        return np.stack([self.fx * p[..., 0] / p[..., 2] + self.cx, self.fy * p[..., 1] / p[..., 2] + self.cy], -1)


def optical_points(grid: Grid, depth_m: np.ndarray) -> np.ndarray:
    """(h, w, 3) optical points of every sample at its depth (the documented formula)."""
    return grid.rays() * depth_m[..., None]


def to_frame(points_optical: np.ndarray, frame: str, pose: np.ndarray | None = None) -> np.ndarray:
    """Optical-frame points (..., 3) in "optical", "camera" or "world" (pose: 4x4 camera-to-world)."""
    if frame == "optical":
        return points_optical
    cam = points_optical * np.array([1.0, -1.0, -1.0])
    if frame == "camera":
        return cam
    assert pose is not None
    return cam @ pose[:3, :3].T + pose[:3, 3]


def mask_cells(mask_shape: tuple[int, int], grid_shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the mask pixel under each depth sample centre:
    floor((j + 0.5) * mask_h / h), floor((i + 0.5) * mask_w / w) (exact, in integers)."""
    mh, mw = mask_shape
    h, w = grid_shape
    rows = ((2 * np.arange(h) + 1) * mh) // (2 * h)
    cols = ((2 * np.arange(w) + 1) * mw) // (2 * w)
    return rows, cols


def resample_mask(mask: np.ndarray, grid_shape: tuple[int, int]) -> np.ndarray:
    """The (h, w) boolean mask of depth samples under a mask of another resolution."""
    rows, cols = mask_cells(mask.shape, grid_shape)
    return np.asarray(mask)[rows[:, None], cols[None, :]] != 0


def reference_backproject(grid: Grid, depth_m: np.ndarray, valid: np.ndarray, frame: str = "camera",
                          pose: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The valid samples' points (row by row) and their (column, row) pixels."""
    pts = to_frame(optical_points(grid, depth_m.astype(np.float64)), frame, pose)
    j, i = np.nonzero(valid)
    return pts[j, i], np.stack([i, j], axis=1)


# ------------------------------------------------------------------------------------------------
# Analytic scenes, rendered per depth pixel centre (z-depth; inf where the ray misses)
# ------------------------------------------------------------------------------------------------


def render_plane(grid: Grid, point: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """z-depth of the plane dot(normal, X - point) = 0 along each sample's ray (inf behind / parallel)."""
    r = grid.rays()
    n = np.asarray(normal, dtype=np.float64)
    denom = r @ n
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.dot(n, point) / denom
    return np.where((z > 0) & np.isfinite(z), z, np.inf)


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def render_ellipsoid(grid: Grid, center: np.ndarray, axes: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """z-depth of the near surface of the ellipsoid {c + R diag(radii) s : |s| <= 1} (axes: R's columns)."""
    r = grid.rays()
    a_mat = axes @ np.diag(1.0 / np.asarray(radii, dtype=np.float64) ** 2) @ axes.T
    c = np.asarray(center, dtype=np.float64)
    qa = np.einsum("hwi,ij,hwj->hw", r, a_mat, r)
    qb = -2.0 * (r @ (a_mat @ c))
    qc = c @ a_mat @ c - 1.0
    disc = qb * qb - 4 * qa * qc
    with np.errstate(invalid="ignore"):
        z = (-qb - np.sqrt(disc)) / (2 * qa)
    return np.where(disc >= 0, z, np.inf)


def render_rod(grid: Grid, center: np.ndarray, axis: np.ndarray, length: float, radius: float) -> np.ndarray:
    """z-depth of the near surface of a closed cylinder (flat caps) of ``length`` and ``radius``."""
    r = grid.rays().reshape(-1, 3)
    e = np.asarray(axis, dtype=np.float64)
    e = e / np.linalg.norm(e)
    c = np.asarray(center, dtype=np.float64)
    best = np.full(len(r), np.inf)
    # side: |(X - c) - ((X - c).e) e| = radius with X = z r
    rp = r - np.outer(r @ e, e)
    cp = c - (c @ e) * e
    qa = np.einsum("ij,ij->i", rp, rp)
    qb = -2 * rp @ cp
    qc = cp @ cp - radius**2
    disc = qb * qb - 4 * qa * qc
    with np.errstate(invalid="ignore", divide="ignore"):
        for sign in (-1.0, 1.0):
            z = (-qb + sign * np.sqrt(disc)) / (2 * qa)
            t = z * (r @ e) - c @ e
            ok = (disc >= 0) & (z > 0) & (np.abs(t) <= length / 2)
            best = np.where(ok & (z < best), z, best)
        # caps: (X - c).e = +-length/2 within the radius
        for s in (-0.5, 0.5):
            z = (c @ e + s * length) / (r @ e)
            x = z[:, None] * r - (c + s * length * e)
            ok = (z > 0) & (np.einsum("ij,ij->i", x, x) <= radius**2)
            best = np.where(ok & (z < best), z, best)
    return best.reshape(grid.h, grid.w)
