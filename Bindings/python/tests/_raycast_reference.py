"""Independent numpy ray casting for the ray-cast tests (none of it calls the library).

Moeller-Trumbore in float64 over every (ray, triangle) pair, the pinhole camera formulas of
reference/conventions.md, and mesh builders (random triangle soups, a subdivided icosahedron).
"""

from __future__ import annotations

import numpy as np

# ------------------------------------------------------------------------------------------------
# Ray against triangles
# ------------------------------------------------------------------------------------------------


class PairHits:
    """Every (ray, triangle) pair: t, barycentrics u, v and whether the ray's line meets the triangle.

    Attributes (all (N, T)): t, u, v, inside (u >= 0, v >= 0, u + v <= 1, non-degenerate), margin
    (min(u, v, 1 - u - v): how far inside the triangle the crossing is, in barycentric units; negative
    outside).
    """

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray, origins: np.ndarray, directions: np.ndarray):
        v = np.asarray(vertices, np.float64)
        tri = np.asarray(triangles, np.int64)
        o = np.asarray(origins, np.float64)
        d = np.asarray(directions, np.float64)
        v0, v1, v2 = v[tri[:, 0]], v[tri[:, 1]], v[tri[:, 2]]
        e1, e2 = v1 - v0, v2 - v0
        p = np.cross(d[:, None, :], e2[None, :, :])  # (N, T, 3)
        det = np.einsum("tk,ntk->nt", e1, p)
        degenerate = np.linalg.norm(np.cross(e1, e2), axis=1) == 0.0  # (T,)
        ok = (det != 0.0) & ~degenerate[None, :]
        inv = np.divide(1.0, det, out=np.zeros_like(det), where=ok)
        s = o[:, None, :] - v0[None, :, :]
        u = np.einsum("ntk,ntk->nt", s, p) * inv
        q = np.cross(s, e1[None, :, :])
        w = np.einsum("nk,ntk->nt", d, q) * inv
        t = np.einsum("tk,ntk->nt", e2, q) * inv
        self.t = np.where(ok, t, np.nan)
        self.u = u
        self.v = w
        self.margin = np.where(ok, np.minimum(np.minimum(u, w), 1.0 - u - w), -np.inf)
        self.inside = ok & (self.margin >= 0.0)
        self.degenerate = degenerate

    def in_range(self, tmin: float, tmax: float) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return self.inside & (self.t >= tmin) & (self.t <= tmax)

    def closest(self, tmin: float = 0.0, tmax: float = np.inf) -> tuple[np.ndarray, np.ndarray]:
        """(primitive (N,) with -1 for a miss, t (N,) with inf for a miss)."""
        valid = self.in_range(tmin, tmax)
        t = np.where(valid, self.t, np.inf)
        prim = np.argmin(t, axis=1)
        best = t[np.arange(len(t)), prim]
        return np.where(np.isfinite(best), prim, -1), best


