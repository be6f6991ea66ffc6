"""A writer and a decoder of the scanner app's capture files, for the scan tests: fixtures, not a second reader.

Written from the format description (reference/scanner-format.md) with Python's zlib, json and numpy only, never with
fathom: scans written here are read with fathom and must come back bit for bit (the binding's arrays, dtypes and
shapes), and scans fathom.ScanWriter writes are decoded here whole, so that the binding's conversions on the way out
are checked against the bytes. How the reader copes with damaged files is the core tests' (ScanTests.swift) and
test_scan's damage section, which damages files written here.

Data is shaped like a phone's: float16 depth of a room (a floor, a wall, a box on the floor) with noise and a
few holes (0), confidence 0/1/2 that drops with distance and at edges, ARKit-like poses (a smooth hand-held
path, float32, with the small drift from rigid that ARKit's matrices have), intrinsics that vary slightly per
frame, and timestamps about 16.7 ms apart with jitter.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

T0 = 280670466266040  # a real scan's first timestamp (ns since boot)
RGB_W, RGB_H = 1920, 1440


@dataclass
class ScanData:
    """The frames of a scan, as the test means them to be read back."""

    timestamps: np.ndarray  # (N,) int64 ns
    poses: np.ndarray  # (N, 4, 4) float32 camera-to-world, rows as rows (as written: may drift from rigid)
    intrinsics: np.ndarray  # (N, 4) float32 fx, fy, cx, cy (RGB pixels)
    depth: np.ndarray  # (N, H, W) float16 / uint16 / float32 as stored
    confidence: Optional[np.ndarray]  # (N, H, W) uint8 or None
    rgb_size: tuple[int, int] = (RGB_W, RGB_H)

    @property
    def n(self) -> int:
        return len(self.timestamps)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the depth grid."""
        return self.depth.shape[2], self.depth.shape[1]

    def k_matrix(self, i: int) -> np.ndarray:
        fx, fy, cx, cy = (float(v) for v in self.intrinsics[i])
        return np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], dtype=np.float64)


# ------------------------------------------------------------------------------------------------
# Data
# ------------------------------------------------------------------------------------------------


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    a = axis / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def timestamps(rng: np.random.Generator, n: int, t0: int = T0) -> np.ndarray:
    """60 fps with +-1 ms jitter (int64 ns, increasing)."""
    steps = 16_666_667 + rng.integers(-1_000_000, 1_000_000, size=n)
    steps[0] = 0
    return (t0 + np.cumsum(steps)).astype(np.int64)


def poses(rng: np.random.Generator, n: int, drift: float = 1e-4) -> np.ndarray:
    """(N, 4, 4) float32 camera-to-world: a slow arc around the scene at ~1.4 m height, looking at it,
    with ARKit-like float32 drift of about ``drift`` in the rotation part (0: rigid to float32 rounding)."""
    out = np.zeros((n, 4, 4), dtype=np.float64)
    for i in range(n):
        yaw = 0.3 + 0.01 * i
        pitch = -0.35 + 0.002 * np.sin(0.1 * i)
        r = _rotation(np.array([0.0, 1.0, 0.0]), yaw) @ _rotation(np.array([1.0, 0.0, 0.0]), pitch)
        c = np.array([1.8 * np.sin(yaw), 1.4 + 0.01 * np.sin(0.2 * i), 1.8 * np.cos(yaw)])
        out[i, :3, :3] = r
        out[i, :3, 3] = c
        out[i, 3, 3] = 1.0
    if drift:
        out[:, :3, :3] += rng.uniform(-drift, drift, size=(n, 3, 3))
    return out.astype(np.float32)


def intrinsics(rng: np.random.Generator, n: int) -> np.ndarray:
    """(N, 4) float32 fx, fy, cx, cy of a 1920x1440 image, varying slightly per frame (autofocus)."""
    f = 1613.7 + rng.normal(0, 0.3, size=n)
    cx = 941.38 + rng.normal(0, 0.05, size=n)
    cy = 727.04 + rng.normal(0, 0.05, size=n)
    return np.stack([f, f, cx, cy], axis=1).astype(np.float32)


