"""A scan costs what it can use: a depth stream that inflates to 10 GB beside three camera-info lines opens in
well under 2 s (a decompression bomb, cut or garbled at its end), camera-info lines past what the metadata and the
streams' sizes allow are not read, and each cut-off is said in the warnings. Depth no sensor gives is counted by
the `plausible_depth` option.

The bombs are built here from zlib's own output: 1 MiB of zeros compressed and fully flushed (so the block
references nothing before it) and repeated, which is a valid DEFLATE stream that never ends."""

from __future__ import annotations

import json
import math
import os
import subprocess
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

import fathom

SCAN_ID = "scan"
W, H = 32, 24
K = fathom.Intrinsics(200, 200, 80, 60, 160, 120)
FRAME_BYTES = W * H * 2  # float16 depth
GIB = 1 << 30


def _write_scan(folder: Path, frames: int = 3, depth: np.ndarray | None = None) -> None:
    """A flat wall seen head on from a camera stepping 10 cm sideways per frame (so every frame is fused)."""
    d = np.full((H, W), 1.0, np.float16) if depth is None else depth
    with fathom.ScanWriter(str(folder), SCAN_ID, depth_size=(W, H), rgb_size=(K.width, K.height), confidence=True) as w:
        for i in range(frames):
            pose = np.eye(4)
            pose[0, 3] = 0.1 * i
            w.append(i * 16_666_667, K, pose, d if d.ndim == 2 else d[i], np.full((H, W), 2, np.uint8))


