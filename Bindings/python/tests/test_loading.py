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
