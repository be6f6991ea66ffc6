"""Oriented boxes through the binding: points in as numpy arrays of any dtype and layout (strided float32 records
read in place), masks, counts, uint64 indices and float32 distances out, one point or many, and errors. Checked on a
quarter-turned box whose local coordinates are a swap of world axes, so that each point's answer is plain; random
boxes against a Double reference are the core tests' (OrientedBoxContainmentTests.swift)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import fathom
#: 90 degrees about +x: local y is world +z, local z is world -y. Half extents 0.4, 0.75, 0.2 (local), so in
#: world terms the box spans x 0.1..0.9, y -1.2..-0.8 and z 1.25..2.75.
H = np.sqrt(0.5)
CENTER, SCALE, QUARTER_X = np.array([0.5, -1.0, 2.0]), np.array([0.8, 1.5, 0.4]), np.array([H, 0.0, 0.0, H])
LO, HI = np.array([0.1, -1.2, 1.25]), np.array([0.9, -0.8, 2.75])


@pytest.fixture
def obb_and_frame():
    return fathom.OrientedBox(center=CENTER, scale=SCALE, rotation=QUARTER_X), CENTER, SCALE


def _inside(points) -> np.ndarray:
    """Inside the quarter-turned box: within its world-axis ranges (not within 1e-5 of a face, by construction)."""
    with np.errstate(invalid="ignore"):
        return np.all((points >= LO) & (points <= HI), axis=1)


def _random_points(rng: np.random.Generator, n: int, spread: float = 1.0) -> np.ndarray:
    """Points around the box, moved off every face by more than 1e-5 (rounding may decide points on a face)."""
    pts = CENTER + rng.uniform(-spread, spread, size=(n, 3))
    near = np.abs(pts[:, None, :] - np.stack([LO, HI])[None]).min(axis=(1, 2)) < 1e-4
    pts[near] += 2e-4
    return pts.astype(np.float32)


def test_fields_and_defaults() -> None:
    obb = fathom.OrientedBox()
    np.testing.assert_array_equal(obb.center, [0, 0, 0])
    np.testing.assert_array_equal(obb.scale, [1, 1, 1])
    np.testing.assert_array_equal(obb.rotation, [0, 0, 0, 1])
    assert obb.volume == pytest.approx(1.0)


def test_corners(obb_and_frame) -> None:
    """In FATHOM_CORNER_* order (top = local +y = world +z, front = local -z = world +y, left = local -x)."""
    obb, _, _ = obb_and_frame
    assert obb.corners.shape == (8, 3) and obb.corners.dtype == np.float32
    np.testing.assert_allclose(obb.corners[0], [0.1, -0.8, 2.75], atol=1e-6)  # top_left_front
    np.testing.assert_allclose(obb.corners[6], [0.9, -1.2, 1.25], atol=1e-6)  # bot_right_back
    np.testing.assert_allclose(np.sort(obb.corners, axis=0)[[0, -1]], [LO, HI], atol=1e-6)


def test_volume(obb_and_frame) -> None:
    obb, _, scale = obb_and_frame
    assert obb.volume == pytest.approx(np.prod(scale), rel=1e-6)


def test_contains_random_points(obb_and_frame, rng: np.random.Generator) -> None:
    obb, _, _ = obb_and_frame
    pts = _random_points(rng, 20000, spread=1.5)
    mask = obb.contains(pts)
    assert mask.dtype == np.bool_ and mask.shape == (20000,)
    np.testing.assert_array_equal(mask, _inside(pts))
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
    obb, _, _ = obb_and_frame
    pts = _random_points(rng, 5000)
    expected = _inside(pts)
    assert obb.count_inside(pts) == int(expected.sum())
    idx = obb.indices_inside(pts)
    assert idx.dtype == np.uint64
    np.testing.assert_array_equal(idx, np.flatnonzero(expected))


def test_indices_none_inside() -> None:
    obb = fathom.OrientedBox(center=(100, 100, 100))
    idx = obb.indices_inside(np.zeros((10, 3), np.float32))
    assert idx.shape == (0,) and idx.dtype == np.uint64


def test_indices_all_inside() -> None:
    obb = fathom.OrientedBox(scale=(5, 5, 5))
    np.testing.assert_array_equal(obb.indices_inside(np.zeros((7, 3))), np.arange(7))


def test_strided_points_read_in_place(obb_and_frame, rng: np.random.Generator) -> None:
    obb, _, _ = obb_and_frame
    data = np.empty((3000, 7), np.float32)  # xyz + rgb + intensity, as point-cloud files store them
    data[:, :3] = _random_points(rng, 3000)
    data[:, 3:] = np.nan  # must never be read as coordinates
    expected = _inside(data[:, :3])
    np.testing.assert_array_equal(obb.contains(data), expected)
    np.testing.assert_array_equal(obb.contains(data[::3]), expected[::3])
    assert obb.count_inside(data[:, :3]) == expected.sum()  # a column slice: strides (28, 4)


def test_other_dtypes_are_converted(obb_and_frame, rng: np.random.Generator) -> None:
    obb, _, _ = obb_and_frame
    pts = CENTER + rng.uniform(-1, 1, size=(500, 3))  # float64
    np.testing.assert_array_equal(obb.contains(pts), obb.contains(pts.astype(np.float32)))
    np.testing.assert_array_equal(obb.contains(np.asfortranarray(pts)), obb.contains(pts.astype(np.float32)))
    assert obb.count_inside(pts.tolist()) == obb.count_inside(pts.astype(np.float32))


def test_signed_distance(obb_and_frame, rng: np.random.Generator) -> None:
    """In world terms: 0.1 inside below the top (z = 2.75), 0.3 out beyond x = 0.9, and (0.3, 0.4) off an edge."""
    obb, _, _ = obb_and_frame
    d = obb.signed_distance([[0.5, -1.0, 2.65], [1.2, -1.0, 2.0], [1.2, -1.0, 3.15]])
    assert d.dtype == np.float32 and d.shape == (3,)
    np.testing.assert_allclose(d, [-0.1, 0.3, 0.5], atol=1e-6)
    pts = _random_points(rng, 5000, spread=2.0)
    np.testing.assert_array_equal(obb.signed_distance(pts) <= 0, _inside(pts))  # negative only inside


def test_signed_distance_hand_derived() -> None:
    obb = fathom.OrientedBox(center=(0, 0, 0), scale=(2, 2, 2))
    pts = [[0, 0, 0], [0.5, 0, 0], [3, 0, 0], [2, 2, 1], [1, 1, 1]]
    np.testing.assert_allclose(obb.signed_distance(pts), [-1, -0.5, 2, np.sqrt(2), 0], atol=1e-6)


def test_isclose_equality_pickle_repr(obb_and_frame) -> None:
    obb, center, scale = obb_and_frame
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
    obb, _, _ = obb_and_frame
    pts = _random_points(rng, 50, spread=1.5)
    inside, distances = obb.contains(pts), obb.signed_distance(pts)
    for p, expected_inside, expected_distance in zip(pts, inside, distances):
        one = obb.contains(p)
        assert isinstance(one, np.bool_) and one == expected_inside
        d = obb.signed_distance(p)
        assert isinstance(d, np.float32) and d == expected_distance
        assert obb.count_inside(p) == int(expected_inside)
        assert obb.indices_inside(p).tolist() == ([0] if expected_inside else [])
    assert obb.signed_distance(pts[0].astype(np.float64)) == distances[0]  # a float64 point: converted once
    assert obb.contains(pts[:1]).shape == (1,)  # an (1, 3) array stays an array
    with pytest.raises(fathom.NotFiniteError, match="fathom_obb_signed_distances"):
        obb.signed_distance([0.0, np.nan, 0.0])


def test_one_point_is_too_few_for_a_fit() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_obb_fit_pca"):
        fathom.fit_obb_pca([1.0, 2.0, 3.0])
    with pytest.raises(fathom.DegenerateError, match="fathom_box_fit_upright"):
        fathom.fit_box_upright(np.array([1.0, 2.0, 3.0], np.float32))
