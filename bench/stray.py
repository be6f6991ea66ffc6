#!/usr/bin/env python3
"""Stray Scanner captures: reading 1,000 PNG frames one by one, and the report of the capture, against Pillow,
OpenCV and an Open3D pipeline, in one run pinned to one core (README.md, "stray.py").

Input: the numpy renderer of Bindings/python/tests/_room_scenes.py, `object_on_table(SEED, n=1000)`: a room with a
0.75 m table, a 0.1-0.3 m box on it and clutter, circled from above the table at 60 fps (16.7 s), 256x192 depth with
LiDAR-like noise and flying pixels (confidence 0), ARKit-like drifting float32 poses, a few dropped frames. It is
written three ways into a temporary folder (deleted at the end; --keep DIR keeps and reuses it):
  stray           _room_scenes.write_stray: the Stray Scanner layout (camera_matrix.csv, odometry.csv, imu.csv,
                  depth/NNNNNN.png 16-bit millimetres, confidence/NNNNNN.png 8-bit), PNGs from its own encoder
                  (per-row adaptive filter as libpng chooses, zlib level 6)
  scanner         _room_scenes.write_scanner: the scanner app's files through fathom.write_scan (uint16 mm, DEFLATE)
  stray-fathom    fathom's own conversion of the scanner scan: Scan.write(folder, "stray") (libspng's encoder)

1. Reading every frame in order (depth and confidence), per frame, 7 interleaved rounds (one run of each row per
   round, the whole capture each run):
     fathom Scan(folder) + depth/confidence     fathom.Scan(folder), then scan.depth(i) and scan.confidence(i) for
                                                every i (depth as float32 metres)
     fathom Scan(folder) only                   the open: odometry.csv parsed, every PNG's header and end checked
     fathom depth/confidence(i), open           the frames only, on an open scan
     fathom depth(i), open                      depth only
     fathom C read_depth loop                   fathom_scan_read_depth into one preallocated buffer through ctypes:
                                                the library without the binding's per-frame Python work
     Pillow / OpenCV                            np.asarray(Image.open(path)) / cv2.imread(path, IMREAD_UNCHANGED) of
                                                the same files (depth as uint16 mm; + confidence)
     read the files / zlib / isal               the floors: the two files' bytes read; zlib.decompress and
                                                isal_zlib.decompress of the depth PNGs' IDAT data alone (in memory)
   Then the same capture as fathom writes it (stray-fathom), fathom and Pillow only; the peak resident memory
   (VmHWM) of a process that reads the whole capture with fathom (and, for reference, with Pillow); and, where
   `perf` works, a profile of the C read loop (which library and function the time goes to).
2. fathom.scan_report of the 1,000-frame capture end to end (open included), on the Stray folder (both writers)
   and on the scanner scan, against the Open3D pipeline of scan.py (its Open3DPipeline class, imported, with
   Fathom's defaults for the shared settings), fed from the Stray folder: odometry.csv and camera_matrix.csv
   parsed with numpy, the frames the pipeline fuses decoded with Pillow on demand (the same selection rule,
   so the same frames as Fathom's), create_from_depth_image, voxel_down_sample, segment_plane, cluster_dbscan,
   a minimal OBB of the footprint. 7 interleaved rounds. Target: fathom.scan_report(stray folder) < 2 s.

Usage: python stray.py [--frames N] [--rounds R] [--lib PATH] [--only read,report] [--keep DIR] [--tmp DIR]
                       [--no-profile]
Exit status: 1 if the library could not be measured or gave wrong frames (any frame differing from the rendered
millimetres), or found no box; with FATHOM_BENCH_STRICT=1 also if a target bar fails.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import math
import os
import re
import shutil
import struct
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

SEED = 7
N_FRAMES = 1000
W, H = 256, 192
RGB_SIZE = (1920, 1440)             # the RGB video the Stray intrinsics refer to
SCAN_ID = "20240612_101500_stray"
REPORT_TARGET_S = 2.0
CAPTURE_VERSION = 1                 # bump when the capture written changes (invalidates --keep folders)

_vp = ctypes.c_void_p
_PROTOTYPES = {
    "fathom_scan_open": [ctypes.c_char_p, ctypes.POINTER(_vp)],
    "fathom_scan_read_depth": [_vp, ctypes.c_uint64, _vp, ctypes.c_size_t],
    "fathom_scan_read_confidence": [_vp, ctypes.c_uint64, _vp, ctypes.c_size_t],
}
_VOID = {"fathom_scan_destroy": [_vp]}


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


def import_scenes():
    if str(SCENE_DIR) not in sys.path:
        sys.path.insert(0, str(SCENE_DIR))
    import _room_scenes  # noqa: E402
    return _room_scenes


def import_pillow():
    try:
        import PIL
        from PIL import Image, features
        zl = features.version("zlib_ng") if features.check_feature("zlib_ng") else None
        return Image, f"Pillow {PIL.__version__} ({'zlib-ng ' + zl if zl else 'zlib ' + str(features.version('zlib'))})", None
    except Exception as e:  # noqa: BLE001
        return None, None, f"{type(e).__name__}: {e}"


def import_cv2():
    try:
        import cv2
        cv2.setNumThreads(1)
        png = next((line.split(":", 1)[1].strip() for line in cv2.getBuildInformation().splitlines()
                    if line.strip().startswith("PNG:")), "?")
        return cv2, f"OpenCV {cv2.__version__} (libpng {png.split('ver ')[-1].rstrip(')')})", None
    except Exception as e:  # noqa: BLE001
        return None, None, f"{type(e).__name__}: {e} (pip install opencv-python-headless)"


def import_isal():
    try:
        from isal import isal_zlib
        import isal
        return isal_zlib, getattr(isal, "__version__", "?"), None
    except Exception as e:  # noqa: BLE001
        return None, None, f"{type(e).__name__}: {e}"


# ------------------------------------------------------------------------------------------------
# The capture
# ------------------------------------------------------------------------------------------------


def _crc_list(frames) -> list[int]:
    return [zlib.crc32(np.ascontiguousarray(f).tobytes()) for f in frames]


def build_capture(fathom, rs, folder: Path, frames: int) -> dict:
    """Renders the scene and writes it three ways into `folder`; returns what the checks need (CRC32 of every
    frame: uint16 mm, the float32 metres fathom gives, uint8 confidence) and the true object box."""
    info = {"version": CAPTURE_VERSION, "seed": SEED, "frames": frames}
    t0 = time.perf_counter()
    scene = rs.object_on_table(SEED, n=frames)
    cap = scene.capture
    info["render_s"] = time.perf_counter() - t0
    print(f"  rendered {frames} frames of object_on_table({SEED}) in {info['render_s']:.1f} s", flush=True)
    t0 = time.perf_counter()
    rs.write_stray(folder / "stray", cap)
    info["write_stray_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    scanner = rs.write_scanner(folder / "scanner", SCAN_ID, cap)
    info["write_scanner_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with fathom.Scan(scanner) as s:
        s.write(folder / "stray-fathom", "stray")
    info["convert_s"] = time.perf_counter() - t0
    print(f"  written: _room_scenes.write_stray {info['write_stray_s']:.1f} s, write_scanner (fathom.write_scan) "
          f"{info['write_scanner_s']:.1f} s, fathom Scan.write(..., 'stray') {info['convert_s']:.1f} s", flush=True)
    mm = rs.depth_mm(cap)
    info["scanner"] = os.path.relpath(scanner, folder)
    info["crc_mm"] = _crc_list(mm)
    info["crc_m"] = _crc_list(m for m in (x.astype(np.float32) * np.float32(0.001) for x in mm))
    info["crc_conf"] = _crc_list(cap.confidences)
    t = scene.target
    info["target"] = {"centre": t.center.tolist(), "extents": t.extents.tolist(), "yaw": float(t.yaw)}
    info["support_height"] = scene.support_height
    (folder / "capture.json").write_text(json.dumps(info))
    return info


def capture(fathom, rs, args) -> tuple[Path, dict, bool]:
    """(folder, info, temporary): the capture, built or reused from --keep."""
    if args.keep:
        folder = Path(args.keep).resolve()
        meta = folder / "capture.json"
        if meta.is_file():
            info = json.loads(meta.read_text())
            if info.get("version") == CAPTURE_VERSION and info.get("frames") == args.frames and info.get("seed") == SEED:
                print(f"  reusing the capture in {folder} (--keep)")
                return folder, info, False
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder, build_capture(fathom, rs, folder, args.frames), False
    folder = Path(tempfile.mkdtemp(prefix="fathom-bench-stray-", dir=args.tmp))
    return folder, build_capture(fathom, rs, folder, args.frames), True


def folder_bytes(path: Path, sub: str) -> int:
    return sum(p.stat().st_size for p in (path / sub).iterdir())


def png_idat(data: bytes) -> bytes:
    """The concatenated IDAT data (the zlib stream) of a PNG file."""
    pos, out = 8, []
    while pos + 8 <= len(data):
        n, tag = struct.unpack(">I4s", data[pos:pos + 8])
        if tag == b"IDAT":
            out.append(data[pos + 8:pos + 8 + n])
        pos += 12 + n
    return b"".join(out)


def filter_counts(raw_rows: bytes, stride: int) -> np.ndarray:
    """How many rows use each PNG filter type (0 none, 1 sub, 2 up, 3 average, 4 Paeth)."""
    kinds = np.frombuffer(raw_rows, np.uint8)[::stride]
    return np.bincount(kinds, minlength=5)[:5]


# ------------------------------------------------------------------------------------------------
# Per-frame tables
# ------------------------------------------------------------------------------------------------


def interleave(fns: dict, rounds: int) -> dict:
    """bl.measure_interleaved without its warm-up rounds (the caller has run every function already)."""
    samples = {k: [] for k in fns}
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in fns.items():
                t0 = time.perf_counter_ns()
                fn()
                samples[k].append((time.perf_counter_ns() - t0) * 1e-9)
    finally:
        gc.enable()
    return {k: bl.Timing(v) for k, v in samples.items()}


def per_round_ratio(a: bl.Timing, b: bl.Timing) -> list[float]:
    return sorted(x / y for x, y in zip(a.seconds, b.seconds))


def _median(v: list[float]) -> float:
    v = sorted(v)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2


def print_frame_table(title: str, timings: dict, frames: int, refs: dict, notes: dict) -> list[dict]:
    """Per-frame times (µs): median, min and max over the rounds; x = the row's median / its Fathom
    reference's median (> 1: Fathom faster), with the range of the ratio within each round."""
    print(title)
    w = max(len(k) for k in timings) + 2
    head = (f"{'engine':<{w}} {'median µs/fr':>12} {'min':>7} {'max':>7}  {'x vs fathom':>11}  "
            f"{'per round':>11}  note")
    print(head)
    print("-" * len(head))
    rows = []
    for name, t in timings.items():
        med, mn, mx = (v / frames * 1e6 for v in (t.median, t.min, max(t.seconds)))
        ref = refs.get(name)
        x = xr = ""
        ratio = rr = None
        if ref and ref in timings:
            ratio = t.median / timings[ref].median
            rr = per_round_ratio(t, timings[ref])
            x, xr = f"{ratio:.2f}", f"{rr[0]:.2f}-{rr[-1]:.2f}"
        flag = f"; NOISY (median {t.spread:.0%} above min)" if t.spread > bl.NOISY else ""
        print(f"{name:<{w}} {med:12.1f} {mn:7.1f} {mx:7.1f}  {x:>11}  {xr:>11}  {notes.get(name, '')}{flag}")
        rows.append({"engine": name, "median_us_per_frame": med, "min_us_per_frame": mn, "max_us_per_frame": mx,
                     "runs_s": t.seconds, "reference": ref, "x_vs_reference": ratio, "per_round_x": rr,
                     "note": notes.get(name, "")})
    return rows


