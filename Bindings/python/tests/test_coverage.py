"""Face coverage of the box (fathom.Coverage) through the binding: poses in (arrays, Pose objects, batches),
ViewResult and the structured result array out (no face as None or -1), faces, cells and bins as arrays, the
options and their defaults, the context manager. Checked on views whose faces, cells, bins, distances and statuses
are worked out by hand from the views' angles; random views against a Double reference are the core tests'
(CoverageRuleTests.swift)."""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest

import fathom
from _poses import look_at, rot_y
from fathom import Face, ViewStatus, _lib

F32 = np.float32


def make_box(center=(0.0, 0.5, 0.0), scale=(1.0, 1.0, 1.0), yaw=0.0, floor=None) -> fathom.Box:
    """The views' box: a unit cube around (0, 0.5, 0) unless told otherwise."""
    return fathom.Box(center, scale, yaw, floor=floor)


def orbit(center, radius: float, azimuths_deg, height: float = 0.0) -> np.ndarray:
    """Cameras on a horizontal circle (azimuth from +x toward +z) around `center`, looking at it: (N, 4, 4) float32."""
    c = np.asarray(center, np.float64)
    eyes = [c + (radius * math.cos(math.radians(a)), height, radius * math.sin(math.radians(a))) for a in azimuths_deg]
    return np.stack([look_at(e, c) for e in eyes]).astype(F32)


def no_similarity(**kw):
    return {"min_separation_distance": 0.0, **kw}


def bin_centre(ring: float, sector: float, rings: int = 4, sectors: int = 12, hemisphere: bool = False) -> np.ndarray:
    """The header's bin centre: height (ring + 1/2) / rings (on the sphere 2 * that - 1), azimuth (sector + 1/2) /
    sectors of a turn from +x toward +z."""
    y = (ring + 0.5) / rings
    y = y if hemisphere else 2 * y - 1
    a = (sector + 0.5) / sectors * 2 * math.pi
    r = math.sqrt(1 - y * y)
    return np.array([r * math.cos(a), y, r * math.sin(a)])


# -- options and structure ----------------------------------------------------------------------------


def test_default_options_are_the_headers() -> None:
    o = fathom.CoverageOptions()
    assert (o.goal, o.cells, o.rings, o.sectors) == (10, 4, 4, 12)
    assert o.hemisphere is None and o.exclude_bottom is None
    assert o.min_distance == 0.0 and o.max_distance == math.inf and o.min_in_view == 0.0
    assert o.min_separation_angle == pytest.approx(math.radians(5), rel=1e-6)
    assert o.min_separation_distance == pytest.approx(0.1, rel=1e-6)
    c = fathom.Coverage(fathom.Box(), goal=3, cells=2)
    assert c.options == o.replace(goal=3, cells=2)
    assert c.options.rings == 4  # untouched settings keep the library's defaults


def test_numpy_mirror_of_view_result() -> None:
    dt, st = fathom.VIEW_RESULT_DTYPE, _lib.ViewResultStruct
    assert dt.itemsize == ctypes.sizeof(st)
    assert list(dt.names) == [f for f, _ in st._fields_]
    for name, ctype in st._fields_:
        assert dt.fields[name][1] == getattr(st, name).offset
        assert dt.fields[name][0].itemsize == ctypes.sizeof(ctype)


def test_box_is_copied() -> None:
    box = fathom.Box((0, 0.5, 0), (1, 1, 1))
    c = fathom.Coverage(box, min_separation_distance=0)
    box.set_center((10, 0, 0))  # moving the caller's box does not move the tracker's
    r = c.record(look_at((0, 0.5, -3), (0, 0.5, 0)))
    assert r.status == ViewStatus.COUNTED and r.face == Face.FRONT
    np.testing.assert_array_equal(c.box.center, [0, 0.5, 0])


# -- synthetic orbits -----------------------------------------------------------------------------------


