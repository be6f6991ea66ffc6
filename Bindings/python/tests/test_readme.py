"""The ```python examples of the main README and of the package README must run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
PYTHON_BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)

def _blocks(path: Path) -> list[str]:
    assert path.is_file(), f"{path} is missing"
    blocks = PYTHON_BLOCK.findall(path.read_text(encoding="utf-8"))
    assert blocks, f"{path} has no ```python example blocks"
    return blocks

def _package_env() -> dict[str, str]:
    """The environment with the package on PYTHONPATH, as processes would find an installed one."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH")]))
    return env


def _run_blocks(path: Path, tmp_path: Path) -> None:
    """Runs the blocks in order in one namespace (later examples build on earlier ones), in a
    scratch directory so examples that write files leave nothing behind. Processes the examples start (the
    Dask workers) find the package through PYTHONPATH, as they would an installed one. The namespace is a
    script's (``__name__ == "__main__"``), so the code under a README's main guard runs too."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    cwd = os.getcwd()
    package_root = str(Path(__file__).resolve().parents[1])
    old_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, old_path]))
    os.chdir(tmp_path)
    try:
        for i, code in enumerate(_blocks(path), start=1):
            try:
                exec(compile(code, f"{path.name} python block {i}", "exec"), namespace)
            except Exception as exc:
                raise AssertionError(f"{path} python block {i} failed: {exc!r}\n---\n{code}---") from exc
    finally:
        os.chdir(cwd)
        if old_path is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old_path

def test_main_readme_python_examples(tmp_path: Path) -> None:
    _run_blocks(REPO_ROOT / "README.md", tmp_path)
    # A block that starts worker processes must also run pasted alone into a script: spawned workers import the
    # script, so one that starts the cluster outside `if __name__ == "__main__":` fails ("Nanny failed to start").
    # It runs where the blocks before it ran, whose files (the captures) it reads.
    starting = [code for code in _blocks(REPO_ROOT / "README.md") if "LocalCluster" in code]
    assert starting, "the README's Dask example is gone"
    for i, code in enumerate(starting):
        script = tmp_path / f"readme_processes_{i}.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_package_env(), capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, f"README block run as a script failed:\n{code}\n---\n{done.stderr[-3000:]}"
        assert done.stdout.strip(), "the script printed nothing"

def test_package_readme_examples(tmp_path: Path) -> None:
    _run_blocks(Path(__file__).resolve().parents[1] / "README.md", tmp_path)
