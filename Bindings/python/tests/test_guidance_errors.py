"""Bad input to coverage, motion and trajectories: each gives its exception (status) and a message naming the
function and the argument; failed calls leave the trackers as they were."""

from __future__ import annotations

import math

import numpy as np
import pytest

from _poses import look_at
import fathom


def _raises(exc, call, *words: str):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), f"{w!r} not in {str(info.value)!r}"
    return info.value


BOX = fathom.Box((0, 0.5, 0), (1, 1, 1), 0.0, floor=0.0)
FRONT = look_at((0, 0.5, -2), (0, 0.5, 0))


def _nan_pose() -> np.ndarray:
    p = FRONT.copy()
    p[1, 3] = math.nan
    return p


def _scaled_pose() -> np.ndarray:
    p = FRONT.copy()
    p[:3, :3] *= 2.0
    return p


# -- coverage --------------------------------------------------------------------------------------------


def test_nan_pose_is_not_finite() -> None:
    c = fathom.Coverage(BOX)
    e = _raises(fathom.NotFiniteError, lambda: c.record(_nan_pose()), "fathom_coverage_record", "camera_to_world[13]",
                "must be finite")
    assert e.status_name == "FATHOM_ERR_NOT_FINITE"
    assert c.summary().views == 0  # nothing recorded
    _raises(fathom.NotFiniteError, lambda: c.record(FRONT, fathom.Intrinsics(math.nan, 500, 320, 240, 640, 480)),
            "fathom_coverage_record")


def test_non_rigid_pose() -> None:
    c = fathom.Coverage(BOX)
    _raises(fathom.NotRigidError, lambda: c.record(_scaled_pose()), "fathom_coverage_record", "camera_to_world")
    assert c.summary().views == 0


def test_bad_pose_in_a_batch_names_its_index_and_keeps_the_views_before() -> None:
    c = fathom.Coverage(BOX)
    poses = np.stack([FRONT, look_at((0, 0.5, 2), (0, 0.5, 0)), _scaled_pose(), FRONT])
    _raises(fathom.NotRigidError, lambda: c.record_many(poses), "fathom_coverage_record_batch", "cameras_to_world[2]")
    assert c.summary().views == 2 and c.summary().counted == 2
    poses[2] = _nan_pose()
    _raises(fathom.NotFiniteError, lambda: c.record_many(poses), "cameras_to_world[2]")


@pytest.mark.parametrize(
    "setting, words",
    [
        ({"goal": 0}, ("goal must be >= 1", "got 0")),
        ({"cells": 0}, ("cells must be in 1...64",)),
        ({"cells": 65}, ("cells", "got 65")),
        ({"rings": 0}, ("rings and sectors",)),
        ({"rings": 257}, ("rings and sectors", "257")),
        ({"sectors": 0}, ("rings and sectors",)),
        ({"rings": 100, "sectors": 100}, ("rings * sectors <= 4096",)),
        ({"min_in_view": 1.5}, ("min_in_view must be in [0, 1]",)),
        ({"min_distance": 2.0, "max_distance": 1.0}, ("max_distance must be >= min_distance",)),
        ({"min_separation_angle": -0.1}, ("min_separation_angle must be >= 0",)),
        ({"min_distance": -1.0}, ("min_distance must be >= 0",)),
    ],
)
def test_bad_coverage_options_are_out_of_range(setting: dict, words: tuple) -> None:
    _raises(fathom.OutOfRangeError, lambda: fathom.Coverage(BOX, **setting), "fathom_coverage_create", *words)


def test_non_finite_coverage_options() -> None:
    _raises(fathom.NotFiniteError, lambda: fathom.Coverage(BOX, min_distance=math.nan), "fathom_coverage_create",
            "min_distance")
    _raises(fathom.NotFiniteError, lambda: fathom.Coverage(BOX, max_distance=math.nan), "max_distance")


