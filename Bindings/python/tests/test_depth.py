"""Depth frames: back-projection and sampling against numpy implementations of the documented formulas.

References (tests/_depth_reference.py): sample (i, j) at (i + 0.5, j + 0.5) of the depth grid, RGB
intrinsics scaled to the grid, optical (x right, y down, z forward) / camera (X, -Y, -Z) / world frames;
a sample is valid when finite, > 0, within [min_depth, max_depth] and confident enough.
"""

from __future__ import annotations

import ctypes
import math
from ctypes import byref, c_size_t

import numpy as np
import pytest

import fathom
from fathom import _lib
from _depth_reference import (
    Grid,
    mask_cells,
    optical_points,
    reference_backproject,
    render_plane,
    resample_mask,
    rotation,
    to_frame,
)

GRID = Grid()
K = fathom.Intrinsics(GRID.fx, GRID.fy, GRID.cx, GRID.cy, GRID.rgb_w, GRID.rgb_h)


def _pose() -> tuple[fathom.Pose, np.ndarray]:
    m = np.eye(4)
    m[:3, :3] = rotation([0.3, 1.0, -0.2], 0.7)
    m[:3, 3] = [0.4, 1.3, -2.0]
    return fathom.Pose(m), m


def _noisy_depth(rng: np.random.Generator, shape=(GRID.h, GRID.w)) -> np.ndarray:
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
    with np.errstate(invalid="ignore"):
        return np.isfinite(d_m) & (d_m > 0) & (d_m >= lo) & (d_m <= hi)


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
# Back-projection against the numpy formula
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_backproject_float32_with_invalid_samples(rng: np.random.Generator, frame_name: str) -> None:
    depth = _noisy_depth(rng)
    pose, m = _pose()
    frame = fathom.DepthFrame(depth, K, pose=pose)
    points, pixels = frame.backproject(frame_name, pixels=True)
    valid = _valid(depth)
    ref_points, ref_pixels = reference_backproject(GRID, np.where(valid, depth, 0), valid, frame_name, m)
    assert frame.count() == len(points) == int(valid.sum())
    np.testing.assert_array_equal(pixels, ref_pixels)
    scale = np.abs(ref_points).max()
    np.testing.assert_allclose(points, ref_points, rtol=1e-5, atol=2e-6 * scale)


