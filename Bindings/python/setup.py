"""The version, and wheel tagging for a package that ships a native library but no Python extension, built out of tree.

The version is the one include/fathom.h states (FATHOM_VERSION_MAJOR, _MINOR, _PATCH), read from the header two
folders up, as the repository lays it out (`make wheel` stages the same layout): no second copy to keep in step.

libfathom.so makes the wheel platform-specific (linux_x86_64, ...), yet the package is loaded through
ctypes and works with any Python 3: the tag is py3-none-<platform>. auditwheel (`make wheel`) then replaces the
platform with the manylinux policy the library meets, and needs a platform wheel to start from.

setuptools writes its scratch files (``build/`` and ``fathom.egg-info``) next to setup.py unless told
otherwise, so ``pip install ./Bindings/python`` would leave them in the checkout. They go to a temporary
directory instead, removed when the build process ends. Everything else is in pyproject.toml.
"""

import atexit
import re
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel

HERE = Path(__file__).resolve().parent
LIBRARY = HERE / "fathom" / "libfathom.so"
HEADER = HERE.parent.parent / "include" / "fathom.h"


def header_version() -> str:
    """MAJOR.MINOR.PATCH from the header's FATHOM_VERSION_* macros; stops the build if they cannot be read."""
    if not HEADER.is_file():
        raise SystemExit(
            f"{HEADER} is missing: the package takes its version from the Fathom header, so build it from a "
            f"checkout of the Fathom repository (Bindings/python, two folders below include/fathom.h), or with "
            f"`make wheel` there."
        )
    text = HEADER.read_text(encoding="utf-8")
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        found = re.search(rf"^#define FATHOM_VERSION_{part} (\d+)[ \t]*$", text, re.M)
        if found is None:
            raise SystemExit(f"{HEADER} has no '#define FATHOM_VERSION_{part} <number>' line to take the version from.")
        parts.append(found.group(1))
    return ".".join(parts)


class BinaryDistribution(Distribution):
    """Marks the package as platform-specific so the library lands in platlib."""

    def has_ext_modules(self) -> bool:
        return True


class bdist_wheel(_bdist_wheel):
    def get_tag(self) -> tuple:
        _, _, platform = super().get_tag()
        return "py3", "none", platform

    def run(self) -> None:
        if not LIBRARY.is_file():
            raise SystemExit(
                f"{LIBRARY} is missing: build it first (`make lib` in the Fathom repository copies it "
                f"there; `make wheel` builds the wheel with a stripped copy), so the wheel can ship it."
            )
        super().run()


SCRATCH = Path(tempfile.mkdtemp(prefix="fathom-setup-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)

setup(
    version=header_version(),
    distclass=BinaryDistribution,
    cmdclass={"bdist_wheel": bdist_wheel},
    options={"build": {"build_base": str(SCRATCH / "build")}, "egg_info": {"egg_base": str(SCRATCH)}},
)
