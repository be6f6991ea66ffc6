"""Point arrays: which layouts are passed in place, which are converted, and the stride used."""

from __future__ import annotations

import numpy as np
import pytest

from fathom._arrays import point_buffer


def test_packed_float32_is_not_copied() -> None:
    a = np.zeros((100, 3), np.float32)
    buf = point_buffer(a)
    assert buf.array is a and buf.count == 100 and buf.stride == 12
    assert buf.pointer.contents is not None and np.shares_memory(buf.array, a)


def test_records_with_extra_columns_are_not_copied() -> None:
    a = np.zeros((50, 7), np.float32)
    buf = point_buffer(a)
    assert buf.array is a and buf.stride == 28


def test_row_and_column_slices_are_not_copied() -> None:
    a = np.zeros((100, 6), np.float32)
    every_other = point_buffer(a[::2])
    assert np.shares_memory(every_other.array, a) and every_other.stride == 48 and every_other.count == 50
    xyz = point_buffer(a[:, :3])
    assert np.shares_memory(xyz.array, a) and xyz.stride == 24
    offset = point_buffer(a[:, 2:5])  # y, z, r as "xyz": still a valid in-place view
    assert np.shares_memory(offset.array, a) and offset.stride == 24


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.zeros((10, 3), np.float64),
        lambda: np.asfortranarray(np.zeros((10, 3), np.float32)),
        lambda: np.zeros((10, 3), np.float32)[::-1],
        lambda: np.zeros((10, 3), np.dtype(">f4")),
        lambda: np.zeros((10, 3), np.int32),
        lambda: np.zeros((3, 10), np.float32).T,
    ],
    ids=["float64", "fortran", "reversed", "big-endian", "int32", "transposed"],
)
def test_other_layouts_are_converted_once(make) -> None:
    a = make()
    buf = point_buffer(a)
    assert not np.shares_memory(buf.array, a)
    assert buf.array.dtype == np.float32 and buf.array.flags.c_contiguous and buf.array.shape == (10, 3)
    assert buf.stride == 12
    np.testing.assert_array_equal(buf.array, np.asarray(a, np.float64)[:, :3])


def test_unaligned_float32_is_converted() -> None:
    raw = np.zeros(4 * 30 + 2, np.uint8)
    a = raw[2:].view(np.float32).reshape(10, 3)  # 2-byte offset: not 4-byte aligned
    assert a.ctypes.data % 4 != 0
    buf = point_buffer(a)
    assert buf.array.ctypes.data % 4 == 0 and not np.shares_memory(buf.array, a)


def test_lists_are_converted() -> None:
    buf = point_buffer([[1, 2, 3], [4, 5, 6]])
    assert buf.array.dtype == np.float32 and buf.count == 2 and buf.stride == 12


def test_single_point_and_empty() -> None:
    assert point_buffer(np.zeros((1, 3), np.float32)).stride == 12
    empty = point_buffer(np.zeros((0, 3), np.float32))
    assert empty.count == 0


@pytest.mark.parametrize("shape", [(2,), (4,), (10, 2), (2, 3, 3), ()])
def test_wrong_shapes(shape) -> None:
    with pytest.raises(ValueError, match=r"points must have shape \(N, 3\) or \(N, k\) with k >= 3, or \(3,\) for "
                       r"one point, got shape"):
        point_buffer(np.zeros(shape, np.float32))


def test_one_point_is_a_buffer_of_one() -> None:
    buf = point_buffer(np.array([1.0, 2.0, 3.0]))
    assert buf.single and buf.count == 1 and buf.stride == 12 and buf.array.shape == (1, 3)
    np.testing.assert_array_equal(buf.array[0], [1, 2, 3])
    out = np.array([[7.0, 8.0, 9.0]])
    np.testing.assert_array_equal(buf.result(out), [7.0, 8.0, 9.0])  # the single result
    rows = point_buffer(np.zeros((1, 3), np.float32))
    assert not rows.single and rows.result(out) is out  # a (1, 3) array stays an array of one
    packed = np.zeros(3, np.float32)
    assert np.shares_memory(point_buffer(packed).array, packed)  # float32 (3,) is read in place


def test_double_points_for_the_fits() -> None:
    a = np.zeros((5, 4))
    buf = point_buffer(a, dtype=np.float64, columns=3)
    assert buf.array is a and buf.stride == 32 and buf.pointer._type_ is __import__("ctypes").c_double
    two = point_buffer([[1, 2], [3, 4]], dtype=np.float64, columns=None)
    assert two.array.shape == (2, 2) and two.stride == 16
    one = point_buffer([1.0, 2.0], dtype=np.float64, columns=None)
    assert one.single and one.array.shape == (1, 2) and one.stride == 16
    with pytest.raises(ValueError, match=r"\(N, 2\) or \(N, 3\), or \(2,\) or \(3,\) for one point, got shape \(5, 4\)"):
        point_buffer(np.zeros((5, 4)), dtype=np.float64, columns=None)


def test_non_numeric() -> None:
    with pytest.raises(TypeError, match="real numbers"):
        point_buffer(np.zeros((2, 3), bool))
    with pytest.raises(TypeError, match="array of numbers"):
        point_buffer([["x", "y", "z"]])
