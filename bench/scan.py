#!/usr/bin/env python3
"""Scans and reports: reading the scanner app's capture files, and a capture turned into a box, against
Python's zlib, python-isal and an Open3D pipeline, in one run pinned to one core (README.md, "scan.py").

Inputs: the numpy renderer of Bindings/python/tests/_scene.py (a floor and an upright box of known size;
a camera circling it at 60 fps, float32 ARKit-like poses, z-depth with distance-dependent noise, flying pixels
with confidence 0), 354 frames (a 6-second capture) of 256x192 float16 depth + uint8 confidence, written by
fathom.ScanWriter (raw DEFLATE, `<id>.depth.zlib`, `<id>.confidence.zlib`, `<id>.jsonl`, `<id>.json`).

1. Inflating the whole depth stream (a depth-only copy of the scan, whose `.depth.zlib` is byte-identical):
     fathom open + depth(i) all     fathom.Scan.open + scan.depth(i) for every frame in order
     fathom open only               fathom.Scan.open: one inflate pass over the stream to index its frames
     fathom depth(i) all, open      every frame in order, the scan opened beforehand
     fathom C open + read all       fathom_scan_open + fathom_scan_read_depth into one preallocated buffer
     fathom index while reading     the same two, the scan opened with index_while_reading (Python and C): the
                                    stream indexed as it is read, one inflate
     zlib / isal                    zlib.decompress(b, -15) and isal_zlib.decompress(b, -15) of the same bytes
   Random access: 100 random frames (fixed seed): scan.depth(i), against inflating from the start of the
   stream up to frame i each time (decompressobj(-15).decompress(b, (i + 1) * frame_bytes)); 7 rounds, the three
   back to back in each.
2. The report of the 354-frame scan: fathom.scan_report(path), end to end including open (and the C ABI),
   against Open3D 0.20 on one thread: jsonl + both streams read (isal), the frames our report fuses (moved 5 cm or
   turned 5 degrees since the last fused one), samples of confidence >= 2 and depth <= 3 m,
   PointCloud.create_from_depth_image per frame, voxel_down_sample(0.01), segment_plane(0.02, 3, 300),
   floor inliers and points < 2 cm above the floor removed, cluster_dbscan(0.03, 10), the cluster nearest the
   point the cameras look at, its upright box of least footprint (Open3D's minimal OBB of the cluster's
   footprint), reaching down to the floor. The boxes are compared with each other and with the true box.
3. Peak resident memory of a process that only reads a 36,000-frame scan (3.5 GB of depth inflated): open,
   every frame in order (depth and confidence), 200 random frames. The scan is generated into a temporary
   folder by cycling the 354 rendered frames (new timestamps) and deleted afterwards. --quick (or
   FATHOM_BENCH_QUICK=1) skips this part (about 3 minutes).

Usage: python scan.py [--repeat R] [--lib PATH] [--quick] [--memory-frames N] [--random-frames N] [--tmp DIR]
Exit status: 1 if the library could not be measured or gave wrong results (frames that differ from what was
written, no box); with FATHOM_BENCH_STRICT=1 also if a target bar fails.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

import benchlib as bl

ROOT = bl.HERE.parent
BINDING = ROOT / "Bindings" / "python"
SCENE_DIR = BINDING / "tests"

SEED = 20240612
N_FRAMES = 354                      # a 6-second capture at 60 fps
W, H = 256, 192
FRAME_BYTES = W * H * 2             # float16 depth
CONF_BYTES = W * H
SCAN_ID = "20240612_101500_bench"
# The scene: box centre (x, half height, z), full extents (x, y, z) in its own frame, yaw about +y (radians).
BOX_CENTER, BOX_SCALE, BOX_ROT_Y = (0.05, 0.15, -0.03), (0.40, 0.30, 0.25), 0.5
# Report settings shared by both pipelines (Fathom's defaults, fathom_capture_options_init).
MIN_CONF, MAX_DEPTH, VOXEL = 2, 3.0, 0.01
FUSE_DISTANCE, FUSE_ANGLE = 0.05, math.radians(5)
FLOOR_THRESHOLD, FLOOR_ITERATIONS, CLEARANCE = 0.02, 300, 0.02
DBSCAN_EPS, DBSCAN_MIN_POINTS = 0.03, 10
MEMORY_BUDGET = 256 * 2**20         # bytes, part 3's target


# ------------------------------------------------------------------------------------------------
# Libraries
# ------------------------------------------------------------------------------------------------


def import_binding(lib_path: str):
    """The fathom Python package of this checkout, on `lib_path` ($FATHOM_LIBRARY)."""
    os.environ["FATHOM_LIBRARY"] = lib_path
    if str(BINDING) not in sys.path:
        sys.path.insert(0, str(BINDING))
    import fathom  # noqa: E402
    return fathom


_vp = ctypes.c_void_p
_PROTOTYPES = {
    "fathom_scan_open": [ctypes.c_char_p, ctypes.POINTER(_vp)],
    "fathom_scan_open_options_init": [_vp],
    "fathom_scan_open_with": [ctypes.c_char_p, _vp, ctypes.POINTER(_vp)],
    "fathom_scan_read_depth": [_vp, ctypes.c_uint64, _vp, ctypes.c_size_t],
    "fathom_scan_report": [_vp, _vp, _vp, _vp, _vp, ctypes.POINTER(_vp)],
}
_VOID = {"fathom_scan_destroy": [_vp], "fathom_report_destroy": [_vp]}


def import_isal():
    try:
        from isal import isal_zlib
        import isal
        return isal_zlib, getattr(isal, "__version__", "?"), None
    except Exception as e:  # noqa: BLE001
        return None, None, f"{type(e).__name__}: {e}"


# ------------------------------------------------------------------------------------------------
# Inputs
# ------------------------------------------------------------------------------------------------


def render_capture():
    if str(SCENE_DIR) not in sys.path:
        sys.path.insert(0, str(SCENE_DIR))
    from _scene import Scene, capture  # noqa: E402
    scene = Scene(center=np.array(BOX_CENTER), scale=np.array(BOX_SCALE), rot_y=BOX_ROT_Y)
    return scene, capture(scene, n=N_FRAMES, seed=SEED % 1000)


def write(fathom, directory: Path, ts, poses, ks, depths, confs, confidence: bool) -> Path:
    with fathom.ScanWriter(directory, SCAN_ID, confidence=confidence) as w:
        for i in range(len(ts)):
            w.append(int(ts[i]), ks[i], poses[i], depths[i], confs[i] if confidence else None)
    return directory


def files(directory: Path) -> dict:
    return {p.name[len(SCAN_ID) + 1:]: p.stat().st_size for p in sorted(directory.iterdir())}


# ------------------------------------------------------------------------------------------------
# 1. Inflating the depth stream
# ------------------------------------------------------------------------------------------------


def bench_inflate(fathom, lib, isal_zlib, depth_only: Path, full: Path, depths, repeat, args, problems, results,
                  report) -> None:
    raw = (depth_only / f"{SCAN_ID}.depth.zlib").read_bytes()
    raw_full = (full / f"{SCAN_ID}.depth.zlib").read_bytes()
    if raw != raw_full:
        problems.append("the depth-only scan's .depth.zlib differs from the full scan's")
    expected = depths.tobytes()
    out_bytes = len(expected)
    conf_size = (full / f"{SCAN_ID}.confidence.zlib").stat().st_size
    print(f"\n[1. inflate] {N_FRAMES} frames {W}x{H} float16: {out_bytes / 1e6:.1f} MB inflated from "
          f"{len(raw) / 1e6:.2f} MB of raw DEFLATE ({len(raw) / out_bytes:.0%}); the full scan's confidence "
          f"stream: {conf_size / 1e6:.2f} MB for {N_FRAMES * CONF_BYTES / 1e6:.1f} MB")
    checks = {}

    # Correctness first (untimed).
    z = zlib.decompress(raw, -15)
    checks["zlib"] = "same bytes as written" if z == expected else "DIFFERENT  <-- WRONG"
    if z != expected:
        problems.append("zlib.decompress of the depth stream differs from the frames written")
    if isal_zlib is not None:
        zi = isal_zlib.decompress(raw, -15)
        checks["isal"] = "same bytes as written" if zi == expected else "DIFFERENT  <-- WRONG"
        if zi != expected:
            problems.append("isal_zlib.decompress of the depth stream differs from the frames written")
    del z
    scan = fathom.Scan.open(depth_only)
    got = np.stack([scan.depth(i) for i in range(len(scan))]) if len(scan) == N_FRAMES else None
    # The scene's float32 poses drift from rigid by ~1e-4 (ARKit-like): the only warning expected says they were
    # re-orthonormalized.
    other = [w for w in scan.warnings if "re-orthonormalized" not in w]
    ok = got is not None and got.tobytes() == expected and not other and not scan.has_confidence
    checks["fathom depth(i)"] = (f"{len(scan)} frames, bit-identical to what was written"
                                 if ok else f"{len(scan)} frames, warnings {scan.warnings} <-- WRONG")
    checks["fathom warnings"] = "; ".join(scan.warnings) or "none"
    if not ok:
        problems.append(f"fathom reads back {len(scan)} frames that differ from what was written ({scan.warnings})")

    buf = np.empty(out_bytes, np.uint8)
    buf.fill(0)
    path_c = str(depth_only).encode()
    handle = _vp()

    def c_read_all(opened: int, opener: str) -> None:
        """Every frame of the scan `opener` just opened into `handle` (status `opened`), read into `buf`."""
        if opened:
            bl.check_status(lib, opener, opened)
        base = buf.ctypes.data
        rd = lib.fathom_scan_read_depth
        for i in range(N_FRAMES):
            st = rd(handle, i, base + i * FRAME_BYTES, FRAME_BYTES)
            if st:
                bl.check_status(lib, "fathom_scan_read_depth", st)
        lib.fathom_scan_destroy(handle)

    def c_open_read():
        c_read_all(lib.fathom_scan_open(path_c, ctypes.byref(handle)), "fathom_scan_open")

    c_open_read()
    if buf.tobytes() != expected:
        problems.append("fathom_scan_read_depth (C ABI) frames differ from what was written")
        checks["fathom C"] = "DIFFERENT  <-- WRONG"
    else:
        checks["fathom C"] = "bit-identical"

    def open_read_all():
        with fathom.Scan.open(depth_only) as s:
            for i in range(N_FRAMES):
                s.depth(i)

    def lazy_read_all():
        with fathom.Scan.open(depth_only, index_while_reading=True) as s:
            for i in range(N_FRAMES):
                s.depth(i)

    lazy_options = fathom._lib.ScanOpenOptionsStruct()
    bl.check_status(lib, "fathom_scan_open_options_init", lib.fathom_scan_open_options_init(ctypes.byref(lazy_options)))
    lazy_options.index_while_reading = True

    def c_lazy_read():
        c_read_all(lib.fathom_scan_open_with(path_c, ctypes.byref(lazy_options), ctypes.byref(handle)), "fathom_scan_open_with")

    with fathom.Scan.open(depth_only, index_while_reading=True) as s:
        same = len(s) == N_FRAMES and np.stack([s.depth(i) for i in range(N_FRAMES)]).tobytes() == expected
    buf.fill(0)
    c_lazy_read()
    same = same and buf.tobytes() == expected
    checks["fathom indexed while reading"] = "bit-identical (Python and C)" if same else "DIFFERENT  <-- WRONG"
    if not same:
        problems.append("frames read from a scan indexed while reading differ from what was written")

    def open_only():
        fathom.Scan.open(depth_only).close()

    def read_all_open():
        for i in range(N_FRAMES):
            scan.depth(i)

    def open_full():
        fathom.Scan.open(full).close()

    fns = {"fathom open + depth(i) all": open_read_all, "fathom open only": open_only,
           "fathom depth(i) all, open": read_all_open, "fathom C open + read all": c_open_read,
           "fathom index while reading: open + all": lazy_read_all, "fathom C open_with(lazy) + all": c_lazy_read,
           "zlib.decompress(b, -15)": lambda: zlib.decompress(raw, -15)}
    if isal_zlib is not None:
        fns["isal_zlib.decompress(b, -15)"] = lambda: isal_zlib.decompress(raw, -15)
    fns["fathom open, depth + confidence"] = open_full
    t = bl.measure_interleaved(fns, repeat)
    table = bl.Table(f"inflate the whole depth stream ({out_bytes / 1e6:.1f} MB out); median of {repeat} "
                     f"interleaved runs", "MB/s")
    notes = {
        "fathom open + depth(i) all": "Scan.open (index pass) + every frame in order: inflates the stream twice",
        "fathom open only": "one pass: counts the frames, keeps checkpoints of the inflater",
        "fathom depth(i) all, open": "every frame in order on an open scan (np.empty + one call per frame)",
        "fathom C open + read all": "fathom_scan_open + fathom_scan_read_depth into one buffer (ctypes)",
        "fathom index while reading: open + all": "Scan.open(index_while_reading=True) + every frame in order: one inflate",
        "fathom C open_with(lazy) + all": "fathom_scan_open_with (index_while_reading) + fathom_scan_read_depth, one buffer",
        "zlib.decompress(b, -15)": f"Python {sys.version.split()[0]} zlib {zlib.ZLIB_RUNTIME_VERSION}, one bytes out",
        "isal_zlib.decompress(b, -15)": "python-isal (ISA-L igzip), one bytes out",
        "fathom open, depth + confidence": f"the full scan: both streams indexed (+{N_FRAMES * CONF_BYTES / 1e6:.1f} "
                                           f"MB of confidence; MB/s counts depth only); what scan_report pays",
    }
    for name, timing in t.items():
        table.add(name, timing, out_bytes, len(raw), notes.get(name, ""))
    table.print("fathom open + depth(i) all")
    print("(MB/s: inflated depth bytes / median; x vs ... = that row's median / Fathom open + read all's: > 1 means "
          "Fathom is faster)")
    for k, v in checks.items():
        print(f"  check {k:<18} {v}")
    scan.close()

    ours = table.get("fathom open + depth(i) all").timing.median
    ours_open = table.get("fathom open only").timing.median
    ours_lazy = table.get("fathom index while reading: open + all").timing.median
    info = {}
    for anchor in ("zlib.decompress(b, -15)", "isal_zlib.decompress(b, -15)"):
        r = table.get(anchor)
        if r is None:
            print(f"  N/A   {anchor}: isal unavailable")
            continue
        info[anchor] = {"open_read_all_x": r.timing.median / ours, "open_only_x": r.timing.median / ours_open,
                        "index_while_reading_x": r.timing.median / ours_lazy}
        print(f"  info  vs {anchor}: open + read all {r.timing.median / ours:.2f}x, open alone "
              f"{r.timing.median / ours_open:.2f}x, indexed while reading (open + read all) "
              f"{r.timing.median / ours_lazy:.2f}x as fast ({out_bytes / r.timing.median / 1e6:.0f} MB/s vs "
              f"{out_bytes / ours / 1e6:.0f} / {out_bytes / ours_open / 1e6:.0f} / {out_bytes / ours_lazy / 1e6:.0f} MB/s)")
    r = table.get("isal_zlib.decompress(b, -15)")
    if r is not None:
        x = r.timing.median / ours_lazy
        results["index_while_reading_isal"] = bl.bar("open + every frame in order, indexed while reading, >= 1.0x "
                                                     "python-isal's whole-stream inflate", x >= 1.0, f"{x:.2f}x")
    report["inflate"] = {"compressed_bytes": len(raw), "inflated_bytes": out_bytes, "confidence_bytes": conf_size,
                         "rows": table.to_json(), "checks": checks, "ratios": info}

    seq_ms = table.get("fathom depth(i) all, open").timing.median / N_FRAMES * 1e3
    bench_random(fathom, isal_zlib, depth_only, raw, depths, args, problems, results, report, seq_ms)


def bench_random(fathom, isal_zlib, depth_only, raw, depths, args, problems, results, report, seq_ms: float) -> None:
    rng = np.random.default_rng(SEED)
    n = args.random_frames
    idx = [int(i) for i in rng.choice(N_FRAMES, size=n, replace=n > N_FRAMES)]
    scan = fathom.Scan.open(depth_only)
    bad = [i for i in idx if scan.depth(i).tobytes() != depths[i].tobytes()]
    if bad:
        problems.append(f"random access: frames {bad[:5]} differ from what was written")

    def ours():
        for i in idx:
            scan.depth(i)

    def from_start(mod):
        def run():
            for i in idx:
                d = mod.decompressobj(-15)
                out = d.decompress(raw, (i + 1) * FRAME_BYTES)
                if len(out) != (i + 1) * FRAME_BYTES:
                    raise RuntimeError("short inflate")
        return run

    # Check one frame of each anchor route.
    i0 = idx[0]
    for name, mod in (("zlib", zlib), ("isal", isal_zlib)):
        if mod is None:
            continue
        out = mod.decompressobj(-15).decompress(raw, (i0 + 1) * FRAME_BYTES)
        if out[-FRAME_BYTES:] != depths[i0].tobytes():
            problems.append(f"random access: {name} from the start gives a different frame {i0}")

    # The anchors inflate ~half the stream per frame (~0.05-0.1 s): 7 rounds (not REPEAT), each running Fathom
    # and both anchors on the same frames one after the other, so all see the same machine conditions.
    rounds = max(7, args.random_rounds)
    fns = {"fathom": ours}
    fns.update({k: from_start(v) for k, v in (("zlib", zlib), ("isal", isal_zlib)) if v is not None})
    ours()  # warm-up
    samples = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t0 = time.perf_counter_ns()
            fn()
            samples[k].append((time.perf_counter_ns() - t0) * 1e-9)
    t_ours = bl.Timing(samples.pop("fathom"))
    scan.close()
    mean_index = sum(idx) / n
    rows = [("fathom scan.depth(i), random", t_ours, f"{rounds} rounds")]
    rows += [(f"{k} from the start each time", bl.Timing(s), f"{rounds} rounds") for k, s in samples.items()]
    print(f"\nrandom access: {n} random frames (seed {SEED}, mean index {mean_index:.0f} of {N_FRAMES}), ms per frame")
    head = f"{'engine':<34}  {'median ms/fr':>12}  {'min ms/fr':>9}  {'spread':>6}  {'x vs fathom':>11}  runs"
    print(head)
    print("-" * len(head))
    out = {}
    for name, timing, runs in rows:
        med, mn = timing.median / n * 1e3, timing.min / n * 1e3
        x = timing.median / t_ours.median
        flag = "  NOISY" if timing.spread > bl.NOISY else ""
        print(f"{name:<34}  {med:12.3f}  {mn:9.3f}  {timing.spread:6.1%}  {x:11.1f}  {runs}{flag}")
        out[name] = {"median_ms_per_frame": med, "min_ms_per_frame": mn, "runs_s": timing.seconds}
    print(f"  (Fathom inflates from the nearest checkpoint before the frame: {t_ours.median / n * 1e3 / seq_ms:.0f}x "
          f"its {seq_ms:.3f} ms per frame read in order; the anchors inflate from byte 0 up to the frame)")
    report["random_access"] = {"frames": idx, "rows": out, "sequential_ms_per_frame": seq_ms}


# ------------------------------------------------------------------------------------------------
# 2. A capture to a box: fathom.scan_report vs an Open3D pipeline
# ------------------------------------------------------------------------------------------------


def fused_selection(poses: np.ndarray) -> list[int]:
    """The frames our report fuses: the first, then each that moved FUSE_DISTANCE or turned FUSE_ANGLE since the
    last fused one (poses (N, 4, 4) camera-to-world)."""
    sel = [0]
    for i in range(1, len(poses)):
        a, b = poses[sel[-1]], poses[i]
        moved = float(np.linalg.norm(b[:3, 3] - a[:3, 3]))
        c = (float(np.trace(a[:3, :3].T @ b[:3, :3])) - 1) / 2
        if moved >= FUSE_DISTANCE or math.acos(max(-1.0, min(1.0, c))) >= FUSE_ANGLE:
            sel.append(i)
    return sel


def focus_point(poses: np.ndarray) -> np.ndarray:
    """The point nearest every optical axis (-z of ARKit camera axes), least squares."""
    d = -poses[:, :3, 2]
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    o = poses[:, :3, 3]
    m = np.eye(3)[None] - d[:, :, None] * d[:, None, :]
    return np.linalg.solve(m.sum(0), np.einsum("nij,nj->i", m, o))


def yaw_box(pts: np.ndarray, yaw: float, floor: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The box of yaw `yaw` (the scene's / fathom.Box convention: local x = (cos, 0, -sin)) around pts, reaching
    down to `floor`: (centre, full extents, yaw)."""
    c, s = math.cos(yaw), math.sin(yaw)
    ax, az = np.array([c, 0.0, -s]), np.array([s, 0.0, c])  # the box's local x and z axes in world
    u, w = pts @ ax, pts @ az
    lo = np.array([u.min(), floor, w.min()])
    hi = np.array([u.max(), pts[:, 1].max(), w.max()])
    mid, ext = (lo + hi) / 2, hi - lo
    centre = mid[0] * ax + mid[2] * az
    centre[1] = mid[1]
    return centre, ext, yaw


