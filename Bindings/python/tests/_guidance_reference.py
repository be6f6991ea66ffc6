"""Independent numpy references for capture guidance, written from include/fathom.h and
reference/capture-guidance.md / box.md only (never from the engine's output).

Float64 throughout, on the float32 values the engine is given. Where a result sits on a decision boundary
(a ray through an edge, a hit on a cell border), the functions report a margin so that tests can skip views
whose answer float rounding could flip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

FRONT, LEFT, RIGHT, BOTTOM, TOP, BACK = range(6)
NO_HIT = 0xFFFFFFFF
COUNTED, MISSED, TOO_CLOSE, TOO_FAR, OUT_OF_FRAME, TOO_SIMILAR = range(6)
UNKNOWN, TOO_SLOW, SLIGHTLY_SLOW, OK, SLIGHTLY_FAST, TOO_FAST = range(6)
INCH = 0.0254

# -- poses ------------------------------------------------------------------------------------------


def look_at(eye, target, up=(0.0, 1.0, 0.0)) -> np.ndarray:
    """A camera-to-world 4x4 (rows as rows) at ``eye`` whose optical axis (-z) points at ``target``."""
    eye, target, up = (np.asarray(v, np.float64) for v in (eye, target, up))
    forward = target - eye
    forward /= np.linalg.norm(forward)
    z = -forward
    x = np.cross(up, z)
    if np.linalg.norm(x) < 1e-9:  # looking straight up or down: any x perpendicular to z
        x = np.cross((1.0, 0.0, 0.0), z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x, y, z, eye
    return m


def rot_y(a: float) -> np.ndarray:
    """R_y(a) of reference/box.md."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_axis(axis, angle: float) -> np.ndarray:
    """Rodrigues' rotation matrix."""
    k = np.asarray(axis, np.float64)
    k = k / np.linalg.norm(k)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def rotation_angle(r1: np.ndarray, r2: np.ndarray) -> float:
    """The angle of R1^T R2, radians, from its axis part and trace (accurate at small angles too)."""
    r = r1.T @ r2
    v = np.array([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]])
    return math.atan2(np.linalg.norm(v), np.trace(r) - 1.0)


# -- the box ----------------------------------------------------------------------------------------


@dataclass
class RefBox:
    """The capture app's box after floor clamping: centre, half extents and yaw."""

    center: np.ndarray
    half: np.ndarray
    yaw: float

    @classmethod
    def of(cls, center, scale, yaw: float, floor: Optional[float] = None) -> "RefBox":
        c = np.asarray(center, np.float64).copy()
        s = np.asarray(scale, np.float64)
        lo, hi = c[1] - s[1] / 2, c[1] + s[1] / 2
        if floor is not None:
            lo = max(lo, floor)
        c[1] = (lo + hi) / 2
        half = np.array([s[0] / 2, (hi - lo) / 2, s[2] / 2])
        return cls(c, half, float(yaw))

    @property
    def R(self) -> np.ndarray:
        return rot_y(self.yaw)

    def corners(self) -> np.ndarray:
        signs = np.array([[-1, 1, -1], [1, 1, -1], [1, -1, -1], [-1, -1, -1],
                          [-1, 1, 1], [1, 1, 1], [1, -1, 1], [-1, -1, 1]], np.float64)
        return self.center + (signs * self.half) @ self.R.T


# Face of the slab crossed on entry: (axis, entering from the negative side) -> FATHOM_FACE_*.
_ENTRY_FACE = {(0, True): LEFT, (0, False): RIGHT, (1, True): BOTTOM, (1, False): TOP, (2, True): FRONT, (2, False): BACK}


@dataclass
class AxisHit:
    face: int  # FATHOM_FACE_* or NO_HIT
    distance: float
    point: np.ndarray  # world
    margin: float  # how far (meters along the ray) the entry slab is from the next one: small = near an edge


