"""Shared fixtures. The library comes from $FATHOM_LIBRARY (set by the Makefile) or the package copy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
HEADER = REPO_ROOT / "include" / "fathom.h"


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240611)


@pytest.fixture(scope="session")
def header_path() -> Path:
    if not HEADER.is_file():
        pytest.skip(f"include/fathom.h not found at {HEADER} (tests run outside the Fathom repository)")
    return HEADER
