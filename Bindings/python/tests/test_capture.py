"""Capture reports (fathom.Capture, fathom.scan_report) on scenes of known geometry rendered by the tests.

Every expected value is computed here independently: the scene's true box and floor, numpy step distances
and speeds, a numpy ray-quad cast for the face each captured view meets, and plyfile reading the saved
clouds back.
"""

from __future__ import annotations

import json
import os
import subprocess
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

import fathom
import _scene

SCENES = [
    _scene.Scene(center=np.array([0.05, 0.15, -0.02]), scale=np.array([0.40, 0.30, 0.20]), rot_y=0.3),
    _scene.Scene(center=np.array([-0.10, 0.25, 0.08]), scale=np.array([0.25, 0.50, 0.35]), rot_y=1.2),
    _scene.Scene(center=np.array([0.00, 0.04, 0.00]), scale=np.array([0.12, 0.08, 0.30]), rot_y=-0.4),
]

#: Corners of each face in the capture app's order (front, left, right, bottom, top, back).
FACE_CORNERS = [[0, 1, 2, 3], [0, 3, 7, 4], [1, 2, 6, 5], [2, 3, 7, 6], [0, 1, 5, 4], [4, 5, 6, 7]]


def write(tmp_path, scene, n=120, seed=0, name="20240101_120000_test", **traj):
    ts, poses, ks, depths, confs = _scene.capture(scene, n=n, seed=seed, **traj)
    folder = tmp_path / f"scan{seed}"
    fathom.write_scan(folder, name, ts, poses.astype(np.float64), ks, depths, confs)
    return folder, ts, poses


def yaw_box_match(box: fathom.Box, scene: _scene.Scene):
    """Centre distance, extents difference and yaw difference (mod a quarter turn, extents swapped with it)."""
    scale = np.array(box.scale)
    d_angle = (box.rot_y - scene.rot_y) % (math.pi / 2)
    if d_angle > math.pi / 4:
        d_angle -= math.pi / 2
    quarter = round((box.rot_y - scene.rot_y - d_angle) / (math.pi / 2)) % 2
    if quarter:
        scale = scale[[2, 1, 0]]
    return np.linalg.norm(np.array(box.center) - scene.center), np.abs(scale - scene.scale), abs(d_angle)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = []
    for i, scene in enumerate(SCENES):
        folder, ts, poses = write(tmp_path_factory.mktemp(f"s{i}"), scene, seed=i)
        out.append((scene, folder, ts, poses, fathom.scan_report(folder)))
    return out


@pytest.mark.parametrize("index", range(len(SCENES)))
def test_box_of_known_scene(reports, index):
    scene, _, _, _, report = reports[index]
    assert report.box_source == fathom.BoxSource.FITTED
    centre, extents, angle = yaw_box_match(report.box, scene)
    # LiDAR-like noise (2 mm at 1 m), 1 cm voxels: the box is found within about a voxel.
    assert centre < 0.012, (centre, report.box)
    assert np.all(extents < 0.02), (extents, report.box)
    assert angle < math.radians(3)
    assert abs(report.floor["height"]) < 0.005
    assert report.floor["normal"][1] > math.cos(math.radians(2))
    assert report.box.floor is not None and abs(report.box.floor) < 0.006


def test_cloud_lies_on_the_scene(reports):
    scene, _, _, _, report = reports[0]
    p = report.cloud.astype(np.float64)
    local = (p - scene.center) @ scene.box_axes()
    outside = np.maximum(np.abs(local) - scene.scale / 2, 0)
    inside = np.minimum(np.max(np.abs(local) - scene.scale / 2, axis=1), 0)
    to_box = np.linalg.norm(outside, axis=1) + np.abs(inside)
    distance = np.minimum(np.abs(p[:, 1]), to_box)
    # Confidence >= 2 drops the flying pixels: nearly every fused point is on a surface.
    assert np.mean(distance < 0.02) > 0.995
    assert len(report.object) > 100
    obj = (report.object.astype(np.float64) - scene.center) @ scene.box_axes()
    assert np.all(np.abs(obj) <= scene.scale / 2 + 0.03)