def cast_axis(box: RefBox, origin, direction) -> AxisHit:
    """The first face the ray origin + t * direction (t >= 0) meets, by the slab test in the box's frame.
    A camera inside the box (or a ray that misses) gives NO_HIT."""
    R = box.R
    o = R.T @ (np.asarray(origin, np.float64) - box.center)
    d = R.T @ np.asarray(direction, np.float64)
    d = d / np.linalg.norm(d)
    t_near = np.full(3, -np.inf)
    t_far = np.full(3, np.inf)
    for k in range(3):
        if abs(d[k]) < 1e-12:
            if abs(o[k]) > box.half[k]:
                return AxisHit(NO_HIT, 0.0, np.zeros(3), np.inf)
            continue
        a, b = (-box.half[k] - o[k]) / d[k], (box.half[k] - o[k]) / d[k]
        t_near[k], t_far[k] = min(a, b), max(a, b)
    enter, leave = t_near.max(), t_far.min()
    if enter > leave or leave < 0 or enter <= 0:  # miss, box behind, or camera inside
        return AxisHit(NO_HIT, 0.0, np.zeros(3), min(abs(enter - leave), abs(enter)))
    k = int(np.argmax(t_near))
    others = np.delete(t_near, k)
    margin = min(enter - others.max(), leave - enter)
    face = _ENTRY_FACE[(k, d[k] > 0)]
    return AxisHit(face, float(enter), box.center + R @ (o + enter * d), float(margin))


def cell_of(box: RefBox, point, face: int, cells: int) -> tuple[int, float]:
    """The header's cell index b * cells + a of a point on a face, and its distance (in cell units) to the nearest
    cell border (small: rounding could flip it)."""
    local = box.R.T @ (np.asarray(point, np.float64) - box.center) / (2 * box.half)
    first, second = {FRONT: (0, 1), BACK: (0, 1), LEFT: (2, 1), RIGHT: (2, 1), BOTTOM: (0, 2), TOP: (0, 2)}[face]

    def index(c: float) -> tuple[int, float]:
        x = (c + 0.5) * cells
        i = min(max(int(math.floor(x)), 0), cells - 1)
        inner = x - round(x) if 0 < round(x) < cells else np.inf  # borders between cells only
        return i, abs(inner)

    a, ma = index(local[first])
    b, mb = index(local[second])
    return b * cells + a, min(ma, mb)


def bin_of(direction, rings: int, sectors: int, hemisphere: bool) -> tuple[int, float]:
    """The header's equal-area bin (ring * sectors + sector) of a unit direction, and its margin (in bin units)."""
    d = np.asarray(direction, np.float64)
    d = d / np.linalg.norm(d)
    height = max(d[1], 0.0) if hemisphere else (d[1] + 1) / 2
    h = height * rings
    ring = min(int(math.floor(h)), rings - 1)
    az = math.atan2(d[2], d[0]) / (2 * math.pi) % 1.0
    s = az * sectors
    sector = min(int(math.floor(s)), sectors - 1)
    ring_margin = abs(h - round(h)) if 0 < round(h) < rings else np.inf
    if hemisphere and d[1] <= 0:
        ring_margin = np.inf  # every direction below the horizon is ring 0
    sector_margin = min(abs(s - round(s)), abs(s - round(s)))
    return ring * sectors + sector, min(ring_margin, sector_margin)


def bin_centres(rings: int, sectors: int, hemisphere: bool) -> np.ndarray:
    """(rings, sectors, 3) centre directions: height at the ring's middle, azimuth at the sector's middle."""
    y = (np.arange(rings) + 0.5) / rings
    if not hemisphere:
        y = 2 * y - 1
    az = (np.arange(sectors) + 0.5) / sectors * 2 * np.pi
    r = np.sqrt(np.maximum(1 - y * y, 0))
    return np.stack(np.broadcast_arrays(r[:, None] * np.cos(az), y[:, None], r[:, None] * np.sin(az)), axis=-1)


def in_view_fraction(box: RefBox, pose: np.ndarray, fx, fy, cx, cy, width, height) -> float:
    """Fraction of the 8 corners in front of the camera and inside [0, width] x [0, height] (pinhole, ARKit axes:
    u = cx + fx * x / -z, v = cy - fy * y / -z)."""
    R, t = pose[:3, :3], pose[:3, 3]
    p = (box.corners() - t) @ R  # camera frame: R^T (X - t)
    inside = 0
    for x, y, z in p:
        if z >= 0:
            continue
        u, v = cx + fx * x / -z, cy - fy * y / -z
        inside += 0 <= u <= width and 0 <= v <= height
    return inside / 8


@dataclass
class RefView:
    status: int
    face: int
    cell: int
    bin: int
    distance: float
    completed_face: int
    ambiguous: bool  # a decision within rounding of a boundary