def _bomb(inflated: int, wrapped: bool) -> bytes:
    """DEFLATE data inflating to `inflated` bytes of zeros with no end marker (raw, or after a zlib header)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 15 if wrapped else -15)
    head = c.compress(b"\0" * (1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
    # The header, if any, sits before the first block only; every later MiB is the same fully flushed block.
    c2 = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c2.compress(b"\0" * (1 << 20)) + c2.flush(zlib.Z_FULL_FLUSH)
    return head + block * (inflated // (1 << 20) - 1)


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "zlib"])
@pytest.mark.parametrize("end", ["cut", "garbled"])
def test_a_10_gb_bomb_beside_three_camera_lines_opens_fast(tmp_path: Path, wrapped: bool, end: str) -> None:
    _write_scan(tmp_path)
    bomb = _bomb(10 * GIB, wrapped)
    assert len(bomb) < 12 << 20
    # Checked independently: the start of the bomb inflates to zeros.
    assert zlib.decompressobj(15 if wrapped else -15).decompress(bomb[: 1 << 16], 1 << 20) == b"\0" * (1 << 20)
    if end == "garbled":
        bomb += b"\xff" * 64  # a block of reserved type 3: invalid DEFLATE, after 10 GB
    (tmp_path / f"{SCAN_ID}.depth.zlib").write_bytes(bomb)
    start = time.perf_counter()
    scan = fathom.Scan(str(tmp_path))
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0, f"opening took {elapsed:.1f} s"
    assert len(scan) == 3
    assert any("holds more than the 3 frames the scan can use" in w for w in scan.warnings), scan.warnings
    assert any("frame counts disagree" in w and "more than 3" in w for w in scan.warnings), scan.warnings
    # The frames used read as the zeros they are.
    assert np.all(scan.depth(2) == 0)


def test_a_stream_that_holds_exactly_the_frames_used_has_no_warning(tmp_path: Path) -> None:
    _write_scan(tmp_path, frames=4)
    scan = fathom.Scan(str(tmp_path))
    assert len(scan) == 4 and scan.warnings == []


def test_camera_lines_past_the_metadata_count_are_not_read(tmp_path: Path) -> None:
    _write_scan(tmp_path)
    jsonl = tmp_path / f"{SCAN_ID}.jsonl"
    lines = jsonl.read_text().splitlines()
    # 100,000 further lines, the last of them not even JSON: never read.
    jsonl.write_text("\n".join(lines + [lines[-1]] * 100_000 + ["{not json"]) + "\n")
    scan = fathom.Scan(str(tmp_path))
    assert len(scan) == 3
    (warning,) = [w for w in scan.warnings if "holds more lines than the scan can use" in w]
    assert "3 frames" in warning and "number_of_frames" in warning and "lines from 4 on" in warning


def test_camera_lines_past_what_the_streams_can_inflate_to_are_not_read(tmp_path: Path) -> None:
    """Without frame counts in the metadata, the bound is what the streams' files can inflate to: DEFLATE
    expands at most 1032-fold."""
    _write_scan(tmp_path)
    metadata = tmp_path / f"{SCAN_ID}.json"
    doc = json.loads(metadata.read_text())
    for stream in doc["streams"]:
        stream.pop("number_of_frames", None)
    metadata.write_text(json.dumps(doc))
    depth_bytes = (tmp_path / f"{SCAN_ID}.depth.zlib").stat().st_size
    confidence_bytes = (tmp_path / f"{SCAN_ID}.confidence.zlib").stat().st_size
    most = min(depth_bytes * 1032 // FRAME_BYTES, confidence_bytes * 1032 // (W * H)) + 1
    jsonl = tmp_path / f"{SCAN_ID}.jsonl"
    lines = jsonl.read_text().splitlines()
    jsonl.write_text("\n".join(lines + [lines[-1]] * (most + 50) + ["{not json"]) + "\n")
    scan = fathom.Scan(str(tmp_path))
    assert len(scan) == 3
    (warning,) = [w for w in scan.warnings if "holds more lines than the scan can use" in w]
    assert f"({most} frames, what " in warning and f"lines from {most + 1} on" in warning


def test_plausible_depth_is_an_option(tmp_path: Path) -> None:
    """Depth of 30 m is plausible under the default bound (50 m) and not under a bound of 20 m: then it is
    counted per frame, and never fused (even with max_depth unbounded)."""
    depth = np.full((3, H, W), 1.0, np.float16)
    depth[1, :4, :5] = 30.0
    _write_scan(tmp_path, depth=depth)
    scan = fathom.Scan(str(tmp_path))
    default = fathom.scan_report(scan, max_depth=math.inf)
    assert not [w for w in default.warnings if "no sensor gives" in w]
    strict = fathom.scan_report(scan, max_depth=math.inf, plausible_depth=20.0)
    (warning,) = [w for w in strict.warnings if "no sensor gives" in w]
    assert "beyond 20 m" in warning and "frame 1: 20" in warning, warning
    assert np.all(np.linalg.norm(strict.cloud, axis=1) < 20)
    assert np.any(np.linalg.norm(default.cloud, axis=1) > 20)
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises((ValueError, fathom.FathomError)):
            fathom.scan_report(scan, plausible_depth=bad)


def test_plausible_depth_from_the_cli(tmp_path: Path) -> None:
    """`fathom report --plausible-depth M` gives the report Python gives with the same option; a bad value is
    refused before the scan is read."""
    depth = np.full((3, H, W), 1.0, np.float16)
    depth[1, :4, :5] = 30.0
    _write_scan(tmp_path / "scan", depth=depth)
    cli = Path(os.environ.get("FATHOM_LIBRARY", str(Path(__file__).parents[3] / ".build/release/libfathom.so"))).parent / "fathom-cli"
    done = subprocess.run([str(cli), "report", str(tmp_path / "scan"), "--plausible-depth", "20", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    expected = fathom.scan_report(str(tmp_path / "scan"), plausible_depth=20.0).to_dict()
    assert json.loads(done.stdout) == expected
    assert any("beyond 20 m" in w for w in expected["warnings"])
    for bad in ("0", "nan", "deep"):
        done = subprocess.run([str(cli), "report", str(tmp_path / "scan"), "--plausible-depth", bad],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "plausible" in done.stderr, (bad, done.stderr)
