"""Mesh ray casts through the binding: every field of the hit record on a hand-made mesh, miss records, the
range, classes, the batch, single-ray and threaded paths, the input forms of rays and meshes, borrowed arrays, and
cast_all's offsets. Which triangle a ray meets on random soups, and watertightness, are the core tests'
(MeshQueryTests.swift against a brute force, WatertightTests.swift)."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import fathom
from _meshes import icosphere, random_rays, random_soup


@pytest.fixture(scope="module")
def soup():
    rng = np.random.default_rng(7)
    vertices, triangles = random_soup(rng, 200)
    classes = rng.integers(0, 8, size=len(triangles)).astype(np.uint8)
    origins, directions = random_rays(rng, 3000)
    with fathom.Mesh(vertices, triangles, classes) as mesh:
        yield mesh, vertices, triangles, classes, origins, directions


@pytest.fixture(scope="module")
def sphere():
    vertices, triangles = icosphere(3)
    with fathom.Mesh.from_arrays(vertices, triangles) as mesh:
        yield mesh, vertices, triangles


#: Three parallel triangles at z = 0, -1 and -2 (primitives 0, 1, 2; classes WALL, FLOOR, TABLE), each the right
#: triangle with legs along +x and +y from (1, 2, z): counter-clockwise seen from +z, so their normal is +z.
STACK_V = np.array([[1 + x, 2 + y, -k] for k in range(3) for x, y in ((0, 0), (2, 0), (0, 4))], np.float32)
STACK_T = np.arange(9, dtype=np.uint32).reshape(3, 3)
STACK_CLASSES = np.array([fathom.MeshClass.WALL, fathom.MeshClass.FLOOR, fathom.MeshClass.TABLE], np.uint8)


def test_hit_record_fields_by_hand() -> None:
    """A ray down from (1.5, 3, 1) with |d| = 2 meets the first triangle at t = 0.5 (in |d| units), at (1.5, 3, 0),
    barycentrics u = 0.5 / 2 = 0.25 (along the x leg), v = 1 / 4 = 0.25 (along the y leg), normal +z, front face.
    Upwards from below the stack it meets the last triangle's back."""
    with fathom.Mesh(STACK_V, STACK_T, STACK_CLASSES) as mesh:
        hits = mesh.cast(np.array([[1.5, 3, 1], [1.5, 3, -5]]), np.array([[0, 0, -2], [0, 0, 1]]))
        assert hits.dtype == fathom.HIT_DTYPE and hits.shape == (2,)
        down, up = hits
        assert (down["t"], down["u"], down["v"]) == pytest.approx((0.5, 0.25, 0.25), rel=1e-6)
        np.testing.assert_allclose(down["point"], [1.5, 3, 0], atol=1e-6)
        np.testing.assert_allclose(down["normal"], [0, 0, 1], atol=1e-7)
        assert (down["primitive"], down["classification"], down["front_face"]) == (0, fathom.MeshClass.WALL, 1)
        assert (up["primitive"], up["classification"], up["front_face"]) == (2, fathom.MeshClass.TABLE, 0)
        assert up["t"] == pytest.approx(3.0, rel=1e-6)
        np.testing.assert_allclose(up["point"], [1.5, 3, -2], atol=1e-6)
        one = mesh.intersect((1.5, 3, 1), (0, 0, -2))
        assert isinstance(one, fathom.Hit) and one == fathom.Hit.from_record(down)
        assert one.classification is fathom.MeshClass.WALL and one.front_face is True


def test_cast_all_by_hand() -> None:
    """Down through the whole stack: three crossings sorted by t; one ray's list, then the batch's offsets."""
    with fathom.Mesh(STACK_V, STACK_T, STACK_CLASSES) as mesh:
        every = mesh.cast_all((1.5, 3, 1), (0, 0, -1))
        np.testing.assert_allclose(every["t"], [1, 2, 3], rtol=1e-6)
        np.testing.assert_array_equal(every["primitive"], [0, 1, 2])
        hits, offsets = mesh.cast_all_batch([[1.5, 3, 1], [9, 9, 1], [1.5, 3, -0.5]], [[0, 0, -1]] * 3)
        assert offsets.dtype == np.uint64 and offsets.tolist() == [0, 3, 3, 5]
        np.testing.assert_array_equal(hits["primitive"], [0, 1, 2, 1, 2])
        np.testing.assert_allclose(hits["t"], [1, 2, 3, 0.5, 1.5], rtol=1e-6)
        assert mesh.cast_all((9, 9, 1), (0, 0, -1)).shape == (0,)


