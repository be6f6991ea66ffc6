"""The mesh and ray plotting helpers render to a PNG (headless Agg backend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

import fathom  # noqa: E402
from fathom import plot  # noqa: E402
from _meshes import icosphere, random_soup  # noqa: E402


def _by_label(ax) -> dict:
    """The axes' labelled artists (collections and lines) by label."""
    return {a.get_label(): a for a in list(ax.collections) + list(ax.get_lines()) if not a.get_label().startswith("_")}


def _assert_framed(ax, points_yup: np.ndarray) -> None:
    """Every point (plot axes x, -z, y) lies within the 3D axes' limits."""
    p = np.asarray(points_yup, dtype=np.float64).reshape(-1, 3)
    for k, (lo, hi) in enumerate((ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d())):
        assert lo <= p[:, k].min() and p[:, k].max() <= hi, (k, lo, hi, p[:, k].min(), p[:, k].max())


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
        assert len(ax.collections) == 8  # one per class
        plot.plot_rays(rays, hits=hits, ax=ax)
        n_hit = int(fathom.hit_mask(hits).sum())
        assert 0 < n_hit < len(rays)
        _png(ax.figure, tmp_path, "mesh.png")  # 3D collections project their contents when drawn
        artists = _by_label(ax)
        hit_rays = artists[f"rays that hit ({n_hit})"]
        missed_rays = artists[f"rays that missed ({len(rays) - n_hit})"]
        points = artists[f"hit points ({n_hit})"]
        assert len(hit_rays.get_segments()) == n_hit and len(missed_rays.get_segments()) == len(rays) - n_hit
        assert len(points.get_offsets()) == n_hit
        # hits, misses and hit points in three different colours, each named in the legend
        colours = {tuple(matplotlib.colors.to_rgba(c)) for c in
                   (hit_rays.get_color()[0], missed_rays.get_color()[0], points.get_facecolor()[0][:3])}
        assert len({c[:3] for c in colours}) == 3, colours
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        for name in ("wall", "floor", f"rays that hit ({n_hit})", f"rays that missed ({len(rays) - n_hit})",
                     f"hit points ({n_hit})"):
            assert name in texts, texts
        # the hit rays end on their hit points; every ray, hit point and vertex lies in the frame
        ends = np.asarray(hit_rays._segments3d)[:, 1]
        hit_points = hits["point"][fathom.hit_mask(hits)].astype(np.float64)
        np.testing.assert_allclose(ends, np.stack([hit_points[:, 0], -hit_points[:, 2], hit_points[:, 1]], 1), atol=1e-6)
        _assert_framed(ax, np.concatenate([np.asarray(hit_rays._segments3d), np.asarray(missed_rays._segments3d)]))
        _assert_framed(ax, np.stack([v[:, 0], -v[:, 2], v[:, 1]], 1))
        assert all("(m)" in label for label in (ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()))
    matplotlib.pyplot.close("all")


def test_3d_plots_frame_what_they_draw_far_from_the_origin() -> None:
    """A mesh 10 m away, rays from 20 m away that hit it: the cube frames all of them (3D collections count toward
    the limits), with the axes named in meters."""
    v, t = icosphere(1)
    v = v * 0.5 + np.array([10.0, 3.0, -10.0], np.float32)
    o = np.tile(np.array([[20.0, 3.0, -10.0]], np.float32), (5, 1))
    d = np.array([[-1, 0, 0], [-1, 0.01, 0], [-1, -0.01, 0], [0, 1, 0], [0, 0, 1]], np.float32)
    with fathom.Mesh(v, t) as mesh:
        hits = mesh.cast(o, d)
    assert fathom.hit_mask(hits).sum() == 3
    ax = plot.plot_mesh(v, t)
    plot.plot_rays(o, d, hits=hits, ax=ax, length=2.0)
    _assert_framed(ax, np.stack([v[:, 0], -v[:, 2], v[:, 1]], 1))
    far = o + 2.0 * d / np.linalg.norm(d, axis=1, keepdims=True)  # the misses' ends
    _assert_framed(ax, np.stack([far[:, 0], -far[:, 2], far[:, 1]], 1))
    _assert_framed(ax, np.stack([o[:, 0], -o[:, 2], o[:, 1]], 1))
    assert [ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()] == list(plot.AXIS_LABELS_3D)
    assert plot.AXIS_LABELS_3D == ("x (m)", "-z (m)", "y, up (m)")
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
    assert sum(len(c.get_paths()) for c in ax.collections) == len(t)
    assert [c.get_label() for c in ax.collections] == [m.name.lower() for m in fathom.MeshClass]  # one per class
    for c, k in zip(ax.collections, fathom.MeshClass):
        assert len(c.get_paths()) == np.sum(classes == k)
        np.testing.assert_allclose(c.get_facecolor()[0][:3], matplotlib.colors.to_rgb(plot.CLASS_COLORS[k]))
    assert len({tuple(c.get_facecolor()[0]) for c in ax.collections}) == 8  # one colour per class
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [m.name.lower() for m in fathom.MeshClass]
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
