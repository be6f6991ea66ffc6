#!/usr/bin/env python3
"""Point-in-oriented-box culling: Fathom against numpy, Open3D and a memory copy.

10M float32 points (xyz packed, stride 12 bytes, C-contiguous), uniform in [-1, 1]^3 from a fixed seed;
one box with a general 3D rotation (not axis-aligned), centre near the origin, full extents
(0.8, 0.6, 1.0) (6% of the points inside, as for the Open3D figure in reference/anchors.md; --scale-factor
1.35 gives ~15%). Every engine gets the same points and box.

Note: Open3D's query time grows with the number of points inside (it builds a std::vector and then a
Python list of the indices, ~30 ns per selected point; an empty box takes ~12 ms), so the fraction inside
matters when comparing against it.

Engines (each: warm-up, then >= 7 timed runs; the table shows median and min):
  fathom count / mask / indices   libfathom.so through ctypes (outputs preallocated outside the timing)
  numpy count / mask / indices    local = (P - c) @ R; all(|local| <= half, axis=1); count_nonzero, flatnonzero
  open3d query                    OrientedBoundingBox(c, R, extent).get_point_indices_within_bounding_box(V)
                                  with V = Vector3dVector(points as float64), converted outside the timing
  memory copy                     np.copyto of the same 120 MB into a preallocated array (bandwidth limit)

Results are checked against a float64 computation: every engine must find the same points, except
points lying on a face within float32 rounding (reported, not an error).

Usage: python cull.py [--points N] [--repeat R] [--scale-factor F] [--lib PATH]   (normally through `make -C bench`)
Exit status: 1 if the library could not be measured or an engine selects a point that is clearly
inside/outside wrongly; with FATHOM_BENCH_STRICT=1 (make STRICT=1) also if a target bar fails.
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


class Quat(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float), ("w", ctypes.c_float)]


class Obb(ctypes.Structure):  # fathom_obb
    _fields_ = [("center", Vec3), ("scale", Vec3), ("rotation", Quat)]


_f32p = ctypes.POINTER(ctypes.c_float)
_sizep = ctypes.POINTER(ctypes.c_size_t)
_PROTOTYPES = {
    # fathom_status fathom_obb_count_inside(const fathom_obb *, const float *points, size_t count,
    #                                       size_t stride, size_t *out_inside)
    "fathom_obb_count_inside": [ctypes.POINTER(Obb), _f32p, ctypes.c_size_t, ctypes.c_size_t, _sizep],
    # fathom_status fathom_obb_mask_inside(..., uint8_t *out_mask, size_t *out_inside /* may be NULL */)
    "fathom_obb_mask_inside": [ctypes.POINTER(Obb), _f32p, ctypes.c_size_t, ctypes.c_size_t,
                               ctypes.POINTER(ctypes.c_uint8), _sizep],
    # fathom_status fathom_obb_indices_inside(..., uint64_t *out_indices, size_t capacity, size_t *out_inside)
    "fathom_obb_indices_inside": [ctypes.POINTER(Obb), _f32p, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t, _sizep],
}


# ------------------------------------------------------------------------------------------------
# The workload
# ------------------------------------------------------------------------------------------------

SEED = 20240611
CENTER = (0.05, -0.03, 0.02)
SCALE = (0.8, 0.6, 1.0)                             # full extents, meters (times --scale-factor)
AXIS = (0.36, -0.48, 0.80)                          # rotation axis (normalised below): tilts every local axis
ANGLE = 0.7                                         # radians (~40 degrees)
BOUNDARY_TOL = 1e-5                                 # |margin to a face| below which disagreement is rounding


def make_points(n: int) -> np.ndarray:
    rng = np.random.default_rng(SEED)
    p = rng.random((n, 3), dtype=np.float32)
    p *= 2.0
    p -= 1.0
    assert p.flags.c_contiguous and p.strides == (12, 4) and p.dtype == np.float32
    return p


def make_box(scale):
    """The box as float32 values (what Fathom receives) and the float64 matrix of that float32 quaternion."""
    a = np.asarray(AXIS, np.float64)
    a /= np.linalg.norm(a)
    s, c = math.sin(ANGLE / 2), math.cos(ANGLE / 2)
    q32 = np.array([a[0] * s, a[1] * s, a[2] * s, c], np.float32)  # (x, y, z, w)
    x, y, z, w = (q32.astype(np.float64) / np.linalg.norm(q32.astype(np.float64))).tolist()
    # Rotation matrix of a unit quaternion; columns are the box's local axes in world coordinates.
    r = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])
    center32 = np.array(CENTER, np.float32)
    scale32 = np.array(scale, np.float32)
    obb = Obb(Vec3(*center32.tolist()), Vec3(*scale32.tolist()), Quat(*q32.tolist()))
    return obb, center32, scale32, r


def reference_margin(points: np.ndarray, center32, scale32, r64) -> np.ndarray:
    """max_k(|l_k| - half_k) in float64 per point: <= 0 inside (faces count as inside)."""
    margin = np.full(len(points), -np.inf)
    chunk = 1 << 20
    c = center32.astype(np.float64)
    half = scale32.astype(np.float64) / 2
    for i in range(0, len(points), chunk):
        local = (points[i:i + chunk].astype(np.float64) - c) @ r64
        np.max(np.abs(local) - half, axis=1, out=margin[i:i + chunk])
    return margin


def compare(name: str, got_mask: np.ndarray, truth_mask: np.ndarray, margin: np.ndarray, problems: list) -> str:
    diff = np.flatnonzero(got_mask != truth_mask)
    if len(diff) == 0:
        return "same points"
    worst = float(np.max(np.abs(margin[diff])))
    extra = int(np.count_nonzero(got_mask[diff]))
    text = (f"{len(diff)} points differ ({extra} extra, {len(diff) - extra} missing), "
            f"farthest {worst:.2e} m from a face")
    if worst > BOUNDARY_TOL:
        problems.append(f"{name}: {text}")
        return text + "  <-- WRONG (not a boundary rounding case)"
    return text + " (on a face within rounding)"


# ------------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--points", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=bl.default_repeat(), help="timed runs per engine (>= 7)")
    ap.add_argument("--scale-factor", type=float, default=1.0,
                    help="multiplies the box's extents (0.8, 0.6, 1.0); 1.35 puts ~15%% of the points inside")
    ap.add_argument("--lib", default=bl.library_path(), help="libfathom.so (default: $FATHOM_LIBRARY)")
    args = ap.parse_args()
    n, repeat = args.points, max(7, args.repeat)
    m = bl.machine_summary()
    print(f"cull: {n:,} float32 points (stride 12, {n * 12 / 1e6:.0f} MB), one rotated box; "
          f"{repeat} timed runs after warm-up; CPU {m['cpu']}, avx2 {bl._yn(m['avx2'])}, "
          f"pinned to CPUs {','.join(map(str, m['pinned_to']))}")
    if len(m["pinned_to"]) != 1:
        print("WARNING: not pinned to one core (numpy's BLAS and Open3D may use several): run through "
              "`make -C bench` or `taskset -c 0`")

    points = make_points(n)
    scale = tuple(args.scale_factor * s for s in SCALE)
    obb, center32, scale32, r64 = make_box(scale)
    r32 = r64.astype(np.float32)
    half32 = (scale32 / 2).astype(np.float32)
    bytes_in = points.nbytes
    ptr = points.ctypes.data_as(_f32p)

    t0 = time.perf_counter()
    margin = reference_margin(points, center32, scale32, r64)
    truth = margin <= 0
    truth_count = int(np.count_nonzero(truth))
    near_faces = int(np.count_nonzero(np.abs(margin) <= BOUNDARY_TOL))
    print(f"box: center {CENTER}, full extents ({', '.join(f'{s:.3f}' for s in scale)}), rotation "
          f"{math.degrees(ANGLE):.0f} deg about {AXIS} (quaternion xyzw "
          f"{obb.rotation.x:.4f}, {obb.rotation.y:.4f}, {obb.rotation.z:.4f}, {obb.rotation.w:.4f})")
    print(f"reference (float64): {truth_count:,} inside ({truth_count / n:.1%}); "
          f"{near_faces} points within {BOUNDARY_TOL:g} m of a face "
          f"[{time.perf_counter() - t0:.1f} s, untimed]")

    table = bl.Table(f"\npoint-in-oriented-box, {n / 1e6:g}M points; median of {repeat} runs", "Mpts/s")
    checks: dict[str, str] = {}
    problems: list[str] = []
    fathom_error = None
    fathom_fns: dict = {}

    # --- Fathom --------------------------------------------------------------------------------
    try:
        lib = bl.load_fathom(args.lib)
        bl.declare(lib, _PROTOTYPES)
        version = bl.fathom_version(lib)
        out_count = ctypes.c_size_t(0)
        mask = np.empty(n, np.uint8)
        mask.fill(0xFF)                                   # fault the pages in before timing
        idx = np.empty(n, np.uint64)
        idx.fill(0)
        mask_ptr = mask.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8))
        idx_ptr = idx.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64))
        obb_ref = ctypes.byref(obb)
        count_ref = ctypes.byref(out_count)
        f_count, f_mask, f_idx = lib.fathom_obb_count_inside, lib.fathom_obb_mask_inside, lib.fathom_obb_indices_inside

        def fathom_count():
            st = f_count(obb_ref, ptr, n, 12, count_ref)
            if st:
                bl.check_status(lib, "fathom_obb_count_inside", st)

        def fathom_mask():
            st = f_mask(obb_ref, ptr, n, 12, mask_ptr, count_ref)
            if st:
                bl.check_status(lib, "fathom_obb_mask_inside", st)

        def fathom_indices():
            st = f_idx(obb_ref, ptr, n, 12, idx_ptr, n, count_ref)
            if st:
                bl.check_status(lib, "fathom_obb_indices_inside", st)

        print(f"fathom {version}: {args.lib}")
        fathom_count()
        c_count = out_count.value
        checks["fathom count"] = (f"{c_count:,}" + ("" if c_count == truth_count else
                                                     f" (reference {truth_count:,}: {c_count - truth_count:+d})"))
        fathom_mask()
        c_mask = out_count.value
        mask_ok = mask.view(np.bool_) if mask.max() <= 1 else None
        if mask_ok is None:
            problems.append(f"fathom mask: values other than 0/1 ({np.unique(mask)[:8]})")
            checks["fathom mask"] = "values other than 0/1"
        else:
            checks["fathom mask"] = f"{c_mask:,} reported, {int(np.count_nonzero(mask)):,} set; " + \
                compare("fathom mask", mask_ok, truth, margin, problems)
        fathom_indices()
        c_idx = out_count.value
        got = idx[:c_idx].astype(np.int64)
        sel = np.zeros(n, np.bool_)
        sel[got[(got >= 0) & (got < n)]] = True
        ascending = bool(np.all(np.diff(got) > 0))
        checks["fathom indices"] = (f"{c_idx:,}; " + ("ascending; " if ascending else "NOT strictly ascending; ")
                                    + compare("fathom indices", sel, truth, margin, problems))
        if not ascending:
            problems.append("fathom indices: not strictly ascending")
        for name, cnt in (("fathom mask", c_mask), ("fathom indices", c_idx)):
            if cnt != c_count:
                problems.append(f"{name}: count {cnt} differs from fathom count {c_count}")
        if abs(c_count - truth_count) > near_faces:
            problems.append(f"fathom count: {c_count} vs reference {truth_count}, more than the "
                            f"{near_faces} points on a face within rounding")

        fathom_fns = {"count": fathom_count, "mask": fathom_mask, "indices": fathom_indices}
        fathom_notes = {"count": "", "mask": f"writes {n / 1e6:.3g} MB of uint8",
                        "indices": f"writes {c_idx * 8 / 1e6:.3g} MB of uint64"}
    except (bl.FathomUnavailable, RuntimeError) as e:
        fathom_error = str(e)
        print(f"fathom: NOT MEASURED: {e}")

    # --- numpy ---------------------------------------------------------------------------------
    def np_mask():
        local = (points - center32) @ r32
        return np.all(np.abs(local) <= half32, axis=1)

    def np_count():
        return np.count_nonzero(np_mask())

    def np_indices():
        return np.flatnonzero(np_mask())

    nm = np_mask()
    checks["numpy"] = f"{int(np.count_nonzero(nm)):,}; " + compare("numpy", nm, truth, margin, problems)
    del nm
    table.add("numpy count", bl.measure(np_count, repeat), n, bytes_in, "float32 (P - c) @ R")
    table.add("numpy mask", bl.measure(np_mask, repeat), n, bytes_in)
    table.add("numpy indices", bl.measure(np_indices, repeat), n, bytes_in, "mask + np.flatnonzero")

    # --- Open3D --------------------------------------------------------------------------------
    o3d, why = bl.import_open3d()
    if o3d is None:
        print(f"open3d: NOT MEASURED: {why}")
    else:
        box = o3d.geometry.OrientedBoundingBox(center32.astype(np.float64).reshape(3, 1), r64,
                                               scale32.astype(np.float64).reshape(3, 1))
        holder = {}

        def o3d_convert():
            holder["v"] = o3d.utility.Vector3dVector(points.astype(np.float64))

        def o3d_query():
            return box.get_point_indices_within_bounding_box(holder["v"])

        def o3d_both():
            o3d_convert()
            return o3d_query()

        conv = bl.measure(o3d_convert, repeat, warmup=1)
        res = np.asarray(o3d_query(), dtype=np.int64)
        sel = np.zeros(n, np.bool_)
        sel[res] = True
        checks[f"open3d {o3d.__version__}"] = (f"{len(res):,}; "
                                               + compare("open3d", sel, truth, margin, problems))
        del res, sel
        note = f"float64 input ({2 * bytes_in / 1e6:.0f} MB), list[int] out; {bl.open3d_threads(o3d)} thread(s)"
        table.add("open3d query", bl.measure(o3d_query, repeat), n, bytes_in, note)
        table.add("open3d convert (not a query)", conv, n, bytes_in, "astype(float64) + Vector3dVector")
        table.add("open3d convert + query", bl.measure(o3d_both, repeat, warmup=1), n, bytes_in,
                  "per-frame cost when the points change")
        holder.clear()

    # --- Fathom and the bandwidth limit, interleaved run by run so they see the same conditions -----
    dst = np.empty_like(points)
    dst.fill(0)
    timings = bl.measure_interleaved({**fathom_fns, "copy": lambda: np.copyto(dst, points)}, repeat)
    del dst
    table.rows[0:0] = [bl.Row(f"fathom {key}", timings[key], n, bytes_in, fathom_notes[key]) for key in fathom_fns]
    table.add("memory copy (limit)", timings["copy"], n, bytes_in,
              f"np.copyto: reads and writes {bytes_in / 1e6:.0f} MB; timed interleaved with fathom")

    # --- report ----------------------------------------------------------------------------------
    ref = "fathom count" if table.get("fathom count") else None
    table.print(ref)
    print("(x vs fathom count = that engine's median time / Fathom count's: > 1 means Fathom is faster;"
          f" GB/s in = the {bytes_in / 1e6:.0f} MB of float32 input / median)")

    print("\ncounts (reference float64: %s inside)" % f"{truth_count:,}")
    for k, v in checks.items():
        print(f"  {k:<22} {v}")

    print("\ntargets (medians):")
    fc = table.get("fathom count")
    results = {}

    def ratio_bar(key, label, other_name, need):
        other = table.get(other_name)
        if fc is None or other is None:
            results[key] = bl.bar(label, None, "not measured" + (f" ({fathom_error})" if fc is None else ""))
            return
        x = other.timing.median / fc.timing.median
        results[key] = bl.bar(label, x >= need, f"{other_name} {other.timing.median * 1e3:.1f} ms / fathom count "
                                                 f"{fc.timing.median * 1e3:.2f} ms = {x:.1f}x (need >= {need:g}x)")

    ratio_bar("numpy_5x", "Fathom count >= 5x numpy", "numpy count", 5)
    ratio_bar("open3d_2x", "Fathom count >= 2x Open3D", "open3d query", 2)
    cp = table.get("memory copy (limit)")
    if fc is None:
        results["copy_2x"] = bl.bar("Fathom count within 2x of the memory copy", None, "not measured")
    else:
        x = fc.timing.median / cp.timing.median
        results["copy_2x"] = bl.bar("Fathom count within 2x of the memory copy", fc.timing.median <= 2 * cp.timing.median,
                                    f"fathom count {fc.timing.median * 1e3:.2f} ms vs copy {cp.timing.median * 1e3:.2f} ms"
                                    f" = {x:.2f}x the copy's time (need <= 2x)")

    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(f"  {p}")

    path = bl.save_json("cull", {"points": n, "repeat": repeat, "box_scale": list(scale), "reference_inside": truth_count,
                                 "rows": table.to_json(), "checks": checks, "targets": results,
                                 "problems": problems, "fathom_error": fathom_error})
    print(f"\n(raw numbers: {os.path.relpath(path)})")

    if fathom_error or problems:
        return 1
    if bl.strict() and not all(results.values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
