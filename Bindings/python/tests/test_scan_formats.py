"""Capture formats: Stray Scanner folders, nerfstudio-style transforms.json with depth PNGs, conversions between
them and the scanner app's files (Scan.write), and the pose conventions behind them (convert_poses).

Every expectation is computed here, independently of the library: depth from the rendered capture
(_room_scenes.depth_mm, numpy), PNGs decoded with Pillow, quaternions and random rotations from scipy, pose
algebra in numpy. Nothing is compared with an earlier output of the library itself, except where the point of
the test is that two formats (or a round trip) agree; those tests also check one side against the capture.

Captures are small (16-30 frames) and built once per module; folders are damaged in copies.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import fathom
import _room_scenes as rs

try:
    from scipy.spatial.transform import Rotation
except ImportError:  # pragma: no cover - scipy is a test dependency (pyproject's [test] extra)
    Rotation = None

needs_scipy = pytest.mark.skipif(Rotation is None, reason="scipy is not installed")

FLIP = np.diag([1.0, -1.0, -1.0])          # ARKit camera axes <-> OpenCV camera axes (an involution)
FLIP4 = np.diag([1.0, -1.0, -1.0, 1.0])
ODOMETRY_HEADER = "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy"
DROPPED = "were dropped"   # with its space: test folders (named after tests) may hold the word "dropped" itself


# --------------------------------------------------------------------------------------------------- helpers


def meters(mm: np.ndarray) -> np.ndarray:
    """What a millimetre PNG must read as: float32(mm) * float32(0.001), exactly (one float32 product)."""
    return mm.astype(np.float32) * np.float32(0.001)


def png(path: Path) -> np.ndarray:
    """A PNG's samples decoded by Pillow (16-bit grayscale comes out as mode I;16, i.e. uint16)."""
    with Image.open(path) as image:
        return np.array(image)


def warnings_with(scan: fathom.Scan, *words: str) -> list[str]:
    """The scan's warnings that contain every one of `words`."""
    return [w for w in scan.warnings if all(word in w for word in words)]


def named_frames(warning: str) -> list[int]:
    """The frame numbers listed at the end of the dropped-frames warning ('... before frames 12, 19')."""
    tail = warning.rsplit("before frames", 1)[1]
    return [int(x) for x in re.findall(r"\d+", tail)]


def rigid_part(poses: np.ndarray) -> np.ndarray:
    """The poses with each rotation replaced by the nearest rotation (numpy SVD): the scene's ARKit poses are only
    nearly rigid (float32, ~2e-5 noise per entry), and both a quaternion file and the library keep the rigid part."""
    out = np.array(poses, dtype=np.float64)
    out[:, :3, :3] = rs.nearest_rotation(out[:, :3, :3])
    return out


