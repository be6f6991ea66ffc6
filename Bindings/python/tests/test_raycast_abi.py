"""The ray-casting C ABI below the Pythonic layer: strides, counts, flags, capacities (nothing may be
written past a capacity), and what a miss writes. Calls the registered ctypes functions directly."""

from __future__ import annotations

import ctypes
import math
from ctypes import byref, c_bool, c_float, c_size_t, c_uint8, c_uint32, c_uint64
from typing import Any

import numpy as np
import pytest

import fathom
from fathom import _lib
from fathom._lib import BatchOptionsStruct, HitStruct, IntrinsicsStruct, MeshInfoStruct, MeshPtr, PoseStruct
from fathom._lib import RayStruct, Vec3
from _meshes import icosphere

F = _lib.FUNCTIONS
GUARD = 0xAB


def _status(name: str, *args: Any) -> tuple[int, str]:
    status = F[name].raw(*args)
    return status, _lib.fathom_last_error().decode()


def _guarded(ctype: Any, count: int, extra: int = 64) -> Any:
    """A buffer of ``count`` ``ctype`` followed by ``extra`` guard bytes, all set to 0xAB."""
    raw = (c_uint8 * (count * ctypes.sizeof(ctype) + extra))()
    ctypes.memset(raw, GUARD, len(raw))
    return raw


def _written_past(raw: Any, used_bytes: int) -> int:
    return sum(1 for b in bytes(raw)[used_bytes:] if b != GUARD)


def _identity() -> PoseStruct:
    p = PoseStruct()
    p.m[0] = p.m[5] = p.m[10] = p.m[15] = 1.0
    return p


@pytest.fixture
def sphere_mesh():
    v, t = icosphere(2)
    out = MeshPtr()
    status, message = _status(
        "fathom_mesh_create", v.ctypes.data_as(_lib.FloatPtr), len(v), 12,
        t.ctypes.data_as(ctypes.POINTER(c_uint32)), len(t), None, 0, byref(out),
    )
    assert status == 0, message
    yield out
    F["fathom_mesh_destroy"](out)


def _through_sphere(n: int) -> Any:
    """n rays from x = -3 along +x through the unit sphere: each crosses it twice."""
    rays = (RayStruct * n)()
    for i in range(n):
        rays[i] = RayStruct(Vec3(-3, 0.01 * i, 0.02), Vec3(1, 0, 0))
    return rays


# -- grids and capacities -------------------------------------------------------------------------


@pytest.mark.parametrize("capacity", [0, 1, 11])
def test_grid_rays_too_small_writes_nothing(capacity: int) -> None:
    k = IntrinsicsStruct(100, 100, 2, 1.5, 4, 3)  # 12 rays at step 1
    raw = _guarded(RayStruct, capacity)
    count = c_size_t()
    status, message = _status(
        "fathom_camera_grid_rays", byref(k), byref(_identity()), 1, ctypes.cast(raw, _lib.RayPtr), capacity, byref(count)
    )
    assert status == 5 and count.value == 12, message
    assert _written_past(raw, 0) == 0, "a grid that does not fit must write nothing"
    assert "fathom_camera_grid_rays" in message and "capacity" in message


def test_grid_rays_writes_exactly_count_rays() -> None:
    k = IntrinsicsStruct(100, 100, 2, 1.5, 4, 3)
    raw = _guarded(RayStruct, 12)
    count = c_size_t()
    status, message = _status(
        "fathom_camera_grid_rays", byref(k), byref(_identity()), 1, ctypes.cast(raw, _lib.RayPtr), 12, byref(count)
    )
    assert status == 0, message
    assert _written_past(raw, 12 * ctypes.sizeof(RayStruct)) == 0, "wrote past out[capacity]"
    rays = np.frombuffer(bytes(raw)[: 12 * 24], np.float32).reshape(12, 6)
    np.testing.assert_allclose(np.linalg.norm(rays[:, 3:], axis=1), 1.0, atol=1e-6)


