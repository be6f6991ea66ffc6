#!/usr/bin/env python3
"""Depth back-projection, 3D line fits, plane and line RANSAC: Fathom against numpy, Open3D and a memory copy.

Four workloads, every engine on the same inputs, in one run pinned to one core (see README.md, "depth.py"):

1. Back-projection of float32 depth frames (meters) to float32 points:
   - 256x192: the real ARKit LiDAR map of /work/shared/data (promptda_arkit, mm -> m) when present, else a
     generated one; 1920x1440: the same map resampled (nearest) with a little ripple. About 3% of the samples
     are made invalid (0, NaN, +Inf, negative) in both.
   - RGB intrinsics 1920x1440 of depth-and-fish.md's check values (fx = fy = 1/7.0161547e-4, cx, cy from K^-1),
     scaled to the depth grid.
   - fathom camera / optical: fathom_depth_backproject (whole grid, points only; output preallocated and
     pre-faulted outside the timing).
   - numpy: what a notebook user writes: per-pixel ray grids computed once outside the timing, then
     valid = isfinite(d) & (d > 0); stack((xr * d, yr * d, d), -1)[valid] (float32).
   - open3d: PointCloud.create_from_depth_image(Image(depth), intrinsic, depth_scale=1, depth_trunc=1e30),
     the Image made outside the timing; cx, cy passed as cx' - 0.5, cy' - 0.5 so Open3D's corner-based pixels
     give the same points as Fathom's centre convention (Open3D outputs float64, optical frame).
   - memory copy of the depth input bytes and of the output point bytes (np.copyto into preallocated arrays),
     timed interleaved with Fathom.
2. 3D line fit (total least squares) of 1e4, 1e6, 1e7 float64 points on a line with noise:
   fathom_fit_line3 vs numpy eigh of the covariance ((P - c).T @ (P - c) / n) and numpy svd of P - c.
3. Plane RANSAC, 1e5 and 1e6 float64 points, 30% and 50% uniform outliers around a tilted plane with 2 mm noise,
   threshold 1 cm: fathom_fit_plane_ransac at its defaults (fathom_ransac_options_init: at most 1000 samples,
   confidence 0.99, adaptive stop) vs Open3D segment_plane(distance_threshold, ransac_n=3, num_iterations=1000) at
   its default probability (0.99999999); on 1e5 points with 30% outliers also all 1000 samples on both sides
   (Fathom confidence=1, Open3D probability=1.0). Round k seeds both engines with k. For each row: time, the
   inliers of the returned plane (points within the threshold) and their RMS distance, computed the same way for
   both engines.
4. Line RANSAC (Open3D has none): fathom_fit_line_ransac at its defaults vs a numpy RANSAC with the same stopping
   rule (and one refit), 1e5 and 1e6 points, 30% and 50% outliers around a 3D line with 3 mm noise.

Usage: python depth.py [--repeat R] [--lib PATH] [--max-fit N] [--no-svd-1e7] [--only PARTS] [--ransac-max N]
       (normally through `make -C bench`)
Exit status: 1 if the library could not be measured or the engines disagree; with FATHOM_BENCH_STRICT=1 also
if a target bar fails.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import math
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import benchlib as bl

# ------------------------------------------------------------------------------------------------
# The C ABI, declared here (self-contained: no dependency on the Python binding). Mirrors fathom.h.
# ------------------------------------------------------------------------------------------------


class Intrinsics(ctypes.Structure):  # fathom_intrinsics
    _fields_ = [("fx", ctypes.c_float), ("fy", ctypes.c_float), ("cx", ctypes.c_float), ("cy", ctypes.c_float),
                ("width", ctypes.c_uint32), ("height", ctypes.c_uint32)]


class DepthFrame(ctypes.Structure):  # fathom_depth_frame
    _fields_ = [("depth", ctypes.c_void_p), ("format", ctypes.c_uint32), ("width", ctypes.c_uint32),
                ("height", ctypes.c_uint32), ("row_stride", ctypes.c_size_t), ("scale", ctypes.c_float),
                ("confidence", ctypes.POINTER(ctypes.c_uint8)), ("confidence_stride", ctypes.c_size_t),
                ("min_confidence", ctypes.c_uint8), ("reserved", ctypes.c_uint8 * 3),
                ("min_depth", ctypes.c_float), ("max_depth", ctypes.c_float), ("intrinsics", Intrinsics),
                ("camera_to_world", ctypes.c_float * 16), ("has_pose", ctypes.c_uint32)]


class LineFit(ctypes.Structure):  # fathom_line_fit
    _fields_ = [("point", ctypes.c_double * 3), ("direction", ctypes.c_double * 3), ("rms", ctypes.c_double),
                ("max_residual", ctypes.c_double), ("t_min", ctypes.c_double), ("t_max", ctypes.c_double),
                ("used", ctypes.c_uint64)]


class PlaneFit(ctypes.Structure):  # fathom_plane_fit
    _fields_ = [("point", ctypes.c_double * 3), ("normal", ctypes.c_double * 3), ("rms", ctypes.c_double),
                ("max_residual", ctypes.c_double), ("used", ctypes.c_uint64)]


class RansacOptions(ctypes.Structure):  # fathom_ransac_options (fill it with fathom_ransac_options_init)
    _fields_ = [("threshold", ctypes.c_double), ("iterations", ctypes.c_uint32), ("reserved", ctypes.c_uint32),
                ("seed", ctypes.c_uint64), ("confidence", ctypes.c_double)]


# Layout checks against the C sizes (x86-64 / aarch64 LP64).
assert ctypes.sizeof(DepthFrame) == 160 and DepthFrame.intrinsics.offset == 68 and DepthFrame.has_pose.offset == 156
assert ctypes.sizeof(LineFit) == 88 and ctypes.sizeof(PlaneFit) == 72 and ctypes.sizeof(RansacOptions) == 32
assert RansacOptions.confidence.offset == 24

FATHOM_DEPTH_FLOAT32 = 0
FATHOM_FRAME_OPTICAL, FATHOM_FRAME_CAMERA = 0, 1

_f32p = ctypes.POINTER(ctypes.c_float)
_f64p = ctypes.POINTER(ctypes.c_double)
_sizep = ctypes.POINTER(ctypes.c_size_t)
_PROTOTYPES = {
    # fathom_status fathom_depth_frame_init(fathom_depth_frame *, const void *depth, uint32_t format,
    #                                       uint32_t width, uint32_t height, const fathom_intrinsics *)
    "fathom_depth_frame_init": [ctypes.POINTER(DepthFrame), ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32,
                                ctypes.c_uint32, ctypes.POINTER(Intrinsics)],
    # fathom_status fathom_depth_count(const fathom_depth_frame *, const fathom_depth_selection *, size_t *)
    "fathom_depth_count": [ctypes.POINTER(DepthFrame), ctypes.c_void_p, _sizep],
    # fathom_status fathom_depth_backproject(const fathom_depth_frame *, const fathom_depth_selection *,
    #     uint32_t out_frame, float *out_points, uint32_t *out_pixels, float *out_normals, size_t capacity,
    #     size_t *out_count)
    "fathom_depth_backproject": [ctypes.POINTER(DepthFrame), ctypes.c_void_p, ctypes.c_uint32, _f32p,
                                 ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, _sizep],
    # fathom_status fathom_fit_line3(const double *points, size_t count, size_t stride, fathom_line_fit *)
    "fathom_fit_line3": [_f64p, ctypes.c_size_t, ctypes.c_size_t, ctypes.POINTER(LineFit)],
    # fathom_status fathom_ransac_options_init(fathom_ransac_options *)
    "fathom_ransac_options_init": [ctypes.POINTER(RansacOptions)],
    # fathom_status fathom_fit_plane_ransac(const double *, size_t count, size_t stride,
    #                                       const fathom_ransac_options *, fathom_plane_fit *, uint8_t *out_inliers)
    "fathom_fit_plane_ransac": [_f64p, ctypes.c_size_t, ctypes.c_size_t, ctypes.POINTER(RansacOptions),
                                ctypes.POINTER(PlaneFit), ctypes.c_void_p],
    # fathom_status fathom_fit_line_ransac(const double *, size_t count, size_t stride, uint32_t dimensions,
    #                                      const fathom_ransac_options *, fathom_line_fit *, uint8_t *out_inliers)
    "fathom_fit_line_ransac": [_f64p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_uint32, ctypes.POINTER(RansacOptions),
                               ctypes.POINTER(LineFit), ctypes.c_void_p],
}


# ------------------------------------------------------------------------------------------------
# Inputs
# ------------------------------------------------------------------------------------------------

SEED = 20240612
DATA = Path(os.environ.get("FATHOM_DATA", "/work/shared/data"))
ARKIT_NPY = DATA / "promptda_arkit" / "arkit_depth_mm_uint16.npy"
# RGB intrinsics (1920x1440) whose inverse is depth-and-fish.md's K^-1.
KINV_F, KINV_CX, KINV_CY = 7.0161547e-4, 0.67513853, 0.5045314
RGB_W, RGB_H = 1920, 1440
RGB_FX = 1.0 / KINV_F
RGB_CX, RGB_CY = KINV_CX / KINV_F, KINV_CY / KINV_F


def base_depth() -> tuple[np.ndarray, str]:
    """The 192x256 ARKit map in meters (float32), or a generated slanted floor with a box if it is missing."""
    if ARKIT_NPY.is_file():
        mm = np.load(ARKIT_NPY)
        if mm.shape == (192, 256):
            return (mm.astype(np.float32) * np.float32(0.001)), f"ARKit LiDAR map {ARKIT_NPY} (mm -> m)"
    j, i = np.mgrid[0:192, 0:256].astype(np.float32)
    d = 1.5 + 1.5 * j / 191 + 0.2 * np.sin(i / 20)
    d[60:120, 90:170] -= 0.4
    return d.astype(np.float32), "generated (data file missing): slanted plane with a box"


def make_depth(base: np.ndarray, w: int, h: int, rng) -> np.ndarray:
    """base resampled (nearest) to h x w with a small ripple, ~3% of the samples invalid (0, NaN, Inf, < 0)."""
    if (h, w) == base.shape:
        d = base.copy()
    else:
        rows = (np.arange(h) * base.shape[0]) // h
        cols = (np.arange(w) * base.shape[1]) // w
        d = base[rows][:, cols].astype(np.float32)
        jj, ii = np.mgrid[0:h, 0:w].astype(np.float32)
        d += np.float32(0.002) * np.sin(ii / 7) * np.cos(jj / 11)
    d = np.ascontiguousarray(d, dtype=np.float32)
    n = d.size
    flat = d.reshape(-1)
    bad = rng.choice(n, size=int(0.03 * n), replace=False)
    kinds = np.array([0.0, np.nan, np.inf, -1.0], np.float32)
    flat[bad] = kinds[np.arange(len(bad)) % 4]
    return d


def grid_intrinsics(w: int, h: int) -> tuple[float, float, float, float]:
    """The RGB intrinsics scaled to a w x h grid (conventions.md)."""
    sx, sy = w / RGB_W, h / RGB_H
    return RGB_FX * sx, RGB_FX * sy, RGB_CX * sx, RGB_CY * sy


# ------------------------------------------------------------------------------------------------
# 1. Back-projection
# ------------------------------------------------------------------------------------------------


def bench_backprojection(lib, o3d, base, w, h, repeat, rng, problems, results, report) -> None:
    depth = make_depth(base, w, h, rng)
    fx, fy, cx, cy = grid_intrinsics(w, h)
    n = w * h
    # Reference, float64: optical (i + 0.5 - cx') / fx' * d, ...
    valid = np.isfinite(depth) & (depth > 0)
    nvalid = int(np.count_nonzero(valid))
    jj, ii = np.nonzero(valid)
    d64 = depth[valid].astype(np.float64)
    ref = np.stack(((ii + 0.5 - cx) / fx * d64, (jj + 0.5 - cy) / fy * d64, d64), axis=1)
    scale_m = float(np.max(np.abs(ref)))
    tol = 4e-6 * scale_m  # a few float32 ulps of the largest coordinate
    label = f"{w}x{h}"
    print(f"\n[back-projection {label}] {n:,} samples, {nvalid:,} valid ({1 - nvalid / n:.1%} invalid), depth "
          f"{np.nanmin(np.where(valid, depth, np.nan)):.3f}..{np.nanmax(np.where(valid, depth, np.nan)):.3f} m; "
          f"grid intrinsics fx' {fx:.3f} fy' {fy:.3f} cx' {cx:.3f} cy' {cy:.3f}")
    table = bl.Table(f"back-projection {label} float32 -> points; median of {repeat} runs", "Mpx/s")
    bytes_in = depth.nbytes
    checks = {}

    def agree(name, got, frame_sign=(1, 1, 1)):
        got = np.asarray(got, np.float64)
        if got.shape != ref.shape:
            problems.append(f"{label} {name}: {got.shape[0]} points, expected {ref.shape[0]}")
            checks[name] = f"{got.shape[0]} points (expected {ref.shape[0]})  <-- WRONG"
            return
        err = float(np.max(np.abs(got * np.asarray(frame_sign) - ref)))
        ok = err <= tol
        checks[name] = f"{got.shape[0]:,} points, max |diff| vs float64 {err:.2e} m" + ("" if ok else "  <-- WRONG")
        if not ok:
            problems.append(f"{label} {name}: max |diff| {err:.2e} m > {tol:.1e}")

    # --- Fathom
    fathom_fns, fathom_ok = {}, False
    out = np.empty((n, 3), np.float32)
    out.fill(0)
    if lib is not None:
        k = Intrinsics(RGB_FX, RGB_FX, RGB_CX, RGB_CY, RGB_W, RGB_H)
        frame = DepthFrame()
        bl.check_status(lib, "fathom_depth_frame_init",
                        lib.fathom_depth_frame_init(ctypes.byref(frame), depth.ctypes.data, FATHOM_DEPTH_FLOAT32,
                                                    w, h, ctypes.byref(k)))
        count = ctypes.c_size_t(0)
        fref, cref, optr = ctypes.byref(frame), ctypes.byref(count), out.ctypes.data_as(_f32p)
        bp = lib.fathom_depth_backproject
        bl.check_status(lib, "fathom_depth_count", lib.fathom_depth_count(fref, None, cref))
        if count.value != nvalid:
            problems.append(f"{label} fathom_depth_count: {count.value}, expected {nvalid}")
        checks["fathom count"] = f"{count.value:,}"

        def make(frame_id):
            def run():
                st = bp(fref, None, frame_id, optr, None, None, n, cref)
                if st:
                    bl.check_status(lib, "fathom_depth_backproject", st)
            return run

        fathom_fns = {"fathom camera": make(FATHOM_FRAME_CAMERA), "fathom optical": make(FATHOM_FRAME_OPTICAL)}
        fathom_fns["fathom camera"]()
        agree("fathom camera", out[:count.value], (1, -1, -1))
        fathom_fns["fathom optical"]()
        agree("fathom optical", out[:count.value])
        fathom_ok = True

    # --- numpy (vectorised; ray grids precomputed once, as a notebook would keep them)
    xr = ((np.arange(w, dtype=np.float32) + np.float32(0.5) - np.float32(cx)) / np.float32(fx))[None, :]
    yr = ((np.arange(h, dtype=np.float32) + np.float32(0.5) - np.float32(cy)) / np.float32(fy))[:, None]

    xg, yg = np.broadcast_to(xr, (h, w)).copy(), np.broadcast_to(yr, (h, w)).copy()  # meshgrid, kept

    def np_backproject():  # mask first, then multiply only the valid samples (the faster of the two)
        ok = np.isfinite(depth) & (depth > 0)
        z = depth[ok]
        return np.stack((xg[ok] * z, yg[ok] * z, z), axis=-1)

    def np_backproject_grid():  # the whole grid, then the mask
        ok = np.isfinite(depth) & (depth > 0)
        return np.stack((xr * depth, yr * depth, depth), axis=-1)[ok]

    agree("numpy", np_backproject())
    agree("numpy (grid, then mask)", np_backproject_grid())
    table.add("numpy", bl.measure(np_backproject, repeat), n, bytes_in,
              "ok = isfinite(d) & (d > 0); z = d[ok]; stack((X[ok]*z, Y[ok]*z, z))")
    table.add("numpy (grid, then mask)", bl.measure(np_backproject_grid, repeat), n, bytes_in,
              "stack((xr*d, yr*d, d))[ok]: slower, not used for the bar")

    # --- Open3D (one thread)
    if o3d is not None:
        img = o3d.geometry.Image(depth)
        intr = o3d.camera.PinholeCameraIntrinsic(w, h, fx, fy, cx - 0.5, cy - 0.5)
        ext = np.eye(4)

        def o3d_backproject():
            return o3d.geometry.PointCloud.create_from_depth_image(img, intr, ext, depth_scale=1.0,
                                                                    depth_trunc=1e30, stride=1,
                                                                    project_valid_depth_only=True)

        pc = o3d_backproject()
        pts = np.asarray(pc.points)
        # Open3D drops d <= 0 and NaN; its handling of +Inf (depth_trunc) decides whether Inf survives.
        keep = np.isfinite(pts).all(axis=1)
        if not keep.all():
            checks["open3d note"] = f"{int((~keep).sum())} non-finite points returned (Inf depth kept), dropped for the check"
        agree(f"open3d {o3d.__version__}", pts[keep])
        table.add("open3d create_from_depth_image", bl.measure(o3d_backproject, repeat), n, bytes_in,
                  f"float64 points out; Image built outside the timing; {bl.open3d_threads(o3d)} thread(s)")

    # --- Fathom and the copies, interleaved
    dst_in = np.empty_like(depth)
    dst_in.fill(0)
    out_bytes = ref.shape[0] * 12
    src_out = np.ones(out_bytes // 4, np.float32)
    dst_out = np.zeros_like(src_out)
    fns = {**fathom_fns, "copy in": lambda: np.copyto(dst_in, depth), "copy out": lambda: np.copyto(dst_out, src_out)}
    timings = bl.measure_interleaved(fns, repeat)
    rows = [bl.Row(k, timings[k], n, bytes_in, "whole grid, points only, output preallocated") for k in fathom_fns]
    table.rows[0:0] = rows
    table.add("memory copy: depth in", timings["copy in"], n, bytes_in, f"np.copyto of the {bytes_in / 1e6:.3g} MB of depth")
    table.add("memory copy: points out", timings["copy out"], n, bytes_in,
              f"np.copyto of {out_bytes / 1e6:.3g} MB (the valid points' float32 xyz)")
    refname = "fathom camera" if fathom_ok else None
    table.print(refname)
    print("(x vs fathom camera = that row's median / Fathom camera's: > 1 means Fathom is faster)")
    for k2, v in checks.items():
        print(f"  check {k2:<26} {v}")

    fc = table.get("fathom camera")
    fo = table.get("fathom optical")

    def ratio(key, label2, other_name, need):
        other = table.get(other_name)
        if fc is None or other is None:
            results[key] = bl.bar(label2, None, "not measured")
            return
        best = min(fc.timing.median, fo.timing.median)
        x = other.timing.median / fc.timing.median
        results[key] = bl.bar(label2, x >= need, f"{other_name} {other.timing.median * 1e3:.3f} ms / fathom camera "
                                                  f"{fc.timing.median * 1e3:.3f} ms = {x:.1f}x (optical: "
                                                  f"{other.timing.median / best:.1f}x best) (need >= {need:g}x)")

    print(f"targets {label} (medians):")
    ratio(f"bp{label}_numpy_5x", f"{label}: Fathom >= 5x numpy", "numpy", 5)
    ratio(f"bp{label}_open3d_2x", f"{label}: Fathom >= 2x Open3D", "open3d create_from_depth_image", 2)
    for key, cname in (("in", "memory copy: depth in"), ("out", "memory copy: points out")):
        cp = table.get(cname)
        if fc is None:
            results[f"bp{label}_copy_{key}_2x"] = bl.bar(f"{label}: within 2x of {cname}", None, "not measured")
            continue
        x = fc.timing.median / cp.timing.median
        results[f"bp{label}_copy_{key}_2x"] = bl.bar(
            f"{label}: Fathom within 2x of {cname}", x <= 2,
            f"fathom camera {fc.timing.median * 1e3:.3f} ms vs copy {cp.timing.median * 1e3:.3f} ms = {x:.2f}x (need <= 2x)")
    report[f"backprojection_{label}"] = {"samples": n, "valid": nvalid, "rows": table.to_json(), "checks": checks}


# ------------------------------------------------------------------------------------------------
# 2. 3D line fits
# ------------------------------------------------------------------------------------------------


def bench_line_fits(lib, sizes, repeat, svd_1e7, problems, results, report) -> None:
    direction = np.array([0.48, -0.6, 0.64])
    direction /= np.linalg.norm(direction)
    origin = np.array([0.3, -1.2, 2.5])
    table = bl.Table(f"\n3D line fit (total least squares), float64 points; median of >= 7 runs", "Mpts/s")
    checks = {}
    for n in sizes:
        rng = np.random.default_rng(SEED + n)
        t = rng.uniform(-0.4, 0.4, n)
        pts = origin + t[:, None] * direction + rng.normal(0, 0.003, (n, 3))
        pts = np.ascontiguousarray(pts, np.float64)
        bytes_in = pts.nbytes
        reps = repeat if n <= 1_000_000 else 7
        dirs = {}

        def np_eigh():
            c = pts.mean(axis=0)
            q = pts - c
            cov = q.T @ q / n
            w_, v_ = np.linalg.eigh(cov)
            return c, v_[:, -1]

        def np_svd():
            c = pts.mean(axis=0)
            _, _, vt = np.linalg.svd(pts - c, full_matrices=False)
            return c, vt[0]

        if lib is not None:
            fit = LineFit()
            pp, fref = pts.ctypes.data_as(_f64p), ctypes.byref(fit)
            f = lib.fathom_fit_line3

            def fathom_fit():
                st = f(pp, n, 0, fref)
                if st:
                    bl.check_status(lib, "fathom_fit_line3", st)

            fathom_fit()
            dirs["fathom"] = (np.array(fit.point[:]), np.array(fit.direction[:]))
            table.add(f"fathom_fit_line3 n={n:.0e}", bl.measure(fathom_fit, reps), n, bytes_in,
                      f"rms {fit.rms:.4f}, used {fit.used}")
        dirs["eigh"] = np_eigh()
        table.add(f"numpy eigh(cov) n={n:.0e}", bl.measure(np_eigh, reps, warmup=1), n, bytes_in,
                  "mean, (P-c).T@(P-c)/n, eigh")
        if n < 10_000_000 or svd_1e7:
            dirs["svd"] = np_svd()
            table.add(f"numpy svd n={n:.0e}", bl.measure(np_svd, reps, warmup=1), n, bytes_in,
                      "mean, svd(P-c, full_matrices=False)")
        # Directions agree up to sign; centroids agree.
        ref_c, ref_d = dirs["eigh"]
        for name, (c, d) in dirs.items():
            dc = float(np.max(np.abs(c - ref_c)))
            # atan2(|a x b|, |a . b|): acos of a dot product near 1 cannot resolve angles below ~2e-8 rad (one ulp).
            ang = math.degrees(math.atan2(float(np.linalg.norm(np.cross(d, ref_d))), abs(float(np.dot(d, ref_d)))))
            true_ang = math.degrees(math.atan2(float(np.linalg.norm(np.cross(d, direction))), abs(float(np.dot(d, direction)))))
            ok = ang < 1e-9 and dc < 1e-9
            checks[f"n={n:.0e} {name}"] = (f"angle to eigh {ang:.1e} deg, centroid diff {dc:.1e} m, angle to the "
                                           f"generating line {true_ang:.3f} deg" + ("" if ok else "  <-- DISAGREE"))
            if not ok:
                problems.append(f"line fit n={n}: {name} disagrees with eigh ({ang:.2e} deg, {dc:.1e} m)")
        if lib is not None and dirs["fathom"][1][np.argmax(np.abs(dirs["fathom"][1]))] < 0:
            problems.append(f"line fit n={n}: fathom direction's largest component is negative (header: positive)")
        del pts
    table.print(None)
    print("(x: see the targets; each size's rows share the same points)")
    for k, v in checks.items():
        print(f"  check {k:<18} {v}")
    if not svd_1e7 and 10_000_000 in sizes:
        print("  (numpy svd at n=1e7 skipped: --no-svd-1e7)")
    print("targets (medians):")
    for n in sizes:
        fr = table.get(f"fathom_fit_line3 n={n:.0e}")
        for other in ("eigh(cov)", "svd"):
            o = table.get(f"numpy {other} n={n:.0e}")
            key = f"line{n:.0e}_{other.split('(')[0]}_5x"
            if fr is None or o is None:
                results[key] = bl.bar(f"line fit n={n:.0e}: Fathom >= 5x numpy {other}", None, "not measured")
                continue
            x = o.timing.median / fr.timing.median
            results[key] = bl.bar(f"line fit n={n:.0e}: Fathom >= 5x numpy {other}", x >= 5,
                                  f"numpy {o.timing.median * 1e3:.2f} ms / fathom {fr.timing.median * 1e3:.3f} ms = "
                                  f"{x:.1f}x (need >= 5x)")
    report["line_fit"] = {"rows": table.to_json(), "checks": checks}


# ------------------------------------------------------------------------------------------------
# 3. Plane and line RANSAC
# ------------------------------------------------------------------------------------------------

RANSAC_THRESHOLD = 0.01
RANSAC_ITERATIONS = 1000
INLIER_TOLERANCE = 0.001   # the bar: Fathom's inlier count >= the anchor's x (1 - this)
RMS_TOLERANCE = 0.01       # ... and its inliers' RMS distance <= the anchor's x (1 + this)


def plane_points(n: int, outliers: float, seed: int):
    """n float64 points: (1 - outliers) of them on a tilted plane with 2 mm Gaussian noise along the normal, the
    rest uniform in a 2.4 m cube around it, shuffled. (n = 1e5, outliers = 0.3, seed SEED + 7: the points of the
    earlier runs.)"""
    rng = np.random.default_rng(seed)
    normal = np.array([0.2, -0.9, 0.35])
    normal /= np.linalg.norm(normal)
    u = np.cross(normal, [1.0, 0, 0])
    u /= np.linalg.norm(u)
    v = np.cross(normal, u)
    centre = np.array([0.1, -0.8, 2.0])
    n_in = int(round((1 - outliers) * n))
    a, b = rng.uniform(-1, 1, n_in), rng.uniform(-1, 1, n_in)
    on = centre + a[:, None] * u + b[:, None] * v + rng.normal(0, 0.002, n_in)[:, None] * normal
    off = centre + rng.uniform(-1.2, 1.2, (n - n_in, 3))
    pts = np.concatenate([on, off])
    pts = np.ascontiguousarray(pts[rng.permutation(n)], np.float64)
    return pts, normal, float(np.dot(normal, centre))


def line_points(n: int, outliers: float, seed: int):
    """n float64 points: (1 - outliers) of them on a 0.8 m segment with 3 mm Gaussian noise per coordinate, the
    rest uniform in a 1.2 m cube around it, shuffled."""
    rng = np.random.default_rng(seed)
    direction = np.array([0.48, -0.6, 0.64])
    direction /= np.linalg.norm(direction)
    origin = np.array([0.3, -1.2, 2.5])
    n_in = int(round((1 - outliers) * n))
    t = rng.uniform(-0.4, 0.4, n_in)
    on = origin + t[:, None] * direction + rng.normal(0, 0.003, (n_in, 3))
    off = origin + rng.uniform(-0.6, 0.6, (n - n_in, 3))
    pts = np.concatenate([on, off])
    pts = np.ascontiguousarray(pts[rng.permutation(n)], np.float64)
    return pts, direction, origin


def plane_distances(pts, normal, offset):
    nrm = np.asarray(normal, np.float64)
    k = np.linalg.norm(nrm)
    return np.abs(pts @ (nrm / k) - offset / k)


def line_distances(pts, point, direction):
    d = np.asarray(direction, np.float64)
    d = d / np.linalg.norm(d)
    q = pts - np.asarray(point, np.float64)
    t = q @ d
    return np.sqrt(np.maximum(np.einsum("ij,ij->i", q, q) - t * t, 0.0))


def quality(dist, thr):
    """Inliers of a returned model (points within thr of it) and their RMS distance to it."""
    inl = dist <= thr
    k = int(np.count_nonzero(inl))
    return k, float(np.sqrt(np.mean(dist[inl] ** 2))) if k else float("nan")


def numpy_line_ransac(pts, thr, max_iterations, confidence, seed):
    """The line RANSAC a numpy user writes, with the stopping rule of fathom_ransac_options: pairs of distinct points,
    inliers counted within thr of their line, stop after k pairs once 1 - (1 - w^2)^k >= confidence (w = the best
    pair's inlier fraction so far; checked after every pair), then one total-least-squares refit (eigh of the
    inliers' covariance). Returns (centroid, direction, inliers of the best pair, pairs drawn)."""
    rng = np.random.default_rng(seed)
    n = len(pts)
    thr2 = thr * thr
    best_count, best = -1, None
    limit = math.inf
    k = 0
    while k < max_iterations:
        k += 1
        i = int(rng.integers(n))
        j = int(rng.integers(n - 1))
        j += j >= i
        a = pts[i]
        d = pts[j] - a
        length = math.sqrt(float(d @ d))
        if length == 0:
            continue
        d = d / length
        q = pts - a
        t = q @ d
        count = int(np.count_nonzero(np.einsum("ij,ij->i", q, q) - t * t <= thr2))
        if count > best_count:
            best_count, best = count, (a, d)
            w = count / n
            if confidence < 1:
                limit = 0 if w >= 1 else (math.log1p(-confidence) / math.log1p(-w * w) if w > 0 else math.inf)
        if k >= limit:
            break
    a, d = best
    q = pts - a
    t = q @ d
    inl = np.einsum("ij,ij->i", q, q) - t * t <= thr2
    sel = pts[inl]
    c = sel.mean(axis=0)
    r = sel - c
    _, vecs = np.linalg.eigh(r.T @ r)
    return c, vecs[:, -1], int(np.count_nonzero(inl)), k


def run_rounds(fns: dict, repeat: int, warmup: int = 1) -> tuple[dict, dict]:
    """Round-robin like bl.measure_interleaved, each fn(seed) called with the round's seed (1, 2, ...; the warm-up
    with 1001, ...), so that the adaptive engines are timed over several random streams, not one lucky or
    unlucky seed. Returns {name: Timing} and {name: [each round's result]}."""
    for w in range(warmup):
        for fn in fns.values():
            fn(1001 + w)
    times = {name: [] for name in fns}
    out = {name: [] for name in fns}
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for k in range(repeat):
            for name, fn in fns.items():
                t0 = time.perf_counter_ns()
                res = fn(k + 1)
                times[name].append((time.perf_counter_ns() - t0) * 1e-9)
                out[name].append(res)
    finally:
        if was_enabled:
            gc.enable()
    return {name: bl.Timing(s) for name, s in times.items()}, out


def per_round(num: bl.Timing, den: bl.Timing) -> tuple[float, float, float]:
    r = [a / b for a, b in zip(num.seconds, den.seconds)]
    return statistics.median(r), min(r), max(r)


def fathom_ransac_options(lib, seed, confidence=None, iterations=None) -> RansacOptions:
    opts = RansacOptions()
    bl.check_status(lib, "fathom_ransac_options_init", lib.fathom_ransac_options_init(ctypes.byref(opts)))
    opts.threshold = RANSAC_THRESHOLD
    opts.seed = seed
    if confidence is not None:
        opts.confidence = confidence
    if iterations is not None:
        opts.iterations = iterations
    return opts


def ransac_rows(kind, label, pts, fns, names, repeat, dist_of, truth_ok, problems, checks) -> dict:
    """Times fns (round-robin, a seed per round), evaluates every round's model: inliers within the threshold of
    the returned model and their RMS distance (the same computation for every engine), the engine's own count,
    and the check against the generating model. Prints the rows; returns them."""
    timings, results = run_rounds(fns, repeat)
    rows = {}
    for name in fns:
        qs = []
        for k, model in enumerate(results[name]):
            inl, rms = quality(dist_of(model), RANSAC_THRESHOLD)
            qs.append((inl, rms, model["own"], model.get("drawn")))
            ok, why = truth_ok(model, inl)
            if not ok:
                checks.append(f"{label} {name} round {k + 1}: {why}  <-- off")
                if name.startswith("fathom"):
                    problems.append(f"{kind} RANSAC {label} {name} (seed {k + 1}): {why}")
        t = timings[name]
        rows[name] = {"timing": t, "inliers": statistics.median(q[0] for q in qs),
                      "inliers_range": (min(q[0] for q in qs), max(q[0] for q in qs)),
                      "rms": statistics.median(q[1] for q in qs), "rms_range": (min(q[1] for q in qs), max(q[1] for q in qs)),
                      "own": statistics.median(q[2] for q in qs),
                      "drawn": statistics.median(q[3] for q in qs) if qs[0][3] is not None else None,
                      "runs": [{"s": s, "inliers": q[0], "rms": q[1], "own_count": q[2], "drawn": q[3]}
                               for s, q in zip(t.seconds, qs)]}
    w = max(len(n) for n in fns) + 2
    head = (f"{'engine':<{w}} {'settings':<40} {'median ms':>10} {'spread':>7} {'inliers (to its model)':>24} "
            f"{'RMS mm':>7} {'own count':>10}")
    print(head)
    print("-" * len(head))
    for name in fns:
        r = rows[name]
        t = r["timing"]
        lo, hi = r["inliers_range"]
        inl = f"{r['inliers']:,.0f} [{lo:,}-{hi:,}]" if lo != hi else f"{r['inliers']:,.0f}"
        print(f"{name:<{w}} {names[name]:<40} {t.median * 1e3:10.2f} {t.spread:7.0%} {inl:>24} {r['rms'] * 1e3:7.3f} "
              f"{r['own']:>10,.0f}" + (f"  ({r['drawn']:.0f} samples drawn)" if r["drawn"] is not None else ""))
    return rows


def ransac_bar(results, key, label, f, o, anchor) -> None:
    if f is None or o is None:
        results[key] = bl.bar(label, None, "not measured")
        return
    x = o["timing"].median / f["timing"].median
    med, lo, hi = per_round(o["timing"], f["timing"])
    inl_ok = f["inliers"] >= o["inliers"] * (1 - INLIER_TOLERANCE)
    rms_ok = f["rms"] <= o["rms"] * (1 + RMS_TOLERANCE)
    results[key] = bl.bar(label, x >= 2 and inl_ok and rms_ok,
                          f"{anchor} {o['timing'].median * 1e3:.1f} ms / fathom {f['timing'].median * 1e3:.1f} ms = "
                          f"{x:.1f}x (per round {med:.1f}x, {lo:.1f}-{hi:.1f}; need >= 2x); inliers {f['inliers']:,.0f} vs "
                          f"{o['inliers']:,.0f} ({'ok' if inl_ok else 'FEWER'}); RMS {f['rms'] * 1e3:.3f} vs "
                          f"{o['rms'] * 1e3:.3f} mm ({'ok' if rms_ok else 'WORSE'})")


def bench_plane_ransac(lib, o3d, repeat, sizes, problems, results, report) -> None:
    thr, iters = RANSAC_THRESHOLD, RANSAC_ITERATIONS
    report["plane_ransac"] = []
    for n, outliers in [(s, f) for s in sizes for f in (0.3, 0.5)]:
        seed = SEED + 7 if (n, outliers) == (100_000, 0.3) else SEED + 7 + n // 1000 + int(outliers * 100)
        pts, normal, offset = plane_points(n, outliers, seed)
        true_inliers = int(np.count_nonzero(np.abs(pts @ normal - offset) <= thr))
        label = f"{n:.0e} points, {outliers:.0%} outliers"
        print(f"\n[plane RANSAC, {label}] {n - int(round(outliers * n)):,} on a plane (normal "
              f"{np.round(normal, 3).tolist()}, 2 mm noise), {int(round(outliers * n)):,} uniform outliers in a 2.4 m "
              f"cube; threshold {thr} m; {true_inliers:,} points within the threshold of the true plane. Round k uses "
              f"seed k for both engines; median of {repeat} rounds, round-robin")
        checks: list[str] = []
        fns, names = {}, {}
        if lib is not None:
            fit = PlaneFit()
            pp, fref = pts.ctypes.data_as(_f64p), ctypes.byref(fit)
            f = lib.fathom_fit_plane_ransac

            def fathom(conf):
                def run(seed):
                    opts = fathom_ransac_options(lib, seed, conf)
                    st = f(pp, n, 0, ctypes.byref(opts), fref, None)
                    if st:
                        bl.check_status(lib, "fathom_fit_plane_ransac", st)
                    return {"normal": fit.normal[:], "offset": float(np.dot(fit.normal[:], fit.point[:])),
                            "own": int(fit.used)}
                return run

            fns["fathom defaults"] = fathom(None)
            names["fathom defaults"] = "init: max 1000 samples, confidence 0.99"
        if o3d is not None:
            pc = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(pts))
            seeder = o3d.utility.random.seed

            def open3d(prob):
                def run(seed):
                    seeder(seed)
                    if prob is None:
                        model, inl = pc.segment_plane(distance_threshold=thr, ransac_n=3, num_iterations=iters)
                    else:
                        model, inl = pc.segment_plane(distance_threshold=thr, ransac_n=3, num_iterations=iters,
                                                      probability=prob)
                    m = np.asarray(model, np.float64)
                    return {"normal": m[:3], "offset": -float(m[3]), "own": len(inl)}
                return run

            fns["open3d defaults"] = open3d(None)
            names["open3d defaults"] = "1000 iterations, probability 0.99999999"
        fixed = (n, outliers) == (100_000, 0.3)
        if fixed:
            if lib is not None:
                fns["fathom 1000 samples"] = fathom(1.0)
                names["fathom 1000 samples"] = "confidence 1: all 1000 samples"
            if o3d is not None:
                fns["open3d 1000 iterations"] = open3d(1.0)
                names["open3d 1000 iterations"] = "probability 1.0: all 1000 iterations"
        if not fns:
            continue

        def dist_of(model):
            return plane_distances(pts, model["normal"], model["offset"])

        def truth_ok(model, inl):
            nrm = np.asarray(model["normal"], np.float64)
            ang = math.degrees(math.acos(min(1.0, abs(float(np.dot(nrm / np.linalg.norm(nrm), normal))))))
            ok = ang < 0.5 and abs(inl - true_inliers) <= 0.02 * true_inliers
            return ok, f"normal {ang:.3f} deg from the true one, {inl:,} inliers (true plane: {true_inliers:,})"

        rows = ransac_rows("plane", label, pts, fns, names, repeat, dist_of, truth_ok, problems, checks)
        if lib is not None:  # reproducible for a seed
            a, b = fns["fathom defaults"](7), fns["fathom defaults"](7)
            if a != b:
                problems.append(f"plane RANSAC {label}: fathom not reproducible for a fixed seed")
        for c in checks:
            print(f"  check {c}")
        if not checks:
            print(f"  check: every round's plane within 0.5 deg of the true normal, its inliers within 2% of the true "
                  f"plane's {true_inliers:,}")
        key = f"ransac_plane_{n:.0e}_{int(outliers * 100)}"
        ransac_bar(results, f"{key}_defaults_2x", f"plane RANSAC {label}: Fathom >= 2x Open3D at defaults, inliers and "
                   f"RMS at least as good", rows.get("fathom defaults"), rows.get("open3d defaults"), "open3d")
        if fixed:
            ransac_bar(results, "ransac_open3d_2x", f"plane RANSAC {label}: Fathom >= 2x Open3D, all 1000 samples, "
                       f"inliers and RMS at least as good", rows.get("fathom 1000 samples"),
                       rows.get("open3d 1000 iterations"), "open3d")
        report["plane_ransac"].append({
            "points": n, "outliers": outliers, "threshold": thr, "true_inliers": true_inliers, "checks": checks,
            "rows": {k: {**{kk: vv for kk, vv in v.items() if kk != "timing"}, "settings": names[k],
                         "median_s": v["timing"].median, "min_s": v["timing"].min, "runs_s": v["timing"].seconds}
                     for k, v in rows.items()}})
        del pts