def test_horizontal_orbit_hits_only_side_faces() -> None:
    """36 views every 10 degrees (from 2 degrees) at the box centre's height, looking at the centre, around a unit cube on a floor:
    azimuth in (-45, 45) degrees sees the right face (+x), (45, 135) the back (+z), (135, 225) the left, (225, 315)
    the front: 9 views each; every view's direction is
    horizontal (ring 0 of the hemisphere), 3 per 30-degree sector. Cells follow from the angles too."""
    box = make_box(floor=0.0)
    azimuths = 2 + 10 * np.arange(36)
    poses = orbit((0, 0.5, 0), 2.0, azimuths)
    with fathom.Coverage(box, goal=9, cells=3) as c:
        results = c.record_many(poses)
        assert np.all(results["status"] == ViewStatus.COUNTED)
        expected_face = np.select(
            [(azimuths < 45) | (azimuths > 315), azimuths < 135, azimuths < 225], [Face.RIGHT, Face.BACK, Face.LEFT],
            Face.FRONT,
        )
        np.testing.assert_array_equal(results["face"], expected_face)
        assert [f.count for f in c.faces()] == [9, 9, 9, 0, 0, 9]  # front, left, right, bottom, top, back
        np.testing.assert_allclose(results["distance"], 2.0 - 0.5 / np.maximum(np.abs(np.cos(np.radians(azimuths))),
                                                                             np.abs(np.sin(np.radians(azimuths)))),
                                   rtol=1e-5)
        # the axis through the box centre meets an x face at local z = 0.5 * u_z / |u_x| (u: the direction to the
        # camera), a z face at x = 0.5 * u_x / |u_z|; at the centre's height b = 1; a = floor((coordinate + 1/2) * 3)
        phi = np.radians(azimuths)
        ux, uz = np.cos(phi), np.sin(phi)
        on_x = np.isin(expected_face, [Face.LEFT, Face.RIGHT])
        coordinate = np.where(on_x, 0.5 * uz / np.abs(ux), 0.5 * ux / np.abs(uz))
        a = np.floor((coordinate + 0.5) * 3).astype(int)
        np.testing.assert_array_equal(results["cell"], 1 * 3 + a)
        for face in (Face.FRONT, Face.LEFT, Face.RIGHT, Face.BACK):
            expected = np.zeros((3, 3), np.uint32)
            np.add.at(expected, (1, a[expected_face == face]), 1)
            np.testing.assert_array_equal(c.cells(face), expected)
        bins, _ = c.bins()
        assert bins.shape == (4, 12)
        np.testing.assert_array_equal(bins[0], 3)
        np.testing.assert_array_equal(bins[1:], 0)
        s = c.summary()
        assert (s.views, s.counted, s.faces_complete, s.faces_needed, s.complete) == (36, 36, 4, 5, False)
        assert s.angular_score == pytest.approx(12 / 48)
        # each side face completed by its 9th view, exactly once
        completed = results["completed_face"][results["completed_face"] != fathom.NO_FACE]
        assert sorted(completed) == [Face.FRONT, Face.LEFT, Face.RIGHT, Face.BACK]


@pytest.mark.parametrize("yaw_deg", [0.0, 30.0, -70.0])
def test_orbit_of_a_long_yawed_box_counts_by_angle(yaw_deg: float) -> None:
    """A 2 x 1 x 1 box turned by `yaw`: a camera at azimuth phi looking at the centre sees the +-x face when the
    direction to it, in box axes (u_x, u_z), has |u_x| / 1 > |u_z| / 0.5 (half extents), else the +-z face."""
    yaw = math.radians(yaw_deg)
    box = make_box(center=(0.3, 0.5, -0.2), scale=(2.0, 1.0, 1.0), yaw=yaw)
    azimuths = 2.5 + 5 * np.arange(72)
    poses = orbit((0.3, 0.5, -0.2), 3.0, azimuths)
    c = fathom.Coverage(box)
    results = c.record_many(poses)
    assert np.all(results["status"] == ViewStatus.COUNTED)
    phi = np.radians(azimuths)
    u_world = np.stack([np.cos(phi), np.zeros_like(phi), np.sin(phi)], 1)
    u = u_world @ rot_y(yaw)  # R^T u for each row
    x_face = np.abs(u[:, 0]) / 1.0 > np.abs(u[:, 2]) / 0.5
    expected = np.where(x_face, np.where(u[:, 0] > 0, Face.RIGHT, Face.LEFT), np.where(u[:, 2] > 0, Face.BACK, Face.FRONT))
    np.testing.assert_array_equal(results["face"], expected)
    assert [f.count for f in c.faces()] == [int(np.sum(expected == f)) for f in Face]