def copy_folder(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def odometry_lines(folder: Path) -> list[str]:
    return (folder / "odometry.csv").read_text().splitlines()


def edit_odometry_row(folder: Path, frame: int, edit) -> None:
    """Replaces the odometry row of `frame` (line frame + 2, after the header) by edit(cells)."""
    lines = odometry_lines(folder)
    cells = [c.strip() for c in lines[frame + 1].split(",")]
    assert int(cells[1]) == frame
    lines[frame + 1] = ", ".join(edit(cells))
    (folder / "odometry.csv").write_text("\n".join(lines) + "\n")


def odometry_table(folder: Path) -> np.ndarray:
    """odometry.csv as a float64 table (header skipped), parsed by numpy."""
    return np.loadtxt(folder / "odometry.csv", delimiter=",", skiprows=1, ndmin=2)


def box_corners(center, scale, rot_y) -> np.ndarray:
    """(8, 3) corners of an upright box turned by rot_y about +y (any fixed convention will do: two boxes are
    compared through the same formula)."""
    c, s = np.cos(rot_y), np.sin(rot_y)
    r = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    signs = np.array([[(i >> 2) & 1, (i >> 1) & 1, i & 1] for i in range(8)], dtype=np.float64) * 2 - 1
    return np.asarray(center) + (signs * np.asarray(scale) / 2) @ r.T


# --------------------------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def scene() -> rs.Scene:
    """An object on a table, circled; 30 frames with 4 dropped frames in the timeline (frames 12, 19, 22, 25)."""
    return rs.object_on_table(1, n=30)


@pytest.fixture(scope="module")
def capture(scene: rs.Scene) -> rs.Capture:
    """The scene's capture with per-frame intrinsics that differ frame to frame (and fx != fy, cx != cy), so a
    reader that took camera_matrix.csv for every frame, or swapped two values, is caught."""
    c = scene.capture
    k = np.array(c.intrinsics, dtype=np.float64)
    i = np.arange(len(c))
    k[:, 0, 0] += 0.371 * i
    k[:, 1, 1] += 0.213 * i - 1.5
    k[:, 0, 2] += 0.157 * i + 0.25
    k[:, 1, 2] -= 0.119 * i - 0.75
    return dataclasses.replace(c, intrinsics=k)


@pytest.fixture(scope="module")
def stray_folders(capture: rs.Capture, tmp_path_factory) -> dict:
    """The capture as an older (no per-frame intrinsics) and a newer Stray folder, written by _room_scenes."""
    root = tmp_path_factory.mktemp("stray")
    return {newer: rs.write_stray(root / ("newer" if newer else "older"), capture, newer=newer) for newer in (False, True)}


@pytest.fixture(scope="module")
def scanner_path(capture: rs.Capture, tmp_path_factory) -> str:
    """The same capture as a scanner-app scan (uint16 millimetres), written with the library's writer."""
    return rs.write_scanner(tmp_path_factory.mktemp("scanner"), "20240611_101530_1A2B3C", capture)


@pytest.fixture(scope="module")
def small_capture() -> rs.Capture:
    """20 frames cut from a longer capture: drops at frames 12 and 19 of the timeline."""
    return rs.object_on_table(1, n=30).capture.frames(slice(0, 20))


@pytest.fixture(scope="module")
def small_stray(small_capture: rs.Capture, tmp_path_factory) -> Path:
    """A clean Stray folder damaged in copies by the tests below."""
    return rs.write_stray(tmp_path_factory.mktemp("small") / "base", small_capture)


# --------------------------------------------------------------------------------------------------- 1. Stray


@pytest.mark.parametrize("newer", [False, True], ids=["older", "newer"])
def test_stray_opens_from_its_folder_and_any_of_its_files(stray_folders, capture, newer) -> None:
    folder = stray_folders[newer]
    for path in (folder, folder / "odometry.csv", folder / "camera_matrix.csv", folder / "depth" / "000007.png",
                 str(folder)):
        with fathom.Scan(path) as scan:
            assert scan.format == fathom.ScanFormat.STRAY, path
            assert len(scan) == len(capture), path
            assert scan.depth_size == rs.DEPTH_SIZE
            assert scan.rgb_size == rs.RGB_SIZE          # Stray's video is 1920 x 1440, which the matrix refers to
            assert scan.has_confidence
            np.testing.assert_array_equal(scan.timestamps, capture.timestamps)


@pytest.mark.parametrize("newer", [False, True], ids=["older", "newer"])
def test_stray_depth_confidence_and_timestamps_are_exact(stray_folders, capture, newer) -> None:
    mm = rs.depth_mm(capture)
    with fathom.Scan(stray_folders[newer]) as scan:
        assert scan.timestamps.dtype == np.int64
        # 9-decimal seconds in the CSV read back as the very nanoseconds written.
        np.testing.assert_array_equal(scan.timestamps, capture.timestamps)
        for i in range(len(capture)):
            d = scan.depth(i)
            assert d.dtype == np.float32 and d.shape == (192, 256)
            np.testing.assert_array_equal(d, meters(mm[i]), err_msg=f"depth of frame {i}")
            c = scan.confidence(i)
            assert c.dtype == np.uint8
            np.testing.assert_array_equal(c, capture.confidences[i], err_msg=f"confidence of frame {i}")
        # The data is not trivial: depth covers a few metres, all three confidence levels occur.
        assert 0.2 < float(meters(mm).max()) <= rs.MAX_RANGE and set(np.unique(capture.confidences)) == {0, 1, 2}
        # Stray has no stated rate: 1 / the median period (the timeline is 60 Hz with sub-ms jitter).
        assert scan.frequency == pytest.approx(rs.RATE, rel=0.02)


@needs_scipy
@pytest.mark.parametrize("newer", [False, True], ids=["older", "newer"])
def test_stray_poses_are_the_arkit_poses(stray_folders, capture, scene, newer) -> None:
    folder = stray_folders[newer]
    arkit = np.asarray(capture.poses, dtype=np.float64)

    # Independently of the library: the file's quaternions are OpenCV camera axes, so R_cv @ diag(1, -1, -1)
    # is the ARKit rotation (up to the ARKit poses' own non-rigidity, ~1e-4).
    table = odometry_table(folder)
    r_file = Rotation.from_quat(table[:, 5:9]).as_matrix() @ FLIP      # scipy's order is (x, y, z, w)
    np.testing.assert_allclose(r_file, arkit[:, :3, :3], atol=2e-4)
    np.testing.assert_allclose(r_file, rigid_part(arkit)[:, :3, :3], atol=1e-6)
    np.testing.assert_allclose(table[:, 2:5], arkit[:, :3, 3], atol=1e-8)   # positions are the same in both axes

    with fathom.Scan(folder) as scan:
        poses = scan.poses
        assert poses.shape == (len(capture), 4, 4)
        np.testing.assert_allclose(poses[:, :3, :3], rigid_part(arkit)[:, :3, :3], atol=1e-5)
        np.testing.assert_allclose(poses[:, :3, :3], r_file, atol=1e-5)
        np.testing.assert_allclose(poses[:, :3, 3], arkit[:, :3, 3], atol=1e-6)
        np.testing.assert_array_equal(poses[:, 3], np.tile([0.0, 0.0, 0.0, 1.0], (len(capture), 1)))
        # The convention, not only the values: the camera looks along its -z (ARKit), so the target (whose
        # centre every frame aims at) is in front along -z of every camera.
        target = scene.target.center
        to_target = np.einsum("nji,nj->ni", poses[:, :3, :3], target - poses[:, :3, 3])
        assert (to_target[:, 2] < -0.3).all()


def test_stray_intrinsics_newer_per_frame_older_from_camera_matrix(stray_folders, capture) -> None:
    k = capture.intrinsics
    # Newer: each row's fx, fy, cx, cy (written with 9 decimals), as float32.
    per_frame = np.array([[float(f"{k[i, 0, 0]:.9f}"), float(f"{k[i, 1, 1]:.9f}"), float(f"{k[i, 0, 2]:.9f}"),
                           float(f"{k[i, 1, 2]:.9f}")] for i in range(len(capture))], dtype=np.float32)
    with fathom.Scan(stray_folders[True]) as scan:
        got = scan.intrinsics
        np.testing.assert_array_equal(got[:, [0, 1, 0, 1], [0, 1, 2, 2]], per_frame.astype(np.float64))
        np.testing.assert_array_equal(got[:, 2], np.tile([0.0, 0.0, 1.0], (len(capture), 1)))
        np.testing.assert_array_equal(got[:, [0, 1], [1, 0]], 0.0)
    # Older: camera_matrix.csv (the first frame's matrix) for every frame.
    first = k[0].astype(np.float32).astype(np.float64)
    with fathom.Scan(stray_folders[False]) as scan:
        np.testing.assert_array_equal(scan.intrinsics, np.repeat(first[None], len(capture), 0))
    assert not np.allclose(k[-1], k[0])  # the two expectations differ, so each test above can fail


def test_stray_blank_per_frame_intrinsics_fall_back_to_camera_matrix(stray_folders, capture, tmp_path) -> None:
    folder = copy_folder(stray_folders[True], tmp_path / "blank")
    edit_odometry_row(folder, 4, lambda cells: cells[:9] + ["", "", "", ""])
    with fathom.Scan(folder) as scan:
        assert len(scan) == len(capture)
        np.testing.assert_array_equal(scan.intrinsics[4], capture.intrinsics[0].astype(np.float32).astype(np.float64))
        assert scan.intrinsics[5, 0, 0] == np.float32(float(f"{capture.intrinsics[5, 0, 0]:.9f}"))


# --------------------------------------------------------------------------------------------------- 2. Stray vs scanner


def test_scanner_and_stray_copies_read_the_same(stray_folders, scanner_path, capture) -> None:
    mm = rs.depth_mm(capture)
    with fathom.Scan(scanner_path) as a, fathom.Scan(stray_folders[True]) as b:
        assert a.format == fathom.ScanFormat.SCANNER and b.format == fathom.ScanFormat.STRAY
        assert a.depth_format == fathom.DepthFormat.UINT16 and a.depth_scale == pytest.approx(0.001)
        assert len(a) == len(b) == len(capture)
        np.testing.assert_array_equal(a.timestamps, b.timestamps)
        for i in range(len(capture)):
            np.testing.assert_array_equal(a.depth(i, raw=True), mm[i])
            np.testing.assert_array_equal(a.depth(i), b.depth(i), err_msg=f"depth of frame {i}")
            np.testing.assert_array_equal(a.confidence(i), b.confidence(i), err_msg=f"confidence of frame {i}")
        # Both re-orthonormalize / keep the rigid part of the same ARKit poses.
        np.testing.assert_allclose(a.poses, b.poses, atol=1e-4)
        np.testing.assert_allclose(a.poses, rigid_part(capture.poses), atol=1e-5)
        np.testing.assert_allclose(a.intrinsics, b.intrinsics, rtol=1e-6)


def test_scanner_and_stray_reports_agree(stray_folders, scanner_path, scene) -> None:
    a = fathom.scan_report(scanner_path)
    b = fathom.scan_report(stray_folders[True])
    for r in (a, b):
        assert r.floor is not None and r.support is not None and r.box is not None
        # Against the scene's ground truth, loosely: the samples were read as the meters rendered.
        assert abs(r.floor["height"] - scene.floor_height) < 0.01
        assert abs(r.support["height"] - scene.support_height) < 0.01
        assert np.linalg.norm(r.box.center - scene.target.center) < 0.02
    # Between the two formats, tightly: the same samples, poses within 1e-4.
    assert abs(a.floor["height"] - b.floor["height"]) < 1e-3
    assert abs(a.support["height"] - b.support["height"]) < 1e-3
    ca = box_corners(a.box.center, a.box.scale, a.box.rot_y)
    cb = box_corners(b.box.center, b.box.scale, b.box.rot_y)
    assert np.abs(ca - cb).max() < 1e-3
    assert a.frames == b.frames


# --------------------------------------------------------------------------------------------------- 3. damage


def test_missing_and_cut_depth_pngs_skip_their_frames(small_capture, tmp_path) -> None:
    folder = rs.write_stray(tmp_path / "s", small_capture, drop_png=[3], cut_png=[5])
    keep = [i for i in range(len(small_capture)) if i not in (3, 5)]
    mm = rs.depth_mm(small_capture)
    with fathom.Scan(folder) as scan:
        assert len(scan) == len(small_capture) - 2
        np.testing.assert_array_equal(scan.timestamps, small_capture.timestamps[keep])
        for j, i in enumerate(keep):  # the frames after a gap read their own PNGs (named by the frame column)
            np.testing.assert_array_equal(scan.depth(j), meters(mm[i]))
            np.testing.assert_array_equal(scan.confidence(j), small_capture.confidences[i])
        assert len(warnings_with(scan, "missing", str(folder / "depth" / "000003.png"))) == 1
        assert len(warnings_with(scan, "cut", str(folder / "depth" / "000005.png"))) == 1


def _random_bytes(path: Path) -> None:
    path.write_bytes(np.random.default_rng(5).integers(0, 256, 3000, dtype=np.uint8).tobytes())


def _other_size(path: Path) -> None:
    Image.fromarray(np.full((96, 128), 1000, dtype=np.uint16)).save(path)      # 16-bit, 128 x 96


def _eight_bit(path: Path) -> None:
    Image.fromarray(np.full((192, 256), 100, dtype=np.uint8)).save(path)       # right size, 8-bit


@pytest.mark.parametrize("damage", [_random_bytes, _other_size, _eight_bit], ids=["random", "other-size", "8-bit"])
def test_unusable_depth_png_skips_its_frame(small_stray, small_capture, tmp_path, damage) -> None:
    folder = copy_folder(small_stray, tmp_path / "s")
    bad = folder / "depth" / "000004.png"
    damage(bad)
    keep = [i for i in range(len(small_capture)) if i != 4]
    with fathom.Scan(folder) as scan:
        assert len(scan) == len(small_capture) - 1
        np.testing.assert_array_equal(scan.timestamps, small_capture.timestamps[keep])
        np.testing.assert_array_equal(scan.depth(4), meters(rs.depth_mm(small_capture)[5]))
        assert len(warnings_with(scan, "skipped", str(bad))) == 1


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda cells: cells[:3] + ["abc"] + cells[4:], ["not a finite number"]),
        # Before the previous row's time (the first frame's time minus 1 s).
        (lambda cells: ["280000.000000000"] + cells[1:], ["does not follow"]),
    ],
    ids=["not-a-number", "backwards"],
)
def test_unreadable_odometry_row_skips_its_frame(small_stray, small_capture, tmp_path, edit, words) -> None:
    folder = copy_folder(small_stray, tmp_path / "s")
    edit_odometry_row(folder, 6, edit)
    keep = [i for i in range(len(small_capture)) if i != 6]
    with fathom.Scan(folder) as scan:
        assert len(scan) == len(small_capture) - 1
        np.testing.assert_array_equal(scan.timestamps, small_capture.timestamps[keep])
        np.testing.assert_array_equal(scan.depth(6), meters(rs.depth_mm(small_capture)[7]))  # frame 7's PNG
        found = warnings_with(scan, "odometry.csv", "skipped", "line 8", *words)   # line 8: frame 6's row
        assert len(found) == 1, scan.warnings


