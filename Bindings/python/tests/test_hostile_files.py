"""Hostile files and paths (issue 27): no loader or writer blocks on a FIFO, writes are atomic, paths that are
not UTF-8 are refused instead of naming another file, and a scan's point cloud is finite.

Every call that could block or that needs a process-wide limit runs in a forked child (``_isolated``): the
child arms ``alarm`` as a backstop and the parent kills it after LIMIT seconds, so a regression (open(2) of a
FIFO waiting for a writer or a reader forever) fails the test in seconds instead of hanging the suite. Without
the fix each FIFO case blocks: the old loaders opened with fopen "rb" (waits for a writer), the old writers
with fopen "wb" (waits for a reader), and nothing ever opens the other end here.

Writes that fail midway are made with RLIMIT_FSIZE in the child (SIGXFSZ ignored, so write(2) fails with EFBIG
after a partial write): the error must be raised, the old file must be intact (the old writers truncated it
at open) and no temporary file (a name starting with '.') may remain.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import resource
import select
import shutil
import signal
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np
import pytest

import fathom

LIMIT = 5.0  # seconds a single call may take before it counts as blocked

SCAN_ID = "scan"
W, H = 32, 24  # depth grid of the small scans written here
K = fathom.Intrinsics(200, 200, 80, 60, 160, 120)  # RGB intrinsics (160 x 120 image), 5x the depth grid


# ------------------------------------------------------------------------------------------------
# Running a call in a child with a time limit
# ------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str                   # "returned", "raised", "blocked" or "died"
    value: Any = None           # what the call returned ("returned")
    error: str = ""             # the exception's class name ("raised")
    message: str = ""           # FathomError.message, else str(exception)
    detail: str = ""            # how the child died ("died")
    elapsed: float = 0.0

    def describe(self) -> str:
        if self.kind == "raised":
            return f"raised {self.error}: {self.message}"
        if self.kind == "returned":
            return f"returned {self.value!r}"
        if self.kind == "blocked":
            return f"blocked: no result after {LIMIT:g} s (killed)"
        return f"died: {self.detail}"


def _isolated(fn: Callable[[], Any], fsize_limit: Optional[int] = None, umask: Optional[int] = None) -> Outcome:
    """Runs ``fn()`` in a forked child and returns what happened. The child may set RLIMIT_FSIZE (with SIGXFSZ
    ignored, so a write past the limit fails with EFBIG) or a umask without touching this process."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(r)
            signal.alarm(int(LIMIT) + 2)  # backstop: the parent kills first
            if umask is not None:
                os.umask(umask)
            if fsize_limit is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize_limit, resource.RLIM_INFINITY))
            try:
                value = fn()
                result: tuple = ("returned", value)
                try:
                    data = pickle.dumps(result)
                except Exception:
                    data = pickle.dumps(("returned", repr(value)))
            except BaseException as e:  # noqa: BLE001 - everything is reported to the parent
                data = pickle.dumps(("raised", type(e).__name__, str(getattr(e, "message", None) or e)))
            if fsize_limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            view = memoryview(data)
            while view:
                view = view[os.write(w, view):]
        finally:
            os._exit(0)
    os.close(w)
    start = time.monotonic()
    chunks: list[bytes] = []
    status = None
    try:
        while True:
            ready, _, _ = select.select([r], [], [], 0.02)
            if ready:
                chunk = os.read(r, 1 << 16)
                if chunk:
                    chunks.append(chunk)
                    continue
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
                while True:  # what is left in the pipe
                    chunk = os.read(r, 1 << 16)
                    if not chunk:
                        break
                    chunks.append(chunk)
                break
            if time.monotonic() - start > LIMIT:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return Outcome("blocked", elapsed=time.monotonic() - start)
    finally:
        os.close(r)
    elapsed = time.monotonic() - start
    if not chunks:
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
        return Outcome("died", detail=how, elapsed=elapsed)
    result = pickle.loads(b"".join(chunks))
    if result[0] == "returned":
        return Outcome("returned", value=result[1], elapsed=elapsed)
    return Outcome("raised", error=result[1], message=result[2], elapsed=elapsed)


