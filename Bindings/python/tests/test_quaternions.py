"""Quaternion functions through the binding: the (x, y, z, w) order, matrices rows as rows, float32 results of
the documented shapes, q and -q, and errors; checked on hand-derived rotations and against scipy's Rotation (which
stores quaternions in the same order). Rodrigues, slerp and the angle on random rotations are the core tests'
(QuaternionTests.swift)."""

from __future__ import annotations

import numpy as np
import pytest

import fathom

ATOL = 2e-6
H = np.sqrt(0.5)
#: R_y(90 degrees): +z turns to +x.
QUARTER_Y = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])


def same_rotation(q1, q2, atol=1e-5) -> bool:
    """q and -q are the same rotation."""
    q1, q2 = np.asarray(q1, np.float64), np.asarray(q2, np.float64)
    return bool(np.allclose(q1, q2, atol=atol) or np.allclose(q1, -q2, atol=atol))


def test_from_axis_angle_hand_derived() -> None:
    # 90 degrees about +y takes +z to +x (right-hand rule): q = (0, sin 45, 0, cos 45); the axis need not be unit.
    q = fathom.quat_from_axis_angle((0, 2, 0), np.pi / 2)
    assert q.dtype == np.float32 and q.shape == (4,)
    np.testing.assert_allclose(q, [0, H, 0, H], atol=ATOL)
    np.testing.assert_allclose(fathom.quat_rotate(q, (0, 0, 1)), [1, 0, 0], atol=ATOL)
    np.testing.assert_allclose(fathom.quat_from_axis_angle((3, 0, 0), -1.0), [-np.sin(0.5), 0, 0, np.cos(0.5)], atol=ATOL)


def test_to_matrix_rows_as_rows() -> None:
    m = fathom.quat_to_matrix([0, H, 0, H])
    assert m.shape == (3, 3) and m.dtype == np.float32
    np.testing.assert_allclose(m, QUARTER_Y, atol=ATOL)  # its transpose would turn +z to -x


def test_from_matrix_hand_derived() -> None:
    np.testing.assert_allclose(fathom.quat_from_matrix(QUARTER_Y), [0, H, 0, H], atol=ATOL)
    # a half turn about (1, 1, 0) / sqrt 2 (w = 0, the numerically hard branch): 2 n n^T - I, as nested lists
    assert same_rotation(fathom.quat_from_matrix([[0, 1, 0], [1, 0, 0], [0, 0, -1]]), [H, H, 0, 0], atol=ATOL)


def test_multiply_is_the_hamilton_product() -> None:
    """i j = k, j i = -k; the quaternions need not be unit."""
    i, j, k = np.eye(4)[:3]
    np.testing.assert_array_equal(fathom.quat_multiply(i, j), k)
    np.testing.assert_array_equal(fathom.quat_multiply(j, i), -k)
    np.testing.assert_array_equal(fathom.quat_multiply((0, 0, 0, 2), (3, 0, 0, 0)), (6, 0, 0, 0))


def test_multiply_composes_b_then_a() -> None:
    """a = R_z(90), b = R_x(90): b takes +z to -y, then a takes -y to +x. The other order would give -y."""
    a = fathom.quat_from_axis_angle((0, 0, 1), np.pi / 2)
    b = fathom.quat_from_axis_angle((1, 0, 0), np.pi / 2)
    np.testing.assert_allclose(fathom.quat_rotate(fathom.quat_multiply(a, b), (0, 0, 1)), [1, 0, 0], atol=ATOL)
    np.testing.assert_allclose(fathom.quat_to_matrix(fathom.quat_multiply(a, b)) @ [0, 0, 1], [1, 0, 0], atol=ATOL)


def test_normalize(rng: np.random.Generator) -> None:
    q = rng.normal(size=4) * 7
    np.testing.assert_allclose(fathom.quat_normalize(q), q / np.linalg.norm(q), atol=ATOL)


def test_normalize_zero_is_degenerate() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_quat_normalize"):
        fathom.quat_normalize((0, 0, 0, 0))


def test_slerp_endpoints_and_shorter_arc() -> None:
    a = np.array([0, 0, 0, 1.0])
    b = -fathom.quat_from_axis_angle((0, 1, 0), 0.5)  # the same rotation as +, on the far side
    assert same_rotation(fathom.quat_slerp(a, b, 0), a)
    assert same_rotation(fathom.quat_slerp(a, b, 1), b)
    mid = fathom.quat_slerp(a, b, 0.5)
    assert same_rotation(mid, fathom.quat_from_axis_angle((0, 1, 0), 0.25), atol=1e-5)


def test_slerp_extrapolates() -> None:
    a = np.array([0, 0, 0, 1.0])
    b = fathom.quat_from_axis_angle((0, 0, 1), 0.4)
    assert same_rotation(fathom.quat_slerp(a, b, 2.0), fathom.quat_from_axis_angle((0, 0, 1), 0.8), atol=1e-5)
    assert same_rotation(fathom.quat_slerp(a, b, -1.0), fathom.quat_from_axis_angle((0, 0, 1), -0.4), atol=1e-5)


