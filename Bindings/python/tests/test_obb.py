"""Oriented boxes: containment and distances against numpy's local-coordinate computations."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fathom
from _reference import CORNER_SIGNS, local_coords, obb_signed_distance, quat_to_matrix, random_rotation


@pytest.fixture
def obb_and_frame(rng: np.random.Generator):
    R = random_rotation(rng)
    q = fathom.quat_from_matrix(R)
    center = np.array([0.5, -1.0, 2.0])
    scale = np.array([0.8, 1.5, 0.4])
    obb = fathom.OrientedBox(center=center, scale=scale, rotation=q)
    return obb, center, scale, quat_to_matrix(q)


def _inside_reference(points, center, scale, R) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.all(np.abs(local_coords(points, center, R)) <= scale / 2, axis=1)


def test_fields_and_defaults() -> None:
    obb = fathom.OrientedBox()
    np.testing.assert_array_equal(obb.center, [0, 0, 0])
    np.testing.assert_array_equal(obb.scale, [1, 1, 1])
    np.testing.assert_array_equal(obb.rotation, [0, 0, 0, 1])
    assert obb.volume == pytest.approx(1.0)


def test_corners(obb_and_frame) -> None:
    obb, center, scale, R = obb_and_frame
    expected = center + (CORNER_SIGNS * scale / 2) @ R.T
    np.testing.assert_allclose(obb.corners, expected, atol=1e-5)


def test_volume(obb_and_frame) -> None:
    obb, _, scale, _ = obb_and_frame
    assert obb.volume == pytest.approx(np.prod(scale), rel=1e-6)


def test_contains_random_points(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    pts = (center + rng.uniform(-1.5, 1.5, size=(20000, 3))).astype(np.float32)
    mask = obb.contains(pts)
    assert mask.dtype == np.bool_ and mask.shape == (20000,)
    expected = _inside_reference(pts, center, scale, R)
    # float32 rounding may flip points within ~1e-6 of a face; there must be none here but allow it
    near = np.abs(np.abs(local_coords(pts, center, R)) - scale / 2).min(axis=1) < 1e-5
    assert np.array_equal(mask[~near], expected[~near])
    assert 0 < mask.sum() < len(mask)


def test_points_exactly_on_faces_are_inside() -> None:
    # axis-aligned so face coordinates are exact in float32
    obb = fathom.OrientedBox(center=(1, 2, 3), scale=(2, 4, 8))
    on_faces = np.array([[0, 2, 3], [2, 2, 3], [1, 0, 3], [1, 4, 3], [1, 2, -1], [1, 2, 7], [0, 0, -1], [2, 4, 7]], np.float32)
    assert obb.contains(on_faces).all()
    beyond = np.nextafter(np.float32(2), np.float32(3))  # one float32 step past the right face
    assert not obb.contains(np.array([[beyond, 2, 3]], np.float32))[0]


def test_nan_and_infinite_points_are_outside() -> None:
    obb = fathom.OrientedBox(scale=(10, 10, 10))
    pts = np.array([[0, 0, 0], [np.nan, 0, 0], [0, np.inf, 0], [0, 0, -np.inf], [np.nan] * 3], np.float32)
    np.testing.assert_array_equal(obb.contains(pts), [True, False, False, False, False])
    assert obb.count_inside(pts) == 1
    np.testing.assert_array_equal(obb.indices_inside(pts), [0])


def test_count_and_indices(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    pts = (center + rng.uniform(-1, 1, size=(5000, 3))).astype(np.float32)
    mask = obb.contains(pts)
    assert obb.count_inside(pts) == int(mask.sum())
    idx = obb.indices_inside(pts)
    assert idx.dtype == np.uint64
    np.testing.assert_array_equal(idx, np.flatnonzero(mask))
    np.testing.assert_array_equal(np.flatnonzero(mask), np.flatnonzero(_inside_reference(pts, center, scale, R)))


def test_indices_none_inside() -> None:
    obb = fathom.OrientedBox(center=(100, 100, 100))
    idx = obb.indices_inside(np.zeros((10, 3), np.float32))
    assert idx.shape == (0,) and idx.dtype == np.uint64


def test_indices_all_inside() -> None:
    obb = fathom.OrientedBox(scale=(5, 5, 5))
    np.testing.assert_array_equal(obb.indices_inside(np.zeros((7, 3))), np.arange(7))


def test_strided_points_read_in_place(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    data = np.empty((3000, 7), np.float32)  # xyz + rgb + intensity, as point-cloud files store them
    data[:, :3] = center + rng.uniform(-1, 1, size=(3000, 3))
    data[:, 3:] = np.nan  # must never be read as coordinates
    expected = _inside_reference(data[:, :3], center, scale, R)
    np.testing.assert_array_equal(obb.contains(data), expected)
    np.testing.assert_array_equal(obb.contains(data[::3]), expected[::3])
    assert obb.count_inside(data[:, :3]) == expected.sum()  # a column slice: strides (28, 4)


def test_other_dtypes_are_converted(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    pts = center + rng.uniform(-1, 1, size=(500, 3))  # float64
    np.testing.assert_array_equal(obb.contains(pts), obb.contains(pts.astype(np.float32)))
    np.testing.assert_array_equal(obb.contains(np.asfortranarray(pts)), obb.contains(pts.astype(np.float32)))
    assert obb.count_inside(pts.tolist()) == obb.count_inside(pts.astype(np.float32))


def test_signed_distance(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    pts = (center + rng.uniform(-2, 2, size=(5000, 3))).astype(np.float32)
    d = obb.signed_distance(pts)
    assert d.dtype == np.float32 and d.shape == (5000,)
    np.testing.assert_allclose(d, obb_signed_distance(pts, center, scale, R), atol=2e-5)
    assert not np.any((d < -1e-6) & ~_inside_reference(pts, center, scale, R))  # negative only inside


def test_signed_distance_hand_derived() -> None:
    obb = fathom.OrientedBox(center=(0, 0, 0), scale=(2, 2, 2))
    pts = [[0, 0, 0], [0.5, 0, 0], [3, 0, 0], [2, 2, 1], [1, 1, 1]]
    np.testing.assert_allclose(obb.signed_distance(pts), [-1, -0.5, 2, np.sqrt(2), 0], atol=1e-6)


def test_isclose_equality_pickle_repr(obb_and_frame) -> None:
    obb, center, scale, R = obb_and_frame
    q = obb.rotation
    same = fathom.OrientedBox(center, scale, -q)  # -q is the same rotation
    assert obb.isclose(same)
    assert obb == pickle.loads(pickle.dumps(obb))
    assert repr(obb).startswith("OrientedBox(center=(0.5, -1, 2), scale=(0.8, 1.5, 0.4), rotation=(")


# -- bad input ------------------------------------------------------------------------------------


def test_zero_scale() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="scale"):
        fathom.OrientedBox(scale=(1, 1, 0))


def test_negative_scale() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="scale"):
        fathom.OrientedBox(scale=(-1, 1, 1))


def test_non_unit_rotation() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="rotation"):
        fathom.OrientedBox(rotation=(0, 0, 0, 1.01))


def test_nan_center() -> None:
    with pytest.raises(fathom.NotFiniteError, match="center"):
        fathom.OrientedBox(center=(np.nan, 0, 0))


def test_empty_point_array() -> None:
    obb = fathom.OrientedBox()
    empty = np.empty((0, 3), np.float32)
    for call in (obb.contains, obb.count_inside, obb.indices_inside, obb.signed_distance):
        with pytest.raises(fathom.OutOfRangeError, match="count"):
            call(empty)


def test_wrong_point_shapes() -> None:
    obb = fathom.OrientedBox()
    for bad in (np.zeros(2), np.zeros((4, 2)), np.zeros((2, 3, 3))):
        with pytest.raises(ValueError, match=r"points must have shape \(N, 3\) or \(N, k\) with k >= 3"):
            obb.contains(bad)


def test_non_numeric_points() -> None:
    with pytest.raises(TypeError, match="points"):
        fathom.OrientedBox().contains(np.array([["a", "b", "c"]]))
    with pytest.raises(TypeError, match="real numbers"):
        fathom.OrientedBox().contains(np.ones((2, 3), dtype=np.complex64))


def test_signed_distance_nan_point() -> None:
    with pytest.raises(fathom.NotFiniteError, match="fathom_obb_signed_distances"):
        fathom.OrientedBox().signed_distance([[0, 0, 0], [0, np.nan, 0]])


def test_one_point_gives_the_single_result(obb_and_frame, rng: np.random.Generator) -> None:
    obb, center, scale, R = obb_and_frame
    pts = (center + rng.uniform(-1.5, 1.5, size=(50, 3))).astype(np.float32)
    inside, distances = obb.contains(pts), obb.signed_distance(pts)
    for p, expected_inside, expected_distance in zip(pts, inside, distances):
        one = obb.contains(p)
        assert isinstance(one, np.bool_) and one == expected_inside
        d = obb.signed_distance(p)
        assert isinstance(d, np.float32) and d == expected_distance
        assert obb.count_inside(p) == int(expected_inside)
        assert obb.indices_inside(p).tolist() == ([0] if expected_inside else [])
    np.testing.assert_allclose(obb.signed_distance(pts[0].astype(np.float64)),
                               obb_signed_distance(pts[:1], center, scale, R)[0], atol=2e-5)
    assert obb.contains(pts[:1]).shape == (1,)  # an (1, 3) array stays an array
    with pytest.raises(fathom.NotFiniteError, match="fathom_obb_signed_distances"):
        obb.signed_distance([0.0, np.nan, 0.0])


def test_one_point_is_too_few_for_a_fit() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_obb_fit_pca"):
        fathom.fit_obb_pca([1.0, 2.0, 3.0])
    with pytest.raises(fathom.DegenerateError, match="fathom_box_fit_upright"):
        fathom.fit_box_upright(np.array([1.0, 2.0, 3.0], np.float32))
