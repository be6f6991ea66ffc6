#!/usr/bin/env python3
"""Parsing the JSON a capture is made of: a scan's camera info (`<id>.jsonl`, one line per frame) and a NeRF-style
transforms.json, against Python's json module (C-accelerated) + numpy, and optionally against an earlier build of
the library (README.md, "parse.py").

Inputs, written into a temporary folder:
  camera info, app style   a scanner-app scan of N_LINES frames of 4x3 depth (so the open is the camera info's
                           parse), its lines rewritten as the iOS app writes them: 17 significant digits
                           (JSONSerialization of float32 values as doubles), plus euler_angles, quaternion and
                           exposure_duration
  camera info, writer      the same scan as fathom.ScanWriter writes it (shortest float32 text)
  transforms.json          N_FRAMES frames of random rigid poses, Python's json.dumps (shortest double text, 17
                           digits mostly), shared intrinsics, a file_path per frame

Rows (each run in a child process, rounds interleaved A B A B, one core; per-line / per-frame microseconds):
  fathom                   fathom_scan_open of the scan (camera info + the tiny streams) / fathom_transforms_read
  fathom <baseline>        the same calls in the library given by --baseline (fathom_transforms_load there if it
                           has no fathom_transforms_read)
  fathom Python binding    fathom.Scan(folder) / fathom.read_transforms(path) end to end, through the binding of
                           the checkout each library was built in (the baseline's too, with --baseline)
  python json + numpy      json.loads of each line (or of the file) and the poses and intrinsics into numpy arrays
Peak resident memory of each child is reported beside its time.

Usage: python parse.py [--lib PATH] [--baseline PATH [--baseline-name NAME]] [--rounds R] [--lines N] [--frames N]
                       [--tmp DIR]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import benchlib as bl

BINDING = bl.HERE.parent / "Bindings" / "python"
N_LINES = 100_000
N_FRAMES = 100_000
SEED = 20261128


def _rotations(rng: np.random.Generator, n: int) -> np.ndarray:
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], 1)


def write_inputs(fathom, folder: Path, lines: int, frames: int) -> dict:
    rng = np.random.default_rng(SEED)
    k = fathom.Intrinsics(1613.7012939453125, 1613.7012939453125, 941.38, 727.04, 1920, 1440)
    rotations = _rotations(rng, lines).astype(np.float32)
    writer_dir, app_dir = folder / "writer", folder / "app"
    depth = np.ones((3, 4), np.float16)
    with fathom.ScanWriter(str(writer_dir), "scan", depth_size=(4, 3), rgb_size=(1920, 1440), confidence=False) as w:
        for i in range(lines):
            pose = np.eye(4)
            pose[:3, :3] = rotations[i]
            pose[:3, 3] = rng.normal(size=3)
            w.append(280670466266040 + i * 16_666_667, k, pose, depth)
    shutil.copytree(writer_dir, app_dir)
    out = []
    for line in (writer_dir / "scan.jsonl").read_text().splitlines():
        d = json.loads(line)
        as_double = lambda v: float(np.float32(v))  # noqa: E731 - float32 values written as doubles, 17 digits
        m = [as_double(v) for v in d["transform"]]
        out.append("{" + f'"timestamp":{d["timestamp"]},"exposure_duration":0.0083333333333333332,'
                   + '"intrinsics":[' + ",".join(f"{as_double(v):.17g}" for v in d["intrinsics"]) + "],"
                   + '"transform":[' + ",".join(f"{v:.17g}" for v in m) + "],"
                   + '"euler_angles":[' + ",".join(f"{as_double(v):.17g}" for v in rng.normal(size=3)) + "],"
                   + '"quaternion":[' + ",".join(f"{as_double(v):.17g}" for v in rng.normal(size=4)) + "]}")
    (app_dir / "scan.jsonl").write_text("\n".join(out) + "\n")
    rotations = _rotations(rng, frames)
    doc = {"w": 1920, "h": 1440, "fl_x": 1613.7, "fl_y": 1613.7, "cx": 941.38, "cy": 727.04, "frames": []}
    for i in range(frames):
        m = np.eye(4)
        m[:3, :3] = rotations[i]
        m[:3, 3] = rng.normal(size=3)
        doc["frames"].append({"file_path": f"images/frame_{i:06d}.png", "transform_matrix": m.tolist()})
    transforms = folder / "transforms.json"
    transforms.write_text(json.dumps(doc, indent=2))
    return {"camera info, app style": (app_dir, lines), "camera info, writer": (writer_dir, lines),
            "transforms.json": (transforms, frames)}


# ------------------------------------------------------------------------------------------------
# Children: one timed call each
# ------------------------------------------------------------------------------------------------


def child(engine: str, lib_path: str, path: str) -> int:
    if engine == "binding":
        # The Python binding of the checkout the library was built in (somewhere under <root>/.build).
        os.environ["FATHOM_LIBRARY"] = lib_path
        root = next(p for p in Path(lib_path).parents if (p / "Bindings" / "python" / "fathom").is_dir())
        sys.path.insert(0, str(root / "Bindings" / "python"))
        import fathom  # noqa: E402
        t0 = time.perf_counter()
        if path.endswith(".json"):
            assert len(fathom.read_transforms(path)) > 0
        else:
            assert len(fathom.Scan(path)) > 0
        elapsed = time.perf_counter() - t0
    elif engine == "python":
        t0 = time.perf_counter()
        if path.endswith(".json"):
            doc = json.loads(Path(path).read_bytes())
            poses = np.array([f["transform_matrix"] for f in doc["frames"]], np.float32)
            names = [f.get("file_path") for f in doc["frames"]]
            assert len(poses) == len(names)
        else:
            records = [json.loads(line) for line in open(os.path.join(path, "scan.jsonl"), "rb") if line.strip()]
            poses = np.array([r["transform"] for r in records], np.float32).reshape(-1, 4, 4)
            ks = np.array([r["intrinsics"] for r in records], np.float32)
            times = np.array([r["timestamp"] for r in records], np.int64)
            assert len(poses) == len(ks) == len(times)
        elapsed = time.perf_counter() - t0
    else:
        lib = ctypes.CDLL(lib_path)
        handle = ctypes.c_void_p()
        t0 = time.perf_counter()
        if path.endswith(".json"):
            if hasattr(lib, "fathom_transforms_read"):
                status = lib.fathom_transforms_read(path.encode(), ctypes.c_double(0), ctypes.byref(handle))
                lib.fathom_transforms_destroy(handle)
            else:
                count = ctypes.c_size_t(0)
                status = lib.fathom_transforms_load(path.encode(), ctypes.c_double(0), None, None, None, 0, ctypes.byref(count))
                status = 0 if status == 5 else status  # FATHOM_ERR_BUFFER_TOO_SMALL: the count, after one full parse
        else:
            status = lib.fathom_scan_open(path.encode(), ctypes.byref(handle))
            # fathom_scan_close before 1.0.
            (lib.fathom_scan_destroy if hasattr(lib, "fathom_scan_destroy") else lib.fathom_scan_close)(handle)
        elapsed = time.perf_counter() - t0
        if status != 0:
            print(f"status {status}", file=sys.stderr)
            return 1
    # VmHWM, not ru_maxrss: the latter survives exec, so it would hold the parent's peak.
    peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(json.dumps({"seconds": elapsed, "peak_kib": peak}))
    return 0


def run_child(engine: str, lib_path: str, path: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", engine, lib_path, str(path)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{engine} on {path}: {out.stderr.strip()[-300:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", default=None)
    ap.add_argument("--baseline", default=None, help="an earlier build of libfathom.so, compared in the same rounds")
    ap.add_argument("--baseline-name", default="baseline", help="its row's name (a commit, say)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--lines", type=int, default=N_LINES)
    ap.add_argument("--frames", type=int, default=N_FRAMES)
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--child", nargs=3, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    lib_path = str(Path(args.lib).resolve()) if args.lib else bl.library_path()
    if args.child:
        return child(*args.child)

    print("Parsing capture JSON: fathom against Python's json + numpy (one core, a child process per run)")
    print(f"Load average at start: {bl.load_average()}")
    os.environ["FATHOM_LIBRARY"] = lib_path
    sys.path.insert(0, str(BINDING))
    import fathom  # noqa: E402

    engines = {"fathom": ("lib", lib_path)}
    if args.baseline:
        engines[f"fathom {args.baseline_name}"] = ("lib", str(Path(args.baseline).absolute()))
    engines["fathom Python binding"] = ("binding", lib_path)
    baseline_checkout = args.baseline and any((p / "Bindings" / "python" / "fathom").is_dir() for p in Path(args.baseline).absolute().parents)
    if baseline_checkout:  # the binding of the checkout the baseline was built in; a lone library has none
        engines[f"fathom Python binding {args.baseline_name}"] = ("binding", str(Path(args.baseline).absolute()))
    engines["python json + numpy"] = ("python", "")
    rounds = max(7, args.rounds)
    folder = Path(tempfile.mkdtemp(prefix="fathom-parse-", dir=args.tmp))
    problems: list[str] = []
    report: dict = {"rounds": rounds, "inputs": {}}
    try:
        inputs = write_inputs(fathom, folder, args.lines, args.frames)
        for name, (path, n) in inputs.items():
            size = sum(p.stat().st_size for p in ([path] if path.is_file() else path.iterdir()))
            samples: dict[str, list[dict]] = {e: [] for e in engines}
            for _ in range(rounds):
                for engine, (kind, target) in engines.items():
                    samples[engine].append(run_child(kind, target, path))
            print(f"\n{name}: {n:,} {'frames' if name.startswith('transforms') else 'lines'}, {size / 1e6:.1f} MB")
            print(f"{'engine':<44}  {'us per item':>11}  {'spread':>7}  {'peak MB':>8}  {'x vs fathom':>11}")
            base = statistics.median(s["seconds"] for s in samples["fathom"])
            report["inputs"][name] = {}
            for engine, runs in samples.items():
                times = [s["seconds"] for s in runs]
                med = statistics.median(times)
                spread = med / min(times) - 1
                peak = max(s["peak_kib"] for s in runs) / 1024
                print(f"{engine:<44}  {med / n * 1e6:11.2f}  {spread:7.1%}  {peak:8.0f}  {med / base:11.2f}")
                report["inputs"][name][engine] = {"runs_s": times, "items": n, "peak_mib": peak}
    except Exception as e:  # noqa: BLE001
        problems.append(str(e))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return bl.finish("parse", report, {}, problems)


if __name__ == "__main__":
    sys.exit(main())