def _assert_raises(outcome: Outcome, error: type, *words: str) -> None:
    assert outcome.kind == "raised" and outcome.error == error.__name__, \
        f"expected {error.__name__} mentioning {words}, got: {outcome.describe()}"
    for word in words:
        assert word in outcome.message, f"{word!r} not in the message: {outcome.message!r}"


def _assert_not_regular(outcome: Outcome, path: Any, writer: bool = False) -> None:
    """Refused promptly with FathomIOError naming the path: "... is not a regular file" (writers: "...: not
    replaced")."""
    words = ["is not a regular file: not replaced" if writer else "is not a regular file", os.fsdecode(path)]
    _assert_raises(outcome, fathom.FathomIOError, *words)


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _replace_by_fifo(path: Path) -> Path:
    os.unlink(path)
    os.mkfifo(path)
    return path


def _is_fifo(path: Any) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


def _listing(folder: Any) -> list:
    """The names in ``folder`` and its subfolders (relative, as given: str or bytes)."""
    folder = os.fspath(folder)
    out = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            out.append(os.path.relpath(os.path.join(root, name), folder))
    return sorted(out)


def _snapshot(folder: Any) -> dict:
    """name -> sha1 of every regular file under ``folder`` (FIFOs as "fifo")."""
    out = {}
    for name in _listing(folder):
        path = os.path.join(os.fspath(folder), name)
        if _is_fifo(path):
            out[name] = "fifo"
        elif os.path.isfile(path):
            with open(path, "rb") as f:
                out[name] = hashlib.sha1(f.read()).hexdigest()
    return out


def _temporaries(folder: Any) -> list:
    return [name for name in _listing(folder) if os.path.basename(os.fsdecode(name)).startswith(".")]


# ------------------------------------------------------------------------------------------------
# Small inputs
# ------------------------------------------------------------------------------------------------

_POINTS = np.random.default_rng(27).random((1000, 3), dtype=np.float32) * 2 - 1


def _write_scan(directory: Any, frames: int = 3, confidence: bool = True, value: float = 1.0,
                depth_format: str = "float16", depth: Optional[np.ndarray] = None,
                intrinsics: fathom.Intrinsics = K) -> None:
    """A small scanner-app scan: a flat wall at `value` meters seen head on, or `depth`: one (H, W) map for every
    frame or (frames, H, W), one each."""
    dtype = {"float16": np.float16, "float32": np.float32}[depth_format]
    d = np.full((H, W), value, dtype) if depth is None else depth.astype(dtype)
    with fathom.ScanWriter(directory, SCAN_ID, depth_size=(W, H), rgb_size=(intrinsics.width, intrinsics.height),
                           confidence=confidence, depth_format=depth_format) as writer:
        for i in range(frames):
            writer.append(i * 16_666_667, intrinsics, np.eye(4), d if d.ndim == 2 else d[i],
                          np.full((H, W), 2, np.uint8) if confidence else None)


def _mesh() -> fathom.Mesh:
    return fathom.Mesh(_POINTS, np.arange(999, dtype=np.uint32).reshape(-1, 3))


def _cloud(folder: Path) -> fathom.PointCloud:
    source = folder / "source-cloud.ply.src"
    fathom.write_ply(source, _POINTS)
    cloud = fathom.read_ply(source)
    os.unlink(source)
    return cloud


@pytest.fixture(scope="module")
def source_scan(tmp_path_factory) -> str:
    folder = str(tmp_path_factory.mktemp("source-scan"))
    _write_scan(folder, confidence=True)
    return folder


@pytest.fixture(scope="module")
def report(source_scan) -> fathom.ScanReport:
    return fathom.scan_report(source_scan)


# ------------------------------------------------------------------------------------------------
# 1. No loader blocks on a FIFO
# ------------------------------------------------------------------------------------------------

LOADERS = {
    "Mesh.load obj": ("mesh.obj", fathom.Mesh.load),
    "Mesh.load ply": ("mesh.ply", fathom.Mesh.load),
    "read_ply": ("cloud.ply", fathom.read_ply),
    "PointCloud.load": ("cloud.ply", fathom.PointCloud.load),
    "Box.load": ("boundingbox.json", fathom.Box.load),
    "read_transforms": ("transforms.json", fathom.read_transforms),
    "Scan.open transforms.json": ("transforms.json", fathom.Scan.open),
}


