"""Mesh export: Mesh.vertices / triangles / classes give back the input in its order (degenerate triangles and
unused vertices included), and Mesh.save writes PLY and OBJ that load back to identical arrays and identical
ray hits. The files are also read independently (plyfile for PLY, a few lines of Python for OBJ)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fathom
from _meshes import icosphere, random_rays, random_soup

plyfile = pytest.importorskip("plyfile", reason="plyfile is needed to check PLY files independently")
from plyfile import PlyData  # noqa: E402


def _mesh_arrays(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v, t = random_soup(rng, 300, degenerate=5)
    v = np.vstack([v, rng.normal(size=(3, 3))]).astype(np.float32)  # three vertices no triangle uses
    v[0] = (-0.0, 1e-38, 3.4e38)  # signed zero, a subnormal neighbour and a huge value survive OBJ text
    classes = rng.integers(0, 8, size=len(t), dtype=np.uint8)
    return v, np.asarray(t, dtype=np.uint32), classes


def _obj_arrays(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """An independent OBJ reader for what Mesh.save writes: v x y z and f a b c (1-based)."""
    v, f = [], []
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts and parts[0] == "v":
            v.append([np.float32(x) for x in parts[1:4]])
        elif parts and parts[0] == "f":
            f.append([int(x) - 1 for x in parts[1:4]])
    return np.array(v, dtype=np.float32).reshape(-1, 3), np.array(f, dtype=np.uint32).reshape(-1, 3)


@pytest.mark.parametrize("borrow", [False, True], ids=["copied", "borrowed"])
def test_arrays_come_back_in_the_callers_order(rng: np.random.Generator, borrow: bool) -> None:
    v, t, c = _mesh_arrays(rng)
    with fathom.Mesh(v, t, c, borrow=borrow) as mesh:
        assert mesh.vertices.dtype == np.float32 and mesh.vertices.shape == v.shape
        assert mesh.vertices.tobytes() == v.tobytes()
        assert mesh.triangles.dtype == np.uint32
        np.testing.assert_array_equal(mesh.triangles, t)
        np.testing.assert_array_equal(mesh.classes, c)
    with fathom.Mesh(v, t) as plain:
        assert plain.classes is None
    # A strided float32 view (N, 6) is copied at creation: changing the array later changes nothing.
    wide = np.hstack([v, np.ones_like(v)])
    with fathom.Mesh(wide, t) as mesh:
        wide[:] = 7
        assert mesh.vertices.tobytes() == v.tobytes()


@pytest.mark.parametrize("suffix", [".ply", ".obj", ".PLY", ".Obj"])
def test_save_and_load_give_identical_arrays_and_hits(tmp_path: Path, rng: np.random.Generator, suffix: str) -> None:
    v, t, c = _mesh_arrays(rng)
    path = tmp_path / ("mesh" + suffix)
    with fathom.Mesh(v, t, c) as mesh:
        mesh.save(path)
        with fathom.Mesh.load(path) as loaded:
            assert loaded.vertices.tobytes() == v.tobytes()
            np.testing.assert_array_equal(loaded.triangles, t)
            if suffix.lower() == ".ply":
                np.testing.assert_array_equal(loaded.classes, c)
            else:
                assert loaded.classes is None  # OBJ has no classes
            o, d = random_rays(rng, 2000, spread=1.5)
            a, b = mesh.cast(o, d), loaded.cast(o, d)
            if suffix.lower() == ".obj":  # no classes in OBJ: compare everything else
                a["classification"] = 0
            assert a.tobytes() == b.tobytes()
            assert (fathom.hit_mask(a)).sum() > 100  # the rays do hit the soup


def test_ply_read_by_plyfile(tmp_path: Path, rng: np.random.Generator) -> None:
    v, t, c = _mesh_arrays(rng)
    with fathom.Mesh(v, t, c) as mesh:
        mesh.save(tmp_path / "m.ply")
    ply = PlyData.read(str(tmp_path / "m.ply"))
    assert not ply.text and ply.byte_order == "<"
    vertex, face = ply["vertex"].data, ply["face"].data
    assert np.stack([vertex["x"], vertex["y"], vertex["z"]], axis=1).tobytes() == v.tobytes()
    np.testing.assert_array_equal(np.stack(face["vertex_indices"]), t)
    np.testing.assert_array_equal(face["classification"], c)


def test_obj_read_independently(tmp_path: Path, rng: np.random.Generator) -> None:
    v, t, _ = _mesh_arrays(rng)
    with fathom.Mesh(v, t) as mesh:
        mesh.save(tmp_path / "m.obj")
    ov, of = _obj_arrays(tmp_path / "m.obj")
    assert ov.tobytes() == v.tobytes()
    np.testing.assert_array_equal(of, t)


def test_loaded_mesh_saves_again_identically(tmp_path: Path) -> None:
    v, t = icosphere(2)
    with fathom.Mesh(v, t) as mesh:
        mesh.save(tmp_path / "a.ply")
    with fathom.Mesh.load(tmp_path / "a.ply") as loaded:
        loaded.save(tmp_path / "b.ply")
        loaded.save(tmp_path / "b.obj")
    assert (tmp_path / "a.ply").read_bytes() == (tmp_path / "b.ply").read_bytes()
    with fathom.Mesh.load(tmp_path / "b.obj") as again:
        np.testing.assert_array_equal(again.vertices, np.asarray(v, dtype=np.float32))


def test_empty_mesh(tmp_path: Path) -> None:
    with fathom.Mesh(np.empty((0, 3)), np.empty((0, 3))) as mesh:
        assert mesh.vertices.shape == (0, 3) and mesh.triangles.shape == (0, 3)
        for name in ("e.ply", "e.obj"):
            mesh.save(tmp_path / name)  # a valid file of no triangles, which a mesh load refuses
            with pytest.raises(fathom.NoDataError, match="no triangles"):
                fathom.Mesh.load(tmp_path / name)


def test_save_errors(tmp_path: Path) -> None:
    with fathom.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]) as mesh:
        with pytest.raises(fathom.FormatError, match="extension must be .ply or .obj"):
            mesh.save(tmp_path / "m.stl")
        with pytest.raises(fathom.FormatError):
            mesh.save(tmp_path / "ply")
        assert not (tmp_path / "m.stl").exists()
        with pytest.raises(fathom.FathomIOError, match="cannot create"):
            mesh.save(tmp_path / "missing" / "m.ply")
    with pytest.raises(fathom.ClosedHandleError):
        mesh.save(tmp_path / "m.ply")
    with pytest.raises(fathom.ClosedHandleError):
        _ = mesh.vertices
