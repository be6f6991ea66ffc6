#!/usr/bin/env python3
"""Ray casting against triangle meshes: Fathom against Embree 3 (C), Open3D and trimesh.

Two parts, on the same meshes and rays (reference/anchors.md):
  1. bench/raycast/raycast_bench.c, compiled here (cc -O2 -march=native, linked with libfathom.so and
     -lembree3) and run on the pinned core: Fathom's batch calls against Embree 3 default and robust
     (rtcIntersect1 / rtcOccluded1 loops) - closest hit and occlusion Mrays/s, build times, bytes per
     triangle, misses of rays from inside the closed spheres, agreement of the hits; the same rays traced by
     Embree (default, robust, high-quality build) in Fathom's own order (fathom_mesh_ray_order), writing the
     full fathom_hit records (against fathom_mesh_intersect_batch) and t + primitive only (against
     fathom_mesh_intersect_batch_compact), with the ordering's own cost; and Fathom's batch mode on all CPUs
     (threads = 1, 2, 0), timed only when benchlib's core probe finds that a second thread gets a whole core
     (else "not measured"). It prints its own tables and the targets, writes
     bench/out/raycast.json, and dumps the meshes, rays and Fathom's hits to bench/out/raycast/*.npy.
  2. Here, from those .npy files (so every engine sees the same float32 data): Open3D
     RaycastingScene.cast_rays / test_occlusions (nthreads=1 and open3d.utility.set_max_threads(1)),
     trimesh's mesh.ray.intersects_first / intersects_any with the embreex backend (if it imports), and
     trimesh's pure-numpy backend (ray_triangle.RayMeshIntersector) on sphere5 only, with few rays (it
     runs ~0.002 Mrays/s; the 1M-triangle meshes are skipped). Ratios are against Fathom's rates
     measured in part 1 (same machine, same core, a few minutes earlier).

Meshes: sphere5 (icosphere, 5 subdivisions, 20,480 triangles), sphere8 (8 subdivisions, 1,310,720),
soup1m (1M unconnected triangles in [-1, 1]^3, edges 0.01-0.02). Rays (1M each, unit directions):
rand (origins uniform in [-1, 1]^3, uniform directions), cam (from (0, 0, 3) through uniform points of
[-1.2, 1.2]^2 at z = 0), inside (spheres only; origins in the ball of radius 0.5: every ray must hit).

Run time is bounded (~11 minutes on 2 cores): a block (one query on one ray set) whose REPEAT timed runs on
every ray would take more than --budget seconds (default 10) is timed on the first rays of the set only;
the tables say how many ("timed"). Every ray is still checked.

Usage: python raycast.py [--rays N] [--repeat R] [--meshes sphere5,sphere8,soup1m] [--lib PATH] [--budget S]
                         [--trimesh-rays N] [--numpy-rays N] [--no-scaling] [--no-ordered] [--skip-c]
       (normally through `make -C bench` or `make -C bench run-raycast`)
Exit status: 1 if the library could not be measured or gave wrong results (misses on a closed mesh,
disagreement with Embree robust, results depending on the thread count, a compact output that differs from
the full batch's); with FATHOM_BENCH_STRICT=1
(make STRICT=1) also if a target bar fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import benchlib as bl

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "raycast" / "raycast_bench.c"
EXE = bl.OUT_DIR / "raycast_bench"
DUMP = bl.OUT_DIR / "raycast"
C_JSON = bl.OUT_DIR / "raycast.json"
MESHES = ("sphere5", "sphere8", "soup1m")
RAYSETS = ("rand", "cam")
T_TOL = 1e-4          # two engines' t agree within this (unit directions: meters), as in the C harness
SYMBOLS = ["fathom_mesh_create", "fathom_mesh_destroy", "fathom_mesh_get_info", "fathom_mesh_intersect_batch",
           "fathom_mesh_occluded_batch", "fathom_mesh_intersect_batch_compact", "fathom_mesh_ray_order"]


# ------------------------------------------------------------------------------------------------
# Part 1: the C harness
# ------------------------------------------------------------------------------------------------


def compile_harness(lib: str) -> tuple[bool, str]:
    cc = os.environ.get("CC", "cc")
    if not shutil.which(cc):
        return False, f"no C compiler ({cc}); install gcc"
    if not Path("/usr/include/embree3/rtcore.h").is_file() and not os.environ.get("CFLAGS"):
        return False, "embree3/rtcore.h not found: apt-get install libembree-dev (make -C bench deps does it)"
    bl.OUT_DIR.mkdir(exist_ok=True)
    cmd = [cc, "-O2", "-march=native", "-Wall", "-Wextra", *os.environ.get("CFLAGS", "").split(),
           f"-I{HERE.parent / 'include'}", str(SOURCE), lib, f"-Wl,-rpath,{Path(lib).parent}",
           "-lembree3", "-lm", "-o", str(EXE)]
    print("compile: " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.stdout or p.stderr:
        print((p.stdout + p.stderr).rstrip())
    return p.returncode == 0, f"compiler exit status {p.returncode}"


def run_harness(args) -> int:
    cmd = [str(EXE), "--rays", str(args.rays), "--inside-rays", str(args.inside_rays), "--repeat", str(args.repeat),
           "--meshes", args.meshes, "--budget", str(args.budget), "--json", str(C_JSON), "--dump", str(DUMP)]
    if args.no_scaling:
        cmd.append("--no-scaling")
    else:  # benchlib's probe, run by the harness just before each thread-scaling block
        cmd += ["--core-probe", " ".join(shlex.quote(x) for x in (sys.executable, str(HERE / "benchlib.py"), "--core-probe"))]
    if args.no_ordered:
        cmd.append("--no-ordered")
    print("run: " + " ".join(os.path.relpath(c) if c.startswith("/") and " " not in c else c for c in cmd), flush=True)
    t0 = time.perf_counter()
    rc = subprocess.run(cmd).returncode     # inherits the affinity mask (taskset) and stdout
    print(f"[C harness: {time.perf_counter() - t0:.0f} s, exit status {rc}]", flush=True)
    return rc


# ------------------------------------------------------------------------------------------------
# Part 2: the Python anchors
# ------------------------------------------------------------------------------------------------


def load(name: str) -> np.ndarray:
    return np.load(DUMP / f"{name}.npy")


def triangle_t(vertices, faces, prim, rays) -> np.ndarray:
    """t along each ray to the plane of the triangle `prim` (inf where prim < 0): lets a triangle index
    alone (trimesh) be compared with Fathom's t at shared edges."""
    t = np.full(len(prim), np.inf)
    hit = prim >= 0
    f = faces[prim[hit]]
    v0 = vertices[f[:, 0]].astype(np.float64)
    n = np.cross(vertices[f[:, 1]] - v0, vertices[f[:, 2]] - v0)
    o, d = rays[hit, :3].astype(np.float64), rays[hit, 3:].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t[hit] = np.einsum("ij,ij->i", v0 - o, n) / np.einsum("ij,ij->i", d, n)
    return t


