"""The compact batch output (distance and triangle only) and the batch's tracing order, from Python and at the
C ABI: checked on a hand-made mesh, against the full hit record bit for bit, and by tracing the rays again in the
order the library reports."""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_uint32

import numpy as np
import pytest

import fathom
from fathom import _lib
from fathom._lib import BatchOptionsStruct, FloatPtr
from _meshes import icosphere, random_rays, random_soup


def _rays(rng: np.random.Generator, count: int, spread: float = 2.0) -> np.ndarray:
    o, d = random_rays(rng, count, spread)
    return np.ascontiguousarray(np.hstack([o, d]), np.float32)


def test_compact_outputs_by_hand() -> None:
    """Two unit right triangles, z = 0 (primitive 0) and z = -1 (primitive 1). Straight down from z = 2 with
    |d| = 2: t = 1 (in |d| units) on the first; from between them, t = 0.5 on the second; beside both: inf, NO_HIT."""
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, -1], [1, 0, -1], [0, 1, -1]], np.float32)
    mesh = fathom.Mesh(v, np.array([[0, 1, 2], [3, 4, 5]], np.uint32))
    rays = np.array([[0.2, 0.3, 2, 0, 0, -2], [0.2, 0.3, -0.5, 0, 0, -1], [3, 3, 2, 0, 0, -1]], np.float32)
    t, primitive = mesh.cast_compact(rays)
    assert t.dtype == np.float32 and primitive.dtype == np.uint32 and t.shape == primitive.shape == (3,)
    np.testing.assert_array_equal(t, [1.0, 0.5, np.inf])
    np.testing.assert_array_equal(primitive, [0, 1, fathom.NO_HIT])
    t, primitive = mesh.cast_compact(rays, tmin=1.2)  # the range reaches the library: past the first triangle
    np.testing.assert_array_equal(t, [1.5, np.inf, np.inf])
    np.testing.assert_array_equal(primitive, [1, fathom.NO_HIT, fathom.NO_HIT])


def test_compact_equals_the_hit_record(rng: np.random.Generator) -> None:
    """The same values as the full record's t and primitive, bit for bit, with a range too."""
    vertices, triangles = random_soup(rng, 300)
    mesh = fathom.Mesh(vertices, triangles)
    rays = _rays(rng, 2000)
    t, primitive = mesh.cast_compact(rays)
    assert np.count_nonzero(primitive != fathom.NO_HIT) > 300  # the soup is dense enough that many rays hit
    full = mesh.cast(rays)
    np.testing.assert_array_equal(t.view(np.uint32), full["t"].view(np.uint32))
    np.testing.assert_array_equal(primitive, full["primitive"])
    t2, p2 = mesh.cast_compact(rays, tmin=0.3, tmax=1.5)
    full2 = mesh.cast(rays, tmin=0.3, tmax=1.5)
    np.testing.assert_array_equal(t2.view(np.uint32), full2["t"].view(np.uint32))
    np.testing.assert_array_equal(p2, full2["primitive"])


def test_ordered_batch_on_a_large_mesh() -> None:
    """On a mesh over 1 MB with 4096 rays or more the batch is traced in an order of its own: ray_order is a
    permutation (not the identity here), the same for any thread count, and tracing the rays in that order gives
    every ray the same result at its own place; the compact output equals the full record on every ray."""
    vertices, triangles = icosphere(6)
    mesh = fathom.Mesh(vertices, triangles)
    assert mesh.memory_bytes >= 1 << 20
    rng = np.random.default_rng(11)
    rays = _rays(rng, 20000, spread=0.5)  # origins in a cube inside the unit sphere
    order = mesh.ray_order(rays, threads=1)
    assert order.dtype == np.uint32
    np.testing.assert_array_equal(np.sort(order), np.arange(len(rays)))
    assert np.count_nonzero(order != np.arange(len(rays))) > len(rays) // 2
    np.testing.assert_array_equal(mesh.ray_order(rays, threads=2), order)
    t, primitive = mesh.cast_compact(rays, threads=2)
    full = mesh.cast(rays, threads=1)
    np.testing.assert_array_equal(t.view(np.uint32), full["t"].view(np.uint32))
    np.testing.assert_array_equal(primitive, full["primitive"])
    # Rays from inside a closed sphere all hit it (watertight).
    assert np.all(primitive != fathom.NO_HIT)
    again_t, again_p = mesh.cast_compact(rays[order])
    np.testing.assert_array_equal(again_t.view(np.uint32), t[order].view(np.uint32))
    np.testing.assert_array_equal(again_p, primitive[order])