def test_every_depth_png_missing_is_a_format_error(small_stray, tmp_path) -> None:
    folder = copy_folder(small_stray, tmp_path / "s")
    for p in (folder / "depth").iterdir():
        p.unlink()
    with pytest.raises(fathom.FormatError, match="depth PNG"):
        fathom.Scan(folder)


@pytest.mark.parametrize("remove", [("odometry.csv", "camera_matrix.csv"), ("odometry.csv",), ("camera_matrix.csv",)],
                         ids=["neither", "no-odometry", "no-camera-matrix"])
def test_folder_without_the_two_csv_files_is_not_a_scan(small_stray, tmp_path, remove) -> None:
    folder = copy_folder(small_stray, tmp_path / "s")
    for name in remove:
        (folder / name).unlink()
    with pytest.raises(fathom.FormatError, match="not a scan"):
        fathom.Scan(folder)


def test_dropped_frames_are_a_warning_naming_them(tmp_path) -> None:
    # Under 20 frames the timeline has no drops: no warning. Leaving frame 8 out makes a two-period gap
    # before what is then frame 8.
    c = rs.object_on_table(2, n=16).capture
    assert len(c.skipped) == 0
    with fathom.Scan(rs.write_stray(tmp_path / "all", c)) as scan:
        assert warnings_with(scan, DROPPED) == []
    gap = c.frames([i for i in range(len(c)) if i != 8])
    with fathom.Scan(rs.write_stray(tmp_path / "gap", gap)) as scan:
        assert len(scan) == len(c) - 1                      # a dropped frame is a warning, nothing is skipped
        found = warnings_with(scan, DROPPED)
        assert len(found) == 1 and named_frames(found[0]) == [8], scan.warnings