def test_cells_on_the_front_top_and_left_faces() -> None:
    """A camera square-on to a face, aimed at each cell's centre in turn, fills each cell once: cells are indexed
    [b, a] with a along local x (front/back, top/bottom) or z (left/right) and b along y (or z for top/bottom),
    both from the negative side."""
    box = make_box(center=(0.0, 0.5, 0.0), scale=(1.0, 1.0, 1.0))
    c = fathom.Coverage(box, cells=4, **no_similarity())
    centres = -0.375 + 0.25 * np.arange(4)
    for j, b in enumerate(centres):
        for i, a in enumerate(centres):
            front = look_at((a, 0.5 + b, -3.0), (a, 0.5 + b, 0.0))
            top = look_at((a, 3.0, b), (a, 0.0, b), up=(0, 0, -1))
            left = look_at((-3.0, 0.5 + b, a), (0.0, 0.5 + b, a))
            for pose, face in ((front, Face.FRONT), (top, Face.TOP), (left, Face.LEFT)):
                r = c.record(pose)
                assert r.face == face and r.cell == j * 4 + i, (face, i, j, r)
    for face in (Face.FRONT, Face.TOP, Face.LEFT):
        np.testing.assert_array_equal(c.cells(face), np.ones((4, 4), np.uint32))
    assert c.cells(Face.BACK).sum() == 0


# -- the app's colours, completion and the floor ----------------------------------------------------------


@pytest.mark.parametrize(
    "goal, count, progress, colour, opacity",
    [  # the app's colours: yellow (1, 1, 0) to cyan (0, 1, 1) by progress; opacity 0.25 + 0.5 progress, 0 when done
        (10, 0, 0.0, (1, 1, 0), 0.25),
        (10, 3, 0.3, (0.7, 1, 0.3), 0.4),
        (100, 99, 0.99, (0.01, 1, 0.99), 0.745),
        (10, 10, 1.0, (0, 1, 1), 0.0),
        (4, 7, 1.0, (0, 1, 1), 0.0),
    ],
)
def test_colour_and_opacity(goal: int, count: int, progress: float, colour, opacity: float) -> None:
    box = make_box()
    c = fathom.Coverage(box, goal=goal, **no_similarity())
    front = look_at((0, 0.5, -2), (0, 0.5, 0))
    if count:
        c.record_many(np.repeat(front[None].astype(F32), count, axis=0))
    complete = count >= goal
    f = c.face(Face.FRONT)
    assert f.face is Face.FRONT and f.count == count
    assert f.progress == pytest.approx(progress, rel=1e-6)
    np.testing.assert_allclose(f.color, colour, rtol=1e-6, atol=1e-7)
    assert f.opacity == pytest.approx(opacity, rel=1e-6, abs=0)
    assert f.complete is complete and f.needed
    assert f.rgba == pytest.approx((*colour, opacity), rel=1e-6)
    untouched = c.face("back")
    assert (untouched.count, untouched.progress, untouched.opacity) == (0, 0.0, 0.25)
    np.testing.assert_array_equal(untouched.color, [1, 1, 0])  # yellow


def test_completion_is_reported_once_per_face_until_reset() -> None:
    box = make_box()
    c = fathom.Coverage(box, goal=3, **no_similarity())
    front, back = look_at((0, 0.5, -2), (0, 0.5, 0)), look_at((0, 0.5, 2), (0, 0.5, 0))
    seen = [c.record(front).completed_face for _ in range(6)]
    assert seen == [None, None, Face.FRONT, None, None, None]
    seen = [c.record(back).completed_face for _ in range(4)]
    assert seen == [None, None, Face.BACK, None]
    assert c.face(Face.FRONT).count == 6 and c.face(Face.FRONT).complete
    c.reset()
    assert [f.count for f in c.faces()] == [0] * 6
    seen = [c.record(front).completed_face for _ in range(4)]
    assert seen == [None, None, Face.FRONT, None]


