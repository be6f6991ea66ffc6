"""Indoor iPhone LiDAR captures of rooms of known geometry, rendered with numpy independently of the library.

A scene is a room (an upright box whose interior holds the camera: floor at y = 0, ceiling, four walls) and
solid upright boxes standing in it (furniture, the object of interest, clutter). A depth sample is the nearest
hit along its ray among the solid boxes' entries and the room's exit. Four builders give scenes with the ground
truth a capture report's estimates are checked against (floor, support, ceiling, the circled object's box):

- `room_walkthrough`: a camera held nearly level walks along the room looking at a wall with desks;
- `object_on_table`: an object on a 0.75 m table, circled from above the table;
- `object_on_floor`: an object on the floor, circled, a chair-sized box nearby;
- `two_objects`: two objects on the floor 0.7-0.9 m apart, one of them circled.

Conventions (as _scene.py). World: metres, +y up (gravity aligned), floor at y = 0, the room at a random yaw
and the origin near the first camera position (as ARKit's). Cameras: ARKit axes (x right, y up, looking along
-z), 4x4 camera-to-world poses. RGB intrinsics for 1920 x 1440 (fx = fy = 1600, cx = 960, cy = 720); depth
256 x 192 with the intrinsics scaled by 256 / 1920 and 192 / 1440, z-depth at the sample centres
(u + 0.5, v + 0.5); timestamps int64 nanoseconds. Depths are rendered from the true poses; the capture's
poses are what ARKit would report: drifting by 1-3 cm along the path, float32, only nearly rigid.

Writers: `write_scanner` (the library's own scan files, through fathom.write_scan) and `write_stray` (a Stray
Scanner folder written here, PNGs from `encode_png`, without the library).
"""

from __future__ import annotations

import math
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Tuple, Union

import numpy as np

RGB_SIZE = (1920, 1440)          # (width, height) of the image the intrinsics refer to
DEPTH_SIZE = (256, 192)          # (width, height) of the depth grid
RGB_K = np.array([[1600.0, 0.0, 960.0], [0.0, 1600.0, 720.0], [0.0, 0.0, 1.0]])
RATE = 60.0                      # frames per second
MAX_RANGE = 5.0                  # metres: no return (depth 0, confidence 0) beyond
TIME_ORIGIN_NS = 280_670_466_266_040   # seconds since boot, as ARKit's clock, of a capture's first frame

# Labels of rendered samples that are not a solid box (boxes are labelled by their index in Scene.boxes).
FLOOR, CEILING, WALL, NOTHING = -1, -2, -3, -4

ARKIT_TO_OPENCV = np.diag([1.0, -1.0, -1.0, 1.0])   # pose_opencv = pose_arkit @ ARKIT_TO_OPENCV (an involution)


# --------------------------------------------------------------------------------------------------- geometry


