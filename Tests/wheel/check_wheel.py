"""Checks an installed fathom-geometry wheel; test_wheel.sh runs it with the virtual environment's python, from a
folder outside the repository, with neither FATHOM_LIBRARY nor PYTHONPATH set.

1. The wheel holds the package's modules, py.typed, libfathom.so and auditwheel's fathom_geometry.libs/.
2. ``fathom`` and the library it loads are the ones installed in the environment.
3. The distribution's version is the header's FATHOM_VERSION_*, the library's ``fathom_version()`` and
   ``fathom.__version__``.
4. ``ldd -r`` finds every library the installed libfathom.so needs and every symbol it calls (`make wheel` dropped
   its OpenBLAS entry: LAPACKE must come with all it calls), and each library outside the manylinux policy's own set
   resolves into the wheel's fathom_geometry.libs/.
5. The ```python blocks of each README run, in order, in one namespace per README (later blocks use the names of
   earlier ones, as a reader pasting them into one session would), in a scratch folder that the examples write their
   files to (the scan examples write the capture they read; the Dask example reads the captures written before it).
   The Dask example starts worker processes that import this script, hence the main guard at the end.
6. The wheel holds fathom/_cpu.txt (the CPU flags the library needs, which fathom checks before loading it) exactly
   when the library was built with CPU flags (--cpu-flags, the Makefile's CPU_FLAGS; empty for a portable build); the
   file lists avx2 and fma at least, in /proc/cpuinfo's spelling, and this machine has every flag it lists (or the
   library could not have loaded here: 2-5 would have failed first with the package's CPU error).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NoReturn

DISTRIBUTION = "fathom-geometry"
LIBS_FOLDER = "fathom_geometry.libs"
# What every manylinux policy lets a wheel take from the system, of what libfathom.so can need (auditwheel's policies
# list these libraries for all of them, zlib included, so auditwheel leaves them out of the wheel; libstdc++, libgcc_s
# and zlib only up to the policy's symbol versions, which auditwheel checked when it tagged the wheel).
# linux-vdso.so.1 is the kernel's, with no file.
SYSTEM_LIBRARIES = {
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "ld-linux-x86-64.so.2",
    "libgcc_s.so.1",
    "libstdc++.so.6",
    "libz.so.1",
    "linux-vdso.so.1",
}
# Beside the installed library: the CPU flags it needs (`make wheel` writes it when CPU_FLAGS is set).
CPU_MARKER = "_cpu.txt"
PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def fail(message: str) -> NoReturn:
    raise SystemExit(f"check_wheel: {message}")


def header_version(header: Path) -> str:
    text = header.read_text(encoding="utf-8")
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        found = re.search(rf"^#define FATHOM_VERSION_{part} (\d+)[ \t]*$", text, re.M)
        if found is None:
            fail(f"{header} has no FATHOM_VERSION_{part}")
        parts.append(found.group(1))
    return ".".join(parts)


def check_contents(wheel: Path, package_source: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {f"fathom/{path.name}" for path in package_source.glob("*.py")} | {"fathom/py.typed", "fathom/libfathom.so"}
    missing = sorted(wanted - names)
    if missing:
        fail(f"{wheel.name} lacks {', '.join(missing)}")
    vendored = [name for name in names if name.startswith(f"{LIBS_FOLDER}/") and not name.endswith("/")]
    if not vendored:
        fail(f"{wheel.name} has no {LIBS_FOLDER}/: auditwheel vendored nothing")
    print(f"contents: {len(wanted)} package files and {len(vendored)} vendored libraries")


def check_installed() -> Path:
    import fathom
    from fathom import _lib

    prefix = Path(sys.prefix).resolve()
    if prefix == Path(sys.base_prefix).resolve():
        fail(f"{sys.executable} is not a virtual environment's python")
    package = Path(fathom.__file__).resolve().parent
    if not package.is_relative_to(prefix):
        fail(f"fathom was imported from {package}, outside the environment {prefix}")
    library = _lib.library_path().resolve()
    if library != package / "libfathom.so":
        fail(f"fathom loads {library}, not the installed {package / 'libfathom.so'}")
    print(f"installed: {package}")
    return library


def check_version(header: Path) -> None:
    import fathom

    expected = header_version(header)
    found = {
        "distribution": importlib.metadata.version(DISTRIBUTION),
        "library": fathom.version(),
        "package": fathom.__version__,
    }
    wrong = {name: version for name, version in found.items() if version != expected}
    if wrong:
        fail(f"the header says {expected}, but " + ", ".join(f"the {n} says {v}" for n, v in wrong.items()))
    print(f"version: {expected} (header, distribution, library, fathom.__version__)")


def check_dependencies(library: Path) -> None:
    libs = (library.parent.parent / LIBS_FOLDER).resolve()
    done = subprocess.run(["ldd", "-r", str(library)], check=True, capture_output=True, text=True)
    vendored = []
    for line in filter(None, (line.strip() for line in (done.stdout + done.stderr).splitlines())):
        if line.startswith("undefined symbol"):
            fail(f"ldd -r {library}: {line}")
        name, arrow, target = line.partition(" => ")
        if "not found" in target:
            fail(f"ldd {library}: {line}")
        name = Path(name.split(" (")[0]).name
        path = Path(target.split(" (")[0]) if arrow else None
        if path is not None and path.resolve().parent == libs:
            vendored.append(name)
        elif name not in SYSTEM_LIBRARIES:
            fail(f"{library} takes {name} from {path}, outside {libs} and outside the manylinux policy's set")
    if not vendored:
        fail(f"{library} loads nothing from {libs}")
    print(f"dependencies: {len(vendored)} from {LIBS_FOLDER}/ ({', '.join(sorted(vendored))}), the rest the policy's")


def check_cpu_marker(wheel: Path, library: Path, cpu_flags: str) -> None:
    from fathom import _lib

    member = f"fathom/{CPU_MARKER}"
    in_wheel = member in zipfile.ZipFile(wheel).namelist()
    installed = library.parent / CPU_MARKER
    if in_wheel != installed.is_file():
        fail(f"{wheel.name} {'has' if in_wheel else 'lacks'} {member}, but {installed} {'is missing' if in_wheel else 'exists'}")
    if not cpu_flags.strip():
        if in_wheel:
            fail(f"the library was built without CPU flags (a portable build), but {wheel.name} has {member}")
        print(f"cpu: no {member} (a portable build)")
        return
    if not in_wheel:
        fail(f"the library was built with CPU flags ({cpu_flags}), but {wheel.name} has no {member}: fathom would load "
             f"it on any x86-64, and an older one would die of SIGILL")
    text = installed.read_text(encoding="utf-8")
    flags = [flag for line in text.splitlines() if not line.lstrip().startswith("#") for flag in line.split()]
    if not {"avx2", "fma"} <= set(flags):
        fail(f"{member} lists {' '.join(flags) or 'no flags'}, not avx2 and fma")
    bad = [flag for flag in flags if not re.fullmatch(r"[a-z0-9_]+", flag)]
    if bad:
        fail(f"{member} lists {', '.join(bad)}, which /proc/cpuinfo never spells that way")
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        fail(f"cannot read /proc/cpuinfo to check {member} against this machine: {error}")
    if "\nflags" not in "\n" + cpuinfo:
        fail(f"/proc/cpuinfo has no flags line to check {member} against")
    try:
        _lib.check_cpu_flags(cpuinfo, flags, library)
    except _lib.LibraryNotFoundError as error:
        fail(f"{member} lists flags this machine lacks: {error}")
    print(f"cpu: {member} lists {len(flags)} flags ({' '.join(flags)}), all present here")


def run_examples(readme: Path) -> None:
    blocks = PYTHON_BLOCK.findall(readme.read_text(encoding="utf-8"))
    if not blocks:
        fail(f"{readme} has no ```python blocks")
    namespace: dict[str, object] = {"__name__": "__main__"}
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="readme-") as scratch:
        os.chdir(scratch)
        try:
            for number, code in enumerate(blocks, start=1):
                output = io.StringIO()
                try:
                    with contextlib.redirect_stdout(output):
                        exec(compile(code, f"{readme.name} python block {number}", "exec"), namespace)
                except Exception as error:
                    fail(f"{readme} python block {number} failed: {error!r}\n--- its output:\n{output.getvalue()}"
                         f"--- the block:\n{code}")
        finally:
            os.chdir(cwd)
    print(f"examples: {readme}: {len(blocks)} python blocks ran")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True, help="the wheel that was installed")
    parser.add_argument("--header", type=Path, required=True, help="include/fathom.h")
    parser.add_argument("--package-source", type=Path, required=True, help="Bindings/python/fathom")
    parser.add_argument("--cpu-flags", required=True,
                        help="the CPU_FLAGS the library was built with (empty: a portable build); pass as --cpu-flags=...")
    parser.add_argument("readmes", type=Path, nargs="+", help="Markdown files with ```python blocks")
    args = parser.parse_args()
    check_contents(args.wheel, args.package_source)
    library = check_installed()
    check_version(args.header)
    check_dependencies(library)
    check_cpu_marker(args.wheel, library, args.cpu_flags)
    for readme in args.readmes:
        run_examples(readme)
    print(f"wheel: {args.wheel.name} passed")


if __name__ == "__main__":
    main()