def test_flying_pixels_are_what_confidence_removes(tmp_path):
    folder, *_ = write(tmp_path, SCENES[0], n=60)
    clean = fathom.scan_report(folder)
    noisy = fathom.scan_report(folder, min_confidence=0, min_voxel_points=1)
    assert len(noisy.cloud) > len(clean.cloud)
    _, extents_clean, _ = yaw_box_match(clean.box, SCENES[0])
    assert np.all(extents_clean < 0.02)


def test_trajectory_and_speed_against_numpy(reports):
    _, _, ts, poses, report = reports[0]
    positions = poses[:, :3, 3].astype(np.float64)
    steps = np.linalg.norm(np.diff(positions, axis=0), axis=1)
    dt = np.diff(ts) * 1e-9
    assert report.trajectory.path_length == pytest.approx(steps.sum(), rel=1e-4)
    assert report.trajectory.duration == pytest.approx((ts[-1] - ts[0]) * 1e-9, abs=1e-9)
    speed = report.speed
    assert speed["guidance"][0] == "unknown"
    np.testing.assert_allclose(speed["speed"][1:], steps / dt, rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(speed["time"], (ts - ts[0]) * 1e-9, atol=1e-9)
    assert report.trajectory.speed_max == pytest.approx(np.max(steps / dt), rel=2e-3)


def first_face(origin, direction, corners):
    """The face (index) a ray meets first, by ray-quad intersection, or None."""
    best = (math.inf, None)
    for face, ids in enumerate(FACE_CORNERS):
        q = corners[ids]
        n = np.cross(q[1] - q[0], q[3] - q[0])
        denom = n @ direction
        if abs(denom) < 1e-12:
            continue
        t = n @ (q[0] - origin) / denom
        if t <= 0:
            continue
        x = origin + t * direction
        signs = [np.cross(q[(k + 1) % 4] - q[k], x - q[k]) @ n for k in range(4)]
        if (all(s >= -1e-9 for s in signs) or all(s <= 1e-9 for s in signs)) and t < best[0]:
            best = (t, face)
    return best[1]


def test_coverage_counts_the_captured_views(tmp_path):
    scene = SCENES[0]
    # A slow walk (0.2 m/s): the app captures every second or two.
    folder, ts, poses = write(tmp_path, scene, n=900, radius=0.9, turns=0.5)
    report = fathom.scan_report(folder, fuse_distance=0.2, fuse_angle=0.5)
    assert len(report.captures) >= 4
    corners = np.array(report.box.corners, dtype=np.float64)
    expected = np.zeros(6, dtype=np.int64)
    for i in report.captures:
        m = poses[i].astype(np.float64)
        u, s, vt = np.linalg.svd(m[:3, :3])
        face = first_face(m[:3, 3], -(u @ vt)[:, 2], corners)
        if face is not None:
            expected[face] += 1
    np.testing.assert_array_equal(report.coverage.counts, expected)
    assert report.coverage.views == len(report.captures)


def test_given_box_and_manifest(tmp_path):
    scene = SCENES[0]
    folder, *_ = write(tmp_path, scene, n=60)
    given = fathom.Box(center=scene.center, scale=scene.scale, rot_y=scene.rot_y)
    report = fathom.scan_report(folder, box=given)
    assert report.box_source == fathom.BoxSource.GIVEN
    np.testing.assert_allclose(report.box.scale, scene.scale, atol=1e-6)
    given.save(folder / "boundingbox.json")
    report = fathom.scan_report(folder)
    assert report.box_source == fathom.BoxSource.MANIFEST
    np.testing.assert_allclose(report.box.center, scene.center, atol=1e-5)


def test_live_capture_gives_the_scan_report(reports):
    _, folder, _, _, report = reports[0]
    with fathom.Scan.open(folder) as scan, fathom.Capture() as capture:
        statuses = []
        for i in range(len(scan)):
            if capture.wants_depth(scan.poses[i]):
                state = capture.add_frame(scan.frame(i), int(scan.timestamps[i]))
            else:
                k = scan.intrinsics[i]
                state = capture.add_pose(int(scan.timestamps[i]), scan.poses[i],
                                         fathom.Intrinsics(k[0, 0], k[1, 1], k[0, 2], k[1, 2], *scan.rgb_size))
            statuses.append(state.speed)
            if i == len(scan) // 2:
                assert capture.status.frames == i + 1
        live = capture.report()
        assert capture.box is not None
        cov = capture.coverage()
        assert cov.summary().views == len(live.captures)
    mine, theirs = live.to_dict(), report.to_dict()
    for key in ("box", "floor", "trajectory", "speed", "coverage", "captures", "selected_frames", "cloud_points"):
        assert mine[key] == theirs[key], key
    np.testing.assert_array_equal(live.cloud, report.cloud)
    np.testing.assert_allclose(statuses[1:], report.speed["speed"][1:], rtol=1e-6)


def test_progress_and_cancel(reports):
    _, folder, *_ = reports[0]
    seen = []
    fathom.scan_report(folder, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i + 1, seen[0][1]) for i in range(seen[0][1])]
    with pytest.raises(fathom.InvalidStateError, match="cancelled at frame 5"):
        fathom.scan_report(folder, progress=lambda done, total: done < 5)

    class Stop(Exception):
        pass

    def boom(done, total):
        raise Stop()

    with pytest.raises(Stop):
        fathom.scan_report(folder, progress=boom)