def test_the_order_groups_rays_by_destination() -> None:
    """Rays from a camera at a mesh over 1 MB are ordered by where they end, in a grid of 128 cells per axis over the
    sample's destinations: consecutive rays of the order end close together. Checked on the hit points numpy computes
    from the rays and their t: the median step between consecutive hits is well below 1/64 of the hits' extent (a
    sort by fewer key bits, 16 cells per axis, gave 1/30 here)."""
    vertices, triangles = icosphere(6)
    mesh = fathom.Mesh(vertices, triangles)
    rng = np.random.default_rng(5)
    n = 40000
    eye = np.array([0.0, 0.0, 3.0])
    target = np.column_stack([rng.uniform(-1.2, 1.2, n), rng.uniform(-1.2, 1.2, n), np.zeros(n)])
    d = (target - eye) / np.linalg.norm(target - eye, axis=1)[:, None]
    rays = np.ascontiguousarray(np.hstack([np.tile(eye, (n, 1)), d]), np.float32)
    order = mesh.ray_order(rays, threads=1)
    full = mesh.cast(rays)
    hit = full["primitive"] != fathom.NO_HIT
    points = rays[:, :3].astype(np.float64) + full["t"][:, None].astype(np.float64) * rays[:, 3:]
    traced = order[hit[order]]
    steps = np.linalg.norm(points[traced[1:]] - points[traced[:-1]], axis=1)
    extent = np.ptp(points[hit], axis=0).max()
    assert np.median(steps) < extent / 64


def test_camera_batches_equal_rays_cast_alone() -> None:
    """A camera's rays in scanline order: the batch traces groups of eight as packets (one origin, close directions),
    which must give each ray exactly what casting it alone gives, full record and compact output alike."""
    vertices, triangles = icosphere(4)
    mesh = fathom.Mesh(vertices, triangles)
    eye = np.array([0.01, 0.02, 3.0])
    xs, ys = np.meshgrid(np.linspace(-0.8, 0.8, 96), np.linspace(-0.6, 0.6, 64))
    d = np.column_stack([xs.ravel(), ys.ravel(), np.zeros(xs.size)]) - eye
    rays = np.ascontiguousarray(np.hstack([np.tile(eye, (len(d), 1)), d]), np.float32)
    batch = mesh.cast(rays)
    alone = np.concatenate([mesh.cast(rays[i:i + 1]) for i in range(len(rays))])
    assert np.count_nonzero(batch["primitive"] != fathom.NO_HIT) > len(rays) // 2
    for name in batch.dtype.names:  # bit for bit, field by field (floats as their bits)
        a, b = batch[name], alone[name]
        if a.dtype.kind == "f":
            a, b = a.view(np.uint32), b.view(np.uint32)
        np.testing.assert_array_equal(a, b, err_msg=name)
    t, primitive = mesh.cast_compact(rays)
    np.testing.assert_array_equal(t.view(np.uint32), alone["t"].view(np.uint32))
    np.testing.assert_array_equal(primitive, alone["primitive"])


def test_small_batches_keep_the_callers_order(rng: np.random.Generator) -> None:
    vertices, triangles = icosphere(6)
    mesh = fathom.Mesh(vertices, triangles)
    np.testing.assert_array_equal(mesh.ray_order(_rays(rng, 4095)), np.arange(4095))
    small = fathom.Mesh(*random_soup(rng, 50))
    np.testing.assert_array_equal(small.ray_order(_rays(rng, 10000)), np.arange(10000))
    assert mesh.ray_order(np.zeros((0, 6), np.float32)).shape == (0,)
    t, p = mesh.cast_compact(np.zeros((0, 6), np.float32))
    assert t.shape == p.shape == (0,)


def test_compact_outputs_may_be_left_out_at_the_abi(rng: np.random.Generator) -> None:
    vertices, triangles = random_soup(rng, 100)
    mesh = fathom.Mesh(vertices, triangles)
    rays = _rays(rng, 300)
    full = mesh.cast(rays)
    fn = _lib.FUNCTIONS["fathom_mesh_intersect_batch_compact"]
    rays_ptr = rays.ctypes.data_as(POINTER(_lib.RayStruct))
    t = np.full(300, 7.0, np.float32)
    p = np.full(300, 7, np.uint32)
    assert fn.raw(mesh._handle(), rays_ptr, 300, None, t.ctypes.data_as(FloatPtr), None) == 0
    np.testing.assert_array_equal(t.view(np.uint32), full["t"].view(np.uint32))
    assert fn.raw(mesh._handle(), rays_ptr, 300, None, None, p.ctypes.data_as(POINTER(c_uint32))) == 0
    np.testing.assert_array_equal(p, full["primitive"])
    assert fn.raw(mesh._handle(), rays_ptr, 300, None, None, None) == fathom.NullPointerError.STATUS
    assert "out_t and out_primitive" in _lib.fathom_last_error().decode()


def test_bad_rays_fail_before_any_work(rng: np.random.Generator) -> None:
    mesh = fathom.Mesh(*random_soup(rng, 20))
    rays = _rays(rng, 10)
    rays[7, 3:] = 0
    with pytest.raises(fathom.DegenerateError, match=r"rays\[7\]"):
        mesh.cast_compact(rays)
    with pytest.raises(fathom.DegenerateError, match=r"rays\[7\]"):
        mesh.ray_order(rays)
    rays[7, 3:] = 1
    opts = BatchOptionsStruct(0.0, float("inf"), 5000)
    out = (c_uint32 * 10)()
    status = _lib.FUNCTIONS["fathom_mesh_ray_order"].raw(mesh._handle(), rays.ctypes.data_as(POINTER(_lib.RayStruct)),
                                                         10, ctypes.byref(opts), out)
    assert status == fathom.OutOfRangeError.STATUS