@pytest.mark.parametrize("name", list(LOADERS))
def test_loaders_refuse_a_fifo_without_blocking(tmp_path: Path, name: str) -> None:
    file_name, load = LOADERS[name]
    fifo = _fifo(tmp_path / file_name)
    _assert_not_regular(_isolated(lambda: load(fifo)), fifo)
    assert _is_fifo(fifo)


@pytest.mark.parametrize("opened_by", ["folder", "metadata"])
@pytest.mark.parametrize("suffix", [".depth.zlib", ".confidence.zlib", ".jsonl", ".json"])
def test_scanner_scan_with_a_fifo_file_is_refused(tmp_path: Path, suffix: str, opened_by: str) -> None:
    """Each of the scanner app's files (metadata, both streams, camera info) as a FIFO."""
    _write_scan(tmp_path)
    fifo = _replace_by_fifo(tmp_path / (SCAN_ID + suffix))
    target = tmp_path if opened_by == "folder" else tmp_path / (SCAN_ID + ".json")
    _assert_not_regular(_isolated(lambda: fathom.Scan.open(target)), fifo)


def test_nerfstudio_folder_whose_transforms_is_a_fifo_is_refused(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / "transforms.json")
    _assert_not_regular(_isolated(lambda: fathom.Scan.open(tmp_path)), fifo)


@pytest.mark.parametrize("name", ["odometry.csv", "camera_matrix.csv"])
def test_stray_folder_whose_csv_is_a_fifo_is_refused(tmp_path: Path, source_scan: str, name: str) -> None:
    folder = tmp_path / "stray"
    with fathom.Scan.open(source_scan) as scan:
        scan.write(folder, "stray")
    fifo = _replace_by_fifo(folder / name)
    _assert_not_regular(_isolated(lambda: fathom.Scan.open(folder)), fifo)


@pytest.mark.parametrize("name", ["depth/000001.png", "confidence/000001.png"])
def test_stray_png_that_is_a_fifo_is_skipped_at_open_and_refused_when_read(tmp_path: Path, source_scan: str,
                                                                           name: str) -> None:
    """At open a FIFO frame PNG is a frame skipped with a warning naming it (as the header says of PNGs that are
    missing or cut); a PNG that becomes a FIFO after the scan was opened is refused when its frame is read."""
    folder = tmp_path / "stray"
    with fathom.Scan.open(source_scan) as scan:
        scan.write(folder, "stray")
    fifo = _replace_by_fifo(folder / name)

    def open_it() -> tuple:
        with fathom.Scan.open(folder) as scan:
            return len(scan), scan.warnings

    outcome = _isolated(open_it)
    assert outcome.kind == "returned", outcome.describe()
    count, warnings = outcome.value
    assert count == 2
    assert any(str(fifo) in w and "not a regular file" in w for w in warnings), warnings

    os.unlink(fifo)
    shutil.copy(folder / name.replace("000001", "000000"), fifo)
    with fathom.Scan.open(folder) as scan:
        assert len(scan) == 3
        _replace_by_fifo(fifo)
        read = scan.depth if name.startswith("depth") else scan.confidence
        _assert_not_regular(_isolated(lambda: read(1)), fifo)
        _assert_not_regular(_isolated(lambda: scan.point_cloud()), fifo)


def test_scan_point_cloud_read_error_is_not_blamed_on_the_options(tmp_path: Path, source_scan: str) -> None:
    """A frame that cannot be read is a file's problem: the message names the file, not "options.'<path>'"."""
    folder = tmp_path / "stray"
    with fathom.Scan.open(source_scan) as scan:
        scan.write(folder, "stray")
    with fathom.Scan.open(folder) as scan:
        fifo = _replace_by_fifo(folder / "depth" / "000001.png")
        outcome = _isolated(lambda: scan.point_cloud())
    _assert_not_regular(outcome, fifo)
    assert "options." not in outcome.message, outcome.message