def bench_line_ransac(lib, repeat, sizes, problems, results, report) -> None:
    thr, iters = RANSAC_THRESHOLD, RANSAC_ITERATIONS
    report["line_ransac"] = []
    print("\n(Open3D has no line RANSAC: Fathom's line RANSAC is compared with a numpy reference at the same stopping "
          "rule)")
    for n, outliers in [(s, f) for s in sizes for f in (0.3, 0.5)]:
        pts, direction, origin = line_points(n, outliers, SEED + 11 + n // 1000 + int(outliers * 100))
        true_inliers = int(np.count_nonzero(line_distances(pts, origin, direction) <= thr))
        label = f"{n:.0e} points, {outliers:.0%} outliers"
        print(f"\n[line RANSAC, {label}] {n - int(round(outliers * n)):,} on a 0.8 m line (3 mm noise per coordinate), "
              f"{int(round(outliers * n)):,} uniform outliers in a 1.2 m cube; threshold {thr} m; {true_inliers:,} "
              f"points within the threshold of the true line; seed k in round k; median of {repeat} rounds")
        checks: list[str] = []
        fns, names = {}, {}
        if lib is not None:
            fit = LineFit()
            pp, fref = pts.ctypes.data_as(_f64p), ctypes.byref(fit)
            f = lib.fathom_fit_line_ransac

            def fathom_line(seed):
                opts = fathom_ransac_options(lib, seed)
                st = f(pp, n, 0, 3, ctypes.byref(opts), fref, None)
                if st:
                    bl.check_status(lib, "fathom_fit_line_ransac", st)
                return {"point": fit.point[:], "direction": fit.direction[:], "own": int(fit.used)}

            fns["fathom defaults"] = fathom_line
            names["fathom defaults"] = "init: max 1000 samples, confidence 0.99"

        def numpy_line(seed):
            c, d, own, drawn = numpy_line_ransac(pts, thr, iters, 0.99, seed)
            return {"point": c, "direction": d, "own": own, "drawn": drawn}

        fns["numpy reference"] = numpy_line
        names["numpy reference"] = "max 1000 pairs, confidence 0.99, 1 refit"

        def dist_of(model):
            return line_distances(pts, model["point"], model["direction"])

        def truth_ok(model, inl):
            d = np.asarray(model["direction"], np.float64)
            ang = math.degrees(math.atan2(float(np.linalg.norm(np.cross(d, direction))), abs(float(np.dot(d, direction)))))
            ok = ang < 0.5 and abs(inl - true_inliers) <= 0.02 * true_inliers
            return ok, f"direction {ang:.3f} deg from the true one, {inl:,} inliers (true line: {true_inliers:,})"

        rows = ransac_rows("line", label, pts, fns, names, repeat, dist_of, truth_ok, problems, checks)
        for c in checks:
            print(f"  check {c}")
        if not checks:
            print(f"  check: every round's line within 0.5 deg of the true direction, its inliers within 2% of the true "
                  f"line's {true_inliers:,}")
        ransac_bar(results, f"ransac_line_{n:.0e}_{int(outliers * 100)}_defaults_2x",
                   f"line RANSAC {label}: Fathom >= 2x numpy at the same rule, inliers and RMS at least as good",
                   rows.get("fathom defaults"), rows.get("numpy reference"), "numpy")
        report["line_ransac"].append({
            "points": n, "outliers": outliers, "threshold": thr, "true_inliers": true_inliers, "checks": checks,
            "rows": {k: {**{kk: vv for kk, vv in v.items() if kk != "timing"}, "settings": names[k],
                         "median_s": v["timing"].median, "min_s": v["timing"].min, "runs_s": v["timing"].seconds}
                     for k, v in rows.items()}})
        del pts


# ------------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=bl.default_repeat(), help="timed runs per engine (>= 7)")
    ap.add_argument("--lib", default=bl.library_path(), help="libfathom.so (default: $FATHOM_LIBRARY)")
    ap.add_argument("--max-fit", type=int, default=10_000_000, help="largest line-fit size (1e4, 1e6, 1e7)")
    ap.add_argument("--no-svd-1e7", action="store_true", help="skip numpy svd at 1e7 points (~1 s a run)")
    ap.add_argument("--only", default="bp,line,ransac,lransac",
                    help="comma-separated parts: bp, line, ransac (plane), lransac (line RANSAC)")
    ap.add_argument("--ransac-max", type=int, default=1_000_000, help="largest RANSAC size (1e5, 1e6)")
    args = ap.parse_args()
    repeat = max(7, args.repeat)
    parts = set(args.only.split(","))
    m = bl.machine_summary()
    print(f"depth: back-projection, line fits, plane and line RANSAC; {repeat} timed runs after warm-up; CPU {m['cpu']}, "
          f"avx2 {bl._yn(m['avx2'])}, pinned to CPUs {','.join(map(str, m['pinned_to']))}")
    if len(m["pinned_to"]) != 1:
        print("WARNING: not pinned to one core: run through `make -C bench` or `taskset -c 0`")

    problems: list[str] = []
    results: dict = {}
    report: dict = {}
    fathom_error = None
    lib = None
    try:
        lib = bl.load_fathom(args.lib)
        bl.declare(lib, _PROTOTYPES)
        print(f"fathom {bl.fathom_version(lib)}: {args.lib}")
    except (bl.FathomUnavailable, RuntimeError) as e:
        fathom_error = str(e)
        lib = None
        print(f"fathom: NOT MEASURED: {e}")
    o3d, why = bl.import_open3d()
    if o3d is None:
        print(f"open3d: NOT MEASURED: {why}")
    else:
        print(f"open3d {o3d.__version__}: {bl.open3d_threads(o3d)} thread(s)")

    try:
        if "bp" in parts:
            base, what = base_depth()
            print(f"depth source: {what}")
            rng = np.random.default_rng(SEED)
            for w, h in ((256, 192), (1920, 1440)):
                bench_backprojection(lib, o3d, base, w, h, repeat, rng, problems, results, report)
        if "line" in parts:
            sizes = [s for s in (10_000, 1_000_000, 10_000_000) if s <= args.max_fit]
            bench_line_fits(lib, sizes, repeat, not args.no_svd_1e7, problems, results, report)
        ransac_sizes = [s for s in (100_000, 1_000_000) if s <= args.ransac_max]
        if "ransac" in parts:
            bench_plane_ransac(lib, o3d, repeat, ransac_sizes, problems, results, report)
        if "lransac" in parts:
            bench_line_ransac(lib, repeat, ransac_sizes, problems, results, report)
    except RuntimeError as e:  # a Fathom call failed
        fathom_error = str(e)
        print(f"fathom: FAILED: {e}")

    print("\nall targets:")
    for k, v in results.items():
        print(f"  {'PASS' if v else ('N/A ' if v is None else 'FAIL')}  {k}")
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(f"  {p}")
    path = bl.save_json("depth", {"repeat": repeat, "rgb_intrinsics": [RGB_FX, RGB_FX, RGB_CX, RGB_CY, RGB_W, RGB_H],
                                  **report, "targets": results, "problems": problems, "fathom_error": fathom_error})
    print(f"\n(raw numbers: {os.path.relpath(path)})")
    if fathom_error or problems:
        return 1
    if bl.strict() and not all(v for v in results.values() if v is not None):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
