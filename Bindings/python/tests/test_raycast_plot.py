"""The mesh and ray plotting helpers render to a PNG (headless Agg backend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

import fathom  # noqa: E402
from fathom import plot  # noqa: E402
from _raycast_reference import icosphere, random_soup  # noqa: E402


def _png(fig, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    fig.savefig(path, dpi=60)
    assert path.stat().st_size > 1000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def test_mesh_rays_and_hits_render(tmp_path: Path) -> None:
    v, t = icosphere(2)
    classes = (np.arange(len(t)) % 8).astype(np.uint8)
    with fathom.Mesh(v, t, classes, borrow=True) as mesh:
        k = fathom.Intrinsics(60.0, 60.0, 32.0, 24.0, 64, 48)
        pose = fathom.Pose.from_rotation_translation(translation=(0, 0, 3))
        rays = fathom.grid_rays(k, pose, 8)
        hits = mesh.cast(rays)
        ax = plot.plot_mesh(mesh)  # a borrowed mesh has its arrays
        assert len(ax.collections) == 1
        plot.plot_rays(rays, hits=hits, ax=ax)
        n_hit = int(fathom.hit_mask(hits).sum())
        assert 0 < n_hit < len(rays)
        _png(ax.figure, tmp_path, "mesh.png")  # 3D collections project their contents when drawn
        segments, points = ax.collections[1], ax.collections[2]
        assert len(segments.get_segments()) == len(rays)
        assert len(points.get_offsets()) == n_hit
    matplotlib.pyplot.close("all")


def test_plot_mesh_from_arrays_decimates(tmp_path: Path) -> None:
    v, t = random_soup(np.random.default_rng(3), 30000, degenerate=0)
    ax = plot.plot_mesh(v, t, max_triangles=20000)
    _png(ax.figure, tmp_path, "big.png")  # 3D collections project their polygons when drawn
    assert len(ax.collections[0].get_paths()) == 20000
    ax = plot.plot_mesh(v[:300], t[:100])
    ax.figure.canvas.draw()
    assert len(ax.collections[0].get_paths()) == 100
    matplotlib.pyplot.close("all")


def test_plot_rays_without_hits_and_hits_alone(tmp_path: Path) -> None:
    o = np.zeros((10, 3), np.float32)
    d = np.eye(3, dtype=np.float32)[np.arange(10) % 3] * 2.0
    ax = plot.plot_rays(o, d, length=0.5)
    lines = ax.collections[0]
    segs = np.asarray(lines._segments3d)  # the 3D segments, in plot axes (x, -z, y)
    assert segs.shape == (10, 2, 3)
    np.testing.assert_allclose(np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1), 0.5, atol=1e-6)
    v, t = icosphere(1)
    with fathom.Mesh(v, t) as mesh:
        hits = mesh.cast(o, d)
        plot.plot_hits(hits, ax)
    _png(ax.figure, tmp_path, "rays.png")
    matplotlib.pyplot.close("all")


def test_plot_mesh_of_a_loaded_mesh(tmp_path: Path) -> None:
    """plot_mesh(Mesh.load(path)) draws the file's triangles, classes coloured: the mesh gives its arrays back."""
    v, t = icosphere(1)
    classes = (np.arange(len(t)) % 8).astype(np.uint8)
    path = tmp_path / "sphere.ply"
    with fathom.Mesh(v, t, classes) as made:
        made.save(path)
    with fathom.Mesh.load(path) as mesh:
        ax = plot.plot_mesh(mesh)
    _png(ax.figure, tmp_path, "loaded.png")  # 3D collections project their polygons when drawn
    faces = ax.collections[0]
    assert len(faces.get_paths()) == len(t)
    assert len({tuple(c) for c in faces.get_facecolor()}) == 8  # one colour per class
    matplotlib.pyplot.close("all")


def test_plot_mesh_errors() -> None:
    v, t = icosphere(0)
    with fathom.Mesh(v, t) as mesh:
        with pytest.raises(TypeError, match="own triangles"):
            plot.plot_mesh(mesh, t)
    with pytest.raises(ValueError, match="indices"):
        plot.plot_mesh(v, t + 100)
    with pytest.raises(TypeError, match="HIT_DTYPE"):
        plot.plot_hits(np.zeros(3))
    with pytest.raises(ValueError, match="HIT_DTYPE array of these rays"):
        plot.plot_rays(np.zeros((2, 3)), np.ones((2, 3)), hits=fathom.empty_hits(3))
    matplotlib.pyplot.close("all")