def test_boundingbox_json_fifo_beside_a_scan_is_refused(tmp_path: Path) -> None:
    _write_scan(tmp_path)
    fifo = _fifo(tmp_path / "boundingbox.json")
    _assert_not_regular(_isolated(lambda: fathom.scan_report(tmp_path)), fifo)


def test_scan_report_load_refuses_a_fifo_report_json(tmp_path: Path, report: fathom.ScanReport) -> None:
    """ScanReport.load reads report.json itself: a FIFO there must not hang it either."""
    report.save(tmp_path)
    fifo = _replace_by_fifo(tmp_path / "report.json")
    outcome = _isolated(lambda: fathom.ScanReport.load(tmp_path))
    assert outcome.kind == "raised" and outcome.error in ("FathomIOError", "OSError"), outcome.describe()
    assert "not a regular file" in outcome.message and str(fifo) in outcome.message, outcome.message


# ------------------------------------------------------------------------------------------------
# 1. No writer blocks on a FIFO target, and none replaces it
# ------------------------------------------------------------------------------------------------

# name: (file name, make) where make(folder) prepares the inputs (in this process) and returns write(path).
WRITERS: dict[str, tuple[str, Callable[[Path], Callable[[Any], Any]]]] = {
    "write_ply": ("points.ply", lambda tmp: lambda p: fathom.write_ply(p, _POINTS)),
    "write_ply ascii": ("points.ply", lambda tmp: lambda p: fathom.write_ply(p, _POINTS, binary=False)),
    "PointCloud.save_ply": ("cloud.ply", lambda tmp: _cloud(tmp).save_ply),
    "Mesh.save ply": ("mesh.ply", lambda tmp: _mesh().save),
    "Mesh.save obj": ("mesh.obj", lambda tmp: _mesh().save),
    "write_transforms": ("transforms.json", lambda tmp: lambda p: fathom.write_transforms(
        p, [np.eye(4)] * 50, K, [f"f{i}.png" for i in range(50)])),
    "Box.save": ("boundingbox.json", lambda tmp: fathom.Box((0.1, 0.5, -2), (0.4, 1.0, 0.3), 0.3).save),
}


@pytest.mark.parametrize("name", list(WRITERS))
def test_writers_refuse_a_fifo_target_without_blocking(tmp_path: Path, name: str) -> None:
    file_name, make = WRITERS[name]
    write = make(tmp_path)
    fifo = _fifo(tmp_path / file_name)
    _assert_not_regular(_isolated(lambda: write(fifo)), fifo, writer=True)
    assert _is_fifo(fifo) and _listing(tmp_path) == [file_name]


@pytest.mark.parametrize("suffix", [".depth.zlib", ".confidence.zlib", ".jsonl"])
def test_scan_writer_with_a_fifo_stream_is_refused_at_create(tmp_path: Path, suffix: str) -> None:
    fifo = _fifo(tmp_path / (SCAN_ID + suffix))
    outcome = _isolated(lambda: fathom.ScanWriter(tmp_path, SCAN_ID, depth_size=(W, H), rgb_size=(160, 120)).close())
    _assert_not_regular(outcome, fifo, writer=True)
    assert _is_fifo(fifo) and _listing(tmp_path) == [fifo.name]  # no other stream, no temporary


def test_scan_writer_with_a_fifo_metadata_is_refused_at_finish(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / (SCAN_ID + ".json"))
    _assert_not_regular(_isolated(lambda: _write_scan(tmp_path)), fifo, writer=True)
    assert _is_fifo(fifo) and not _temporaries(tmp_path)


def test_scan_writer_failing_at_its_metadata_leaves_no_streams(tmp_path: Path) -> None:
    """The scan's files are one set: streams without their metadata are not a scan, so a writer whose metadata
    cannot be written leaves none of them."""
    fifo = _fifo(tmp_path / (SCAN_ID + ".json"))
    _isolated(lambda: _write_scan(tmp_path))
    assert _listing(tmp_path) == [fifo.name]


@pytest.mark.parametrize("fmt, name", [("scanner", SCAN_ID + ".depth.zlib"), ("scanner", SCAN_ID + ".jsonl"),
                                       ("scanner", SCAN_ID + ".json"), ("stray", "odometry.csv"),
                                       ("stray", "camera_matrix.csv"), ("stray", "depth/000001.png"),
                                       ("stray", "confidence/000000.png")])