def test_bottom_is_not_needed_on_a_floor() -> None:
    on_floor = make_box(floor=0.0)
    floating = make_box()
    c = fathom.Coverage(on_floor, goal=2)
    assert not c.face(Face.BOTTOM).needed and c.summary().faces_needed == 5
    assert c.hemisphere
    views = []
    for eye in [(0, 0.5, -2), (0.4, 0.5, -2), (0, 0.5, 2), (0.4, 0.5, 2), (-2, 0.5, 0), (-2, 0.5, 0.4),
                (2, 0.5, 0), (2, 0.5, 0.4)]:
        views.append(look_at(eye, (0, 0.5, 0)))
    views += [look_at((0.3, 3, 0), (0, 0.5, 0)), look_at((-0.3, 3, 0), (0, 0.5, 0))]
    results = c.record_many(np.stack(views))
    assert np.all(results["status"] == ViewStatus.COUNTED)
    s = c.summary()
    assert (s.faces_complete, s.faces_needed, s.complete) == (5, 5, True)
    assert c.complete and c.face(Face.BOTTOM).count == 0
    # without a floor (or with exclude_bottom=False) the bottom is needed: not complete
    for tracker in (fathom.Coverage(floating, goal=2), fathom.Coverage(on_floor, goal=2, exclude_bottom=False)):
        tracker.record_many(np.stack(views))
        s = tracker.summary()
        assert (s.faces_complete, s.faces_needed, s.complete) == (5, 6, False)
        assert tracker.face(Face.BOTTOM).needed
    assert fathom.Coverage(floating, exclude_bottom=True).summary().faces_needed == 5
    assert not fathom.Coverage(floating).hemisphere


def test_bottom_is_seen_from_below_without_a_floor() -> None:
    box = make_box()
    c = fathom.Coverage(box, cells=2)
    pose = look_at((0.1, -2, 0.2), (0.1, 0.5, 0.2), up=(0, 0, 1))
    r = c.record(pose)
    # it meets the bottom at local (0.1, 0.2) of the unit face: cell a = floor((0.1 + 1/2) * 2) = 1 along x,
    # b = floor((0.2 + 1/2) * 2) = 1 along z, index b * 2 + a = 3. The direction to the camera, (0.1, -2.5, 0.2)
    # normalized, has height (y + 1) / 2 = 0.002 (ring 0) and azimuth atan2(0.2, 0.1) = 63 degrees (sector 2).
    assert (r.face, r.cell, r.bin) == (Face.BOTTOM, 3, 2)


# -- rules that keep a view from counting ------------------------------------------------------------------


def test_camera_standing_still_is_too_similar() -> None:
    box = make_box(floor=0.0)
    c = fathom.Coverage(box)
    pose = look_at((0.2, 1.2, -1.5), (0, 0.5, 0))
    results = c.record_many(np.repeat(pose[None].astype(F32), 20, axis=0))
    assert results["status"][0] == ViewStatus.COUNTED
    np.testing.assert_array_equal(results["status"][1:], ViewStatus.TOO_SIMILAR)
    np.testing.assert_array_equal(results["face"], Face.FRONT)  # the face is reported also when not counted
    # a small shake (5 mm, half a degree) does not count either; a step of half a metre does
    shaken = pose.copy()
    shaken[:3, :3] = rot_y(math.radians(0.5)) @ shaken[:3, :3]
    shaken[:3, 3] += (0.005, 0.0, 0.0)
    assert c.record(shaken).status == ViewStatus.TOO_SIMILAR
    assert c.record(look_at((0.7, 1.2, -1.5), (0, 0.5, 0))).status == ViewStatus.COUNTED
    s = c.summary()
    assert (s.views, s.counted) == (22, 2)
    assert c.face(Face.FRONT).count == 2


