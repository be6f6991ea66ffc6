"""Loading the library: $FATHOM_LIBRARY, the package copy, versions and clear failures."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fathom
from fathom import _lib

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def _run(code: str, env_library: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "FATHOM_LIBRARY"}
    if env_library is not None:
        env["FATHOM_LIBRARY"] = env_library
    env["PYTHONPATH"] = str(PACKAGE_ROOT)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd="/")


def test_version_matches_header_macros() -> None:
    major, minor, patch = (_lib.CONSTANTS[f"FATHOM_VERSION_{p}"] for p in ("MAJOR", "MINOR", "PATCH"))
    assert fathom.version() == f"{major}.{minor}.{patch}"
    assert fathom.version_number() == major * 10000 + minor * 100 + patch


def test_package_version_is_the_headers(header_path: Path) -> None:
    """fathom.__version__ is the library's, which is the header's FATHOM_VERSION_* (the project's one statement)."""
    text = header_path.read_text(encoding="utf-8")
    macro = lambda part: int(re.search(rf"^#define FATHOM_VERSION_{part} (\d+)\s*$", text, re.M).group(1))  # noqa: E731
    major, minor, patch = macro("MAJOR"), macro("MINOR"), macro("PATCH")
    assert fathom.__version__ == f"{major}.{minor}.{patch}" == fathom.version()
    number = fathom.version_number()
    assert f"{number // 10000}.{number // 100 % 100}.{number % 100}" == fathom.__version__


def test_package_version_loads_the_library_only_when_read() -> None:
    """Importing fathom (even ``import *``) does not load the library; reading ``__version__`` does."""
    code = "import fathom, fathom._lib as L; from fathom import *; a = L._library is None; print(a, fathom.__version__)"
    result = _run(code, os.environ.get("FATHOM_LIBRARY"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", fathom.version()]
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        fathom.no_such_name  # noqa: B018


def test_loaded_from_env_or_package() -> None:
    env = os.environ.get("FATHOM_LIBRARY")
    expected = Path(env) if env else PACKAGE_ROOT / "fathom" / "libfathom.so"
    assert _lib.library_path() == expected


def test_import_does_not_load_the_library() -> None:
    result = _run("import fathom, fathom._lib as L; print(L._library is None)", "/nonexistent/libfathom.so")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_missing_env_library_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "libfathom.so"
    result = _run("import fathom; fathom.version()", str(missing))
    assert result.returncode != 0
    assert "LibraryNotFoundError" in result.stderr
    assert "FATHOM_LIBRARY is set to" in result.stderr and str(missing) in result.stderr
    assert "make lib" in result.stderr


def test_unloadable_library_is_a_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "libfathom.so"
    junk.write_bytes(b"not an ELF file")
    result = _run("import fathom; fathom.Box()", str(junk))
    assert result.returncode != 0
    assert "LibraryNotFoundError" in result.stderr and "could not be loaded" in result.stderr


# /proc/cpuinfo as Linux writes it on x86, trimmed: one block per logical CPU, each with its "flags" line.
HASWELL_FLAGS = "avx avx2 bmi1 bmi2 f16c fma abm movbe popcnt sse4_1 sse4_2 ssse3 xsave".split()
_CPUINFO_BLOCK = (
    "processor\t: {n}\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\n"
    "flags\t\t: fpu vme de pse tsc msr cx8 sep cmov mmx fxsr sse sse2 ht syscall nx lm {flags}\n"
    "bugs\t\t: spectre_v1\n\n"
)


def _cpuinfo(*cpus: str) -> str:
    return "".join(_CPUINFO_BLOCK.format(n=n, flags=flags) for n, flags in enumerate(cpus))


def _on_linux_x86_with_flags() -> bool:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    machine = os.uname().machine.lower()
    return sys.platform.startswith("linux") and machine in ("x86_64", "i686", "i386") and "\nflags" in "\n" + text


def test_cpu_check_passes_when_every_flag_is_present() -> None:
    text = _cpuinfo(" ".join(HASWELL_FLAGS), " ".join(HASWELL_FLAGS) + " avx512f")
    _lib.check_cpu_flags(text, HASWELL_FLAGS)
    _lib.check_cpu_flags(text, [])


def test_cpu_check_names_the_missing_flag() -> None:
    without_fma = " ".join(f for f in HASWELL_FLAGS if f != "fma")
    with pytest.raises(_lib.LibraryNotFoundError) as caught:
        _lib.check_cpu_flags(_cpuinfo(without_fma), HASWELL_FLAGS, Path("/x/libfathom.so"))
    message = str(caught.value)
    assert "lacks fma " in message and "avx2" not in message.split("lacks", 1)[1].split("(")[0]
    assert "/x/libfathom.so" in message
    assert "AVX2 and FMA (Haswell, 2013, or newer)" in message
    assert "make CPU_FLAGS= lib wheel" in message
    # A flag one CPU of several lacks is missing: the process may run on that one.
    with pytest.raises(_lib.LibraryNotFoundError, match=r"lacks avx2 "):
        _lib.check_cpu_flags(_cpuinfo(" ".join(HASWELL_FLAGS), "avx fma"), ["avx", "avx2", "fma"])
    # Every missing flag is named, in the marker's order, once.
    with pytest.raises(_lib.LibraryNotFoundError, match=r"lacks avx2, movbe "):
        _lib.check_cpu_flags(_cpuinfo("sse2 fma"), ["avx2", "fma", "movbe", "avx2"])


def test_cpu_check_does_not_block_without_a_flags_line() -> None:
    _lib.check_cpu_flags("", HASWELL_FLAGS)
    # aarch64's /proc/cpuinfo says "Features", not "flags".
    _lib.check_cpu_flags("processor\t: 0\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\n", HASWELL_FLAGS)
    # "flags" must be the whole field name: "vmx flags" (newer kernels) is not the CPU's flags line.
    _lib.check_cpu_flags("processor\t: 0\nvmx flags\t: vnmi\n", HASWELL_FLAGS)


def test_cpu_marker_words_outside_comments_are_the_flags() -> None:
    marker = b"# x86 CPU flags (built with CPU_FLAGS=...)\n  # avx512f, indented comment\navx2 fma\n\tmovbe  xsave\n"
    assert _lib.cpu_marker_flags(marker) == ["avx2", "fma", "movbe", "xsave"]
    # A word that is not UTF-8 is kept (with U+FFFD), so it names no flag a CPU has and the check refuses the library.
    flags = _lib.cpu_marker_flags(b"avx2 \xff\xfe\n")
    assert flags == ["avx2", "\ufffd\ufffd"]
    with pytest.raises(_lib.LibraryNotFoundError, match="lacks \ufffd\ufffd "):
        _lib.check_cpu_flags(_cpuinfo(" ".join(HASWELL_FLAGS)), flags)


@pytest.mark.skipif(not _on_linux_x86_with_flags(), reason="needs Linux x86 with a /proc/cpuinfo flags line")
def test_library_with_a_cpu_marker_this_cpu_fails_is_not_loaded(tmp_path: Path) -> None:
    """A CPU marker beside the library, naming a flag no CPU has: the load stops with the CPU error before dlopen
    (the file is no library at all, so getting past the check would say "could not be loaded")."""
    junk = tmp_path / "libfathom.so"
    junk.write_bytes(b"not an ELF file")
    (tmp_path / "_cpu.txt").write_text("# test marker\nsse2 fathom_no_such_flag\n", encoding="utf-8")
    result = _run("import fathom; fathom.version()", str(junk))
    assert result.returncode != 0
    assert "LibraryNotFoundError" in result.stderr and "lacks fathom_no_such_flag " in result.stderr
    assert "could not be loaded" not in result.stderr
    # A marker whose flags this CPU has lets the load go on (to dlopen, which fails on this junk).
    (tmp_path / "_cpu.txt").write_text("sse2\n", encoding="utf-8")
    result = _run("import fathom; fathom.version()", str(junk))
    assert "could not be loaded" in result.stderr and "lacks" not in result.stderr


def test_env_library_is_used(tmp_path: Path) -> None:
    real = _lib.library_path()
    if not real.is_file():
        pytest.skip("no built library")
    result = _run("import fathom, fathom._lib as L; fathom.version(); print(L.library_path())", str(real))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(real)


def test_library_is_loaded_once() -> None:
    assert _lib.library() is _lib.library()


def test_errors_module_stands_alone() -> None:
    """errors.py defines the exception classes and imports nothing from the package (no cycle with _lib.py,
    which imports it); importing it does not load the library."""
    source = (PACKAGE_ROOT / "fathom" / "errors.py").read_text(encoding="utf-8")
    relative = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom) and (n.level or 0) > 0]
    assert not relative, [ast.unparse(n) for n in relative]
    code = "import fathom.errors as E, fathom._lib as L; print(E.exception_class(6).__name__, L._library is None)"
    result = _run(code, "/nonexistent/libfathom.so")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["NotRigidError", "True"]


def test_no_module_imports_private_names_of_a_sibling_it_does_not_own() -> None:
    """Helpers shared by several modules live in the private modules (_arrays, _scalars, _lib, ...): a public
    module imports no underscore name from another public module, except the few owned helpers listed here."""
    owned = {  # (module, name): a companion module's internals
        ("raycast", "_hits_ptr"), ("raycast", "_range"), ("raycast", "_ray_array"), ("raycast", "_ray_struct"),
        ("raycast", "_rays_ptr"),
    }
    found = []
    for path in sorted((PACKAGE_ROOT / "fathom").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module and not node.module.startswith("_"):
                for alias in node.names:
                    if alias.name.startswith("_") and (node.module, alias.name) not in owned:
                        found.append(f"{path.name}: from .{node.module} import {alias.name}")
    assert not found, found


def test_no_import_cycle_between_modules() -> None:
    """The package's modules import each other in one direction only (depth.py imports length.py, never the
    reverse), counting imports inside functions and leaving out those for type checkers only."""
    graph: dict[str, set[str]] = {}
    for path in sorted((PACKAGE_ROOT / "fathom").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(n) for block in ast.walk(tree)
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING" for n in ast.walk(block)
        }
        graph[path.stem] = {
            n.module or alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1
            and id(n) not in typing_only for alias in n.names
        }
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for dep in sorted(graph.get(module, ())):
            assert dep not in path, " -> ".join(path[path.index(dep):] + [dep])
            if dep not in done:
                visit(dep, path + [dep])
        done.add(module)

    for module in graph:
        visit(module, [module])


def test_capture_guidance_modules() -> None:
    """guidance.py was split into coverage.py and motion.py; the package exports are unchanged."""
    import fathom.coverage
    import fathom.motion

    for name in ("Coverage", "CoverageOptions", "CoverageSummary", "FaceCoverage", "NextView", "ViewResult",
                 "ViewStatus", "VIEW_RESULT_DTYPE"):
        assert getattr(fathom, name) is getattr(fathom.coverage, name), name
    for name in ("Motion", "MotionOptions", "MotionState", "Guidance", "TrajectorySummary", "INCH",
                 "MOTION_STATE_DTYPE", "ns_to_seconds", "seconds_to_ns", "select_frames", "summarize_trajectory"):
        assert getattr(fathom, name) is getattr(fathom.motion, name), name
