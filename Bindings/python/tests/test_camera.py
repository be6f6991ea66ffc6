"""Intrinsics scaling against the formula in reference/conventions.md."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import fathom


def test_scaled_rgb_to_depth() -> None:
    k = fathom.Intrinsics(fx=1450.0, fy=1452.0, cx=960.5, cy=719.25, width=1920, height=1440)
    d = k.scaled(256, 192)
    assert (d.width, d.height) == (256, 192)
    assert d.fx == pytest.approx(1450.0 * 256 / 1920, rel=1e-6)
    assert d.cx == pytest.approx(960.5 * 256 / 1920, rel=1e-6)
    assert d.fy == pytest.approx(1452.0 * 192 / 1440, rel=1e-6)
    assert d.cy == pytest.approx(719.25 * 192 / 1440, rel=1e-6)


def test_scaled_non_uniform() -> None:
    k = fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480)
    d = k.scaled(1280, 240)
    assert (d.fx, d.cx, d.fy, d.cy) == pytest.approx((1000.0, 640.0, 200.0, 120.0))


def test_matrix_and_value_semantics() -> None:
    k = fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480)
    np.testing.assert_array_equal(k.matrix, [[500, 0, 320], [0, 400, 240], [0, 0, 1]])
    with pytest.raises(dataclasses.FrozenInstanceError):
        k.fx = 1.0  # type: ignore[misc]
    assert k == fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480)


def test_zero_target_size() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="fathom_intrinsics_scale"):
        fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480).scaled(0, 480)


def test_zero_source_size() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="width"):
        fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 0, 480).scaled(320, 240)


def test_non_positive_focal_length() -> None:
    with pytest.raises(fathom.OutOfRangeError, match="fx"):
        fathom.Intrinsics(-500.0, 400.0, 320.0, 240.0, 640, 480).scaled(320, 240)


def test_nan_principal_point() -> None:
    with pytest.raises(fathom.NotFiniteError, match="cy"):
        fathom.Intrinsics(500.0, 400.0, 320.0, float("nan"), 640, 480).scaled(320, 240)


def test_size_out_of_uint32_range() -> None:
    with pytest.raises(ValueError, match="width must be in 0..4294967295"):
        fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480).scaled(-1, 240)
    with pytest.raises(TypeError, match="height must be an int"):
        fathom.Intrinsics(500.0, 400.0, 320.0, 240.0, 640, 480).scaled(320, 240.5)  # type: ignore[arg-type]