def test_similarity_needs_both_angle_and_distance() -> None:
    """Two cameras 5 cm apart but on opposite sides of a thin box are not similar (angle), and two at the same
    angle 1 m apart along the same line are not (distance)."""
    box = make_box(scale=(1.0, 1.0, 0.02))
    c = fathom.Coverage(box)
    assert c.record(look_at((0, 0.5, -0.03), (0, 0.5, 0))).status == ViewStatus.COUNTED
    assert c.record(look_at((0, 0.5, 0.03), (0, 0.5, 0))).status == ViewStatus.COUNTED
    assert c.record(look_at((0, 0.5, -1.5), (0, 0.5, 0))).status == ViewStatus.COUNTED
    assert c.record(look_at((0, 0.5, -2.5), (0, 0.5, 0))).status == ViewStatus.COUNTED


def test_too_close_and_too_far() -> None:
    box = make_box()
    c = fathom.Coverage(box, min_distance=1.0, max_distance=2.0)
    results = [c.record(look_at((0, 0.5, -0.5 - d), (0, 0.5, 0))) for d in (0.5, 1.5, 3.0)]
    assert [r.status for r in results] == [ViewStatus.TOO_CLOSE, ViewStatus.COUNTED, ViewStatus.TOO_FAR]
    assert [r.face for r in results] == [Face.FRONT] * 3
    assert [r.distance for r in results] == pytest.approx([0.5, 1.5, 3.0], rel=1e-6)
    assert c.face(Face.FRONT).count == 1


K = fathom.Intrinsics(500, 500, 320, 240, 640, 480)
#: Views of the unit cube around (0, 0.5, 0) and the fraction of its 8 corners inside the 640 x 480 image:
#: from 3 m in front of the front face every corner projects within 83 px of the centre; from 0.3 m the front
#: corners fall 833 px out and the back ones (1.3 m away) 192 px in; moved 0.45 m right, of the back corners only the
#: right two (x offset +0.05) are in the image.
VIEWS_IN_FRAME = [(look_at((0, 0.5, -3.5), (0, 0.5, 0)), 1.0), (look_at((0, 0.5, -0.8), (0, 0.5, 0)), 0.5),
                  (look_at((0.45, 0.5, -0.8), (0.45, 0.5, 0)), 0.25)]


@pytest.mark.parametrize("min_in_view", [1.0, 0.5, 0.25])
def test_out_of_frame_with_intrinsics(min_in_view: float) -> None:
    """The intrinsics reach the library: a view counts when the fraction of corners in the image is at least
    min_in_view; without intrinsics min_in_view is not checked."""
    box = make_box()
    c = fathom.Coverage(box, min_in_view=min_in_view, **no_similarity())
    for pose, fraction in VIEWS_IN_FRAME:
        r = c.record(pose, K)
        assert r.status == (ViewStatus.COUNTED if fraction >= min_in_view else ViewStatus.OUT_OF_FRAME), fraction
        assert c.record(pose).status == ViewStatus.COUNTED
    batch = fathom.Coverage(box, min_in_view=min_in_view).record_many(np.stack([p for p, _ in VIEWS_IN_FRAME]), K)
    np.testing.assert_array_equal(batch["status"] == ViewStatus.OUT_OF_FRAME, [f < min_in_view for _, f in VIEWS_IN_FRAME])


def test_missed_views() -> None:
    box = make_box()
    c = fathom.Coverage(box)
    away = c.record(look_at((0, 0.5, -2), (0, 0.5, -5)))  # looking away from the box
    assert (away.status, away.face, away.distance, away.completed_face) == (ViewStatus.MISSED, None, 0.0, None)
    assert not away.counted
    inside = c.record(look_at((0.1, 0.5, 0.1), (0, 0.5, -5)))  # camera inside the box
    assert inside.status == ViewStatus.MISSED
    beside = c.record(look_at((2, 0.5, -2), (2, 0.5, 0)))  # the axis passes beside the box
    assert beside.status == ViewStatus.MISSED
    s = c.summary()
    assert (s.views, s.counted, s.angular_score) == (3, 0, 0.0)