def test_intersect_all_capacity(sphere_mesh) -> None:
    ray = RayStruct(Vec3(-3, 0.1, 0.05), Vec3(1, 0, 0))
    count = c_size_t()
    raw = _guarded(HitStruct, 1)
    status, message = _status(
        "fathom_mesh_intersect_all", sphere_mesh, byref(ray), 0.0, math.inf, ctypes.cast(raw, _lib.HitPtr), 1, byref(count)
    )
    assert status == 5 and count.value == 2, message
    assert _written_past(raw, ctypes.sizeof(HitStruct)) == 0
    first = HitStruct.from_buffer_copy(bytes(raw)[: ctypes.sizeof(HitStruct)])
    assert first.primitive != fathom.NO_HIT and first.front_face == 1  # the first `capacity` crossings are written
    status, _ = _status(
        "fathom_mesh_intersect_all", sphere_mesh, byref(ray), 0.0, math.inf, None, 0, byref(count)
    )
    assert status in (1, 5)  # capacity 0: NULL may be refused or accepted as "count only"


def test_intersect_all_batch_too_small_fills_offsets_only(sphere_mesh) -> None:
    rays = _through_sphere(5)
    offsets = (c_uint64 * 6)()
    raw = _guarded(HitStruct, 3)
    status, message = _status(
        "fathom_mesh_intersect_all_batch", sphere_mesh, rays, 5, byref(BatchOptionsStruct(0, math.inf, 2)),
        ctypes.cast(raw, _lib.HitPtr), 3, offsets,
    )
    assert status == 5, message
    assert list(offsets) == [0, 2, 4, 6, 8, 10]
    assert _written_past(raw, 0) == 0, "no hit may be written when the total exceeds capacity"


def test_batch_count_overflow(sphere_mesh) -> None:
    rays = _through_sphere(1)
    out = (HitStruct * 1)()
    status, message = _status(
        "fathom_mesh_intersect_batch", sphere_mesh, rays, 2**62, byref(BatchOptionsStruct(0, math.inf, 1)), out
    )
    assert status == 4, message  # count * sizeof(fathom_ray) overflows: refused before any read


def test_batch_thread_counts(sphere_mesh) -> None:
    rays = _through_sphere(8)
    results = []
    for threads in (1, 2, 3, 16, 0):
        out = (HitStruct * 8)()
        status, message = _status(
            "fathom_mesh_intersect_batch", sphere_mesh, rays, 8, byref(BatchOptionsStruct(0, math.inf, threads)), out
        )
        assert status == 0, message
        results.append(bytes(out))
    assert all(r == results[0] for r in results)


# -- what a miss writes ---------------------------------------------------------------------------


def test_miss_writes_a_clean_hit(sphere_mesh) -> None:
    out = HitStruct()
    ctypes.memset(byref(out), GUARD, ctypes.sizeof(out))
    ray = RayStruct(Vec3(-3, 5, 0), Vec3(1, 0, 0))
    status, message = _status("fathom_mesh_intersect", sphere_mesh, byref(ray), 0.0, math.inf, byref(out))
    assert status == 0, message
    assert out.primitive == fathom.NO_HIT and math.isinf(out.t) and out.t > 0
    rest = bytes(out)[4:36] + bytes(out)[40:]  # everything but t and primitive
    assert rest == bytes(len(rest)), "a miss must zero every other field (reserved included)"


def test_hit_reserved_bytes_are_zero(sphere_mesh) -> None:
    out = HitStruct()
    ctypes.memset(byref(out), GUARD, ctypes.sizeof(out))
    ray = RayStruct(Vec3(-3, 0.1, 0), Vec3(1, 0, 0))
    assert _status("fathom_mesh_intersect", sphere_mesh, byref(ray), 0.0, math.inf, byref(out))[0] == 0
    assert list(out.reserved) == [0, 0] and out.classification == 0 and out.front_face == 1


# -- building meshes through the ABI ----------------------------------------------------------------


def _create(vertices: Any, count: int, stride: int, indices: Any, triangles: int, classes: Any = None,
            flags: int = 0) -> tuple[int, str]:
    out = MeshPtr()
    status, message = _status("fathom_mesh_create", vertices, count, stride, indices, triangles, classes, flags, byref(out))
    F["fathom_mesh_destroy"](out)
    if status != 0:
        assert not out, "a failed create must not hand out a mesh"
    return status, message


V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
IDX = (c_uint32 * 3)(0, 1, 2)


