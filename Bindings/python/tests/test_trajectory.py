"""Trajectory summaries and frame selection through the binding: int64 nanosecond (or float seconds) timestamps,
pose arrays or Pose lists in, the summary's fields (seconds, meters, m/s, rad/s) and int64 frame indices out, and the
options passed by keyword or as MotionOptions. Checked on recordings whose summaries and selections are worked out
by hand; the arithmetic on other recordings is the core tests' (TrajectoryTests.swift)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fathom
from _poses import rigid, rot_x, rot_y
from test_motion import frames, walk

F32 = np.float32


def recording() -> tuple[np.ndarray, np.ndarray]:
    """2 s at 60 fps walking along x at 0.1 m/s, a 0.9 s gap, then 1 s at 0.3 m/s turning at 0.5 rad/s about y; the
    51st frame's timestamp repeated with a pose 3 m off (ignored)."""
    a = frames(2.0)
    b = a[-1] + 900_000_000 + frames(1.0)
    t = np.r_[a, b]
    x = np.r_[0.1 * a * 1e-9, 1.0 + 0.3 * (b - b[0]) * 1e-9]
    yaw = np.r_[np.zeros(len(a)), 0.5 * (b - b[0]) * 1e-9]
    poses = np.array([rigid(rot_y(angle) @ rot_x(-0.2), (xi, 1.4, -0.7)) for xi, angle in zip(x, yaw)])
    poses = np.insert(poses, 51, rigid(np.eye(3), (x[50] + 3.0, 1.4, -0.7)), axis=0)
    return np.insert(t, 51, t[50]), poses.astype(F32)


def test_summary_of_a_recording_by_hand() -> None:
    """Steps: 120 at 0.1 m/s and 60 at 0.3 m/s (the first pose, the one after the gap and the repeated one are no
    steps); path 0.2 + 0.3 m; nearest-rank p10 and p50 are 0.1, p90 (the 162nd of 180) 0.3; 2 s below the 5 in/s of
    "too slow", 1 s above the 10 in/s of "too fast"."""
    t, poses = recording()
    s = fathom.summarize_trajectory(t, poses)
    assert isinstance(s, fathom.TrajectorySummary)
    assert s.steps == 180
    assert s.duration == pytest.approx(3.9, abs=1e-9)
    assert s.path_length == pytest.approx(0.5, rel=1e-5)
    assert (s.speed_p10, s.speed_p50, s.speed_p90, s.speed_max) == pytest.approx((0.1, 0.1, 0.3, 0.3), rel=1e-4)
    assert s.time_too_slow == pytest.approx(2.0, abs=1e-9)
    assert s.time_too_fast == pytest.approx(1.0, abs=1e-9)
    assert s.angular_speed_max == pytest.approx(0.5, rel=1e-3)


def test_summary_options_reach_the_library() -> None:
    """fast_speed 0.35 and slow_speed 0.05 m/s leave no time too fast or too slow; a time constant of 0.3 s blends the
    step from 0.1 to 0.3 m/s, so the fastest smoothed speed is 0.3 - 0.2 exp(-T / 0.3) after T seconds at 0.3."""
    t, poses = recording()
    s = fathom.summarize_trajectory(t, poses, fast_speed=0.35, slow_speed=0.05)
    assert (s.time_too_fast, s.time_too_slow) == (0.0, 0.0)
    t = frames(2.0)
    poses = walk(t, lambda s: 0.1 if s < 1 else 0.3)
    assert fathom.summarize_trajectory(t, poses).speed_max == pytest.approx(0.3, rel=1e-4)
    smoothed = fathom.summarize_trajectory(t, poses, time_constant=0.3)
    at_fast = (t[-1] - t[59]) * 1e-9  # the steps ending at 1 s and later are at 0.3 m/s
    assert smoothed.speed_max == pytest.approx(0.3 - 0.2 * math.exp(-at_fast / 0.3), rel=1e-4)
    options = fathom.MotionOptions(time_constant=0.3)
    assert fathom.summarize_trajectory(t, poses, options=options) == smoothed