def test_scan_write_to_a_fifo_is_refused(tmp_path: Path, source_scan: str, fmt: str, name: str) -> None:
    fifo = _fifo(tmp_path / "copy" / name)

    def write() -> Any:
        with fathom.Scan.open(source_scan) as scan:
            return scan.write(tmp_path / "copy", fmt)

    _assert_not_regular(_isolated(write), fifo, writer=True)
    assert _is_fifo(fifo) and not _temporaries(tmp_path)


@pytest.mark.parametrize("name", ["report.json", "cloud.ply", "report.html", "top-view.svg", "speed.svg"])
def test_report_save_into_a_fifo_is_refused(tmp_path: Path, report: fathom.ScanReport, name: str) -> None:
    fifo = _fifo(tmp_path / name)
    _assert_not_regular(_isolated(lambda: report.save(tmp_path)), fifo, writer=True)
    assert _is_fifo(fifo) and not _temporaries(tmp_path)
    if name == "report.json":  # the first file: nothing else was written
        assert _listing(tmp_path) == [name]


def test_report_save_failing_midway_leaves_no_partial_report(tmp_path: Path, report: fathom.ScanReport) -> None:
    """The report's files are one set (issue 27, item 9): when cloud.ply cannot be written, report.json is not
    left behind on its own."""
    fifo = _fifo(tmp_path / "cloud.ply")
    _assert_not_regular(_isolated(lambda: report.save(tmp_path)), fifo, writer=True)
    assert _listing(tmp_path) == ["cloud.ply"]


# ------------------------------------------------------------------------------------------------
# 2. Writes are atomic
# ------------------------------------------------------------------------------------------------

OLD = b"old content, which a failed write must leave as it was\n"


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_write_failing_midway_leaves_the_old_file(tmp_path: Path, name: str) -> None:
    """write(2) fails with EFBIG after 64 bytes (RLIMIT_FSIZE): the error is raised, the old file is intact and
    no temporary file remains."""
    file_name, make = WRITERS[name]
    write = make(tmp_path)
    target = tmp_path / file_name
    target.write_bytes(OLD)
    outcome = _isolated(lambda: write(target), fsize_limit=64)
    _assert_raises(outcome, fathom.FathomIOError, str(target))
    assert target.read_bytes() == OLD
    assert _listing(tmp_path) == [file_name]


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_write_failing_midway_leaves_no_file(tmp_path: Path, name: str) -> None:
    file_name, make = WRITERS[name]
    write = make(tmp_path)
    outcome = _isolated(lambda: write(tmp_path / file_name), fsize_limit=64)
    _assert_raises(outcome, fathom.FathomIOError, str(tmp_path / file_name))
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_successful_write_replaces_the_file_readable_by_all(tmp_path: Path, name: str) -> None:
    file_name, make = WRITERS[name]
    write = make(tmp_path)
    target = tmp_path / file_name
    target.write_bytes(OLD)
    outcome = _isolated(lambda: write(target), umask=0o022)
    assert outcome.kind == "returned", outcome.describe()
    assert target.read_bytes() != OLD and len(target.read_bytes()) > 64
    assert _listing(tmp_path) == [file_name]
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    fresh = tmp_path / "fresh" / file_name
    fresh.parent.mkdir()
    assert _isolated(lambda: write(fresh), umask=0o022).kind == "returned"
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o644 and _listing(fresh.parent) == [file_name]
    assert fresh.read_bytes() == target.read_bytes()


def test_written_files_read_back(tmp_path: Path) -> None:
    """What the atomic writers leave is the whole file: read back by the loaders (and numpy for the points)."""
    fathom.write_ply(tmp_path / "p.ply", _POINTS)
    np.testing.assert_array_equal(fathom.read_ply(tmp_path / "p.ply").points, _POINTS)
    _mesh().save(tmp_path / "m.obj")
    with fathom.Mesh.load(tmp_path / "m.obj") as mesh:
        assert mesh.triangle_count == 333
    box = fathom.Box((0.1, 0.5, -2), (0.4, 1.0, 0.3), 0.3)
    box.save(tmp_path / "b.json")
    np.testing.assert_allclose(fathom.Box.load(tmp_path / "b.json").scale, box.scale, rtol=1e-6)
    assert _temporaries(tmp_path) == []