def test_report_serialises(reports, tmp_path):
    plyfile = pytest.importorskip("plyfile")
    _, _, _, _, report = reports[0]
    again = pickle.loads(pickle.dumps(report))
    assert again.to_json() == report.to_json()
    np.testing.assert_array_equal(again.cloud, report.cloud)
    data = json.loads(report.to_json())
    assert data["frames"] == report.frames and data["box_source"] == "fitted"
    paths = again.save(tmp_path / "out")
    names = sorted(p.split("/")[-1] for p in paths)
    assert names == sorted(["cloud.ply", "object.ply", "report.json", "report.html", "top-view.svg", "side-view.svg",
                            "speed.svg", "coverage.svg", "view-bins.svg"])
    assert sorted(os.listdir(tmp_path / "out")) == names
    cloud = plyfile.PlyData.read(str(tmp_path / "out" / "cloud.ply"))["vertex"]
    np.testing.assert_array_equal(np.stack([cloud["x"], cloud["y"], cloud["z"]], 1), report.cloud)
    assert json.loads((tmp_path / "out" / "report.json").read_text()) == data
    loaded = fathom.ScanReport.load(tmp_path / "out")
    assert loaded.to_json() == report.to_json()
    np.testing.assert_array_equal(loaded.object, report.object)
    assert loaded.html() == report.html() and "<!DOCTYPE html>" in report.html()
    assert 'srcdoc="&lt;!DOCTYPE html&gt;' in report._repr_html_()


