"""Loading the library: $FATHOM_LIBRARY, the package copy, versions and clear failures."""

from __future__ import annotations

import os
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


def test_package_version() -> None:
    assert fathom.__version__ == ".".join(map(str, _lib.BINDING_VERSION))


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
    import ast

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
    import ast

    owned = {  # (module, name): a class's own converter or a companion module's internals
        ("camera", "_intrinsics"), ("raycast", "_hits_ptr"), ("raycast", "_range"), ("raycast", "_ray_array"),
        ("raycast", "_ray_struct"), ("raycast", "_rays_ptr"),
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