def test_scan_writer_dropped_by_an_exception_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="stop"):
        with fathom.ScanWriter(tmp_path, SCAN_ID, depth_size=(W, H), rgb_size=(160, 120)) as writer:
            writer.append(0, K, np.eye(4), np.ones((H, W), np.float16), np.full((H, W), 2, np.uint8))
            raise RuntimeError("stop")
    assert _listing(tmp_path) == []


def test_scan_writer_dropped_unclosed_leaves_nothing(tmp_path: Path) -> None:
    def drop() -> list:
        writer = fathom.ScanWriter(tmp_path, SCAN_ID, depth_size=(W, H), rgb_size=(160, 120))
        writer.append(0, K, np.eye(4), np.ones((H, W), np.float16), np.full((H, W), 2, np.uint8))
        del writer
        import gc

        gc.collect()
        return _listing(tmp_path)

    outcome = _isolated(drop)
    assert outcome.kind == "returned" and outcome.value == [], outcome.describe()


def test_scan_writer_dropped_over_an_old_scan_leaves_it_intact(tmp_path: Path) -> None:
    _write_scan(tmp_path, frames=2)
    before = _snapshot(tmp_path)
    assert sorted(before) == sorted(SCAN_ID + s for s in (".json", ".jsonl", ".depth.zlib", ".confidence.zlib"))
    with pytest.raises(RuntimeError, match="stop"):
        with fathom.ScanWriter(tmp_path, SCAN_ID, depth_size=(W, H), rgb_size=(160, 120)) as writer:
            writer.append(0, K, np.eye(4), np.full((H, W), 3, np.float16), np.full((H, W), 1, np.uint8))
            raise RuntimeError("stop")
    assert _snapshot(tmp_path) == before


def test_scan_writer_failing_midway_leaves_the_old_scan(tmp_path: Path) -> None:
    """Noise as float32 depth, new in every frame (DEFLATE cannot refer back to an earlier frame): the depth
    stream passes 4 KiB during the appends and write(2) fails."""
    _write_scan(tmp_path, frames=2)
    before = _snapshot(tmp_path)
    noise = np.random.default_rng(5).random((10, H, W), dtype=np.float32) + 0.5
    outcome = _isolated(lambda: _write_scan(tmp_path, frames=10, depth_format="float32", depth=noise),
                        fsize_limit=4096)
    _assert_raises(outcome, fathom.FathomIOError, SCAN_ID + ".depth.zlib")
    assert _snapshot(tmp_path) == before


def test_scan_writer_failing_at_its_metadata_leaves_the_old_scan(tmp_path: Path) -> None:
    """The streams of 1 frame at 2 m compress below 500 bytes, the metadata does not: the old scan (3 frames at
    1 m) must stay whole, not become new streams read through the old metadata."""
    _write_scan(tmp_path, frames=3, confidence=False)
    before = _snapshot(tmp_path)
    outcome = _isolated(lambda: _write_scan(tmp_path, frames=1, confidence=False, value=2.0), fsize_limit=500)
    _assert_raises(outcome, fathom.FathomIOError, SCAN_ID + ".json'")
    assert _snapshot(tmp_path) == before


def test_report_save_failing_midway_leaves_the_old_report(tmp_path: Path, report: fathom.ScanReport) -> None:
    """A report over an older one (of another scan, 5 frames: another report.json): a failure midway (cloud.ply
    past 3000 bytes) leaves the old set, not the new report.json beside the old clouds."""
    other = tmp_path / "other"
    _write_scan(other, frames=5, value=1.5)
    fathom.scan_report(str(other)).save(tmp_path / "out")
    before = _snapshot(tmp_path / "out")
    assert json.loads((tmp_path / "out" / "report.json").read_text())["frames"] == 5 != report.frames
    outcome = _isolated(lambda: report.save(tmp_path / "out"), fsize_limit=3000)
    _assert_raises(outcome, fathom.FathomIOError, "cloud.ply")
    assert _snapshot(tmp_path / "out") == before