# ------------------------------------------------------------------------------------------------
# 1. Reading the frames
# ------------------------------------------------------------------------------------------------


def check_frames(fathom, Image, cv2, folder: Path, info: dict, label: str, problems: list, checks: dict) -> None:
    """Every frame of fathom (float32 m, confidence), Pillow and OpenCV (uint16 mm) against the rendered CRCs."""
    bad = {"fathom depth": 0, "fathom confidence": 0, "Pillow": 0, "OpenCV": 0}
    with fathom.Scan(folder) as s:
        n = len(s)
        warnings = s.warnings
        for i in range(n):
            bad["fathom depth"] += zlib.crc32(s.depth(i).tobytes()) != info["crc_m"][i]
            bad["fathom confidence"] += zlib.crc32(s.confidence(i).tobytes()) != info["crc_conf"][i]
            if Image is not None:
                d = np.asarray(Image.open(folder / "depth" / f"{i:06d}.png"))
                c = np.asarray(Image.open(folder / "confidence" / f"{i:06d}.png"))
                bad["Pillow"] += zlib.crc32(d.tobytes()) != info["crc_mm"][i] or zlib.crc32(c.tobytes()) != info["crc_conf"][i]
            if cv2 is not None:
                d = cv2.imread(str(folder / "depth" / f"{i:06d}.png"), cv2.IMREAD_UNCHANGED)
                c = cv2.imread(str(folder / "confidence" / f"{i:06d}.png"), cv2.IMREAD_UNCHANGED)
                bad["OpenCV"] += zlib.crc32(d.tobytes()) != info["crc_mm"][i] or zlib.crc32(c.tobytes()) != info["crc_conf"][i]
    if n != info["frames"]:
        problems.append(f"{label}: fathom reads {n} frames of {info['frames']}")
    if Image is None:
        bad.pop("Pillow")
    if cv2 is None:
        bad.pop("OpenCV")
    for k, v in bad.items():
        if v:
            problems.append(f"{label}: {k}: {v} frames differ from the rendered ones")
    checks[label] = {"frames": n, "frames_differing": bad, "warnings": warnings}
    print(f"  check {label}: {n} frames; differing from the rendered millimetres: "
          + ", ".join(f"{k} {v}" for k, v in bad.items()) + f"; fathom warnings: {warnings or 'none'}")


