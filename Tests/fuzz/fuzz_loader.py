"""libFuzzer target (through atheris) of the Python package's loader: the CPU marker a wheel ships beside its
library (`_cpu.txt`) and /proc/cpuinfo, which `fathom._lib` reads before it loads the library.

Input: the marker's bytes, then `\\n=CPUINFO=\\n`, then the cpuinfo's bytes (without the separator, all of it is the
marker and the cpuinfo is empty). Each input is written as the two files beside a library file that is no ELF, and
the loader's check runs on them (`_check_cpu`, with its cpuinfo path pointed at the second file). Promises checked:
- nothing but LibraryNotFoundError leaves the check (no decoding error, no other exception);
- it raises exactly when some flag the marker lists is missing from some CPU's `flags` line, and its message names
  each such flag once, in the marker's order; a cpuinfo with no `flags` line, or a marker with no flag, blocks
  nothing.
The expectation is computed here with regular expressions over the same texts, not with the loader's code.

  python3 fuzz_loader.py [libFuzzer flags] DIR...      fuzz (needs atheris, `make -C Tests/fuzz python-deps`)
  python3 fuzz_loader.py --replay DIR...               each file of the DIRs once, without atheris (`make test`)
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Bindings" / "python"))
from fathom import _lib  # noqa: E402  (the package does not load its library on import)

SEPARATOR = b"\n=CPUINFO=\n"
_WORK = Path(tempfile.mkdtemp(prefix="fathom-fuzz-loader-"))
_LIBRARY = _WORK / "libfathom.so"
_CPUINFO = _WORK / "cpuinfo"
_LIBRARY.write_bytes(b"not an ELF file")


def expected_missing(marker: bytes, cpuinfo: bytes) -> list[str] | None:
    """The flags the check must name, in the marker's order, once each; None where it must not raise."""
    marker_text = marker.decode("utf-8", errors="replace")
    required: list[str] = []
    for line in marker_text.split("\n"):
        if re.match(r"\s*#", line):
            continue
        for word in re.findall(r"\S+", line):
            if word not in required:
                required.append(word)
    cpus = [
        set(re.findall(r"\S+", line.split(":", 1)[1] if ":" in line else ""))
        for line in cpuinfo.decode("utf-8", errors="replace").split("\n")
        if re.fullmatch(r"\s*flags\s*", line.split(":", 1)[0])
    ]
    missing = [flag for flag in required if any(flag not in cpu for cpu in cpus)]
    return missing if cpus and missing else None


def one_input(data: bytes) -> None:
    marker, _, cpuinfo = data.partition(SEPARATOR)
    (_WORK / "_cpu.txt").write_bytes(marker)
    _CPUINFO.write_bytes(cpuinfo)
    expected = expected_missing(marker, cpuinfo)
    try:
        _lib._check_cpu(_LIBRARY)
    except _lib.LibraryNotFoundError as error:
        if expected is None:
            raise AssertionError(f"broken promise: the CPU check refused a library it should load: {error}")
        if f"lacks {', '.join(expected)} (flags missing" not in str(error):
            raise AssertionError(f"broken promise: the CPU check should name {expected}, said: {error}")
        return
    if expected is not None:
        raise AssertionError(f"broken promise: the CPU check let through a library whose CPU lacks {expected}")


def main() -> None:
    _lib._CPUINFO = _CPUINFO
    if sys.argv[1:2] == ["--replay"]:
        files = [f for d in sys.argv[2:] for f in sorted(Path(d).iterdir()) if f.is_file()]
        for f in files:
            try:
                one_input(f.read_bytes())
            except Exception:
                print(f"fuzz_loader: {f} failed", file=sys.stderr)
                raise
        print(f"fuzz_loader: {len(files)} inputs replayed")
        return
    import atheris

    atheris.instrument_func(_lib.cpu_marker_flags)
    atheris.instrument_func(_lib.check_cpu_flags)
    atheris.instrument_func(_lib._check_cpu)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
