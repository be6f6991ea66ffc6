"""Depth frames through the binding: depth maps of every dtype and layout (float32 rows read in place, others
converted once), confidence maps and masks of any resolution, ranges, regions and steps, the three point frames,
pixels as uint32, sampling by name or enum, arrays of pixels, and errors. Checked on small grids whose points,
samples and normals are worked out by hand, on the check values of reference/depth-and-fish.md, and by comparing
each conversion with the float32 frame it must equal. The formulas on random maps are the core tests'
(DepthFitTests, DepthSamplingTests, DepthFormatTests)."""

from __future__ import annotations

import ctypes
import math
from ctypes import byref, c_size_t

import numpy as np
import pytest

import fathom
from _poses import rigid, rot_x, rot_y
from fathom import _lib

# ARKit-like: a 1920x1440 RGB image with a 256x192 LiDAR depth map.
RGB_W, RGB_H = 1920, 1440
DEPTH_W, DEPTH_H = 256, 192
K = fathom.Intrinsics(1450.0, 1450.0, 962.5, 718.25, RGB_W, RGB_H)
#: A camera-to-world pose without symmetries, and its matrix.
POSE_M = rigid(rot_y(0.7) @ rot_x(0.3), (0.4, 1.3, -2.0))
POSE = fathom.Pose(POSE_M)


def _to_frame(optical: np.ndarray, frame_name: str) -> np.ndarray:
    """Optical points (x right, y down, z forward) in the camera frame (x, -y, -z) or the world (POSE of camera)."""
    if frame_name == "optical":
        return optical
    camera = optical * [1.0, -1.0, -1.0]
    return camera if frame_name == "camera" else camera @ POSE_M[:3, :3].T + POSE_M[:3, 3]


def _noisy_depth(rng: np.random.Generator, shape=(DEPTH_H, DEPTH_W)) -> np.ndarray:
    """Depths in [0.2, 5] m with every kind of invalid value sprinkled in."""
    d = rng.uniform(0.2, 5.0, size=shape).astype(np.float32)
    flat = d.reshape(-1)
    picks = rng.choice(flat.size, size=600, replace=False)
    flat[picks[:100]] = np.nan
    flat[picks[100:200]] = np.inf
    flat[picks[200:300]] = -np.inf
    flat[picks[300:400]] = 0.0
    flat[picks[400:500]] = -1.5
    flat[picks[500:]] = 1e-40  # subnormal: > 0, valid
    return d