def agreement(prim, t, f_prim, f_t) -> dict:
    """Like the C harness: agree = both miss, or both hit with |dt| <= T_TOL (same or neighbouring triangle)."""
    f_prim = f_prim.astype(np.int64)
    f_prim[f_prim == 0xFFFFFFFF] = -1
    fh, oh = f_prim >= 0, prim >= 0
    both = fh & oh
    dt = np.zeros(len(prim))
    dt[both] = f_t[both].astype(np.float64) - t[both]
    close = both & (np.abs(dt) <= T_TOL)
    res = {"rays": int(len(prim)), "same": int(np.count_nonzero(~fh & ~oh) + np.count_nonzero(close & (prim == f_prim))),
           "other_triangle_same_t": int(np.count_nonzero(close & (prim != f_prim))),
           "fathom_farther": int(np.count_nonzero(both & (dt > T_TOL))),
           "fathom_nearer": int(np.count_nonzero(both & (dt < -T_TOL))),
           "fathom_only": int(np.count_nonzero(fh & ~oh)), "other_only": int(np.count_nonzero(~fh & oh))}
    res["fraction"] = (res["same"] + res["other_triangle_same_t"]) / max(1, len(prim))
    return res


def agree_text(a: dict | None) -> str:
    if not a:
        return "-"
    off = a["fathom_farther"] + a["fathom_nearer"] + a["fathom_only"] + a["other_only"]
    return f"{100 * a['fraction']:.3f}% ({off} off)"


