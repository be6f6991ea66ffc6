"""Quaternion functions against Rodrigues' formula, the Hamilton product and scipy's Rotation."""

from __future__ import annotations

import numpy as np
import pytest

import fathom
from _reference import axis_angle_matrix, hamilton, quat_to_matrix, random_rotation, same_rotation

ATOL = 2e-6


def test_from_axis_angle_matches_rodrigues(rng: np.random.Generator) -> None:
    for _ in range(20):
        axis = rng.normal(size=3) * rng.uniform(0.1, 10)
        angle = rng.uniform(-2 * np.pi, 2 * np.pi)
        q = fathom.quat_from_axis_angle(axis, angle)
        assert q.dtype == np.float32 and q.shape == (4,)
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-6)
        np.testing.assert_allclose(quat_to_matrix(q), axis_angle_matrix(axis, angle), atol=1e-5)


def test_from_axis_angle_hand_derived() -> None:
    # 90 degrees about +y takes +z to +x (right-hand rule): q = (0, sin 45, 0, cos 45).
    q = fathom.quat_from_axis_angle((0, 2, 0), np.pi / 2)
    np.testing.assert_allclose(q, [0, np.sqrt(0.5), 0, np.sqrt(0.5)], atol=ATOL)
    np.testing.assert_allclose(fathom.quat_rotate(q, (0, 0, 1)), [1, 0, 0], atol=ATOL)


def test_to_matrix_matches_formula(rng: np.random.Generator) -> None:
    for _ in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        m = fathom.quat_to_matrix(q)
        assert m.shape == (3, 3) and m.dtype == np.float32
        np.testing.assert_allclose(m, quat_to_matrix(q), atol=1e-5)


def test_from_matrix_inverts_to_matrix(rng: np.random.Generator) -> None:
    for _ in range(20):
        R = random_rotation(rng)
        q = fathom.quat_from_matrix(R)
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-6)
        np.testing.assert_allclose(quat_to_matrix(q), R, atol=1e-5)


def test_from_matrix_near_180_degrees() -> None:
    # w close to 0: the numerically hard branch.
    R = axis_angle_matrix((1, 1, 0), np.pi - 1e-4)
    q = fathom.quat_from_matrix(R)
    np.testing.assert_allclose(quat_to_matrix(q), R, atol=1e-5)


def test_multiply_is_hamilton_product(rng: np.random.Generator) -> None:
    for _ in range(20):
        a, b = rng.normal(size=4), rng.normal(size=4)  # need not be unit
        np.testing.assert_allclose(fathom.quat_multiply(a, b), hamilton(a, b), rtol=1e-5, atol=1e-5)


def test_multiply_composes_b_then_a(rng: np.random.Generator) -> None:
    Ra, Rb = random_rotation(rng), random_rotation(rng)
    qa, qb = fathom.quat_from_matrix(Ra), fathom.quat_from_matrix(Rb)
    np.testing.assert_allclose(quat_to_matrix(fathom.quat_multiply(qa, qb)), Ra @ Rb, atol=1e-5)


def test_normalize(rng: np.random.Generator) -> None:
    q = rng.normal(size=4) * 7
    np.testing.assert_allclose(fathom.quat_normalize(q), q / np.linalg.norm(q), atol=ATOL)


def test_normalize_zero_is_degenerate() -> None:
    with pytest.raises(fathom.DegenerateError, match="fathom_quat_normalize"):
        fathom.quat_normalize((0, 0, 0, 0))


def _slerp_reference(a, b, t):
    """Closed-form slerp along the shorter arc (a, b unit)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if np.dot(a, b) < 0:
        b = -b
    theta = np.arccos(np.clip(np.dot(a, b), -1, 1))
    return (np.sin((1 - t) * theta) * a + np.sin(t * theta) * b) / np.sin(theta)


def test_slerp_matches_closed_form(rng: np.random.Generator) -> None:
    for _ in range(20):
        a = fathom.quat_from_matrix(random_rotation(rng))
        b = fathom.quat_from_matrix(random_rotation(rng))
        t = rng.uniform(0, 1)
        out = fathom.quat_slerp(a, b, t)
        assert np.linalg.norm(out) == pytest.approx(1.0, abs=1e-5)
        assert same_rotation(out, _slerp_reference(a, b, t), atol=1e-4)


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


def test_angle_between(rng: np.random.Generator) -> None:
    for _ in range(20):
        Ra, Rb = random_rotation(rng), random_rotation(rng)
        a, b = fathom.quat_from_matrix(Ra), fathom.quat_from_matrix(Rb)
        cos = (np.trace(Ra.T @ Rb) - 1) / 2
        expected = np.arccos(np.clip(cos, -1, 1))
        assert fathom.quat_angle_between(a, b) == pytest.approx(expected, abs=1e-4)
        assert fathom.quat_angle_between(a, -b) == pytest.approx(expected, abs=1e-4)  # q ~ -q


def test_angle_between_identical_is_zero() -> None:
    q = fathom.quat_from_axis_angle((1, 2, 3), 1.0)
    assert fathom.quat_angle_between(q, q) == pytest.approx(0.0, abs=1e-3)


def test_rotate(rng: np.random.Generator) -> None:
    for _ in range(20):
        R = random_rotation(rng)
        v = rng.normal(size=3)
        np.testing.assert_allclose(fathom.quat_rotate(fathom.quat_from_matrix(R), v), R @ v, atol=1e-5)


# -- scipy cross-check (scipy also stores quaternions (x, y, z, w)) -----------------------------------


def test_against_scipy(rng: np.random.Generator) -> None:
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