def test_no_face_is_minus_one_in_arrays(header_path) -> None:
    """record_many's face fields are int32 with -1 (fathom.NO_FACE) for no face: the header's FATHOM_NO_HIT,
    0xFFFFFFFF, written by the library, read signed. record() gives None for the same views."""
    from _header import Header

    no_hit = int(Header(header_path).macros["FATHOM_NO_HIT"].rstrip("uU"), 0)
    assert no_hit == 0xFFFFFFFF
    assert fathom.NO_FACE == -1 and isinstance(fathom.NO_FACE, int)
    assert fathom.VIEW_RESULT_DTYPE["face"] == np.int32 and fathom.VIEW_RESULT_DTYPE["completed_face"] == np.int32
    box = make_box()
    views = np.stack([look_at((0, 0.5, -2), (0, 0.5, -5)),    # looking away: no face
                      look_at((0, 0.5, -2), (0, 0.5, 0)),     # the front face, counted
                      look_at((2, 0.5, -2), (2, 0.5, 0))])    # beside the box: no face
    results = fathom.Coverage(box, goal=1).record_many(views)
    np.testing.assert_array_equal(results["face"], [-1, Face.FRONT, -1])
    np.testing.assert_array_equal(results["completed_face"], [-1, Face.FRONT, -1])  # goal 1: completed at once
    np.testing.assert_array_equal(results["face"] == fathom.NO_FACE, [True, False, True])
    raw = results.view(np.uint32).reshape(len(results), -1)  # the bytes the library wrote
    face_word = fathom.VIEW_RESULT_DTYPE.fields["face"][1] // 4
    np.testing.assert_array_equal(raw[:, face_word], [no_hit, Face.FRONT, no_hit])
    assert Face(results["face"][1]) is Face.FRONT
    singles = [fathom.Coverage(box, goal=1).record(v) for v in views]
    assert [r.face for r in singles] == [None, Face.FRONT, None]


# -- reset, next view, input forms ------------------------------------------------------------------------------


def test_reset_forgets_every_view() -> None:
    box = make_box(floor=0.0)
    c = fathom.Coverage(box, goal=2)
    poses = orbit((0, 0.5, 0), 2.0, 2 + 10 * np.arange(36))
    c.record_many(poses)
    assert c.summary().counted == 36
    c.reset()
    s = c.summary()
    assert (s.views, s.counted, s.faces_complete, s.angular_score) == (0, 0, 0, 0.0)
    assert all(c.cells(f).sum() == 0 for f in Face)
    assert c.bins()[0].sum() == 0
    with pytest.raises(fathom.InvalidStateError, match="fathom_coverage_next_view"):
        c.next_view()
    again = c.record_many(poses)  # the similarity memory is gone too: the same views count again
    assert np.all(again["status"] == ViewStatus.COUNTED)
    assert np.sum(again["completed_face"] >= 0) == 4


def test_next_view_goes_where_nothing_was_seen() -> None:
    """After a horizontal orbit (ring 0 full), the next view is in an empty bin, and of the empty bins one of those
    farthest in angle from every covered bin (the top ring); the position is at the last counted view's distance
    from the centre unless a distance is given."""
    box = make_box(floor=0.0)
    c = fathom.Coverage(box)
    c.record_many(orbit((0, 0.5, 0), 2.0, 2 + 10 * np.arange(36)))
    counts, directions = c.bins()
    direction, position = c.next_view()
    assert np.linalg.norm(direction) == pytest.approx(1.0, abs=1e-6)
    index = int(np.argmin(np.linalg.norm(directions.reshape(-1, 3) - direction, axis=1)))
    np.testing.assert_allclose(directions.reshape(-1, 3)[index], direction, atol=1e-6)  # a bin centre
    assert counts.reshape(-1)[index] == counts.min() == 0
    assert index // 12 == 3  # the top ring
    covered = directions.reshape(-1, 3)[counts.reshape(-1) > 0]
    assert np.degrees(np.arccos(np.clip(covered @ direction, -1, 1)).min()) > 50
    np.testing.assert_allclose(position, np.array([0, 0.5, 0]) + 2.0 * direction, atol=1e-5)
    _, far = c.next_view(3.0)
    np.testing.assert_allclose(far, np.array([0, 0.5, 0]) + 3.0 * direction, atol=1e-5)