def test_dropped_frames_of_the_timeline_are_named(small_stray, small_capture) -> None:
    with fathom.Scan(small_stray) as scan:
        found = warnings_with(scan, DROPPED)
        assert len(found) == 1
        assert named_frames(found[0]) == list(small_capture.skipped) == [12, 19]


def test_dropped_frames_are_named_by_file_frame_number_after_a_skipped_png(small_stray, small_capture, tmp_path) -> None:
    # A frame skipped for its PNG is not a dropped frame, and the drops are still named by the file's frame numbers.
    folder = copy_folder(small_stray, tmp_path / "s")
    (folder / "depth" / "000006.png").unlink()
    with fathom.Scan(folder) as scan:
        found = warnings_with(scan, DROPPED)
        assert len(found) == 1 and named_frames(found[0]) == [12, 19], scan.warnings


def test_dropped_frames_are_named_by_file_frame_number_after_a_skipped_row(small_stray, small_capture, tmp_path) -> None:
    folder = copy_folder(small_stray, tmp_path / "s")
    edit_odometry_row(folder, 6, lambda cells: cells[:3] + ["abc"] + cells[4:])
    with fathom.Scan(folder) as scan:
        found = warnings_with(scan, DROPPED)
        assert len(found) == 1 and named_frames(found[0]) == [12, 19], scan.warnings