class Engine:
    """One Python anchor on one mesh: build() once, then closest(rays) / occluded(rays)."""
    name = ""
    note = ""


class Open3DEngine(Engine):
    def __init__(self, o3d, vertices, faces):
        self.o3d = o3d
        self.name = f"open3d {o3d.__version__} RaycastingScene"
        self.note = f"cast_rays / test_occlusions, nthreads=1, max_threads {bl.open3d_threads(o3d)}"
        self.v = o3d.core.Tensor.from_numpy(np.ascontiguousarray(vertices, np.float32))
        self.f = o3d.core.Tensor.from_numpy(np.ascontiguousarray(faces, np.uint32))
        self.scene = None

    def build(self):
        scene = self.o3d.t.geometry.RaycastingScene(nthreads=1)
        scene.add_triangles(self.v, self.f)
        # Open3D commits (builds its BVH) at the first query: one ray makes the build part of this call
        scene.cast_rays(self.o3d.core.Tensor(np.array([[0, 0, 5, 0, 0, -1]], np.float32)), nthreads=1)
        self.scene = scene

    def tensor(self, rays):
        return self.o3d.core.Tensor.from_numpy(rays)

    def closest(self, rays_t):
        r = self.scene.cast_rays(rays_t, nthreads=1)
        return r["primitive_ids"], r["t_hit"]

    def occluded(self, rays_t):
        return self.scene.test_occlusions(rays_t, nthreads=1)

    def occluded_np(self, rays_t):
        return self.occluded(rays_t).numpy().astype(bool)

    @staticmethod
    def results(out):
        prim = out[0].numpy().astype(np.int64)
        prim[prim == 0xFFFFFFFF] = -1
        return prim, out[1].numpy().astype(np.float64)


class TrimeshEngine(Engine):
    def __init__(self, trimesh, vertices, faces, backend: str):
        self.mesh = trimesh.Trimesh(vertices=vertices.astype(np.float64), faces=faces.astype(np.int64), process=False)
        self.backend = backend
        if backend == "embree":
            from trimesh.ray import ray_pyembree
            self.intersector = ray_pyembree.RayMeshIntersector(self.mesh)
            self.name = f"trimesh {trimesh.__version__} + embreex"
            self.note = "mesh.ray.intersects_first / intersects_any (embreex backend)"
        else:
            from trimesh.ray import ray_triangle
            self.intersector = ray_triangle.RayMeshIntersector(self.mesh)
            self.name = f"trimesh {trimesh.__version__} numpy"
            self.note = "ray_triangle.RayMeshIntersector (pure numpy + rtree)"

    def build(self):
        # the embree scene / the rtree are built and cached at the first query
        self.intersector.intersects_first(np.array([[0, 0, 5.0]]), np.array([[0, 0, -1.0]]))

    def tensor(self, rays):
        return rays[:, :3], rays[:, 3:]

    def closest(self, rays_t):
        return self.intersector.intersects_first(*rays_t)

    def occluded(self, rays_t):
        return self.intersector.intersects_any(*rays_t)

    def occluded_np(self, rays_t):
        return np.asarray(self.occluded(rays_t), bool)

    def results(self, prim):
        return np.asarray(prim, np.int64), None


