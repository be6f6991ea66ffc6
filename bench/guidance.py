#!/usr/bin/env python3
"""Capture guidance: Fathom's motion tracker and face coverage against vectorised numpy.

Motion: 10^6 timestamped camera poses at 60 fps (constant dt = 16,666,667 ns), a walk around an object
with a speed that varies between ~2 and ~14 in/s, a heading that turns, and a camera that pans and tilts.
  fathom motion            fathom_motion_update_batch (reset first), one fathom_motion_state per pose
  fathom motion smoothed   the same with time_constant = 0.1 s
  numpy motion             velocity = np.diff(p) / dt, speed = |v|, angular speed = arctan2(|axial(R1^T R2)|,
                           tr(R1^T R2) - 1) / dt with einsum, guidance by np.select (the header's bands)
  numpy+scipy smoothed     the same, then the exponential filter v_k = v_{k-1} + alpha (raw_k - v_{k-1}) with
                           scipy.signal.lfilter (valid because dt, hence alpha, is constant); without scipy a
                           Python loop over the poses (said so in the output)
Coverage: 10^6 cameras orbiting a yaw-rotated box on a floor (radius 0.7-2.5 m, height 0.1-1.9 m), each
looking at a jittered point near the box; cells 4 x 4, bins 4 rings x 12 sectors on the upper hemisphere,
similarity check off (min_separation_angle = 0: it is sequential), no intrinsics, distance rules open.
  fathom coverage          fathom_coverage_record_batch (reset first), one fathom_view_result per view
  numpy coverage           optical axis -R[:, 2] into the box frame, slab test, entry face, hit point, cell,
                           equal-area bin, np.bincount for per-face / per-cell / per-bin counts

Every engine gets the same float32 poses; results are cross-checked (speeds, angular speeds, guidance per
pose; status/face/cell/bin per view; the count tables). Target: Fathom >= 20x numpy for each workload.

Usage: python guidance.py [--poses N] [--views N] [--repeat R] [--lib PATH]   (normally through `make -C bench`)
Exit status: 1 if the library could not be measured or results disagree beyond float rounding; with
FATHOM_BENCH_STRICT=1 also if a target bar fails.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import os
import sys
import time

import numpy as np

import benchlib as bl

# ------------------------------------------------------------------------------------------------
# The C ABI, declared here (self-contained: no dependency on the Python binding). Mirrors fathom.h.
# ------------------------------------------------------------------------------------------------


class Vec3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float)]


class Box(ctypes.Structure):  # fathom_box
    _fields_ = [("center", Vec3), ("scale", Vec3), ("rot_y", ctypes.c_float), ("floor", ctypes.c_float),
                ("has_floor", ctypes.c_int32)]


class CoverageOptions(ctypes.Structure):  # fathom_coverage_options
    _fields_ = [("goal", ctypes.c_uint32), ("cells", ctypes.c_uint32), ("rings", ctypes.c_uint32),
                ("sectors", ctypes.c_uint32), ("hemisphere", ctypes.c_int32), ("exclude_bottom", ctypes.c_int32),
                ("min_distance", ctypes.c_float), ("max_distance", ctypes.c_float), ("min_in_view", ctypes.c_float),
                ("min_separation_angle", ctypes.c_float), ("min_separation_distance", ctypes.c_float)]


class ViewResult(ctypes.Structure):  # fathom_view_result
    _fields_ = [("status", ctypes.c_uint32), ("face", ctypes.c_uint32), ("cell", ctypes.c_uint32),
                ("bin", ctypes.c_uint32), ("distance", ctypes.c_float), ("completed_face", ctypes.c_uint32)]


class MotionOptions(ctypes.Structure):  # fathom_motion_options
    _fields_ = [("time_constant", ctypes.c_float), ("slow_speed", ctypes.c_float), ("brisk_speed", ctypes.c_float),
                ("fast_speed", ctypes.c_float), ("slightly", ctypes.c_float), ("max_gap", ctypes.c_float),
                ("intervals", ctypes.c_float * 3)]


class MotionState(ctypes.Structure):  # fathom_motion_state
    _fields_ = [("timestamp", ctypes.c_int64), ("velocity", Vec3), ("speed", ctypes.c_float),
                ("angular_speed", ctypes.c_float), ("guidance", ctypes.c_uint32), ("capture_interval", ctypes.c_float),
                ("time_to_capture", ctypes.c_float), ("captured", ctypes.c_uint32), ("skipped", ctypes.c_uint32),
                ("restarted", ctypes.c_uint32)]


_vp = ctypes.c_void_p
_u32p = ctypes.POINTER(ctypes.c_uint32)
_PROTOTYPES = {
    "fathom_coverage_options_init": [ctypes.POINTER(CoverageOptions)],
    "fathom_coverage_create": [ctypes.POINTER(Box), ctypes.POINTER(CoverageOptions), ctypes.POINTER(_vp)],
    "fathom_coverage_record_batch": [_vp, _vp, ctypes.c_size_t, _vp, _vp],
    "fathom_coverage_cells": [_vp, ctypes.c_uint32, _u32p, ctypes.c_size_t],
    "fathom_coverage_bins": [_vp, _u32p, _vp, ctypes.c_size_t],
    "fathom_coverage_reset": [_vp],
    "fathom_motion_options_init": [ctypes.POINTER(MotionOptions)],
    "fathom_motion_create": [ctypes.POINTER(MotionOptions), ctypes.POINTER(_vp)],
    "fathom_motion_update_batch": [_vp, _vp, _vp, ctypes.c_size_t, _vp],
    "fathom_motion_reset": [_vp],
}


# The fathom_motion_state layout as a numpy dtype (offsets from ctypes, so they match the C struct).
STATE_DTYPE = np.dtype({
    "names": ["timestamp", "velocity", "speed", "angular_speed", "guidance"],
    "formats": [np.int64, (np.float32, 3), np.float32, np.float32, np.uint32],
    "offsets": [MotionState.timestamp.offset, MotionState.velocity.offset, MotionState.speed.offset,
                MotionState.angular_speed.offset, MotionState.guidance.offset],
    "itemsize": ctypes.sizeof(MotionState)})
VIEW_DTYPE = np.dtype({
    "names": ["status", "face", "cell", "bin", "distance"],
    "formats": [np.uint32, np.uint32, np.uint32, np.uint32, np.float32],
    "offsets": [ViewResult.status.offset, ViewResult.face.offset, ViewResult.cell.offset, ViewResult.bin.offset,
                ViewResult.distance.offset],
    "itemsize": ctypes.sizeof(ViewResult)})

# ------------------------------------------------------------------------------------------------
# Workloads
# ------------------------------------------------------------------------------------------------

SEED = 20240612
DT_NS = 16_666_667                      # 60 fps, constant
IN = 0.0254                             # m/s per in/s
SLOW, BRISK, FAST, SLIGHTLY = np.float32(5 * IN), np.float32(8 * IN), np.float32(10 * IN), np.float32(0.2)
TAU = 0.1                               # smoothing time constant, s
BOX_CENTER, BOX_SCALE, BOX_ROT = (0.2, 0.45, -1.5), (0.5, 0.9, 0.4), 0.4
CELLS, RINGS, SECTORS = 4, 4, 12


def rot_y(a):
    c, s = np.cos(a), np.sin(a)
    z, o = np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([c, z, s], -1), np.stack([z, o, z], -1), np.stack([-s, z, c], -1)], -2)


def rot_x(a):
    c, s = np.cos(a), np.sin(a)
    z, o = np.zeros_like(a), np.ones_like(a)
    return np.stack([np.stack([o, z, z], -1), np.stack([z, c, -s], -1), np.stack([z, s, c], -1)], -2)


def pack_poses(r: np.ndarray, t: np.ndarray) -> np.ndarray:
    """(n, 16) float32 column-major 4x4 poses from (n, 3, 3) row-major rotations and (n, 3) translations."""
    n = len(r)
    m = np.zeros((n, 4, 4), np.float64)          # m[k, col, row]
    m[:, :3, :3] = np.transpose(r, (0, 2, 1))
    m[:, 3, :3] = t
    m[:, 3, 3] = 1
    return np.ascontiguousarray(m.reshape(n, 16).astype(np.float32))


def make_walk(n: int):
    """Timestamps (int64 ns) and poses of a walk: speed 0.05-0.36 m/s, turning, camera panning and tilting."""
    rng = np.random.default_rng(SEED)
    t = np.arange(n, dtype=np.float64) * (DT_NS * 1e-9)
    speed = 0.2 + 0.12 * np.sin(2 * np.pi * t / 23) + 0.04 * np.sin(2 * np.pi * t / 3.1) \
        + 0.01 * rng.standard_normal(n)
    speed = np.clip(speed, 0.0, None)
    turn = 0.35 * np.sin(2 * np.pi * t / 17) + 0.2 * np.sin(2 * np.pi * t / 4.3)     # rad/s
    heading = np.cumsum(turn) * (DT_NS * 1e-9)
    step = speed * (DT_NS * 1e-9)
    pos = np.zeros((n, 3))
    pos[:, 0] = np.cumsum(step * np.cos(heading))
    pos[:, 2] = np.cumsum(step * np.sin(heading))
    pos[:, 1] = 1.4 + 0.05 * np.sin(2 * np.pi * t / 2.2)
    pos[:, [0, 2]] -= pos[:, [0, 2]].mean(axis=0)                                      # keep coordinates small
    yaw = -heading + 0.5 * np.sin(2 * np.pi * t / 7)
    pitch = -0.3 + 0.2 * np.sin(2 * np.pi * t / 5.3)
    r = np.einsum("nij,njk->nik", rot_y(yaw), rot_x(pitch))
    ts = np.arange(n, dtype=np.int64) * DT_NS + 1_000_000_000
    return ts, pack_poses(r, pos)


def make_views(n: int):
    """Cameras orbiting the box, each looking at a jittered point near it (some axes miss)."""
    rng = np.random.default_rng(SEED + 1)
    az = rng.uniform(0, 2 * np.pi, n)
    rad = rng.uniform(0.7, 2.5, n)
    h = rng.uniform(0.1, 1.9, n)
    eye = np.stack([BOX_CENTER[0] + rad * np.cos(az), h, BOX_CENTER[2] + rad * np.sin(az)], -1)
    target = np.asarray(BOX_CENTER) + rng.normal(0, 0.25, (n, 3)) * np.asarray(BOX_SCALE)
    fwd = target - eye
    fwd /= np.linalg.norm(fwd, axis=1, keepdims=True)
    z = -fwd
    x = np.cross(np.array([0.0, 1.0, 0.0]), z)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = np.cross(z, x)
    r = np.stack([x, y, z], -1)                  # columns x, y, z -> row-major (n, 3, 3)
    return pack_poses(r, eye)


# ------------------------------------------------------------------------------------------------
# numpy implementations
# ------------------------------------------------------------------------------------------------


def np_guidance(speed: np.ndarray) -> np.ndarray:
    return np.select([speed > FAST, speed < SLOW, speed < SLOW * (1 + SLIGHTLY), speed > FAST * (1 - SLIGHTLY)],
                     [5, 1, 2, 4], 3).astype(np.uint32)


def np_raw_motion(ts: np.ndarray, poses: np.ndarray):
    """Raw per-step velocity (float32), angular speed, for steps 1..n-1 (constant-or-not dt from the timestamps)."""
    m = poses.reshape(-1, 4, 4)                   # [k, col, row]
    dt = (np.diff(ts) * 1e-9).astype(np.float32)
    v = np.diff(m[:, 3, :3], axis=0) / dt[:, None]
    # R^T of pose k is m[k, :3, :3] as stored ([col][row]); rel = R_{k}^T R_{k+1}: rel[i, j] = sum_r R_k[r, i] R_{k+1}[r, j]
    r = m[:, :3, :3]                              # r[k, c, row] = R_k[row, c]
    rel = np.einsum("nir,njr->nij", r[:-1], r[1:])
    trace = rel[:, 0, 0] + rel[:, 1, 1] + rel[:, 2, 2]
    ax = np.stack([rel[:, 2, 1] - rel[:, 1, 2], rel[:, 0, 2] - rel[:, 2, 0], rel[:, 1, 0] - rel[:, 0, 1]], -1)
    ang = np.arctan2(np.sqrt(np.einsum("ij,ij->i", ax, ax)), trace - 1) / dt
    return v, ang, dt


def np_motion(ts, poses):
    v, ang, _ = np_raw_motion(ts, poses)
    speed = np.sqrt(np.einsum("ij,ij->i", v, v))
    return speed, ang, np_guidance(speed)


def np_motion_smoothed(ts, poses, lfilter):
    v, ang, dt = np_raw_motion(ts, poses)
    if lfilter is not None:
        alpha = 1 - math.exp(-float(dt[0]) / TAU)     # dt is constant (checked in main)
        b, a = [alpha], [1, -(1 - alpha)]
        x = np.concatenate([v, ang[:, None]], axis=1).astype(np.float64)
        # y_0 = x_0 (the first velocity is taken as it is); y_k = (1 - alpha) y_{k-1} + alpha x_k
        y = np.empty_like(x)
        y[0] = x[0]
        y[1:], _ = lfilter(b, a, x[1:], axis=0, zi=((1 - alpha) * x[0])[None, :])
    else:
        alphas = 1 - np.exp(-dt.astype(np.float64) / TAU)
        x = np.concatenate([v, ang[:, None]], axis=1).astype(np.float64)
        y = np.empty_like(x)
        y[0] = x[0]
        prev = x[0].copy()
        for k in range(1, len(x)):                    # a sequential filter: one Python step per pose
            prev += alphas[k] * (x[k] - prev)
            y[k] = prev
    speed = np.sqrt(np.einsum("ij,ij->i", y[:, :3], y[:, :3]))
    return speed.astype(np.float32), y[:, 3].astype(np.float32), np_guidance(speed.astype(np.float32))


def np_coverage(poses: np.ndarray):
    """Per view: hit (bool), face, cell, bin; and the per-face / per-cell / per-bin counts of the hits."""
    m = poses.reshape(-1, 4, 4)
    o = m[:, 3, :3]
    d = -m[:, 2, :3]
    d = d / np.sqrt(np.einsum("ij,ij->i", d, d))[:, None]
    c, s = np.float32(math.cos(BOX_ROT)), np.float32(math.sin(BOX_ROT))
    ry = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], np.float32)      # columns: the box's local axes in world
    centre = np.asarray(BOX_CENTER, np.float32)
    half = np.asarray(BOX_SCALE, np.float32) / 2
    ol = (o - centre) @ ry                        # R^T (o - c), row vectors
    dl = d @ ry
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1 / dl
        t0 = (-half - ol) * inv
        t1 = (half - ol) * inv
    tmin = np.minimum(t0, t1)
    tmax = np.maximum(t0, t1)
    axis = np.argmax(tmin, axis=1)
    tnear = np.take_along_axis(tmin, axis[:, None], 1)[:, 0]
    tfar = tmax.min(axis=1)
    inside = np.all(np.abs(ol) <= half, axis=1)
    hit = (tnear <= tfar) & (tnear >= 0) & ~inside
    # Entry face: along axis a through its -h side when the local direction is positive.
    positive = np.take_along_axis(dl, axis[:, None], 1)[:, 0] > 0
    face_of = np.array([[2, 1], [4, 3], [5, 0]])   # [axis][positive]: +h face when moving negative
    face = face_of[axis, positive.astype(np.int64)]
    p = (ol + tnear[:, None] * dl) / (2 * half)    # local / extent
    first = np.where(axis == 2, p[:, 0], np.where(axis == 0, p[:, 2], p[:, 0]))
    second = np.where(axis == 1, p[:, 2], p[:, 1])
    a = np.clip(np.floor((first + 0.5) * CELLS), 0, CELLS - 1).astype(np.int64)
    b = np.clip(np.floor((second + 0.5) * CELLS), 0, CELLS - 1).astype(np.int64)
    cell = b * CELLS + a
    to_cam = o - np.asarray([BOX_CENTER[0], BOX_CENTER[1], BOX_CENTER[2]], np.float32)
    u = to_cam / np.sqrt(np.einsum("ij,ij->i", to_cam, to_cam))[:, None]
    height = np.maximum(u[:, 1], 0)               # upper hemisphere (the box stands on a floor)
    ring = np.minimum(np.floor(height * RINGS), RINGS - 1).astype(np.int64)
    az = np.arctan2(u[:, 2], u[:, 0]) / np.float32(2 * np.pi)
    az = np.where(az < 0, az + 1, az)
    sector = np.minimum(np.floor(az * SECTORS), SECTORS - 1).astype(np.int64)
    binidx = ring * SECTORS + sector
    hf, hc, hb = face[hit], cell[hit], binidx[hit]
    face_counts = np.bincount(hf, minlength=6)
    cell_counts = np.bincount(hf * CELLS * CELLS + hc, minlength=6 * CELLS * CELLS)
    bin_counts = np.bincount(hb, minlength=RINGS * SECTORS)
    return hit, face, cell, binidx, face_counts, cell_counts, bin_counts


# ------------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--poses", type=int, default=1_000_000)
    ap.add_argument("--views", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=bl.default_repeat(), help="timed runs per engine (>= 7)")
    ap.add_argument("--lib", default=bl.library_path(), help="libfathom.so (default: $FATHOM_LIBRARY)")
    ap.add_argument("--variants", action="store_true", help="also time diagnostic variants (out = NULL, ...)")
    args = ap.parse_args()
    n, nv, repeat = args.poses, args.views, max(7, args.repeat)
    m = bl.machine_summary()
    print(f"guidance: {n:,} poses through the motion tracker, {nv:,} views through coverage; {repeat} timed runs "
          f"after warm-up; CPU {m['cpu']}, avx2 {bl._yn(m['avx2'])}, pinned to CPUs "
          f"{','.join(map(str, m['pinned_to']))}")
    if len(m["pinned_to"]) != 1:
        print("WARNING: not pinned to one core: run through `make -C bench` or `taskset -c 0`")
    try:
        from scipy.signal import lfilter
        import scipy
        smoothing_note = f"scipy {scipy.__version__} signal.lfilter (dt is constant, so alpha is)"
    except ImportError:
        lfilter = None
        smoothing_note = "scipy not installed: a Python loop over the poses (the filter is sequential)"

    t0 = time.perf_counter()
    ts, poses = make_walk(n)
    views = make_views(nv)
    assert np.all(np.diff(ts) == DT_NS)
    print(f"inputs: {poses.nbytes / 1e6:.0f} MB of poses + {ts.nbytes / 1e6:.0f} MB of timestamps; "
          f"{views.nbytes / 1e6:.0f} MB of view poses [{time.perf_counter() - t0:.1f} s, untimed]")
    print(f"smoothing reference: {smoothing_note}")

    problems: list[str] = []
    checks: dict[str, str] = {}
    results = {}

    try:
        lib = bl.load_fathom(args.lib)
        bl.declare(lib, _PROTOTYPES, {"fathom_coverage_destroy": [_vp], "fathom_motion_destroy": [_vp]})
    except (bl.FathomUnavailable, RuntimeError) as e:
        print(f"fathom: NOT MEASURED: {e}")
        return 1
    print(f"fathom {bl.fathom_version(lib)}: {args.lib}")

    # --- motion --------------------------------------------------------------------------------------
    def make_tracker(tau: float):
        o = MotionOptions()
        bl.check_status(lib, "fathom_motion_options_init", lib.fathom_motion_options_init(ctypes.byref(o)))
        o.time_constant = tau
        h = _vp()
        bl.check_status(lib, "fathom_motion_create", lib.fathom_motion_create(ctypes.byref(o), ctypes.byref(h)))
        return h

    raw_tracker, smooth_tracker = make_tracker(0.0), make_tracker(TAU)
    states = np.zeros(n, STATE_DTYPE)
    ts_p, poses_p, states_p = ts.ctypes.data, poses.ctypes.data, states.ctypes.data

    def fathom_motion(h, out=states_p):
        lib.fathom_motion_reset(h)
        st = lib.fathom_motion_update_batch(h, ts_p, poses_p, n, out)
        if st:
            bl.check_status(lib, "fathom_motion_update_batch", st)

    def compare_motion(label, speed, ang, guid):
        s_f, a_f, g_f = states["speed"][1:], states["angular_speed"][1:], states["guidance"][1:]
        ds = np.abs(s_f - speed) / np.maximum(speed, 1e-3)
        da = np.abs(a_f - ang) / np.maximum(ang, 1e-2)
        gd = np.flatnonzero(g_f != guid)
        thresholds = np.array([SLOW, SLOW * (1 + SLIGHTLY), FAST * (1 - SLIGHTLY), FAST], np.float32)
        near = np.min(np.abs(speed[gd, None] - thresholds[None, :]), axis=1) if len(gd) else np.zeros(0)
        text = (f"speed max rel diff {ds.max():.1e}, angular {da.max():.1e}; guidance differs at {len(gd)} poses"
                + (f" (all within {near.max():.1e} m/s of a threshold)" if len(gd) else ""))
        tol = 1e-4 if "smoothed" in label else 1e-5
        if ds.max() > tol or da.max() > 10 * tol or (len(gd) and near.max() > 1e-5) or states["guidance"][0] != 0:
            problems.append(f"{label}: {text}")
            text += "  <-- WRONG"
        checks[label] = text

    fathom_motion(raw_tracker)
    sp, an, gu = np_motion(ts, poses)
    compare_motion("motion (raw)", sp, an, gu)
    hist = np.bincount(states["guidance"], minlength=6)
    print("guidance mix (raw): " + ", ".join(f"{k} {v / n:.1%}" for k, v in
                                                zip(["unknown", "too slow", "slightly slow", "ok", "slightly fast",
                                                     "too fast"], hist)))
    fathom_motion(smooth_tracker)
    sp2, an2, gu2 = np_motion_smoothed(ts, poses, lfilter)
    compare_motion("motion (smoothed)", sp2, an2, gu2)

    motion_table = bl.Table(f"\nmotion tracker, {n / 1e6:g}M poses at 60 fps; median of {repeat} runs", "Mposes/s")
    fns = {"fathom motion": lambda: fathom_motion(raw_tracker),
           "fathom motion smoothed": lambda: fathom_motion(smooth_tracker),
           "numpy motion": lambda: np_motion(ts, poses)}
    if args.variants:
        fns["fathom motion, out = NULL"] = lambda: fathom_motion(raw_tracker, None)
    timings = bl.measure_interleaved(fns, repeat)
    if lfilter is not None:
        timings["numpy+scipy smoothed"] = bl.measure(lambda: np_motion_smoothed(ts, poses, lfilter), repeat)
    else:
        timings["numpy loop smoothed"] = bl.measure(lambda: np_motion_smoothed(ts, poses, None), 7, warmup=0)
    bytes_motion = poses.nbytes + ts.nbytes
    notes = {"fathom motion": f"fathom_motion_update_batch, writes {states.nbytes / 1e6:.0f} MB of states",
             "fathom motion smoothed": f"time_constant {TAU} s",
             "numpy motion": "np.diff, einsum R1^T R2 + arctan2, np.select",
             "numpy+scipy smoothed": "numpy motion + lfilter on (vx, vy, vz, w)",
             "numpy loop smoothed": "numpy motion + a Python loop filter",
             "fathom motion, out = NULL": "diagnostic: no states written"}
    for k, t in timings.items():
        motion_table.add(k, t, n, bytes_motion, notes.get(k, ""))
    motion_table.print("fathom motion")

    # --- coverage ------------------------------------------------------------------------------------
    box = Box(Vec3(*BOX_CENTER), Vec3(*BOX_SCALE), BOX_ROT, 0.0, 1)
    co = CoverageOptions()
    lib.fathom_coverage_options_init(ctypes.byref(co))
    co.cells, co.rings, co.sectors = CELLS, RINGS, SECTORS
    co.min_separation_angle = 0.0
    cov = _vp()
    bl.check_status(lib, "fathom_coverage_create", lib.fathom_coverage_create(ctypes.byref(box), ctypes.byref(co),
                                                                              ctypes.byref(cov)))
    out_views = np.zeros(nv, VIEW_DTYPE)
    views_p, out_p = views.ctypes.data, out_views.ctypes.data

    def fathom_coverage(out=out_p):
        lib.fathom_coverage_reset(cov)
        st = lib.fathom_coverage_record_batch(cov, views_p, nv, None, out)
        if st:
            bl.check_status(lib, "fathom_coverage_record_batch", st)

    fathom_coverage()
    f_cells = np.zeros(6 * CELLS * CELLS, np.uint32)
    for f in range(6):
        lib.fathom_coverage_cells(cov, f, f_cells[f * 16:].ctypes.data_as(_u32p), CELLS * CELLS)
    f_bins = np.zeros(RINGS * SECTORS, np.uint32)
    lib.fathom_coverage_bins(cov, f_bins.ctypes.data_as(_u32p), None, RINGS * SECTORS)
    f_faces = f_cells.reshape(6, -1).sum(axis=1)
    hit, face, cell, binidx, n_faces, n_cells, n_bins = np_coverage(views)
    counted = out_views["status"] == 0
    per_view = np.flatnonzero((counted != hit) | (counted & ((out_views["face"] != face) | (out_views["cell"] != cell)))
                              | (out_views["bin"] != binidx))
    text = (f"{int(counted.sum()):,} counted ({counted.mean():.1%}); per-view status/face/cell/bin differ at "
            f"{len(per_view)} views; face counts {'same' if np.array_equal(f_faces, n_faces) else 'DIFFER'}, "
            f"cell counts {'same' if np.array_equal(f_cells, n_cells) else 'differ by %d' % int(np.abs(f_cells.astype(np.int64) - n_cells).sum())}, "
            f"bin counts {'same' if np.array_equal(f_bins, n_bins) else 'differ by %d' % int(np.abs(f_bins.astype(np.int64) - n_bins).sum())}")
    if len(per_view) > nv * 1e-5:                   # more than edge/corner rounding cases
        problems.append(f"coverage: {text}")
        text += "  <-- WRONG"
    checks["coverage"] = text
    print("face counts (fathom): " + ", ".join(f"{nm} {c:,}" for nm, c in
                                               zip(["front", "left", "right", "bottom", "top", "back"], f_faces)))

    cov_table = bl.Table(f"\nface coverage, {nv / 1e6:g}M views (cells 4x4, 4x12 hemisphere bins); median of "
                         f"{repeat} runs", "Mviews/s")
    fns = {"fathom coverage": fathom_coverage, "numpy coverage": lambda: np_coverage(views)}
    if args.variants:
        fns["fathom coverage, out = NULL"] = lambda: fathom_coverage(None)
    timings = bl.measure_interleaved(fns, repeat)
    notes = {"fathom coverage": f"fathom_coverage_record_batch, writes {out_views.nbytes / 1e6:.0f} MB of results",
             "numpy coverage": "slab test, face/cell/bin, np.bincount",
             "fathom coverage, out = NULL": "diagnostic: no results written"}
    for k, t in timings.items():
        cov_table.add(k, t, nv, views.nbytes, notes.get(k, ""))
    cov_table.print("fathom coverage")

    # --- report --------------------------------------------------------------------------------------
    print("\nchecks (Fathom vs numpy on the same float32 inputs):")
    for k, v in checks.items():
        print(f"  {k:<20} {v}")

    print("\ntargets (medians):")

    def ratio_bar(key, table, ours, theirs, need):
        a, b = table.get(ours), table.get(theirs)
        x = b.timing.median / a.timing.median
        results[key] = bl.bar(f"{ours} >= {need:g}x {theirs}", x >= need,
                              f"{theirs} {b.timing.median * 1e3:.1f} ms / {ours} {a.timing.median * 1e3:.1f} ms = "
                              f"{x:.1f}x (need >= {need:g}x)")

    ratio_bar("motion_20x", motion_table, "fathom motion", "numpy motion", 20)
    smooth_ref = "numpy+scipy smoothed" if lfilter is not None else "numpy loop smoothed"
    ratio_bar("motion_smoothed_20x", motion_table, "fathom motion smoothed", smooth_ref, 20)
    ratio_bar("coverage_20x", cov_table, "fathom coverage", "numpy coverage", 20)

    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(f"  {p}")

    lib.fathom_motion_destroy(raw_tracker)
    lib.fathom_motion_destroy(smooth_tracker)
    lib.fathom_coverage_destroy(cov)
    path = bl.save_json("guidance", {"poses": n, "views": nv, "repeat": repeat, "smoothing_reference": smoothing_note,
                                     "motion_rows": motion_table.to_json(), "coverage_rows": cov_table.to_json(),
                                     "checks": checks, "targets": results, "problems": problems})
    print(f"\n(raw numbers: {os.path.relpath(path)})")
    if problems:
        return 1
    if bl.strict() and not all(results.values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