# --------------------------------------------------------------------------------------------------- 4. nerfstudio

NERF_FRAMES = 8
NERF_K = {"fl_x": 1601.5, "fl_y": 1598.25, "cx": 958.5, "cy": 721.75, "w": 1920, "h": 1440}


def write_nerfstudio(folder: Path, capture: rs.Capture, units: np.ndarray, with_depth: bool = True, **top) -> Path:
    """A transforms.json written here (json module): shared intrinsics, frames with row-major ARKit
    camera-to-world matrices (the true, rigid poses) and depth_file_path to 16-bit PNGs written by Pillow."""
    (folder / "depth").mkdir(parents=True)
    frames = []
    for i in range(len(units)):
        name = f"depth/frame_{i:05d}.png"
        Image.fromarray(units[i]).save(folder / name)
        frame = {"file_path": f"images/frame_{i:05d}.jpg", "transform_matrix": capture.true_poses[i].tolist()}
        if with_depth:
            frame["depth_file_path"] = name
        frames.append(frame)
    (folder / "transforms.json").write_text(json.dumps({**NERF_K, "camera_model": "OPENCV", **top, "frames": frames}))
    return folder


@pytest.fixture(scope="module")
def nerf_capture(scene) -> rs.Capture:
    return scene.capture.frames(slice(0, NERF_FRAMES))


def test_nerfstudio_folder_reads_millimetres_by_default(nerf_capture, tmp_path) -> None:
    mm = rs.depth_mm(nerf_capture)
    folder = write_nerfstudio(tmp_path / "ns", nerf_capture, mm)
    for path in (folder, folder / "transforms.json"):
        with fathom.Scan(path) as scan:
            assert scan.format == fathom.ScanFormat.NERFSTUDIO
            assert len(scan) == NERF_FRAMES and scan.depth_size == rs.DEPTH_SIZE
            assert scan.rgb_size == (NERF_K["w"], NERF_K["h"])
            assert not scan.has_confidence
            with pytest.raises(fathom.NoDataError):
                scan.confidence(0)
            for i in range(NERF_FRAMES):
                np.testing.assert_array_equal(scan.depth(i), meters(mm[i]))
            # No timestamps in the file: frames 1/30 s apart from 0.
            np.testing.assert_array_equal(scan.timestamps, np.round(np.arange(NERF_FRAMES) * 1e9 / 30).astype(np.int64))
            np.testing.assert_allclose(scan.poses, nerf_capture.true_poses, atol=1e-6)
            k = scan.intrinsics
            np.testing.assert_array_equal(k[:, 0, 0], NERF_K["fl_x"])
            np.testing.assert_array_equal(k[:, 1, 1], NERF_K["fl_y"])
            np.testing.assert_array_equal(k[:, 0, 2], NERF_K["cx"])
            np.testing.assert_array_equal(k[:, 1, 2], NERF_K["cy"])
            assert len(warnings_with(scan, "millimetres assumed")) == 1, scan.warnings
            assert len(warnings_with(scan, "no timestamps", "1/30 s")) == 1, scan.warnings


def test_nerfstudio_depth_unit_scale_factor(nerf_capture, tmp_path) -> None:
    # Units of 0.2 mm: the same metres need 5x the values (capped to 16 bits).
    units = np.round(np.clip(nerf_capture.depths.astype(np.float64), 0, 13.0) / 0.0002).astype(np.uint16)
    folder = write_nerfstudio(tmp_path / "ns", nerf_capture, units, depth_unit_scale_factor=0.0002)
    with fathom.Scan(folder) as scan:
        for i in range(NERF_FRAMES):
            np.testing.assert_array_equal(scan.depth(i), units[i].astype(np.float32) * np.float32(0.0002))
        assert warnings_with(scan, "millimetres") == []
        assert len(warnings_with(scan, "1/30 s")) == 1