def test_miss_records_are_zero_and_hits_lie_on_their_ray(soup) -> None:
    """On the soup: a miss is t = inf with every other field 0; a hit's point is origin + t * direction and the
    barycentric combination (1 - u - v) v0 + u v1 + v v2 of its own triangle's vertices."""
    mesh, vertices, triangles, _, origins, directions = soup
    hits = mesh.cast(origins, directions)
    assert hits.dtype == fathom.HIT_DTYPE and hits.shape == (len(origins),)
    hit = fathom.hit_mask(hits)
    assert 500 < hit.sum() < len(hits)  # the soup is dense enough that many rays hit, and some miss
    miss = ~hit
    assert np.all(np.isinf(hits["t"][miss]))
    assert np.all(hits["point"][miss] == 0) and np.all(hits["normal"][miss] == 0)
    assert np.all(hits["classification"][miss] == 0) and np.all(hits["front_face"][miss] == 0)
    assert np.all(hits["reserved"] == 0)
    t = hits["t"][hit].astype(np.float64)
    p = hits["point"][hit].astype(np.float64)
    np.testing.assert_allclose(p, origins[hit] + t[:, None] * directions[hit], atol=2e-5)
    corners = vertices[triangles[hits["primitive"][hit]].astype(np.int64)].astype(np.float64)  # (H, 3, 3)
    u, v = hits["u"][hit].astype(np.float64)[:, None], hits["v"][hit].astype(np.float64)[:, None]
    np.testing.assert_allclose((1 - u - v) * corners[:, 0] + u * corners[:, 1] + v * corners[:, 2], p, atol=2e-5)