def test_one_writer_for_cli_c_and_python(reports, tmp_path):
    """`fathom report --out` (the library's report, saved as computed) and Python's save (the report rebuilt
    from its JSON) write the same bytes into every file."""
    _, folder, _, _, report = reports[1]
    cli = Path(os.environ.get("FATHOM_LIBRARY", str(Path(__file__).parents[3] / ".build/release/libfathom.so"))).parent / "fathom-cli"
    done = subprocess.run([str(cli), "report", str(folder), "--out", str(tmp_path / "cli"), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == report.to_dict()  # --json: standard output is the JSON alone
    report.save(tmp_path / "py")
    names = sorted(os.listdir(tmp_path / "cli"))
    assert names == sorted(os.listdir(tmp_path / "py")) and "report.html" in names
    for name in names:
        assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "py" / name).read_bytes(), name


def test_report_load_refuses_what_does_not_match(reports, tmp_path):
    _, _, _, _, report = reports[0]
    report.save(tmp_path / "r")
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    data["cloud_points"] += 1
    (tmp_path / "r" / "report.json").write_text(json.dumps(data))
    with pytest.raises(fathom.FormatError, match="cloud"):
        fathom.ScanReport.load(tmp_path / "r")
    data["cloud_points"] -= 1
    data["speed"]["guidance"][0] = "warp speed"
    (tmp_path / "r" / "report.json").write_text(json.dumps(data))
    with pytest.raises(fathom.FormatError, match="guidance"):
        fathom.ScanReport.load(tmp_path / "r")


def test_bad_input(tmp_path):
    with pytest.raises(fathom.OutOfRangeError, match="voxel"):
        fathom.Capture(voxel=0.0)
    with pytest.raises(fathom.OutOfRangeError, match="floor_max_tilt"):
        fathom.Capture(floor_max_tilt=2.0)
    capture = fathom.Capture()
    with pytest.raises(fathom.NoDataError):
        capture.report()
    assert capture.box is None
    k = fathom.Intrinsics(1600, 1600, 960, 720, 1920, 1440)
    capture.add_pose(2_000_000_000, np.eye(4), k)
    with pytest.raises(fathom.OutOfRangeError):
        capture.add_pose(1_000_000_000, np.eye(4), k)
    assert capture.status.frames == 1
    depth = np.ones((192, 256), np.float32)
    with pytest.raises(fathom.InvalidStateError, match="has_pose"):
        capture.add_frame(fathom.DepthFrame(depth, k), 3_000_000_000)
    assert capture.status.frames == 1
    with pytest.raises(TypeError):
        capture.add_pose(1.5, np.eye(4), k)


def test_c_summary_is_a_subset_of_the_json(reports):
    """Every number of ``fathom_report_summary`` is the JSON's (the JSON is the schema, the struct a view of it)."""
    from ctypes import byref

    from fathom import capture as c
    from fathom._lib import ProgressFn, ReportSummaryStruct
    from fathom._sized import sized_text

    for _, folder, _, _, _ in reports[:2]:
        with fathom.Scan.open(folder) as scan:
            out = c._ReportPtr()
            c._scan_report(scan, byref(fathom.CaptureOptions()._to_c()), None, ProgressFn(), None, byref(out))
        try:
            s = ReportSummaryStruct()
            c._report_get_summary(out, byref(s))
            j = json.loads(sized_text(c._report_json, out))
        finally:
            c._report_destroy(out)
        f32 = lambda v: float(np.float32(v))  # noqa: E731
        vec = lambda v: [v.x, v.y, v.z]  # noqa: E731
        assert (s.frames, s.fused_frames, s.cloud_points, s.object_points) == (
            j["frames"], j["fused_frames"], j["cloud_points"], j["object_points"])
        assert s.duration == pytest.approx(j["duration"], abs=1e-12)
        assert ["none", "given", "manifest", "fitted"][s.box_source] == j["box_source"]
        assert vec(s.box.center) == [f32(v) for v in j["box"]["center"]] and s.box.rot_y == f32(j["box"]["rot_y"])
        assert vec(s.box.scale) == [f32(v) for v in j["box"]["scale"]]
        assert s.has_floor == 1 and s.floor_height == f32(j["floor"]["height"])
        assert vec(s.floor_normal) == [f32(v) for v in j["floor"]["normal"]]
        assert s.has_focus == 1 and vec(s.focus) == [f32(v) for v in j["focus"]]
        assert (s.orbit_views, s.orbit_span) == (j["orbit"]["views"], f32(j["orbit"]["span"]))
        assert s.has_support == (j["support"] is not None) and s.has_ceiling == (j["ceiling"] is not None)
        if j["support"] is not None:
            assert s.support_height == f32(j["support"]["height"])
        assert (s.object_capture, s.object_voxels) == (int(j["object_capture"]), j["object_voxels"])
        t = j["trajectory"]
        assert s.has_trajectory == 1 and s.trajectory.steps == t["steps"]
        for name in ("duration", "path_length", "time_too_slow", "time_too_fast"):
            assert getattr(s.trajectory, name) == pytest.approx(t[name], rel=1e-15), name
        for name in ("speed_p10", "speed_p50", "speed_p90", "speed_max", "angular_speed_max"):
            assert getattr(s.trajectory, name) == f32(t[name]), name
        cov = j["coverage"]
        assert s.has_coverage == 1 and list(s.face_counts) == [face["count"] for face in cov["faces"]]
        assert (s.coverage.views, s.coverage.counted, s.coverage.faces_complete, s.coverage.faces_needed,
                s.coverage.complete) == (cov["views"], cov["counted"], cov["faces_complete"], cov["faces_needed"],
                                         int(cov["complete"]))
        assert s.coverage.angular_score == f32(cov["angular_score"])
        assert (s.captures, s.selected_frames, s.warning_count) == (
            len(j["captures"]), len(j["selected_frames"]), len(j["warnings"]))
