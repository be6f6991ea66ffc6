"""The optional plotting helpers draw what they should (headless Agg backend)."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

import fathom  # noqa: E402
from fathom import plot  # noqa: E402


def test_plot_box_draws_twelve_edges_on_the_corners() -> None:
    box = fathom.Box((0, 0.5, 0), (1, 1, 2), 0.3)
    ax = plot.plot_box(box)
    lines = ax.get_lines()
    assert len(lines) == 12
    corners = box.corners
    x, y, z = lines[0].get_data_3d()
    np.testing.assert_allclose([x[0], y[0], z[0]], [corners[0, 0], -corners[0, 2], corners[0, 1]], atol=1e-6)
    matplotlib.pyplot.close("all")


def test_plot_points_colours_inside(rng: np.random.Generator) -> None:
    obb = fathom.OrientedBox(scale=(1, 1, 1))
    pts = rng.uniform(-1, 1, size=(500, 3)).astype(np.float32)
    ax = plot.plot_points(pts, inside=obb)
    outside, inside = ax.collections
    assert len(inside.get_offsets()) == obb.count_inside(pts)
    assert len(outside.get_offsets()) == 500 - obb.count_inside(pts)
    plot.plot_box(obb, ax)
    matplotlib.pyplot.close("all")


def test_plot_points_subsamples() -> None:
    ax = plot.plot_points(np.zeros((1000, 3)), max_points=100)
    assert len(ax.collections[0].get_offsets()) == 100
    matplotlib.pyplot.close("all")


def test_plot_rejects_2d_axes_and_wrong_types() -> None:
    fig = matplotlib.pyplot.figure()
    with pytest.raises(ValueError, match="3D axes"):
        plot.plot_box(fathom.OrientedBox(), fig.add_subplot())
    with pytest.raises(TypeError, match="fathom.Box"):
        plot.plot_box(np.zeros((8, 3)))  # type: ignore[arg-type]
    matplotlib.pyplot.close("all")