def test_options_the_binding_refuses_before_the_library() -> None:
    with pytest.raises(ValueError, match="goal must be in 0..4294967295"):
        fathom.CoverageOptions(goal=-1)
    with pytest.raises(TypeError, match="cells must be an int"):
        fathom.Coverage(BOX, cells=2.5)
    with pytest.raises(TypeError, match="hemisphere must be True, False or None"):
        fathom.Coverage(BOX, hemisphere=2)
    with pytest.raises(TypeError, match="unexpected keyword"):
        fathom.Coverage(BOX, speed=3)
    with pytest.raises(TypeError, match="box must be a fathom.Box"):
        fathom.Coverage("box")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="options must be a fathom.CoverageOptions"):
        fathom.Coverage(BOX, fathom.MotionOptions())  # type: ignore[arg-type]


@pytest.mark.parametrize("floor", [2.0, 1.0])
def test_floor_at_or_above_the_top_is_degenerate(floor: float) -> None:
    box = fathom.Box((0, 0.5, 0), (1, 1, 1), 0.0, floor=floor)  # the box spans y 0..1
    _raises(fathom.DegenerateError, lambda: fathom.Coverage(box), "fathom_coverage_create")


def test_bad_face_and_next_view_arguments() -> None:
    c = fathom.Coverage(BOX)
    with pytest.raises(ValueError, match="face must be a Face value, got 6"):
        c.face(6)
    with pytest.raises(ValueError, match="face must be one of"):
        c.cells("side")
    _raises(fathom.InvalidStateError, c.next_view, "fathom_coverage_next_view", "no view has been counted")
    with pytest.raises(ValueError, match="distance must be > 0"):
        c.next_view(-1.0)
    with pytest.raises(ValueError, match="distance must be > 0"):
        c.next_view(math.nan)
    with pytest.raises(TypeError, match="pose must be a fathom.Pose or a"):
        c.record("front")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"shape \(3, 3\)"):
        c.record(np.eye(3))
    with pytest.raises(TypeError, match="intrinsics must be a fathom.Intrinsics"):
        c.record(FRONT, (500, 500, 320, 240, 640, 480))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"for one pose, use \[pose\]"):
        c.record_many(fathom.Pose(FRONT))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"\(N, 4, 4\)"):
        c.record_many(np.zeros((3, 16)))
    assert c.summary().views == 0


def test_closed_coverage() -> None:
    c = fathom.Coverage(BOX)
    c.close()
    c.close()  # twice is fine
    for call in (lambda: c.record(FRONT), lambda: c.record_many([FRONT]), lambda: c.face(0), c.faces, c.summary,
                 lambda: c.cells(0), c.bins, lambda: c.next_view(1.0), c.reset):
        _raises(fathom.ClosedHandleError, call, "this fathom.Coverage is closed")
    assert repr(c) == "Coverage(<closed>)"
    with pytest.raises(TypeError, match="cannot be pickled"):
        import pickle

        pickle.dumps(fathom.Coverage(BOX))


# -- motion ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "setting, words",
    [
        ({"slow_speed": 0.3}, ("slow <= brisk <= fast",)),
        ({"brisk_speed": 0.1}, ("slow <= brisk <= fast",)),
        ({"slow_speed": 0.0}, ("slow_speed",)),
        ({"slightly": 1.0}, ("slightly must be in [0, 1)",)),
        ({"slightly": -0.1}, ("slightly",)),
        ({"max_gap": 0.0}, ("max_gap",)),
        ({"intervals": (0.0, 2.0, 3.0)}, ("intervals",)),
        ({"time_constant": -1.0}, ("time_constant must be >= 0",)),
    ],
)
def test_bad_motion_options_are_out_of_range(setting: dict, words: tuple) -> None:
    _raises(fathom.OutOfRangeError, lambda: fathom.Motion(**setting), "fathom_motion_create", *words)
    t = np.array([0, 10_000_000])
    _raises(fathom.OutOfRangeError, lambda: fathom.summarize_trajectory(t, np.tile(np.eye(4), (2, 1, 1)), **setting),
            "fathom_trajectory_summarize", *words)