def depth_frames(rng: np.random.Generator, n: int, w: int = 256, h: int = 192) -> tuple[np.ndarray, np.ndarray]:
    """(N, H, W) float16 meters and (N, H, W) uint8 confidence of a floor, a wall and a box, with noise."""
    jj, ii = np.mgrid[0:h, 0:w].astype(np.float64)
    depth = np.empty((n, h, w), dtype=np.float16)
    conf = np.empty((n, h, w), dtype=np.uint8)
    for k in range(n):
        shift = 0.6 * k
        wall = 3.2 + 0.002 * (ii + shift)
        floor = np.where(jj > h * 0.45, 1.4 * h / np.maximum(jj - h * 0.4, 1.0) / 6.0, np.inf)
        d = np.minimum(wall, floor)
        box = (np.abs(ii - w / 2 - shift) < w * 0.12) & (np.abs(jj - h * 0.6) < h * 0.15)
        d = np.where(box, 1.6 + 0.001 * (jj - h * 0.6), d)
        d = d + rng.normal(0, 0.004, size=d.shape) * d
        holes = rng.random(d.shape) < 0.01
        d = np.where(holes, 0.0, d)
        depth[k] = d.astype(np.float16)
        c = np.full(d.shape, 2, dtype=np.uint8)
        c[d > 2.5] = 1
        c[d > 3.3] = 0
        edge = np.zeros(d.shape, dtype=bool)
        edge[:, 1:] |= np.abs(np.diff(d, axis=1)) > 0.1
        c[edge] = 0
        c[holes] = 0
        conf[k] = c
    return depth, conf


def make_scan(rng: np.random.Generator, n: int, w: int = 256, h: int = 192, drift: float = 1e-4,
              confidence: bool = True) -> ScanData:
    d, c = depth_frames(rng, n, w, h)
    return ScanData(timestamps(rng, n), poses(rng, n, drift), intrinsics(rng, n), d, c if confidence else None)


# ------------------------------------------------------------------------------------------------
# Writing (the app's way: raw DEFLATE, shortest float32 text in the .jsonl)
# ------------------------------------------------------------------------------------------------


def deflate(data: bytes, wrapped: bool = False, level: int = 6, chunk: Optional[int] = None) -> bytes:
    """Raw DEFLATE (wbits -15, as the app writes) or zlib-wrapped (wbits 15) ``data``, fed in ``chunk``s."""
    c = zlib.compressobj(level, zlib.DEFLATED, 15 if wrapped else -15)
    if chunk is None:
        return c.compress(data) + c.flush()
    parts = [c.compress(data[i:i + chunk]) for i in range(0, len(data), chunk)]
    return b"".join(parts) + c.flush()


def inflate(data: bytes) -> tuple[bytes, bool, bytes]:
    """(output, stream complete, bytes after the stream) of a raw or zlib-wrapped stream, by its first bytes."""
    wrapped = len(data) >= 2 and (data[0] & 0x0F) == 8 and (data[0] >> 4) <= 7 and ((data[0] << 8) | data[1]) % 31 == 0
    d = zlib.decompressobj(15 if wrapped else -15)
    out = d.decompress(data)
    return out, d.eof, d.unused_data


def f32(x: Any) -> str:
    """The shortest text that reads back as the same float32 (what Swift's JSONEncoder writes for a Float)."""
    return str(np.float32(x))


def camera_line(t: int, k: Sequence[float], pose: np.ndarray, extra: str = "") -> str:
    fx, fy, cx, cy = k
    kk = [fx, 0, 0, 0, fy, 0, cx, cy, 1]
    m = np.asarray(pose, dtype=np.float32).T.reshape(16)  # column-major
    return (
        f'{{"timestamp":{int(t)},"intrinsics":[{",".join(f32(v) for v in kk)}],'
        f'"transform":[{",".join(f32(v) for v in m)}]{extra}}}'
    )


def metadata(n_depth: int, n_conf: Optional[int], n_camera: int, size: tuple[int, int], *,
             depth_encoding: str = "float16_zlib", depth_unit: Optional[str] = None,
             rgb_size: tuple[int, int] = (RGB_W, RGB_H), frequency: float = 60) -> dict[str, Any]:
    """The app's metadata (``resolution`` is [height, width])."""
    w, h = size
    depth: dict[str, Any] = {
        "id": "depth_back_1", "type": "lidar_sensor", "encoding": depth_encoding, "frequency": frequency,
        "number_of_frames": n_depth, "resolution": [h, w], "intrinsics": None, "file_extension": "depth.zlib",
    }
    if depth_unit is not None:
        depth["depth_unit"] = depth_unit
    streams: list[dict[str, Any]] = [
        {"id": "color_back_1", "type": "color_camera", "encoding": "h264", "frequency": frequency,
         "number_of_frames": n_camera, "resolution": [rgb_size[1], rgb_size[0]],
         "intrinsics": [1613.7, 0, 0, 0, 1613.7, 0, 941.38, 727.04, 1], "file_extension": "mp4"},
        depth,
    ]
    if n_conf is not None:
        streams.append({"id": "confidence_map", "type": "confidence_map", "encoding": "uint8_zlib",
                        "frequency": frequency, "number_of_frames": n_conf, "file_extension": "confidence.zlib"})
    streams.append({"id": "camera_info_color_back_1", "type": "camera_info", "encoding": "jsonl",
                    "frequency": frequency, "number_of_frames": n_camera, "file_extension": "jsonl"})
    return {
        "streams": streams,
        "device": {"id": "1A2B", "type": "iPad8,10", "name": "test iPad"},
        "scene": {"type": "room", "gps_location": [49.2, -123.0], "description": "box on the floor"},
        "user": {"name": "tester"},
        "number_of_files": 5 if n_conf is not None else 4,
    }