def test_nerfstudio_frames_without_depth_are_skipped(nerf_capture, tmp_path) -> None:
    mm = rs.depth_mm(nerf_capture)
    folder = write_nerfstudio(tmp_path / "ns", nerf_capture, mm)
    doc = json.loads((folder / "transforms.json").read_text())
    del doc["frames"][2]["depth_file_path"]
    (folder / "transforms.json").write_text(json.dumps(doc))
    with fathom.Scan(folder) as scan:
        assert len(scan) == NERF_FRAMES - 1
        np.testing.assert_array_equal(scan.depth(2), meters(mm[3]))
        np.testing.assert_allclose(scan.poses[2], nerf_capture.true_poses[3], atol=1e-6)
        assert len(warnings_with(scan, "without depth_file_path")) == 1


def test_nerfstudio_without_any_depth_is_a_format_error(nerf_capture, tmp_path) -> None:
    folder = write_nerfstudio(tmp_path / "ns", nerf_capture, rs.depth_mm(nerf_capture), with_depth=False)
    for path in (folder, folder / "transforms.json"):
        with pytest.raises(fathom.FormatError, match="depth_file_path"):
            fathom.Scan(path)


# --------------------------------------------------------------------------------------------------- 5. Scan.write


def test_stray_to_scanner_to_stray_round_trip(stray_folders, capture, tmp_path) -> None:
    src = stray_folders[True]
    mm = rs.depth_mm(capture)
    with fathom.Scan(src) as first:
        scanner = first.write(tmp_path / "scanner", "scanner")
        assert scanner == os.path.join(str(tmp_path / "scanner"), first.id + ".json") and os.path.isfile(scanner)
        poses = first.poses.copy()
    with fathom.Scan(scanner) as middle:
        assert middle.format == fathom.ScanFormat.SCANNER
        assert middle.depth_format == fathom.DepthFormat.UINT16     # PNG sources become uint16 millimetres
        for i in range(len(capture)):
            np.testing.assert_array_equal(middle.depth(i, raw=True), mm[i])
        back = middle.write(tmp_path / "stray", fathom.ScanFormat.STRAY)
        assert Path(back) == tmp_path / "stray"
    back = Path(back)
    for i in range(len(capture)):
        name = f"{i:06d}.png"
        d0, d1 = png(src / "depth" / name), png(back / "depth" / name)
        assert d1.dtype == np.uint16 and d1.shape == (192, 256)
        np.testing.assert_array_equal(d1, d0, err_msg=name)
        c0, c1 = png(src / "confidence" / name), png(back / "confidence" / name)
        assert c1.dtype == np.uint8
        np.testing.assert_array_equal(c1, c0, err_msg=name)
    with fathom.Scan(back) as last:
        assert last.format == fathom.ScanFormat.STRAY
        np.testing.assert_array_equal(last.timestamps, capture.timestamps)
        np.testing.assert_allclose(last.poses, poses, atol=1e-5)
        np.testing.assert_allclose(last.intrinsics, capture.intrinsics, rtol=1e-6)


def test_scanner_millimetres_to_stray_keep_the_meters(scanner_path, capture, tmp_path) -> None:
    mm = rs.depth_mm(capture)
    with fathom.Scan(scanner_path) as scan:
        out = Path(scan.write(tmp_path / "stray", "stray"))
    for i in range(len(capture)):
        np.testing.assert_array_equal(png(out / "depth" / f"{i:06d}.png"), mm[i])
        np.testing.assert_array_equal(png(out / "confidence" / f"{i:06d}.png"), capture.confidences[i])
    with fathom.Scan(out) as back:
        for i in range(len(capture)):
            np.testing.assert_array_equal(back.depth(i), meters(mm[i]))
        np.testing.assert_array_equal(back.timestamps, capture.timestamps)


