"""The "ask the size, then fill" calls (fathom._sized): empty results, a first guess too small or big enough, and
errors; through a stand-in that counts the calls, and through the library's own functions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fathom
from fathom._lib import check_status
from fathom._sized import sized, sized_text


class _Protocol:
    """A stand-in for a C function of the protocol ``(buffer, capacity, out_count)``: writes ``items`` (and a NUL
    after them when ``text``) if they fit, else returns FATHOM_ERR_BUFFER_TOO_SMALL; records each call's capacity.
    A nonzero ``status`` is returned instead."""

    def __init__(self, items: Any, text: bool = False, status: int = 0) -> None:
        self.items = items
        self.text = text
        self.status = status
        self.capacities: list[int] = []

    def raw(self, buffer: Any, capacity: int, out_count: Any) -> int:
        self.capacities.append(capacity)
        if self.status:
            return self.status
        out_count._obj.value = len(self.items)
        written = self.items + b"\0" if self.text else self.items
        if capacity < len(written):
            return fathom.BufferTooSmallError.STATUS
        buffer[: len(written)] = written
        return 0

    def __call__(self, *args: Any) -> None:
        check_status(self.raw(*args))


def _array(n: int) -> tuple[np.ndarray, tuple[Any, int]]:
    out = np.full(n, -1, dtype=np.int64)
    return out, (out, n)


def test_empty_result_is_one_call() -> None:
    fn = _Protocol([])
    out, size = sized(fn, (), _array)
    assert size == 0 and out.shape == (0,) and fn.capacities == [0]


def test_size_asked_then_filled() -> None:
    fn = _Protocol([3, 1, 4, 1, 5])
    out, size = sized(fn, (), _array)
    assert size == 5 and out.tolist() == [3, 1, 4, 1, 5] and fn.capacities == [0, 5]


def test_guess_big_enough_is_one_call() -> None:
    fn = _Protocol([7, 8])
    out, size = sized(fn, (), _array, guess=4)
    assert size == 2 and out[:size].tolist() == [7, 8] and len(out) == 4 and fn.capacities == [4]


def test_guess_too_small_is_two_calls() -> None:
    fn = _Protocol(list(range(6)))
    out, size = sized(fn, (), _array, guess=4)
    assert size == 6 and out.tolist() == list(range(6)) and fn.capacities == [4, 6]


def test_other_status_raises_after_one_call() -> None:
    fn = _Protocol([1], status=fathom.OutOfRangeError.STATUS)
    with pytest.raises(fathom.OutOfRangeError):
        sized(fn, (), _array)
    assert fn.capacities == [0]


def test_text() -> None:
    """A string's first call has room for the NUL only: an empty string needs no second call."""
    empty = _Protocol(b"", text=True)
    assert sized_text(empty) == "" and empty.capacities == [1]
    word = _Protocol("größe".encode(), text=True)
    assert sized_text(word) == "größe" and word.capacities == [1, 8]
    broken = _Protocol(b"\xff", text=True)
    assert sized_text(broken, errors="replace") == "\ufffd"
    with pytest.raises(UnicodeDecodeError):
        sized_text(_Protocol(b"\xff", text=True))


# -- the library's own functions ---------------------------------------------------------------------------------


def _stack(layers: int) -> fathom.Mesh:
    """``layers`` unit triangles at z = 0, 1, ..., each crossed once by the ray up the z axis from (0.1, 0.1, -1)."""
    vertices = np.array([(x, y, z) for z in range(layers) for x, y in ((0, 0), (1, 0), (0, 1))], dtype=np.float32)
    return fathom.Mesh(vertices, np.arange(3 * layers, dtype=np.uint32).reshape(-1, 3))


@pytest.mark.parametrize("layers", [0, 1, 16, 17, 40])
def test_cast_all_around_its_first_guess(layers: int) -> None:
    """cast_all first offers room for 16 crossings: fewer, exactly 16, and more all come back whole."""
    mesh = _stack(max(layers, 1))
    origin = (0.1, 0.1, -1.0) if layers else (5.0, 5.0, -1.0)  # a ray past the triangle for no crossing
    hits = mesh.cast_all(origin, (0.0, 0.0, 1.0))
    assert hits.dtype == fathom.HIT_DTYPE and len(hits) == layers
    np.testing.assert_allclose(hits["t"], np.arange(layers) + 1.0, rtol=1e-6)


def test_cast_all_batch_without_crossings() -> None:
    mesh = _stack(2)
    hits, offsets = mesh.cast_all_batch([(5.0, 5.0, -1.0)] * 3, [(0.0, 0.0, 1.0)] * 3)
    assert hits.shape == (0,) and hits.dtype == fathom.HIT_DTYPE and offsets.tolist() == [0, 0, 0, 0]


def test_backproject_without_valid_samples() -> None:
    frame = fathom.DepthFrame(np.zeros((4, 6), np.float32), fathom.Intrinsics(50.0, 50.0, 30.0, 20.0, 60, 40))
    points, pixels, normals = frame.backproject(pixels=True, normals=True)
    assert (points.shape, pixels.shape, normals.shape) == ((0, 3), (0, 2), (0, 3))
    assert (points.dtype, pixels.dtype, normals.dtype) == (np.float32, np.uint32, np.float32)


def test_transforms_without_frames(tmp_path) -> None:
    fathom.write_transforms(tmp_path / "e.json", np.empty((0, 4, 4)), [])
    t = fathom.read_transforms(tmp_path / "e.json")
    assert len(t) == 0 and t.file_paths == [] and t.timestamps.shape == (0,)
