"""Mesh ray casts against an independent numpy Moeller-Trumbore (float64, every ray x every triangle),
watertightness on a closed icosphere, and the agreement of the batch, single-ray and threaded paths."""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest

import fathom
from _raycast_reference import PairHits, icosphere, random_rays, random_soup, triangle_normals, unique_edges

#: Rays whose closest crossing lies within this many barycentric units of a triangle's edge, or two of
#: whose crossings are this close in t (relative), may legitimately differ between float32 and float64.
EDGE_MARGIN = 1e-6
TIE = 1e-6


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


def _check_against_reference(hits, vertices, triangles, origins, directions, tmin=0.0, tmax=math.inf):
    ref = PairHits(vertices, triangles, origins, directions)
    prim, t_ref = ref.closest(tmin, tmax)
    got = hits["primitive"].astype(np.int64)
    got[hits["primitive"] == fathom.NO_HIT] = -1
    n = len(hits)
    rows = np.arange(n)
    # rays whose outcome float32 may legitimately decide: a crossing in range within EDGE_MARGIN of an edge
    with np.errstate(invalid="ignore"):
        in_t = (ref.t >= tmin) & (ref.t <= tmax)
    ambiguous = (np.abs(ref.margin) < EDGE_MARGIN) & in_t
    grazing = ambiguous.any(axis=1)
    assert grazing.sum() <= 0.005 * n, f"{grazing.sum()} of {n} rays graze an edge: the test data is too tight"
    clear = ~grazing
    # misses
    miss = prim < 0
    assert np.array_equal(got[clear & miss], prim[clear & miss]), "the library hit where no triangle is"
    assert np.all(np.isinf(hits["t"][got < 0]))
    assert np.all(hits["point"][got < 0] == 0) and np.all(hits["normal"][got < 0] == 0)
    assert np.all(hits["classification"][got < 0] == 0) and np.all(hits["front_face"][got < 0] == 0)
    # hits: the same triangle, or another crossed at the same t (a tie)
    hit = clear & ~miss
    assert np.all(got[hit] >= 0), "the library missed rays that cross a triangle"
    differ = hit & (got != prim)
    if differ.any():
        t_other = ref.t[rows[differ], got[differ]]
        assert np.all(ref.inside[rows[differ], got[differ]]), "a different triangle that the ray does not cross"
        assert np.all(np.abs(t_other - t_ref[differ]) <= TIE * np.maximum(1.0, t_ref[differ])), (
            f"rays {np.flatnonzero(differ)[:10]} hit another triangle than the closest, not in a tie"
        )
    k = got[hit]
    r = rows[hit]
    t_lib = hits["t"][hit].astype(np.float64)
    np.testing.assert_allclose(t_lib, ref.t[r, k], rtol=1e-5, atol=1e-7)
    # point on the ray, and the barycentrics of the triangle hit
    o, d = origins[hit].astype(np.float64), directions[hit].astype(np.float64)
    p = hits["point"][hit].astype(np.float64)
    np.testing.assert_allclose(p, o + t_lib[:, None] * d, atol=2e-5)
    u, v = hits["u"][hit].astype(np.float64), hits["v"][hit].astype(np.float64)
    np.testing.assert_allclose(u, ref.u[r, k], atol=1e-5)
    np.testing.assert_allclose(v, ref.v[r, k], atol=1e-5)
    tv = vertices[triangles[k].astype(np.int64)].astype(np.float64)  # (H, 3, 3)
    bary = (1 - u - v)[:, None] * tv[:, 0] + u[:, None] * tv[:, 1] + v[:, None] * tv[:, 2]
    np.testing.assert_allclose(bary, p, atol=2e-5)
    # unit geometric normal of the triangle, and the side the ray meets
    normals, _ = triangle_normals(vertices, triangles)
    np.testing.assert_allclose(hits["normal"][hit], normals[k], atol=1e-5)
    front = np.einsum("ij,ij->i", d, normals[k]) < 0
    assert np.array_equal(hits["front_face"][hit].astype(bool), front)
    assert np.all(hits["reserved"] == 0)
    return hit.sum()