class RefCoverage:
    """The header's coverage tracker, view by view."""

    def __init__(self, box: RefBox, *, floor: bool, goal=10, cells=4, rings=4, sectors=12, hemisphere=None,
                 exclude_bottom=None, min_distance=0.0, max_distance=np.inf, min_in_view=0.0,
                 min_separation_angle=math.radians(5), min_separation_distance=0.1) -> None:
        self.box, self.goal, self.cells, self.rings, self.sectors = box, goal, cells, rings, sectors
        self.hemisphere = floor if hemisphere is None else hemisphere
        self.exclude_bottom = floor if exclude_bottom is None else exclude_bottom
        self.min_distance, self.max_distance, self.min_in_view = min_distance, max_distance, min_in_view
        self.sep_angle, self.sep_distance = min_separation_angle, min_separation_distance
        self.counts = np.zeros(6, int)
        self.cell_counts = np.zeros((6, cells * cells), int)
        self.bin_counts = np.zeros(rings * sectors, int)
        self.memory: list[tuple[np.ndarray, np.ndarray]] = []
        self.reported = np.zeros(6, bool)
        self.last_distance: Optional[float] = None

    def record(self, pose: np.ndarray, intrinsics=None, eps: float = 1e-4) -> RefView:
        origin, axis = pose[:3, 3], -pose[:3, 2]
        to_camera = origin - self.box.center
        b, bmargin = bin_of(to_camera, self.rings, self.sectors, self.hemisphere)
        hit = cast_axis(self.box, origin, axis)
        if hit.face == NO_HIT:
            return RefView(MISSED, NO_HIT, 0, b, 0.0, NO_HIT, bmargin < eps or hit.margin < eps)
        cell, cmargin = cell_of(self.box, hit.point, hit.face, self.cells)
        ambiguous = bmargin < eps or cmargin < eps or hit.margin < eps
        view = RefView(COUNTED, hit.face, cell, b, hit.distance, NO_HIT, ambiguous)
        if hit.distance < self.min_distance:
            view.status = TOO_CLOSE
            return view
        if hit.distance > self.max_distance:
            view.status = TOO_FAR
            return view
        if intrinsics is not None and self.min_in_view > 0:
            if in_view_fraction(self.box, pose, *intrinsics) < self.min_in_view:
                view.status = OUT_OF_FRAME
                return view
        direction = to_camera / np.linalg.norm(to_camera)
        if self.sep_angle > 0 and self.sep_distance > 0:
            cos = math.cos(self.sep_angle)
            for p, d in self.memory:
                if np.linalg.norm(p - origin) < self.sep_distance and d @ direction > cos:
                    view.status = TOO_SIMILAR
                    return view
            self.memory.append((origin, direction))
        self.counts[hit.face] += 1
        self.cell_counts[hit.face, cell] += 1
        self.bin_counts[b] += 1
        self.last_distance = float(np.linalg.norm(to_camera))
        if self.counts[hit.face] >= self.goal and not self.reported[hit.face]:
            self.reported[hit.face] = True
            view.completed_face = hit.face
        return view


def face_colour(count: int, goal: int) -> tuple[float, np.ndarray, float, bool]:
    """progress, colour, opacity, complete by the app's formulas (reference/capture-guidance.md)."""
    progress = min(count / goal, 1.0)
    colour = (1 - progress) * np.array([1.0, 1.0, 0.0]) + progress * np.array([0.0, 1.0, 1.0])
    complete = count >= goal
    opacity = 0.0 if progress >= 1 else 0.25 + 0.5 * progress
    return progress, colour, opacity, complete


