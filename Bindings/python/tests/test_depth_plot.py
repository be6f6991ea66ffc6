"""The depth and length plotting helpers draw what they should (headless Agg backend)."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

import fathom  # noqa: E402
from fathom import plot  # noqa: E402

K = fathom.Intrinsics(1450, 1450, 960, 720, 1920, 1440)


def _scene() -> tuple[fathom.DepthFrame, np.ndarray]:
    depth = np.full((192, 256), 0.7, np.float32)
    depth[:10] = np.nan
    mask = np.zeros((192, 256), bool)
    mask[80:110, 40:220] = True
    return fathom.DepthFrame(depth, K), mask


def test_plot_depth_with_mask_keypoints_and_segment() -> None:
    frame, mask = _scene()
    length = frame.length_keypoints((400, 700), (1600, 760))
    ax = plot.plot_depth(frame, mask, keypoints=[(400, 700), (1600, 760)], length=length)
    images = ax.get_images()
    assert len(images) == 2  # depth and mask overlay
    assert images[0].get_extent() == [0, 1920, 1440, 0]  # RGB pixel coordinates
    assert np.ma.is_masked(images[0].get_array()[0, 0])  # invalid samples blank (NaN: masked)
    (segment,) = ax.get_lines()
    np.testing.assert_allclose(np.stack(segment.get_data(), 1), [[400, 700], [1600, 760]])
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(f"{length.value * 100:.1f} ± {length.sigma * 100:.1f} cm" in t for t in texts), texts
    matplotlib.pyplot.close("all")


def test_plot_depth_of_a_plain_array() -> None:
    ax = plot.plot_depth(np.ones((4, 5)), rgb_size=(50, 40))
    assert ax.get_images()[0].get_extent() == [0, 50, 40, 0]
    with pytest.raises(ValueError, match="2D"):
        plot.plot_depth(np.ones(5))
    matplotlib.pyplot.close("all")


def test_plot_length_points_with_line() -> None:
    frame, mask = _scene()
    points = frame.backproject(mask=mask)
    line = fathom.fit_line_3d(points)
    length = frame.length_mask(mask)
    ax = plot.plot_length_points(points, line, length)
    fitted, measured, ends = ax.get_lines()
    x, y, z = fitted.get_data_3d()
    start, end = line.start, line.end  # drawn with +y up: (x, -z, y)
    np.testing.assert_allclose([x[0], y[0], z[0]], [start[0], -start[2], start[1]], atol=1e-6)
    np.testing.assert_allclose([x[1], y[1], z[1]], [end[0], -end[2], end[1]], atol=1e-6)
    x, y, z = measured.get_data_3d()
    np.testing.assert_allclose([x[0], y[0], z[0]], [length.head[0], -length.head[2], length.head[1]], atol=1e-6)
    # a midline length draws its curve through its points
    midline = frame.length_midline(mask, points=16)
    curve = plot.plot_length_points(points, length=midline).get_lines()[0]
    x, y, z = curve.get_data_3d()
    np.testing.assert_allclose(np.stack([x, z, -y], 1), midline.curve, atol=1e-6)  # drawn as (x, -z, y)
    with pytest.raises(TypeError, match="3D"):
        plot.plot_length_points(points, fathom.fit_line_2d(points[:, :2]))
    matplotlib.pyplot.close("all")


def test_plot_depth_names_its_overlays_and_frames_its_marks() -> None:
    """The mask, the keypoints and the segment each have a legend entry in their own colour; a keypoint outside
    the RGB image widens the view to hold it; the axes are in RGB pixels and the colour bar in meters."""
    from matplotlib.colors import to_rgb

    frame, mask = _scene()
    ax = plot.plot_depth(frame, mask, keypoints=[(400, 700), (2000, -30)])
    legend = ax.get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts == [f"mask ({int(mask.sum())} pixels)", "keypoints"]
    mask_patch, keys = legend.legend_handles
    assert to_rgb(mask_patch.get_facecolor()) == to_rgb("tab:red")
    assert to_rgb(keys.get_facecolor()[0]) == to_rgb("white")
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    assert x0 <= 0 and 2000 <= x1 and y0 <= -30 and 1440 <= y1
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # v down, as in the image
    assert "pixels" in ax.get_xlabel() and "pixels" in ax.get_ylabel()
    colorbar = ax.figure.axes[-1]
    assert colorbar.get_ylabel() == "depth (m)"
    inside = plot.plot_depth(frame, keypoints=[(400, 700)])
    assert inside.get_xlim() == (0, 1920) and inside.get_ylim() == (1440, 0)  # marks inside: the image exactly
    matplotlib.pyplot.close("all")