def _valid(d_m: np.ndarray, lo: float = 0.0, hi: float = math.inf) -> np.ndarray:
    """The header's rule for a valid sample: finite, > 0 and within [min_depth, max_depth]."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(d_m) & (d_m > 0) & (d_m >= lo) & (d_m <= hi)


def _pixels(selected: np.ndarray) -> np.ndarray:
    """The (column, row) pixels of the selected samples, row by row."""
    rows, cols = np.nonzero(selected)
    return np.stack([cols, rows], axis=1)


def _all_points(frame: fathom.DepthFrame, frame_name: str = "camera") -> np.ndarray:
    """The (h, w, 3) points of a frame whose every sample is valid."""
    points = frame.backproject(frame_name)
    assert len(points) == frame.width * frame.height
    return points.reshape(frame.height, frame.width, 3)


# ------------------------------------------------------------------------------------------------
# Enums
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls, prefix",
    [
        (fathom.DepthFormat, "FATHOM_DEPTH_"),
        (fathom.PointFrame, "FATHOM_FRAME_"),
        (fathom.Sampling, "FATHOM_SAMPLE_"),
        (fathom.LineMethod, "FATHOM_FIT_"),
        (fathom.KeypointDepth, "FATHOM_KEYPOINT_"),
    ],
)
def test_python_enums_match_header_constants(cls, prefix: str) -> None:
    names = {k[len(prefix):]: v for k, v in _lib.CONSTANTS.items() if k.startswith(prefix)}
    assert {m.name: m.value for m in cls} == names


# ------------------------------------------------------------------------------------------------
# The reference check values of reference/depth-and-fish.md
# ------------------------------------------------------------------------------------------------

K_INV = np.array([[7.0161547e-4, 0, -0.67513853], [0, 7.0161547e-4, -0.5045314], [0, 0, 1]], dtype=np.float64)
K_REF = np.linalg.inv(K_INV)  # fx = fy = 1425.28..., cx = 962.25..., cy = 719.10... for the 1920x1440 image


def _reference_intrinsics() -> fathom.Intrinsics:
    return fathom.Intrinsics(K_REF[0, 0], K_REF[1, 1], K_REF[0, 2], K_REF[1, 2], 1920, 1440)


@pytest.mark.parametrize("uv", [(0.0, 0.0), (962.25, 719.1), (1919.5, 1439.5), (100.25, 1300.75), (1500.0, 20.0)])
def test_reference_point_is_k_inverse_times_depth(uv: tuple[float, float]) -> None:
    d = 0.8125  # exactly representable
    frame = fathom.DepthFrame(np.full((192, 256), d, np.float32), _reference_intrinsics())
    expected = K_INV @ np.array([uv[0], uv[1], 1.0]) * d
    got = frame.point(*uv, frame="optical")
    np.testing.assert_allclose(got, expected, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(frame.point(*uv, frame="camera"), expected * [1, -1, -1], rtol=2e-6, atol=2e-6)


def test_reference_backprojection_of_sample_centres() -> None:
    """Sample (i, j) back-projects as the RGB pixel ((i + 0.5) * 1920/256, (j + 0.5) * 1440/192) would with
    the reference K^-1: scaling the intrinsics to the grid is the same as scaling the pixel back up."""
    rng = np.random.default_rng(1)
    depth = rng.uniform(0.3, 3.0, (192, 256)).astype(np.float32)
    frame = fathom.DepthFrame(depth, _reference_intrinsics())
    points, pixels = frame.backproject("optical", pixels=True)
    assert points.shape == (256 * 192, 3) and pixels.dtype == np.uint32
    i, j = pixels[:, 0].astype(np.float64), pixels[:, 1].astype(np.float64)
    rgb = np.stack([(i + 0.5) * 1920 / 256, (j + 0.5) * 1440 / 192, np.ones_like(i)], axis=1)
    expected = (rgb @ K_INV.T) * depth[pixels[:, 1], pixels[:, 0]][:, None]
    np.testing.assert_allclose(points, expected, rtol=1e-5, atol=1e-6)
    # row by row
    np.testing.assert_array_equal(pixels[:5], [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]])


# ------------------------------------------------------------------------------------------------
# Back-projection
# ------------------------------------------------------------------------------------------------

#: A 2x2 depth grid under a 4x4 image (fx = fy = cx = cy = 2): the grid's intrinsics are halved to fx' = cx' = 1,
#: so sample (i, j), at (i + 0.5, j + 0.5), is optical ((i - 0.5) d, (j - 0.5) d, d).
SMALL_K = fathom.Intrinsics(2.0, 2.0, 2.0, 2.0, 4, 4)
SMALL_DEPTH = np.array([[1.0, 2.0], [4.0, np.nan]], np.float32)
#: 90 degrees about +y at (10, 20, 30): camera (a, b, c) is world (10 + c, 20 + b, 30 - a).
QUARTER = rigid([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]], (10.0, 20.0, 30.0))
SMALL_POINTS = {
    "optical": [[-0.5, -0.5, 1.0], [1.0, -1.0, 2.0], [-2.0, 2.0, 4.0]],
    "camera": [[-0.5, 0.5, -1.0], [1.0, 1.0, -2.0], [-2.0, -2.0, -4.0]],
    "world": [[9.0, 20.5, 30.5], [8.0, 21.0, 29.0], [6.0, 18.0, 32.0]],
}


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_backprojection_by_hand(frame_name: str) -> None:
    frame = fathom.DepthFrame(SMALL_DEPTH, SMALL_K, pose=QUARTER)
    points, pixels = frame.backproject(frame_name, pixels=True)
    assert points.dtype == np.float32 and pixels.dtype == np.uint32
    np.testing.assert_array_equal(pixels, [[0, 0], [1, 0], [0, 1]])  # row by row; the NaN sample is skipped
    np.testing.assert_allclose(points, SMALL_POINTS[frame_name], atol=1e-6)
    assert frame.count() == 3


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_backproject_skips_invalid_samples(rng: np.random.Generator, frame_name: str) -> None:
    """NaN, infinities, zeros and negatives are skipped (a subnormal depth is kept); every other sample's point is
    the one the same depth gives in a map without invalid samples."""
    depth = _noisy_depth(rng)
    valid = _valid(depth)
    frame = fathom.DepthFrame(depth, K, pose=POSE)
    points, pixels = frame.backproject(frame_name, pixels=True)
    assert frame.count() == len(points) == int(valid.sum())
    np.testing.assert_array_equal(pixels, _pixels(valid))
    clean = fathom.DepthFrame(np.where(valid, depth, 1.0), K, pose=POSE)
    np.testing.assert_array_equal(points, _all_points(clean, frame_name)[valid])


def test_backproject_default_frame_is_camera(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.5, 2, (12, 16)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    np.testing.assert_array_equal(frame.backproject(), frame.backproject("camera"))
    np.testing.assert_array_equal(frame.backproject(fathom.PointFrame.OPTICAL) * [1, -1, -1], frame.backproject())


def test_confidence_and_range(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.1, 6.0, (DEPTH_H, DEPTH_W)).astype(np.float32)
    confidence = rng.integers(0, 3, depth.shape, dtype=np.uint8)
    frame = fathom.DepthFrame(depth, K, confidence=confidence, min_confidence=2, min_depth=0.5, max_depth=4.0)
    valid = _valid(depth, 0.5, 4.0) & (confidence >= 2)
    pts, pix = frame.backproject("optical", pixels=True)
    np.testing.assert_array_equal(pix, _pixels(valid))
    np.testing.assert_array_equal(pts, _all_points(fathom.DepthFrame(depth, K), "optical")[valid])
    # min_confidence 0 keeps every sample; 1 drops the low ones
    assert fathom.DepthFrame(depth, K, confidence=confidence).count() == depth.size
    assert fathom.DepthFrame(depth, K, confidence=confidence, min_confidence=1).count() == int((confidence >= 1).sum())


def test_range_bounds_are_inclusive() -> None:
    depth = np.array([[0.5, 1.0, 2.0, 4.0, 4.5]], np.float32)
    frame = fathom.DepthFrame(depth, fathom.Intrinsics(5, 5, 2.5, 0.5, 5, 1), min_depth=1.0, max_depth=4.0)
    _, pix = frame.backproject(pixels=True)
    np.testing.assert_array_equal(pix[:, 0], [1, 2, 3])


def test_float16_depth(rng: np.random.Generator) -> None:
    """float16 meters give the points of the same values in float32 (every float16 is exact in float32)."""
    depth = rng.uniform(0.2, 5, (DEPTH_H, DEPTH_W)).astype(np.float16)
    depth[3, 4] = np.float16(np.nan)
    depth[5, 6] = np.float16(np.inf)
    depth[7, 8] = 0
    frame = fathom.DepthFrame(depth, K)
    assert frame.format is fathom.DepthFormat.FLOAT16 and frame.scale == 1.0
    as_float32 = fathom.DepthFrame(depth.astype(np.float32), K)
    assert frame.count() == as_float32.count() == depth.size - 3
    np.testing.assert_array_equal(frame.backproject("optical"), as_float32.backproject("optical"))


@pytest.mark.parametrize("scale", [None, 0.0005])
def test_uint16_depth_with_scale(rng: np.random.Generator, scale) -> None:
    """uint16 units times the scale (the header's default: millimetres) give the points of those meters; 0 is no
    depth."""
    depth = rng.integers(0, 6000, (DEPTH_H, DEPTH_W), dtype=np.uint16)
    depth[0, :10] = 0
    frame = fathom.DepthFrame(depth, K, scale=scale)
    s = 0.001 if scale is None else scale
    assert frame.format is fathom.DepthFormat.UINT16 and frame.scale == pytest.approx(s)
    meters = fathom.DepthFrame(depth.astype(np.float32) * np.float32(s), K)
    pts, pix = frame.backproject(pixels=True)
    np.testing.assert_array_equal(pix, _pixels(depth > 0))
    np.testing.assert_allclose(pts, meters.backproject(), rtol=1e-6, atol=1e-6)


def test_float32_scale(rng: np.random.Generator) -> None:
    depth = rng.uniform(100, 3000, (9, 12)).astype(np.float32)  # millimetres as float, the image's 4:3 shape
    frame = fathom.DepthFrame(depth, K, scale=0.001)
    np.testing.assert_allclose(frame.backproject(), fathom.DepthFrame(depth * np.float32(0.001), K).backproject(),
                               rtol=1e-6, atol=1e-6)


def test_cropped_rows_are_read_in_place(rng: np.random.Generator) -> None:
    big = rng.uniform(0.5, 3, (40, 60)).astype(np.float32)
    crop = big[5:35, 7:47]  # rows 240 bytes apart, 160 bytes wide: row_stride, no copy; 40 x 30 as the image
    k = fathom.Intrinsics(400, 400, 200, 150, 400, 300)
    frame = fathom.DepthFrame(crop, k)
    assert np.shares_memory(frame.depth, big)
    np.testing.assert_array_equal(frame.backproject("optical"), fathom.DepthFrame(crop.copy(), k).backproject("optical"))
    # the frame borrows: a later change of the caller's array shows
    big[5, 7] = np.nan
    assert frame.count() == crop.size - 1


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a.T.copy().T,  # column-major: copied
        lambda a: a[:, ::2],  # strided columns: copied
        lambda a: a[::-1],  # negative row stride: copied
        lambda a: a.astype(np.float64),  # float64: converted once to float32
        lambda a: a.astype(">f4"),  # big-endian: converted
    ],
    ids=["fortran", "strided-columns", "reversed-rows", "float64", "big-endian"],
)
def test_other_layouts_are_copied_once(rng: np.random.Generator, make) -> None:
    base = rng.uniform(0.5, 3, (12, 16)).astype(np.float32)
    a = make(base)
    h, w = a.shape  # an image 10 times the grid's size, of the grid's shape
    k = fathom.Intrinsics(100, 100, 50, 40, 10 * w, 10 * h)
    frame = fathom.DepthFrame(a, k)
    assert frame.depth.dtype == np.float32 and frame.depth.flags.c_contiguous
    expected = fathom.DepthFrame(np.ascontiguousarray(a, np.float32), k).backproject("optical")
    np.testing.assert_array_equal(frame.backproject("optical"), expected)


def test_region_and_step(rng: np.random.Generator) -> None:
    """region (x0, y0, x1, y1), end exclusive, and every step-th column and row from its corner."""
    depth = _noisy_depth(rng)
    frame = fathom.DepthFrame(depth, K)
    x0, y0, x1, y1, step = 13, 7, 200, 150, 3
    sel = np.zeros(depth.shape, bool)
    sel[y0:y1:step, x0:x1:step] = True
    pts, pix = frame.backproject(region=(x0, y0, x1, y1), step=step, pixels=True)
    np.testing.assert_array_equal(pix, _pixels(_valid(depth) & sel))
    all_pts, all_pix = frame.backproject(pixels=True)
    np.testing.assert_array_equal(pts, all_pts[sel[all_pix[:, 1], all_pix[:, 0]]])
    assert frame.count(region=(x0, y0, x1, y1), step=step) == len(pix)
    # step alone over the whole grid
    sel = np.zeros(depth.shape, bool)
    sel[::4, ::4] = True
    assert frame.count(step=4) == int((_valid(depth) & sel).sum())


#: A 4 x 6 depth grid under a 6 x 4 image (fx' = fx) for the mask tests, and a pattern of samples on it.
MASK_K = fathom.Intrinsics(10.0, 10.0, 3.0, 2.0, 6, 4)
PATTERN = np.array([[0, 1, 1, 0, 0, 1], [1, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0]])


@pytest.mark.parametrize(
    "mask, selected",
    [
        # half the grid's resolution: each mask pixel covers a 2 x 2 block of samples
        ([[1, 0, 1], [0, 1, 0]], [[1, 1, 0, 0, 1, 1], [1, 1, 0, 0, 1, 1], [0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 0]]),
        # twice the resolution: sample (i, j)'s centre falls on mask pixel (2 i + 1, 2 j + 1), which holds the pattern;
        # the three other pixels of each 2 x 2 block hold its opposite, so reading any of them would show
        (np.kron(PATTERN, [[0, 0], [0, 1]]) + np.kron(1 - PATTERN, [[1, 1], [1, 0]]), PATTERN),
        # one pixel covers everything
        ([[1]], np.ones((4, 6), int)),
    ],
    ids=["half", "double", "one-pixel"],
)
def test_masks_of_other_resolutions(mask, selected) -> None:
    depth = np.arange(1, 25, dtype=np.float32).reshape(4, 6)
    frame = fathom.DepthFrame(depth, MASK_K)
    mask, selected = np.asarray(mask), np.asarray(selected, bool)
    for m in (mask.astype(bool), mask.astype(np.uint8) * 255, mask.astype(np.int32)):
        pts, pix = frame.backproject(mask=m, pixels=True)
        np.testing.assert_array_equal(pix, _pixels(selected))
        np.testing.assert_array_equal(pts, _all_points(frame)[selected])
    assert frame.count(mask=mask) == int(selected.sum())


def test_mask_with_region_and_step() -> None:
    """A mask, a region and a step together select the samples every one of them selects."""
    frame = fathom.DepthFrame(np.arange(1, 25, dtype=np.float32).reshape(4, 6), MASK_K)
    mask = np.array([[1, 0, 1], [0, 1, 0]], bool)
    _, pix = frame.backproject(region=(1, 0, 6, 4), step=2, mask=mask, pixels=True)
    np.testing.assert_array_equal(pix, [[1, 0], [5, 0], [3, 2]])  # columns 1, 3, 5 of rows 0 and 2, under the mask


def test_buffer_too_small_writes_the_first_capacity(rng: np.random.Generator) -> None:
    depth = _noisy_depth(rng, (30, 40))
    k = fathom.Intrinsics(300, 300, 160, 120, 320, 240)
    frame = fathom.DepthFrame(depth, k)
    full = frame.backproject("optical")
    capacity = 100
    out = np.full((capacity + 5, 3), -7.0, np.float32)
    pix = np.full((capacity + 5, 2), 9999, np.uint32)
    count = c_size_t()
    status = _lib.FUNCTIONS["fathom_depth_backproject"].raw(
        frame, None, 0, out.ctypes.data_as(_lib.FloatPtr), pix.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
        None, capacity, byref(count),
    )
    assert status == fathom.BufferTooSmallError.STATUS
    assert count.value == len(full) > capacity
    np.testing.assert_array_equal(out[:capacity], full[:capacity])
    assert (out[capacity:] == -7.0).all() and (pix[capacity:] == 9999).all()  # nothing past capacity
    message = _lib.fathom_last_error().decode()
    assert "fathom_depth_backproject" in message and "capacity" in message


def test_no_valid_sample_gives_empty_arrays() -> None:
    frame = fathom.DepthFrame(np.zeros((4, 5), np.float32), fathom.Intrinsics(5, 5, 2.5, 2, 5, 4))
    pts, pix, nrm = frame.backproject(pixels=True, normals=True)
    assert pts.shape == (0, 3) and pix.shape == (0, 2) and nrm.shape == (0, 3)
    assert frame.count() == 0


# ------------------------------------------------------------------------------------------------
# Normals
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_normals_of_a_tilted_plane(frame_name: str) -> None:
    """The plane z = 1 + x / 2 (optical), whose depth along a sample's ray (x / z = r) is 1 / (1 - r / 2): its normal,
    turned towards the camera, is (1/2, 0, -1) / |.| in the optical frame, in the other frames as points turn."""
    k = fathom.Intrinsics(100, 100, 50, 40, 100, 80)
    r = (np.arange(100) + 0.5 - 50) / 100
    depth = np.broadcast_to(1 / (1 - r / 2), (80, 100)).astype(np.float32)
    depth[30:40, 20:30] = np.nan  # a hole: its border uses one-sided differences
    frame = fathom.DepthFrame(depth, k, pose=POSE)
    _, nrm = frame.backproject(frame_name, normals=True)
    facing = np.array([0.5, 0.0, -1.0]) / math.sqrt(1.25)
    expected = _to_frame(facing, frame_name)
    if frame_name == "world":
        expected = expected - POSE_M[:3, 3]  # a direction turns with the pose but does not move
    np.testing.assert_allclose(nrm, np.broadcast_to(expected, nrm.shape), atol=2e-3)


def test_normals_zero_without_a_neighbour_along_an_axis() -> None:
    depth = np.full((5, 5), np.nan, np.float32)
    depth[2, :] = 1.0  # a single valid row: no valid neighbour along the columns
    depth[0, 0] = 1.0  # an isolated sample
    frame = fathom.DepthFrame(depth, fathom.Intrinsics(5, 5, 2.5, 2.5, 5, 5))
    _, nrm = frame.backproject(normals=True)
    np.testing.assert_array_equal(nrm, np.zeros_like(nrm))


def test_normals_of_a_fronto_parallel_plane_in_camera_frame() -> None:
    frame = fathom.DepthFrame(np.full((20, 30), 2.0, np.float32), fathom.Intrinsics(30, 30, 15, 10, 30, 20))
    _, nrm = frame.backproject("camera", normals=True)
    np.testing.assert_allclose(nrm, np.broadcast_to([0, 0, 1], nrm.shape), atol=1e-6)  # ARKit: towards +z


# ------------------------------------------------------------------------------------------------
# Sampling
# ------------------------------------------------------------------------------------------------

def _name(i, j):
    """The depth that names sample (i, j): (1000 j + i + 1) / 8192 m, exact in float32, never 0 (no depth) and
    below the 50 m plausibility check's threshold."""
    return (1000 * j + i + 1) / 8192


NAMED = _name(np.arange(DEPTH_W)[None, :], np.arange(DEPTH_H)[:, None]).astype(np.float32)
SCALE_U, SCALE_V = RGB_W / DEPTH_W, RGB_H / DEPTH_H  # 7.5 RGB pixels per sample each way


def test_sample_nearest_is_the_cell_under_the_pixel() -> None:
    """An RGB pixel reads the depth sample whose cell holds it: sample (i, j) covers u in [7.5 i, 7.5 (i + 1))."""
    frame = fathom.DepthFrame(NAMED, K)
    for i, j, fu, fv in [(0, 0, 0.0, 0.0), (7, 3, 0.25, 0.75), (100, 50, 0.99, 0.01), (255, 191, 0.999, 0.999)]:
        assert frame.sample((i + fu) * SCALE_U, (j + fv) * SCALE_V) == _name(i, j)
    assert frame.sample(RGB_W - 0.01, RGB_H - 0.01, fathom.Sampling.NEAREST) == _name(255, 191)


#: A 2 x 2 grid under a 2 x 2 image: sample centres at 0.5 and 1.5.
TINY_K = fathom.Intrinsics(2, 2, 1, 1, 2, 2)


def test_sample_bilinear_by_hand() -> None:
    """depth [[1, 2], [4, NaN]]: at (1, 1) the four weights are 1/4 and the NaN's is dropped: 7/3; at (0.75, 1) the
    weights are 3/8, 1/8, 3/8 (and 1/8 dropped): (3/8 + 2/8 + 12/8) / (7/8) = 17/7; at the NaN's centre only it counts."""
    frame = fathom.DepthFrame(np.array([[1.0, 2.0], [4.0, np.nan]], np.float32), TINY_K)
    assert frame.sample(1.0, 1.0, "bilinear") == pytest.approx(7 / 3, rel=1e-6)
    assert frame.sample(0.75, 1.0, fathom.Sampling.BILINEAR) == pytest.approx(17 / 7, rel=1e-6)
    with pytest.raises(fathom.NoDataError):
        frame.sample(1.5, 1.5, "bilinear")


def test_sample_bilinear_is_linear_on_a_ramp() -> None:
    """On a depth ramp d = a + b * (i + 0.5) the bilinear sample at grid x = u * 256 / 1920 is a + b * x."""
    i = np.arange(DEPTH_W) + 0.5
    depth = np.broadcast_to((1.0 + 0.01 * i).astype(np.float32), (DEPTH_H, DEPTH_W)).copy()
    frame = fathom.DepthFrame(depth, K)
    for u in (100.0, 555.5, 1234.5, 1800.0):
        assert frame.sample(u, 700.0, "bilinear") == pytest.approx(1.0 + 0.01 * u / SCALE_U, rel=1e-6)


#: 5 x 5 depths 1 .. 25 row by row, under a 5 x 5 image, with the sample at (1, 0) invalid.
WINDOWED = np.arange(1, 26, dtype=np.float32).reshape(5, 5)
WINDOWED[0, 1] = 0.0
FIVE_K = fathom.Intrinsics(5, 5, 2.5, 2.5, 5, 5)


@pytest.mark.parametrize("window, median", [(1, 1.0), (3, 6.0), (5, 7.0)])
def test_sample_median_window(window: int, median: float) -> None:
    """At the corner sample: window 1 is the sample itself; 3 takes {1, 6, 7} (the 0 is invalid); 5 takes
    {1, 3, 6, 7, 8, 11, 12, 13}, whose lower middle is 7."""
    frame = fathom.DepthFrame(WINDOWED, FIVE_K)
    assert frame.sample(0.5, 0.5, "median", window) == median
    assert frame.sample(0.5, 0.5, fathom.Sampling.MEDIAN, window=window) == median


def test_sample_median_lower_middle_of_even_count() -> None:
    depth = np.zeros((3, 3), np.float32)
    depth[0, 0], depth[1, 1], depth[2, 2], depth[0, 2] = 1.0, 2.0, 3.0, 4.0
    frame = fathom.DepthFrame(depth, fathom.Intrinsics(3, 3, 1.5, 1.5, 3, 3))
    assert frame.sample(1.5, 1.5, "median", 3) == 2.0  # values 1, 2, 3, 4: the lower middle


def test_sample_respects_confidence_and_range() -> None:
    depth = np.array([[1.0, 2.0], [3.0, 9.0]], np.float32)
    conf = np.array([[2, 0], [2, 2]], np.uint8)
    frame = fathom.DepthFrame(depth, fathom.Intrinsics(2, 2, 1, 1, 2, 2), confidence=conf, min_confidence=1, max_depth=5)
    assert frame.sample(0.5, 0.5) == 1.0
    with pytest.raises(fathom.NoDataError, match="no valid depth"):
        frame.sample(1.5, 0.5)  # low confidence
    with pytest.raises(fathom.NoDataError):
        frame.sample(1.5, 1.5)  # beyond max_depth
    assert frame.sample(1.0, 1.0, "median", 3) == 1.0  # median of the valid 1 and 3: the lower


def _pixels_in_image(rng: np.random.Generator, n: int) -> np.ndarray:
    uv = rng.uniform([0, 0], [RGB_W, RGB_H], size=(n, 2))
    return np.vstack([uv, [[0, 0], [RGB_W - 0.01, RGB_H - 0.01], [3.0, 700.0], [1917.0, 2.0]]])


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_point_uses_rgb_intrinsics(rng: np.random.Generator, frame_name: str) -> None:
    """On a wall 2 m away the point at RGB pixel (u, v) is optical ((u - cx) / fx * 2, (v - cy) / fy * 2, 2) with the
    RGB image's own intrinsics, in the frame asked for."""
    frame = fathom.DepthFrame(np.full((DEPTH_H, DEPTH_W), 2.0, np.float32), K, pose=POSE)
    for u, v in _pixels_in_image(rng, 20):
        optical = np.array([(u - K.cx) / K.fx * 2, (v - K.cy) / K.fy * 2, 2.0])
        np.testing.assert_allclose(frame.point(u, v, frame=frame_name), _to_frame(optical, frame_name), rtol=1e-5,
                                   atol=1e-5)


def test_point_with_median() -> None:
    """The median (6, see test_sample_median_window) is the depth of the point at the corner pixel (0.5, 0.5)."""
    frame = fathom.DepthFrame(WINDOWED, FIVE_K)
    np.testing.assert_allclose(frame.point(0.5, 0.5, "median", 3, "optical"), [-2.4, -2.4, 6.0], rtol=1e-6)


# ------------------------------------------------------------------------------------------------
# Arrays of pixels (numpy style): one library call per pixel, NaN where no valid sample is
# ------------------------------------------------------------------------------------------------


def test_sample_arrays_equal_single_calls(rng: np.random.Generator) -> None:
    depth = NAMED.copy()
    depth[rng.random(depth.shape) < 0.2] = np.nan
    frame = fathom.DepthFrame(depth, K)
    i, j = rng.integers(0, DEPTH_W, 200), rng.integers(0, DEPTH_H, 200)
    uv = np.stack([(i + rng.uniform(0.1, 0.9, 200)) * SCALE_U, (j + rng.uniform(0.1, 0.9, 200)) * SCALE_V], axis=1)
    got = frame.sample(uv[:, 0], uv[:, 1])
    assert got.shape == (len(uv),) and got.dtype == np.float32
    np.testing.assert_array_equal(got, depth[j, i])  # the named samples, NaN where the sample is NaN
    assert np.isnan(got).any() and not np.isnan(got).all()
    for (u, v), d in zip(uv, got):
        if np.isnan(d):
            with pytest.raises(fathom.NoDataError):
                frame.sample(u, v)
        else:
            assert frame.sample(u, v) == d  # the scalar call still returns a float
    median = frame.sample(uv[:, 0], uv[:, 1], "median", 3)
    singles = []
    for u, v in uv:
        try:
            singles.append(frame.sample(u, v, "median", 3))
        except fathom.NoDataError:
            singles.append(np.nan)
    np.testing.assert_array_equal(median, singles)


def test_sample_arrays_keep_their_shape_and_broadcast(rng: np.random.Generator) -> None:
    frame = fathom.DepthFrame(NAMED, K)
    us = rng.uniform(0, RGB_W, (4, 5))
    vs = rng.uniform(0, RGB_H, (4, 5))
    got = frame.sample(us, vs)
    assert got.shape == (4, 5)
    np.testing.assert_array_equal(got, [[frame.sample(u, v) for u, v in zip(ru, rv)] for ru, rv in zip(us, vs)])
    row = frame.sample(us[0], 700.0)  # one v for every u
    np.testing.assert_array_equal(row, [frame.sample(u, 700.0) for u in us[0]])
    assert frame.sample(np.array(960.0), np.array(720.0)) == _name(128, 96)  # 0-d: a scalar
    assert frame.sample([], []).shape == (0,)


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_point_arrays_match_the_pinhole_formula(rng: np.random.Generator, frame_name: str) -> None:
    depth = np.full((DEPTH_H, DEPTH_W), 2.0, np.float32)
    depth[:, :10] = 0.0  # a strip without valid samples
    frame = fathom.DepthFrame(depth, K, pose=POSE_M)  # a (4, 4) matrix works as the pose
    uv = np.vstack([_pixels_in_image(rng, 100), [[5.0, 700.0]]])  # the last is over the invalid strip
    points = frame.point(uv[:, 0], uv[:, 1], frame=frame_name)
    assert points.shape == (len(uv), 3) and points.dtype == np.float32
    ok = uv[:, 0] >= 10 * SCALE_U
    assert not ok[-1] and np.isnan(points[~ok]).all()
    optical = np.stack([(uv[:, 0] - K.cx) / K.fx * 2, (uv[:, 1] - K.cy) / K.fy * 2, np.full(len(uv), 2.0)], axis=1)
    np.testing.assert_allclose(points[ok], _to_frame(optical, frame_name)[ok], rtol=1e-5, atol=1e-5)
    for (u, v), p in zip(uv[ok][:20], points[ok][:20]):
        np.testing.assert_array_equal(frame.point(u, v, frame=frame_name), p)


def test_pixel_arrays_bad_input() -> None:
    frame = fathom.DepthFrame(np.ones((DEPTH_H, DEPTH_W), np.float32), K)
    with pytest.raises(fathom.OutOfRangeError, match=r"fathom_depth_sample.*\(at element 1: u=5000.0, v=10.0\)"):
        frame.sample([10.0, 5000.0], [10.0, 10.0])  # outside the image
    with pytest.raises(fathom.NotFiniteError, match=r"fathom_depth_point.*\(at element \(1, 0\): u=nan"):
        frame.point(np.array([[1.0], [np.nan]]), np.array([[2.0], [3.0]]))
    with pytest.raises(ValueError, match=r"u and v must have the same shape .*got \(3,\) and \(2,\)"):
        frame.sample([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(TypeError, match="u must hold real numbers"):
        frame.sample(np.array([True, False]), [1.0, 2.0])
    with pytest.raises(TypeError, match="v must hold real numbers"):
        frame.point([1.0], np.array([1 + 2j]))
    with pytest.raises(TypeError, match="u must be a real number"):
        frame.sample("1", 2.0)


def test_depth_frame_pose_as_matrix() -> None:
    frame = fathom.DepthFrame(np.ones((DEPTH_H, DEPTH_W), np.float32), K, pose=POSE_M)
    assert isinstance(frame.pose, fathom.Pose) and frame.pose == POSE
    np.testing.assert_array_equal(frame.point(960.0, 720.0, frame="world"),
                                  fathom.DepthFrame(np.ones((DEPTH_H, DEPTH_W), np.float32), K, pose=POSE)
                                  .point(960.0, 720.0, frame="world"))
    with pytest.raises(fathom.NotRigidError):
        fathom.DepthFrame(np.ones((4, 4), np.float32), K, pose=np.diag([1.0, 1.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match=r"pose must be a fathom.Pose or a \(4, 4\) array-like"):
        fathom.DepthFrame(np.ones((4, 4), np.float32), K, pose=np.eye(3))


def test_repr_and_properties() -> None:
    depth = np.ones((192, 256), np.float32)
    frame = fathom.DepthFrame(depth, K, min_depth=0.2, max_depth=5.0, pose=POSE)
    assert frame.shape == (192, 256) and frame.width == 256 and frame.height == 192
    assert frame.depth is depth
    assert frame.pose is POSE and frame.intrinsics == K
    g = frame.grid_intrinsics  # scaled to the grid: fx' = fx * 256 / 1920, cy' = cy * 192 / 1440
    assert g.fx == pytest.approx(1450.0 / 7.5) and g.cy == pytest.approx(718.25 / 7.5)
    text = repr(frame)
    assert "256x192" in text and "float32" in text and "pose=yes" in text


# -- the plausibility check ------------------------------------------------------------------------------------


SHAPE = (DEPTH_H, DEPTH_W)  # the depth grid of K's image


def _no_plausibility_warning(*args, **kwargs) -> fathom.DepthFrame:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", fathom.PlausibilityWarning)
        return fathom.DepthFrame(*args, **kwargs)


def test_depth_in_millimetres_warns() -> None:
    """A float map in millimetres read as meters: its largest finite depth (computed here with numpy over the finite
    samples) exceeds 50 m, so the frame warns with fathom.PlausibilityWarning, pointing at the caller's line; the map
    is still used as given (a sample 3.512 m away comes out 3512 m away). Meters, or millimetres with scale=0.001, or
    uint16 millimetres (scale 0.001 by default), are quiet; so are NaN, infinities and zeros."""
    assert issubclass(fathom.PlausibilityWarning, UserWarning)
    assert fathom.depth.PLAUSIBLE_DEPTH == 50.0
    rng = np.random.default_rng(5)
    meters = rng.uniform(0.3, 3.0, SHAPE).astype(np.float32)
    meters[7, 9] = 3.512
    meters[0, :4] = [np.nan, np.inf, -np.inf, 0.0]
    mm = meters * np.float32(1000)
    largest = float(np.max(mm[np.isfinite(mm)]))
    assert largest == pytest.approx(3512.0)
    with pytest.warns(fathom.PlausibilityWarning, match=r"largest depth is 3512 m, more than 50 m") as caught:
        frame = fathom.DepthFrame(mm, K)
    assert len(caught) == 1 and caught[0].filename == __file__  # stacklevel: the caller's line
    assert "scale=0.001" in str(caught[0].message)
    assert frame.sample(9.5 * RGB_W / DEPTH_W, 7.5 * RGB_H / DEPTH_H) == pytest.approx(3512.0)

    _no_plausibility_warning(meters, K)
    _no_plausibility_warning(mm, K, scale=0.001)
    _no_plausibility_warning(mm.astype(np.float64) / 1000, K)      # float64 meters, converted once
    _no_plausibility_warning(np.round(np.nan_to_num(mm, posinf=0, neginf=0)).astype(np.uint16), K)
    with pytest.warns(fathom.PlausibilityWarning, match=r"3512 \(x scale 1\.5\) = 5268 m"):
        fathom.DepthFrame(np.full(SHAPE, 3512, np.uint16), K, scale=1.5)
    with pytest.warns(fathom.PlausibilityWarning, match="3512 m"):
        fathom.DepthFrame(mm.astype(np.float16), K)               # float16 millimetres too
    _no_plausibility_warning(np.full(SHAPE, np.inf, np.float32), K)  # no finite depth: nothing to judge


def test_plausibility_threshold_is_50_m() -> None:
    """Exactly 50 m is plausible, the next float32 above it is not; a scale the library will refuse is left to it."""
    _no_plausibility_warning(np.full(SHAPE, 50.0, np.float32), K)
    above = np.nextafter(np.float32(50.0), np.float32(np.inf))
    with pytest.warns(fathom.PlausibilityWarning):
        fathom.DepthFrame(np.full(SHAPE, above, np.float32), K)
    bad = _no_plausibility_warning(np.full(SHAPE, 2.0, np.float32), K, scale=math.inf)
    with pytest.raises(fathom.FathomError, match="scale"):
        bad.backproject()
