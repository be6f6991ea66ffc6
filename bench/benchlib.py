"""Shared helpers of the Fathom benchmarks (not a benchmark itself: it defines no main).

Every benchmark script in bench/ imports this module for:
  - machine_summary() / print_machine(): the CPU, its SIMD flags, the pinning, the thread settings;
  - load_fathom(): libfathom.so through ctypes (path from $FATHOM_LIBRARY), with its version;
  - import_open3d(): Open3D limited to one thread, or None with the reason it is unavailable;
  - measure(): warm-up + timed runs (median and min), with the garbage collector off;
  - Table: the side-by-side table (median ms, Mpts/s, GB/s of input, speed-up of Fathom);
  - bar(): one PASS/FAIL line of a performance target;
  - save_json(): the raw numbers under bench/out/NAME.json;
  - probe_second_core() / scaling_text(): whether the host gives a second thread a whole core, for every
    benchmark that reports a thread-scaling figure (threads = 2 or 0 against 1): below CORE_SHARE_MIN the figure
    is reported as "not measured: ..." instead of a ratio.

Running `python benchlib.py` prints the machine header (the Makefile does this once per run);
`python benchlib.py --core-probe` prints only the probe, as one line "<share> <description>" (the C ray-casting
harness runs it before each of its thread-scaling blocks).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT_DIR = HERE / "out"

# ------------------------------------------------------------------------------------------------
# Machine
# ------------------------------------------------------------------------------------------------


def _cpuinfo() -> tuple[str, set[str]]:
    model, flags = "", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and not model:
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return model or platform.processor() or "unknown", flags


def machine_summary() -> dict:
    model, flags = _cpuinfo()
    try:
        affinity = sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        affinity = []
    return {
        "cpu": model,
        "logical_cpus": os.cpu_count(),
        "avx2": "avx2" in flags,
        "fma": "fma" in flags,
        "avx512f": "avx512f" in flags,
        "pinned_to": affinity,
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "python": platform.python_version(),
    }


def _yn(b: bool) -> str:
    return "yes" if b else "no"


def print_machine(lib_path: str | None = None) -> None:
    m = machine_summary()
    print(f"CPU:      {m['cpu']} ({m['logical_cpus']} logical CPUs)")
    print(f"SIMD:     avx2 {_yn(m['avx2'])}, fma {_yn(m['fma'])}, avx512f {_yn(m['avx512f'])}")
    print("Library:  its build flags are not recorded in libfathom.so. The top-level Makefile builds with")
    print("          -target-cpu haswell (AVX2+FMA) when this CPU has avx2 and fma, unless CPU_FLAGS= is given:")
    print(f"          expected here: {'haswell (AVX2+FMA)' if m['avx2'] and m['fma'] else 'baseline x86-64 (SSE2)'}")
    pinned = ",".join(map(str, m["pinned_to"])) or "?"
    one = len(m["pinned_to"]) == 1
    print(f"Pinning:  CPUs {pinned}{'' if one else '  (WARNING: not pinned to one core; run through make)'};"
          f" OMP_NUM_THREADS={m['omp_num_threads']}")
    print(f"Python:   {m['python']} ({sys.executable})")
    print(f"Load:     {load_average()} (1/5/15 min; other work on the machine shares the memory bandwidth)")
    lib_path = lib_path or os.environ.get("FATHOM_LIBRARY")
    if lib_path:
        print(f"LIB:      {lib_path}")
    probe = probe_second_core()
    print(f"Cores:    {probe.text}")


# ------------------------------------------------------------------------------------------------
# Does a second thread get a whole core?
# ------------------------------------------------------------------------------------------------

# A thread-scaling figure (threads = 2 against 1) is reported only when a second thread gets at least this share
# of a whole core; below it the host (another process on the other CPU, SMT siblings, an overcommitted VM) and not
# the library sets the figure.
CORE_SHARE_MIN = 0.85

_SPIN_CHILD = r"""
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
now = time.monotonic
sys.stdout.write("ready\n")
sys.stdout.flush()
for line in sys.stdin:
    start, seconds = map(float, line.split())
    while now() < start:
        pass
    n, t0 = 0, now()
    end = t0 + seconds
    while True:
        for _ in range(1000):
            pass
        n += 1000
        t = now()
        if t >= end:
            break
    sys.stdout.write(f"{n / (t - t0)!r}\n")
    sys.stdout.flush()