# ------------------------------------------------------------------------------------------------
# 3. Paths that are not UTF-8
# ------------------------------------------------------------------------------------------------

BAD = b"\xff"                        # never valid in UTF-8
REPLACED = "\ufffd".encode()          # what String(cString:) made of it: b"\xef\xbf\xbd"


def _as(form: str, path: bytes) -> Any:
    """The same path as bytes, or as the str Python makes of it (os.fsdecode: surrogate escapes)."""
    return path if form == "bytes" else os.fsdecode(path)


FILE_WRITERS = {name: WRITERS[name] for name in ("write_ply", "PointCloud.save_ply", "Mesh.save ply", "Mesh.save obj",
                                                 "write_transforms", "Box.save")}


@pytest.mark.parametrize("form", ["bytes", "str"])
@pytest.mark.parametrize("where", ["folder", "name"])
@pytest.mark.parametrize("name", list(FILE_WRITERS))
def test_writers_refuse_a_path_that_is_not_utf8(tmp_path: Path, name: str, where: str, form: str) -> None:
    """Refused with OutOfRangeError "not UTF-8"; nothing is written, in particular not at the path with U+FFFD
    in place of the byte (both folders exist, so a write there would succeed)."""
    file_name, make = FILE_WRITERS[name]
    write = make(tmp_path)
    root = os.fsencode(tmp_path)
    os.mkdir(root + b"/d" + BAD)
    os.mkdir(root + b"/d" + REPLACED)
    stem, dot, ext = file_name.partition(".")
    target = root + (b"/d" + BAD + b"/" + file_name.encode() if where == "folder"
                     else b"/" + stem.encode() + BAD + dot.encode() + ext.encode())
    before = _listing(root)
    outcome = _isolated(lambda: write(_as(form, target)))
    _assert_raises(outcome, fathom.OutOfRangeError, "not UTF-8")
    assert _listing(root) == before == sorted([b"d" + BAD, b"d" + REPLACED])


DIRECTORY_WRITERS: dict[str, Callable[[Any, str, fathom.ScanReport], Any]] = {
    "ScanWriter directory": lambda d, src, rep: fathom.ScanWriter(d, SCAN_ID, depth_size=(W, H), rgb_size=(160, 120)).close(),
    "ScanWriter scan_id": lambda d, src, rep: fathom.ScanWriter(os.path.dirname(d), os.fsdecode(b"i" + BAD),
                                                                 depth_size=(W, H), rgb_size=(160, 120)).close(),
    "Scan.write scanner": lambda d, src, rep: fathom.Scan.open(src).write(d, "scanner"),
    "Scan.write stray": lambda d, src, rep: fathom.Scan.open(src).write(d, "stray"),
    "ScanReport.save": lambda d, src, rep: rep.save(d),
}


@pytest.mark.parametrize("exists", [False, True])
@pytest.mark.parametrize("form", ["bytes", "str"])
@pytest.mark.parametrize("name", list(DIRECTORY_WRITERS))
def test_directory_writers_refuse_a_path_that_is_not_utf8(tmp_path: Path, source_scan: str, report: fathom.ScanReport,
                                                          name: str, form: str, exists: bool) -> None:
    root = os.fsencode(tmp_path)
    if exists:
        os.mkdir(root + b"/s" + BAD)
        os.mkdir(root + b"/s" + REPLACED)
    before = _listing(root)
    target = _as(form, root + b"/s" + BAD)
    outcome = _isolated(lambda: DIRECTORY_WRITERS[name](target, source_scan, report))
    _assert_raises(outcome, fathom.OutOfRangeError, "not UTF-8")
    assert _listing(root) == before


def _readable(kind: str, path: Path, source_scan: str) -> None:
    """Makes a valid file (or scan folder) of `kind` at `path`."""
    if kind == "mesh":
        path.write_bytes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    elif kind == "ply":
        fathom.write_ply(path, _POINTS)
    elif kind == "box":
        fathom.Box().save(path)
    elif kind == "transforms":
        fathom.write_transforms(path, [np.eye(4)], K)
    elif kind == "scan":
        shutil.copytree(source_scan, path)