def bench_read(fathom, lib, Image, cv2, isal_zlib, folder: Path, info: dict, args, problems, results, report) -> None:
    stray = folder / "stray"
    n = info["frames"]
    depth_paths = [str(stray / "depth" / f"{i:06d}.png") for i in range(n)]
    conf_paths = [str(stray / "confidence" / f"{i:06d}.png") for i in range(n)]
    d_bytes, c_bytes = folder_bytes(stray, "depth"), folder_bytes(stray, "confidence")
    idats = [png_idat(Path(p).read_bytes()) for p in depth_paths]
    stride = 1 + W * 2
    kinds = np.zeros(5, np.int64)
    for b in idats:
        kinds += filter_counts(zlib.decompress(b), stride)
    print(f"\n[1. read] {n} frames {W}x{H}: depth PNGs {d_bytes / n / 1e3:.1f} kB each ({d_bytes / (n * W * H * 2):.0%} "
          f"of the 16-bit samples; zlib stream {sum(map(len, idats)) / n / 1e3:.1f} kB), confidence PNGs "
          f"{c_bytes / n / 1e3:.1f} kB each; depth rows by PNG filter (none, sub, up, average, Paeth): "
          f"{', '.join(f'{k / kinds.sum():.0%}' for k in kinds)}")
    checks: dict = {}
    check_frames(fathom, Image, cv2, stray, info, "stray (write_stray)", problems, checks)

    scan = fathom.Scan(stray)
    path_c = str(stray).encode()
    handle = _vp()
    bl.check_status(lib, "fathom_scan_open", lib.fathom_scan_open(path_c, ctypes.byref(handle)))
    dbuf = np.zeros((H, W), np.float32)
    dptr, dlen = dbuf.ctypes.data, dbuf.nbytes

    def fathom_all():
        with fathom.Scan(stray) as s:
            for i in range(n):
                s.depth(i)
                s.confidence(i)

    def fathom_open():
        fathom.Scan(stray).close()

    def fathom_frames():
        for i in range(n):
            scan.depth(i)
            scan.confidence(i)

    def fathom_depth():
        for i in range(n):
            scan.depth(i)

    def c_depth():
        rd = lib.fathom_scan_read_depth
        for i in range(n):
            st = rd(handle, i, dptr, dlen)
            if st:
                bl.check_status(lib, "fathom_scan_read_depth", st)

    fns = {"fathom Scan(folder) + depth/confidence": fathom_all,
           "fathom Scan(folder) only": fathom_open,
           "fathom depth/confidence(i), open": fathom_frames,
           "fathom depth(i), open": fathom_depth,
           "fathom C read_depth loop": c_depth}
    refs, notes = {}, {
        "fathom Scan(folder) + depth/confidence": "what a user runs: open, then every frame in order",
        "fathom Scan(folder) only": "odometry.csv + camera_matrix.csv parsed, each PNG's header and IEND checked",
        "fathom depth/confidence(i), open": "scan opened beforehand; depth float32 m, confidence uint8",
        "fathom depth(i), open": "depth only",
        "fathom C read_depth loop": "fathom_scan_read_depth into one buffer via ctypes (no binding)",
    }
    if Image is not None:
        def pil_all():
            for i in range(n):
                np.asarray(Image.open(depth_paths[i]))
                np.asarray(Image.open(conf_paths[i]))

        def pil_depth():
            for i in range(n):
                np.asarray(Image.open(depth_paths[i]))

        fns["Pillow depth + confidence"] = pil_all
        fns["Pillow depth"] = pil_depth
        refs["Pillow depth + confidence"] = "fathom depth/confidence(i), open"
        refs["Pillow depth"] = "fathom depth(i), open"
        notes["Pillow depth + confidence"] = "np.asarray(Image.open(path)) x 2; depth uint16 mm"
        notes["Pillow depth"] = "depth only (uint16 mm)"
    if cv2 is not None:
        imread, flag = cv2.imread, cv2.IMREAD_UNCHANGED

        def cv_all():
            for i in range(n):
                imread(depth_paths[i], flag)
                imread(conf_paths[i], flag)

        def cv_depth():
            for i in range(n):
                imread(depth_paths[i], flag)

        fns["OpenCV depth + confidence"] = cv_all
        fns["OpenCV depth"] = cv_depth
        refs["OpenCV depth + confidence"] = "fathom depth/confidence(i), open"
        refs["OpenCV depth"] = "fathom depth(i), open"
        notes["OpenCV depth + confidence"] = "cv2.imread(path, IMREAD_UNCHANGED) x 2; depth uint16 mm"
        notes["OpenCV depth"] = "depth only (uint16 mm)"

    def read_files():
        for i in range(n):
            with open(depth_paths[i], "rb") as f:
                f.read()
            with open(conf_paths[i], "rb") as f:
                f.read()

    fns["floor: read both files"] = read_files
    notes["floor: read both files"] = "open + read of the two PNG files' bytes (page cache)"
    fns["floor: zlib.decompress depth IDAT"] = lambda: [zlib.decompress(b) for b in idats]
    notes["floor: zlib.decompress depth IDAT"] = (f"the depth zlib streams alone, in memory, whole (zlib "
                                                  f"{zlib.ZLIB_RUNTIME_VERSION}, as libspng's)")
    refs["floor: zlib.decompress depth IDAT"] = "fathom C read_depth loop"
    if isal_zlib is not None:
        fns["floor: isal decompress depth IDAT"] = lambda: [isal_zlib.decompress(b) for b in idats]
        notes["floor: isal decompress depth IDAT"] = "the same with python-isal (ISA-L igzip)"
        refs["floor: isal decompress depth IDAT"] = "fathom C read_depth loop"
    refs["fathom C read_depth loop"] = "fathom depth(i), open"

    rounds = max(7, args.rounds)
    print(f"  {len(fns)} rows x {rounds} rounds (+1 warm-up), interleaved; one run = the whole capture", flush=True)
    t = bl.measure_interleaved(fns, rounds, warmup=1)
    scan.close()
    lib.fathom_scan_destroy(handle)
    rows = print_frame_table(f"per frame, {n} frames in order; median, min and max over {rounds} interleaved rounds",
                             t, n, refs, notes)
    print("(x vs fathom = that row's median / the Fathom row it is compared with: depth + confidence rows with "
          "'fathom depth/confidence(i), open', depth-only rows with 'fathom depth(i), open'; > 1 means Fathom is faster."
          " The floors are compared with the C loop: < 1 is the share of the C decode they take. The C loop row is "
          "compared with the binding's depth(i): < 1, its share)")
    report["read"] = {"frames": n, "depth_png_bytes": d_bytes, "confidence_png_bytes": c_bytes,
                      "idat_bytes": sum(map(len, idats)), "filters": kinds.tolist(), "rows": rows, "checks": checks}

    ours = t["fathom depth/confidence(i), open"].median
    for anchor in ("Pillow depth + confidence", "OpenCV depth + confidence"):
        key = "read_vs_" + anchor.split()[0].lower()
        if anchor not in t:
            results[key] = bl.bar(f"fathom vs {anchor}", None, "not measured")
            continue
        rr = per_round_ratio(t[anchor], t["fathom depth/confidence(i), open"])
        print(f"  info  {anchor} / fathom depth/confidence(i): {t[anchor].median / ours:.2f}x (per round median "
              f"{_median(rr):.2f}x, {rr[0]:.2f}-{rr[-1]:.2f})")
    share = _median(per_round_ratio(t["fathom C read_depth loop"], t["fathom depth(i), open"]))
    py = t["fathom depth(i), open"].median
    zr = _median(per_round_ratio(t["floor: zlib.decompress depth IDAT"], t["fathom C read_depth loop"]))
    print(f"  info  the binding's share of depth(i): {1 - share:.0%} (per-round median of C loop / depth(i): "
          f"{share:.2f}; ~{(1 - share) * py / n * 1e6:.0f} µs of {py / n * 1e6:.0f} per frame); the whole-stream "
          f"inflate alone (zlib) takes {zr:.0%} of the C decode's time (per-round median)")
    report["read"]["binding_share"] = 1 - share

    # The same capture as fathom writes it.
    sf = folder / "stray-fathom"
    fd, fc = folder_bytes(sf, "depth"), folder_bytes(sf, "confidence")
    fidat = [png_idat((sf / "depth" / f"{i:06d}.png").read_bytes()) for i in range(n)]
    fk = np.zeros(5, np.int64)
    for b in fidat:
        fk += filter_counts(zlib.decompress(b), stride)
    print(f"\n  the same capture written by fathom (Scan.write(..., 'stray'), libspng): depth PNGs "
          f"{fd / n / 1e3:.1f} kB each, confidence {fc / n / 1e3:.1f} kB; depth rows by filter: "
          f"{', '.join(f'{k / fk.sum():.0%}' for k in fk)}")
    check_frames(fathom, Image, None, sf, info, "stray-fathom (Scan.write)", problems, checks)
    fscan = fathom.Scan(sf)
    fpaths = [(str(sf / "depth" / f"{i:06d}.png"), str(sf / "confidence" / f"{i:06d}.png")) for i in range(n)]

    def f_frames():
        for i in range(n):
            fscan.depth(i)
            fscan.confidence(i)

    fns2 = {"fathom depth/confidence(i), open": f_frames}
    refs2, notes2 = {}, {"fathom depth/confidence(i), open": "the fathom-written folder, opened beforehand"}
    if Image is not None:
        def f_pil():
            for dp, cp in fpaths:
                np.asarray(Image.open(dp))
                np.asarray(Image.open(cp))
        fns2["Pillow depth + confidence"] = f_pil
        refs2["Pillow depth + confidence"] = "fathom depth/confidence(i), open"
    t2 = bl.measure_interleaved(fns2, rounds, warmup=1)
    fscan.close()
    rows2 = print_frame_table(f"per frame, the fathom-written folder; {rounds} interleaved rounds", t2, n, refs2, notes2)
    report["read_fathom_written"] = {"depth_png_bytes": fd, "confidence_png_bytes": fc, "filters": fk.tolist(),
                                     "rows": rows2}