@needs_scipy
def test_written_odometry_layout_and_values(scanner_path, capture, tmp_path) -> None:
    with fathom.Scan(scanner_path) as scan:
        out = Path(scan.write(tmp_path / "stray", "stray"))
    lines = odometry_lines(out)
    assert lines[0] == ODOMETRY_HEADER
    assert len(lines) == len(capture) + 1
    for i, line in enumerate(lines[1:]):
        cells = [c.strip() for c in line.split(",")]
        assert len(cells) == 13
        m = re.fullmatch(r"(\d+)\.(\d{9})", cells[0])
        assert m, cells[0]
        assert int(m.group(1)) * 1_000_000_000 + int(m.group(2)) == capture.timestamps[i]
        assert cells[1] == f"{i:06d}"
    # The written poses, decoded with scipy: OpenCV camera axes, i.e. R_arkit @ diag(1, -1, -1).
    table = odometry_table(out)
    rigid = rigid_part(capture.poses)
    np.testing.assert_allclose(table[:, 2:5], rigid[:, :3, 3], atol=1e-6)
    np.testing.assert_allclose(Rotation.from_quat(table[:, 5:9]).as_matrix(), rigid[:, :3, :3] @ FLIP, atol=1e-5)
    k = capture.intrinsics.astype(np.float32)
    fx_fy_cx_cy = np.stack([k[:, 0, 0], k[:, 1, 1], k[:, 0, 2], k[:, 1, 2]], 1)
    np.testing.assert_array_equal(table[:, 9:13].astype(np.float32), fx_fy_cx_cy)
    cm = np.loadtxt(out / "camera_matrix.csv", delimiter=",")
    np.testing.assert_array_equal(cm.astype(np.float32), k[0])


def test_write_progress_and_cancel(stray_folders, tmp_path) -> None:
    with fathom.Scan(stray_folders[False]) as scan:
        n = len(scan)
        calls: list = []
        path = scan.write(tmp_path / "all", "scanner", progress=lambda done, total: calls.append((done, total)))
        assert calls == [(i, n) for i in range(1, n + 1)]
        with fathom.Scan(path) as copy:
            assert len(copy) == n
        # Returning False stops after that frame; what was written stays.
        with pytest.raises(fathom.InvalidStateError, match="cancel"):
            scan.write(tmp_path / "cancelled", "stray", progress=lambda done, total: done < 3)
        assert sorted(p.name for p in (tmp_path / "cancelled" / "depth").iterdir()) == [f"{i:06d}.png" for i in range(3)]
        # An exception in the callback stops the work and is raised again as itself.
        def boom(done: int, total: int) -> bool:
            raise KeyError("stop here")
        with pytest.raises(KeyError, match="stop here"):
            scan.write(tmp_path / "raised", "scanner", progress=boom)


def test_write_nerfstudio_is_refused(stray_folders, tmp_path) -> None:
    with fathom.Scan(stray_folders[False]) as scan:
        for fmt in ("nerfstudio", fathom.ScanFormat.NERFSTUDIO):
            with pytest.raises(fathom.OutOfRangeError):
                scan.write(tmp_path / "ns", fmt)
        with pytest.raises(ValueError):
            scan.write(tmp_path / "x", "ply")


@pytest.mark.parametrize("fmt", ["scanner", "stray"])
def test_nerfstudio_sub_millimetre_units_in_a_copy(nerf_capture, tmp_path, fmt) -> None:
    # A scanner copy keeps PNG depth in other units as float32 meters (the same values); a Stray folder holds
    # whole millimetres, so its copy is the meters rounded to the millimetre.
    units = np.round(np.clip(nerf_capture.depths.astype(np.float64), 0, 13.0) / 0.0002).astype(np.uint16)
    folder = write_nerfstudio(tmp_path / "ns", nerf_capture, units, depth_unit_scale_factor=0.0002)
    with fathom.Scan(folder) as scan:
        out = scan.write(tmp_path / "copy", fmt)
    with fathom.Scan(out) as copy:
        for i in range(NERF_FRAMES):
            meters = units[i].astype(np.float32) * np.float32(0.0002)
            if fmt == "scanner":
                np.testing.assert_array_equal(copy.depth(i), meters)
            else:
                mm = np.round(meters.astype(np.float64) * 1000)
                np.testing.assert_array_equal(copy.depth(i), mm.astype(np.float32) * np.float32(0.001))