def test_angle_between() -> None:
    a, b = fathom.quat_from_axis_angle((0, 1, 0), 0.5), fathom.quat_from_axis_angle((0, 1, 0), 1.2)
    assert fathom.quat_angle_between(a, b) == pytest.approx(0.7, abs=1e-5)
    assert fathom.quat_angle_between(a, -b) == pytest.approx(0.7, abs=1e-5)  # q ~ -q


def test_angle_between_identical_is_zero() -> None:
    q = fathom.quat_from_axis_angle((1, 2, 3), 1.0)
    assert fathom.quat_angle_between(q, q) == pytest.approx(0.0, abs=1e-3)


# -- scipy cross-check (scipy also stores quaternions (x, y, z, w)) -----------------------------------


def test_against_scipy(rng: np.random.Generator) -> None:
    """scipy's Rotation, an independent implementation with the same (x, y, z, w) order, on random rotations."""
    Rotation = pytest.importorskip("scipy.spatial.transform").Rotation
    from scipy.spatial.transform import Slerp

    for _ in range(10):
        ra, rb = Rotation.random(random_state=rng.integers(1 << 31)), Rotation.random(random_state=rng.integers(1 << 31))
        qa, qb = ra.as_quat(), rb.as_quat()
        assert same_rotation(fathom.quat_from_matrix(ra.as_matrix()), qa, atol=1e-5)
        np.testing.assert_allclose(fathom.quat_to_matrix(qa), ra.as_matrix(), atol=1e-5)
        assert same_rotation(fathom.quat_multiply(qa, qb), (ra * rb).as_quat(), atol=1e-5)
        rv = rng.normal(size=3)
        axis_angle = Rotation.from_rotvec(rv)
        assert same_rotation(fathom.quat_from_axis_angle(rv, np.linalg.norm(rv)), axis_angle.as_quat(), atol=1e-5)
        t = rng.uniform()
        expected = Slerp([0, 1], Rotation.from_quat([qa, qb]))([t]).as_quat()[0]
        assert same_rotation(fathom.quat_slerp(qa, qb, t), expected, atol=1e-4)
        assert fathom.quat_angle_between(qa, qb) == pytest.approx((ra.inv() * rb).magnitude(), abs=1e-4)


# -- bad input ------------------------------------------------------------------------------------


def test_axis_angle_zero_axis_is_degenerate() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_quat_from_axis_angle") as info:
        fathom.quat_from_axis_angle((0, 0, 0), 1.0)
    assert "axis" in str(info.value)


def test_axis_angle_nan_angle() -> None:
    with pytest.raises(fathom.NotFiniteError, match="angle"):
        fathom.quat_from_axis_angle((0, 1, 0), float("nan"))


def test_from_matrix_not_rotation() -> None:
    with pytest.raises(fathom.NotRigidError, match="fathom_quat_from_matrix"):
        fathom.quat_from_matrix(np.diag([1.0, 1.0, 2.0]))


def test_from_matrix_reflection_is_not_rigid() -> None:
    with pytest.raises(fathom.NotRigidError):
        fathom.quat_from_matrix(np.diag([1.0, 1.0, -1.0]))  # orthonormal but det -1


def test_from_matrix_infinite() -> None:
    m = np.eye(3)
    m[1, 2] = np.inf
    with pytest.raises(fathom.NotFiniteError):
        fathom.quat_from_matrix(m)


def test_quaternion_wrong_shape() -> None:
    with pytest.raises(ValueError, match=r"q must have shape \(4,\)"):
        fathom.quat_to_matrix((0, 0, 1))
    with pytest.raises(ValueError, match=r"matrix must have shape \(3, 3\)"):
        fathom.quat_from_matrix(np.eye(4))
    with pytest.raises(ValueError, match=r"axis must have shape \(3,\)"):
        fathom.quat_from_axis_angle((0, 1), 1.0)


def test_rotate_by_non_unit_quaternion_is_refused() -> None:
    # "functions taking a rotation require |q| within 1e-3 of 1"
    with pytest.raises(fathom.OutOfRangeError, match="fathom_quat_rotate"):
        fathom.quat_rotate((0, 0, 0, 2), (1, 0, 0))


def test_slerp_nan_t() -> None:
    with pytest.raises(fathom.NotFiniteError, match="t"):
        fathom.quat_slerp((0, 0, 0, 1), (0, 0, 0, 1), float("nan"))


def test_axis_angle_with_huge_axis_is_still_unit() -> None:
    # |axis| overflows float32 when squared; the direction is still well defined
    q = fathom.quat_from_axis_angle((3e38, 3e38, 0), 1.0)
    expected = np.array([np.sqrt(0.5) * np.sin(0.5), np.sqrt(0.5) * np.sin(0.5), 0, np.cos(0.5)])
    np.testing.assert_allclose(q, expected, atol=1e-6)


def test_normalize_huge_quaternion() -> None:
    np.testing.assert_allclose(fathom.quat_normalize((3e38, 3e38, 3e38, 3e38)), [0.5] * 4, atol=1e-6)

