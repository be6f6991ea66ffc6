"""Stray Scanner PNG frames decoded in one pass (ISA-L inflate, the rows' filters undone in place) read exactly
what an independent encoder wrote: every filter type, 8- and 16-bit, IDAT split anywhere, ancillary chunks in
between; damage goes to libspng, which says what is wrong."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

import fathom

import _room_scenes as rooms

W, H = 256, 192


def _stray(folder: Path, depth_pngs: list, confidence_pngs: list) -> Path:
    (folder / "depth").mkdir(parents=True)
    (folder / "confidence").mkdir()
    (folder / "camera_matrix.csv").write_text("1600.0,0.0,960.0\n0.0,1600.0,720.0\n0.0,0.0,1.0\n")
    rows = ["timestamp, frame, x, y, z, qx, qy, qz, qw"]
    rows += [f"{i / 60:.9f}, {i:06d}, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0" for i in range(len(depth_pngs))]
    (folder / "odometry.csv").write_text("\n".join(rows) + "\n")
    for i, (d, c) in enumerate(zip(depth_pngs, confidence_pngs)):
        (folder / "depth" / f"{i:06d}.png").write_bytes(d)
        (folder / "confidence" / f"{i:06d}.png").write_bytes(c)
    return folder


def _with_text_chunk(png: bytes) -> bytes:
    """An ancillary tEXt chunk after IHDR (33 bytes in), as some writers add."""
    text = b"Software\x00a capture app"
    chunk = struct.pack(">I", len(text)) + b"tEXt" + text + struct.pack(">I", zlib.crc32(b"tEXt" + text) & 0xFFFFFFFF)
    return png[:33] + chunk + png[33:]


@pytest.mark.parametrize("png_filter", [0, 1, 2, 3, 4, "cycle", "adaptive"])
@pytest.mark.parametrize("idat_size", [1 << 16, 997, 1])
def test_every_filter_and_split_reads_back_exactly(tmp_path: Path, png_filter, idat_size: int) -> None:
    rng = np.random.default_rng(7)
    # Smooth depth with noise and holes, and confidence: rows that exercise every filter's arithmetic.
    y, x = np.mgrid[0:H, 0:W]
    mm = (1500 + 3 * x + 5 * y + rng.integers(-40, 40, (3, H, W))).clip(0, 65535).astype(np.uint16)
    mm[:, rng.random((H, W)) < 0.05] = 0
    mm[1] = rng.integers(0, 65536, (H, W), dtype=np.uint16)  # noise: high bytes carry, all values
    conf = rng.integers(0, 3, (3, H, W), dtype=np.uint8)
    depth = [_with_text_chunk(rooms.encode_png(m, png_filter, idat_size=idat_size)) for m in mm]
    confidence = [rooms.encode_png(c, png_filter, idat_size=idat_size) for c in conf]
    with fathom.Scan.open(_stray(tmp_path / "scan", depth, confidence)) as scan:
        assert scan.warnings == []
        for i in range(3):
            np.testing.assert_array_equal(scan.depth(i), mm[i].astype(np.float32) * np.float32(0.001))
            np.testing.assert_array_equal(scan.confidence(i), conf[i])


def test_damage_is_said_in_libspng_words(tmp_path: Path) -> None:
    mm = np.full((H, W), 1500, np.uint16)
    good = rooms.encode_png(mm, 4)
    bad_crc = bytearray(good)
    bad_crc[-20] ^= 0xFF  # inside the last IDAT's data: its CRC no longer matches
    conf = rooms.encode_png(np.full((H, W), 2, np.uint8), 4)
    with fathom.Scan.open(_stray(tmp_path / "scan", [good, bytes(bad_crc)], [conf, conf])) as scan:
        np.testing.assert_array_equal(scan.depth(0), np.float32(1500) * np.float32(0.001))
        with pytest.raises(fathom.FormatError, match="PNG"):
            scan.depth(1)