def test_backproject_default_frame_is_camera(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.5, 2, (12, 16)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    np.testing.assert_array_equal(frame.backproject(), frame.backproject("camera"))
    np.testing.assert_array_equal(frame.backproject(fathom.PointFrame.OPTICAL) * [1, -1, -1], frame.backproject())


def test_confidence_and_range(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.1, 6.0, (GRID.h, GRID.w)).astype(np.float32)
    confidence = rng.integers(0, 3, depth.shape, dtype=np.uint8)
    frame = fathom.DepthFrame(depth, K, confidence=confidence, min_confidence=2, min_depth=0.5, max_depth=4.0)
    valid = _valid(depth, 0.5, 4.0) & (confidence >= 2)
    ref, ref_pix = reference_backproject(GRID, depth, valid, "optical")
    pts, pix = frame.backproject("optical", pixels=True)
    np.testing.assert_array_equal(pix, ref_pix)
    np.testing.assert_allclose(pts, ref, rtol=1e-5, atol=1e-6)
    # min_confidence 0 keeps every sample; 1 drops the low ones
    assert fathom.DepthFrame(depth, K, confidence=confidence).count() == depth.size
    assert fathom.DepthFrame(depth, K, confidence=confidence, min_confidence=1).count() == int((confidence >= 1).sum())


def test_range_bounds_are_inclusive() -> None:
    depth = np.array([[0.5, 1.0, 2.0, 4.0, 4.5]], np.float32)
    frame = fathom.DepthFrame(depth, fathom.Intrinsics(5, 5, 2.5, 0.5, 5, 1), min_depth=1.0, max_depth=4.0)
    _, pix = frame.backproject(pixels=True)
    np.testing.assert_array_equal(pix[:, 0], [1, 2, 3])


def test_float16_depth(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.2, 5, (GRID.h, GRID.w)).astype(np.float16)
    depth[3, 4] = np.float16(np.nan)
    depth[5, 6] = np.float16(np.inf)
    depth[7, 8] = 0
    frame = fathom.DepthFrame(depth, K)
    assert frame.format is fathom.DepthFormat.FLOAT16 and frame.scale == 1.0
    d = depth.astype(np.float64)
    valid = _valid(d)
    ref, _ = reference_backproject(GRID, np.where(valid, d, 0), valid, "optical")
    np.testing.assert_allclose(frame.backproject("optical"), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("scale", [None, 0.0005])
def test_uint16_depth_with_scale(rng: np.random.Generator, scale) -> None:
    depth = rng.integers(0, 6000, (GRID.h, GRID.w), dtype=np.uint16)  # includes 0: invalid
    depth[0, :10] = 0
    frame = fathom.DepthFrame(depth, K, scale=scale)
    s = 0.001 if scale is None else scale  # the header's default for UINT16: millimetres
    assert frame.format is fathom.DepthFormat.UINT16 and frame.scale == pytest.approx(s)
    d = depth.astype(np.float64) * np.float32(s)
    valid = d > 0
    ref, ref_pix = reference_backproject(GRID, d, valid, "camera")
    pts, pix = frame.backproject(pixels=True)
    np.testing.assert_array_equal(pix, ref_pix)
    np.testing.assert_allclose(pts, ref, rtol=1e-5, atol=1e-6)


def test_float32_scale(rng: np.random.Generator) -> None:
    depth = rng.uniform(100, 3000, (9, 12)).astype(np.float32)  # millimetres as float, the image's 4:3 shape
    grid = Grid(w=12, h=9)
    frame = fathom.DepthFrame(depth, K, scale=0.001)
    ref, _ = reference_backproject(grid, depth.astype(np.float64) * np.float32(0.001), np.ones(depth.shape, bool))
    np.testing.assert_allclose(frame.backproject(), ref, rtol=1e-5, atol=1e-6)


def test_cropped_rows_are_read_in_place(rng: np.random.Generator) -> None:
    big = rng.uniform(0.5, 3, (40, 60)).astype(np.float32)
    crop = big[5:35, 7:47]  # rows 240 bytes apart, 160 bytes wide: row_stride, no copy; 40 x 30 as the image
    frame = fathom.DepthFrame(crop, fathom.Intrinsics(400, 400, 200, 150, 400, 300))
    assert np.shares_memory(frame.depth, big)
    grid = Grid(fx=400, fy=400, cx=200, cy=150, rgb_w=400, rgb_h=300, w=40, h=30)
    ref, _ = reference_backproject(grid, crop, np.ones(crop.shape, bool), "optical")
    np.testing.assert_allclose(frame.backproject("optical"), ref, rtol=1e-5, atol=1e-6)
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
    frame = fathom.DepthFrame(a, fathom.Intrinsics(100, 100, 50, 40, 10 * w, 10 * h))
    assert frame.depth.dtype == np.float32 and frame.depth.flags.c_contiguous
    grid = Grid(fx=100, fy=100, cx=50, cy=40, rgb_w=10 * w, rgb_h=10 * h, w=w, h=h)
    ref, _ = reference_backproject(grid, np.asarray(a, np.float32).astype(np.float64), np.ones((h, w), bool), "optical")
    np.testing.assert_allclose(frame.backproject("optical"), ref, rtol=1e-5, atol=1e-6)


def test_region_and_step(rng: np.random.Generator) -> None:
    depth = _noisy_depth(rng)
    frame = fathom.DepthFrame(depth, K)
    x0, y0, x1, y1, step = 13, 7, 200, 150, 3
    sel = np.zeros(depth.shape, bool)
    sel[y0:y1:step, x0:x1:step] = True
    valid = _valid(depth) & sel
    ref, ref_pix = reference_backproject(GRID, np.where(valid, depth, 0), valid, "camera")
    pts, pix = frame.backproject(region=(x0, y0, x1, y1), step=step, pixels=True)
    np.testing.assert_array_equal(pix, ref_pix)
    np.testing.assert_allclose(pts, ref, rtol=1e-5, atol=1e-5)
    assert frame.count(region=(x0, y0, x1, y1), step=step) == len(ref)
    # step alone over the whole grid
    sel = np.zeros(depth.shape, bool)
    sel[::4, ::4] = True
    assert frame.count(step=4) == int((_valid(depth) & sel).sum())


@pytest.mark.parametrize("mask_shape", [(192, 256), (1440, 1920), (77, 100), (500, 333), (1, 1)])
def test_masks_of_any_resolution(rng: np.random.Generator, mask_shape: tuple[int, int]) -> None:
    depth = _noisy_depth(rng)
    frame = fathom.DepthFrame(depth, K)
    mask = rng.random(mask_shape) < 0.4
    if mask_shape == (1, 1):
        mask[0, 0] = True
    inside = resample_mask(mask, depth.shape)
    # the documented mapping, spot-checked by hand at the grid's last sample
    rows, cols = mask_cells(mask_shape, depth.shape)
    assert rows[-1] == math.floor((191 + 0.5) * mask_shape[0] / 192)
    assert cols[-1] == math.floor((255 + 0.5) * mask_shape[1] / 256)
    valid = _valid(depth) & inside
    ref, ref_pix = reference_backproject(GRID, np.where(valid, depth, 0), valid, "camera")
    for m in (mask, mask.astype(np.uint8) * 255, mask.astype(np.int32)):
        pts, pix = frame.backproject(mask=m, pixels=True)
        np.testing.assert_array_equal(pix, ref_pix)
        np.testing.assert_allclose(pts, ref, rtol=1e-5, atol=1e-5)
    assert frame.count(mask=mask) == len(ref)


def test_mask_with_region_and_step(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.5, 2, (GRID.h, GRID.w)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    mask = np.zeros((480, 640), bool)
    mask[100:300, 50:500] = True
    inside = resample_mask(mask, depth.shape)
    sel = np.zeros(depth.shape, bool)
    sel[10:180:2, 20:250:2] = True
    _, ref_pix = reference_backproject(GRID, depth, inside & sel)
    _, pix = frame.backproject(region=(20, 10, 250, 180), step=2, mask=mask, pixels=True)
    np.testing.assert_array_equal(pix, ref_pix)


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
    """Every sample of an analytic plane lies on it, so the neighbours' differences span it and the normal
    is the plane's own (oriented towards the camera) up to float rounding."""
    n = np.array([0.3, -0.4, -1.0])
    n /= np.linalg.norm(n)
    depth = render_plane(GRID, np.array([0.0, 0.0, 1.2]), n).astype(np.float32)
    depth[50:60, 80:90] = np.nan  # a hole: its border uses one-sided differences
    pose, m = _pose()
    frame = fathom.DepthFrame(depth, K, pose=pose)
    pts, pix, nrm = frame.backproject(frame_name, pixels=True, normals=True)
    # towards the camera: dot(n, point) < 0 in the optical frame
    facing = n if np.dot(n, [0.0, 0.0, 1.2]) < 0 else -n
    expected = to_frame(facing[None, :], "optical")
    if frame_name != "optical":
        expected = facing * [1, -1, -1]
        if frame_name == "world":
            expected = expected @ m[:3, :3].T
    np.testing.assert_allclose(np.linalg.norm(nrm, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(nrm, np.broadcast_to(expected, nrm.shape), atol=2e-3)
    # facing the camera: in the optical frame, the normal points back towards the origin
    nrm_opt = frame.backproject("optical", normals=True)[1]
    pts_opt = frame.backproject("optical")
    assert (np.einsum("ij,ij->i", nrm_opt, pts_opt) < 0).all()


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


def _grid_xy(u: float, v: float) -> tuple[float, float]:
    return u * GRID.w / GRID.rgb_w, v * GRID.h / GRID.rgb_h


def _ref_nearest(depth: np.ndarray, u: float, v: float) -> float:
    x, y = _grid_xy(u, v)
    return float(depth[min(int(y), GRID.h - 1), min(int(x), GRID.w - 1)])


def _ref_bilinear(depth: np.ndarray, valid: np.ndarray, u: float, v: float) -> float:
    """Bilinear between the four nearest sample centres (i + 0.5), clamped; invalid weights dropped."""
    x, y = _grid_xy(u, v)
    fx = min(max(x - 0.5, 0.0), GRID.w - 1)
    fy = min(max(y - 0.5, 0.0), GRID.h - 1)
    i0, j0 = int(fx), int(fy)
    i1, j1 = min(i0 + 1, GRID.w - 1), min(j0 + 1, GRID.h - 1)
    tx, ty = fx - i0, fy - j0
    total = weight = 0.0
    for i, j, w in ((i0, j0, (1 - tx) * (1 - ty)), (i1, j0, tx * (1 - ty)), (i0, j1, (1 - tx) * ty), (i1, j1, tx * ty)):
        if w > 0 and valid[j, i]:
            total += w * float(depth[j, i])
            weight += w
    return total / weight if weight > 0 else math.nan


def _ref_median(depth: np.ndarray, valid: np.ndarray, u: float, v: float, window: int) -> float:
    x, y = _grid_xy(u, v)
    i, j = min(int(x), GRID.w - 1), min(int(y), GRID.h - 1)
    r = window // 2
    block = depth[max(0, j - r): j + r + 1, max(0, i - r): i + r + 1]
    ok = valid[max(0, j - r): j + r + 1, max(0, i - r): i + r + 1]
    values = np.sort(block[ok])
    return float(values[(len(values) - 1) // 2]) if len(values) else math.nan  # lower middle of an even count


def _random_pixels(rng: np.random.Generator, n: int) -> np.ndarray:
    uv = rng.uniform([0, 0], [GRID.rgb_w, GRID.rgb_h], size=(n, 2))
    return np.vstack([uv, [[0, 0], [GRID.rgb_w - 0.01, GRID.rgb_h - 0.01], [3.0, 700.0], [1917.0, 2.0]]])


def test_sample_nearest(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    for u, v in _random_pixels(rng, 300):
        assert frame.sample(u, v) == _ref_nearest(depth, u, v)


def test_sample_bilinear_drops_invalid_neighbours(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    depth[rng.random(depth.shape) < 0.25] = np.nan
    valid = np.isfinite(depth)
    frame = fathom.DepthFrame(depth, K)
    checked = 0
    for u, v in _random_pixels(rng, 400):
        expected = _ref_bilinear(depth, valid, u, v)
        if math.isnan(expected):
            with pytest.raises(fathom.NoDataError):
                frame.sample(u, v, "bilinear")
            continue
        # The library computes the grid position x = u * w / W in float32 (about 3e-5 px of rounding at
        # x ~ 256), which moves the interpolated depth by up to that times the neighbours' depth spread.
        x, y = _grid_xy(u, v)
        i, j = int(min(max(x - 0.5, 0), GRID.w - 1)), int(min(max(y - 0.5, 0), GRID.h - 1))
        block = depth[j: j + 2, i: i + 2][valid[j: j + 2, i: i + 2]]
        spread = float(block.max() - block.min())
        got = frame.sample(u, v, fathom.Sampling.BILINEAR)
        assert abs(got - expected) <= 1e-6 * expected + 1e-4 * spread, (u, v, got, expected)
        checked += 1
    assert checked > 300


def test_sample_bilinear_is_linear_on_a_ramp() -> None:
    """An analytic check: on a depth ramp d = a + b * (i + 0.5) the bilinear sample at grid x is a + b * x."""
    i = np.arange(GRID.w) + 0.5
    depth = np.broadcast_to((1.0 + 0.01 * i).astype(np.float32), (GRID.h, GRID.w)).copy()
    frame = fathom.DepthFrame(depth, K)
    for u in (100.0, 555.5, 1234.5, 1800.0):
        x = u * GRID.w / GRID.rgb_w
        assert frame.sample(u, 700.0, "bilinear") == pytest.approx(1.0 + 0.01 * x, rel=1e-6)


@pytest.mark.parametrize("window", [1, 3, 5, 7])
def test_sample_median_ignores_invalid(rng: np.random.Generator, window: int) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    depth[rng.random(depth.shape) < 0.3] = 0.0
    valid = depth > 0
    frame = fathom.DepthFrame(depth, K)
    for u, v in _random_pixels(rng, 200):
        expected = _ref_median(depth, valid, u, v, window)
        if math.isnan(expected):
            with pytest.raises(fathom.NoDataError):
                frame.sample(u, v, "median", window)
        else:
            assert frame.sample(u, v, "median", window=window) == expected


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


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_point_uses_rgb_intrinsics(rng: np.random.Generator, frame_name: str) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    pose, m = _pose()
    frame = fathom.DepthFrame(depth, K, pose=pose)
    for u, v in _random_pixels(rng, 50):
        d = _ref_nearest(depth, u, v)
        optical = np.array([(u - GRID.cx) / GRID.fx * d, (v - GRID.cy) / GRID.fy * d, d])
        expected = to_frame(optical, frame_name, m)
        np.testing.assert_allclose(frame.point(u, v, frame=frame_name), expected, rtol=1e-5, atol=1e-5)


def test_point_with_median(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    u, v = 800.0, 600.0
    d = _ref_median(depth, np.ones(depth.shape, bool), u, v, 5)
    np.testing.assert_allclose(
        frame.point(u, v, "median", 5, "optical"), [(u - GRID.cx) / GRID.fx * d, (v - GRID.cy) / GRID.fy * d, d],
        rtol=1e-6,
    )


# ------------------------------------------------------------------------------------------------
# Arrays of pixels (numpy style): one library call per pixel, NaN where no valid sample is
# ------------------------------------------------------------------------------------------------


def test_sample_arrays_equal_single_calls_and_the_reference(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    depth[rng.random(depth.shape) < 0.2] = np.nan
    frame = fathom.DepthFrame(depth, K)
    uv = _random_pixels(rng, 200)
    got = frame.sample(uv[:, 0], uv[:, 1])
    assert got.shape == (len(uv),) and got.dtype == np.float32
    expected = np.array([_ref_nearest(depth, u, v) for u, v in uv], np.float32)  # NaN samples read as NaN
    np.testing.assert_array_equal(got, expected)
    for (u, v), d in zip(uv, got):
        if np.isnan(d):
            with pytest.raises(fathom.NoDataError):
                frame.sample(u, v)
        else:
            assert frame.sample(u, v) == d  # the scalar call still returns a float
    median = frame.sample(uv[:, 0], uv[:, 1], "median", 3)
    valid = np.isfinite(depth)
    np.testing.assert_array_equal(median, [_ref_median(depth, valid, u, v, 3) for u, v in uv])


def test_sample_arrays_keep_their_shape_and_broadcast(rng: np.random.Generator) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    frame = fathom.DepthFrame(depth, K)
    us = rng.uniform(0, GRID.rgb_w, (4, 5))
    vs = rng.uniform(0, GRID.rgb_h, (4, 5))
    got = frame.sample(us, vs)
    assert got.shape == (4, 5)
    np.testing.assert_array_equal(got, [[_ref_nearest(depth, u, v) for u, v in zip(ru, rv)] for ru, rv in zip(us, vs)])
    row = frame.sample(us[0], 700.0)  # one v for every u
    np.testing.assert_array_equal(row, [_ref_nearest(depth, u, 700.0) for u in us[0]])
    assert frame.sample(np.array(960.0), np.array(720.0)) == _ref_nearest(depth, 960.0, 720.0)  # 0-d: a scalar
    assert frame.sample([], []).shape == (0,)


@pytest.mark.parametrize("frame_name", ["optical", "camera", "world"])
def test_point_arrays_match_the_pinhole_formula(rng: np.random.Generator, frame_name: str) -> None:
    depth = rng.uniform(0.3, 4, (GRID.h, GRID.w)).astype(np.float32)
    depth[:, :10] = 0.0  # a strip without valid samples
    _, m = _pose()
    frame = fathom.DepthFrame(depth, K, pose=m)  # a (4, 4) matrix works as the pose
    uv = np.vstack([_random_pixels(rng, 100), [[5.0, 700.0]]])  # the last is over the invalid strip
    points = frame.point(uv[:, 0], uv[:, 1], frame=frame_name)
    assert points.shape == (len(uv), 3) and points.dtype == np.float32
    d = np.array([_ref_nearest(depth, u, v) for u, v in uv], np.float64)
    optical = np.stack([(uv[:, 0] - GRID.cx) / GRID.fx * d, (uv[:, 1] - GRID.cy) / GRID.fy * d, d], axis=1)
    expected = np.array([to_frame(p, frame_name, m) for p in optical])
    ok = d > 0
    assert not ok[-1] and np.isnan(points[~ok]).all()
    np.testing.assert_allclose(points[ok], expected[ok], rtol=1e-5, atol=1e-5)
    for (u, v), p in zip(uv[ok][:20], points[ok][:20]):
        np.testing.assert_array_equal(frame.point(u, v, frame=frame_name), p)


def test_pixel_arrays_bad_input() -> None:
    frame = fathom.DepthFrame(np.ones((GRID.h, GRID.w), np.float32), K)
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
    pose, m = _pose()
    frame = fathom.DepthFrame(np.ones((GRID.h, GRID.w), np.float32), K, pose=m)
    assert isinstance(frame.pose, fathom.Pose) and frame.pose == pose
    np.testing.assert_array_equal(frame.point(960.0, 720.0, frame="world"),
                                  fathom.DepthFrame(np.ones((GRID.h, GRID.w), np.float32), K, pose=pose)
                                  .point(960.0, 720.0, frame="world"))
    with pytest.raises(fathom.NotRigidError):
        fathom.DepthFrame(np.ones((4, 4), np.float32), K, pose=np.diag([1.0, 1.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match=r"pose must be a fathom.Pose or a \(4, 4\) array-like"):
        fathom.DepthFrame(np.ones((4, 4), np.float32), K, pose=np.eye(3))


def test_optical_points_reference_self_check() -> None:
    """The reference itself: the centre sample of a grid whose principal point is the grid centre is on the axis."""
    g = Grid(fx=100, fy=100, cx=50, cy=50, rgb_w=100, rgb_h=100, w=100, h=100)
    p = optical_points(g, np.full((100, 100), 2.0))
    np.testing.assert_allclose(p[50, 50], [0.5 / 100 * 2, 0.5 / 100 * 2, 2.0])


def test_repr_and_properties() -> None:
    depth = np.ones((192, 256), np.float32)
    pose, _ = _pose()
    frame = fathom.DepthFrame(depth, K, min_depth=0.2, max_depth=5.0, pose=pose)
    assert frame.shape == (192, 256) and frame.width == 256 and frame.height == 192
    assert frame.depth is depth
    assert frame.pose is pose and frame.intrinsics == K
    g = frame.grid_intrinsics
    assert g.fx == pytest.approx(GRID.k[0]) and g.cy == pytest.approx(GRID.k[3])
    text = repr(frame)
    assert "256x192" in text and "float32" in text and "pose=yes" in text


# -- the plausibility check ------------------------------------------------------------------------------------


SHAPE = (GRID.h, GRID.w)  # the depth grid of K's image


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
    meters = rng.uniform(0.3, 3.0, (GRID.h, GRID.w)).astype(np.float32)
    meters[7, 9] = 3.512
    meters[0, :4] = [np.nan, np.inf, -np.inf, 0.0]
    mm = meters * np.float32(1000)
    largest = float(np.max(mm[np.isfinite(mm)]))
    assert largest == pytest.approx(3512.0)
    with pytest.warns(fathom.PlausibilityWarning, match=r"largest depth is 3512 m, more than 50 m") as caught:
        frame = fathom.DepthFrame(mm, K)
    assert len(caught) == 1 and caught[0].filename == __file__  # stacklevel: the caller's line
    assert "scale=0.001" in str(caught[0].message)
    assert frame.sample(9.5 * GRID.rgb_w / GRID.w, 7.5 * GRID.rgb_h / GRID.h) == pytest.approx(3512.0)

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
