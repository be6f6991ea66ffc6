"""Wheel tagging for a package that ships a native library but no Python extension, built out of tree.

libfathom.so makes the wheel platform-specific (linux_x86_64, ...), yet the package is loaded through
ctypes and works with any Python 3: the tag is py3-none-<platform>.

setuptools writes its scratch files (``build/`` and ``fathom.egg-info``) next to setup.py unless told
otherwise, so ``pip install ./Bindings/python`` would leave them in the checkout. They go to a temporary
directory instead, removed when the build process ends. Everything else is in pyproject.toml.
"""

import atexit
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel as _bdist_wheel

LIBRARY = Path(__file__).resolve().parent / "fathom" / "libfathom.so"


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
                f"there), so the wheel can ship it."
            )
        super().run()


SCRATCH = Path(tempfile.mkdtemp(prefix="fathom-setup-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)

setup(
    distclass=BinaryDistribution,
    cmdclass={"bdist_wheel": bdist_wheel},
    options={"build": {"build_base": str(SCRATCH / "build")}, "egg_info": {"egg_base": str(SCRATCH)}},
)
