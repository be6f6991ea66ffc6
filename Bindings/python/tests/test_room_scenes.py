"""The room scenes of _room_scenes.py checked on their own (no library): the PNG encoder against Pillow, the
renderer against hand-computed z-depths, the quaternions against scipy, the builders' ground truth and the
Stray Scanner folder's contents."""

from __future__ import annotations

import io
import math
import struct
import zlib

import numpy as np
import pytest

import _room_scenes as rs

FX, FY, CX, CY = rs.depth_intrinsics()[[0, 1, 0, 1], [0, 1, 2, 2]]


def png_chunks(data: bytes) -> list:
    """(tag, payload) of each chunk, checking the signature, lengths and CRCs."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = [], 8
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        tag, payload = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        assert crc == zlib.crc32(tag + payload) & 0xFFFFFFFF
        out.append((tag, payload))
        i += 12 + n
    assert i == len(data)
    return out


@pytest.mark.parametrize("png_filter", [0, 1, 2, 3, 4, "cycle", "adaptive"])
def test_png_writer_reads_back_with_pillow(png_filter) -> None:
    image_mod = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(5)
    smooth = (np.add.outer(np.arange(192) * 7, np.arange(256) * 11) % 65536).astype(np.uint16)
    cases = [
        rng.integers(0, 65536, (23, 37), dtype=np.uint16),
        np.array([[0, 65535, 256, 1]], dtype=np.uint16),
        smooth,
        rng.integers(0, 3, (192, 256), dtype=np.uint8),
        rng.integers(0, 256, (5, 1), dtype=np.uint8),
        rng.integers(0, 256, (9, 13, 3), dtype=np.uint8),
    ]
    for a in cases:
        data = rs.encode_png(a, png_filter, idat_size=97)
        chunks = png_chunks(data)
        assert [t for t, _ in chunks][0] == b"IHDR" and chunks[-1] == (b"IEND", b"")
        idat = [p for t, p in chunks if t == b"IDAT"]
        assert len(idat) == -(-len(b"".join(idat)) // 97)      # split as asked, all chunks but the last full
        w, h, bits, color = struct.unpack(">IIBB", chunks[0][1][:10])
        assert (h, w, bits) == (a.shape[0], a.shape[1], 8 * a.itemsize)
        img = image_mod.open(io.BytesIO(data))
        img.load()
        assert img.mode == {(2, 2): "I;16", (1, 2): "L", (1, 3): "RGB"}[(a.itemsize, a.ndim)]
        back = np.array(img)
        assert back.dtype == a.dtype and np.array_equal(back, a)


def test_png_rejects_what_it_cannot_write() -> None:
    with pytest.raises(TypeError):
        rs.encode_png(np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError):
        rs.encode_png(np.zeros((2, 2, 2), np.uint8))
    with pytest.raises(ValueError):
        rs.encode_png(np.zeros((2, 2), np.uint8), 5)


def test_level_camera_sees_floor_and_ceiling_at_hand_computed_depths() -> None:
    h, ceiling = 1.4, 2.6
    room = rs.Box([0.0, ceiling / 2, 0.0], [40.0, ceiling, 40.0], 0.3, "room")
    for yaw in (0.0, 1.0, -2.5):
        pose = np.eye(4)
        pose[:3, :3] = rs.rot_y(yaw)
        pose[:3, 3] = [0.3, h, -0.2]
        depth, label = rs.render([], room, pose)
        for v in (120, 150, 191):
            for u in (0, 97, 255):
                assert depth[v, u] == pytest.approx(h * FY / (v + 0.5 - CY), rel=1e-12)
                assert label[v, u] == rs.FLOOR
        for v in (0, 40):
            assert depth[v, 128] == pytest.approx((ceiling - h) * FY / (CY - v - 0.5), rel=1e-12)
            assert label[v, 128] == rs.CEILING


def test_pitched_camera_floor_depth_and_a_box_face() -> None:
    h = 1.5
    room = rs.Box([0.0, 1.25, 0.0], [30.0, 2.5, 30.0], 0.0, "room")
    pitch = math.radians(-25)
    pose = np.eye(4)
    pose[:3, :3] = rs.rot_x(pitch)
    pose[:3, 3] = [0.0, h, 0.0]
    depth, label = rs.render([], room, pose)
    for v, u in [(100, 10), (150, 128), (191, 255)]:
        ray = np.array([(u + 0.5 - CX) / FX, -(v + 0.5 - CY) / FY, -1.0])
        world = rs.rot_x(pitch) @ ray
        assert depth[v, u] == pytest.approx(-h / world[1], rel=1e-12)        # optical z of the ray is 1
        assert label[v, u] == rs.FLOOR
    box = rs.Box([0.0, h, -3.0], [1.0, 1.0, 1.0], 0.0, "cube")
    level = np.eye(4)
    level[:3, 3] = [0.0, h, 0.0]
    depth, label = rs.render([box], room, level)
    assert depth[96, 128] == pytest.approx(2.5, abs=1e-12) and label[96, 128] == 0
    # The face's silhouette spans x in [-0.5, 0.5] at z-depth 2.5: u = cx +- 0.5 fx / 2.5.
    cols = np.nonzero(label[96] == 0)[0]
    assert cols.min() == math.ceil(CX - 0.5 * FX / 2.5 - 0.5) and cols.max() == math.floor(CX + 0.5 * FX / 2.5 - 0.5)


def test_lidar_noise_range_and_flying_pixels() -> None:
    rng = np.random.default_rng(1)
    d = np.full((192, 256), 2.0)
    d[:, 200:] = 6.0
    d[60:120, 60:120] = 1.0                       # a foreground square with flying pixels around it
    out, conf = rs.lidar(d, rng)
    assert out.dtype == np.float32 and conf.dtype == np.uint8
    assert (out[:, 202:] == 0).all() and (conf[:, 202:] == 0).all()          # beyond 5 m: no return
    flat = out[130:, 10:190][conf[130:, 10:190] > 0]
    assert np.std(flat) == pytest.approx(0.002 * 4, rel=0.1) and abs(np.mean(flat) - 2.0) < 1e-3
    ring = np.zeros(d.shape, bool)
    ring[59:121, 59:121] = True
    ring[61:119, 61:119] = False
    fly = conf == 0
    fly[:, 195:] = False
    assert fly.sum() > 50 and (fly <= ring).all()
    assert ((out[fly] > 1.0) & (out[fly] < 2.0)).all()
    ones = np.mean(conf[130:, 10:190] == 1)
    assert 0.005 < ones < 0.06


def test_quaternions_match_scipy() -> None:
    rotation = pytest.importorskip("scipy.spatial.transform").Rotation
    rot = rotation.random(500, random_state=3)
    m = rot.as_matrix()
    q = rs.quaternion_from_matrix(m)
    ref = rot.as_quat()                                                         # (x, y, z, w)
    sign = np.sign(np.sum(q * ref, axis=1))
    assert np.allclose(q * sign[:, None], ref, atol=1e-12)
    assert np.allclose(rs.matrix_from_quaternion(q), m, atol=1e-12)
    # Nearly rigid float32 matrices (as ARKit's) give unit quaternions of their nearest rotation.
    noisy = (m + np.random.default_rng(0).normal(0, 2e-5, m.shape)).astype(np.float32)
    qn = rs.quaternion_from_matrix(noisy)
    assert np.allclose(np.linalg.norm(qn, axis=1), 1.0, atol=1e-12)
    assert np.allclose(rs.matrix_from_quaternion(qn), m, atol=1e-4)
    assert np.allclose(rs.matrix_from_quaternion(qn), rs.nearest_rotation(noisy), atol=1e-12)


@pytest.fixture(scope="module", params=sorted(rs.BUILDERS))
def scene(request) -> rs.Scene:
    return rs.BUILDERS[request.param](7)


def test_capture_arrays(scene) -> None:
    c = scene.capture
    ts, poses, ks, depths, confs = c.arrays()
    n = len(c)
    assert n == 150
    assert ts.dtype == np.int64 and poses.dtype == np.float32 and ks.dtype == np.float64
    assert depths.shape == (n, 192, 256) and depths.dtype == np.float32 and confs.dtype == np.uint8
    assert np.array_equal(ks, np.repeat(rs.RGB_K[None], n, 0))
    gaps = np.diff(ts) / 1e9
    assert (gaps > 0).all()
    double = np.nonzero(gaps > 1.5 / 60)[0] + 1
    assert np.array_equal(double, c.skipped) and 2 <= len(double) <= 4
    assert np.allclose(gaps[gaps < 1.5 / 60], 1 / 60, atol=0.0016)
    assert np.allclose(gaps[double - 1], 2 / 60, atol=0.0016)
    r = poses[:, :3, :3].astype(np.float64)
    err = np.abs(r @ np.transpose(r, (0, 2, 1)) - np.eye(3)).max()
    assert 1e-6 < err < 2e-4                                                  # nearly rigid, not exactly
    drift = np.linalg.norm(poses[:, :3, 3] - c.true_poses[:, :3, 3], axis=1)
    assert drift[0] < 1e-6 and 0.009 < drift.max() < 0.031
    assert set(np.unique(confs)) <= {0, 1, 2} and ((depths == 0) <= (confs == 0)).all()
    assert (depths <= rs.MAX_RANGE).all() and (depths >= 0).all()
    assert 0.9 < np.mean(confs == 2) < 0.99


def test_scene_ground_truth(scene) -> None:
    c = scene.capture
    eyes = c.true_poses[:, :3, 3]
    assert scene.floor_height == 0.0 and scene.room.bottom == pytest.approx(0.0, abs=1e-12)
    assert 2.4 <= scene.ceiling_height <= 2.8 and scene.ceiling_height == scene.room.top
    assert all(b.distance(eyes).min() >= 0.2 for b in scene.boxes)
    assert (np.abs(scene.room.to_local(eyes)) < scene.room.half - 0.29).all()
    assert all(b.bottom > -1e-12 for b in scene.boxes)
    # The capture's first camera is near the world's origin, as ARKit's.
    assert np.hypot(eyes[0, 0], eyes[0, 2]) < 0.25
    if scene.name == "room_walkthrough":
        assert scene.target is None and scene.support_height is None
        fwd = -c.true_poses[:, :3, 2]
        pitch = np.degrees(np.arcsin(fwd[:, 1]))
        assert (np.abs(pitch) <= 10.0 + 1e-9).all() and np.median(pitch) < 0
        assert ((eyes[:, 1] > 1.25) & (eyes[:, 1] < 1.65)).all()
        floor = c.labels == rs.FLOOR
        assert 0 < np.mean(floor) < 0.2
        assert np.median(c.depths[floor & (c.depths > 0)]) > 2.0                # seen far away, at grazing angles
        path = np.linalg.norm(eyes[-1] - eyes[0])
        assert path > 2.5
        return
    t = scene.target
    assert scene.boxes[scene.target_index] is t
    assert t.bottom == pytest.approx(scene.support_height, abs=1e-12)
    corners = t.corners()
    assert corners.shape == (8, 3)
    assert np.allclose(corners.mean(0), t.center) and np.allclose(corners[:, 1].min(), t.bottom)
    assert np.allclose(np.sort(np.linalg.norm(corners - t.center, axis=1)), np.linalg.norm(t.extents) / 2)
    rel = eyes - t.center
    radius = np.hypot(rel[:, 0], rel[:, 2])
    angle = np.unwrap(np.arctan2(rel[:, 2], rel[:, 0]))
    span = np.degrees(abs(angle[-1] - angle[0]))
    assert 195 < span < 335
    visible = np.mean(c.labels == scene.target_index, axis=(1, 2))
    assert (visible > 0.01).all()
    if scene.name == "object_on_table":
        assert scene.support_height == 0.75 and (t.extents >= 0.1).all() and (t.extents <= 0.3).all()
        assert ((radius > 0.45) & (radius < 0.85)).all()
        above = eyes[:, 1] - 0.75
        assert ((above > 0.25) & (above < 0.65)).all()
        top = next(b for b in scene.boxes if b.name == "table top")
        assert top.top == pytest.approx(0.75) and (np.abs(top.to_local(corners)[:, [0, 2]]) <= top.half[[0, 2]]).all()
        clutter = [b for b in scene.boxes if b.name == "clutter"]
        assert 1 <= len(clutter) <= 2 and all(b.bottom == pytest.approx(0.75) for b in clutter)
    else:
        assert scene.support_height == 0.0 and (t.extents >= 0.2).all() and (t.extents <= 0.5).all()
        assert ((radius > 0.75) & (radius < 1.25)).all()
        assert ((eyes[:, 1] > 0.55) & (eyes[:, 1] < 1.25)).all()
        other = scene.boxes[1]
        gap = np.hypot(*(other.center - t.center)[[0, 2]])
        assert (1.0 <= gap <= 1.5) if scene.name == "object_on_floor" else (0.7 <= gap <= 0.9)


def test_builders_are_deterministic() -> None:
    for build in rs.BUILDERS.values():
        a, b = build(11, n=20), build(11, n=20)
        for x, y in zip(a.capture.arrays(), b.capture.arrays()):
            assert np.array_equal(x, y)
        assert np.array_equal(a.capture.labels, b.capture.labels)
    assert not np.array_equal(a.capture.depths, build(12, n=20).capture.depths)


def test_stray_folder(tmp_path) -> None:
    image_mod = pytest.importorskip("PIL.Image")
    scene = rs.object_on_floor(2)
    c = scene.capture
    root = rs.write_stray(tmp_path / "stray", c, newer=True, drop_png=[3], cut_png=[5])
    k = np.loadtxt(root / "camera_matrix.csv", delimiter=",")
    assert np.array_equal(k, rs.RGB_K)
    lines = (root / "odometry.csv").read_text().splitlines()
    assert lines[0] == "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy"
    rows = [line.split(", ") for line in lines[1:]]
    assert [r[1] for r in rows] == [f"{i:06d}" for i in range(len(c))]
    seconds = [r[0] for r in rows]
    assert all(len(s.split(".")[1]) == 9 for s in seconds)
    assert [int(s.replace(".", "")) for s in seconds] == list(c.timestamps)
    values = np.array([[float(x) for x in r[2:]] for r in rows])
    assert np.allclose(np.linalg.norm(values[:, 3:7], axis=1), 1.0, atol=1e-8)
    opencv = c.poses.astype(np.float64) @ np.diag([1.0, -1.0, -1.0, 1.0])
    assert np.allclose(values[:, :3], opencv[:, :3, 3], atol=1e-9)
    assert np.allclose(rs.matrix_from_quaternion(values[:, 3:7]), opencv[:, :3, :3], atol=1e-4)
    assert np.allclose(values[:, 7:], [1600.0, 1600.0, 960.0, 720.0])
    mm = rs.depth_mm(c)
    for i in range(len(c)):
        conf = np.array(image_mod.open(root / "confidence" / f"{i:06d}.png"))
        assert np.array_equal(conf, c.confidences[i])
        path = root / "depth" / f"{i:06d}.png"
        if i == 3:
            assert not path.exists()
        elif i == 5:
            assert path.stat().st_size == len(rs.encode_png(mm[i])) // 2
        else:
            img = image_mod.open(path)
            assert img.mode == "I;16" and np.array_equal(np.array(img), mm[i])
    imu = (root / "imu.csv").read_text().splitlines()
    assert imu[0] == "timestamp, a_x, a_y, a_z, alpha_x, alpha_y, alpha_z" and len(imu) > 3
    acc = np.array([[float(x) for x in line.split(", ")[1:4]] for line in imu[1:]])
    world = np.einsum("nij,nj->ni", c.true_poses[:, :3, :3], acc)          # gravity points down, plus motion
    assert np.allclose(world[:, 1], -9.81, atol=3.0) and np.median(np.abs(world[:, [0, 2]])) < 5.0
    part = c.frames(slice(10, 20))
    assert np.array_equal(part.timestamps, c.timestamps[10:20]) and len(part) == 10
    older = rs.write_stray(tmp_path / "older", part, png_filter=0)
    lines = (older / "odometry.csv").read_text().splitlines()
    assert lines[0] == "timestamp, frame, x, y, z, qx, qy, qz, qw" and len(lines[1].split(", ")) == 9
    assert lines[1].split(", ")[1] == "000000" and len(list((older / "depth").iterdir())) == 10


def test_depth_mm_rounds_to_millimetres() -> None:
    scene = rs.two_objects(1, n=20)
    mm = rs.depth_mm(scene.capture)
    assert mm.dtype == np.uint16
    assert np.abs(mm / 1000.0 - scene.capture.depths).max() <= 0.0005 + 1e-6
    assert np.array_equal(mm == 0, scene.capture.depths == 0)