def test_closest_hits_match_moeller_trumbore(soup) -> None:
    mesh, vertices, triangles, _, origins, directions = soup
    hits = mesh.cast(origins, directions)
    assert hits.dtype == fathom.HIT_DTYPE and hits.shape == (len(origins),)
    compared = _check_against_reference(hits, vertices, triangles, origins, directions)
    assert compared > 500  # the soup is dense enough that many rays hit


def test_range_limits_hits(soup) -> None:
    mesh, vertices, triangles, _, origins, directions = soup
    hits = mesh.cast(origins, directions, tmin=0.3, tmax=1.1)
    _check_against_reference(hits, vertices, triangles, origins, directions, tmin=0.3, tmax=1.1)
    t = hits["t"][fathom.hit_mask(hits)]
    assert t.min() >= 0.3 and t.max() <= 1.1


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


def test_cast_all_against_reference(soup) -> None:
    mesh, vertices, triangles, _, origins, directions = soup
    ref = PairHits(vertices, triangles, origins[:400], directions[:400])
    valid = ref.in_range(0.0, math.inf)
    with np.errstate(invalid="ignore"):
        near_edge = ((np.abs(ref.margin) < EDGE_MARGIN) & (ref.t >= 0)).any(axis=1)
    hits, offsets = mesh.cast_all_batch(origins[:400], directions[:400])
    assert offsets.dtype == np.uint64 and offsets.shape == (401,) and offsets[0] == 0
    assert len(hits) == offsets[-1]
    for i in range(400):
        mine = hits[offsets[i] : offsets[i + 1]]
        assert np.all(np.diff(mine["t"]) >= 0), "crossings must be sorted by t"
        single = mesh.cast_all(origins[i], directions[i])
        assert single.tobytes() == mine.tobytes(), f"ray {i}: cast_all and cast_all_batch differ"
        if near_edge[i]:
            continue
        expected = np.flatnonzero(valid[i])
        assert sorted(mine["primitive"].tolist()) == sorted(expected.tolist()), f"ray {i}"
        np.testing.assert_allclose(np.sort(mine["t"]), np.sort(ref.t[i, expected]), rtol=1e-5, atol=1e-7)
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
    normals, areas = triangle_normals(vertices, triangles)
    assert mesh.surface_area == pytest.approx(areas.sum(), rel=1e-5)
    assert mesh.surface_area == pytest.approx(4 * math.pi, rel=0.02)  # an inscribed polyhedron, a bit less
    np.testing.assert_allclose(mesh.face_normals, normals, atol=1e-5)
    np.testing.assert_allclose(mesh.face_areas, areas, rtol=1e-4)
    assert mesh.face_normals.shape == (1280, 3) and mesh.face_areas.shape == (1280,)
    assert mesh.memory_bytes >= mesh.bvh_bytes >= 36 * len(triangles)  # the BVH holds each triangle's 9 floats
    assert mesh.bvh_nodes >= 1 and mesh.bvh_depth >= 1 and mesh.bvh_width >= 2
    assert "Mesh(vertices=642, triangles=1280" in repr(mesh)


def test_rays_from_inside_cross_exactly_once(sphere, rng: np.random.Generator) -> None:
    mesh, _, _ = sphere
    n = 2000
    d = rng.normal(size=(n, 3))
    o = rng.normal(size=(n, 3))
    o *= rng.uniform(0.0, 0.8, size=(n, 1)) / np.linalg.norm(o, axis=1, keepdims=True)  # well inside
    hits, offsets = mesh.cast_all_batch(o, d)
    counts = np.diff(offsets.astype(np.int64))
    assert np.all(counts == 1), f"{np.sum(counts != 1)} rays from inside crossed {np.unique(counts)} times"
    closest = mesh.cast(o, d)
    assert fathom.hit_mask(closest).all()
    assert not closest["front_face"].any()  # outward normals: from inside every hit is a back face