@pytest.mark.parametrize("stride", [0, 4, 8, 13, 14])
def test_bad_vertex_stride(stride: int) -> None:
    padded = np.zeros(64, np.float32)
    status, message = _create(padded.ctypes.data_as(_lib.FloatPtr), 3, stride, IDX, 1)
    assert status == 3, message
    assert "vertex_stride" in message, f"the message should name vertex_stride: {message}"


def test_strided_vertices() -> None:
    wide = np.zeros((3, 5), np.float32)
    wide[:, :3] = V
    assert _create(wide.ctypes.data_as(_lib.FloatPtr), 3, 20, IDX, 1)[0] == 0


def test_unaligned_vertices() -> None:
    raw = (ctypes.c_char * 128)()
    unaligned = ctypes.cast(ctypes.addressof(raw) + 2, _lib.FloatPtr)
    status, message = _create(unaligned, 3, 12, IDX, 1)
    assert status == 3 and "align" in message, message


def test_vertex_count_overflow() -> None:
    status, message = _create(V.ctypes.data_as(_lib.FloatPtr), 2**62, 12, IDX, 1)
    assert status == 4, message
    assert "vertex_count" in message, f"the message should name vertex_count: {message}"


def test_triangle_count_overflow() -> None:
    status, message = _create(V.ctypes.data_as(_lib.FloatPtr), 3, 12, IDX, 2**62)
    assert status == 4 and "triangle_count" in message, message


@pytest.mark.parametrize("flags", [3, 4, 0x80000000])
def test_unknown_flags(flags: int) -> None:
    status, message = _create(V.ctypes.data_as(_lib.FloatPtr), 3, 12, IDX, 1, flags=flags)
    assert status == 3 and "flags" in message, message


def test_null_indices_with_no_triangles_and_null_mesh_destroy() -> None:
    assert _create(V.ctypes.data_as(_lib.FloatPtr), 3, 12, None, 0)[0] == 0  # nothing to read
    F["fathom_mesh_destroy"](None)


def test_info_of_a_borrowed_mesh_counts_no_copies() -> None:
    v, t = icosphere(2)
    infos = []
    for flags in (0, 1, 2):
        out = MeshPtr()
        assert _status(
            "fathom_mesh_create", v.ctypes.data_as(_lib.FloatPtr), len(v), 12,
            t.ctypes.data_as(ctypes.POINTER(c_uint32)), len(t), None, flags, byref(out),
        )[0] == 0
        info = MeshInfoStruct()
        F["fathom_mesh_get_info"](out, byref(info))
        F["fathom_mesh_destroy"](out)
        infos.append(info)
    copied, borrowed, compact = infos
    # per triangle 3 vertex indices instead of 9 floats: 24 bytes less, the vertices are the caller's
    assert copied.bvh_nodes == borrowed.bvh_nodes == compact.bvh_nodes
    assert copied.bvh_bytes - borrowed.bvh_bytes >= 24 * len(t)
    assert copied.memory_bytes == copied.bvh_bytes and borrowed.memory_bytes == borrowed.bvh_bytes
    # compact: the borrowed mesh's BVH, and its own packed copy of the vertices (12 bytes each)
    assert compact.bvh_bytes == borrowed.bvh_bytes and compact.memory_bytes == compact.bvh_bytes + 12 * len(v)


def test_tap_outputs_untouched_on_a_miss() -> None:
    k = IntrinsicsStruct(500, 500, 320, 240, 640, 480)
    height, found = c_float(12.5), c_bool()
    ctypes.memset(byref(found), 0xA5, 1)  # neither false nor true: the library must write exactly 0
    status, message = _status(
        "fathom_tap_floor_height", byref(k), byref(_identity()), 320.0, 10.0, None, Vec3(0, -1, 0), Vec3(0, 1, 0),
        byref(height), byref(found),
    )
    assert status == 0, message
    assert bytes(found) == b"\x00" and height.value == 12.5  # *out_height untouched when nothing is hit
    face = c_uint32(3)
    box = _lib.BoxStruct(Vec3(0, 0, -3), Vec3(1, 1, 1), 0.0, 0.0, 0)
    assert _status("fathom_tap_box_face", byref(k), byref(_identity()), 5.0, 5.0, byref(box), byref(face))[0] == 0
    assert face.value == fathom.NO_HIT
