"""The capture-guidance plotting helpers draw what they should (headless Agg backend)."""

from __future__ import annotations

import math

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is the optional `plot` extra")
matplotlib.use("Agg")

import _guidance_reference as R  # noqa: E402
import fathom  # noqa: E402
from fathom import plot  # noqa: E402
from test_motion import frames, walk  # noqa: E402


def _coverage() -> fathom.Coverage:
    c = fathom.Coverage(fathom.Box((0, 0.5, 0), (1, 1, 1), 0.3, floor=0.0), goal=3)
    eyes = [(0, 0.5, -2), (0.5, 0.5, -2), (1.0, 0.5, -2), (0.3, 0.6, -2.1), (2, 0.5, 0)]
    c.record_many(np.stack([R.look_at(e, (0, 0.5, 0)) for e in eyes]))
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
    assert texts == ["4/3", "0/3", "1/3", "0 (not needed)", "0/3", "0/3"]
    assert len(ax.get_lines()) == 12  # the box's edges
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
    assert ax.get_ylabel() == "speed (in/s)"
    assert len(ax.collections) == 1  # the capture markers
    ax2 = plot.plot_speed(t, states["speed"], options=fathom.MotionOptions(fast_speed=0.5))
    assert ax2.get_ylabel() == "speed (m/s)"
    with pytest.raises(TypeError, match="MOTION_STATE_DTYPE"):
        plot.plot_speed(np.zeros(3))
    matplotlib.pyplot.close("all")