def yaw_of(R: np.ndarray) -> float:
    """Yaw (fathom.Box convention) of the most horizontal column of a rotation."""
    j = int(np.argmin(np.abs(R[1, :])))
    v = R[:, j]
    return math.atan2(-v[2], v[0])


class Open3DPipeline:
    """The Open3D way from a scan folder to a box (see the module docstring). run() returns the box and the
    time of each stage."""

    def __init__(self, o3d, isal_zlib, directory: Path):
        self.o3d, self.directory = o3d, directory
        self.inflate = (lambda b: isal_zlib.decompress(b, -15)) if isal_zlib is not None else \
            (lambda b: zlib.decompress(b, -15))
        self.inflater = "isal_zlib" if isal_zlib is not None else "zlib"
        self.flip = np.diag([1.0, -1.0, -1.0, 1.0])  # ARKit camera axes <-> optical (y down, z forward)

    def read(self):
        d = self.directory
        recs = [json.loads(line) for line in (d / f"{SCAN_ID}.jsonl").read_text().splitlines() if line.strip()]
        meta = json.loads((d / f"{SCAN_ID}.json").read_text())
        rgb_h, rgb_w = next(s["resolution"] for s in meta["streams"] if s["type"] == "color_camera")
        dh, dw = next(s["resolution"] for s in meta["streams"] if s["type"] == "lidar_sensor")
        depth = np.frombuffer(self.inflate((d / f"{SCAN_ID}.depth.zlib").read_bytes()), np.float16).reshape(-1, dh, dw)
        conf = np.frombuffer(self.inflate((d / f"{SCAN_ID}.confidence.zlib").read_bytes()), np.uint8).reshape(-1, dh, dw)
        poses = np.array([np.asarray(r["transform"], np.float64).reshape(4, 4).T for r in recs])   # column-major
        ks = np.array([np.asarray(r["intrinsics"], np.float64).reshape(3, 3).T for r in recs])
        return depth, conf, poses, ks, (rgb_w, rgb_h)

    def run(self, data=None, stages=None):
        o3d = self.o3d
        t0 = time.perf_counter()
        depth, conf, poses, ks, (rgb_w, rgb_h) = data if data is not None else self.read()
        t1 = time.perf_counter()
        n, dh, dw = depth.shape
        sx, sy = dw / rgb_w, dh / rgb_h
        sel = fused_selection(poses)
        parts = []
        for i in sel:
            z = depth[i].astype(np.float32)
            z[conf[i] < MIN_CONF] = 0
            k = ks[i]
            # Open3D puts a sample at its pixel's corner; the scan's intrinsics at its centre: cx - 0.5, cy - 0.5.
            intr = o3d.camera.PinholeCameraIntrinsic(dw, dh, k[0, 0] * sx, k[1, 1] * sy, k[0, 2] * sx - 0.5,
                                                     k[1, 2] * sy - 0.5)
            world_to_optical = self.flip @ np.linalg.inv(poses[i])
            pc = o3d.geometry.PointCloud.create_from_depth_image(o3d.geometry.Image(z), intr, world_to_optical,
                                                                  depth_scale=1.0, depth_trunc=MAX_DEPTH)
            parts.append(np.asarray(pc.points))
        t2 = time.perf_counter()
        allp = np.concatenate(parts)
        cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(allp))
        down = cloud.voxel_down_sample(VOXEL)
        t3 = time.perf_counter()
        plane, inliers = down.segment_plane(FLOOR_THRESHOLD, 3, FLOOR_ITERATIONS)
        a, b, c, d = plane
        if b < 0:
            a, b, c, d = -a, -b, -c, -d
        rest = down.select_by_index(inliers, invert=True)
        h = np.asarray(rest.points) @ np.array([a, b, c]) + d
        rest = rest.select_by_index(np.flatnonzero(h > CLEARANCE))
        t4 = time.perf_counter()
        labels = np.asarray(rest.cluster_dbscan(eps=DBSCAN_EPS, min_points=DBSCAN_MIN_POINTS))
        t5 = time.perf_counter()
        pts = np.asarray(rest.points)
        focus = focus_point(poses)
        best, best_d = -1, math.inf
        for lab in range(int(labels.max()) + 1 if labels.size else 0):
            q = pts[labels == lab]
            dist = float(np.min(np.linalg.norm(q - focus, axis=1)))
            if dist < best_d:
                best, best_d = lab, dist
        if best < 0:
            raise RuntimeError("Open3D pipeline: no cluster")
        cl = pts[labels == best]
        floor = -d / b  # the floor plane's height at x = z = 0 (it is horizontal within RANSAC noise)
        # The upright box of least footprint: Open3D's minimal OBB of the cluster's footprint as a prism.
        foot = cl.copy()
        foot[:, 1] = 0.0
        top = foot.copy()
        top[:, 1] = 1.0
        prism = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(np.concatenate([foot, top])))
        mobb = prism.get_minimal_oriented_bounding_box()
        box = yaw_box(cl, yaw_of(np.asarray(mobb.R)), floor)
        t6 = time.perf_counter()
        if stages is not None:
            stages.update({"read (jsonl + inflate both streams)": t1 - t0,
                           f"create_from_depth_image x {len(sel)}": t2 - t1,
                           f"voxel_down_sample ({len(allp):,} points -> {len(down.points):,})": t3 - t2,
                           "segment_plane + floor removal": t4 - t3,
                           f"cluster_dbscan ({len(pts):,} points)": t5 - t4,
                           "nearest cluster + minimal OBB of the footprint": t6 - t5})
        return {"box": box, "fused": sel, "points": len(allp), "voxels": len(down.points), "floor": floor,
                "plane": (a, b, c, d), "cluster": cl, "focus": focus,
                "clusters": int(labels.max()) + 1}