def test_non_finite_motion_options() -> None:
    _raises(fathom.NotFiniteError, lambda: fathom.Motion(fast_speed=math.inf), "fathom_motion_create", "fast_speed")
    _raises(fathom.NotFiniteError, lambda: fathom.Motion(time_constant=math.nan), "time_constant")
    with pytest.raises(ValueError, match="intervals must be 3 numbers"):
        fathom.MotionOptions(intervals=(1.0, 2.0))


def test_bad_motion_poses() -> None:
    m = fathom.Motion()
    m.update(0, FRONT)
    before = m.state
    _raises(fathom.NotFiniteError, lambda: m.update(10, _nan_pose()), "fathom_motion_update", "camera_to_world")
    _raises(fathom.NotRigidError, lambda: m.update(10, _scaled_pose()), "fathom_motion_update", "camera_to_world")
    assert m.state == before or m.state.timestamp == before.timestamp
    poses = np.stack([FRONT] * 5)
    poses[3] = _scaled_pose()
    _raises(fathom.NotRigidError, lambda: m.update_many(np.arange(1, 6) * 10_000_000, poses),
            "fathom_motion_update_batch", "cameras_to_world[3]")
    assert m.state.timestamp == 30_000_000  # the poses before the bad one stay applied


def test_bad_timestamps() -> None:
    m = fathom.Motion()
    with pytest.raises(TypeError, match="timestamp must be an int"):
        m.update("0", FRONT)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seconds=True"):
        m.update(1.5, FRONT)
    with pytest.raises(ValueError, match="int64"):
        m.update(2**63, FRONT)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        m.update_many([0, 1, 2], [FRONT, FRONT])
    with pytest.raises(TypeError, match="integers"):
        m.update_many(np.array([True, False]), [FRONT, FRONT])
    assert m.state.timestamp == 0 and m.state.capture_interval == 0.0  # nothing was fed


def test_closed_motion() -> None:
    m = fathom.Motion()
    with m:
        m.update(0, FRONT)
    assert m.closed
    for call in (lambda: m.update(1, FRONT), lambda: m.update_many([1], [FRONT]), lambda: m.state, m.reset):
        _raises(fathom.ClosedHandleError, call, "this fathom.Motion is closed")
    assert repr(m) == "Motion(<closed>)"


# -- trajectories ----------------------------------------------------------------------------------------


def test_bad_trajectories() -> None:
    one = np.eye(4)[None]
    _raises(fathom.OutOfRangeError, lambda: fathom.summarize_trajectory([0], one), "fathom_trajectory_summarize",
            "count must be >= 2, got 1")
    poses = np.tile(np.eye(4), (4, 1, 1))
    _raises(fathom.OutOfRangeError, lambda: fathom.summarize_trajectory([0, 10, 5, 20], poses),
            "fathom_trajectory_summarize", "timestamps[2]", "before the last accepted")
    poses[1, 0, 0] = math.nan
    _raises(fathom.NotFiniteError, lambda: fathom.summarize_trajectory([0, 10, 20, 30], poses), "cameras_to_world[1]")


def test_bad_frame_selection() -> None:
    poses = np.tile(np.eye(4), (4, 1, 1))
    _raises(fathom.OutOfRangeError, lambda: fathom.select_frames(poses), "fathom_trajectory_select",
            "cannot both be INFINITY")
    _raises(fathom.OutOfRangeError, lambda: fathom.select_frames(poses, -1.0), "min_distance must be > 0")
    _raises(fathom.OutOfRangeError, lambda: fathom.select_frames(poses, 0.1, 0.0), "min_angle must be > 0")
    _raises(fathom.NotFiniteError, lambda: fathom.select_frames(poses, math.nan), "min_distance")
    _raises(fathom.OutOfRangeError, lambda: fathom.select_frames(np.zeros((0, 4, 4)), 0.1), "count must be >= 1")
    poses[2, :3, :3] *= 1.5
    _raises(fathom.NotRigidError, lambda: fathom.select_frames(poses, 0.1), "cameras_to_world[2]")
