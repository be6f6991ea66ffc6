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


def test_3d_plots_name_their_axes_in_meters_and_their_items_in_a_legend(rng: np.random.Generator) -> None:
    obb = fathom.OrientedBox(scale=(1, 1, 1))
    pts = rng.uniform(-1, 1, size=(300, 3)).astype(np.float32)
    for ax in (plot.plot_box(fathom.Box()), plot.plot_points(pts), plot.plot_points(pts, inside=obb)):
        assert [ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()] == ["x (m)", "-z (m)", "y, up (m)"]
    ax = plot.plot_points(pts, inside=obb)
    outside, inside = ax.collections
    assert tuple(outside.get_facecolor()[0]) != tuple(inside.get_facecolor()[0])
    plot.plot_box(obb, ax)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == ["box (front edges thick)", "inside", "outside"]
    ax = plot.plot_box(fathom.Box())
    assert ax.get_legend() is None  # one item needs no legend
    ax.set_xlabel("east (m)")  # a name the caller gave is kept
    plot.plot_points(pts, ax)
    assert ax.get_xlabel() == "east (m)"
    matplotlib.pyplot.close("all")


# -- capture reports ----------------------------------------------------------------------------------------------


class _Report:
    """What plot_report reads of a fathom.ScanReport, given directly (a known scene without running a capture)."""

    def __init__(self, cloud, obj, box, positions, captures, focus):
        self.cloud, self.object, self.box, self.focus = cloud.astype(np.float32), obj.astype(np.float32), box, focus
        self.box_source = fathom.BoxSource.FITTED
        self.captures = np.asarray(captures, np.int64)
        self._positions = np.asarray(positions, np.float64)

    def to_dict(self):
        return {"camera_positions": self._positions.tolist()}


def _drawn_xy(ax) -> np.ndarray:
    """Every point drawn on a 2D axes: scatter offsets and line vertices."""
    parts = [np.asarray(c.get_offsets(), np.float64).reshape(-1, 2) for c in ax.collections]
    parts += [np.asarray(line.get_xydata(), np.float64).reshape(-1, 2) for line in ax.get_lines()]
    return np.concatenate(parts)


def _assert_framed_2d(ax, xy: np.ndarray) -> None:
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    assert x0 <= xy[:, 0].min() and xy[:, 0].max() <= x1, (x0, x1, xy[:, 0].min(), xy[:, 0].max())
    assert y0 <= xy[:, 1].min() and xy[:, 1].max() <= y1, (y0, y1, xy[:, 1].min(), xy[:, 1].max())


def _legend_colours(ax) -> dict:
    from matplotlib.colors import to_rgb

    colours = {}
    for handle, text in zip(ax.get_legend().legend_handles, ax.get_legend().get_texts()):
        colour = handle.get_color() if hasattr(handle, "get_xydata") else handle.get_facecolor()[0]
        colours[text.get_text()] = to_rgb(colour)
    return colours


def test_plot_report_frames_everything_when_the_camera_barely_moves(rng: np.random.Generator) -> None:
    """A camera standing still (a 1 cm circle) over a 3 m floor, with a box and its object 0.8 m away and a few
    stray voxels 50 m away (0.1 %): the view frames the floor, box, object, path and focus, leaves out the strays
    (the cloud's extreme 0.5 % on each side) and does not draw them, and names each item in its own colour."""
    floor = np.column_stack([rng.uniform(-1.5, 1.5, 20000), np.zeros(20000), rng.uniform(-1.5, 1.5, 20000)])
    strays = np.column_stack([rng.uniform(49, 51, 20), np.zeros(20), rng.uniform(-51, -49, 20)])
    cloud = np.concatenate([floor, strays])
    box = fathom.Box(center=(0.8, 0.15, 0.6), scale=(0.4, 0.3, 0.2), rot_y=0.3)
    obj = rng.uniform(-0.5, 0.5, (500, 3)) * [0.4, 0.3, 0.2] @ np.array(
        [[np.cos(0.3), 0, -np.sin(0.3)], [0, 1, 0], [np.sin(0.3), 0, np.cos(0.3)]]) + [0.8, 0.15, 0.6]
    a = np.linspace(0, 2 * np.pi, 40)
    positions = np.column_stack([0.01 * np.cos(a), np.full(40, 1.4), 0.01 * np.sin(a)])
    report = _Report(cloud, obj, box, positions, [0, 20], np.array([0.8, 0.1, 0.6]))
    ax = plot.plot_report(report)
    ax.figure.canvas.draw()
    # the drawn items: the floor (strays left out), the object, the box's footprint, the path, captures, focus
    corners = box.corners.astype(np.float64)[:, [0, 2]]
    _assert_framed_2d(ax, np.concatenate([floor[:, [0, 2]], obj[:, [0, 2]], corners, positions[:, [0, 2]],
                                          [[0.8, 0.6]]]))
    _assert_framed_2d(ax, _drawn_xy(ax))  # and nothing drawn lies outside
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    assert x1 - x0 < 4 and y1 - y0 < 4  # the strays did not stretch the view
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # z down, as a floor plan
    colours = _legend_colours(ax)
    assert list(colours) == ["fused cloud (20 outlying points not drawn)", "object", "box (fitted)", "camera path",
                             "captures", "focus"]
    assert len(set(colours.values())) == len(colours), colours
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("x (m)", "z (m)")
    # without strays nothing is left out; only the 0.5 % tails of a cloud can be
    ax = plot.plot_report(_Report(floor, obj, box, positions, [], None))
    assert _legend_colours(ax).keys() >= {"fused cloud", "object"}
    assert len(ax.collections[0].get_offsets()) == len(floor)
    matplotlib.pyplot.close("all")


