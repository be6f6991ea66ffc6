"""Trajectory summaries and frame selection against numpy: path length, duration, nearest-rank speed percentiles,
time too slow / too fast, maximum angular speed, and the greedy frame-selection rule as a plain Python loop, on a
60 fps synthetic recording."""

from __future__ import annotations

import math

import numpy as np
import pytest

import _guidance_reference as R
import fathom
from test_motion import IN, frames, walk

F32 = np.float32


def recording() -> tuple[np.ndarray, np.ndarray]:
    """20 s at 60 fps: slow, ok, too fast and slightly fast stretches, turning at a varying rate, with a repeated
    timestamp (a different pose) and a 0.9 s gap."""
    t = frames(20.0)
    speeds = lambda s: IN * (3 if s < 4 else 7 if s < 9 else 14 if s < 13 else 9 if s < 17 else 2)  # noqa: E731
    poses = walk(t, speeds).astype(np.float64)
    yaw = np.cumsum(0.6 * np.sin((t - t[0]) * 1e-9) / 60)
    for i, a in enumerate(yaw):
        poses[i, :3, :3] = R.rot_y(a) @ R.rot_axis((0, 0, 1), 0.1 * math.sin(i / 50))
    poses = poses.astype(F32)
    t = t.copy()
    t[500:] += 900_000_000  # a gap of 0.9 s + 1/60 s between frames 499 and 500
    t[700] = t[699]  # a repeated timestamp ...
    poses[700, :3, 3] += (3.0, 0.0, 0.0)  # ... whose pose is far off: ignored
    return t, poses


def summary_reference(t: np.ndarray, poses: np.ndarray, **options) -> dict:
    ref = R.motion_reference(t, poses.astype(np.float64), R.MotionSettings(**options))
    steps = (np.arange(len(t)) > 0) & (ref["skipped"] == 0) & (ref["restarted"] == 0)
    accepted = np.flatnonzero(ref["skipped"] == 0)
    # the pose each step starts from: the last accepted one before it
    previous = accepted[np.searchsorted(accepted, np.arange(len(t))) - 1]
    positions = poses[:, :3, 3].astype(np.float64)
    step_length = np.linalg.norm(positions - positions[previous], axis=1)
    dt = (t - t[previous]) * 1e-9
    speeds = ref["speed"][steps]
    return {
        "duration": (int(t[-1]) - int(t[0])) * 1e-9,
        "path_length": float(step_length[steps].sum()),
        "speed_p10": R.nearest_rank(speeds, 10),
        "speed_p50": R.nearest_rank(speeds, 50),
        "speed_p90": R.nearest_rank(speeds, 90),
        "speed_max": float(speeds.max()),
        "time_too_slow": float(dt[steps & (ref["guidance"] == R.TOO_SLOW)].sum()),
        "time_too_fast": float(dt[steps & (ref["guidance"] == R.TOO_FAST)].sum()),
        "angular_speed_max": float(ref["angular_speed"][steps].max()),
        "steps": int(steps.sum()),
    }


def assert_summary(s: fathom.TrajectorySummary, want: dict) -> None:
    assert s.steps == want["steps"]
    assert s.duration == pytest.approx(want["duration"], abs=1e-9)
    assert s.path_length == pytest.approx(want["path_length"], rel=1e-5)
    for name in ("speed_p10", "speed_p50", "speed_p90", "speed_max"):
        assert getattr(s, name) == pytest.approx(want[name], rel=2e-3, abs=1e-5), name
    assert s.time_too_slow == pytest.approx(want["time_too_slow"], abs=1e-9)
    assert s.time_too_fast == pytest.approx(want["time_too_fast"], abs=1e-9)
    assert s.angular_speed_max == pytest.approx(want["angular_speed_max"], rel=2e-3)


def test_summary_of_a_60_fps_recording() -> None:
    t, poses = recording()
    s = fathom.summarize_trajectory(t, poses)
    want = summary_reference(t, poses)
    assert_summary(s, want)
    assert s.steps == len(t) - 3  # the first pose, the one after the gap and the repeated one are not steps
    assert s.time_too_slow > 5 and s.time_too_fast > 3  # both kinds of stretch are there
    assert s.duration == pytest.approx(20.9, abs=1e-9)


def test_summary_with_smoothing_and_other_thresholds() -> None:
    t, poses = recording()
    s = fathom.summarize_trajectory(t, poses, time_constant=0.3, fast_speed=0.3, slightly=0.1)
    assert_summary(s, summary_reference(t, poses, time_constant=0.3, fast=float(F32(0.3)), slightly=float(F32(0.1))))
    options = fathom.MotionOptions(time_constant=0.3)
    assert fathom.summarize_trajectory(t, poses, options=options) == fathom.summarize_trajectory(t, poses, time_constant=0.3)


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
    for n in (1, 7, 29, 30, 101):
        v = np.random.default_rng(n).uniform(0, 1, n)
        assert [R.nearest_rank(v, p) for p in (10, 50, 90)] == [np.sort(v)[max(math.ceil(p * n / 100), 1) - 1] for p in (10, 50, 90)]


def test_seconds_timestamps_and_pose_objects() -> None:
    t, poses = recording()
    a = fathom.summarize_trajectory(t[:400], poses[:400])
    b = fathom.summarize_trajectory(t[:400] * 1e-9, [fathom.Pose(p) for p in poses[:400]], seconds=True)
    assert a == b


@pytest.mark.parametrize("min_distance, min_angle", [(0.05, math.inf), (math.inf, 0.1), (0.05, 0.1), (0.3, 0.02)])
def test_frame_selection_is_the_greedy_rule(min_distance: float, min_angle: float) -> None:
    _, poses = recording()
    got = fathom.select_frames(poses, min_distance, min_angle)
    want = R.select_reference(poses.astype(np.float64), float(F32(min_distance)), float(F32(min_angle)))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int64 and got[0] == 0 and np.all(np.diff(got) > 0)
    assert 5 < len(got) < len(poses)


def test_frame_selection_inputs() -> None:
    _, poses = recording()
    np.testing.assert_array_equal(
        fathom.select_frames([fathom.Pose(p) for p in poses[:200]], min_distance=0.02),
        fathom.select_frames(poses[:200], min_distance=0.02),
    )
    np.testing.assert_array_equal(fathom.select_frames(poses[:1], 0.1), [0])
    still = np.tile(np.eye(4), (50, 1, 1))
    np.testing.assert_array_equal(fathom.select_frames(still, 0.01, 0.01), [0])  # standing still: only the first
