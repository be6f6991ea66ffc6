"""The capture-guidance plotting helpers draw what they should (headless Agg backend)."""

from __future__ import annotations

import math

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

from _poses import look_at  # noqa: E402
import fathom  # noqa: E402
from fathom import plot  # noqa: E402
from test_motion import frames, walk  # noqa: E402


def _coverage() -> fathom.Coverage:
    c = fathom.Coverage(fathom.Box((0, 0.5, 0), (1, 1, 1), 0.3, floor=0.0), goal=3)
    eyes = [(0, 0.5, -2), (0.5, 0.5, -2), (1.0, 0.5, -2), (0.3, 0.6, -2.1), (2, 0.5, 0)]
    c.record_many(np.stack([look_at(e, (0, 0.5, 0)) for e in eyes]))
    return c


def test_plot_coverage_colours_faces_as_the_app() -> None:
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    c = _coverage()
    ax = plot.plot_coverage(c)
    faces = [x for x in ax.collections if isinstance(x, Poly3DCollection)]
    assert [x.get_label() for x in faces] == list(fathom.FACE_NAMES)
    colours = [x.get_facecolor()[0] for x in faces]
    for drawn, f in zip(colours, c.faces()):
        np.testing.assert_allclose(drawn, f.rgba, atol=1e-6)  # fathom colour + opacity (0 once complete)
    assert c.face(fathom.Face.FRONT).complete and colours[fathom.Face.FRONT][3] == 0.0
    assert 0 < c.face(fathom.Face.RIGHT).progress < 1 and 0.25 < colours[fathom.Face.RIGHT][3] < 0.75
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["front\n4/3", "left\n0/3", "right\n1/3", "bottom\n0 (not needed)", "top\n0/3", "back\n0/3"]
    # each name sits at its face's centre (drawn as x, -z, y)
    for text, centre in zip(ax.texts, c.box.faces.centers):
        np.testing.assert_allclose(text.get_position_3d(), [centre[0], -centre[2], centre[1]], atol=1e-6)
    assert len(ax.get_lines()) == 12  # the box's edges
    corners = c.box.corners
    drawn = np.stack([corners[:, 0], -corners[:, 2], corners[:, 1]], 1)
    for k, (lo, hi) in enumerate((ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d())):
        assert lo <= drawn[:, k].min() and drawn[:, k].max() <= hi
    assert [ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()] == ["x (m)", "-z (m)", "y, up (m)"]
    matplotlib.pyplot.close("all")


def test_plot_view_bins_marks_the_next_view() -> None:
    c = _coverage()
    ax = plot.plot_view_bins(c)
    (image,) = ax.get_images()
    counts, _ = c.bins()
    np.testing.assert_array_equal(image.get_array(), counts)
    assert image.get_extent() == [0.0, 360.0, 0.0, 1.0]  # hemisphere: heights 0..1
    direction, _ = c.next_view(1.0)
    (star,) = ax.collections
    az = math.degrees(math.atan2(direction[2], direction[0])) % 360
    np.testing.assert_allclose(star.get_offsets()[0], [az, direction[1]], atol=1e-4)
    assert "degrees" in ax.get_xlabel() and "sine of elevation" in ax.get_ylabel()
    floating = fathom.Coverage(fathom.Box())
    assert plot.plot_view_bins(floating, next_view=False).get_images()[0].get_extent() == [0.0, 360.0, -1.0, 1.0]
    with pytest.raises(TypeError, match="fathom.Coverage"):
        plot.plot_view_bins(fathom.Box())
    matplotlib.pyplot.close("all")


