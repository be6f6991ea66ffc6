"""Meshes and rays for the ray-cast tests to pass through the binding: random triangle soups and rays, and a
closed icosphere. Test data only: what the library answers about them is checked by the core tests
(MeshQueryTests.swift, WatertightTests.swift) and, field by field on hand-made meshes, by the binding's tests."""

from __future__ import annotations

import numpy as np

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
    corners = vertices[triangles].astype(np.float64)
    outward = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    assert np.all(np.einsum("ij,ij->i", outward, corners.mean(axis=1)) > 0), "icosphere faces must face outward"
    return vertices, triangles