def test_rays_through_vertices_and_edges_hit_once(sphere) -> None:
    """Watertight: rays from the centre exactly through every vertex and every edge midpoint."""
    mesh, vertices, triangles = sphere
    edges = unique_edges(triangles)
    targets = np.concatenate([vertices, (vertices[edges[:, 0]] + vertices[edges[:, 1]]) / 2]).astype(np.float32)
    origins = np.zeros_like(targets)
    hits, offsets = mesh.cast_all_batch(origins, targets)
    counts = np.diff(offsets.astype(np.int64))
    bad = np.flatnonzero(counts != 1)
    assert len(bad) == 0, f"{len(bad)} of {len(targets)} rays through vertices/edges crossed {counts[bad][:10]} times"
    closest = mesh.cast(origins, targets)
    assert fathom.hit_mask(closest).all(), "a ray through a shared edge or vertex fell through the mesh"
    np.testing.assert_allclose(closest["t"], 1.0, atol=1e-5)  # the targets are on the surface, t in |d|


def test_rays_from_outside_cross_an_even_number_of_times(sphere, rng: np.random.Generator) -> None:
    mesh, _, _ = sphere
    n = 2000
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
    anywhere = rng.normal(size=(n, 3))  # random directions: miss, graze or cross
    _, offsets = mesh.cast_all_batch(o, anywhere)
    assert np.all(np.diff(offsets.astype(np.int64)) % 2 == 0)


# -- construction variants ------------------------------------------------------------------------


def test_borrowed_arrays_are_kept_and_give_the_same_hits(rng: np.random.Generator) -> None:
    vertices, triangles = random_soup(rng, 100)
    classes = rng.integers(0, 8, len(triangles)).astype(np.uint8)
    origins, directions = random_rays(rng, 500)
    with fathom.Mesh(vertices, triangles, classes) as copied:
        expected = copied.cast(origins, directions)
    mesh = fathom.Mesh.from_arrays(vertices, triangles, classes, borrow=True)
    assert mesh.borrowed
    assert mesh._keep[0] is vertices and mesh._keep[1] is triangles and mesh._keep[2] is classes
    del vertices, triangles, classes
    gc.collect()  # the mesh's references keep the borrowed buffers alive
    assert mesh.cast(origins, directions).tobytes() == expected.tobytes()
    mesh.close()
    assert mesh._keep is None and mesh.closed


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


def _grid_mesh(n: int, flip_diagonals: bool) -> tuple[np.ndarray, np.ndarray]:
    """An n x n grid of unit squares in the plane y = 0 (vertices at integer x, z), two triangles each,
    the diagonals alternating when ``flip_diagonals``."""
    xs, zs = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    vertices = np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1).astype(np.float32)
    tris = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1
            if flip_diagonals and (i + j) % 2:
                tris += [(a, d, b), (b, d, c)]
            else:
                tris += [(a, c, b), (a, d, c)]
    return vertices, np.array(tris, np.uint32)


@pytest.mark.parametrize("flip", [False, True])
def test_grid_vertices_and_edges_are_hit_once(flip: bool) -> None:
    """Rays straight down and slanted through every grid vertex, edge midpoint and diagonal midpoint
    (all exactly representable): each is one crossing, never zero, never two."""
    n = 8
    vertices, triangles = _grid_mesh(n, flip)
    g = np.arange(0, n + 0.5, 0.5)[1:-1]  # interior integer and half-integer coordinates
    xs, zs = np.meshgrid(g, g, indexing="ij")
    targets = np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)
    with fathom.Mesh(vertices, triangles) as mesh:
        for direction in [(0.0, -1.0, 0.0), (0.25, -1.0, 0.5), (-0.5, -1.0, 0.125)]:
            d = np.array(direction)
            origins = (targets - 2.0 * d).astype(np.float32)  # exact: targets + 2 * (-d) in binary
            dirs = np.broadcast_to(d, origins.shape).astype(np.float32)
            hits = mesh.cast(origins, dirs)
            missed = np.flatnonzero(~fathom.hit_mask(hits))
            assert len(missed) == 0, f"direction {direction}: rays through {targets[missed][:5]} fell through"
            np.testing.assert_allclose(hits["t"], 2.0, rtol=1e-6)
            _, offsets = mesh.cast_all_batch(origins, dirs)
            counts = np.diff(offsets.astype(np.int64))
            twice = np.flatnonzero(counts != 1)
            assert len(twice) == 0, f"direction {direction}: {targets[twice][:5]} crossed {counts[twice][:5]} times"


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