def test_copying_far_depth_to_scanner_does_not_kill_the_process(tmp_path) -> None:
    # Run in a child process: the failure mode is a crash, which must not take pytest down with it.
    folder = tmp_path / "ns"
    (folder / "depth").mkdir(parents=True)
    units = np.full((48, 64), 150, dtype=np.uint16)
    units[10, 10] = 10000                                                       # 100 m at 1 cm per unit
    Image.fromarray(units).save(folder / "depth" / "0.png")
    doc = {**NERF_K, "depth_unit_scale_factor": 0.01,
           "frames": [{"file_path": "0.jpg", "depth_file_path": "depth/0.png", "transform_matrix": np.eye(4).tolist()}]}
    (folder / "transforms.json").write_text(json.dumps(doc))
    code = textwrap.dedent(f"""
        import fathom
        scan = fathom.Scan({str(folder)!r})
        try:
            scan.write({str(tmp_path / "copy")!r}, "scanner")
        except fathom.FathomError as e:
            print("refused:", e)
    """)
    paths = [str(Path(fathom.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in paths if p))
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"the process died (return code {result.returncode}): {result.stderr[-500:]}"


# --------------------------------------------------------------------------------------------------- 6. conventions


@pytest.fixture(scope="module")
def rigid_poses() -> np.ndarray:
    """12 random rigid poses (scipy's uniform random rotations, seeded), rounded to float32 first so that the
    library (which works in float32) is given exactly these values."""
    if Rotation is None:
        pytest.skip("scipy is not installed")
    p = np.tile(np.eye(4), (12, 1, 1))
    p[:, :3, :3] = Rotation.random(12, random_state=20240611).as_matrix()
    p[:, :3, 3] = np.random.default_rng(3).uniform(-3, 3, (12, 3))
    return p.astype(np.float32).astype(np.float64)


def test_arkit_to_opencv_flips_the_camera_axes(rigid_poses) -> None:
    got = fathom.convert_poses(rigid_poses, "arkit", "opencv")
    assert got.shape == rigid_poses.shape and got.dtype == np.float64
    # Flipping y and z columns is a sign change: exact in float32.
    np.testing.assert_array_equal(got, rigid_poses @ FLIP4)
    # The camera's viewing direction: ARKit looks along its -z, OpenCV along its +z; the same world direction.
    np.testing.assert_array_equal(got[:, :3, 2], -rigid_poses[:, :3, 2])


def test_opencv_to_arkit_is_the_inverse(rigid_poses) -> None:
    opencv = rigid_poses @ FLIP4
    np.testing.assert_array_equal(fathom.convert_poses(opencv, "opencv", "arkit"), rigid_poses)


def test_arkit_to_opencv_world_to_camera(rigid_poses) -> None:
    got = fathom.convert_poses(rigid_poses, "arkit", "opencv_world_to_camera")
    np.testing.assert_allclose(got, np.linalg.inv(rigid_poses @ FLIP4), atol=2e-6)
    # A world point maps to OpenCV camera coordinates: the point 2 m in front of an ARKit camera has z = +2.
    p = rigid_poses[:, :3, 3] - 2.0 * rigid_poses[:, :3, 2]
    cam = np.einsum("nij,nj->ni", got[:, :3, :3], p) + got[:, :3, 3]
    np.testing.assert_allclose(cam, np.tile([0.0, 0.0, 2.0], (len(p), 1)), atol=1e-5)


@pytest.mark.parametrize("source", list(fathom.PoseConvention))
@pytest.mark.parametrize("target", list(fathom.PoseConvention))
def test_every_round_trip_returns_the_input(rigid_poses, source, target) -> None:
    # The input in `source` convention, derived here with numpy from the ARKit poses.
    in_source = {
        fathom.PoseConvention.ARKIT: rigid_poses,
        fathom.PoseConvention.OPENCV: rigid_poses @ FLIP4,
        fathom.PoseConvention.OPENCV_WORLD_TO_CAMERA: np.linalg.inv(rigid_poses @ FLIP4),
    }
    there = fathom.convert_poses(in_source[source], source, target)
    np.testing.assert_allclose(there, in_source[target], atol=2e-6)
    back = fathom.convert_poses(there, target, source)
    np.testing.assert_allclose(back, in_source[source], atol=1e-6)


def test_shapes_names_and_members(rigid_poses) -> None:
    single = fathom.convert_poses(rigid_poses[0], "arkit", "opencv")
    assert single.shape == (4, 4)
    np.testing.assert_array_equal(single, rigid_poses[0] @ FLIP4)
    assert fathom.convert_poses(rigid_poses[:1], "arkit", "opencv").shape == (1, 4, 4)
    assert fathom.convert_poses(rigid_poses[:0], "arkit", "opencv").shape == (0, 4, 4)
    by_name = fathom.convert_poses(rigid_poses, "OpenCV", "opencv_world_to_camera")
    by_member = fathom.convert_poses(rigid_poses, fathom.PoseConvention.OPENCV, fathom.PoseConvention.OPENCV_WORLD_TO_CAMERA)
    by_value = fathom.convert_poses(rigid_poses, 1, 2)
    np.testing.assert_array_equal(by_name, by_member)
    np.testing.assert_array_equal(by_value, by_member)
    # OpenCV camera-to-world -> world-to-camera is the plain inverse.
    np.testing.assert_allclose(by_member, np.linalg.inv(rigid_poses), atol=2e-6)
    np.testing.assert_array_equal(fathom.convert_poses(rigid_poses, "arkit", "arkit"), rigid_poses)


def test_non_rigid_pose_is_refused_naming_it(rigid_poses) -> None:
    error = getattr(fathom, "NotRigidError", fathom.FathomError)
    bad = rigid_poses.copy()
    bad[2, :3, :3] *= 1.1          # a scale, not a rotation
    bad[5, 0, 1] += 0.3            # a shear
    with pytest.raises(error, match=r"poses\[2\]"):
        fathom.convert_poses(bad, "arkit", "opencv")
    with pytest.raises(error):
        fathom.convert_poses(bad[5], "opencv", "arkit")


@pytest.mark.parametrize("source, target", [("colmap", "arkit"), ("arkit", "opengl"), (7, "arkit")])
def test_unknown_convention_is_a_value_error(rigid_poses, source, target) -> None:
    with pytest.raises(ValueError):
        fathom.convert_poses(rigid_poses, source, target)
