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


def test_3d_plots_have_equal_axes_that_grow_with_later_plots() -> None:
    """A 4 m x 0.2 m x 1 m box is drawn in a cube of 4 m on every axis, centred on the box; points added to the
    same axes afterwards widen the cube to hold them."""
    box = fathom.Box((1, 0.1, -2), (4, 0.2, 1))
    ax = plot.plot_box(box)
    limits = np.array([ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d()])
    spans = limits[:, 1] - limits[:, 0]
    np.testing.assert_allclose(spans, spans[0], rtol=1e-9)
    assert 4 <= spans[0] < 5  # the box's longest side, plus matplotlib's margins
    np.testing.assert_allclose(limits.mean(axis=1), [1, 2, 0.1], atol=1e-6)  # drawn as (x, -z, y)
    plot.plot_points(np.array([[10, 0, 0]], np.float32), ax)
    limits = np.array([ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d()])
    assert limits[0, 1] >= 10
    np.testing.assert_allclose(limits[:, 1] - limits[:, 0], limits[0, 1] - limits[0, 0], rtol=1e-9)
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