def next_view_bins(counts: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The candidates of the header's rule: the bins with the fewest views, and each one's smallest angle
    (radians) to a bin holding a view (pi when none holds one)."""
    c = counts.reshape(-1)
    dirs = centres.reshape(-1, 3)
    candidates = np.flatnonzero(c == c.min())
    covered = dirs[c > 0]
    if len(covered) == 0:
        return candidates, np.full(len(candidates), np.pi)
    cos = np.clip(dirs[candidates] @ covered.T, -1, 1)
    return candidates, np.arccos(cos).min(axis=1)


# -- motion -----------------------------------------------------------------------------------------


@dataclass
class MotionSettings:
    time_constant: float = 0.0
    slow: float = 5 * INCH
    brisk: float = 8 * INCH
    fast: float = 10 * INCH
    slightly: float = 0.2
    max_gap: float = 0.5
    intervals: tuple[float, float, float] = (1.0, 2.0, 3.0)


def guidance_of(speed: float, o: MotionSettings) -> int:
    if speed > o.fast:
        return TOO_FAST
    if speed < o.slow:
        return TOO_SLOW
    if speed < o.slow * (1 + o.slightly):
        return SLIGHTLY_SLOW
    if speed > o.fast * (1 - o.slightly):
        return SLIGHTLY_FAST
    return OK


def interval_after(speed: Optional[float], current: float, o: MotionSettings) -> float:
    """The app's policy: [brisk, fast) -> 1 s; [slow, brisk) -> 2 s; below slow -> 3 s; at or above fast: unchanged."""
    if speed is None or speed >= o.fast:
        return current
    if speed >= o.brisk:
        return o.intervals[0]
    if speed >= o.slow:
        return o.intervals[1]
    return o.intervals[2]


def motion_reference(timestamps: np.ndarray, poses: np.ndarray, o: MotionSettings) -> dict[str, np.ndarray]:
    """The header's motion tracker over (N,) int ns timestamps and (N, 4, 4) poses (non-decreasing times):
    per update velocity, speed, angular speed, guidance, capture interval, time to capture and the flags."""
    n = len(timestamps)
    out = {k: np.zeros(n) for k in ("speed", "angular_speed", "capture_interval", "time_to_capture")}
    out["velocity"] = np.zeros((n, 3))
    for k in ("guidance", "captured", "skipped", "restarted", "timestamp"):
        out[k] = np.zeros(n, np.int64)
    vel, ang, has_speed = np.zeros(3), 0.0, False
    guidance, interval = UNKNOWN, o.intervals[2]
    last_t, last_pose = int(timestamps[0]), poses[0]
    next_capture = int(timestamps[0]) + round(o.intervals[2] * 1e9)
    for i in range(n):
        t = int(timestamps[i])
        captured = skipped = restarted = 0
        if i > 0 and t == last_t:
            skipped = 1
        elif i > 0:
            dt = (t - last_t) * 1e-9
            if dt > o.max_gap:
                restarted, has_speed = 1, False
                vel, ang, guidance = np.zeros(3), 0.0, UNKNOWN
            else:
                v = (poses[i][:3, 3] - last_pose[:3, 3]) / dt
                w = rotation_angle(last_pose[:3, :3], poses[i][:3, :3]) / dt
                if has_speed and o.time_constant > 0:
                    alpha = 1 - math.exp(-dt / o.time_constant)
                    vel, ang = vel + alpha * (v - vel), ang + alpha * (w - ang)
                else:
                    vel, ang = v, w
                has_speed = True
                guidance = guidance_of(float(np.linalg.norm(vel)), o)
            last_t, last_pose = t, poses[i]
            if t >= next_capture:
                captured = 1
                interval = interval_after(float(np.linalg.norm(vel)) if has_speed else None, interval, o)
                next_capture = t + round(interval * 1e9)
        out["timestamp"][i] = last_t
        out["velocity"][i] = vel
        out["speed"][i] = np.linalg.norm(vel)
        out["angular_speed"][i] = ang
        out["guidance"][i] = guidance
        out["capture_interval"][i] = interval
        out["time_to_capture"][i] = (next_capture - last_t) * 1e-9
        out["captured"][i], out["skipped"][i], out["restarted"][i] = captured, skipped, restarted
    return out


def nearest_rank(values: np.ndarray, percent: int) -> float:
    """The nearest-rank percentile: the ceil(percent / 100 * n)-th smallest value (integer arithmetic)."""
    s = np.sort(values)
    rank = max(-(-percent * len(s) // 100), 1)
    return float(s[rank - 1])


def select_reference(poses: np.ndarray, min_distance: float, min_angle: float) -> list[int]:
    """The header's greedy frame selection, as a plain Python loop."""
    kept = [0]
    last = poses[0]
    for i in range(1, len(poses)):
        p = poses[i]
        if np.linalg.norm(p[:3, 3] - last[:3, 3]) >= min_distance or rotation_angle(last[:3, :3], p[:3, :3]) >= min_angle:
            kept.append(i)
            last = p
    return kept
