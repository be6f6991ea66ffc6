"""A scene of known geometry rendered as an iPhone LiDAR capture, independently of the library (numpy only).

A floor (y = 0) and an upright box standing on it; a camera walking a circle around the box while looking
at it, with ARKit-like poses (float32, nearly rigid), timestamps 1/60 s apart with jitter, z-depth with
distance-dependent noise, and flying pixels at depth edges marked with confidence 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

RGB_SIZE = (1920, 1440)
DEPTH_SIZE = (256, 192)
RGB_K = np.array([[1600.0, 0.0, 960.0], [0.0, 1600.0, 720.0], [0.0, 0.0, 1.0]])


@dataclass
class Scene:
    center: np.ndarray      # box centre (x, z on the floor; y = half height)
    scale: np.ndarray       # box extents (x, y, z) in its own frame
    rot_y: float            # box yaw about +y

    def box_axes(self) -> np.ndarray:
        c, s = math.cos(self.rot_y), math.sin(self.rot_y)
        # Columns: the box's local x, y, z in world (R_y(a) * e_i).
        return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def look_at(eye: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Camera-to-world (ARKit axes: x right, y up, looking along -z)."""
    back = eye - target
    back /= np.linalg.norm(back)
    right = np.cross([0.0, 1.0, 0.0], back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = right, up, back, eye
    return m


def trajectory(n: int, radius: float = 0.9, height: float = 0.7, turns: float = 1.0, rate: float = 60.0,
               target=(0.0, 0.1, 0.0), seed: int = 0):
    """n timestamps (int64 ns) and camera-to-world poses (float32, ARKit-like drift) around `target`."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) / rate + rng.normal(0, 0.0005, n).cumsum() * 0.01
    ts = (t * 1e9).astype(np.int64) + 280670466266040
    ts = np.maximum.accumulate(ts)
    poses = []
    for i in range(n):
        a = 2 * math.pi * turns * i / n
        eye = np.array([radius * math.cos(a), height + 0.05 * math.sin(3 * a), radius * math.sin(a)])
        eye += rng.normal(0, 0.002, 3)
        m = look_at(eye, np.asarray(target, float) + rng.normal(0, 0.01, 3))
        m[:3, :3] += rng.normal(0, 2e-5, (3, 3))          # float32 drift: only nearly rigid
        poses.append(m.astype(np.float32))
    return ts, np.array(poses)


def render(scene: Scene, pose: np.ndarray, size=DEPTH_SIZE, k=RGB_K, rgb_size=RGB_SIZE):
    """Exact z-depth (float64) of the floor and the box at the centres of the depth grid's samples, and a
    mask of the box's pixels."""
    w, h = size
    sx, sy = w / rgb_size[0], h / rgb_size[1]
    fx, fy, cx, cy = k[0, 0] * sx, k[1, 1] * sy, k[0, 2] * sx, k[1, 2] * sy
    u, v = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    d_opt = np.stack([(u - cx) / fx, (v - cy) / fy, np.ones_like(u)], -1)     # z = 1: t is the z-depth
    d_cam = d_opt * np.array([1.0, -1.0, -1.0])
    r = pose[:3, :3].astype(np.float64)
    o = pose[:3, 3].astype(np.float64)
    d = d_cam @ r.T
    t = np.full((h, w), np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        tf = -o[1] / d[..., 1]
    t = np.where((tf > 0) & np.isfinite(tf), tf, t)
    axes = scene.box_axes()
    ol = (o - scene.center) @ axes
    dl = d @ axes
    half = scene.scale / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (-half - ol) / dl
        t2 = (half - ol) / dl
    tmin = np.nanmax(np.minimum(t1, t2), -1)
    tmax = np.nanmin(np.maximum(t1, t2), -1)
    hit = (tmax >= tmin) & (tmin > 0)
    on_box = hit & (tmin < t)
    t = np.where(on_box, tmin, t)
    return t, on_box


def capture(scene: Scene, n: int = 120, noise: float = 0.002, flying: float = 0.02, seed: int = 0, **traj):
    """Timestamps, poses, intrinsics (N, 3, 3), float16 depths and uint8 confidences of a capture."""
    rng = np.random.default_rng(seed)
    ts, poses = trajectory(n, seed=seed, **traj)
    depths, confs = [], []
    for pose in poses:
        t, on_box = render(scene, pose)
        valid = np.isfinite(t) & (t < 10)
        depth = np.where(valid, t, 0.0)
        depth = depth + rng.normal(0, 1, depth.shape) * noise * np.maximum(depth, 0.3) ** 2
        conf = np.where(valid, 2, 0).astype(np.uint8)
        conf[valid & (rng.random(depth.shape) < 0.05)] = 1
        # Flying pixels at the box's silhouette: depths between the box and the background, confidence 0.
        edge = on_box ^ np.roll(on_box, 1, 1) | on_box ^ np.roll(on_box, 1, 0)
        fly = edge & (rng.random(depth.shape) < 0.5) | (rng.random(depth.shape) < flying * 0.1)
        depth[fly] *= rng.uniform(0.6, 1.4, fly.sum())
        conf[fly] = 0
        depths.append(depth.astype(np.float16))
        confs.append(conf)
    ks = np.repeat(RGB_K[None], n, 0)
    return ts, poses, ks, np.array(depths), np.array(confs)