def box_difference(a, b) -> dict:
    """Centre distance, largest extent difference and yaw difference of two upright boxes (centre, extents, yaw),
    the yaw taken modulo 90 degrees (extents x and z swapped for an odd quarter turn)."""
    (ca, ea, ya), (cb, eb, yb) = a, b
    q = (yb - ya) / (math.pi / 2)
    k = round(q)
    dyaw = (q - k) * 90.0
    eb = np.array(eb, float)
    if k % 2:
        eb = eb[[2, 1, 0]]
    return {"centre_m": float(np.linalg.norm(np.asarray(ca) - np.asarray(cb))),
            "extents_m": float(np.max(np.abs(np.asarray(ea) - eb))),
            "extents_each_m": (np.asarray(ea) - eb).tolist(), "yaw_deg": abs(dyaw)}


def fmt_box(b) -> str:
    c, e, y = b
    return (f"centre ({c[0]:+.4f}, {c[1]:+.4f}, {c[2]:+.4f}) extents ({e[0]:.4f}, {e[1]:.4f}, {e[2]:.4f}) "
            f"yaw {math.degrees(y) % 180:.2f} deg")


def bench_report(fathom, lib, o3d, o3d_why, isal_zlib, full: Path, repeat, problems, results, report) -> None:
    print(f"\n[2. capture -> box] {N_FRAMES} frames ({N_FRAMES / 60:.1f} s at 60 fps), true box "
          f"centre {BOX_CENTER}, extents {BOX_SCALE}, yaw {math.degrees(BOX_ROT_Y):.2f} deg")
    truth = (np.array(BOX_CENTER), np.array(BOX_SCALE), BOX_ROT_Y)
    r = fathom.scan_report(full)
    if r.box is None:
        problems.append("fathom.scan_report found no box")
        ours_box = None
    else:
        ours_box = (np.array(r.box.center, float), np.array(r.box.scale, float), float(r.box.rot_y))
    print(f"  fathom: {r.fused_frames} of {r.frames} frames fused, {len(r.cloud):,} cloud voxels, "
          f"{len(r.object):,} object points, box source {r.box_source.name.lower()}, warnings {r.warnings}")

    path_c = str(full).encode()

    def c_report():
        scan, rep = _vp(), _vp()
        st = lib.fathom_scan_open(path_c, ctypes.byref(scan))
        if st:
            bl.check_status(lib, "fathom_scan_open", st)
        try:
            st = lib.fathom_scan_report(scan, None, None, None, None, ctypes.byref(rep))
            if st:
                bl.check_status(lib, "fathom_scan_report", st)
            lib.fathom_report_destroy(rep)
        finally:
            lib.fathom_scan_destroy(scan)

    opened = fathom.Scan.open(full)
    fns = {"fathom.scan_report(path)": lambda: fathom.scan_report(full),
           "fathom C open + scan_report": c_report,
           "fathom.scan_report(scan), open": lambda: fathom.scan_report(opened)}
    notes = {"fathom.scan_report(path)": "end to end: open (index both streams), fuse, floor, object, box, "
                                         "coverage; JSON and clouds into Python",
             "fathom C open + scan_report": "fathom_scan_open + fathom_scan_report + destroy/close (ctypes)",
             "fathom.scan_report(scan), open": "the scan opened beforehand (the index pass not timed)"}
    o3d_box = o3d_res = None
    stages = {}
    if o3d is not None:
        pipe = Open3DPipeline(o3d, isal_zlib, full)
        data = pipe.read()
        o3d_res = pipe.run(stages=stages)
        o3d_box = o3d_res["box"]
        fns["open3d pipeline, end to end"] = pipe.run
        fns["open3d pipeline, frames in memory"] = lambda: pipe.run(data)
        notes["open3d pipeline, end to end"] = (f"jsonl + {pipe.inflater} of both streams, {len(o3d_res['fused'])} "
                                                f"fused frames, down-sample, plane, DBSCAN, box; {bl.open3d_threads(o3d)} thread")
        notes["open3d pipeline, frames in memory"] = "the same, streams inflated and jsonl parsed beforehand"
        if len(o3d_res["fused"]) != r.fused_frames:
            print(f"  NOTE: the selection rule gives {len(o3d_res['fused'])} frames, fathom fused {r.fused_frames}")
        else:
            print(f"  open3d: the same rule selects {len(o3d_res['fused'])} frames (fathom fused {r.fused_frames})")
    else:
        print(f"  Open3D unavailable: {o3d_why}")
    t = bl.measure_interleaved(fns, repeat, warmup=1)
    opened.close()
    npx = N_FRAMES * W * H
    table = bl.Table(f"a capture to a box, {N_FRAMES} frames; median of {repeat} interleaved runs", "Mpx/s")
    for name, timing in t.items():
        table.add(name, timing, npx, 0, notes.get(name, ""))
    table.print("fathom.scan_report(path)")
    print("(Mpx/s: depth samples of the whole scan / median; x vs ... = that row's median / fathom.scan_report(path)'s:"
          " > 1 means Fathom is faster; GB/s in is not meaningful here)")
    if stages:
        print("  Open3D stages (one untimed run): " + "; ".join(f"{k} {v * 1e3:.0f} ms" for k, v in stages.items()))

    # Boxes
    print("  boxes (upright: centre, full extents, yaw about +y modulo 180 degrees):")
    print(f"    true     {fmt_box(truth)}")
    rows = {}
    if ours_box is not None:
        print(f"    fathom   {fmt_box(ours_box)}")
    if o3d_box is not None:
        print(f"    open3d   {fmt_box(o3d_box)}   ({o3d_res['points']:,} points from {len(o3d_res['fused'])} frames, "
              f"{o3d_res['voxels']:,} voxels, {o3d_res['clusters']} cluster(s), object {len(o3d_res['cluster']):,} points)")
        # For reference: the yaw of Open3D's PCA box of the cluster (get_oriented_bounding_box, tilted).
        cl = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(o3d_res["cluster"]))
        pca_yaw = yaw_of(np.asarray(cl.get_oriented_bounding_box().R))
        pca_box = yaw_box(o3d_res["cluster"], pca_yaw, o3d_res["floor"])
        print(f"    open3d PCA OBB's yaw (reference, not the bar): {fmt_box(pca_box)}")
    pairs = [("fathom vs true", ours_box, truth), ("open3d vs true", o3d_box, truth),
             ("fathom vs open3d", ours_box, o3d_box)]
    if o3d_box is not None:
        pairs.append(("open3d PCA-yaw vs true", pca_box, truth))
    for label, a, b in pairs:
        if a is None or b is None:
            continue
        diff = box_difference(a, b)
        rows[label] = diff
        print(f"    {label:<24} centre {diff['centre_m'] * 1e3:6.2f} mm, extents max {diff['extents_m'] * 1e3:6.2f} mm "
              f"(x, y, z: {', '.join(f'{v * 1e3:+.2f}' for v in diff['extents_each_m'])} mm), yaw {diff['yaw_deg']:.2f} deg")

    print("targets (medians):")
    fr = table.get("fathom.scan_report(path)")
    results["report_under_0.6s"] = bl.bar("fathom.scan_report end to end < 0.6 s", fr.timing.median < 0.6,
                                          f"{fr.timing.median:.3f} s (min {fr.timing.min:.3f} s)")
    orow = table.get("open3d pipeline, end to end")
    if orow is None:
        results["report_3x_open3d"] = bl.bar("Fathom >= 3x Open3D", None, "Open3D not measured")
        results["box_within_1cm"] = bl.bar("box within 1 cm of Open3D's", None, "Open3D not measured")
    else:
        x = orow.timing.median / fr.timing.median
        mem = table.get("open3d pipeline, frames in memory").timing.median
        # The ratio within each round (both engines ran back to back): steadier than the medians when the
        # machine's speed drifts during the run.
        per_round = sorted(o / f for o, f in zip(orow.timing.seconds, fr.timing.seconds))
        med_round = per_round[len(per_round) // 2] if len(per_round) % 2 else \
            (per_round[len(per_round) // 2 - 1] + per_round[len(per_round) // 2]) / 2
        results["report_3x_open3d"] = bl.bar(
            "Fathom >= 3x the Open3D pipeline (end to end)", x >= 3,
            f"open3d {orow.timing.median:.3f} s / fathom {fr.timing.median:.3f} s = {x:.2f}x (per round: median "
            f"{med_round:.2f}x, {per_round[0]:.2f}-{per_round[-1]:.2f}x; open3d with the frames already in memory: "
            f"{mem:.3f} s = {mem / fr.timing.median:.2f}x) (need >= 3x)")
        report["report_ratio_per_round"] = per_round
        if ours_box is not None:
            d = rows["fathom vs open3d"]
            results["box_within_1cm"] = bl.bar(
                "box within 1 cm of Open3D's", d["centre_m"] <= 0.01 and d["extents_m"] <= 0.01,
                f"centre {d['centre_m'] * 1e3:.2f} mm, extents {d['extents_m'] * 1e3:.2f} mm, yaw {d['yaw_deg']:.2f} deg")
    if ours_box is not None:
        d = rows["fathom vs true"]
        print(f"  info  fathom vs the true box: centre {d['centre_m'] * 1e3:.2f} mm, extents {d['extents_m'] * 1e3:.2f} mm,"
              f" yaw {d['yaw_deg']:.2f} deg (the fused voxel means spread with the depth noise)")
    report["report"] = {"rows": table.to_json(), "boxes": {k: None if v is None else
                                                          {"centre": list(map(float, v[0])), "extents": list(map(float, v[1])),
                                                           "yaw": float(v[2])}
                                                          for k, v in (("true", truth), ("fathom", ours_box),
                                                                       ("open3d", o3d_box))},
                        "differences": rows, "open3d_stages_s": stages,
                        "fathom": {"fused_frames": r.fused_frames, "cloud_points": len(r.cloud),
                                   "object_points": len(r.object)},
                        "open3d_fused_frames": None if o3d_res is None else len(o3d_res["fused"])}


# ------------------------------------------------------------------------------------------------
# 3. Resident memory while reading a long scan
# ------------------------------------------------------------------------------------------------


def _status_kb(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def memory_child(path: str, crc_file: str, random_frames: int, lib_path: str) -> int:
    """Run in a fresh process: imports, opens the scan, reads every frame (depth and confidence) in order and
    `random_frames` random ones, checking each against the CRC32 of the frame it was cycled from; prints JSON."""
    fathom = import_binding(lib_path)
    crcs = json.loads(Path(crc_file).read_text())
    dcrc, ccrc = crcs["depth"], crcs["confidence"]
    out = {"rss_after_import_kb": _status_kb("VmRSS"), "hwm_after_import_kb": _status_kb("VmHWM")}
    t0 = time.perf_counter()
    scan = fathom.Scan.open(path)
    t1 = time.perf_counter()
    n = len(scan)
    out.update(frames=n, open_s=t1 - t0, hwm_after_open_kb=_status_kb("VmHWM"), warnings=scan.warnings)
    bad = 0
    for i in range(n):
        d = scan.depth(i)
        c = scan.confidence(i)
        if zlib.crc32(d) != dcrc[i % len(dcrc)] or zlib.crc32(c) != ccrc[i % len(ccrc)]:
            bad += 1
    t2 = time.perf_counter()
    out.update(read_all_s=t2 - t1, hwm_after_read_all_kb=_status_kb("VmHWM"))
    rng = np.random.default_rng(SEED)
    idx = rng.integers(0, n, random_frames)
    t3 = time.perf_counter()
    for i in idx:
        d = scan.depth(int(i))
        c = scan.confidence(int(i))
        if zlib.crc32(d) != dcrc[int(i) % len(dcrc)] or zlib.crc32(c) != ccrc[int(i) % len(ccrc)]:
            bad += 1
    t4 = time.perf_counter()
    scan.close()
    out.update(random_s=t4 - t3, random_frames=random_frames, bad_frames=bad, hwm_kb=_status_kb("VmHWM"),
               ru_maxrss_kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    print(json.dumps(out))
    return 0


def bench_memory(fathom, lib_path, rendered, args, problems, results, report) -> None:
    ts, poses, ks, depths, confs = rendered
    n = args.memory_frames
    tmp_parent = args.tmp or tempfile.gettempdir()
    total, used, free = shutil.disk_usage(tmp_parent)
    print(f"\n[3. memory] a {n:,}-frame scan ({n * FRAME_BYTES / 2**30:.2f} GiB of depth and "
          f"{n * CONF_BYTES / 2**30:.2f} GiB of confidence inflated), {N_FRAMES} rendered frames cycled; "
          f"{free / 2**30:.1f} GiB free in {tmp_parent}")
    tmp = Path(tempfile.mkdtemp(prefix="fathom-bench-scan-", dir=tmp_parent))
    try:
        # Estimate the compressed size from the 354-frame scan's ratio; refuse if the disk is short.
        est = n * 60_000
        if free < 3 * est:
            results["memory_256mb"] = bl.bar("peak RSS < 256 MB", None, f"skipped: {free / 1e9:.1f} GB free, "
                                              f"need ~{3 * est / 1e9:.1f} GB")
            return
        dt = 16_666_667
        t0 = time.perf_counter()
        with fathom.ScanWriter(tmp, SCAN_ID) as w:
            base = int(ts[0])
            for i in range(n):
                j = i % N_FRAMES
                w.append(base + i * dt, ks[j], poses[j], depths[j], confs[j])
        gen_s = time.perf_counter() - t0
        sizes = files(tmp)
        print(f"  generated in {gen_s:.1f} s ({n / gen_s:.0f} frames/s through fathom.ScanWriter): depth.zlib "
              f"{sizes.get('depth.zlib', 0) / 1e9:.2f} GB, confidence.zlib {sizes.get('confidence.zlib', 0) / 1e9:.2f} GB")
        crc_file = tmp / "crc.json"
        crc_file.write_text(json.dumps({"depth": [zlib.crc32(d.tobytes()) for d in depths],
                                        "confidence": [zlib.crc32(c.tobytes()) for c in confs]}))
        env = dict(os.environ, FATHOM_LIBRARY=lib_path)

        def child(extra):
            cmd = [sys.executable, str(Path(__file__).resolve()), "--memory-child", str(tmp / f"{SCAN_ID}.json"),
                   "--crc", str(crc_file), "--lib", lib_path] + extra
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(bl.HERE))
            if p.returncode != 0:
                raise RuntimeError(f"memory child failed ({p.returncode}): {p.stderr[-2000:]}")
            return json.loads(p.stdout.strip().splitlines()[-1])

        res = child(["--random-frames", str(args.memory_random)])
        total_inflated = n * (FRAME_BYTES + CONF_BYTES)
        hwm = res["hwm_kb"] * 1024
        base_rss = res["rss_after_import_kb"] * 1024
        print(f"  reader process (python + numpy + fathom, nothing else): RSS after imports "
              f"{base_rss / 2**20:.1f} MiB")
        print(f"  open        {res['open_s']:7.2f} s  ({total_inflated / res['open_s'] / 1e6:.0f} MB/s of depth + "
              f"confidence inflated)  VmHWM {res['hwm_after_open_kb'] / 1024:.1f} MiB")
        print(f"  read all    {res['read_all_s']:7.2f} s  ({total_inflated / res['read_all_s'] / 1e6:.0f} MB/s, "
              f"{res['read_all_s'] / n * 1e3:.3f} ms per frame, depth + confidence)  VmHWM "
              f"{res['hwm_after_read_all_kb'] / 1024:.1f} MiB")
        print(f"  random {res['random_frames']:<4} {res['random_s']:7.2f} s  ({res['random_s'] / res['random_frames'] * 1e3:.2f} "
              f"ms per frame, depth + confidence)  VmHWM {res['hwm_kb'] / 1024:.1f} MiB (ru_maxrss "
              f"{res['ru_maxrss_kb'] / 1024:.1f} MiB)")
        print(f"  frames {res['frames']:,}, {res['bad_frames']} differ from what was written, warnings {res['warnings']}")
        if res["frames"] != n or res["bad_frames"] or [w for w in res["warnings"] if "re-orthonormalized" not in w]:
            problems.append(f"long scan: {res['frames']} frames read of {n}, {res['bad_frames']} wrong, "
                            f"warnings {res['warnings']}")
        print("targets:")
        results["memory_256mb"] = bl.bar(
            "peak RSS reading the whole scan < 256 MB", hwm < MEMORY_BUDGET,
            f"VmHWM {hwm / 2**20:.1f} MiB ({(hwm - base_rss) / 2**20:.1f} MiB above the process after its imports) "
            f"for {total_inflated / 2**30:.2f} GiB inflated")
        report["memory"] = {"frames": n, "generate_s": gen_s, "files": sizes, "child": res}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"  (deleted {tmp})")


# ------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--lib", default=None)
    ap.add_argument("--quick", action="store_true", help="skip part 3 (the 36,000-frame memory run)")
    ap.add_argument("--only", default="inflate,report,memory")
    ap.add_argument("--memory-frames", type=int, default=36_000)
    ap.add_argument("--memory-random", type=int, default=200)
    ap.add_argument("--random-frames", type=int, default=100)
    ap.add_argument("--random-rounds", type=int, default=7, help="timed rounds of the random-access rows (>= 7)")
    ap.add_argument("--tmp", default=None, help="folder for the generated scans (default: the system temp folder)")
    ap.add_argument("--memory-child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--crc", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    lib_path = str(Path(args.lib).resolve()) if args.lib else bl.library_path()
    if args.memory_child:
        return memory_child(args.memory_child, args.crc, args.random_frames, lib_path)

    repeat = max(7, args.repeat or bl.default_repeat())
    only = set(args.only.split(","))
    quick = args.quick or os.environ.get("FATHOM_BENCH_QUICK", "0") not in ("", "0")
    print("Scans and reports: fathom against zlib, python-isal and Open3D (one core)")
    print(f"Load average at start: {bl.load_average()}")
    problems: list[str] = []
    results: dict = {}
    report: dict = {"repeat": repeat}
    try:
        lib = bl.load_fathom(lib_path)
        bl.declare(lib, _PROTOTYPES, _VOID)
        fathom = import_binding(lib_path)
        print(f"fathom {bl.fathom_version(lib)} ({lib_path}), through the Python binding of {BINDING}")
    except Exception as e:  # noqa: BLE001
        print(f"bench: cannot measure Fathom: {e}", file=sys.stderr)
        return 1
    isal_zlib, isal_version, isal_why = import_isal()
    print(f"zlib {zlib.ZLIB_RUNTIME_VERSION}; python-isal {isal_version or 'unavailable: ' + str(isal_why)}")
    o3d, o3d_why = (None, "not needed")
    if "report" in only:
        o3d, o3d_why = bl.import_open3d()
        print(f"open3d {o3d.__version__ + ', ' + bl.open3d_threads(o3d) + ' thread(s)' if o3d else 'unavailable: ' + o3d_why}")

    t0 = time.perf_counter()
    _scene, rendered = render_capture()
    ts, poses, ks, depths, confs = rendered
    print(f"rendered {N_FRAMES} frames of the scene in {time.perf_counter() - t0:.1f} s")
    work = Path(tempfile.mkdtemp(prefix="fathom-bench-scan-", dir=args.tmp))
    try:
        full = write(fathom, work / "full", ts, poses, ks, depths, confs, True)
        depth_only = write(fathom, work / "depth", ts, poses, ks, depths, confs, False)
        print(f"scan files ({full}): " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in files(full).items()))
        report["files"] = files(full)
        if "inflate" in only:
            bench_inflate(fathom, lib, isal_zlib, depth_only, full, depths, repeat, args, problems, results, report)
        if "report" in only:
            bench_report(fathom, lib, o3d, o3d_why, isal_zlib, full, repeat, problems, results, report)
        if "memory" in only:
            if quick:
                print("\n[3. memory] skipped (--quick / FATHOM_BENCH_QUICK=1)")
                results["memory_256mb"] = None
            else:
                bench_memory(fathom, lib_path, rendered, args, problems, results, report)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    return bl.finish("scan", report, results, problems)


if __name__ == "__main__":
    sys.exit(main())