def test_next_view_after_one_view_is_its_antipode() -> None:
    """On the whole sphere, with views in one bin only (ring 3, sector 0: height 0.75, azimuth 15 degrees), the
    farthest empty bin is the opposite one: ring 0 (height -0.75), sector 6 (azimuth 195 degrees)."""
    box = make_box()
    centre = bin_centre(3, 0)
    c = fathom.Coverage(box)
    r = c.record(look_at(box.center + 2.5 * centre, box.center))
    assert r.status == ViewStatus.COUNTED and r.bin == 36
    direction, position = c.next_view()
    np.testing.assert_allclose(direction, -centre, atol=1e-6)
    np.testing.assert_allclose(position, box.center - 2.5 * centre, atol=1e-5)
    np.testing.assert_allclose(direction, bin_centre(0, 6), atol=1e-6)  # ring 0, sector 6: bin 6


def test_next_view_ties_go_to_the_lowest_bin() -> None:
    """With no view at all every bin ties: the lowest index, bin 0 (ring 0, sector 0)."""
    box = make_box(floor=0.0)
    direction, position = fathom.Coverage(box).next_view(2.0)
    np.testing.assert_allclose(direction, bin_centre(0, 0, hemisphere=True), atol=1e-6)
    np.testing.assert_allclose(position, box.center + 2.0 * direction, atol=1e-6)


def test_bin_arrays_are_rings_by_sectors() -> None:
    """bins() gives (rings, sectors) counts and (rings, sectors, 3) centres: [ring, sector] at that ring's height and
    that sector's azimuth, on the hemisphere with a floor and on the sphere without."""
    for hemisphere, floor in ((True, 0.0), (False, None)):
        counts, directions = fathom.Coverage(make_box(floor=floor), rings=6, sectors=10).bins()
        assert counts.shape == (6, 10) and directions.shape == (6, 10, 3)
        for ring, sector in ((0, 0), (2, 7), (5, 9)):
            np.testing.assert_allclose(directions[ring, sector], bin_centre(ring, sector, 6, 10, hemisphere), atol=1e-6)


def test_below_the_horizon_counts_in_the_lowest_ring_on_a_hemisphere() -> None:
    box = make_box(center=(0, 1.0, 0), floor=0.5)  # clamped: the box spans y 0.5..1.5, centre 1.0
    c = fathom.Coverage(box)
    r = c.record(look_at((2.0, 0.6, 0.1), (0, 1.0, 0)))
    assert r.status == ViewStatus.COUNTED
    assert r.bin == 0  # ring 0 below the horizon; azimuth atan2(0.1, 2) = 3 degrees: sector 0


def test_pose_objects_arrays_and_batches_agree() -> None:
    box = make_box(yaw=0.4, floor=0.0)
    poses = orbit((0, 0.5, 0), 1.8, [0, 33, 71, 140, 199, 260, 300], height=0.6)
    one = fathom.Coverage(box)
    singles = [one.record(fathom.Pose(p)) for p in poses]
    two = fathom.Coverage(box)
    batch = two.record_many([fathom.Pose(p) for p in poses])
    three = fathom.Coverage(box)
    from_arrays = [three.record(p) for p in poses]
    assert singles == from_arrays
    for r, row in zip(singles, batch):
        assert (r.status, r.face, r.cell, r.bin, r.completed_face) == (
            row["status"], None if row["face"] == -1 else row["face"], row["cell"], row["bin"],
            None if row["completed_face"] == -1 else row["completed_face"],
        )
        assert r.distance == row["distance"]
    assert len(fathom.Coverage(box).record_many(np.empty((0, 4, 4), F32))) == 0


def test_repr_and_context_manager() -> None:
    box = make_box(floor=0.0)
    with fathom.Coverage(box, goal=4) as c:
        c.record(look_at((0, 0.5, -2), (0, 0.5, 0)))
        text = repr(c)
        assert "goal=4" in text and "front=1" in text and "faces_complete=0/5" in text
    assert c.closed and repr(c) == "Coverage(<closed>)"
    assert "FRONT" in repr(fathom.Coverage(box).face(0))