def rot_y(a: float) -> np.ndarray:
    """3x3 rotation by `a` radians about +y (x towards -z)."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_x(a: float) -> np.ndarray:
    """3x3 rotation by `a` radians about +x (a camera's -z towards +y: positive looks up)."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_z(a: float) -> np.ndarray:
    """3x3 rotation by `a` radians about +z."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class Box:
    """An upright box (metres, world frame): `center`, full `extents` along its own x, y, z, and `yaw` radians
    about +y (its axes are the columns of rot_y(yaw))."""

    center: np.ndarray
    extents: np.ndarray
    yaw: float = 0.0
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "center", np.array(self.center, dtype=np.float64).reshape(3))
        object.__setattr__(self, "extents", np.array(self.extents, dtype=np.float64).reshape(3))
        object.__setattr__(self, "yaw", float(self.yaw))

    @property
    def half(self) -> np.ndarray:
        return self.extents / 2

    @property
    def bottom(self) -> float:
        """Height (y, m) of the bottom face."""
        return float(self.center[1] - self.extents[1] / 2)

    @property
    def top(self) -> float:
        """Height (y, m) of the top face."""
        return float(self.center[1] + self.extents[1] / 2)

    def axes(self) -> np.ndarray:
        """3x3 whose columns are the box's x, y, z axes in world."""
        return rot_y(self.yaw)

    def corners(self) -> np.ndarray:
        """(8, 3) world corners; corner i has local signs (x, y, z) = bits (2, 1, 0) of i (0 = minus)."""
        signs = np.array([[(i >> 2) & 1, (i >> 1) & 1, i & 1] for i in range(8)], dtype=np.float64) * 2 - 1
        return self.center + (signs * self.half) @ self.axes().T

    def to_local(self, points: np.ndarray) -> np.ndarray:
        """World points (..., 3) in the box's frame (origin at the centre)."""
        return (np.asarray(points, dtype=np.float64) - self.center) @ self.axes()

    def distance(self, points: np.ndarray) -> np.ndarray:
        """Euclidean distance (m) from world points (..., 3) to the solid box (0 inside)."""
        q = np.abs(self.to_local(points)) - self.half
        return np.linalg.norm(np.maximum(q, 0.0), axis=-1)

    def moved(self, yaw: float, offset: np.ndarray) -> "Box":
        """The box after the world motion p -> rot_y(yaw) p + offset."""
        return Box(rot_y(yaw) @ self.center + offset, self.extents, self.yaw + yaw, self.name)


@dataclass
class Capture:
    """A rendered capture of N frames.

    timestamps (N,) int64 ns, strictly increasing, 1/60 s apart with sub-ms jitter except the dropped frames
    (`skipped`: indices i whose gap from frame i - 1 is two periods); poses (N, 4, 4) float32 camera-to-world,
    ARKit axes, as reported (drifting, nearly rigid); intrinsics (N, 3, 3) float64 RGB; depths (N, 192, 256)
    float32 metres (0 = no return); confidences (N, 192, 256) uint8 (0, 1, 2). Ground truth: true_poses
    (N, 4, 4) float64 (rigid, what was rendered), drift (N, 3) the reported minus the true positions (m),
    labels (N, 192, 256) int16 the surface of each sample before noise (box index, FLOOR, CEILING, WALL or
    NOTHING).
    """

    timestamps: np.ndarray
    poses: np.ndarray
    intrinsics: np.ndarray
    depths: np.ndarray
    confidences: np.ndarray
    true_poses: np.ndarray
    drift: np.ndarray
    labels: np.ndarray
    skipped: np.ndarray

    def __len__(self) -> int:
        return int(self.timestamps.shape[0])

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(timestamps, poses, intrinsics, depths, confidences), as the library's writers take them."""
        return self.timestamps, self.poses, self.intrinsics, self.depths, self.confidences

    def frames(self, index: Union[slice, np.ndarray, List[int]]) -> "Capture":
        """The capture of the chosen frames (in increasing order); `skipped` lists the gaps over two periods."""
        i = np.arange(len(self))[index]
        ts = self.timestamps[i]
        skipped = np.nonzero(np.diff(ts) > 1.5e9 / RATE)[0] + 1
        return Capture(ts, self.poses[i], self.intrinsics[i], self.depths[i], self.confidences[i],
                       self.true_poses[i], self.drift[i], self.labels[i], skipped)


@dataclass
class Scene:
    """A room scene and its capture. Heights are metres in world y. `boxes` are the solid boxes (the target among
    them, at `target_index`); `support_height` is the height of what the target stands on (the table top, or
    0 for the floor; None without a target)."""

    name: str
    boxes: List[Box]
    room: Box
    capture: Capture
    floor_height: float = 0.0
    ceiling_height: float = 0.0
    support_height: Optional[float] = None
    target: Optional[Box] = None
    target_index: Optional[int] = None
    notes: dict = field(default_factory=dict)


# --------------------------------------------------------------------------------------------------- rendering


def depth_intrinsics(size=DEPTH_SIZE, k=RGB_K, rgb_size=RGB_SIZE) -> np.ndarray:
    """3x3 intrinsics of the depth grid: the RGB ones scaled by width and height ratios."""
    sx, sy = size[0] / rgb_size[0], size[1] / rgb_size[1]
    return np.array([[k[0, 0] * sx, 0.0, k[0, 2] * sx], [0.0, k[1, 1] * sy, k[1, 2] * sy], [0.0, 0.0, 1.0]])


def camera_rays(size=DEPTH_SIZE, k=RGB_K, rgb_size=RGB_SIZE) -> np.ndarray:
    """(H, W, 3) ray directions in ARKit camera axes through the depth samples' centres, scaled to optical
    depth 1 (camera z = -1), so that a hit's ray parameter is its z-depth."""
    kd = depth_intrinsics(size, k, rgb_size)
    u, v = np.meshgrid(np.arange(size[0]) + 0.5, np.arange(size[1]) + 0.5)
    return np.stack([(u - kd[0, 2]) / kd[0, 0], -(v - kd[1, 2]) / kd[1, 1], -np.ones_like(u)], -1)


def _inverse(x: np.ndarray) -> np.ndarray:
    """1 / x with zeros taken as 1e-300 (a ray parallel to a slab gets parameters of +-1e300, never NaN)."""
    return 1.0 / np.where(x == 0.0, 1e-300, x)


def _slab(o: np.ndarray, inv: Tuple[np.ndarray, np.ndarray, np.ndarray], half: np.ndarray, exit_axis: bool = False):
    """Ray/box slabs in the box's frame: entry and exit parameters of the rays o + t d given the inverses of
    d's three components, and with `exit_axis` the axis (0, 1, 2) of the exit face (else None)."""
    near = far = axis = None
    for k in range(3):
        t1 = (-half[k] - o[k]) * inv[k]
        t2 = (half[k] - o[k]) * inv[k]
        lo, hi = np.minimum(t1, t2), np.maximum(t1, t2)
        if k == 0:
            near, far = lo, hi
            axis = np.zeros(hi.shape, np.int8) if exit_axis else None
        else:
            near = np.maximum(near, lo)
            if exit_axis:
                axis[hi < far] = k
            far = np.minimum(far, hi)
    return near, far, axis


def _screen_rect(box: Box, r: np.ndarray, o: np.ndarray, kd: np.ndarray, size) -> Optional[Tuple[slice, slice]]:
    """Rows and columns of the depth grid the box can cover (its corners' bounding rectangle, one sample of
    margin), the whole grid when it straddles the camera plane, None when it is wholly behind."""
    c = (box.corners() - o) @ r              # camera coordinates (ARKit axes)
    z = -c[:, 2]
    if (z <= 1e-9).all():
        return None
    w, h = size
    if (z <= 1e-3).any():
        return slice(0, h), slice(0, w)
    u = kd[0, 0] * c[:, 0] / z + kd[0, 2]
    v = kd[1, 2] - kd[1, 1] * c[:, 1] / z
    j0, j1 = max(int(math.floor(u.min() - 0.5)) - 1, 0), min(int(math.ceil(u.max() - 0.5)) + 2, w)
    i0, i1 = max(int(math.floor(v.min() - 0.5)) - 1, 0), min(int(math.ceil(v.max() - 0.5)) + 2, h)
    if j0 >= j1 or i0 >= i1:
        return None
    return slice(i0, i1), slice(j0, j1)


def render(boxes: List[Box], room: Optional[Box], pose: np.ndarray, size=DEPTH_SIZE, k=RGB_K,
           rgb_size=RGB_SIZE, rays: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Exact z-depth (H, W) float64 metres (inf where nothing is hit) of a camera-to-world `pose` (ARKit axes)
    at the depth samples' centres, and the (H, W) int16 labels: the index of the box hit, or FLOOR, CEILING,
    WALL (the room's inside, seen when the camera is in it) or NOTHING."""
    if rays is None:
        rays = camera_rays(size, k, rgb_size)
    kd = depth_intrinsics(size, k, rgb_size)
    pose = np.asarray(pose, dtype=np.float64)
    r, o = pose[:3, :3], pose[:3, 3]
    d = rays @ r.T
    dx, dy, dz = d[..., 0], d[..., 1], d[..., 2]
    inv_y = _inverse(dy)                      # every box is upright: its local y is the world's
    h, w = rays.shape[:2]
    depth = np.full((h, w), np.inf)
    label = np.full((h, w), NOTHING, dtype=np.int16)

    def local(box: Box, rect=(slice(None), slice(None))):
        """The camera centre and the inverse ray components (over `rect`) in the box's frame."""
        c, s = math.cos(box.yaw), math.sin(box.yaw)
        x, z = dx[rect], dz[rect]
        inv = (_inverse(x * c - z * s), inv_y[rect], _inverse(x * s + z * c))
        return (o - box.center) @ box.axes(), inv

    if room is not None:
        ol, inv = local(room)
        if (np.abs(ol) < room.half).all():
            _, depth, axis = _slab(ol, inv, room.half, exit_axis=True)
            label[:] = WALL
            vertical = axis == 1
            label[vertical & (dy < 0)] = FLOOR
            label[vertical & (dy > 0)] = CEILING
    for i, box in enumerate(boxes):
        rect = _screen_rect(box, r, o, kd, (w, h))
        if rect is None:
            continue
        near, far, _ = _slab(*local(box, rect), box.half)
        dv, lv = depth[rect], label[rect]     # views
        hit = (near <= far) & (near > 0) & (near < dv)
        np.copyto(dv, near, where=hit)
        lv[hit] = i
    return depth, label


def _neighbour_range(depth: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Minimum and maximum of each sample and its four neighbours."""
    p = np.pad(depth, 1, mode="edge")
    stack = np.stack([depth, p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]])
    return stack.min(0), stack.max(0)


def lidar(depth: np.ndarray, rng: np.random.Generator, noise: float = 0.002, flying: float = 0.5,
          low_confidence: float = 0.03, max_range: float = MAX_RANGE) -> Tuple[np.ndarray, np.ndarray]:
    """LiDAR-like float32 depth (m, 0 = no return) and uint8 confidence from an exact z-depth map.

    Gaussian noise of sigma noise * max(d, 0.3)^2; samples next to a depth discontinuity (a jump over 3 cm +
    5 % between 4-neighbours) become flying pixels with probability `flying`: depths between the foreground and
    the background, confidence 0; others confidence 2, with about `low_confidence` of them (more far away) 1;
    no return beyond `max_range`.
    """
    valid = np.isfinite(depth) & (depth <= max_range)
    d = np.where(np.isfinite(depth), depth, 0.0)
    lo, hi = _neighbour_range(np.where(np.isfinite(depth), depth, 2 * max_range))
    edge = np.isfinite(depth) & (hi - lo > 0.03 + 0.05 * lo)
    fly = edge & (rng.random(d.shape) < flying)
    out = d + rng.standard_normal(d.shape) * noise * np.maximum(d, 0.3) ** 2
    out[fly] = lo[fly] + rng.uniform(0.15, 0.85, int(fly.sum())) * (hi[fly] - lo[fly])
    conf = np.full(d.shape, 2, dtype=np.uint8)
    conf[rng.random(d.shape) < low_confidence * (0.5 + 1.5 * (np.minimum(d, max_range) / max_range) ** 2)] = 1
    conf[fly] = 0
    none = ~valid | (out > max_range) | (out <= 0)
    out[none] = 0.0
    conf[none] = 0
    return out.astype(np.float32), conf


# --------------------------------------------------------------------------------------------------- motion


def look_at(eye: np.ndarray, target: np.ndarray, roll: float = 0.0) -> np.ndarray:
    """4x4 camera-to-world (ARKit axes) at `eye` looking at `target`, level, then rolled by `roll` radians."""
    back = np.asarray(eye, float) - np.asarray(target, float)
    back /= np.linalg.norm(back)
    right = np.cross([0.0, 1.0, 0.0], back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    m = np.eye(4)
    m[:3, :3] = np.stack([right, up, back], 1) @ rot_z(roll)
    m[:3, 3] = eye
    return m


def timeline(n: int, rng: np.random.Generator, rate: float = RATE) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frame times: (timestamps int64 ns, seconds since the first frame float64, indices of the frames whose
    predecessor gap is two periods). 2-4 dropped frames (none under 20 frames), jitter under 0.8 ms."""
    steps = np.ones(n)
    steps[0] = 0.0
    skipped = np.zeros(0, dtype=np.int64)
    if n >= 20:
        skipped = np.sort(rng.choice(np.arange(5, n - 3), int(rng.integers(2, 5)), replace=False))
        steps[skipped] = 2.0
    t = np.cumsum(steps) / rate + np.clip(rng.normal(0.0, 0.0003, n), -0.0008, 0.0008)
    t -= t[0]
    origin = TIME_ORIGIN_NS + int(rng.integers(0, 10**9))
    return origin + np.round(t * 1e9).astype(np.int64), t, skipped


def _wobble(rng: np.random.Generator, t: np.ndarray, amplitude: float, lo: float = 0.2, hi: float = 1.5,
            terms: int = 3) -> np.ndarray:
    """A smooth hand-held wobble of about `amplitude` at times t (s): a sum of sinusoids of lo..hi Hz."""
    f = rng.uniform(lo, hi, terms)
    phase = rng.uniform(0, 2 * math.pi, terms)
    weight = rng.uniform(0.5, 1.0, terms)
    s = (weight[:, None] * np.sin(2 * math.pi * f[:, None] * t + phase[:, None])).sum(0)
    return amplitude * s / weight.sum()


def _report(true_poses: np.ndarray, rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray]:
    """ARKit-like reported poses (float32, rotation perturbed by ~2e-5, not re-orthonormalised) drifting by a
    random walk of 1-3 cm at most (vertical drift a third of horizontal); and the drift (N, 3)."""
    n = len(true_poses)
    walk = np.cumsum(rng.normal(0.0, 1.0, (n, 3)) * [1.0, 0.3, 1.0], 0)
    walk -= walk[0]
    peak = np.linalg.norm(walk, axis=1).max()
    drift = walk * (rng.uniform(0.01, 0.03) / peak) if peak > 0 else walk
    poses = true_poses.copy()
    poses[:, :3, 3] += drift
    poses[:, :3, :3] += rng.normal(0.0, 2e-5, (n, 3, 3))
    return poses.astype(np.float32), drift


def _circle(rng: np.random.Generator, t: np.ndarray, center: np.ndarray, radius: float, height: float,
            start: float, span: float) -> np.ndarray:
    """True poses circling `center` (looking at it) at horizontal `radius` and eye height `height`, from angle
    `start` over `span` radians (signed), with hand-held wobble."""
    u = t / t[-1] if t[-1] > 0 else t
    a = start + span * u
    rr = radius + _wobble(rng, t, 0.03)
    eye = np.stack([center[0] + rr * np.cos(a), height + _wobble(rng, t, 0.03), center[2] + rr * np.sin(a)], 1)
    eye += np.stack([_wobble(rng, t, 0.001, 3.0, 8.0) for _ in range(3)], 1)      # tremor
    aim = center + np.stack([_wobble(rng, t, 0.01) for _ in range(3)], 1)
    roll = _wobble(rng, t, math.radians(2.0))
    return np.array([look_at(e, g, q) for e, g, q in zip(eye, aim, roll)])


def _clear(eyes: np.ndarray, boxes: List[Box], room: Box, box_margin: float = 0.2, room_margin: float = 0.3) -> bool:
    """Whether every eye is at least `room_margin` inside the room and `box_margin` away from every box."""
    if (np.abs(room.to_local(eyes)) > room.half - room_margin).any():
        return False
    return all((b.distance(eyes) >= box_margin).all() for b in boxes)


def _inside(box: Box, room: Box, margin: float = 0.02) -> bool:
    """Whether the box is in the room, `margin` from the walls (it may stand on the floor)."""
    q = np.abs(room.to_local(box.corners()))
    return bool((q[:, [0, 2]] <= room.half[[0, 2]] - margin).all() and (q[:, 1] <= room.half[1] + 1e-9).all())


# --------------------------------------------------------------------------------------------------- furniture


def _table(x: float, z: float, width: float, depth: float, height: float, yaw: float, name: str = "table",
           top: float = 0.03, leg: float = 0.05) -> List[Box]:
    """A table whose top surface is at `height`: a top slab width x top x depth and four legs under its corners."""
    a = rot_y(yaw)
    out = [Box([x, height - top / 2, z], [width, top, depth], yaw, f"{name} top")]
    for sx in (-1, 1):
        for sz in (-1, 1):
            p = a @ np.array([sx * (width / 2 - leg), 0.0, sz * (depth / 2 - leg)])
            out.append(Box([x + p[0], (height - top) / 2, z + p[2]], [leg, height - top, leg], yaw, f"{name} leg"))
    return out


def _room(rng: np.random.Generator, length=(4.7, 5.3), width=(3.8, 4.3)) -> Box:
    """The room in its own frame: centred on the origin, floor at y = 0, ceiling 2.4-2.8 m."""
    size = [rng.uniform(*length), rng.uniform(2.4, 2.8), rng.uniform(*width)]
    return Box([0.0, size[1] / 2, 0.0], size, 0.0, "room")


def _cabinet(rng: np.random.Generator, room: Box) -> Box:
    """A tall cabinet against one of the room's end walls (x = +-length / 2)."""
    e = [rng.uniform(0.4, 0.5), rng.uniform(1.6, 2.0), rng.uniform(0.7, 0.9)]
    side = rng.choice([-1.0, 1.0])
    x = side * (room.extents[0] / 2 - e[0] / 2 - 0.02)
    z = rng.uniform(-1, 1) * (room.extents[2] / 2 - e[2] / 2 - 0.3)
    return Box([x, e[1] / 2, z], e, 0.0, "cabinet")


def _place(boxes: List[Box], room: Box, poses: np.ndarray, rng: np.random.Generator):
    """The room-frame scene moved to a world at a random yaw with the origin near the first camera (floor stays
    at y = 0)."""
    yaw = rng.uniform(-math.pi, math.pi)
    eye = rot_y(yaw) @ poses[0, :3, 3]
    jitter = rng.normal(0.0, 0.05, 2)
    offset = np.array([jitter[0] - eye[0], 0.0, jitter[1] - eye[2]])
    m = np.eye(4)
    m[:3, :3], m[:3, 3] = rot_y(yaw), offset
    return [b.moved(yaw, offset) for b in boxes], room.moved(yaw, offset), m @ poses


def _render_capture(boxes: List[Box], room: Box, true_poses: np.ndarray, timestamps: np.ndarray,
                    skipped: np.ndarray, rng: np.random.Generator) -> Capture:
    n = len(true_poses)
    rays = camera_rays()
    w, h = DEPTH_SIZE
    depths = np.empty((n, h, w), np.float32)
    confs = np.empty((n, h, w), np.uint8)
    labels = np.empty((n, h, w), np.int16)
    for i, pose in enumerate(true_poses):
        z, labels[i] = render(boxes, room, pose, rays=rays)
        depths[i], confs[i] = lidar(z, rng)
    poses, drift = _report(true_poses, rng)
    ks = np.repeat(RGB_K[None], n, 0)
    return Capture(timestamps, poses, ks, depths, confs, true_poses, drift, labels, skipped)


def _build(name: str, attempt: Callable[[np.random.Generator, np.ndarray], tuple], seed: int, n: int) -> Scene:
    """Samples scenes and camera paths until the path is clear of the boxes, then places and renders them."""
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])    # scenes of one seed differ
    timestamps, t, skipped = timeline(n, rng)
    for _ in range(200):
        boxes, room, poses, support, target_index = attempt(rng, t)
        if _clear(poses[:, :3, 3], boxes, room) and all(_inside(b, room) for b in boxes):
            break
    else:  # pragma: no cover - the samplers are made to succeed well before
        raise RuntimeError(f"{name}: no clear camera path found for seed {seed}")
    boxes, room, poses = _place(boxes, room, poses, rng)
    capture = _render_capture(boxes, room, poses, timestamps, skipped, rng)
    target = None if target_index is None else boxes[target_index]
    return Scene(name, boxes, room, capture, 0.0, room.top, support, target, target_index)


# --------------------------------------------------------------------------------------------------- scenes


def room_walkthrough(seed: int = 0, n: int = 150) -> Scene:
    """A walk along a ~5 x 4 m room, the camera at 1.3-1.6 m held nearly level (pitch 2-7 degrees down, within
    +-10 with wobble) looking sideways at the far long wall with a desk, a chair, a cabinet and a storage box
    against or near it. The floor is seen only far away, at grazing angles; no target, no support."""

    def attempt(rng, t):
        room = _room(rng)
        hl, hw = room.extents[0] / 2, room.extents[2] / 2
        desk_w = rng.uniform(1.2, 1.6)
        desk_x = rng.uniform(-hl + desk_w / 2 + 0.3, 0.2)
        boxes = _table(desk_x, -hw + 0.37, desk_w, 0.7, 0.75, 0.0, "desk")
        chair = [rng.uniform(0.42, 0.5), rng.uniform(0.85, 0.95), rng.uniform(0.42, 0.5)]
        boxes.append(Box([desk_x + rng.uniform(-0.3, 0.3), chair[1] / 2, -hw + 0.95 + rng.uniform(0, 0.2)], chair,
                         rng.uniform(-0.5, 0.5), "chair"))
        cab = [rng.uniform(0.7, 0.9), rng.uniform(1.6, 2.0), 0.45]
        boxes.append(Box([rng.uniform(desk_x + desk_w / 2 + cab[0] / 2 + 0.2, hl - cab[0] / 2 - 0.1), cab[1] / 2,
                          -hw + 0.25], cab, 0.0, "cabinet"))
        store = [rng.uniform(0.3, 0.45), rng.uniform(0.25, 0.35), rng.uniform(0.3, 0.4)]
        boxes.append(Box([rng.uniform(-hl + 0.5, hl - 0.5), store[1] / 2, -hw + rng.uniform(1.2, 1.6)], store,
                         rng.uniform(-0.8, 0.8), "storage box"))
        u = t / t[-1] if t[-1] > 0 else t
        direction = rng.choice([-1.0, 1.0])
        x = direction * (hl - 0.7) * (2 * u - 1) + _wobble(rng, t, 0.05)
        z = hw - rng.uniform(0.55, 0.8) + _wobble(rng, t, 0.05)
        y = rng.uniform(1.3, 1.6) + 0.012 * np.sin(2 * math.pi * 1.8 * t) + _wobble(rng, t, 0.02)
        yaw = rng.uniform(-0.15, 0.15) + _wobble(rng, t, math.radians(8))
        pitch = np.clip(-math.radians(rng.uniform(2, 7)) + _wobble(rng, t, math.radians(1.5)),
                        -math.radians(10), math.radians(10))
        roll = _wobble(rng, t, math.radians(1.5))
        poses = np.repeat(np.eye(4)[None], len(t), 0)
        for i in range(len(t)):
            poses[i, :3, :3] = rot_y(yaw[i]) @ rot_x(pitch[i]) @ rot_z(roll[i])
        poses[:, :3, 3] = np.stack([x, y, z], 1)
        return boxes, room, poses, None, None

    return _build("room_walkthrough", attempt, seed, n)


def object_on_table(seed: int = 0, n: int = 150) -> Scene:
    """A 0.1-0.3 m box at a random yaw on a 0.75 m table (1.1-1.3 x 0.75-0.85 m top slab, four legs) with one
    or two small things farther along the table; the camera circles the box 0.5-0.8 m away horizontally,
    0.3-0.6 m above the table top, over 200-330 degrees, looking at its centre. support_height = 0.75."""
    height = 0.75

    def attempt(rng, t):
        room = _room(rng)
        tw, td = rng.uniform(1.1, 1.3), rng.uniform(0.75, 0.85)
        tx, tz, tyaw = rng.uniform(-0.4, 0.4), rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
        boxes = _table(tx, tz, tw, td, height, tyaw)
        a = rot_y(tyaw)
        e = rng.uniform(0.1, 0.3, 3)
        p = np.array([rng.uniform(-0.2, 0.2), 0.0, rng.uniform(-0.1, 0.1)])
        c = np.array([tx, 0.0, tz]) + a @ p
        target_index = len(boxes)
        boxes.append(Box([c[0], height + e[1] / 2, c[2]], e, rng.uniform(-math.pi, math.pi), "target"))
        for j in range(int(rng.integers(1, 3))):
            for _ in range(100):
                s = rng.uniform(0.05, 0.12, 3)
                q = np.array([rng.uniform(-1, 1) * (tw / 2 - 0.1), 0.0, rng.uniform(-1, 1) * (td / 2 - 0.1)])
                far = np.hypot(*(q - p)[[0, 2]]) >= 0.35 + 0.1 * j
                if far and all(np.hypot(*(a @ q + [tx, 0, tz] - b.center)[[0, 2]]) > 0.2 for b in boxes[5:]):
                    break
            w = np.array([tx, 0.0, tz]) + a @ q
            boxes.append(Box([w[0], height + s[1] / 2, w[2]], s, rng.uniform(-math.pi, math.pi), "clutter"))
        boxes.append(_cabinet(rng, room))
        centre = boxes[target_index].center
        span = math.radians(rng.uniform(200, 330)) * rng.choice([-1.0, 1.0])
        poses = _circle(rng, t, centre, rng.uniform(0.5, 0.8), height + rng.uniform(0.3, 0.6),
                        rng.uniform(-math.pi, math.pi), span)
        return boxes, room, poses, height, target_index

    return _build("object_on_table", attempt, seed, n)


def _floor_circle(rng: np.random.Generator, t: np.ndarray, centre: np.ndarray, avoid: float) -> np.ndarray:
    """A circle over 200-330 degrees around `centre` (0.8-1.2 m radius, eye 0.6-1.2 m high) whose gap faces the
    direction `avoid` (radians in the x-z plane, angle measured as in _circle)."""
    span = math.radians(rng.uniform(200, 330))
    gap = 2 * math.pi - span
    direction = rng.choice([-1.0, 1.0])
    start = avoid + direction * (gap / 2 + rng.uniform(-gap / 4, gap / 4))
    return _circle(rng, t, centre, rng.uniform(0.8, 1.2), rng.uniform(0.6, 1.2), start, direction * span)


def object_on_floor(seed: int = 0, n: int = 150) -> Scene:
    """A 0.2-0.5 m box on the floor circled 0.8-1.2 m away, the camera 0.6-1.2 m high, over 200-330 degrees
    (the gap towards the clutter); a chair-sized box 1-1.5 m from it; a cabinet at an end wall.
    support_height = 0."""

    def attempt(rng, t):
        room = _room(rng)
        e = rng.uniform(0.2, 0.5, 3)
        c = np.array([rng.uniform(-0.4, 0.4), e[1] / 2, rng.uniform(-0.3, 0.3)])
        boxes = [Box(c, e, rng.uniform(-math.pi, math.pi), "target")]
        phi, dist = rng.uniform(-math.pi, math.pi), rng.uniform(1.0, 1.5)
        chair = [rng.uniform(0.42, 0.5), rng.uniform(0.8, 0.95), rng.uniform(0.42, 0.5)]
        boxes.append(Box([c[0] + dist * math.cos(phi), chair[1] / 2, c[2] + dist * math.sin(phi)], chair,
                         rng.uniform(-math.pi, math.pi), "chair"))
        boxes.append(_cabinet(rng, room))
        return boxes, room, _floor_circle(rng, t, c, phi), 0.0, 0

    return _build("object_on_floor", attempt, seed, n)


def two_objects(seed: int = 0, n: int = 150) -> Scene:
    """Two 0.2-0.45 m boxes on the floor 0.7-0.9 m apart (centres); the camera circles the target (boxes[0])
    as in object_on_floor, the gap of its arc towards the other box. support_height = 0."""

    def attempt(rng, t):
        room = _room(rng)
        e = rng.uniform(0.2, 0.45, 3)
        c = np.array([rng.uniform(-0.4, 0.4), e[1] / 2, rng.uniform(-0.3, 0.3)])
        boxes = [Box(c, e, rng.uniform(-math.pi, math.pi), "target")]
        phi, dist = rng.uniform(-math.pi, math.pi), rng.uniform(0.7, 0.9)
        f = rng.uniform(0.2, 0.45, 3)
        boxes.append(Box([c[0] + dist * math.cos(phi), f[1] / 2, c[2] + dist * math.sin(phi)], f,
                         rng.uniform(-math.pi, math.pi), "other"))
        boxes.append(_cabinet(rng, room))
        return boxes, room, _floor_circle(rng, t, c, phi), 0.0, 0

    return _build("two_objects", attempt, seed, n)


BUILDERS = {"room_walkthrough": room_walkthrough, "object_on_table": object_on_table,
            "object_on_floor": object_on_floor, "two_objects": two_objects}


# --------------------------------------------------------------------------------------------------- rotations


def nearest_rotation(m: np.ndarray) -> np.ndarray:
    """The rotation(s) nearest to 3x3 matrices m (..., 3, 3) in the Frobenius norm (SVD)."""
    u, _, vt = np.linalg.svd(np.asarray(m, dtype=np.float64))
    s = np.ones(u.shape[:-1])
    s[..., -1] = np.sign(np.linalg.det(u @ vt))
    return (u * s[..., None, :]) @ vt


def quaternion_from_matrix(m: np.ndarray) -> np.ndarray:
    """Unit quaternions (..., 4) as (x, y, z, w) of the rotations nearest to m (..., 3, 3) (Shepperd's method on
    the nearest rotation, so nearly rigid matrices are fine). The sign is whatever the method gives."""
    r = nearest_rotation(m)
    shape = r.shape[:-2]
    r = r.reshape(-1, 3, 3)
    tr = np.trace(r, axis1=1, axis2=2)
    diag = np.diagonal(r, axis1=1, axis2=2)
    case = np.argmax(np.concatenate([diag, tr[:, None]], 1), 1)   # 0..2: x, y or z largest; 3: w largest
    q = np.empty((len(r), 4))
    for k in range(3):
        s = case == k
        i, j, l = k, (k + 1) % 3, (k + 2) % 3
        sub = r[s]
        t = np.sqrt(np.maximum(1.0 + 2 * sub[:, i, i] - sub[:, 0, 0] - sub[:, 1, 1] - sub[:, 2, 2], 1e-300)) * 2
        qq = np.empty((s.sum(), 4))
        qq[:, i] = t / 4
        qq[:, j] = (sub[:, j, i] + sub[:, i, j]) / t
        qq[:, l] = (sub[:, l, i] + sub[:, i, l]) / t
        qq[:, 3] = (sub[:, l, j] - sub[:, j, l]) / t
        q[s] = qq
    s = case == 3
    sub = r[s]
    t = np.sqrt(1.0 + tr[s]) * 2
    q[s] = np.stack([(sub[:, 2, 1] - sub[:, 1, 2]) / t, (sub[:, 0, 2] - sub[:, 2, 0]) / t,
                     (sub[:, 1, 0] - sub[:, 0, 1]) / t, t / 4], 1)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q.reshape(shape + (4,))


def matrix_from_quaternion(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (..., 3, 3) of quaternions (..., 4) given as (x, y, z, w) (normalised here)."""
    q = np.asarray(q, dtype=np.float64)
    x, y, z, w = np.moveaxis(q / np.linalg.norm(q, axis=-1, keepdims=True), -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def _rotation_vector(r: np.ndarray) -> np.ndarray:
    """Rotation vectors (..., 3) (axis * angle, radians) of rotations r (..., 3, 3) with angles below pi."""
    c = np.clip((np.trace(r, axis1=-2, axis2=-1) - 1) / 2, -1.0, 1.0)
    angle = np.arccos(c)
    v = np.stack([r[..., 2, 1] - r[..., 1, 2], r[..., 0, 2] - r[..., 2, 0], r[..., 1, 0] - r[..., 0, 1]], -1) / 2
    s = np.sin(angle)
    scale = np.where(s > 1e-12, angle / np.where(s > 1e-12, s, 1.0), 1.0)
    return v * scale[..., None]


# --------------------------------------------------------------------------------------------------- PNG


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray, filter: Union[str, int] = "adaptive", idat_size: int = 1 << 16,
               level: int = 6) -> bytes:
    """A PNG file of a uint8 or uint16 image: (H, W) grayscale, (H, W, 3) RGB or (H, W, 4) RGBA, 16-bit samples
    big-endian as PNG stores them. Per-row filter: an int 0-4 for every row, "cycle" (row i uses i % 5) or
    "adaptive" (the one with the least sum of |signed bytes|, as libpng chooses). The zlib stream is split into
    IDAT chunks of at most `idat_size` bytes. No interlace."""
    a = np.asarray(image)
    if a.dtype == np.uint8:
        bits, be = 8, a
    elif a.dtype == np.uint16:
        bits, be = 16, a.astype(">u2")
    else:
        raise TypeError(f"PNG samples must be uint8 or uint16, got {a.dtype}")
    if a.ndim == 2:
        color, channels = 0, 1
    elif a.ndim == 3 and a.shape[2] in (3, 4):
        color, channels = (2, 6)[a.shape[2] - 3], a.shape[2]
    else:
        raise ValueError(f"image must be (H, W), (H, W, 3) or (H, W, 4), got shape {a.shape}")
    h, w = a.shape[:2]
    if h == 0 or w == 0:
        raise ValueError("an empty image has no PNG")
    raw = np.ascontiguousarray(be).view(np.uint8).reshape(h, -1).astype(np.int16)
    bpp = channels * bits // 8
    left = np.zeros_like(raw)
    left[:, bpp:] = raw[:, :-bpp]
    up = np.zeros_like(raw)
    up[1:] = raw[:-1]
    upleft = np.zeros_like(raw)
    upleft[1:, bpp:] = raw[:-1, :-bpp]
    p = left + up - upleft
    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - upleft)
    paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
    cand = (np.stack([raw, raw - left, raw - up, raw - (left + up) // 2, raw - paeth]) & 0xFF).astype(np.uint8)
    rows = np.arange(h)
    if isinstance(filter, (int, np.integer)) and not isinstance(filter, bool):
        if not 0 <= filter <= 4:
            raise ValueError(f"PNG filter types are 0-4, got {filter}")
        kinds = np.full(h, int(filter))
    elif filter == "cycle":
        kinds = rows % 5
    elif filter == "adaptive":
        kinds = np.abs(cand.view(np.int8).astype(np.int64)).sum(2).argmin(0)
    else:
        raise ValueError(f"filter must be 0-4, 'cycle' or 'adaptive', got {filter!r}")
    body = np.concatenate([kinds[:, None].astype(np.uint8), cand[kinds, rows]], 1)
    stream = zlib.compress(body.tobytes(), level)
    out = [b"\x89PNG\r\n\x1a\n", _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, color, 0, 0, 0))]
    out += [_png_chunk(b"IDAT", stream[i:i + idat_size]) for i in range(0, len(stream), idat_size)]
    out.append(_png_chunk(b"IEND", b""))
    return b"".join(out)


# --------------------------------------------------------------------------------------------------- writers


def depth_mm(capture: Capture) -> np.ndarray:
    """The capture's depths as uint16 millimetres (what both writers store): round(d * 1000), 0 = none."""
    return np.round(np.clip(capture.depths.astype(np.float64), 0.0, 65.535) * 1000).astype(np.uint16)


def write_scanner(folder: Union[str, os.PathLike], name: str, capture: Capture) -> str:
    """Writes the capture with the library's own writer (fathom.write_scan), depth as uint16 millimetres;
    returns the metadata path (what fathom.Scan.open takes)."""
    import fathom  # lazily: the module itself works without the library

    os.makedirs(folder, exist_ok=True)
    return fathom.write_scan(str(folder), name, capture.timestamps, capture.poses.astype(np.float64),
                             capture.intrinsics, depth_mm(capture), capture.confidences)


def _seconds(ns: int) -> str:
    """Integer nanoseconds as seconds with 9 decimals, exactly."""
    sign = "-" if ns < 0 else ""
    ns = abs(int(ns))
    return f"{sign}{ns // 1_000_000_000}.{ns % 1_000_000_000:09d}"


def _imu_rows(capture: Capture) -> List[str]:
    """One IMU row a frame: CoreMotion-like acceleration (gravity + motion, m/s^2, the device frame taken as
    the ARKit camera axes; at rest the down axis reads -9.81) and angular velocity (rad/s) from the true poses."""
    t = (capture.timestamps - capture.timestamps[0]) / 1e9
    r = capture.true_poses[:, :3, :3]
    p = capture.true_poses[:, :3, 3]
    n = len(t)
    rows = []
    if n < 3:
        return rows
    dt = np.diff(t)
    omega = _rotation_vector(np.einsum("nji,njk->nik", r[:-1], r[1:])) / dt[:, None]     # body frame
    omega = np.concatenate([omega, omega[-1:]])
    v = np.diff(p, axis=0) / dt[:, None]
    acc = np.zeros_like(p)
    acc[1:-1] = np.diff(v, axis=0) / ((dt[1:] + dt[:-1]) / 2)[:, None]
    reading = np.einsum("nji,nj->ni", r, np.array([0.0, -9.81, 0.0]) - acc)
    rng = np.random.default_rng(int(capture.timestamps[0]) % (2**32))
    reading += rng.normal(0, 0.02, reading.shape)
    omega = omega + rng.normal(0, 0.002, omega.shape)
    for i in range(n):
        values = ", ".join(f"{x:.9f}" for x in np.concatenate([reading[i], omega[i]]))
        rows.append(f"{_seconds(int(capture.timestamps[i]))}, {values}")
    return rows


def write_stray(folder: Union[str, os.PathLike], capture: Capture, newer: bool = False,
                drop_png: Iterable[int] = (), cut_png: Iterable[int] = (), png_filter: Union[str, int] = "adaptive"
                ) -> Path:
    """Writes a Stray Scanner folder, without the library; returns its path.

    camera_matrix.csv (the first frame's 3x3 RGB intrinsics, a row a line, comma separated); odometry.csv with
    `timestamp, frame, x, y, z, qx, qy, qz, qw` (seconds with 9 decimals on the capture's clock, frame
    000000..., the reported pose camera-to-world in OpenCV camera axes = ARKit pose @ diag(1, -1, -1, 1), the
    quaternion of its nearest rotation), with `newer` also `fx, fy, cx, cy` (RGB pixels) a frame;
    depth/NNNNNN.png 16-bit grayscale millimetres (depth_mm); confidence/NNNNNN.png 8-bit 0/1/2; imu.csv
    `timestamp, a_x, a_y, a_z, alpha_x, alpha_y, alpha_z`. No rgb.mp4. Damage: `drop_png` frames lose their
    depth PNG, `cut_png` frames' depth PNGs are cut to half their length.
    """
    root = Path(folder)
    (root / "depth").mkdir(parents=True, exist_ok=True)
    (root / "confidence").mkdir(exist_ok=True)
    k = np.asarray(capture.intrinsics[0], dtype=np.float64)
    (root / "camera_matrix.csv").write_text("".join(",".join(repr(float(x)) for x in row) + "\n" for row in k))
    cv = capture.poses.astype(np.float64) @ ARKIT_TO_OPENCV
    q = quaternion_from_matrix(cv[:, :3, :3])
    header = "timestamp, frame, x, y, z, qx, qy, qz, qw" + (", fx, fy, cx, cy" if newer else "")
    lines = [header]
    for i in range(len(capture)):
        values = list(cv[i, :3, 3]) + list(q[i])
        if newer:
            ki = capture.intrinsics[i]
            values += [ki[0, 0], ki[1, 1], ki[0, 2], ki[1, 2]]
        lines.append(f"{_seconds(int(capture.timestamps[i]))}, {i:06d}, " + ", ".join(f"{x:.9f}" for x in values))
    (root / "odometry.csv").write_text("\n".join(lines) + "\n")
    imu = ["timestamp, a_x, a_y, a_z, alpha_x, alpha_y, alpha_z"] + _imu_rows(capture)
    (root / "imu.csv").write_text("\n".join(imu) + "\n")
    mm = depth_mm(capture)
    for i in range(len(capture)):
        (root / "depth" / f"{i:06d}.png").write_bytes(encode_png(mm[i], png_filter))
        (root / "confidence" / f"{i:06d}.png").write_bytes(encode_png(capture.confidences[i], png_filter))
    for i in drop_png:
        (root / "depth" / f"{int(i):06d}.png").unlink()
    for i in cut_png:
        path = root / "depth" / f"{int(i):06d}.png"
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    return root


if __name__ == "__main__":  # a quick look: timings and what each scene's camera sees
    import time

    for key, build in BUILDERS.items():
        start = time.perf_counter()
        sc = build(0)
        took = time.perf_counter() - start
        lab = sc.capture.labels
        print(f"{key:17s} {took:5.2f} s  floor {np.mean(lab == FLOOR):6.1%}  ceiling {np.mean(lab == CEILING):6.1%}"
              f"  no return {np.mean(sc.capture.depths == 0):6.1%}  conf0 {np.mean(sc.capture.confidences == 0):5.1%}"
              f"  target {np.mean(lab == (sc.target_index if sc.target_index is not None else -99)):6.1%}")