def test_range_limits_hits(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    hits = mesh.cast(origins, directions, tmin=0.3, tmax=1.1)
    t = hits["t"][fathom.hit_mask(hits)]
    assert t.min() >= 0.3 and t.max() <= 1.1
    unlimited = mesh.cast(origins, directions)
    inside = fathom.hit_mask(unlimited) & (unlimited["t"] >= 0.3) & (unlimited["t"] <= 1.1)
    assert np.all(fathom.hit_mask(hits)[inside])  # a closest hit within the range is still found


def test_degenerate_triangles_are_never_hit(soup) -> None:
    mesh, vertices, triangles, _, origins, directions = soup
    degenerate = np.flatnonzero(triangles[:, 0] == triangles[:, 2])
    assert len(degenerate) == 3
    hits = mesh.cast(origins, directions)
    assert not np.isin(hits["primitive"], degenerate).any()
    assert np.all(mesh.face_areas[degenerate] == 0) and np.all(mesh.face_normals[degenerate] == 0)


def test_classification_comes_back(soup) -> None:
    mesh, _, _, classes, origins, directions = soup
    hits = mesh.cast(origins, directions)
    mask = fathom.hit_mask(hits)
    assert np.array_equal(hits["classification"][mask], classes[hits["primitive"][mask]])
    assert len(np.unique(hits["classification"][mask])) == 8
    one = mesh.intersect(origins[np.argmax(mask)], directions[np.argmax(mask)])
    assert isinstance(one.classification, fathom.MeshClass)
    assert one.classification == classes[one.primitive]


def test_single_equals_batch_bit_for_bit(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    hits = mesh.cast(origins[:300], directions[:300])
    for i in range(300):
        single = mesh.intersect(origins[i], directions[i])
        if hits["primitive"][i] == fathom.NO_HIT:
            assert single is None
            continue
        record = fathom.Hit.from_record(hits[i])
        assert single == record  # every field exactly
        assert single.point.tobytes() == record.point.tobytes()


def test_threads_do_not_change_results(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    rays = fathom.make_rays(origins, directions)
    one = mesh.cast(rays, threads=1)
    assert one.tobytes() == mesh.cast(rays, threads=2).tobytes()
    assert one.tobytes() == mesh.cast(rays, threads=0).tobytes()
    assert one.tobytes() == mesh.cast(rays, threads=7).tobytes()
    occ1 = mesh.occluded(rays, threads=1, tmax=0.8)
    assert np.array_equal(occ1, mesh.occluded(rays, threads=2, tmax=0.8))
    h1, o1 = mesh.cast_all_batch(rays[:500], threads=1)
    h2, o2 = mesh.cast_all_batch(rays[:500], threads=2)
    assert np.array_equal(o1, o2) and h1.tobytes() == h2.tobytes()


def test_ray_array_and_origin_direction_forms_agree(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    rays = fathom.make_rays(origins, directions)
    assert rays.shape == (len(origins), 6) and rays.dtype == np.float32 and rays.flags.c_contiguous
    a = mesh.cast(rays)
    assert a.tobytes() == mesh.cast(origins, directions).tobytes()
    assert a.tobytes() == mesh.cast(rays.astype(np.float64)).tobytes()  # converted once
    assert a.tobytes() == mesh.cast(origins.astype(np.float64), directions.tolist()).tobytes()
    strided = np.zeros((len(rays), 8), np.float32)
    strided[:, :6] = rays
    assert a.tobytes() == mesh.cast(strided[:, :6]).tobytes()  # not contiguous: copied, same result
    from fathom.raycast import _ray_array

    assert _ray_array(rays, None) is rays  # a float32 C-contiguous ray array goes to C as it is


def test_one_origin_many_directions(soup) -> None:
    mesh, _, _, _, _, directions = soup
    o = np.array([0.1, -0.2, 0.3], np.float32)
    assert mesh.cast(o, directions[:50]).tobytes() == mesh.cast(np.tile(o, (50, 1)), directions[:50]).tobytes()


def test_occluded_agrees_with_cast(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    for tmin, tmax in [(0.0, math.inf), (0.0, 0.5), (0.2, 1.0)]:
        hits = mesh.cast(origins, directions, tmin=tmin, tmax=tmax)
        occ = mesh.occluded(origins, directions, tmin=tmin, tmax=tmax)
        assert occ.dtype == np.bool_ and occ.shape == (len(origins),)
        assert np.array_equal(occ, fathom.hit_mask(hits))
    near = mesh.occluded(origins[:40], directions[:40], tmax=0.5)
    for i in range(40):  # one ray (both (3,)): fathom_mesh_occluded, a bool
        assert mesh.occluded(origins[i], directions[i], tmax=0.5) is bool(near[i])
        assert mesh.occluded(origins[i], directions[i]) == (mesh.intersect(origins[i], directions[i]) is not None)


def test_cast_all_batch_equals_single_rays(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    hits, offsets = mesh.cast_all_batch(origins[:400], directions[:400])
    assert offsets.dtype == np.uint64 and offsets.shape == (401,) and offsets[0] == 0
    assert len(hits) == offsets[-1]
    for i in range(400):
        mine = hits[offsets[i] : offsets[i + 1]]
        assert np.all(np.diff(mine["t"]) >= 0), "crossings must be sorted by t"
        single = mesh.cast_all(origins[i], directions[i])
        assert single.tobytes() == mine.tobytes(), f"ray {i}: cast_all and cast_all_batch differ"
        if len(mine):
            closest = mesh.intersect(origins[i], directions[i])
            assert closest.t == mine["t"][0]


def test_hit_records_and_mask(soup) -> None:
    mesh, _, _, _, origins, directions = soup
    hits = mesh.cast(origins[:100], directions[:100])
    mask = fathom.hit_mask(hits)
    assert np.array_equal(mask, hits["primitive"] != fathom.NO_HIT)
    for rec, m in zip(hits, mask):
        h = fathom.Hit.from_record(rec)
        assert (h is not None) == m
    with pytest.raises(TypeError, match="HIT_DTYPE"):
        fathom.hit_mask(np.zeros(3))
    assert fathom.empty_hits(5).dtype == fathom.HIT_DTYPE


# -- the closed icosphere -------------------------------------------------------------------------


def test_icosphere_info(sphere) -> None:
    mesh, vertices, triangles = sphere
    assert mesh.vertex_count == len(vertices) == 642 and mesh.triangle_count == len(triangles) == 1280
    lo, hi = mesh.bounds
    np.testing.assert_array_equal(lo, vertices.min(axis=0))
    np.testing.assert_array_equal(hi, vertices.max(axis=0))
    assert mesh.face_normals.shape == (1280, 3) and mesh.face_areas.shape == (1280,)
    assert mesh.surface_area == pytest.approx(mesh.face_areas.sum(), rel=1e-5)
    assert mesh.surface_area == pytest.approx(4 * math.pi, rel=0.02)  # an inscribed polyhedron, a bit less
    # in the caller's triangle order: each face's normal is unit and points out through its own triangle
    np.testing.assert_allclose(np.linalg.norm(mesh.face_normals, axis=1), 1.0, atol=1e-6)
    centroids = vertices[triangles].astype(np.float64).mean(axis=1)
    assert np.all(np.einsum("ij,ij->i", mesh.face_normals, centroids / np.linalg.norm(centroids, axis=1)[:, None]) > 0.99)
    assert mesh.memory_bytes >= mesh.bvh_bytes >= 36 * len(triangles)  # the BVH holds each triangle's 9 floats
    assert mesh.bvh_nodes >= 1 and mesh.bvh_depth >= 1 and mesh.bvh_width >= 2
    assert "Mesh(vertices=642, triangles=1280" in repr(mesh)


def test_rays_through_the_sphere_enter_then_leave(sphere, rng: np.random.Generator) -> None:
    """Offsets of a batch of rays through the closed sphere: two crossings each, the front face first."""
    mesh, _, _ = sphere
    n = 300
    o = rng.normal(size=(n, 3))
    o *= rng.uniform(1.5, 4.0, size=(n, 1)) / np.linalg.norm(o, axis=1, keepdims=True)
    aim = rng.uniform(-0.85, 0.85, size=(n, 3)) * 0.5
    through = aim - o  # through a point well inside: crosses twice
    hits, offsets = mesh.cast_all_batch(o, through)
    counts = np.diff(offsets.astype(np.int64))
    assert np.all(counts == 2), f"counts {np.unique(counts, return_counts=True)}"
    first, second = hits[offsets[:-1].astype(np.int64)], hits[offsets[:-1].astype(np.int64) + 1]
    assert first["front_face"].all() and not second["front_face"].any()
    assert np.all(first["t"] < second["t"])


# -- construction variants ------------------------------------------------------------------------


def _soup_with_copied_hits(rng: np.random.Generator, triangles: int, rays: int):
    """A random soup with classes, rays, and a copied mesh's closest hits and occlusion of them: the reference
    for the other ways of keeping the arrays."""
    vertices, indices = random_soup(rng, triangles)
    classes = rng.integers(0, 8, len(indices)).astype(np.uint8)
    origins, directions = random_rays(rng, rays)
    with fathom.Mesh(vertices, indices, classes) as copied:
        hits, occluded = copied.cast(origins, directions), copied.occluded(origins, directions)
    return vertices, indices, classes, origins, directions, hits, occluded


def test_borrowed_arrays_are_kept_and_give_the_same_hits(rng: np.random.Generator) -> None:
    vertices, triangles, classes, origins, directions, expected, _ = _soup_with_copied_hits(rng, 100, 500)
    mesh = fathom.Mesh.from_arrays(vertices, triangles, classes, borrow=True)
    assert mesh.borrowed
    assert mesh._keep[0] is vertices and mesh._keep[1] is triangles and mesh._keep[2] is classes
    del vertices, triangles, classes
    gc.collect()  # the mesh's references keep the borrowed buffers alive
    assert mesh.cast(origins, directions).tobytes() == expected.tobytes()
    mesh.close()
    assert mesh._keep is None and mesh.closed


def test_compact_mesh_copies_its_input_and_gives_the_same_hits(rng: np.random.Generator) -> None:
    vertices, triangles, classes, origins, directions, expected, expected_any = _soup_with_copied_hits(rng, 2000, 5000)
    # from float64 and int64 arrays (converted, as for a copied mesh), then the caller's arrays overwritten
    v64, t64 = vertices.astype(np.float64), triangles.astype(np.int64)
    mesh = fathom.Mesh.from_arrays(v64, t64, classes, compact=True)
    v64[:] = np.nan
    t64[:] = 0
    assert mesh.compact and not mesh.borrowed and mesh._keep is None and "compact" in repr(mesh)
    assert mesh.cast(origins, directions).tobytes() == expected.tobytes()
    assert np.array_equal(mesh.occluded(origins, directions), expected_any)
    assert np.array_equal(mesh.vertices, vertices) and np.array_equal(mesh.triangles, triangles)
    # 3 vertex indices per leaf position instead of 9 floats, and the vertices once (12 bytes each)
    with fathom.Mesh(vertices, triangles, classes) as copied:
        assert mesh.bvh_nodes == copied.bvh_nodes
        assert copied.bvh_bytes - mesh.bvh_bytes >= 24 * len(triangles)
        assert mesh.memory_bytes == mesh.bvh_bytes + 12 * len(vertices) + len(triangles)
    mesh.close()


def test_compact_and_borrow_exclude_each_other() -> None:
    v, t = icosphere(0)
    with pytest.raises(ValueError, match="borrow=True and compact=True exclude each other"):
        fathom.Mesh(v, t, borrow=True, compact=True)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda v, t: (v.astype(np.float64), t), "vertices of dtype float32"),
        (lambda v, t: (np.asfortranarray(v), t), "vertices C-contiguous"),
        (lambda v, t: (v[::2], t // 2), "vertices C-contiguous"),
        (lambda v, t: (v, t.astype(np.int64)), "triangles of dtype uint32"),
        (lambda v, t: (v, t.T.copy().T), "triangles C-contiguous"),
        (lambda v, t: (v.tolist(), t), "vertices as a numpy array"),
        (lambda v, t: (v[:, :2].copy(), t), r"vertices must have shape \(N, 3\)"),
    ],
)
def test_borrow_needs_exact_arrays(change, message: str) -> None:
    v, t = icosphere(0)
    v2, t2 = change(v, t)
    with pytest.raises(ValueError, match=message):
        fathom.Mesh(v2, t2, borrow=True)


def test_borrow_classes_need_uint8() -> None:
    v, t = icosphere(0)
    with pytest.raises(ValueError, match="classes of dtype uint8"):
        fathom.Mesh(v, t, np.zeros(len(t), np.int32), borrow=True)
    with pytest.raises(ValueError, match=r"classes must have shape \(20,\)"):
        fathom.Mesh(v, t, np.zeros(5, np.uint8), borrow=True)


def test_converted_inputs(rng: np.random.Generator) -> None:
    v, t = icosphere(1)
    with fathom.Mesh(v.astype(np.float64).tolist(), t.astype(np.int64)) as a, fathom.Mesh(v, t) as b:
        assert a.triangle_count == b.triangle_count == 80
        o, d = random_rays(rng, 200, spread=1.5)
        assert a.cast(o, d).tobytes() == b.cast(o, d).tobytes()
    wide = np.zeros((len(v), 4), np.float32)  # (V, 4) float32 rows: read in place with stride 16
    wide[:, :3] = v
    with fathom.Mesh(wide, t) as c:
        assert c.vertex_count == len(v)
        np.testing.assert_array_equal(c.bounds.min, v.min(axis=0))


@pytest.mark.parametrize("scale", [1e-20, 1e-30, 1e-35])
def test_tiny_directions_hit_or_are_refused(sphere, scale: float) -> None:
    """A finite, non-zero direction from inside the closed sphere must cross it once (t ~ 1/|d|), or be
    refused as degenerate; it must never silently fall through the mesh."""
    mesh, _, _ = sphere
    d = np.array([1.0, 0.3, 0.2]) * scale
    try:
        hit = mesh.intersect((0, 0, 0), d)
    except fathom.DegenerateError:
        return
    assert hit is not None, f"direction {d.tolist()} from the centre fell through the closed mesh"
    assert hit.t * np.linalg.norm(d) == pytest.approx(1.0, rel=0.02)  # the sphere's radius, in meters
    assert len(mesh.cast_all((0, 0, 0), d)) == 1
    assert fathom.hit_mask(mesh.cast(np.zeros((1, 3)), d[None])).all()
