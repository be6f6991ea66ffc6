"""Scans through the binding: fathom.Scan against scans written here with zlib, json and numpy (tests/_scan_files.py),
and fathom.ScanWriter's files decoded here the same way. Stored data must come back bit for bit in the documented
dtypes and shapes (poses rows as rows, intrinsics as 3 x 3 matrices), and a scan's frames must be the DepthFrames of
their own depth, intrinsics and pose.

Damage is made on purpose (cut, corrupt, trailing, disagreeing, empty, garbage, missing) and each case must
give its documented result: the whole frames kept with a warning naming the file, or a FathomError naming it.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import fathom
import _scan_files as scanfiles

SCAN_ID = "20240611_101530_1A2B3C"
W, H = 256, 192
FRAME_BYTES = W * H * 2  # float16


@pytest.fixture(scope="module")
def data() -> scanfiles.ScanData:
    return scanfiles.make_scan(np.random.default_rng(11), 10)


@pytest.fixture(scope="module")
def rigid_data() -> scanfiles.ScanData:
    """Poses rigid to float32 rounding (read back as written)."""
    return scanfiles.make_scan(np.random.default_rng(12), 6, drift=0.0)


@pytest.fixture(scope="module")
def written(tmp_path_factory, data) -> scanfiles.Written:
    return scanfiles.write(str(tmp_path_factory.mktemp("scan")), SCAN_ID, data)


def copy_scan(src: scanfiles.Written, dst) -> scanfiles.Written:
    """A private copy of a written scan, to damage."""
    shutil.copytree(src.directory, str(dst), dirs_exist_ok=True)
    out = scanfiles.Written(str(dst), src.scan_id)
    out.files = {k: os.path.join(str(dst), os.path.basename(v)) for k, v in src.files.items()}
    return out


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, shape and bytes (NaN payloads and -0 included)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_frames(scan: fathom.Scan, data: scanfiles.ScanData, count: int) -> None:
    """The first ``count`` frames of ``data``, bit for bit, and per-frame metadata as written."""
    assert len(scan) == count
    for i in range(count):
        assert same_bits(scan.depth(i), data.depth[i]), f"depth of frame {i}"
        if data.confidence is not None:
            assert same_bits(scan.confidence(i), data.confidence[i]), f"confidence of frame {i}"
    assert same_bits(scan.timestamps, data.timestamps[:count])
    k = scan.intrinsics
    np.testing.assert_array_equal(k[:, 0, 0], data.intrinsics[:count, 0].astype(np.float64))
    np.testing.assert_array_equal(k[:, 1, 1], data.intrinsics[:count, 1].astype(np.float64))
    np.testing.assert_array_equal(k[:, 0, 2], data.intrinsics[:count, 2].astype(np.float64))
    np.testing.assert_array_equal(k[:, 1, 2], data.intrinsics[:count, 3].astype(np.float64))


def warnings_about(scan: fathom.Scan, *words: str) -> list[str]:
    return [w for w in scan.warnings if all(word in w for word in words)]


# ------------------------------------------------------------------------------------------------
# Reading a whole scan
# ------------------------------------------------------------------------------------------------


def test_reads_what_an_independent_writer_wrote(written, data):
    with fathom.Scan.open(written.metadata) as scan:
        assert isinstance(scan, fathom.Scan)
        assert scan.id == SCAN_ID
        assert scan.path == written.metadata
        assert scan.depth_size == (W, H)
        assert scan.rgb_size == (1920, 1440)
        assert scan.depth_format == fathom.DepthFormat.FLOAT16
        assert scan.depth_scale == 1.0
        assert scan.has_confidence
        assert scan.frequency == 60.0
        assert scan.timestamps.dtype == np.int64 and scan.timestamps.shape == (data.n,)
        assert scan.poses.dtype == np.float64 and scan.poses.shape == (data.n, 4, 4)
        assert scan.intrinsics.dtype == np.float64 and scan.intrinsics.shape == (data.n, 3, 3)
        assert scan.depth(0).dtype == np.float16 and scan.depth(0).shape == (H, W)
        assert scan.confidence(0).dtype == np.uint8
        assert_frames(scan, data, data.n)
        # the camera matrix layout: [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]
        fx, fy, cx, cy = (float(v) for v in data.intrinsics[3])
        np.testing.assert_array_equal(scan.intrinsics[3], [[fx, 0, cx], [0, fy, cy], [0, 0, 1]])
        # the only warning: ARKit's drift repaired
        assert len(scan.warnings) == 1 and "re-orthonormalized" in scan.warnings[0], scan.warnings
        assert "frames=10" in repr(scan) and SCAN_ID in repr(scan)


@pytest.mark.parametrize("which", ["folder", "json", "depth", "confidence", "jsonl", "mp4"])
def test_opens_by_folder_metadata_or_any_file(written, data, which):
    path = written.directory if which == "folder" else written.files[which]
    with fathom.Scan(path) as scan:
        assert scan.path == path
        assert scan.id == SCAN_ID and len(scan) == data.n


def test_folder_with_several_scans_names_them(written, tmp_path):
    copy_scan(written, tmp_path)
    other = copy_scan(written, tmp_path / "x")
    for name in os.listdir(other.directory):
        os.rename(os.path.join(other.directory, name), os.path.join(str(tmp_path), name.replace(SCAN_ID, "20240611_111111_FFFF")))
    with pytest.raises(fathom.FathomError) as e:
        fathom.Scan(str(tmp_path))
    assert SCAN_ID in str(e.value) and "20240611_111111_FFFF" in str(e.value)
    assert len(fathom.Scan(os.path.join(str(tmp_path), "20240611_111111_FFFF.jsonl"))) == 10


def test_poses_come_back_rigid_and_close_to_arkits(written, data):
    """float32 ARKit matrices drift ~1e-4 from rigid: read back re-orthonormalized, within 1e-3 of the input."""
    scan = fathom.Scan(written.directory)
    p = scan.poses
    drift = np.abs(np.einsum("nji,njk->nik", data.poses[:, :3, :3].astype(np.float64), data.poses[:, :3, :3]) - np.eye(3)).max()
    assert 3e-5 < drift < 1e-3  # the input really is off rigid
    r = p[:, :3, :3]
    np.testing.assert_allclose(np.einsum("nji,njk->nik", r, r), np.broadcast_to(np.eye(3), r.shape), atol=2e-6)
    np.testing.assert_allclose(np.linalg.det(r), 1.0, atol=2e-6)
    np.testing.assert_allclose(p, data.poses.astype(np.float64), atol=1e-3)
    np.testing.assert_array_equal(p[:, :3, 3], data.poses[:, :3, 3].astype(np.float64))  # translation kept
    np.testing.assert_array_equal(p[:, 3], np.broadcast_to([0.0, 0, 0, 1], (data.n, 4)))
    assert "10 camera poses were re-orthonormalized" in scan.warnings[0]


def test_rigid_poses_come_back_as_written(tmp_path, rigid_data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, rigid_data)
    scan = fathom.Scan(w.metadata)
    np.testing.assert_array_equal(scan.poses, rigid_data.poses.astype(np.float64))
    assert scan.warnings == []
    pose = scan.pose(2)
    assert isinstance(pose, fathom.Pose)
    np.testing.assert_array_equal(pose.matrix, rigid_data.poses[2])


@pytest.mark.parametrize("wrapped", [False, True])
def test_random_access_in_any_order_equals_sequential(tmp_path, wrapped):
    # 60 frames (5.9 MB of depth): past one 4 MiB checkpoint, so reads start from either
    data = scanfiles.make_scan(np.random.default_rng(21), 60, confidence=False)
    w = scanfiles.write(str(tmp_path), SCAN_ID, data, wrapped=wrapped)
    scan = fathom.Scan(w.metadata)
    assert not scan.has_confidence
    rng = np.random.default_rng(22)
    order = np.concatenate([rng.permutation(60), [59, 0, 59, 30, 29, 31, 31]])
    for i in order:
        assert same_bits(scan.depth(int(i)), data.depth[i]), f"frame {i}"
    sequential = [scan.depth(i) for i in range(60)]
    assert all(same_bits(a, b) for a, b in zip(sequential, data.depth))


def test_negative_indices_iteration_and_range(written, data):
    scan = fathom.Scan(written.directory)
    assert same_bits(scan.depth(-1), data.depth[-1])
    assert same_bits(scan.confidence(-data.n), data.confidence[0])
    frames = list(scan)
    assert len(frames) == data.n and all(isinstance(f, fathom.DepthFrame) for f in frames)
    assert same_bits(frames[4].depth, data.depth[4])
    assert same_bits(scan[-2].depth, data.depth[-2])
    assert [same_bits(f.depth, data.depth[i]) for f, i in zip(scan[1:7:3], (1, 4))] == [True, True]
    for bad in (data.n, -data.n - 1, 10**12):
        with pytest.raises(IndexError, match="out of range"):
            scan.depth(bad)
        with pytest.raises(IndexError):
            scan.frame(bad)
        with pytest.raises(IndexError):
            scan.confidence(bad)
    with pytest.raises(TypeError):
        scan.depth(1.0)
    with pytest.raises(TypeError):
        scan.depth(True)
    assert same_bits(scan.depth(np.int64(3)), data.depth[3])


def test_pickles_by_path(written, data):
    scan = fathom.Scan.open(written.directory)
    again = pickle.loads(pickle.dumps(scan))
    assert isinstance(again, fathom.Scan) and again is not scan
    assert again.path == written.directory and again.id == scan.id and len(again) == len(scan)
    assert same_bits(again.depth(7), data.depth[7])
    assert same_bits(again.timestamps, scan.timestamps)
    assert scan.__reduce__() == (fathom.Scan.open, (written.directory, False))


def test_index_while_reading_reads_the_same_frames_and_pickles_with_it(written, data):
    scan = fathom.Scan(written.metadata, index_while_reading=True)
    assert scan.index_while_reading and not fathom.Scan(written.metadata).index_while_reading
    assert "indexed while reading" in repr(scan)
    assert_frames(scan, data, data.n)
    assert same_bits(scan.depth(3), data.depth[3])  # behind the frames read: from a checkpoint or the start
    again = pickle.loads(pickle.dumps(scan))
    assert again.index_while_reading and same_bits(again.depth(data.n - 1), data.depth[-1])
    assert fathom.Scan.open(written.directory, index_while_reading=True).index_while_reading


def test_index_while_reading_finds_a_cut_when_a_read_reaches_it(tmp_path, written, data):
    raw = open(written.files["depth"], "rb").read()
    work = copy_scan(written, tmp_path)
    cut = (prefix_for(raw, 4 * FRAME_BYTES) + prefix_for(raw, 5 * FRAME_BYTES)) // 2
    with open(work.files["depth"], "wb") as f:
        f.write(raw[:cut])
    whole = len(zlib.decompressobj(-15).decompress(raw[:cut])) // FRAME_BYTES  # independent count
    assert 0 < whole < data.n
    scan = fathom.Scan(work.metadata, index_while_reading=True)
    assert len(scan) == data.n and not warnings_about(scan, "cut")  # the count listed; the cut not yet found
    for i in range(whole):
        assert same_bits(scan.depth(i), data.depth[i]), f"frame {i}"
    with pytest.raises(fathom.FormatError, match=f"frame {whole} is not in the stream") as e:
        scan.depth(whole)
    assert os.path.basename(work.files["depth"]) in str(e.value) and "cut" in str(e.value)
    with pytest.raises(fathom.FormatError):
        scan.frame(data.n - 1)


def test_closed_scan_refuses_use(written):
    scan = fathom.Scan(written.directory)
    scan.close()
    scan.close()
    assert scan.closed and "<closed>" in repr(scan)
    with pytest.raises(fathom.ClosedHandleError):
        scan.depth(0)
    with pytest.raises(fathom.ClosedHandleError):
        len(scan)


def test_frame_is_the_depth_frame_of_its_own_data(tmp_path, rigid_data):
    """scan.frame(i): the stored depth and confidence, the frame's RGB intrinsics and its pose, with the thresholds
    given: the points of a DepthFrame made from the data as written."""
    w = scanfiles.write(str(tmp_path), SCAN_ID, rigid_data)
    scan = fathom.Scan(w.metadata)
    for i in (0, 5):
        frame = scan.frame(i, min_confidence=1, max_depth=3.0)
        assert frame.shape == (H, W) and frame.format == fathom.DepthFormat.FLOAT16
        assert same_bits(frame.depth, rigid_data.depth[i]) and same_bits(frame.confidence, rigid_data.confidence[i])
        fx, fy, cx, cy = (float(x) for x in rigid_data.intrinsics[i])
        assert frame.intrinsics == fathom.Intrinsics(fx, fy, cx, cy, 1920, 1440)
        expected = fathom.DepthFrame(rigid_data.depth[i], frame.intrinsics, confidence=rigid_data.confidence[i],
                                     min_confidence=1, max_depth=3.0, pose=rigid_data.poses[i].astype(np.float64))
        points, pixels = frame.backproject("world", pixels=True)
        want_points, want_pixels = expected.backproject("world", pixels=True)
        np.testing.assert_array_equal(pixels, want_pixels)
        np.testing.assert_array_equal(points, want_points)
        assert 0.5 * frame.depth.size < len(points) < frame.depth.size  # the thresholds take some samples out


def test_frame_without_confidence_and_thresholds(tmp_path):
    data = scanfiles.make_scan(np.random.default_rng(31), 2, confidence=False)
    w = scanfiles.write(str(tmp_path), SCAN_ID, data)
    scan = fathom.Scan(w.metadata)
    frame = scan.frame(1, min_depth=1.0)
    assert frame.confidence is None
    d = data.depth[1].astype(np.float32)
    assert frame.count() == int(np.count_nonzero((d > 0) & (d >= 1.0)))
    with pytest.raises(fathom.NoDataError, match="confidence"):
        scan.confidence(0)


def test_threads_read_one_scan_at_once(written, data):
    scan = fathom.Scan(written.directory)
    barrier = threading.Barrier(4)

    def work(seed: int) -> list[int]:
        rng = np.random.default_rng(seed)
        barrier.wait()
        bad = []
        for i in rng.integers(0, data.n, size=25):
            i = int(i)
            if not (same_bits(scan.depth(i), data.depth[i]) and same_bits(scan.confidence(i), data.confidence[i])):
                bad.append(i)
            f = scan.frame(i)
            if not same_bits(f.depth, data.depth[i]):
                bad.append(i)
        return bad

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(work, range(4)))
    assert results == [[], [], [], []]


def test_uint16_millimetres(tmp_path):
    """Android-style depth: uint16 millimetres ("encoding":"uint16_zlib","depth_unit":"mm")."""
    data = scanfiles.make_scan(np.random.default_rng(41), 4)
    mm = np.round(data.depth.astype(np.float64) * 1000).astype(np.uint16)
    data.depth = mm
    w = scanfiles.write(str(tmp_path), SCAN_ID, data, depth_encoding="uint16_zlib", depth_unit="mm")
    scan = fathom.Scan(w.metadata)
    assert scan.depth_format == fathom.DepthFormat.UINT16
    assert scan.depth_scale == np.float32(0.001)
    for i in range(4):
        meters = scan.depth(i)
        assert meters.dtype == np.float32
        assert same_bits(meters, mm[i].astype(np.float32) * np.float32(0.001))
        assert same_bits(scan.depth(i, raw=True), mm[i])
    frame = scan.frame(2)
    assert frame.format == fathom.DepthFormat.UINT16 and frame.scale == pytest.approx(0.001)
    pts = frame.backproject("optical")
    valid = mm[2] > 0
    np.testing.assert_allclose(np.sort(pts[:, 2]), np.sort(mm[2][valid] * 0.001), rtol=1e-6)


def test_float32_depth(tmp_path):
    data = scanfiles.make_scan(np.random.default_rng(42), 3)
    data.depth = data.depth.astype(np.float32) + np.float32(1e-4)
    w = scanfiles.write(str(tmp_path), SCAN_ID, data)
    scan = fathom.Scan(w.metadata)
    assert scan.depth_format == fathom.DepthFormat.FLOAT32
    assert_frames(scan, data, 3)


def test_zlib_wrapped_streams(tmp_path, data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, data, wrapped=True)
    with open(w.files["depth"], "rb") as f:
        assert f.read(1)[0] & 0x0F == 8  # a zlib header
    scan = fathom.Scan(w.metadata)
    assert_frames(scan, data, data.n)
    assert not warnings_about(scan, "zlib")


def test_timestamps_beyond_double_precision(tmp_path):
    """A device up for more than 104 days: ns since boot > 2^53 must come back exactly."""
    rng = np.random.default_rng(43)
    data = scanfiles.make_scan(rng, 3)
    data.timestamps = scanfiles.timestamps(rng, 3, t0=2**62 + 12345)
    w = scanfiles.write(str(tmp_path), SCAN_ID, data)
    scan = fathom.Scan(w.metadata)
    assert scan.timestamps.tolist() == data.timestamps.tolist()


def test_blank_lines_and_unknown_keys(tmp_path, data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, data,
                  extra=',"quaternion":[1,0,0,0],"note":{"a":[1,2,{"b":null}]},"euler_angles":[0.1,0.2,0.3]')
    with open(w.files["jsonl"]) as f:
        lines = f.read().splitlines()
    text = "\n" + "\n\n".join(lines[:3]) + "\n   \r\n\t\n" + "\n".join(lines[3:]) + "\n\n"
    with open(w.files["jsonl"], "w") as f:
        f.write(text)
    scan = fathom.Scan(w.metadata)
    assert_frames(scan, data, data.n)
    np.testing.assert_allclose(scan.poses, data.poses, atol=1e-3)


def test_metadata_without_rgb_size_takes_twice_the_principal_point(tmp_path, data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, data)
    meta = json.load(open(w.metadata))
    meta["streams"] = [s for s in meta["streams"] if s["type"] != "color_camera"]
    json.dump(meta, open(w.metadata, "w"))
    scan = fathom.Scan(w.metadata)
    cx, cy = data.intrinsics[0, 2:]
    assert scan.rgb_size == (round(2 * float(cx)), round(2 * float(cy)))
    assert warnings_about(scan, "RGB image size")


# ------------------------------------------------------------------------------------------------
# Damage
# ------------------------------------------------------------------------------------------------


def prefix_for(raw: bytes, out_bytes: int) -> int:
    """The shortest prefix of a raw DEFLATE stream that zlib inflates to at least ``out_bytes`` bytes."""
    lo, hi = 0, len(raw)
    while lo < hi:
        mid = (lo + hi) // 2
        if len(zlib.decompressobj(-15).decompress(raw[:mid])) >= out_bytes:
            hi = mid
        else:
            lo = mid + 1
    return lo


def test_stream_cut_at_every_frame_boundary_and_mid_frame(tmp_path, written, data):
    """A recording cut short: the whole frames zlib can inflate from what is left are kept, with warnings."""
    raw = open(written.files["depth"], "rb").read()
    ends = [prefix_for(raw, k * FRAME_BYTES) for k in range(1, data.n + 1)]
    cuts = set()
    for k, end in enumerate(ends, start=1):
        cuts.update({end, end - 1})
        if k < data.n:
            cuts.add((end + ends[k]) // 2)
    work = copy_scan(written, tmp_path)
    for cut in sorted(cuts):
        if cut >= len(raw):
            continue
        with open(work.files["depth"], "wb") as f:
            f.write(raw[:cut])
        whole = len(zlib.decompressobj(-15).decompress(raw[:cut])) // FRAME_BYTES  # independent count
        if whole == 0:
            with pytest.raises(fathom.FormatError) as e:
                fathom.Scan(work.metadata)
            assert work.files["depth"] in str(e.value) and "no whole frame" in str(e.value)
            continue
        scan = fathom.Scan(work.metadata)
        assert_frames(scan, data, whole)
        assert warnings_about(scan, os.path.basename(work.files["depth"]), "cut"), (cut, scan.warnings)
        if whole < data.n:
            assert warnings_about(scan, "frame counts disagree", f"{whole} frames are read")


def test_camera_info_cut_mid_line_keeps_the_whole_lines(tmp_path, written, data):
    work = copy_scan(written, tmp_path)
    text = open(work.files["jsonl"], "rb").read()
    last = text.rstrip(b"\n").rfind(b"\n") + 1
    with open(work.files["jsonl"], "wb") as f:
        f.write(text[: last + 57])  # line 10 cut after 57 bytes, no newline
    scan = fathom.Scan(work.metadata)
    assert_frames(scan, data, data.n - 1)
    assert warnings_about(scan, os.path.basename(work.files["jsonl"]), "cut", "10")


def test_corrupt_byte_after_a_flush_keeps_the_frames_before(tmp_path, written, data):
    """A writer that flushes its compressor (a sync point: empty stored block 00 00 FF FF) after frame 6, then a
    damaged byte where the next block starts: inflate fails there; the 6 frames before it are kept intact."""
    frames = data.depth.tobytes()
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    head = c.compress(frames[: 6 * FRAME_BYTES]) + c.flush(zlib.Z_SYNC_FLUSH)
    assert head.endswith(b"\x00\x00\xff\xff")
    tail = c.compress(frames[6 * FRAME_BYTES:]) + c.flush()
    assert zlib.decompress(head + tail, -15) == frames
    damaged = bytearray(head + tail)
    damaged[len(head)] |= 0b110  # block type 3: invalid
    work = copy_scan(written, tmp_path)
    with open(work.files["depth"], "wb") as f:
        f.write(damaged)
    with pytest.raises(zlib.error):
        zlib.decompress(bytes(damaged), -15)
    scan = fathom.Scan(work.metadata)
    assert_frames(scan, data, 6)
    (warning,) = warnings_about(scan, os.path.basename(work.files["depth"]), "corrupt", "invalid block type")
    near = int(re.search(r"near byte (\d+)", warning).group(1))
    assert len(head) <= near <= len(head) + 2, warning
    assert warnings_about(scan, "frame counts disagree", "6 frames are read")


# Most changed bytes go unnoticed by inflate (a different literal, or a desync that resynchronizes): seeds 0-5 give
# streams that end with a partial frame or the same length; 20, 145, 189 and 317 make inflate fail (bad code sets).
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5, 20, 145, 189, 317])
def test_corrupt_byte_anywhere(tmp_path, written, data, seed):
    """A byte changed at random in the middle of the depth stream. Raw DEFLATE has no checksum, so the damage shows
    only where inflate fails or the stream's length stops making sense. Whatever fathom keeps is what zlib itself
    inflates (never more), frames before the damage are intact, and detectable damage is always a warning."""
    raw = open(written.files["depth"], "rb").read()
    rng = np.random.default_rng(100 + seed)
    pos = int(rng.integers(len(raw) // 4, 3 * len(raw) // 4))
    damaged = bytearray(raw)
    damaged[pos] ^= int(rng.integers(1, 256))
    work = copy_scan(written, tmp_path)
    with open(work.files["depth"], "wb") as f:
        f.write(damaged)
    intact = len(zlib.decompressobj(-15).decompress(raw[:pos])) // FRAME_BYTES  # frames inflated before the damage
    d = zlib.decompressobj(-15)
    try:
        out, error = d.decompress(bytes(damaged)), None
    except zlib.error as e:
        out, error = None, e
    name = os.path.basename(work.files["depth"])
    try:
        scan = fathom.Scan(work.metadata)
    except fathom.FathomError as e:
        assert error is not None and work.files["depth"] in str(e)
        return
    n = len(scan)
    if error is not None:
        # inflate found it: only frames inflated before the damaged block, all of them intact
        assert warnings_about(scan, name, "corrupt")
        assert n <= data.n
        assert_frames(scan, data, n)
    else:
        whole = min(len(out) // FRAME_BYTES, data.n)
        assert n == whole
        for i in range(n):
            assert scan.depth(i).tobytes() == out[i * FRAME_BYTES:(i + 1) * FRAME_BYTES]
        if not d.eof:
            assert warnings_about(scan, name, "cut")
        elif len(out) % FRAME_BYTES or d.unused_data:
            assert warnings_about(scan, name, "corrupt") or warnings_about(scan, name, "after the end")
    for i in range(min(intact, n)):
        assert same_bits(scan.depth(i), data.depth[i])


def test_corrupt_zlib_wrapped_stream_fails_its_checksum(tmp_path, data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, data, wrapped=True)
    raw = bytearray(open(w.files["depth"], "rb").read())
    raw[len(raw) // 2] ^= 0x01
    with open(w.files["depth"], "wb") as f:
        f.write(raw)
    try:
        zlib.decompress(bytes(raw))
        pytest.fail("zlib did not notice")
    except zlib.error:
        pass
    scan = fathom.Scan(w.metadata)
    name = os.path.basename(w.files["depth"])
    assert warnings_about(scan, name, "corrupt")
    body = zlib.decompressobj(-15)
    try:
        out = body.decompress(bytes(raw[2:-4]))  # the DEFLATE data without the zlib header and checksum
    except zlib.error:
        out = None
    if out is not None and body.eof:  # inflate itself found nothing: the checksum did
        assert warnings_about(scan, name, "checksum")
        assert len(scan) == min(len(out) // FRAME_BYTES, data.n)
        for i in range(len(scan)):  # every frame readable, the last one included
            assert scan.depth(i).tobytes() == out[i * FRAME_BYTES:(i + 1) * FRAME_BYTES]


def test_trailing_bytes_after_the_stream(tmp_path, written, data):
    work = copy_scan(written, tmp_path)
    with open(work.files["depth"], "ab") as f:
        f.write(b"\x00garbage after the end" * 10)
    scan = fathom.Scan(work.metadata)
    assert_frames(scan, data, data.n)
    assert warnings_about(scan, os.path.basename(work.files["depth"]), "220 bytes after the end")


def test_counts_disagree_shortest_wins(tmp_path, data):
    """Depth 10 frames, confidence 9, camera info 8 lines, metadata 12: 8 frames, one warning listing every count
    (the streams are indexed only as far as the camera info can use: "more than 8")."""
    short = scanfiles.ScanData(data.timestamps[:8], data.poses[:8], data.intrinsics[:8], data.depth, data.confidence[:9])
    w = scanfiles.write(str(tmp_path), SCAN_ID, short, meta_counts=(12, 12, 12))
    scan = fathom.Scan(w.metadata)
    assert_frames(scan, data, 8)
    (warning,) = warnings_about(scan, "frame counts disagree")
    # A stream is indexed in steps: one that ends within the step past the 8th frame is counted whole.
    for part in (r"depth\.zlib frames: (10|more than 8),", r"confidence\.zlib frames: (9|more than 8),", "jsonl lines: 8,",
                 ": 12", "8 frames are read"):
        assert re.search(part, warning), warning
    for stream in ("depth", "confidence"):
        if f"{os.path.basename(w.files[stream])} frames: more than 8" in warning:
            assert warnings_about(scan, os.path.basename(w.files[stream]), "holds more than the 8 frames the scan can use")


def test_metadata_count_smaller_than_the_files(tmp_path, data):
    w = scanfiles.write(str(tmp_path), SCAN_ID, data, meta_counts=(7, 10, 10))
    scan = fathom.Scan(w.metadata)
    assert_frames(scan, data, 7)
    assert warnings_about(scan, "metadata number_of_frames of depth_back_1: 7", "7 frames are read")


@pytest.mark.parametrize("which", ["json", "depth", "confidence", "jsonl"])
@pytest.mark.parametrize("damage", ["empty", "garbage", "missing"])
def test_empty_garbage_or_missing_file_is_an_error_naming_it(tmp_path, written, which, damage):
    work = copy_scan(written, tmp_path)
    path = work.files[which]
    if damage == "missing":
        os.remove(path)
    else:
        with open(path, "wb") as f:
            f.write(b"" if damage == "empty" else np.random.default_rng(7).bytes(4096))
    with pytest.raises(fathom.FathomError) as e:
        fathom.Scan(work.metadata)
    assert path in str(e.value)
    expected = {"missing": fathom.FathomIOError}.get(damage, (fathom.FormatError, fathom.ParseError))
    assert isinstance(e.value, expected), e.value


def test_missing_path_and_not_a_scan_folder(tmp_path):
    with pytest.raises(fathom.FathomIOError, match="nowhere"):
        fathom.Scan(str(tmp_path / "nowhere"))
    with pytest.raises(fathom.FormatError, match="holds no scan"):
        fathom.Scan(str(tmp_path))
    with pytest.raises(TypeError):
        fathom.Scan(42)


@pytest.mark.parametrize(
    "content, words",
    [
        ('{"frames":[{"file_path":"a.png","transform_matrix":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}', ["streams"]),
        ("[1, 2, 3]", ["metadata"]),
        ('{"streams":[{"id":"color_back_1","type":"color_camera","resolution":[1440,1920]}]}', ["no depth stream"]),
        ('{"streams":[{"type":"lidar_sensor","resolution":[192,256]}]}', ["no camera info stream"]),
        ('{"streams":[{"type":"lidar_sensor","resolution":[192]},{"type":"camera_info"}]}', ["resolution"]),
        ('{"streams":[{"type":"lidar_sensor","encoding":"png","resolution":[192,256]},{"type":"camera_info"}]}',
         ["encoding", "png"]),
        ('{"streams":[{"type":"lidar_sensor","encoding":"uint16_zlib","depth_unit":"furlong","resolution":[192,256]},'
         '{"type":"camera_info"}]}', ["depth_unit", "furlong"]),
        ('{"streams":[{"type":"lidar_sensor","resolution":[192,256]},{"type":"camera_info"}],}', ["byte"]),
        # an extension is a file beside the metadata: none leads out of the folder
        ('{"streams":[{"type":"lidar_sensor","resolution":[192,256]},'
         '{"type":"camera_info","file_extension":"/../../etc/passwd"}]}', ["file_extension", "'/'"]),
        # a frame of 65535 x 65535 float16 is 8.6 GB, from a deflate stream a thousandth of that: refused up front
        ('{"streams":[{"type":"lidar_sensor","resolution":[65535,65535]},{"type":"camera_info"}]}',
         ["65535 x 65535", "4194304 pixels"]),
    ],
)
def test_metadata_that_is_not_a_scan(tmp_path, written, content, words):
    work = copy_scan(written, tmp_path)
    with open(work.metadata, "w") as f:
        f.write(content)
    with pytest.raises((fathom.FormatError, fathom.ParseError)) as e:
        fathom.Scan(work.metadata)
    assert work.metadata in str(e.value)
    for word in words:
        assert word in str(e.value), str(e.value)


@pytest.mark.parametrize(
    "line, key, error",
    [
        ('{"timestamp":"soon","intrinsics":[1,0,0,0,1,0,1,1,1],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}',
         "timestamp", fathom.FormatError),
        ('{"intrinsics":[1,0,0,0,1,0,1,1,1],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}', "timestamp", fathom.FormatError),
        ('{"timestamp":5,"intrinsics":[1,0,0,0,1,0,1,1],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}',
         "intrinsics", fathom.FormatError),
        ('{"timestamp":5,"intrinsics":[1,0,0,0,1,0,1,1,1],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0]}',
         "transform", fathom.FormatError),
        ('{"timestamp":5,"intrinsics":[1,0,0,0,1,0,1,1,1],"transform":[2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,1]}',
         "transform", fathom.FathomError),
        ('{"timestamp":5,"intrinsics":[1,0,0,0,1,0,1,1,1],"transform":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],}', "byte",
         fathom.ParseError),
    ],
)
def test_camera_info_bad_line_names_line_and_key(tmp_path, written, line, key, error):
    work = copy_scan(written, tmp_path)
    lines = open(work.files["jsonl"]).read().splitlines()
    lines[4] = line
    with open(work.files["jsonl"], "w") as f:
        f.write("\n".join(lines) + "\n")
    with pytest.raises(error) as e:
        fathom.Scan(work.metadata)
    message = str(e.value)
    assert work.files["jsonl"] in message and "line 5" in message and key in message, message


# ------------------------------------------------------------------------------------------------
# Writing
# ------------------------------------------------------------------------------------------------


def test_writer_files_decoded_independently(tmp_path, rigid_data):
    d = rigid_data
    with fathom.ScanWriter(str(tmp_path), SCAN_ID) as writer:
        for i in range(d.n):
            k = fathom.Intrinsics(*(float(v) for v in d.intrinsics[i]), 1920, 1440) if i % 2 else d.k_matrix(i)
            pose = fathom.Pose(d.poses[i]) if i % 2 else d.poses[i].astype(np.float64)
            writer.append(int(d.timestamps[i]), k, pose, d.depth[i], d.confidence[i])
        assert writer.count == d.n
    dec = scanfiles.decode(str(tmp_path), SCAN_ID)
    assert dec.depth_complete and not dec.depth_wrapped  # raw DEFLATE, as the app writes
    assert dec.depth_bytes == d.depth.tobytes()
    assert dec.confidence_bytes == d.confidence.tobytes()
    assert [line["timestamp"] for line in dec.lines] == d.timestamps.tolist()
    for i, line in enumerate(dec.lines):
        fx, fy, cx, cy = d.intrinsics[i]
        assert np.array_equal(np.float32(line["intrinsics"]), np.float32([fx, 0, 0, 0, fy, 0, cx, cy, 1]))
        assert np.array_equal(np.float32(line["transform"]), d.poses[i].T.reshape(16))  # column-major, exact
    streams = {s["type"]: s for s in dec.meta["streams"]}
    assert streams["lidar_sensor"]["resolution"] == [H, W]
    assert streams["lidar_sensor"]["encoding"] == "float16_zlib"
    assert streams["lidar_sensor"]["file_extension"] == "depth.zlib"
    assert streams["color_camera"]["resolution"] == [1440, 1920]
    assert streams["confidence_map"]["encoding"] == "uint8_zlib"
    assert streams["camera_info"]["encoding"] == "jsonl"
    assert all(s["number_of_frames"] == d.n and s["frequency"] == 60 for s in dec.meta["streams"])
    # and fathom reads it back bit for bit
    scan = fathom.Scan(str(tmp_path))
    assert_frames(scan, d, d.n)
    np.testing.assert_array_equal(scan.poses, d.poses.astype(np.float64))
    assert scan.warnings == []


@pytest.mark.parametrize("fmt", ["uint16", "float32"])
def test_writer_other_depth_formats_and_zlib_wrapping(tmp_path, rigid_data, fmt):
    d = rigid_data
    depth = (np.round(d.depth.astype(np.float64) * 1000).astype(np.uint16) if fmt == "uint16"
             else d.depth.astype(np.float32) * np.float32(1.001))
    with fathom.ScanWriter(str(tmp_path), SCAN_ID, depth_format=fmt, confidence=False, zlib_wrapped=True,
                           frequency=59.94) as writer:
        for i in range(d.n):
            writer.append(int(d.timestamps[i]), d.k_matrix(i), d.poses[i], depth[i])
    dec = scanfiles.decode(str(tmp_path), SCAN_ID)
    assert dec.depth_wrapped and dec.depth_complete
    assert dec.depth_bytes == depth.astype(depth.dtype.newbyteorder("<")).tobytes()
    assert dec.confidence_bytes is None
    assert not os.path.exists(os.path.join(str(tmp_path), SCAN_ID + ".confidence.zlib"))
    (depth_stream,) = [s for s in dec.meta["streams"] if s["type"] == "lidar_sensor"]
    assert depth_stream["encoding"] == f"{fmt}_zlib"
    assert depth_stream.get("depth_unit") == ("mm" if fmt == "uint16" else None)
    assert depth_stream["frequency"] == 59.94
    assert not [s for s in dec.meta["streams"] if s["type"] == "confidence_map"]
    scan = fathom.Scan(str(tmp_path))
    for i in range(d.n):
        assert same_bits(scan.depth(i, raw=True), depth[i])


def test_writer_converts_float_depth_to_float16_explicitly(tmp_path, rigid_data):
    d = rigid_data
    meters = d.depth.astype(np.float64) + 0.00037  # float64: one explicit conversion to float16
    with fathom.ScanWriter(str(tmp_path), SCAN_ID, confidence=False) as writer:
        for i in range(2):
            writer.append(int(d.timestamps[i]), d.k_matrix(i), d.poses[i], meters[i])
            writer.append(int(d.timestamps[i]) + 1, d.k_matrix(i), d.poses[i], meters[i].astype(np.float32).tolist())
    dec = scanfiles.decode(str(tmp_path), SCAN_ID)
    want = np.concatenate([np.stack([m.astype(np.float16), m.astype(np.float32).astype(np.float16)]) for m in meters[:2]])
    assert dec.depth_bytes == want.tobytes()


def test_writer_refuses_bad_frames_and_writes_nothing_for_them(tmp_path, rigid_data):
    d = rigid_data
    writer = fathom.ScanWriter(str(tmp_path), SCAN_ID)
    k, p = d.k_matrix(0), d.poses[0]
    writer.append(int(d.timestamps[1]), k, p, d.depth[0], d.confidence[0])
    with pytest.raises(fathom.OutOfRangeError, match="earlier"):
        writer.append(int(d.timestamps[0]), k, p, d.depth[1], d.confidence[1])
    bad_conf = d.confidence[1].copy()
    bad_conf[3, 7] = 3
    with pytest.raises(fathom.OutOfRangeError, match=r"confidence\[775\] is 3"):
        writer.append(int(d.timestamps[2]), k, p, d.depth[1], bad_conf)
    with pytest.raises(fathom.NotRigidError):
        writer.append(int(d.timestamps[2]), k, np.diag([2.0, 2.0, 2.0, 1.0]), d.depth[1], d.confidence[1])
    with pytest.raises(ValueError, match="shape"):
        writer.append(int(d.timestamps[2]), k, p, d.depth[1][:, :100], d.confidence[1])
    with pytest.raises(fathom.NullPointerError, match="confidence"):
        writer.append(int(d.timestamps[2]), k, p, d.depth[1])
    with pytest.raises(TypeError):
        writer.append(float(d.timestamps[2]), k, p, d.depth[1], d.confidence[1])
    with pytest.raises(ValueError, match="1920x1440"):
        writer.append(int(d.timestamps[2]), fathom.Intrinsics(200, 200, 128, 96, 256, 192), p, d.depth[1], d.confidence[1])
    with pytest.raises(fathom.OutOfRangeError):
        writer.append(int(d.timestamps[2]), np.diag([0.0, 1600.0, 1.0]), p, d.depth[1], d.confidence[1])
    writer.append(int(d.timestamps[2]), k, p, d.depth[2], d.confidence[2])
    writer.finish()
    with pytest.raises(fathom.InvalidStateError):
        writer.append(int(d.timestamps[3]), k, p, d.depth[3], d.confidence[3])
    writer.close()
    dec = scanfiles.decode(str(tmp_path), SCAN_ID)
    assert dec.depth_bytes == d.depth[0].tobytes() + d.depth[2].tobytes()
    assert [line["timestamp"] for line in dec.lines] == [int(d.timestamps[1]), int(d.timestamps[2])]
    assert {s["number_of_frames"] for s in dec.meta["streams"]} == {2}


def test_writer_bad_settings(tmp_path):
    for scan_id in ("a/b", "a.b", ""):
        with pytest.raises(fathom.OutOfRangeError, match="scan_id"):
            fathom.ScanWriter(str(tmp_path), scan_id)
    with pytest.raises(fathom.OutOfRangeError, match="depth width"):
        fathom.ScanWriter(str(tmp_path), SCAN_ID, depth_size=(0, 192))
    # the reader's limit: 2048 x 2048 is the largest frame; 32768 x 32768 float32 frames would be 4 GiB each
    fathom.ScanWriter(str(tmp_path), SCAN_ID, depth_size=(2048, 2048)).close()
    for size in ((2049, 2048), (32768, 32768)):
        with pytest.raises(fathom.OutOfRangeError, match="4194304 pixels"):
            fathom.ScanWriter(str(tmp_path), SCAN_ID, depth_size=size, depth_format="float32")
    with pytest.raises(fathom.OutOfRangeError, match="frequency"):
        fathom.ScanWriter(str(tmp_path), SCAN_ID, frequency=-1)
    with pytest.raises(ValueError, match="depth_format"):
        fathom.ScanWriter(str(tmp_path), SCAN_ID, depth_format="float8")
    with pytest.raises(fathom.FathomIOError):
        fathom.ScanWriter(str(tmp_path / "no" / "such" / "parent"), SCAN_ID)


@pytest.mark.parametrize("frequency", [1e20, 30.0, 0.5])
def test_writer_frequency_any_positive_number(tmp_path, rigid_data, frequency):
    """A whole frequency too large for an integer once crashed finish(); the metadata holds it as JSON reads it."""
    d = rigid_data
    with fathom.ScanWriter(str(tmp_path), SCAN_ID, confidence=False, frequency=frequency) as writer:
        writer.append(int(d.timestamps[0]), d.k_matrix(0), d.poses[0], d.depth[0])
    dec = scanfiles.decode(str(tmp_path), SCAN_ID)
    assert {s["frequency"] for s in dec.meta["streams"]} == {frequency}
    assert fathom.Scan(str(tmp_path)).frequency == frequency


def test_writer_context_manager_finishes_only_on_clean_exit(tmp_path, rigid_data):
    d = rigid_data
    with pytest.raises(RuntimeError):
        with fathom.ScanWriter(str(tmp_path), SCAN_ID, confidence=False) as writer:
            writer.append(int(d.timestamps[0]), d.k_matrix(0), d.poses[0], d.depth[0])
            raise RuntimeError("the capture stopped")
    assert writer.closed
    assert not os.path.exists(os.path.join(str(tmp_path), SCAN_ID + ".json"))
    with pytest.raises(fathom.FathomIOError):
        fathom.Scan(str(tmp_path / (SCAN_ID + ".jsonl")))


def test_write_scan_round_trip(tmp_path, rigid_data):
    d = rigid_data
    ks = [fathom.Intrinsics(*(float(v) for v in d.intrinsics[i]), 1920, 1440) for i in range(d.n)]
    path = fathom.write_scan(str(tmp_path), SCAN_ID, d.timestamps, d.poses.astype(np.float64), ks, d.depth, d.confidence)
    assert path == os.path.join(str(tmp_path), SCAN_ID + ".json")
    scan = fathom.Scan.open(path)
    assert_frames(scan, d, d.n)
    np.testing.assert_array_equal(scan.poses, d.poses.astype(np.float64))
    # one (3, 3) matrix for every frame, uint16 depth chosen from the dtype, no confidence
    mm = np.full((3, 48, 64), 1500, dtype=np.uint16)
    path = fathom.write_scan(str(tmp_path / "b"), "other_id", d.timestamps[:3], d.poses[:3], d.k_matrix(0), mm)
    scan = fathom.Scan(path)
    assert scan.depth_format == fathom.DepthFormat.UINT16 and scan.depth_size == (64, 48) and not scan.has_confidence
    assert np.all(scan.depth(2) == np.float32(1500) * np.float32(0.001))
    np.testing.assert_array_equal(scan.intrinsics[1], d.k_matrix(0).astype(np.float32))