"""


def _online_cpus() -> list[int]:
    try:
        text = Path("/sys/devices/system/cpu/online").read_text().strip()
        cpus = []
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            cpus += range(int(lo), int(hi or lo) + 1)
        return cpus
    except (OSError, ValueError):
        return list(range(os.cpu_count() or 1))


class _Spinners:
    """One spin-loop child process pinned to each core (pure Python loop: no memory traffic), kept alive between
    phases; spin({core: seconds}) starts the chosen ones together and returns their loops per second."""

    def __init__(self, cores: list[int]):
        self.procs = {}
        for c in cores:
            self.procs[c] = subprocess.Popen([sys.executable, "-S", "-c", _SPIN_CHILD, str(c)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for c, p in self.procs.items():
            if p.stdout.readline().strip() != "ready":
                err = p.stderr.read().strip().splitlines()
                raise RuntimeError(f"spin loop on CPU {c}: {err[-1] if err else 'failed'}")

    def spin(self, seconds: dict) -> dict:
        start = time.monotonic() + 0.002
        for c, s in seconds.items():
            self.procs[c].stdin.write(f"{start!r} {s!r}\n")
            self.procs[c].stdin.flush()
        return {c: float(self.procs[c].stdout.readline()) for c in seconds}

    def close(self) -> None:
        for p in self.procs.values():
            try:
                p.stdin.close()
                p.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                p.kill()
                p.wait()


@dataclass
class CoreProbe:
    """share: what a second thread adds, in whole cores: (rate of core A + rate of core B, both spinning at once)
    / (a whole core: the median of the alone rates of both cores) - 1, the median of a few such cycles; None when it could not be measured (one CPU, affinity refused). 1.0 = a whole core; ~0.5 = the other
    CPU is busy with other work half of the time (or is an SMT sibling)."""
    share: float | None
    cores: tuple = ()
    alone: tuple = ()      # median loops/s of A alone, B alone
    together: tuple = ()   # median loops/s of A, B at once
    shares: tuple = ()     # each cycle's share
    text: str = ""

    @property
    def whole_core(self) -> bool | None:
        return None if self.share is None else self.share >= CORE_SHARE_MIN


def probe_second_core(cycles: int = 6, alone_s: float = 0.025, together_s: float = 0.04) -> CoreProbe:
    """~0.6 s: `cycles` times, a spin loop alone on core A, alone on core B, then on both at once. A whole core is
    the median of all the alone runs of both cores (an alone run that shared its CPU with other work, or one sped
    up by a short frequency boost of the host, does not set the yardstick); each cycle's share =
    (A + B at once) / that - 1, and the median over the cycles is reported (a one-off hiccup of the host does not
    decide it). Core A is the first CPU this process may run on (the benchmarks' pinned core), B the next online
    CPU. A host that keeps both CPUs half busy with other work halves the alone rates too and can pass this probe:
    a benchmark should also check what other processes used during its timed runs (raycast_bench.c does)."""
    try:
        mine = sorted(os.sched_getaffinity(0))
    except AttributeError:
        return CoreProbe(None, text="no CPU affinity on this system: not probed")
    online = _online_cpus()
    a = mine[0] if mine else online[0]
    others = [c for c in online if c != a]
    if not others:
        return CoreProbe(None, (a,), text="only one online CPU")
    b = others[0]
    spinners = None
    try:
        spinners = _Spinners([a, b])
        ra, rb, ta, tb = [], [], [], []
        for _ in range(cycles):
            ra.append(spinners.spin({a: alone_s})[a])
            rb.append(spinners.spin({b: alone_s})[b])
            both = spinners.spin({a: together_s, b: together_s})
            ta.append(both[a])
            tb.append(both[b])
        whole = statistics.median(ra + rb)
        shares = [(x + y) / whole - 1 for x, y in zip(ta, tb)]
    except (OSError, RuntimeError, ValueError) as e:
        return CoreProbe(None, (a, b), text=f"core probe failed: {e}")
    finally:
        if spinners:
            spinners.close()
    share = max(0.0, statistics.median(shares))  # below 0: both at once gave less than one core alone
    med = statistics.median
    verdict = "a whole core" if share >= CORE_SHARE_MIN else "NOT a whole core"
    text = (f"spin loop alone: CPU {a} {med(ra) / 1e6:.1f}, CPU {b} {med(rb) / 1e6:.1f} M loops/s (medians; a whole "
            f"core {whole / 1e6:.1f}); both at once: {med(ta) / 1e6:.1f} + {med(tb) / 1e6:.1f}: a second thread gets "
            f"{100 * share:.0f}% of a core (median of "
            f"{cycles}: {', '.join(f'{100 * x:.0f}' for x in shares)}%; {verdict}, scaling figures need >= "
            f"{100 * CORE_SHARE_MIN:.0f}%)")
    return CoreProbe(share, (a, b), (med(ra), med(rb)), (med(ta), med(tb)), tuple(shares), text)


def scaling_text(probe: CoreProbe, ratio: float, fmt: str = "{:.2f}x") -> str:
    """A thread-scaling figure as the benchmarks report it: the ratio when a second thread gets a whole core,
    else why it is not measured."""
    if probe.share is None:
        return f"{fmt.format(ratio)} (core probe: {probe.text})"
    if probe.share < CORE_SHARE_MIN:
        return not_measured_text(probe)
    return fmt.format(ratio)


def not_measured_text(probe: CoreProbe) -> str:
    if probe.share is None:
        return f"not measured: {probe.text}"
    return (f"not measured: the host does not give a second thread a whole core (measured {100 * probe.share:.0f}% "
            f"of a core)")


# ------------------------------------------------------------------------------------------------
# Libraries under test
# ------------------------------------------------------------------------------------------------


class FathomUnavailable(RuntimeError):
    pass


def library_path() -> str:
    path = os.environ.get("FATHOM_LIBRARY") or str(HERE.parent / ".build" / "release" / "libfathom.so")
    return str(Path(path).resolve())


def load_fathom(path: str | None = None) -> ctypes.CDLL:
    """libfathom.so via ctypes, with fathom_version/fathom_last_error/fathom_status_name declared.
    Each benchmark declares the prototypes it uses itself (self-contained; no dependency on the
    Python binding). Raises FathomUnavailable with the reason."""
    path = path or library_path()
    if not Path(path).is_file():
        raise FathomUnavailable(f"library not found: {path}")
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise FathomUnavailable(f"cannot load {path}: {e}") from e
    for name in ("fathom_version", "fathom_last_error"):
        if hasattr(lib, name):
            getattr(lib, name).restype = ctypes.c_char_p
            getattr(lib, name).argtypes = []
    if hasattr(lib, "fathom_status_name"):
        lib.fathom_status_name.restype = ctypes.c_char_p
        lib.fathom_status_name.argtypes = [ctypes.c_int]
    return lib


def fathom_version(lib: ctypes.CDLL) -> str:
    try:
        return lib.fathom_version().decode()
    except AttributeError:
        return "?"


def require_symbols(lib: ctypes.CDLL, names: list[str]) -> None:
    missing = [n for n in names if not hasattr(lib, n)]
    if missing:
        raise FathomUnavailable("library does not export " + ", ".join(missing))


def declare(lib: ctypes.CDLL, prototypes: dict[str, list], void_functions: dict[str, list] | None = None) -> None:
    """Checks that the library exports every function named, then sets their argument types: `prototypes`
    return a fathom_status (int), `void_functions` return nothing."""
    void_functions = void_functions or {}
    require_symbols(lib, list(prototypes) + list(void_functions))
    for name, argtypes in prototypes.items():
        fn = getattr(lib, name)
        fn.argtypes = argtypes
        fn.restype = ctypes.c_int  # fathom_status
    for name, argtypes in void_functions.items():
        fn = getattr(lib, name)
        fn.argtypes = argtypes
        fn.restype = None


def check_status(lib: ctypes.CDLL, fn_name: str, status: int) -> None:
    if status != 0:
        name = lib.fathom_status_name(status).decode() if hasattr(lib, "fathom_status_name") else str(status)
        msg = lib.fathom_last_error().decode() if hasattr(lib, "fathom_last_error") else ""
        raise RuntimeError(f"{fn_name} returned {name}: {msg}")


def import_open3d():
    """(open3d module, None) limited to one thread, or (None, reason)."""
    try:
        import open3d as o3d
    except Exception as e:  # ImportError, or OSError for a missing system library such as libusb
        return None, f"{type(e).__name__}: {e}"
    try:
        o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
    except Exception:
        pass
    if hasattr(o3d.utility, "set_max_threads"):  # Open3D >= 0.20 (TBB); older versions are OpenMP-only
        o3d.utility.set_max_threads(1)
    return o3d, None


def open3d_threads(o3d) -> str:
    if hasattr(o3d.utility, "get_max_threads"):
        return str(o3d.utility.get_max_threads())
    return f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}"


# ------------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------------


def default_repeat() -> int:
    return max(7, int(os.environ.get("FATHOM_BENCH_REPEAT", "9")))


@dataclass
class Timing:
    seconds: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def min(self) -> float:
        return min(self.seconds)

    @property
    def spread(self) -> float:
        """median / min - 1: how far the typical run is from the best one (noise on the machine)."""
        return self.median / self.min - 1 if self.min > 0 else 0.0


def measure(fn, repeat: int | None = None, warmup: int = 2) -> Timing:
    """Runs fn() `warmup` times untimed, then `repeat` (>= 7) timed runs, garbage collector off."""
    repeat = max(7, repeat or default_repeat())
    for _ in range(warmup):
        fn()
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            fn()
            samples.append((time.perf_counter_ns() - t0) * 1e-9)
    finally:
        if was_enabled:
            gc.enable()
    return Timing(samples)


def measure_interleaved(fns: dict, repeat: int | None = None, warmup: int = 2) -> dict:
    """Like measure(), for several functions run round-robin (one run of each per round), so that
    all of them see the same machine conditions (another process using memory bandwidth, frequency
    changes). Use it for rows that are compared with each other, such as an engine and the copy limit."""
    repeat = max(7, repeat or default_repeat())
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    samples = {name: [] for name in fns}
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            for name, fn in fns.items():
                t0 = time.perf_counter_ns()
                fn()
                samples[name].append((time.perf_counter_ns() - t0) * 1e-9)
    finally:
        if was_enabled:
            gc.enable()
    return {name: Timing(s) for name, s in samples.items()}


def load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


# ------------------------------------------------------------------------------------------------
# Reporting
# ------------------------------------------------------------------------------------------------


NOISY = 0.10  # median / min - 1 above which the table flags a row as noisy


@dataclass
class Row:
    engine: str
    timing: Timing
    items: int              # points (or rays, pixels) processed per run
    bytes_in: int           # bytes of input read per run
    note: str = ""


class Table:
    """Rows of one workload. speed-up = this row's median time / reference row's median time
    (> 1: the reference, normally Fathom, is that many times faster)."""

    def __init__(self, title: str, unit: str = "Mpts/s"):
        self.title, self.unit, self.rows = title, unit, []

    def add(self, engine: str, timing: Timing, items: int, bytes_in: int, note: str = "") -> Row:
        row = Row(engine, timing, items, bytes_in, note)
        self.rows.append(row)
        return row

    def get(self, engine: str) -> Row | None:
        return next((r for r in self.rows if r.engine == engine), None)

    def print(self, reference: str | None) -> None:
        ref = self.get(reference) if reference else None
        w = max(28, *(len(r.engine) for r in self.rows))
        ref_label = f"x vs {reference}" if ref else "x vs ref"
        head = (f"{'engine':<{w}}  {'median ms':>9}  {'min ms':>8}  {self.unit:>8}  {'GB/s in':>7}  "
                f"{ref_label:>{max(8, len(ref_label))}}  note")
        print(self.title)
        print(head)
        print("-" * len(head))
        for r in self.rows:
            med = r.timing.median
            rate = r.items / med / 1e6
            gbs = r.bytes_in / med / 1e9
            ratio = f"{med / ref.timing.median:.2f}" if ref else "-"
            note = r.note + ("; " if r.note else "") + f"NOISY (median {r.timing.spread:.0%} above min)" \
                if r.timing.spread > NOISY else r.note
            print(f"{r.engine:<{w}}  {med * 1e3:9.2f}  {r.timing.min * 1e3:8.2f}  {rate:8.1f}  {gbs:7.2f}  "
                  f"{ratio:>{max(8, len(ref_label))}}  {note}")

    def to_json(self) -> list[dict]:
        return [{"engine": r.engine, "median_s": r.timing.median, "min_s": r.timing.min,
                 "runs_s": r.timing.seconds, "items": r.items, "bytes_in": r.bytes_in, "note": r.note}
                for r in self.rows]


def bar(label: str, ok: bool | None, detail: str) -> bool | None:
    """Prints one target line; ok=None means it could not be measured."""
    tag = "PASS" if ok else ("N/A " if ok is None else "FAIL")
    print(f"  {tag}  {label}: {detail}")
    return ok


def strict() -> bool:
    return os.environ.get("FATHOM_BENCH_STRICT", "0") not in ("", "0")


def save_json(name: str, data: dict) -> Path:
    OUT_DIR.mkdir(exist_ok=True)
    path = OUT_DIR / f"{name}.json"
    data = {"machine": machine_summary(), **data}
    path.write_text(json.dumps(data, indent=1))
    return path


if __name__ == "__main__":
    if "--core-probe" in sys.argv[1:]:
        _p = probe_second_core()
        print(f"{_p.share if _p.share is not None else float('nan'):.3f} {_p.text}")
    else:
        print_machine()


def finish(name: str, report: dict, results: dict, problems: list[str]) -> int:
    """The end of a benchmark: the load average, the raw numbers saved as out/<name>.json, the problems listed;
    the exit status (1 with problems, or with STRICT=1 and a missed bar)."""
    print(f"\nLoad average at end: {load_average()}")
    report["targets"] = results
    report["problems"] = problems
    print(f"raw numbers: {save_json(name, report)}")
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print(f"  {p}")
        return 1
    if strict() and any(v is False for v in results.values()):
        return 1
    return 0
