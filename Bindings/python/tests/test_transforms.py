"""NeRF-style transforms.json: files written here with json.dump (row-major nested lists) against our poses
and intrinsics, the intrinsics' defaults (camera_angle_x, fl_y, cx/cy, per-frame keys), timestamps, round
trips through write_transforms (checked with json.load too) and bad files naming the frame and the key."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import fathom


def _random_poses(rng: np.random.Generator, n: int) -> np.ndarray:
    """(n, 4, 4) float64 rigid camera-to-world matrices."""
    poses = np.tile(np.eye(4), (n, 1, 1))
    poses[:, :3, :3] = Rotation.random(n, random_state=int(rng.integers(1 << 31))).as_matrix()
    poses[:, :3, 3] = rng.uniform(-5, 5, size=(n, 3))
    return poses


def _write(path: Path, document: dict) -> Path:
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def _document(poses: np.ndarray, **camera) -> dict:
    doc = dict(camera)
    doc["frames"] = [{"file_path": f"images/frame_{i:05d}.png", "transform_matrix": p.tolist()} for i, p in enumerate(poses)]
    return doc


def test_reads_json_dump_row_major(tmp_path: Path, rng: np.random.Generator) -> None:
    poses = _random_poses(rng, 12)
    path = _write(tmp_path / "transforms.json",
                  _document(poses, w=1920, h=1440, fl_x=1613.7, fl_y=1611.2, cx=941.38, cy=727.04, aabb_scale=16,
                            camera_model="OPENCV", k1=0.01))
    t = fathom.read_transforms(path)
    assert len(t) == 12 and repr(t) == "Transforms(frames=12, 1920x1440)"
    assert t.poses.shape == (12, 4, 4) and t.poses.dtype == np.float64
    # Row-major in the file means numpy's matrices as they are; the library keeps float32 values.
    np.testing.assert_array_equal(t.poses, poses.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(t.positions, poses[:, :3, 3].astype(np.float32))
    k = np.array([[1613.7, 0, 941.38], [0, 1611.2, 727.04], [0, 0, 1]], dtype=np.float32)
    np.testing.assert_array_equal(t.intrinsics, np.broadcast_to(k, (12, 3, 3)))
    assert t.size == (1920, 1440) and t.sizes.shape == (12, 2)
    assert t.file_paths == [f"images/frame_{i:05d}.png" for i in range(12)]
    np.testing.assert_array_equal(t.timestamps, np.arange(12))
    assert t.timestamps.dtype == np.int64
    cam = t.camera(3)
    assert (cam.width, cam.height) == (1920, 1440) and cam.fx == pytest.approx(1613.7, rel=1e-7)
    assert isinstance(t.pose(3), fathom.Pose)


@pytest.mark.parametrize("rate", [30, 59.94, 1e-3])
def test_timestamps_at_a_rate(tmp_path: Path, rng: np.random.Generator, rate: float) -> None:
    path = _write(tmp_path / "t.json", _document(_random_poses(rng, 7), w=100, h=80, fl_x=90))
    t = fathom.read_transforms(path, rate=rate)
    expected = np.floor(np.arange(7) * 1e9 / rate + 0.5).astype(np.int64)
    np.testing.assert_array_equal(t.timestamps, expected)


def test_intrinsics_defaults_and_per_frame_keys(tmp_path: Path, rng: np.random.Generator) -> None:
    poses = _random_poses(rng, 3)
    doc = _document(poses, w=800, h=600, camera_angle_x=0.6911112070083618)
    doc["frames"][1].update({"fl_x": 500.0, "cx": 410.0, "w": 820})  # its own focal length, centre and width
    doc["frames"][2].update({"camera_angle_y": 0.5})
    del doc["frames"][2]["file_path"]
    t = fathom.read_transforms(_write(tmp_path / "t.json", doc))
    fl = 0.5 * 800 / math.tan(0.6911112070083618 / 2)
    k0 = t.intrinsics[0]
    assert k0[0, 0] == pytest.approx(fl, rel=1e-6) and k0[1, 1] == k0[0, 0]  # fl_y defaults to fl_x
    assert (k0[0, 2], k0[1, 2]) == (400.0, 300.0)  # the image centre
    k1 = t.intrinsics[1]
    assert (k1[0, 0], k1[1, 1], k1[0, 2], k1[1, 2]) == (500.0, 500.0, 410.0, 300.0)
    assert tuple(t.sizes[1]) == (820, 600) and t.size is None
    k2 = t.intrinsics[2]
    assert k2[1, 1] == pytest.approx(0.5 * 600 / math.tan(0.25), rel=1e-6)
    assert t.file_paths[2] is None


def test_nearly_rigid_poses_are_repaired(tmp_path: Path, rng: np.random.Generator) -> None:
    poses = _random_poses(rng, 4)
    noisy = poses.copy()
    noisy[:, :3, :3] += rng.uniform(-1e-3, 1e-3, size=(4, 3, 3))
    t = fathom.read_transforms(_write(tmp_path / "t.json", _document(noisy, w=10, h=10, fl_x=10)))
    r = t.poses[:, :3, :3]
    np.testing.assert_allclose(r @ r.transpose(0, 2, 1), np.broadcast_to(np.eye(3), (4, 3, 3)), atol=1e-6)
    # The nearest rotation (polar decomposition, here with numpy's SVD) of each noisy matrix.
    for i in range(4):
        u, _, vt = np.linalg.svd(noisy[i, :3, :3])
        np.testing.assert_allclose(r[i], u @ vt, atol=2e-6)
    np.testing.assert_array_equal(t.poses[:, :3, 3], noisy[:, :3, 3].astype(np.float32))


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "per-frame"])
def test_round_trip(tmp_path: Path, rng: np.random.Generator, shared: bool) -> None:
    poses = _random_poses(rng, 9).astype(np.float32)
    if shared:
        intrinsics = fathom.Intrinsics(1500.25, 1499.5, 960.125, 719.75, 1920, 1440)
        ks = [intrinsics] * 9
    else:
        ks = [fathom.Intrinsics(1000 + i, 1001 + i, 320.5, 240.5, 640, 480 + i) for i in range(9)]
        intrinsics = ks
    names = [f"img/{i}.jpg" for i in range(8)] + ['odd "name" \\ \u00e9\n.png']
    path = tmp_path / "out" / "transforms.json"
    path.parent.mkdir()
    fathom.write_transforms(path, poses, intrinsics, names)
    doc = json.loads(path.read_text())
    assert ("fl_x" in doc) == shared and ("fl_x" in doc["frames"][0]) == (not shared)
    if shared:
        assert doc["w"] == 1920 and doc["camera_angle_x"] == pytest.approx(2 * math.atan(1920 / (2 * 1500.25)))
    # json.load reads row-major rows: the matrices as numpy has them.
    np.testing.assert_array_equal(np.array([f["transform_matrix"] for f in doc["frames"]], dtype=np.float32), poses)
    assert [f["file_path"] for f in doc["frames"]] == names
    t = fathom.read_transforms(path)
    assert t.poses.astype(np.float32).tobytes() == poses.tobytes()  # exact
    for i, k in enumerate(ks):
        assert t.camera(i) == fathom.Intrinsics(*(float(np.float32(v)) for v in (k.fx, k.fy, k.cx, k.cy)), k.width, k.height)
    assert t.file_paths == names
    # Pose objects work as input too; without file paths no file_path key is written.
    fathom.write_transforms(tmp_path / "p.json", [fathom.Pose(p) for p in poses[:2]], ks[0])
    doc = json.loads((tmp_path / "p.json").read_text())
    assert len(doc["frames"]) == 2 and "file_path" not in doc["frames"][0]
    assert fathom.read_transforms(tmp_path / "p.json").file_paths == [None, None]


def test_no_frames(tmp_path: Path) -> None:
    fathom.write_transforms(tmp_path / "e.json", np.empty((0, 4, 4)), [])
    assert json.loads((tmp_path / "e.json").read_text()) == {"frames": []}
    t = fathom.read_transforms(tmp_path / "e.json")
    assert len(t) == 0 and t.poses.shape == (0, 4, 4) and t.size is None


# -- bad files ----------------------------------------------------------------------------------------------


def _bad(tmp_path: Path, rng: np.random.Generator, edit) -> Path:
    doc = _document(_random_poses(rng, 4), w=640, h=480, fl_x=500)
    edit(doc)
    return _write(tmp_path / "bad.json", doc)


@pytest.mark.parametrize(
    "edit,error,pattern",
    [
        (lambda d: d["frames"][2].pop("transform_matrix"), fathom.FormatError, r"missing field frames\[2\]\.transform_matrix"),
        (lambda d: d.pop("frames"), fathom.FormatError, "missing field frames"),
        (lambda d: d.pop("w"), fathom.FormatError, "frame 0: no w"),
        (lambda d: d.pop("fl_x"), fathom.FormatError, r"frame 0: no fl_x \(or camera_angle_x\)"),
        (lambda d: d["frames"][1].update(fl_x="big"), fathom.FormatError, r"frames\[1\]\.fl_x must be a number"),
        (lambda d: d["frames"][3].update(h=480.5), fathom.FormatError, r"frames\[3\]\.h must be a whole number"),
        (lambda d: d["frames"][1].update(fl_x=-5), fathom.FormatError, "frame 1: fl_x must be > 0"),
        (lambda d: d["frames"][1]["transform_matrix"].pop(), fathom.FormatError,
         r"line 1, byte \d+: field frames\[1\]\.transform_matrix must be 4 rows of 4 numbers, found 3 rows"),
        (lambda d: d["frames"][2]["transform_matrix"][1].append(0), fathom.FormatError,
         r"field frames\[2\]\.transform_matrix\[1\] must hold 4 numbers, found 5"),
        (lambda d: d["frames"][1]["transform_matrix"][0].__setitem__(0, 2.0), fathom.NotRigidError,
         r"frame 1 \(frames\[1\]\.transform_matrix\)"),
        (lambda d: d["frames"][3]["transform_matrix"][3].__setitem__(0, 0.5), fathom.NotRigidError, r"frame 3 "),
        (lambda d: d["frames"][0]["transform_matrix"][0].__setitem__(3, 1e39), fathom.FormatError,
         r"frames\[0\]\.transform_matrix\[0\]\[3\] holds 1e\+39, beyond the range of a float"),
        (lambda d: d.update(camera_angle_x=4.0, fl_x=None), fathom.FormatError, "camera_angle_x must be a field of view"),
        (lambda d: d["frames"][1].update(file_path="images/a\u0000.png"), fathom.FormatError,
         r"frames\[1\]\.file_path: a path holds no NUL"),
    ],
    ids=["no-matrix", "no-frames", "no-w", "no-focal", "focal-string", "half-pixel", "negative-focal", "three-rows",
         "long-row", "scaled", "bottom-row", "overflow", "angle", "nul-path"],
)
def test_bad_files(tmp_path: Path, rng: np.random.Generator, edit, error: type, pattern: str) -> None:
    path = _bad(tmp_path, rng, edit)
    with pytest.raises(error, match=pattern) as info:
        fathom.read_transforms(path)
    assert "fathom_transforms_read" in str(info.value) and str(path) in str(info.value)


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"frames": [')
    with pytest.raises(fathom.ParseError):
        fathom.read_transforms(path)
    with pytest.raises(fathom.FathomIOError):
        fathom.read_transforms(tmp_path / "missing.json")


def test_bad_arguments(tmp_path: Path, rng: np.random.Generator) -> None:
    path = _write(tmp_path / "t.json", _document(_random_poses(rng, 2), w=10, h=10, fl_x=10))
    with pytest.raises(ValueError, match="rate"):
        fathom.read_transforms(path, rate=-1)
    with pytest.raises(TypeError, match="rate"):
        fathom.read_transforms(path, rate="30")
    k = fathom.Intrinsics(10, 10, 5, 5, 10, 10)
    poses = _random_poses(rng, 3)
    poses[1, 0, 0] = 3.0
    out = tmp_path / "w.json"
    with pytest.raises(fathom.NotRigidError, match=r"poses\[1\]"):
        fathom.write_transforms(out, poses, k)
    assert not out.exists()
    with pytest.raises(ValueError, match="one per pose"):
        fathom.write_transforms(out, _random_poses(rng, 3), [k, k])
    with pytest.raises(ValueError, match="file_paths"):
        fathom.write_transforms(out, _random_poses(rng, 3), k, ["a", "b"])
    with pytest.raises(fathom.OutOfRangeError, match=r"intrinsics\[0\]\.fx must be > 0"):
        fathom.write_transforms(out, _random_poses(rng, 1), fathom.Intrinsics(-1, 10, 5, 5, 10, 10))
    with pytest.raises(fathom.FathomIOError):
        fathom.write_transforms(tmp_path / "no" / "t.json", _random_poses(rng, 1), k)
