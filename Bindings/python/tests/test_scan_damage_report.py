"""A damaged capture still gets its report, and the report says what was wrong: a frame whose timestamp goes back
is skipped (named by its index), depth values no sensor gives are left out and counted per frame, and settings
that would spoil the fused sums are refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import fathom

K = fathom.Intrinsics(fx=200, fy=200, cx=64, cy=48, width=128, height=96)


def _scan(folder: Path, n: int = 20, depth: float = 1.5) -> tuple[str, np.ndarray]:
    """A camera 1.5 m above a floor looking down, walking along x: float32 depth, one sample per RGB pixel / 4."""
    t = 1_000_000_000 + np.arange(n, dtype=np.int64) * 33_333_333
    poses = np.repeat(np.eye(4)[None], n, axis=0)
    poses[:, :3, :3] = [[1, 0, 0], [0, 0, 1], [0, -1, 0]]  # camera -z = world -y
    poses[:, 0, 3] = 0.02 * np.arange(n)
    poses[:, 1, 3] = depth
    depths = np.full((n, 24, 32), depth, np.float32)
    return fathom.write_scan(str(folder), "damaged", t, poses, K, depths, depth_format="float32"), depths


def test_a_frame_whose_timestamp_goes_back_is_skipped_and_named(tmp_path: Path) -> None:
    metadata, _ = _scan(tmp_path)
    jsonl = tmp_path / "damaged.jsonl"
    lines = jsonl.read_text().splitlines()
    record = json.loads(lines[7])
    record["timestamp"] = json.loads(lines[3])["timestamp"]  # frame 7 now claims frame 3's time
    lines[7] = json.dumps(record, separators=(",", ":"))
    jsonl.write_text("\n".join(lines) + "\n")
    report = fathom.scan_report(metadata)
    assert report.frames == 19  # every frame but the one that went back
    said = [w for w in report.warnings if "skipped" in w]
    assert len(said) == 1 and "scan frame 7" in said[0] and "earlier than the frame before" in said[0], report.warnings


def test_depth_values_no_sensor_gives_are_left_out_and_counted(tmp_path: Path) -> None:
    metadata, depths = _scan(tmp_path)
    clean = fathom.scan_report(metadata)
    assert not any("no sensor gives" in w for w in clean.warnings)
    # A byte flip's work, in the first frame (always fused): 1.5 m read as 7860 m, -161 m and NaN.
    damaged = tmp_path / "flipped"
    t = 1_000_000_000 + np.arange(20, dtype=np.int64) * 33_333_333
    scan = fathom.Scan.open(metadata)
    depths[0, 5, 5], depths[0, 6, 7], depths[0, 10, 3] = 7860, -161, np.nan
    path = fathom.write_scan(str(damaged), "damaged", t, scan.poses, K, depths, depth_format="float32")
    report = fathom.scan_report(path)
    said = [w for w in report.warnings if "no sensor gives" in w]
    assert len(said) == 1, report.warnings
    assert re.search(r"^3 depth samples .* beyond 50 m\) left out of the cloud, in 1 fused frame \(frame 0: 3\)", said[0]), said[0]
    # Left out: the cloud is the clean one's (no point 7860 m away, none below the floor).
    assert len(report.cloud) == len(clean.cloud)
    np.testing.assert_allclose(report.cloud[:, 1].min(), clean.cloud[:, 1].min(), atol=1e-6)


@pytest.mark.parametrize("voxel", [10.5, 1e20, 1e37])
def test_voxels_beyond_10_m_are_refused(voxel: float) -> None:
    with pytest.raises(fathom.OutOfRangeError, match=r"voxel must be in \[1e-4, 10\] m"):
        fathom.Capture(voxel=voxel)


def test_a_10_m_voxel_keeps_exact_means(tmp_path: Path) -> None:
    """At the largest voxel allowed the mean of samples within 3 m is still theirs (sums kept about the voxel's
    corner): every fused point lies on the floor, 1.5 m under the cameras."""
    metadata, _ = _scan(tmp_path)
    report = fathom.scan_report(metadata, voxel=10.0)
    assert len(report.cloud) >= 1
    np.testing.assert_allclose(report.cloud[:, 1], 0.0, atol=1e-4)


def test_a_report_from_a_path_reads_a_cut_scan_once_and_says_where_it_stopped(tmp_path: Path) -> None:
    """scan_report(path) opens the scan indexed while reading: a depth stream cut short ends the frames fed where
    the report's read meets the cut, the same frames as the scan indexed at opening gives."""
    metadata, _ = _scan(tmp_path, n=40)
    stream = tmp_path / "damaged.depth.zlib"
    raw = stream.read_bytes()
    stream.write_bytes(raw[: len(raw) // 2])
    eager = fathom.Scan(metadata)
    assert 0 < len(eager) < 40
    from_path = fathom.scan_report(metadata)
    opened = fathom.scan_report(eager)
    assert from_path.frames == opened.frames == len(eager)
    said = [w for w in from_path.warnings if w.startswith("frames ") and "were not read" in w]
    assert len(said) == 1 and said[0].startswith(f"frames {len(eager)} to "), from_path.warnings
    assert "damaged.depth.zlib" in said[0] and "cut" in said[0]
    assert any("cut" in w for w in opened.warnings) and not any(w.startswith("frames ") for w in opened.warnings)
