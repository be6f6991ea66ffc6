"""Scan.point_cloud (fathom_scan_point_cloud) against an independent numpy back-projection of the written frames."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom

RGB = (1920, 1440)
K = np.array([[1600.0, 0.0, 955.0], [0.0, 1610.0, 725.0], [0.0, 0.0, 1.0]])


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    rng = np.random.default_rng(7)
    n, w, h = 6, 32, 24
    depths = rng.uniform(0.3, 4.0, (n, h, w)).astype(np.float16)
    depths[:, 3, 4] = 0                                             # invalid samples
    confidences = rng.integers(0, 3, (n, h, w)).astype(np.uint8)
    poses = []
    for i in range(n):
        a = 0.3 * i
        m = np.eye(4)
        m[:3, :3] = [[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]]
        m[:3, 3] = [0.1 * i, 1.2, -0.05 * i]
        poses.append(m)
    folder = tmp_path_factory.mktemp("cloud")
    fathom.write_scan(folder, "20240611_101530_cloud", np.arange(n) * 16_666_667, poses, np.repeat(K[None], n, 0),
                      depths, confidences, depth_size=(w, h), rgb_size=RGB)
    with fathom.Scan.open(folder) as s:
        yield s, depths, confidences, np.array(poses)


def numpy_points(depths, confidences, poses, min_confidence, max_depth, step):
    """World points of the valid samples, frame by frame, row by row (sample centres at i + 0.5, j + 0.5)."""
    n, h, w = depths.shape
    sx, sy = w / RGB[0], h / RGB[1]
    fx, fy, cx, cy = K[0, 0] * sx, K[1, 1] * sy, K[0, 2] * sx, K[1, 2] * sy
    u, v = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    out = []
    for i in range(0, n, step):
        d = depths[i].astype(np.float64)
        ok = (d > 0) & (d <= max_depth) & (confidences[i] >= min_confidence)
        x, y, z = (u[ok] - cx) / fx * d[ok], (v[ok] - cy) / fy * d[ok], d[ok]
        camera = np.stack([x, -y, -z], 1)                       # ARKit camera axes
        out.append(camera @ poses[i][:3, :3].T + poses[i][:3, 3])
    return np.concatenate(out)


@pytest.mark.parametrize("min_confidence, max_depth, step", [(2, math.inf, 1), (0, 2.5, 1), (1, math.inf, 2), (2, 1.0, 5)])
def test_every_sample(scan, min_confidence, max_depth, step):
    s, depths, confidences, poses = scan
    ours = s.point_cloud(min_confidence=min_confidence, max_depth=max_depth, step=step)
    expected = numpy_points(depths, confidences, poses, min_confidence, max_depth, step)
    assert ours.dtype == np.float32 and ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=0, atol=2e-6 * 5)


def test_voxel_means(scan):
    s, depths, confidences, poses = scan
    voxel = 0.05
    ours = s.point_cloud(voxel=voxel)
    points = numpy_points(depths, confidences, poses, 2, math.inf, 1)
    keys = np.floor(points / voxel).astype(np.int64)
    unique, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    sums = np.zeros((len(unique), 3))
    np.add.at(sums, inverse.ravel(), points)
    means = sums / np.bincount(inverse.ravel())[:, None]
    expected = means[np.argsort(first)]                         # voxels in the order they were first met
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, atol=1e-5)


def test_bad_arguments(scan):
    s = scan[0]
    with pytest.raises(ValueError):
        s.point_cloud(step=0)
    with pytest.raises(ValueError):
        s.point_cloud(voxel=-1.0)
    with pytest.raises(fathom.OutOfRangeError, match="voxel"):
        s.point_cloud(voxel=1e-6)
    with pytest.raises(fathom.OutOfRangeError, match="max_depth"):
        s.point_cloud(max_depth=0.0)
    with pytest.raises(TypeError):
        s.point_cloud(min_confidence=1.5)