def test_path_ignores_a_repeated_timestamps_pose() -> None:
    """A, then B at A's time far away, then C: the one step is A -> C, and so is the path."""
    poses = np.tile(np.eye(4, dtype=F32), (3, 1, 1))
    poses[1, 0, 3], poses[2, 0, 3] = 5.0, 0.02
    s = fathom.summarize_trajectory(np.array([0, 0, 100_000_000]), poses)
    assert s.steps == 1
    assert s.path_length == pytest.approx(0.02, rel=1e-6)
    assert s.speed_max == pytest.approx(0.2, rel=1e-5)


def test_nearest_rank_percentiles_exactly() -> None:
    """Ten steps of speeds 0.1 .. 1.0 m/s: p10 is the 1st, p50 the 5th, p90 the 9th (nearest rank)."""
    speeds = np.arange(1, 11) / 10
    t = np.arange(11, dtype=np.int64) * 100_000_000  # 0.1 s steps
    x = np.r_[0.0, np.cumsum(speeds[[3, 9, 0, 5, 2, 8, 1, 7, 4, 6]] * 0.1)]  # shuffled order
    poses = np.tile(np.eye(4, dtype=F32), (11, 1, 1))
    poses[:, 0, 3] = x
    s = fathom.summarize_trajectory(t, poses)
    assert (s.speed_p10, s.speed_p50, s.speed_p90, s.speed_max) == pytest.approx((0.1, 0.5, 0.9, 1.0), rel=1e-4)
    assert s.path_length == pytest.approx(speeds.sum() * 0.1, rel=1e-5)
    assert s.time_too_fast == pytest.approx(0.8, abs=1e-9)  # 0.3 .. 1.0 m/s are above 0.254
    assert s.time_too_slow == pytest.approx(0.1, abs=1e-9)  # only 0.1 m/s is below 0.127


def test_seconds_timestamps_and_pose_objects() -> None:
    t, poses = recording()
    a = fathom.summarize_trajectory(t[:400], poses[:400])
    b = fathom.summarize_trajectory(t[:400] * 1e-9, [fathom.Pose(p) for p in poses[:400]], seconds=True)
    assert a == b


def _selection_path() -> np.ndarray:
    """20 poses 1/64 m apart along x (exact in float32), then 20 more at the last position turning 0.03 rad each."""
    x = np.r_[np.arange(20) / 64, np.full(20, 19 / 64)]
    angle = np.r_[np.zeros(20), 0.03 * np.arange(1, 21)]
    return np.array([rigid(rot_y(a), (xi, 0, 0)) for xi, a in zip(x, angle)]).astype(F32)


@pytest.mark.parametrize(
    "min_distance, min_angle, expected",
    [
        # every 4th pose is 1/16 m from the last kept one; after pose 16 the position stops 3/64 m away
        (1 / 16, math.inf, [0, 4, 8, 12, 16]),
        # no turn until pose 20; then every 4th pose has turned 0.12 >= 0.1 rad from the last kept one
        (math.inf, 0.1, [0, 23, 27, 31, 35, 39]),
        # either threshold: the distance in the first half, the angle in the second
        (1 / 16, 0.1, [0, 4, 8, 12, 16, 23, 27, 31, 35, 39]),
    ],
)
def test_frame_selection_by_hand(min_distance: float, min_angle: float, expected: list[int]) -> None:
    got = fathom.select_frames(_selection_path(), min_distance, min_angle)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, expected)


def test_frame_selection_inputs() -> None:
    poses = _selection_path()
    np.testing.assert_array_equal(fathom.select_frames([fathom.Pose(p) for p in poses], min_distance=1 / 16), [0, 4, 8, 12, 16])
    np.testing.assert_array_equal(fathom.select_frames(poses.astype(np.float64).tolist(), 1 / 16), [0, 4, 8, 12, 16])
    np.testing.assert_array_equal(fathom.select_frames(poses[:1], 0.1), [0])
    still = np.tile(np.eye(4), (50, 1, 1))
    np.testing.assert_array_equal(fathom.select_frames(still, 0.01, 0.01), [0])  # standing still: only the first