READERS = {
    "Mesh.load": ("mesh", b"m" + BAD + b".obj", fathom.Mesh.load),
    "read_ply": ("ply", b"c" + BAD + b".ply", fathom.read_ply),
    "Box.load": ("box", b"b" + BAD + b".json", fathom.Box.load),
    "read_transforms": ("transforms", b"t" + BAD + b".json", fathom.read_transforms),
    "Scan.open": ("scan", b"s" + BAD, fathom.Scan.open),
}


@pytest.mark.parametrize("form", ["bytes", "str"])
@pytest.mark.parametrize("name", list(READERS))
def test_readers_refuse_a_path_that_is_not_utf8(tmp_path: Path, source_scan: str, name: str, form: str) -> None:
    """The file exists under exactly that name: the refusal says why ("not UTF-8"), not "No such file"."""
    kind, file_name, load = READERS[name]
    _readable(kind, tmp_path / "made", source_scan)
    os.rename(os.fsencode(tmp_path / "made"), os.fsencode(tmp_path) + b"/" + file_name)
    outcome = _isolated(lambda: load(_as(form, os.fsencode(tmp_path) + b"/" + file_name)))
    _assert_raises(outcome, fathom.OutOfRangeError, "not UTF-8")
    assert "No such file" not in outcome.message


# ------------------------------------------------------------------------------------------------
# 4. A scan's point cloud is finite
# ------------------------------------------------------------------------------------------------


def _expected_points(depth: np.ndarray, k: fathom.Intrinsics) -> np.ndarray:
    """The header's back-projection in float64 (identity pose: world = camera = (X, -Y, -Z) of the optical
    frame), every sample with 0 < d < inf, row by row: optical X = (i + 0.5 - cx') / fx' * d, with the intrinsics
    scaled to the depth grid (fx' = fx * W / rgb width)."""
    sx, sy = W / k.width, H / k.height
    fx, fy, cx, cy = k.fx * sx, k.fy * sy, k.cx * sx, k.cy * sy
    j, i = np.mgrid[0:H, 0:W]
    d = depth.astype(np.float64)
    keep = (d > 0) & np.isfinite(d)
    x = (i + 0.5 - cx) / fx * d
    y = (j + 0.5 - cy) / fy * d
    return np.stack([x[keep], -y[keep], -d[keep]], axis=1)


def test_scan_point_cloud_drops_samples_whose_point_is_not_finite(tmp_path: Path) -> None:
    """3e38 m (a finite float32) through a lens of focal length 1e-3 px lands beyond the float range in x and
    y: those samples are invalid; the others (1 m, up to 8e4 m sideways) are kept, row by row, and the cloud
    can be saved with the library's own writer."""
    k = fathom.Intrinsics(1e-3, 1e-3, 80, 60, 160, 120)
    depth = np.full((H, W), 1.0, np.float32)
    huge = [(2, 3), (20, 30), (0, 0), (23, 31)]  # (row, column), all away from the principal point (12, 16)
    for r, c in huge:
        depth[r, c] = 3e38
    _write_scan(tmp_path / "scan", frames=2, confidence=False, depth_format="float32", depth=depth, intrinsics=k)

    expected = _expected_points(depth, k)
    with np.errstate(over="ignore"):
        finite = np.isfinite(expected.astype(np.float32)).all(axis=1)
    assert finite.sum() == W * H - len(huge)  # the independent computation agrees on which samples overflow
    expected = np.concatenate([expected[finite]] * 2)

    with fathom.Scan.open(tmp_path / "scan") as scan:
        np.testing.assert_array_equal(scan.depth(1), depth)  # stored as written
        points = scan.point_cloud()
        voxels = scan.point_cloud(voxel=0.01)
    assert points.dtype == np.float32 and np.isfinite(points).all()
    assert points.shape == expected.shape
    np.testing.assert_allclose(points, expected, rtol=1e-5, atol=1e-6)
    assert np.isfinite(voxels).all()

    fathom.write_ply(tmp_path / "cloud.ply", points)
    np.testing.assert_array_equal(fathom.read_ply(tmp_path / "cloud.ply").points, points)