def test_plot_speed_with_guidance_bands() -> None:
    t = frames(8.0)
    t[300:] += 1_000_000_000  # a gap: speed unknown there
    poses = walk(t, lambda s: 0.1 if s < 3 else 0.3)
    states = fathom.Motion().update_many(t, poses)
    ax = plot.plot_speed(states, inches=True)
    speed = [line for line in ax.get_lines() if line.get_label() == "speed"][0]
    x, y = speed.get_data()
    np.testing.assert_allclose(x, (t - t[0]) * 1e-9)
    expected = states["speed"] / fathom.INCH
    unknown = states["guidance"] == fathom.Guidance.UNKNOWN
    assert np.all(np.isnan(y[unknown])) and unknown.sum() == 2
    np.testing.assert_allclose(y[~unknown], expected[~unknown], rtol=1e-6)
    labels = [p.get_label() for p in ax.patches]
    assert labels == ["too slow", "slightly slow", "ok", "slightly fast", "too fast"]
    thresholds = sorted(line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--")
    np.testing.assert_allclose(thresholds, [5.0, 10.0], rtol=1e-5)  # the app's 5 and 10 in/s
    assert ax.get_ylabel() == "speed (in/s)" and ax.get_xlabel() == "time (s)"
    assert len(ax.collections) == 1  # the capture markers
    # everything drawn is in the frame
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 <= x.min() and x.max() <= x1
    assert y0 <= np.nanmin(y) and np.nanmax(y) <= y1 and y0 <= 5.0 and 10.0 <= y1
    ax2 = plot.plot_speed(t, states["speed"], options=fathom.MotionOptions(fast_speed=0.5))
    assert ax2.get_ylabel() == "speed (m/s)"
    with pytest.raises(TypeError, match="MOTION_STATE_DTYPE"):
        plot.plot_speed(np.zeros(3))
    matplotlib.pyplot.close("all")


def test_plot_speed_tells_every_band_and_threshold_apart() -> None:
    """Five bands in five colours, the two "slightly" bands different, the slow and fast lines different from each
    other (and from the bands), named in the legend with their values in the plot's unit."""
    from matplotlib.colors import to_rgb

    t = (np.arange(50) * 1e8).astype(np.int64)
    v = np.linspace(0.0, 0.4, 50)
    options = fathom.MotionOptions(slow_speed=0.05, fast_speed=0.3, slightly=0.2)
    ax = plot.plot_speed(t, v, options=options)
    bands = {p.get_label(): to_rgb(p.get_facecolor()) for p in ax.patches}
    assert list(bands) == ["too slow", "slightly slow", "ok", "slightly fast", "too fast"]
    assert len(set(bands.values())) == 5, bands
    assert bands["too slow"] != bands["too fast"] and bands["slightly slow"] != bands["slightly fast"]
    # each band spans its range (meters per second): too slow 0..0.05, slightly slow 0.05..0.06, ...
    def span(p):  # axhspan gives a Rectangle (a Polygon in older matplotlib)
        if hasattr(p, "get_height"):
            return p.get_y(), p.get_y() + p.get_height()
        y = np.asarray(p.get_xy())[:, 1]
        return y.min(), y.max()

    top = ax.get_ylim()[1]
    np.testing.assert_allclose([span(p) for p in ax.patches],
                               [(0, 0.05), (0.05, 0.06), (0.06, 0.24), (0.24, 0.3), (0.3, top)], rtol=1e-6)
    lines = {line.get_label(): line for line in ax.get_lines() if line.get_linestyle() == "--"}
    assert sorted(lines) == ["fast 0.3 m/s", "slow 0.05 m/s"]
    np.testing.assert_allclose(lines["slow 0.05 m/s"].get_ydata()[0], 0.05)
    np.testing.assert_allclose(lines["fast 0.3 m/s"].get_ydata()[0], 0.3)
    slow, fast = (to_rgb(lines[k].get_color()) for k in ("slow 0.05 m/s", "fast 0.3 m/s"))
    assert slow != fast and slow not in bands.values() and fast not in bands.values()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"slow 0.05 m/s", "fast 0.3 m/s", "speed", "too slow", "too fast"} <= set(texts), texts
    inches = plot.plot_speed(t, v, options=options, inches=True)
    labels = sorted(line.get_label() for line in inches.get_lines() if line.get_linestyle() == "--")
    assert labels == [f"fast {0.3 / fathom.INCH:.3g} in/s", f"slow {0.05 / fathom.INCH:.3g} in/s"]  # 11.8, 1.97
    matplotlib.pyplot.close("all")