# ------------------------------------------------------------------------------------------------
# Memory and profile (child processes)
# ------------------------------------------------------------------------------------------------


def _status_kb(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def child(mode: str, folder: str, lib_path: str, passes: int) -> int:
    """Run in a fresh process; prints one JSON line."""
    if mode == "profile":
        # The C read loop alone: the library's decode, `passes` times over the capture.
        lib = bl.load_fathom(lib_path)
        bl.declare(lib, _PROTOTYPES, _VOID)
        h = _vp()
        bl.check_status(lib, "fathom_scan_open", lib.fathom_scan_open(folder.encode(), ctypes.byref(h)))
        buf = np.zeros((H, W), np.float32)
        rd, p, m = lib.fathom_scan_read_depth, buf.ctypes.data, buf.nbytes
        n = int(json.loads((Path(folder).parent / "capture.json").read_text())["frames"])
        t0 = time.perf_counter()
        for _ in range(passes):
            for i in range(n):
                rd(h, i, p, m)
        print(json.dumps({"frames": n * passes, "seconds": time.perf_counter() - t0}))
        return 0
    out = {}
    if mode == "memory-pillow":
        from PIL import Image
        out["rss_after_import_kb"] = _status_kb("VmRSS")
        t0 = time.perf_counter()
        names = sorted(os.listdir(os.path.join(folder, "depth")))
        for name in names:
            np.asarray(Image.open(os.path.join(folder, "depth", name)))
            np.asarray(Image.open(os.path.join(folder, "confidence", name)))
        out.update(frames=len(names), seconds=time.perf_counter() - t0)
    else:
        fathom = import_binding(lib_path)
        out["rss_after_import_kb"] = _status_kb("VmRSS")
        t0 = time.perf_counter()
        if mode == "memory-fathom":
            with fathom.Scan(folder) as s:
                for i in range(len(s)):
                    s.depth(i)
                    s.confidence(i)
                out["frames"] = len(s)
        else:  # memory-report
            r = fathom.scan_report(folder)
            out["frames"] = r.frames
        out["seconds"] = time.perf_counter() - t0
    out["hwm_kb"] = _status_kb("VmHWM")
    print(json.dumps(out))
    return 0


def run_child(mode: str, folder: Path, lib_path: str, passes: int = 1, prefix: list | None = None) -> dict:
    cmd = (prefix or []) + [sys.executable, str(Path(__file__).resolve()), "--child", mode, str(folder),
                            "--lib", lib_path, "--passes", str(passes)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=str(bl.HERE))
    if p.returncode != 0:
        raise RuntimeError(f"child {mode} failed ({p.returncode}): {p.stderr[-1500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def bench_memory(folder: Path, lib_path: str, Image, problems, results, report) -> None:
    stray = folder / "stray"
    print("\n  peak resident memory (VmHWM) of a fresh process reading the whole capture:")
    out = {}
    modes = [("memory-fathom", "fathom Scan(folder) + depth/confidence(i), every frame"),
             ("memory-report", "fathom.scan_report(folder)")]
    if Image is not None:
        modes.append(("memory-pillow", "Pillow, every depth and confidence PNG (reference)"))
    for mode, label in modes:
        try:
            r = run_child(mode, stray, lib_path)
        except Exception as e:  # noqa: BLE001
            problems.append(str(e))
            continue
        out[mode] = r
        print(f"    {label:<56} VmHWM {r['hwm_kb'] / 1024:6.1f} MiB ({(r['hwm_kb'] - r['rss_after_import_kb']) / 1024:5.1f} "
              f"MiB above the process after its imports), {r['frames']} frames in {r['seconds']:.2f} s")
    report["memory"] = out


PERF_RE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$")


def bench_profile(folder: Path, lib_path: str, info: dict, report) -> None:
    """perf record of the C read loop in a child process: the share of each library and function."""
    perf = shutil.which("perf")
    if perf is None:
        print("\n  profile: skipped (no perf; apt-get install linux-perf)")
        return
    data = folder / "perf.data"
    passes = max(1, round(4000 / info["frames"]))
    try:
        r = run_child("profile", folder / "stray", lib_path, passes,
                      prefix=[perf, "record", "-q", "-F", "1999", "-o", str(data), "--"])
        rep = subprocess.run([perf, "report", "-i", str(data), "--no-children", "--sort", "dso,sym", "--stdio", "-q"],
                             capture_output=True, text=True, timeout=120)
    except Exception as e:  # noqa: BLE001
        print(f"\n  profile: skipped (perf did not work here: {str(e)[:200]})")
        return
    finally:
        pass
    buckets = {"zlib inflate": 0.0, "zlib adler32 + crc32": 0.0, "libspng spng_decode_scanline": 0.0,
               "libspng other": 0.0, "libfathom (uint16 mm -> float32 m, file read, checks)": 0.0,
               "libc (memcpy, memset, malloc)": 0.0, "kernel (file reads, page faults)": 0.0,
               "python, ctypes, start-up": 0.0}
    top = []
    for line in rep.stdout.splitlines():
        m = PERF_RE.match(line)
        if not m:
            continue
        pct, dso, kind, sym = float(m.group(1)), m.group(2), m.group(3), m.group(4)
        if len(top) < 8:
            top.append((pct, dso, sym))
        if dso.startswith("libz."):
            buckets["zlib adler32 + crc32" if sym.startswith(("adler32", "crc32")) else "zlib inflate"] += pct
        elif dso.startswith("libspng"):
            buckets["libspng spng_decode_scanline" if sym == "spng_decode_scanline" else "libspng other"] += pct
        elif dso.startswith("libfathom"):
            buckets["libfathom (uint16 mm -> float32 m, file read, checks)"] += pct
        elif dso.startswith("libc.") or dso.startswith("libc-"):
            buckets["libc (memcpy, memset, malloc)"] += pct
        elif kind == "k" or dso.startswith("[kernel"):
            buckets["kernel (file reads, page faults)"] += pct
        else:
            buckets["python, ctypes, start-up"] += pct
    data.unlink(missing_ok=True)
    if not top:
        print(f"\n  profile: perf report gave nothing ({rep.stderr.strip()[:200]})")
        return
    us = r["seconds"] / r["frames"] * 1e6
    print(f"\n  profile of the C read loop (perf record, {r['frames']} depth frames in one child process, "
          f"{us:.0f} µs per frame under perf): share of the samples")
    for k, v in buckets.items():
        print(f"    {v:5.1f}%  {k}")
    print("    top symbols: " + "; ".join(f"{p:.1f}% {s} ({d})" for p, d, s in top))
    report["profile"] = {"buckets_percent": buckets, "top": top, "child": r}


# ------------------------------------------------------------------------------------------------
# 2. The report of the capture: fathom.scan_report vs the Open3D pipeline of scan.py
# ------------------------------------------------------------------------------------------------


def quaternion_matrices(q: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotations of (N, 4) unit quaternions (x, y, z, w)."""
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    x, y, z, w = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)


class LazyFrames:
    """depth[i] / conf[i] decoded from the Stray PNGs when the pipeline asks (only the frames it fuses)."""

    def __init__(self, paths: list[str], decode, scale: float | None):
        self.paths, self.decode, self.scale = paths, decode, scale
        self.shape = (len(paths), H, W)

    def __getitem__(self, i):
        a = self.decode(self.paths[i])
        return a.astype(np.float32) * np.float32(self.scale) if self.scale is not None else a


def read_stray_for_open3d(folder: Path, Image):
    """What a Python user reads of a Stray folder for the Open3D pipeline: (depth, conf, poses, ks, rgb size)
    with depth and confidence decoded lazily (Pillow), poses turned from OpenCV to ARKit camera axes."""
    k = np.loadtxt(folder / "camera_matrix.csv", delimiter=",")
    odo = np.loadtxt(folder / "odometry.csv", delimiter=",", skiprows=1, ndmin=2)
    frames = odo[:, 1].astype(int)
    cv = np.repeat(np.eye(4)[None], len(odo), 0)
    cv[:, :3, :3] = quaternion_matrices(odo[:, 5:9])
    cv[:, :3, 3] = odo[:, 2:5]
    poses = cv @ np.diag([1.0, -1.0, -1.0, 1.0])      # OpenCV -> ARKit camera axes
    ks = np.repeat(k[None], len(odo), 0)
    decode = lambda p: np.asarray(Image.open(p))  # noqa: E731
    depth = LazyFrames([str(folder / "depth" / f"{f:06d}.png") for f in frames], decode, 0.001)
    conf = LazyFrames([str(folder / "confidence" / f"{f:06d}.png") for f in frames], decode, None)
    return depth, conf, poses, ks, RGB_SIZE


def bench_report(fathom, o3d, o3d_why, Image, folder: Path, info: dict, args, problems, results, report) -> None:
    import scan as scanbench  # bench/scan.py: its Open3D pipeline and box helpers

    stray, sf, scanner = folder / "stray", folder / "stray-fathom", folder / info["scanner"]
    n = info["frames"]
    tg = info["target"]
    truth = (np.array(tg["centre"]), np.array(tg["extents"]), tg["yaw"])
    opts = fathom.CaptureOptions()
    # The shared settings of scan.py's Open3D pipeline, set to Fathom's defaults (scan.py's module constants).
    shared = {"MIN_CONF": opts.min_confidence, "MAX_DEPTH": opts.max_depth, "VOXEL": opts.voxel,
              "FUSE_DISTANCE": opts.fuse_distance, "FUSE_ANGLE": opts.fuse_angle,
              "FLOOR_THRESHOLD": opts.floor_threshold, "FLOOR_ITERATIONS": opts.floor_iterations,
              "CLEARANCE": opts.object_clearance}
    for k, v in shared.items():
        setattr(scanbench, k, v)
    print(f"\n[2. report] {n} frames ({n / 60:.1f} s at 60 fps), object_on_table({SEED}): true box "
          f"{scanbench.fmt_box(truth)}, support at {info['support_height']} m")
    print("  shared settings (fathom's defaults): " + ", ".join(f"{k.lower()} {v:.4g}" for k, v in shared.items())
          + f"; DBSCAN eps {scanbench.DBSCAN_EPS}, min points {scanbench.DBSCAN_MIN_POINTS} (scan.py)")

    r = fathom.scan_report(stray)
    ours_box = None if r.box is None else (np.array(r.box.center, float), np.array(r.box.scale, float), float(r.box.rot_y))
    if ours_box is None:
        problems.append("fathom.scan_report found no box on the Stray folder")
    print(f"  fathom: {r.fused_frames} of {r.frames} frames fused, {len(r.cloud):,} cloud voxels, {len(r.object):,} "
          f"object points, box source {r.box_source.name.lower()}, warnings {r.warnings}")
    # Where fathom's time goes (one untimed run): the open, the frames (until the last progress call), the rest.
    marks = []
    t0 = time.perf_counter()
    with fathom.Scan(stray) as s:
        t1 = time.perf_counter()
        fathom.scan_report(s, progress=lambda done, total: marks.append(time.perf_counter()))
        t2 = time.perf_counter()
    stages = {"open": t1 - t0, "frames (read, fuse)": (marks[-1] if marks else t2) - t1,
              "after the last frame (surfaces, object, box, coverage, results)": t2 - (marks[-1] if marks else t2)}
    print("  fathom stages (one untimed run, progress callback): "
          + "; ".join(f"{k} {v * 1e3:.0f} ms" for k, v in stages.items()))
    other = {}
    for label, path in (("stray-fathom", sf), ("scanner", scanner)):
        ro = fathom.scan_report(path)
        ob = None if ro.box is None else (np.array(ro.box.center, float), np.array(ro.box.scale, float), float(ro.box.rot_y))
        same = ob is not None and ours_box is not None and scanbench.box_difference(ob, ours_box)["centre_m"] < 1e-3
        other[label] = {"fused": ro.fused_frames, "same_box_within_1mm": bool(same)}
        print(f"  fathom on {label}: {ro.fused_frames} frames fused, box "
              f"{'the same (within 1 mm)' if same else scanbench.fmt_box(ob) if ob else 'none'}")

    fns = {"fathom.scan_report(stray folder)": lambda: fathom.scan_report(stray),
           "fathom.scan_report(stray, fathom-written)": lambda: fathom.scan_report(sf),
           "fathom.scan_report(scanner scan)": lambda: fathom.scan_report(scanner)}
    notes = {"fathom.scan_report(stray folder)": "end to end: open, fuse, surfaces, object, box, coverage; into Python",
             "fathom.scan_report(stray, fathom-written)": "the same on the folder fathom wrote (libspng PNGs)",
             "fathom.scan_report(scanner scan)": "the same frames as the scanner app's files (one DEFLATE stream)"}
    o3d_res, o3d_stages = None, {}
    if o3d is not None and Image is not None:
        pipe = scanbench.Open3DPipeline(o3d, None, stray)

        seeder = getattr(getattr(o3d.utility, "random", None), "seed", None)

        def o3d_run(stages=None):
            # segment_plane draws from Open3D's global generator: seeded, every run fits the same plane and does
            # the same work after it (unseeded, the plane a room's RANSAC picks changes the DBSCAN input 50x).
            if seeder is not None:
                seeder(SEED)
            return pipe.run(read_stray_for_open3d(stray, Image), stages)

        try:
            o3d_res = o3d_run(o3d_stages)
        except Exception as e:  # noqa: BLE001
            print(f"  Open3D pipeline failed: {type(e).__name__}: {e}")
            o3d_res = None
        if o3d_res is not None:
            fns["open3d pipeline, end to end"] = o3d_run
            notes["open3d pipeline, end to end"] = (f"odometry/camera_matrix (numpy) + Pillow decode of the "
                                                    f"{len(o3d_res['fused'])} fused frames, scan.py's pipeline; "
                                                    f"{bl.open3d_threads(o3d)} thread")
            same = len(o3d_res["fused"]) == r.fused_frames
            print(f"  open3d: the same rule selects {len(o3d_res['fused'])} frames (fathom fused {r.fused_frames})"
                  + ("" if same else "  NOTE: not the same count"))
    else:
        print(f"  Open3D pipeline not measured: {o3d_why or 'Pillow unavailable'}")

    rounds = max(7, args.rounds)
    # Every row already ran once or twice above (untimed): those runs are the warm-up. Open3D's ~10-30 s per run
    # makes another one too dear for the run's time budget.
    print(f"  {len(fns)} rows x {rounds} rounds, interleaved (the untimed runs above were the warm-up)", flush=True)
    t = interleave(fns, rounds)
    head = f"{'engine':<44} {'median s':>9} {'min':>7} {'max':>7}  {'x vs fathom':>11}  {'per round':>11}  note"
    print(f"the report of the {n}-frame capture; median, min and max over {rounds} interleaved rounds")
    print(head)
    print("-" * len(head))
    ref = t["fathom.scan_report(stray folder)"]
    rows = []
    for name, tm in t.items():
        rr = per_round_ratio(tm, ref)
        x = tm.median / ref.median
        flag = f"; NOISY (median {tm.spread:.0%} above min)" if tm.spread > bl.NOISY else ""
        print(f"{name:<44} {tm.median:9.3f} {tm.min:7.3f} {max(tm.seconds):7.3f}  {x:11.2f}  "
              f"{rr[0]:.2f}-{rr[-1]:.2f}  {notes.get(name, '')}{flag}")
        rows.append({"engine": name, "median_s": tm.median, "min_s": tm.min, "runs_s": tm.seconds,
                     "x_vs_fathom_stray": x, "per_round_x": rr, "note": notes.get(name, "")})
    print("(x vs fathom = that row's median / fathom.scan_report(stray folder)'s; > 1 means Fathom is faster)")
    if o3d_stages:
        print("  Open3D stages (one untimed run): " + "; ".join(f"{k} {v * 1e3:.0f} ms" for k, v in o3d_stages.items()))

    print("  boxes (upright: centre, full extents, yaw about +y modulo 180 degrees):")
    print(f"    true     {scanbench.fmt_box(truth)}")
    diffs = {}
    if ours_box is not None:
        print(f"    fathom   {scanbench.fmt_box(ours_box)}")
    o3d_box = o3d_res["box"] if o3d_res else None
    if o3d_box is not None:
        print(f"    open3d   {scanbench.fmt_box(o3d_box)}   ({o3d_res['points']:,} points, {o3d_res['voxels']:,} voxels, "
              f"{o3d_res['clusters']} clusters, object {len(o3d_res['cluster']):,} points, plane "
              f"({', '.join(f'{v:+.3f}' for v in o3d_res['plane'])}))")
    for label, a, b in (("fathom vs true", ours_box, truth), ("open3d vs true", o3d_box, truth)):
        if a is None:
            continue
        d = scanbench.box_difference(a, b)
        diffs[label] = d
        print(f"    {label:<16} centre {d['centre_m'] * 1e3:7.1f} mm, extents max {d['extents_m'] * 1e3:7.1f} mm, "
              f"yaw {d['yaw_deg']:.2f} deg")

    if o3d_res is not None:
        a, b, c, _d = o3d_res["plane"]
        tilt = math.degrees(math.acos(min(1.0, abs(b) / math.sqrt(a * a + b * b + c * c))))
        if tilt > 10:
            print(f"  NOTE: the Open3D pipeline's 'floor' (scan.py takes the largest plane for it) is tilted {tilt:.0f} "
                  f"degrees from horizontal: in a room that plane can be a wall, and then its box is not the object's. "
                  f"Its time is still that of the same stages on the same fused frames.")
    read = report.get("read")
    if read:
        per = next(r["median_us_per_frame"] for r in read["rows"] if r["engine"] == "fathom depth/confidence(i), open")
        dec = r.fused_frames * per * 1e-6
        print(f"  info  decoding the {r.fused_frames} fused frames' depth and confidence PNGs takes ~{dec * 1e3:.0f} ms "
              f"at part 1's per-frame median ({dec / ref.median:.0%} of the report): the rest is fusing, surfaces, "
              f"object, box and coverage")
        report.setdefault("report_info", {})["fused_decode_s_estimate"] = dec
    print("targets (medians):")
    fr = ref
    results["report_under_2s"] = bl.bar(f"fathom.scan_report, {n} frames, end to end < {REPORT_TARGET_S:g} s",
                                        fr.median < REPORT_TARGET_S,
                                        f"{fr.median:.3f} s (min {fr.min:.3f}, max {max(fr.seconds):.3f} s)")
    if "open3d pipeline, end to end" in t:
        o = t["open3d pipeline, end to end"]
        rr = per_round_ratio(o, fr)
        print(f"  info  open3d pipeline / fathom.scan_report: {o.median:.3f} s / {fr.median:.3f} s = "
              f"{o.median / fr.median:.2f}x (per round median {_median(rr):.2f}x, {rr[0]:.2f}-{rr[-1]:.2f})")
    report["report"] = {"rows": rows, "fathom_stages_s": stages, "open3d_stages_s": o3d_stages,
                        "shared_settings": shared, "other_inputs": other, "box_differences": diffs,
                        "fathom": {"fused_frames": r.fused_frames, "cloud_voxels": len(r.cloud),
                                   "object_points": len(r.object), "warnings": r.warnings},
                        "open3d_fused_frames": None if o3d_res is None else len(o3d_res["fused"])}


# ------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=N_FRAMES)
    ap.add_argument("--rounds", type=int, default=7, help="timed rounds of every table (>= 7)")
    ap.add_argument("--lib", default=None)
    ap.add_argument("--only", default="read,memory,profile,report")
    ap.add_argument("--no-profile", action="store_true", help="skip the perf profile of the C read loop")
    ap.add_argument("--keep", default=None, help="build the capture in DIR and keep it; reuse it when it is there")
    ap.add_argument("--tmp", default=None, help="parent of the temporary capture folder")
    ap.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--passes", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    lib_path = str(Path(args.lib).resolve()) if args.lib else bl.library_path()
    if args.child:
        return child(args.child[0], args.child[1], lib_path, args.passes)

    only = set(args.only.split(","))
    if args.no_profile:
        only.discard("profile")
    print("Stray Scanner captures: fathom against Pillow, OpenCV and Open3D (one core)")
    print(f"Load average at start: {bl.load_average()}")
    problems: list[str] = []
    results: dict = {}
    report: dict = {"rounds": max(7, args.rounds)}
    try:
        lib = bl.load_fathom(lib_path)
        bl.declare(lib, _PROTOTYPES, _VOID)
        fathom = import_binding(lib_path)
        print(f"fathom {bl.fathom_version(lib)} ({lib_path}), through the Python binding of {BINDING}")
    except Exception as e:  # noqa: BLE001
        print(f"bench: cannot measure Fathom: {e}", file=sys.stderr)
        return 1
    Image, pil_v, pil_why = import_pillow()
    cv2, cv_v, cv_why = import_cv2()
    isal_zlib, isal_v, isal_why = import_isal()
    print(f"{pil_v or 'Pillow unavailable: ' + str(pil_why)}; {cv_v or 'OpenCV skipped: ' + str(cv_why)}; "
          f"zlib {zlib.ZLIB_RUNTIME_VERSION}; python-isal {isal_v or 'unavailable: ' + str(isal_why)}")
    report["anchors"] = {"pillow": pil_v or pil_why, "opencv": cv_v or cv_why, "isal": isal_v or isal_why}
    o3d, o3d_why = None, "not needed"
    if "report" in only:
        o3d, o3d_why = bl.import_open3d()
        print(f"open3d {o3d.__version__ + ', ' + bl.open3d_threads(o3d) + ' thread(s)' if o3d else 'unavailable: ' + o3d_why}")
    if Image is None:
        problems.append(f"Pillow, the anchor, is unavailable ({pil_why}); make -C bench deps installs it")

    rs = import_scenes()
    t0 = time.perf_counter()
    folder, info, temporary = capture(fathom, rs, args)
    print(f"capture ready in {time.perf_counter() - t0:.1f} s ({folder})", flush=True)
    try:
        if "read" in only:
            bench_read(fathom, lib, Image, cv2, isal_zlib, folder, info, args, problems, results, report)
        if "memory" in only:
            bench_memory(folder, lib_path, Image, problems, results, report)
        if "profile" in only:
            bench_profile(folder, lib_path, info, report)
        if "report" in only:
            bench_report(fathom, o3d, o3d_why, Image, folder, info, args, problems, results, report)
    finally:
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)
            print(f"(deleted {folder})")

    return bl.finish("stray", report, results, problems)


if __name__ == "__main__":
    sys.exit(main())