def test_plot_report_of_a_real_capture(tmp_path) -> None:
    import _scene

    scene = _scene.Scene(center=np.array([0.0, 0.15, 0.0]), scale=np.array([0.40, 0.30, 0.20]), rot_y=0.2)
    ts, poses, ks, depths, confs = _scene.capture(scene, n=40, seed=3)
    fathom.write_scan(tmp_path / "scan", "20240101_120000_plot", ts, poses.astype(np.float64), ks, depths, confs)
    report = fathom.scan_report(tmp_path / "scan")
    ax = plot.plot_report(report)
    xy = [report.object[:, [0, 2]], poses[:, [0, 2], 3]]
    if report.box is not None:
        xy.append(report.box.corners[:, [0, 2]])
    _assert_framed_2d(ax, np.concatenate(xy).astype(np.float64))
    _assert_framed_2d(ax, _drawn_xy(ax))
    inner = np.quantile(report.cloud[:, [0, 2]], [0.005, 0.995], axis=0)
    _assert_framed_2d(ax, inner)
    colours = _legend_colours(ax)
    assert len(set(colours.values())) == len(colours)
    matplotlib.pyplot.close("all")

    # save_report_plots draws the speed on the report's own thresholds when the report states them
    seen = []
    real_plot_speed = plot.plot_speed

    def spy(*args, **kwargs):
        seen.append(kwargs.get("options"))
        return real_plot_speed(*args, **kwargs)

    class Stated:  # the report, stating its thresholds
        def __getattr__(self, name):
            return getattr(report, name)

        def to_dict(self):
            d = report.to_dict()
            d["speed"].update(slow_speed=0.05, fast_speed=0.3, slightly=0.2)
            return d

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(plot, "plot_speed", spy)
    try:
        paths = plot.save_report_plots(Stated(), str(tmp_path))
        plot.save_report_plots(report, str(tmp_path))
    finally:
        monkeypatch.undo()
    assert [p.rsplit("/", 1)[1] for p in paths] == ["trajectory.png"] + ["coverage.png"] * (report.coverage is not None) + [
        "speed.png"]
    assert (seen[0].slow_speed, seen[0].fast_speed, seen[0].slightly) == pytest.approx((0.05, 0.3, 0.2))
    assert seen[1] is None or seen[1].slow_speed > 0  # without stated thresholds: the library's defaults


def _report_with_coverage(goal_known: bool):
    """A report-like object whose coverage is a tracker's: views on the front (4), right (1) faces, goal 3."""
    from types import SimpleNamespace

    from _poses import look_at

    c = fathom.Coverage(fathom.Box((0, 0.5, 0), (1, 1, 1), 0.3, floor=0.0), goal=3)
    eyes = [(0, 0.5, -2), (0.5, 0.5, -2), (1.0, 0.5, -2), (0.3, 0.6, -2.1), (2, 0.5, 0)]
    c.record_many(np.stack([look_at(e, (0, 0.5, 0)) for e in eyes]))
    faces = [{"name": f.face.name.lower(), "count": f.count, "progress": f.progress, "color": list(map(float, f.color)),
              "opacity": f.opacity, "complete": f.complete, "needed": f.needed} for f in c.faces()]
    s = c.summary()
    coverage = SimpleNamespace(faces=faces, counts=np.array([f["count"] for f in faces]), faces_complete=s.faces_complete,
                               faces_needed=s.faces_needed, angular_score=s.angular_score)
    if goal_known:
        coverage.goal = 3
    return SimpleNamespace(coverage=coverage), faces


@pytest.mark.parametrize("goal_known", [True, False])
def test_plot_report_coverage_names_each_face(goal_known: bool) -> None:
    """One bar per face, named under it, of the face's count, in the app's colour (gray when not needed), with
    count/goal above it and the goal line named with its value; the goal is the report's, or follows from a face
    in progress (count 1, progress 1/3), never from a complete face (count 4, progress capped at 1)."""
    report, faces = _report_with_coverage(goal_known)
    ax = plot.plot_report_coverage(report)
    ax.figure.canvas.draw()
    names = [t.get_text() for t in ax.get_xticklabels()]
    assert names == ["front", "left", "right", "bottom", "top", "back"]
    bars = ax.patches
    assert [b.get_height() for b in bars] == [4, 0, 1, 0, 0, 0]
    np.testing.assert_allclose([b.get_x() + b.get_width() / 2 for b in bars], ax.get_xticks())
    np.testing.assert_allclose(bars[0].get_facecolor()[:3], faces[0]["color"], atol=1e-6)
    np.testing.assert_allclose(bars[3].get_facecolor()[:3], (0.8, 0.8, 0.8))  # the bottom is not needed
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["4/3", "0/3", "1/3", "0 (not needed)", "0/3", "0/3"]
    (goal,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert goal.get_ydata()[0] == 3 and goal.get_label() == "goal 3 views"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["goal 3 views"]
    assert ax.get_ylim()[1] > 4 and ax.get_xlabel() == "face" and "(views)" in ax.get_ylabel()
    matplotlib.pyplot.close("all")
