"""Bad input to depth frames, sampling and lengths: each gives its exception (status) and a message naming
the function and the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom

K = fathom.Intrinsics(1450, 1450, 960, 720, 1920, 1440)


def _frame(depth=None, **kwargs) -> fathom.DepthFrame:
    return fathom.DepthFrame(np.full((192, 256), 0.7, np.float32) if depth is None else depth, K, **kwargs)


def _raises(exc, call, *words: str):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), f"{w!r} not in {str(info.value)!r}"
    return info.value


def test_empty_mask_is_no_data() -> None:
    empty = np.zeros((192, 256), bool)
    _raises(fathom.NoDataError, lambda: _frame().length_mask(empty), "fathom_length_mask", "the mask is empty")
    _raises(fathom.NoDataError, lambda: _frame().length_midline(empty), "fathom_length_midline", "the mask is empty")
    _raises(fathom.NoDataError, lambda: fathom.mask_endpoints(empty), "fathom_mask_endpoints", "empty")
    _raises(fathom.NoDataError, lambda: _frame().length_keypoints((100, 100), (900, 900), empty, method="plane"),
            "fathom_length_keypoints", "the mask is empty")


def test_all_invalid_under_the_mask_is_no_data() -> None:
    depth = np.full((192, 256), 0.7, np.float32)
    depth[50:100, 50:100] = np.nan
    mask = np.zeros((192, 256), bool)
    mask[60:90, 60:90] = True
    _raises(fathom.NoDataError, lambda: _frame(depth).length_mask(mask), "fathom_length_mask")


def test_nan_everywhere() -> None:
    frame = _frame(np.full((192, 256), np.nan, np.float32))
    assert frame.count() == 0
    _raises(fathom.NoDataError, lambda: frame.sample(100, 100), "fathom_depth_sample", "no valid depth")
    _raises(fathom.NoDataError, lambda: frame.sample(100, 100, "median", 7), "7x7 window")
    _raises(fathom.NoDataError, lambda: frame.point(100, 100, "bilinear"), "fathom_depth_point")
    _raises(fathom.NoDataError, lambda: frame.length_keypoints((100, 100), (900, 900)), "head")
    _raises(fathom.NoDataError, lambda: frame.length_mask(np.ones((192, 256), bool)), "0 valid depth samples")
    _raises(fathom.NoDataError, lambda: frame.length_polyline([[100, 100], [500, 500]]), "0 of the 2 traced pixels")


def test_single_pixel_mask_is_degenerate() -> None:
    mask = np.zeros((10, 10), bool)
    mask[3, 4] = True
    _raises(fathom.DegenerateError, lambda: fathom.mask_endpoints(mask), "single pixel")


def test_keypoints_outside_the_image() -> None:
    frame = _frame()
    for head in ((-1, 100), (1920, 100), (100, 1440), (100, -0.01)):
        _raises(fathom.OutOfRangeError, lambda: frame.length_keypoints(head, (500, 500)), "fathom_length_keypoints",
                "head", "outside the 1920x1440 image")
    _raises(fathom.OutOfRangeError, lambda: frame.length_keypoints((5, 5), (2000, 5)), "tail")
    _raises(fathom.OutOfRangeError, lambda: frame.sample(1920, 0), "fathom_depth_sample", "outside")
    _raises(fathom.NotFiniteError, lambda: frame.sample(math.nan, 0), "fathom_depth_sample")


def test_same_keypoint_twice_is_degenerate() -> None:
    _raises(fathom.DegenerateError, lambda: _frame().length_keypoints((10, 10), (10, 10)), "same pixel")


def test_world_frame_without_pose() -> None:
    frame = _frame()
    _raises(fathom.InvalidStateError, lambda: frame.backproject("world"), "fathom_depth_backproject", "has_pose")
    _raises(fathom.InvalidStateError, lambda: frame.point(100, 100, frame="world"), "fathom_depth_point")
    _raises(fathom.InvalidStateError, lambda: frame.length_keypoints((1, 1), (500, 5), out_frame="world"),
            "fathom_length_keypoints")
    _raises(fathom.InvalidStateError, lambda: frame.length_mask(np.ones((4, 4)), out_frame="world"), "fathom_length_mask")


def test_plane_method_needs_a_mask() -> None:
    _raises(fathom.NullPointerError, lambda: _frame().length_keypoints((1, 1), (500, 5), method="plane"),
            "fathom_length_keypoints", "mask")
    _raises(fathom.NullPointerError, lambda: _frame().length_polyline([[1, 1], [500, 5]], method="plane"),
            "fathom_length_polyline", "mask")


def test_collinear_masked_points_for_the_plane() -> None:
    """A mask of one row of a fronto-parallel plane: its samples lie on a line, no plane through them."""
    mask = np.zeros((192, 256), bool)
    mask[100, 20:200] = True
    _raises(fathom.DegenerateError, lambda: _frame().length_keypoints((200, 800), (1400, 800), mask, method="plane"),
            "fathom_length_keypoints")


@pytest.mark.parametrize(
    "k, exc, words",
    [
        (fathom.Intrinsics(0, 1450, 960, 720, 1920, 1440), fathom.OutOfRangeError, ("fx",)),
        (fathom.Intrinsics(1450, -1, 960, 720, 1920, 1440), fathom.OutOfRangeError, ("fy",)),
        (fathom.Intrinsics(1450, 1450, math.nan, 720, 1920, 1440), fathom.NotFiniteError, ("cx",)),
        (fathom.Intrinsics(1450, 1450, 960, 720, 0, 1440), fathom.OutOfRangeError, ("width",)),
    ],
)
def test_bad_intrinsics(k, exc, words) -> None:
    frame = fathom.DepthFrame(np.ones((4, 4), np.float32), k)
    _raises(exc, frame.count, "fathom_depth_count", *words)
    _raises(exc, lambda: frame.backproject(), "fathom_depth_backproject", *words)


def test_bad_frame_values() -> None:
    d = np.ones((4, 4), np.float32)
    _raises(fathom.OutOfRangeError, fathom.DepthFrame(d, K, scale=0).count, "scale")
    _raises(fathom.OutOfRangeError, fathom.DepthFrame(d, K, scale=-0.001).count, "scale")
    _raises(fathom.NotFiniteError, fathom.DepthFrame(d, K, scale=math.inf).count, "scale")
    _raises(fathom.OutOfRangeError, fathom.DepthFrame(d, K, min_depth=-1).count, "min_depth")
    _raises(fathom.OutOfRangeError, fathom.DepthFrame(d, K, min_depth=2, max_depth=1).count, "max_depth")
    _raises(fathom.NotFiniteError, fathom.DepthFrame(d, K, max_depth=math.nan).count, "max_depth")
    _raises(fathom.OutOfRangeError, fathom.DepthFrame(np.ones((0, 4), np.float32), K).count, "at least 1x1")


def test_mismatched_sizes_in_python() -> None:
    d = np.ones((4, 5), np.float32)
    _raises(ValueError, lambda: fathom.DepthFrame(d, K, confidence=np.ones((5, 4), np.uint8)), "shape (4, 5)")
    _raises(ValueError, lambda: fathom.DepthFrame(np.ones(5, np.float32), K), "2D array")
    _raises(TypeError, lambda: fathom.DepthFrame(np.ones((4, 5), np.int64), K), "float32, float16 or uint16")
    _raises(TypeError, lambda: fathom.DepthFrame(d, (1, 2, 3, 4)), "fathom.Intrinsics")
    _raises(ValueError, lambda: fathom.DepthFrame(d, K, min_confidence=300), "0..255")
    _raises(ValueError, lambda: _frame().backproject(mask=np.ones(5)), "2D array")
    _raises(ValueError, lambda: _frame().backproject("sideways"), "'optical', 'camera', 'world'")
    _raises(ValueError, lambda: _frame().sample(1, 1, "mean"), "method")
    _raises(ValueError, lambda: _frame().length_polyline(np.ones((3, 3))), "(N, 2)")
    _raises(ValueError, lambda: _frame().length_keypoints((1, 2, 3), (4, 5)), "head")
    _raises(ValueError, lambda: _frame().count(region=(0, 0, 10)), "x0, y0, x1, y1")
    _raises(ValueError, lambda: _frame().count(region=(-1, 0, 10, 10)), "region x0")


def test_bad_selection_and_sampling_values() -> None:
    frame = _frame()
    _raises(fathom.OutOfRangeError, lambda: frame.count(region=(0, 0, 300, 100)), "fathom_depth_count", "region")
    _raises(fathom.OutOfRangeError, lambda: frame.count(region=(50, 0, 50, 100)), "empty")
    _raises(fathom.OutOfRangeError, lambda: frame.count(step=0), "step must be >= 1")
    _raises(fathom.OutOfRangeError, lambda: frame.count(mask=np.zeros((0, 3), bool)), "mask size")
    _raises(fathom.OutOfRangeError, lambda: frame.sample(10, 10, "median", 4), "window must be odd")
    _raises(fathom.OutOfRangeError, lambda: frame.length_keypoints((1, 1), (500, 5), window=4), "window")
    _raises(fathom.OutOfRangeError, lambda: frame.length_mask(np.ones((4, 4)), trim_fraction=0.3), "trim_fraction")
    _raises(fathom.OutOfRangeError, lambda: frame.length_mask(np.ones((4, 4)), depth_noise=-1), "depth_noise")
    _raises(fathom.NotFiniteError, lambda: frame.length_mask(np.ones((4, 4)), pixel_noise=math.inf), "pixel_noise")
    _raises(fathom.OutOfRangeError, lambda: frame.length_keypoints((1, 1), (500, 5), np.ones((4, 4)), method="plane",
                                                                    plane_threshold=0), "threshold")
    _raises(fathom.OutOfRangeError, lambda: frame.length_polyline(np.zeros((0, 2))), "count")


def test_bad_mask_shapes_for_lengths() -> None:
    _raises(ValueError, lambda: fathom.mask_endpoints(np.ones((2, 2, 2))), "2D array")
    _raises(TypeError, lambda: fathom.mask_endpoints(np.array([["a", "b"]])), "mask")
    _raises(TypeError, lambda: fathom.length_mask(np.ones((4, 4)), np.ones((4, 4))), "fathom.DepthFrame")


def test_a_transposed_depth_array_is_refused() -> None:
    """A (256, 192) array for a 1920 x 1440 image is the (192, 256) grid transposed: refused, not read as
    garbage points; an array of the image's shape is taken."""
    k = fathom.Intrinsics(1600, 1600, 960, 720, 1920, 1440)
    with pytest.raises(fathom.OutOfRangeError, match="transposed"):
        fathom.DepthFrame(np.ones((256, 192), np.float32), k).count()
    with pytest.raises(fathom.OutOfRangeError, match="shape"):
        fathom.DepthFrame(np.ones((20, 192), np.float32), k).count()  # one axis scaled 7 times more than the other
    assert fathom.DepthFrame(np.ones((192, 256), np.float32), k).count() == 192 * 256