def timed_rays(seconds: float, n: int, repeat: int, budget: float) -> int:
    """Like the C harness: all n rays if `repeat` runs of `seconds` fit in the budget, else fewer (>= 1,000)."""
    if seconds * repeat <= budget:
        return n
    return max(1000, min(n, int(n * budget / (seconds * repeat)) // 1000 * 1000))


def measure_anchor(eng: Engine, mesh: str, vertices, faces, n_rays: int, repeat: int, budget: float,
                   rows: list, inside: bool) -> None:
    """eng on the first n_rays of each ray set of this mesh (all of them checked against Fathom's hits; the
    timed runs on fewer when `repeat` runs would exceed the budget); appends one row (dict) per ray set."""
    for rs in RAYSETS + (("inside",) if inside else ()):
        rays_all = load(f"rays_{rs}")
        n = min(n_rays, len(rays_all))
        rays = np.ascontiguousarray(rays_all[:n])
        f_prim, f_t = load(f"{mesh}_{rs}_fathom_prim")[:n], load(f"{mesh}_{rs}_fathom_t")[:n]
        rt = eng.tensor(rays)
        t0 = time.perf_counter()
        prim, t = eng.results(eng.closest(rt))           # untimed: the checked results
        first_s = time.perf_counter() - t0
        if t is None:
            t = triangle_t(vertices, faces, prim, rays)
        row = {"mesh": mesh, "rays": rs, "engine": eng.name, "n": n, "agreement": agreement(prim, t, f_prim, f_t),
               "misses": int(np.count_nonzero(prim < 0)), "note": eng.note}
        rows.append(row)
        if rs == "inside":                              # untimed: only the misses count here
            continue
        nt = timed_rays(first_s, n, repeat, budget)
        rt_t = rt if nt == n else eng.tensor(np.ascontiguousarray(rays[:nt]))
        timing = bl.measure(lambda: eng.closest(rt_t), repeat, warmup=1)
        row["closest"] = {"median_s": timing.median, "min_s": timing.min, "runs_s": timing.seconds, "rays": nt,
                          "mrays_per_s": nt / timing.median / 1e6}
        t0 = time.perf_counter()
        occ = eng.occluded_np(rt)
        first_s = time.perf_counter() - t0
        row["occlusion_vs_own_closest_differ"] = int(np.count_nonzero(occ != (prim >= 0)))
        nt = timed_rays(first_s, n, repeat, budget)
        rt_t = rt if nt == n else eng.tensor(np.ascontiguousarray(rays[:nt]))
        timing = bl.measure(lambda: eng.occluded(rt_t), repeat, warmup=1)
        row["occluded"] = {"median_s": timing.median, "min_s": timing.min, "runs_s": timing.seconds, "rays": nt,
                           "mrays_per_s": nt / timing.median / 1e6}


def fathom_rate(c: dict, mesh: str, rs: str, query: str) -> float | None:
    try:
        return c["meshes"][mesh]["rays"][rs][query]["fathom"]["mrays_per_s"]
    except (KeyError, TypeError):
        return None


def print_anchor_table(c: dict, rows: list, builds: dict, meshes: list) -> None:
    for query in ("closest", "occluded"):
        title = "closest hit" if query == "closest" else "occlusion (any hit)"
        print(f"\n{title}, one core, Mrays/s (median); x vs fathom = Fathom's rate / this engine's "
              f"(> 1: Fathom faster); C rows from part 1")
        w = 34
        head = f"{'mesh':<8} {'rays':<5} {'engine':<{w}} {'timed':>9} {'Mrays/s':>9} {'x vs fathom':>11}  {'agree with fathom':<20}"
        print(head)
        print("-" * len(head))
        for mesh in meshes:
            for rs in RAYSETS:
                f = fathom_rate(c, mesh, rs, query)
                cm = c.get("meshes", {}).get(mesh, {}).get("rays", {}).get(rs, {}) if c else {}
                for key, label in (("fathom", "fathom (C, batch threads=1)"), ("embree_default", "embree 3 default (C loop)"),
                                   ("embree_robust", "embree 3 robust (C loop)")):
                    r = cm.get(query, {}).get(key)
                    if not r:
                        continue
                    timed = r.get("rays") or cm.get("rays", 0)
                    ag = "-" if key == "fathom" else agree_text(cm.get("agreement", {}).get(key)) if query == "closest" else "-"
                    x = f"{f / r['mrays_per_s']:.2f}" if f and key != "fathom" else "-"
                    print(f"{mesh:<8} {rs:<5} {label:<{w}} {timed:>9,} {r['mrays_per_s']:>9.2f} {x:>11}  {ag:<20}")
                for row in rows:
                    if row["mesh"] != mesh or row["rays"] != rs or query not in row:
                        continue
                    rate = row[query]["mrays_per_s"]
                    x = f"{f / rate:.2f}" if f else "-"
                    ag = agree_text(row["agreement"]) if query == "closest" else "-"
                    rate_s = f"{rate:9.2f}" if rate >= 0.01 else f"{rate:9.5f}"
                    print(f"{mesh:<8} {rs:<5} {row['engine']:<{w}} {row[query]['rays']:>9,} {rate_s} {x:>11}  {ag:<20}")
    if builds:
        print("\nbuild, one core (median): Open3D add_triangles + first query (its BVH build), vs Fathom and Embree (C)")
        print(f"{'mesh':<8} {'open3d s':>9} {'fathom s':>9} {'embree s':>9} {'open3d/fathom':>14}")
        for mesh, t in builds.items():
            b = c.get("meshes", {}).get(mesh, {}).get("build", {}) if c else {}
            fs = b.get("fathom", {}).get("median_s")
            es = b.get("embree_default", {}).get("median_s")
            print(f"{mesh:<8} {t:9.4f} {fs or float('nan'):9.4f} {es or float('nan'):9.4f} "
                  f"{(t / fs) if fs else float('nan'):14.2f}")
    inside = [r for r in rows if r["rays"] == "inside"]
    if inside:
        print("\nrays from inside the closed spheres: misses of the Python anchors (Fathom's and Embree's: part 1)")
        for r in inside:
            print(f"  {r['mesh']:<8} {r['engine']:<34} {r['misses']:>6} misses of {r['n']:,}; "
                  f"agree with fathom {agree_text(r['agreement'])}")


# ------------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rays", type=int, default=1_000_000, help="rays per set (rand, cam)")
    ap.add_argument("--inside-rays", type=int, default=1_000_000, help="rays from inside the spheres")
    ap.add_argument("--repeat", type=int, default=bl.default_repeat(), help="timed runs per engine (>= 7)")
    ap.add_argument("--meshes", default=",".join(MESHES))
    ap.add_argument("--trimesh-rays", type=int, default=1_000_000, help="rays per set for trimesh + embreex")
    ap.add_argument("--numpy-rays", type=int, default=1000, help="rays per set for trimesh's numpy backend (sphere5)")
    ap.add_argument("--budget", type=float, default=10.0,
                    help="seconds of timed runs per engine, query and ray set (C: all engines); slower ones are "
                         "timed on the first rays of the set only (said in the output)")
    ap.add_argument("--no-scaling", action="store_true", help="skip Fathom's multi-thread batch runs")
    ap.add_argument("--no-ordered", action="store_true",
                    help="skip the blocks in Fathom's order (Embree on fathom_mesh_ray_order's order, full and compact)")
    ap.add_argument("--skip-c", action="store_true", help="reuse out/raycast.json and out/raycast/ of an earlier run")
    ap.add_argument("--lib", default=bl.library_path(), help="libfathom.so (default: $FATHOM_LIBRARY)")
    args = ap.parse_args()
    args.repeat = max(7, args.repeat)
    meshes = [m for m in args.meshes.split(",") if m]
    if any(m not in MESHES for m in meshes):
        ap.error(f"--meshes: choose from {','.join(MESHES)}")
    m = bl.machine_summary()
    t_start = time.perf_counter()
    print(f"raycast: meshes {', '.join(meshes)}; {args.rays:,} rays per set; {args.repeat} timed runs after warm-up; "
          f"CPU {m['cpu']}, avx2 {bl._yn(m['avx2'])}, avx512f {bl._yn(m['avx512f'])}, "
          f"pinned to CPUs {','.join(map(str, m['pinned_to']))}")
    if len(m["pinned_to"]) != 1:
        print("WARNING: not pinned to one core: run through `make -C bench` or `taskset -c 0`")

    problems: list[str] = []
    fathom_error = None
    c_rc = None
    # --- part 1: C harness --------------------------------------------------------------------
    if not args.skip_c:
        try:
            lib = bl.load_fathom(args.lib)
            bl.require_symbols(lib, SYMBOLS)
            print(f"fathom {bl.fathom_version(lib)}: {args.lib}")
            del lib
            ok, why = compile_harness(args.lib)
            if not ok:
                raise bl.FathomUnavailable(f"cannot build {os.path.relpath(SOURCE)}: {why}")
            if C_JSON.exists():
                C_JSON.unlink()
            c_rc = run_harness(args)
            if c_rc not in (0, 1):
                raise bl.FathomUnavailable(f"{EXE.name} failed (exit status {c_rc})")
        except bl.FathomUnavailable as e:
            fathom_error = str(e)
            print(f"fathom: NOT MEASURED: {e}")
    c: dict = {}
    if C_JSON.exists():
        c = json.loads(C_JSON.read_text())
        problems += [f"C harness: {p}" for p in c.get("problems", [])]
    elif fathom_error is None:
        fathom_error = f"{C_JSON} missing"

    # --- part 2: Python anchors ---------------------------------------------------------------
    rows: list = []
    builds: dict = {}
    skipped: list[str] = []
    anchors_ok = DUMP.is_dir() and (DUMP / "rays_rand.npy").exists()
    if not anchors_ok:
        print(f"\nPython anchors: NOT MEASURED: no meshes and rays in {os.path.relpath(DUMP)} (the C harness writes them)")
    else:
        print(f"\n=== Python anchors on the same meshes and rays ({os.path.relpath(DUMP)}/*.npy) ===")
        o3d, why = bl.import_open3d()
        if o3d is None:
            skipped.append(f"open3d: {why}")
        try:
            import trimesh
            import trimesh.ray
            has_embree = bool(getattr(trimesh.ray, "has_embree", False))
            if not has_embree:
                skipped.append("trimesh + embreex: embreex does not import (pip install embreex); only numpy ran")
        except Exception as e:  # noqa: BLE001 - any import failure means "not measured"
            trimesh, has_embree = None, False
            skipped.append(f"trimesh: {type(e).__name__}: {e}")
        for mesh in meshes:
            if not (DUMP / f"{mesh}.npy").exists():
                skipped.append(f"{mesh}: not in the dump")
                continue
            vertices, faces = load(mesh), load(f"{mesh}_indices")
            closed = mesh.startswith("sphere")
            t0 = time.perf_counter()
            if o3d is not None:
                eng = Open3DEngine(o3d, vertices, faces)
                bt = bl.measure(eng.build, args.repeat, warmup=1)
                builds[mesh] = bt.median
                measure_anchor(eng, mesh, vertices, faces, args.rays, args.repeat, args.budget, rows, closed)
                del eng
            if trimesh is not None and has_embree:
                eng = TrimeshEngine(trimesh, vertices, faces, "embree")
                eng.build()
                measure_anchor(eng, mesh, vertices, faces, args.trimesh_rays, args.repeat, args.budget, rows, closed)
                del eng
            if trimesh is not None:
                if len(faces) > 100_000:
                    skipped.append(f"trimesh numpy on {mesh}: skipped ({len(faces):,} triangles; ~0.00002 Mrays/s "
                                   f"per anchors.md, hours for even a few rays)")
                else:
                    eng = TrimeshEngine(trimesh, vertices, faces, "numpy")
                    eng.build()
                    measure_anchor(eng, mesh, vertices, faces, args.numpy_rays, args.repeat, args.budget, rows, False)
                    del eng
            print(f"  {mesh}: anchors measured in {time.perf_counter() - t0:.0f} s", flush=True)

        print_anchor_table(c, rows, builds, meshes)
        print(f"(timed = rays per timed run: the first of the set when all would exceed the budget of {args.budget:g} s"
              f" per engine and query; 'agree' is over every ray of the set the engine ran: {args.rays:,}, or fewer"
              f" below)")
        if args.trimesh_rays < args.rays:
            print(f"(trimesh + embreex ran on the first {args.trimesh_rays:,} rays of each set)")
        print(f"(trimesh numpy ran on the first {args.numpy_rays:,} rays of each set, sphere5 only)")
        for s in skipped:
            print(f"  not measured: {s}")
        for r in rows:
            if r.get("occlusion_vs_own_closest_differ"):
                print(f"  note: {r['engine']} on {r['mesh']} {r['rays']}: occlusion differs from its own closest hit "
                      f"for {r['occlusion_vs_own_closest_differ']} rays")

    # --- targets, from the C harness ------------------------------------------------------------
    targets = c.get("targets", [])
    if targets:
        print("\ntargets (from the C harness, medians):")
        for t in targets:
            bl.bar(t["label"], t["ok"], t["detail"])
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(f"  {p}")

    path = bl.save_json("raycast", {**c, "python_anchors": rows, "open3d_build_s": builds, "not_measured": skipped,
                                    "fathom_error": fathom_error, "c_exit_status": c_rc,
                                    "total_s": time.perf_counter() - t_start})
    print(f"\n(raw numbers: {os.path.relpath(path)}; meshes, rays and Fathom's hits: {os.path.relpath(DUMP)}/; "
          f"total {time.perf_counter() - t_start:.0f} s)")

    if fathom_error or problems or (c_rc not in (None, 0)):
        return 1
    if bl.strict() and not all(t["ok"] for t in targets):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