@dataclass
class Written:
    """Paths of a scan written by :func:`write`."""

    directory: str
    scan_id: str
    files: dict[str, str] = field(default_factory=dict)

    @property
    def metadata(self) -> str:
        return self.files["json"]


def write(directory: str, scan_id: str, data: ScanData, *, wrapped: bool = False, level: int = 6,
          chunk: Optional[int] = None, depth_encoding: Optional[str] = None, depth_unit: Optional[str] = None,
          extra: str = ',"euler_angles":[-0.9235,0.0731,-1.6109],"exposure_duration":16666666',
          meta_counts: Optional[tuple[int, Optional[int], int]] = None, mp4: bool = True) -> Written:
    """Writes ``data`` as the app would, independently of fathom."""
    os.makedirs(directory, exist_ok=True)
    stem = os.path.join(directory, scan_id)
    enc = depth_encoding or {np.dtype(np.float16): "float16_zlib", np.dtype(np.uint16): "uint16_zlib",
                             np.dtype(np.float32): "float32_zlib"}[data.depth.dtype]
    out = Written(directory, scan_id)
    depth = np.ascontiguousarray(data.depth, dtype=data.depth.dtype.newbyteorder("<")).tobytes()
    with open(stem + ".depth.zlib", "wb") as f:
        f.write(deflate(depth, wrapped, level, chunk))
    out.files["depth"] = stem + ".depth.zlib"
    if data.confidence is not None:
        with open(stem + ".confidence.zlib", "wb") as f:
            f.write(deflate(np.ascontiguousarray(data.confidence).tobytes(), wrapped, level, chunk))
        out.files["confidence"] = stem + ".confidence.zlib"
    with open(stem + ".jsonl", "w") as f:
        for i in range(data.n):
            f.write(camera_line(int(data.timestamps[i]), data.intrinsics[i], data.poses[i], extra) + "\n")
    out.files["jsonl"] = stem + ".jsonl"
    counts = meta_counts or (data.n, data.n if data.confidence is not None else None, data.n)
    meta = metadata(counts[0], counts[1], counts[2], data.size, depth_encoding=enc, depth_unit=depth_unit,
                    rgb_size=data.rgb_size)
    with open(stem + ".json", "w") as f:
        json.dump(meta, f)
    out.files["json"] = stem + ".json"
    if mp4:
        with open(stem + ".mp4", "wb") as f:
            f.write(b"\x00\x00\x00\x18ftypmp42")  # never read
        out.files["mp4"] = stem + ".mp4"
    return out


# ------------------------------------------------------------------------------------------------
# Reading what fathom wrote
# ------------------------------------------------------------------------------------------------


@dataclass
class Decoded:
    meta: dict[str, Any]
    lines: list[dict[str, Any]]
    depth_bytes: bytes
    depth_complete: bool
    depth_wrapped: bool
    confidence_bytes: Optional[bytes]


def decode(directory: str, scan_id: str) -> Decoded:
    """Reads a scan's files with json and zlib only."""
    stem = os.path.join(directory, scan_id)
    with open(stem + ".json") as f:
        meta = json.load(f)
    with open(stem + ".jsonl") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    with open(stem + ".depth.zlib", "rb") as f:
        raw = f.read()
    depth, complete, unused = inflate(raw)
    assert unused == b""
    try:
        wrapped = zlib.decompress(raw, 15) == depth  # a zlib header and a matching Adler-32 trailer
    except zlib.error:
        wrapped = False
    conf = None
    if os.path.exists(stem + ".confidence.zlib"):
        with open(stem + ".confidence.zlib", "rb") as f:
            conf, c_complete, c_unused = inflate(f.read())
        assert c_complete and c_unused == b""
    return Decoded(meta, lines, depth, complete, wrapped, conf)