def triangle_normals(vertices: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unit normals (v1 - v0) x (v2 - v0) (0 for degenerate triangles) and areas, float64."""
    v = np.asarray(vertices, np.float64)
    tri = np.asarray(triangles, np.int64)
    c = np.cross(v[tri[:, 1]] - v[tri[:, 0]], v[tri[:, 2]] - v[tri[:, 0]])
    length = np.linalg.norm(c, axis=1)
    normals = np.divide(c, length[:, None], out=np.zeros_like(c), where=length[:, None] > 0)
    return normals, 0.5 * length


# ------------------------------------------------------------------------------------------------
# Meshes
# ------------------------------------------------------------------------------------------------


def random_soup(rng: np.random.Generator, count: int = 200, degenerate: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random triangles in [-1, 1]^3 (sizes 0.05 .. 0.8 m), the last ``degenerate`` of them
    with a repeated vertex (zero area). Vertices float32 (3 * count, 3), triangles uint32 (count, 3)."""
    centers = rng.uniform(-1.0, 1.0, size=(count, 1, 3))
    sizes = rng.uniform(0.05, 0.8, size=(count, 1, 1))
    corners = centers + sizes * rng.normal(size=(count, 3, 3))
    vertices = corners.reshape(-1, 3).astype(np.float32)
    triangles = np.arange(3 * count, dtype=np.uint32).reshape(count, 3)
    for k in range(count - degenerate, count):
        triangles[k, 2] = triangles[k, 0]
    return vertices, triangles


def random_rays(rng: np.random.Generator, count: int, spread: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Origins uniform in [-spread, spread]^3 and directions of random direction and length 0.5 .. 2."""
    origins = rng.uniform(-spread, spread, size=(count, 3)).astype(np.float32)
    d = rng.normal(size=(count, 3))
    d *= rng.uniform(0.5, 2.0, size=(count, 1)) / np.linalg.norm(d, axis=1, keepdims=True)
    return origins, d.astype(np.float32)


_PHI = (1.0 + 5.0 ** 0.5) / 2.0
_ICO_VERTICES = [
    (-1, _PHI, 0), (1, _PHI, 0), (-1, -_PHI, 0), (1, -_PHI, 0),
    (0, -1, _PHI), (0, 1, _PHI), (0, -1, -_PHI), (0, 1, -_PHI),
    (_PHI, 0, -1), (_PHI, 0, 1), (-_PHI, 0, -1), (-_PHI, 0, 1),
]
_ICO_FACES = [
    (0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
    (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
    (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
    (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1),
]


def icosphere(level: int = 3, radius: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed sphere mesh: the icosahedron with each triangle split in four ``level`` times, new
    vertices pushed out to the sphere. Shared edges share their vertex indices (a watertight mesh);
    faces are counter-clockwise seen from outside, so (v1 - v0) x (v2 - v0) points outward.
    Vertices float32 (10 * 4^level + 2, 3), triangles uint32 (20 * 4^level, 3)."""
    verts = [np.array(p, np.float64) / np.linalg.norm(p) for p in _ICO_VERTICES]
    faces = list(_ICO_FACES)
    for _ in range(level):
        cache: dict[tuple[int, int], int] = {}

        def midpoint(a: int, b: int) -> int:
            key = (min(a, b), max(a, b))
            if key not in cache:
                m = verts[a] + verts[b]
                verts.append(m / np.linalg.norm(m))
                cache[key] = len(verts) - 1
            return cache[key]

        new_faces = []
        for a, b, c in faces:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            new_faces += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new_faces
    vertices = (np.array(verts) * radius).astype(np.float32)
    triangles = np.array(faces, dtype=np.uint32)
    normals, _ = triangle_normals(vertices, triangles)
    centroids = vertices[triangles].astype(np.float64).mean(axis=1)
    assert np.all(np.einsum("ij,ij->i", normals, centroids) > 0), "icosphere faces must face outward"
    return vertices, triangles


def unique_edges(triangles: np.ndarray) -> np.ndarray:
    """The (E, 2) vertex index pairs of a mesh's edges, each once."""
    t = np.asarray(triangles, np.int64)
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    return np.unique(np.sort(e, axis=1), axis=0)


# ------------------------------------------------------------------------------------------------
# Cameras (reference/conventions.md)
# ------------------------------------------------------------------------------------------------


def camera_ray(k, pose: np.ndarray, u: float, v: float) -> tuple[np.ndarray, np.ndarray]:
    """Origin and unit direction: ((u - cx)/fx, -(v - cy)/fy, -1), normalized, rotated by the pose."""
    d = np.array([(u - k.cx) / k.fx, -(v - k.cy) / k.fy, -1.0])
    d /= np.linalg.norm(d)
    pose = np.asarray(pose, np.float64)
    return pose[:3, 3].copy(), pose[:3, :3] @ d


def project(k, pose: np.ndarray, point) -> tuple[float, float, bool, bool]:
    """(u, v, behind, outside) of a world point: camera coordinates X = R^T (p - t), then
    u = cx + fx * X / -Z, v = cy - fy * Y / -Z; behind if Z >= 0, outside if off [0, w] x [0, h]."""
    pose = np.asarray(pose, np.float64)
    x, y, z = pose[:3, :3].T @ (np.asarray(point, np.float64) - pose[:3, 3])
    if z >= 0:
        return 0.0, 0.0, True, False
    u = k.cx + k.fx * x / -z
    v = k.cy - k.fy * y / -z
    return u, v, False, not (0 <= u <= k.width and 0 <= v <= k.height)
