"""Camera speed (fathom.Motion) through the binding: int64 nanosecond (or float seconds) timestamps and poses in,
the structured state array out, options in their units (m/s, seconds), and errors. Checked on walks of known speed
and turn rate (the state's fields then have closed forms) and on capture times worked out by hand from the app's
rules; the tracker's step-by-step arithmetic is the core tests' (GuidanceTests, MotionSmoothingTests)."""

from __future__ import annotations

import ctypes
import math
import subprocess
import sys

import numpy as np
import pytest

import fathom
from _poses import rot_x, rot_y
from fathom import Guidance, _lib

F32 = np.float32
FPS = 60
IN = 0.0254  # meters per inch


def frames(seconds: float, fps: int = FPS, start_ns: int = 0) -> np.ndarray:
    """int64 nanosecond timestamps of a recording at `fps`."""
    n = int(round(seconds * fps)) + 1
    return start_ns + np.rint(np.arange(n) * (1e9 / fps)).astype(np.int64)


def walk(timestamps: np.ndarray, speed_of_t, turn_rate: float = 0.0, jitter: float = 0.0, seed: int = 1) -> np.ndarray:
    """(N, 4, 4) float32 poses walking along +x at speed_of_t(t) m/s (piecewise constant, integrated exactly on the
    frame grid), turning about +y at `turn_rate` rad/s, with optional position jitter (meters)."""
    t = (timestamps - timestamps[0]) * 1e-9
    dt = np.diff(t, prepend=t[0])
    x = np.cumsum(np.array([speed_of_t(ti) for ti in t]) * dt)
    poses = np.tile(np.eye(4), (len(t), 1, 1))
    poses[:, 0, 3] = x + 0.3
    poses[:, 1, 3] = 1.4
    poses[:, 2, 3] = -0.7
    if jitter:
        poses[:, :3, 3] += np.random.default_rng(seed).normal(scale=jitter, size=(len(t), 3))
    for i, ti in enumerate(t):
        poses[i, :3, :3] = rot_y(turn_rate * ti) @ rot_x(-0.2)
    return poses.astype(F32)


def test_default_options_are_the_apps() -> None:
    o = fathom.MotionOptions()
    assert o.time_constant == 0.0
    assert (o.slow_speed, o.brisk_speed, o.fast_speed) == pytest.approx((5 * IN, 8 * IN, 10 * IN), rel=1e-6)
    assert o.slightly == pytest.approx(0.2) and o.max_gap == 0.5 and o.intervals == (1.0, 2.0, 3.0)
    assert fathom.Motion(time_constant=0.25).options == o.replace(time_constant=0.25)


def test_numpy_mirror_of_motion_state() -> None:
    dt, st = fathom.MOTION_STATE_DTYPE, _lib.MotionStateStruct
    assert dt.itemsize == ctypes.sizeof(st)
    assert list(dt.names) == [f for f, _ in st._fields_]
    for name, ctype in st._fields_:
        assert dt.fields[name][1] == getattr(st, name).offset
        assert dt.fields[name][0].itemsize == ctypes.sizeof(ctype)


def test_state_before_and_after_the_first_pose() -> None:
    m = fathom.Motion()
    s = m.state
    assert (s.timestamp, s.speed, s.guidance, s.capture_interval, s.captured) == (0, 0.0, Guidance.UNKNOWN, 0.0, False)
    s = m.update(123_456_789, np.eye(4))
    assert s.timestamp == 123_456_789 and s.guidance == Guidance.UNKNOWN and s.speed == 0.0
    assert (s.capture_interval, s.time_to_capture, s.captured) == (3.0, 3.0, False)  # the first capture is 3 s away
    assert m.state == s or m.state.timestamp == s.timestamp


def test_velocity_speed_and_angular_speed() -> None:
    """A walk along world +x at 0.08 m/s in the first second, 0.12 in the next, with a steady turn (0.8 rad/s), at
    60 fps: the velocity is world (speed, 0, 0) whatever the camera's heading, the angular speed 0.8 rad/s."""
    t = frames(2.0)
    states = fathom.Motion().update_many(t, walk(t, lambda s: 0.08 + 0.04 * math.floor(s), turn_rate=0.8))
    assert states.dtype == fathom.MOTION_STATE_DTYPE and states.shape == (len(t),)
    np.testing.assert_array_equal(states["timestamp"], t)
    np.testing.assert_allclose(states["angular_speed"][1:], 0.8, rtol=2e-3)
    expected = 0.08 + 0.04 * np.floor(t[1:] * 1e-9)  # each step at the speed of the second it ends in
    np.testing.assert_allclose(states["speed"][1:], expected, rtol=2e-3)
    np.testing.assert_allclose(states["velocity"][1:, 0], expected, rtol=2e-3)
    np.testing.assert_allclose(states["velocity"][1:, 1:], 0.0, atol=1e-4)


def test_irregular_timestamps_use_real_time_differences(rng: np.random.Generator) -> None:
    """Timestamps at any rate: the velocity uses the true time difference (the app's 0.5 s for a 0.25 s period
    would halve it)."""
    t = np.cumsum(rng.integers(5_000_000, 260_000_000, size=80)).astype(np.int64)
    states = fathom.Motion().update_many(t, walk(t, lambda s: 0.15, turn_rate=0.3))
    np.testing.assert_allclose(states["speed"][1:], 0.15, rtol=2e-3)
    np.testing.assert_allclose(states["angular_speed"][1:], 0.3, rtol=2e-3)


@pytest.mark.parametrize("tau", [0.1, 0.5])
def test_exponential_smoothing(tau: float) -> None:
    """time_constant in seconds: 0.1 m/s for 0.1 s, then 0.2 m/s for 0.2 s. The first velocity is taken as it is,
    the next blended by alpha = 1 - exp(-dt / tau): 0.1 + (1 - exp(-0.2 / tau)) * 0.1."""
    t = np.array([0, 100_000_000, 300_000_000], np.int64)
    poses = np.tile(np.eye(4), (3, 1, 1))
    poses[:, 0, 3] = [0.0, 0.01, 0.05]
    states = fathom.Motion(time_constant=tau).update_many(t, poses)
    assert states["speed"][1] == pytest.approx(0.1, rel=1e-5)
    assert states["speed"][2] == pytest.approx(0.1 + (1 - math.exp(-0.2 / tau)) * 0.1, rel=1e-5)
    np.testing.assert_allclose(states["velocity"][2], [states["speed"][2], 0, 0], rtol=1e-6)


def test_smoothing_calms_a_noisy_speed(rng: np.random.Generator) -> None:
    """Noisy positions (2 mm jitter at uneven frame times) give a calmer smoothed speed than the raw one."""
    t = np.cumsum(np.r_[0, rng.integers(10_000_000, 25_000_000, size=300)]).astype(np.int64)
    poses = walk(t, lambda s: 0.18, turn_rate=0.4, jitter=0.002)
    states = fathom.Motion(time_constant=0.5).update_many(t, poses)
    raw = fathom.Motion().update_many(t, poses)
    assert np.std(states["speed"][60:]) < 0.5 * np.std(raw["speed"][60:])  # smoothing calms the speed


@pytest.mark.parametrize(
    "inches_per_second, guidance",
    [(2, Guidance.TOO_SLOW), (5.5, Guidance.SLIGHTLY_SLOW), (7, Guidance.OK), (7.9, Guidance.OK),
     (9, Guidance.SLIGHTLY_FAST), (9.9, Guidance.SLIGHTLY_FAST), (12, Guidance.TOO_FAST), (40, Guidance.TOO_FAST)],
)
def test_guidance_bands(inches_per_second: float, guidance: Guidance) -> None:
    """The app's thresholds: < 5 in/s "Speed Up", > 10 in/s "Slow Down"; "slightly" bands of 20 %: [5, 6) and (8, 10]."""
    t = frames(1.0)
    poses = walk(t, lambda s: inches_per_second * IN)
    states = fathom.Motion().update_many(t, poses)
    assert states["guidance"][0] == Guidance.UNKNOWN
    np.testing.assert_array_equal(states["guidance"][1:], guidance)
    np.testing.assert_allclose(states["speed"][1:], inches_per_second * IN, rtol=2e-3)


def test_walking_too_fast() -> None:
    t = frames(3.0)
    states = fathom.Motion().update_many(t, walk(t, lambda s: 0.6))
    np.testing.assert_array_equal(states["guidance"][1:], Guidance.TOO_FAST)
    np.testing.assert_allclose(states["speed"][1:], 0.6, rtol=1e-3)
    np.testing.assert_allclose(states["velocity"][1:], [[0.6, 0, 0]] * (len(t) - 1), rtol=1e-3, atol=1e-4)


def test_standing_still() -> None:
    t = frames(2.0)
    pose = walk(t[:1], lambda s: 0.0)[0]
    states = fathom.Motion().update_many(t, np.repeat(pose[None], len(t), axis=0))
    np.testing.assert_array_equal(states["speed"], 0.0)
    np.testing.assert_array_equal(states["angular_speed"], 0.0)
    np.testing.assert_array_equal(states["guidance"][1:], Guidance.TOO_SLOW)


def _piecewise(s: float) -> float:
    # 9 in/s until 3.5 s, 12 in/s until 6.5 s, 6 in/s until 10.5 s, then 3 in/s (boundaries between captures)
    return IN * (9 if s < 3.5 else 12 if s < 6.5 else 6 if s < 10.5 else 3)


def test_capture_interval_policy() -> None:
    """The first capture is due 3 s after the first pose; after each capture the interval becomes 1 s for speed in
    [8, 10) in/s, 2 s for [5, 8), 3 s below 5, and stays unchanged at 10 in/s or more."""
    t = frames(16.0)
    states = fathom.Motion().update_many(t, walk(t, _piecewise))
    captured = states["captured"] == 1
    times = t[captured] * 1e-9
    np.testing.assert_allclose(times, [3, 4, 5, 6, 7, 9, 11, 14], atol=1e-9)
    np.testing.assert_array_equal(states["capture_interval"][captured], [1, 1, 1, 1, 2, 2, 3, 3])
    np.testing.assert_array_equal(states["capture_interval"][t < 3e9], 3.0)
    np.testing.assert_allclose(states["time_to_capture"][captured], states["capture_interval"][captured])
    # between captures the time left falls with the clock
    np.testing.assert_allclose(states["time_to_capture"][181:240], 1.0 - (t[181:240] - t[180]) * 1e-9, atol=1e-6)


def test_capture_interval_is_unchanged_when_too_fast_from_the_start() -> None:
    t = frames(10.0)
    states = fathom.Motion().update_many(t, walk(t, lambda s: 12 * IN))
    captured = states["captured"] == 1
    np.testing.assert_allclose(t[captured] * 1e-9, [3, 6, 9])
    np.testing.assert_array_equal(states["capture_interval"], 3.0)


def test_custom_intervals_and_thresholds() -> None:
    """The first capture after intervals[2] = 1.25 s; at 0.2 m/s (>= brisk 0.1) the next come 0.5 s apart, at 0.07 m/s
    ([slow 0.05, brisk)) 0.75 s apart."""
    t = frames(6.0)
    options = dict(slow_speed=0.05, brisk_speed=0.1, fast_speed=0.3, slightly=0.1, intervals=(0.5, 0.75, 1.25))
    states = fathom.Motion(**options).update_many(t, walk(t, lambda s: 0.2 if s < 2 else 0.07))
    np.testing.assert_allclose(t[states["captured"] == 1] * 1e-9, [1.25, 1.75, 2.25, 3.0, 3.75, 4.5, 5.25, 6.0])


@pytest.mark.parametrize(
    "speed, guidance",
    [(0.04, Guidance.TOO_SLOW), (0.052, Guidance.SLIGHTLY_SLOW), (0.15, Guidance.OK), (0.28, Guidance.SLIGHTLY_FAST),
     (0.31, Guidance.TOO_FAST)],
)
def test_custom_speed_bands(speed: float, guidance: Guidance) -> None:
    """slow 0.05 and fast 0.3 m/s with slightly = 10 %: slightly slow below 0.055, slightly fast above 0.27 (under
    the defaults, 0.127 and 0.254 m/s with 20 %, 0.052 would be too slow, 0.15 slightly slow and 0.28 too fast)."""
    t = frames(0.5)
    states = fathom.Motion(slow_speed=0.05, fast_speed=0.3, slightly=0.1).update_many(t, walk(t, lambda s: speed))
    np.testing.assert_array_equal(states["guidance"][1:], guidance)


def test_repeated_timestamp_is_skipped() -> None:
    t = frames(1.0)
    poses = walk(t, lambda s: 0.2)
    m = fathom.Motion()
    m.update_many(t[:30], poses[:30])
    before = m.state
    far = poses[29].copy()
    far[0, 3] += 5.0  # a different pose at the same time: ignored
    s = m.update(int(t[29]), far)
    assert s.skipped and not s.captured and not s.restarted
    for name in ("timestamp", "speed", "angular_speed", "guidance", "capture_interval", "time_to_capture"):
        assert getattr(s, name) == getattr(before, name), name
    np.testing.assert_array_equal(s.velocity, before.velocity)
    after = m.update(int(t[30]), poses[30])  # the next step measures from the last accepted pose
    assert not after.skipped and after.speed == pytest.approx(0.2, rel=2e-3)
    batch = fathom.Motion().update_many(np.r_[t[:3], t[2], t[3:5]], np.concatenate([poses[:3], far[None], poses[3:5]]))
    np.testing.assert_array_equal(batch["skipped"], [0, 0, 0, 1, 0, 0])


def test_earlier_timestamp_is_refused_and_changes_nothing() -> None:
    """Also right after a capture: the refused pose leaves every field, the per-update flags included, as it was."""
    t = frames(4.0)
    poses = walk(t, lambda s: 0.2)
    m = fathom.Motion()
    m.update_many(t[:181], poses[:181])  # frame 180 is the first capture (3 s)
    before = m.state
    assert before.captured
    with pytest.raises(fathom.OutOfRangeError) as info:
        m.update(int(t[100]), poses[100])
    assert "fathom_motion_update" in str(info.value) and "before the last accepted" in str(info.value)
    after = m.state
    for name in ("timestamp", "speed", "guidance", "capture_interval", "time_to_capture", "captured", "skipped",
                 "restarted"):
        assert getattr(after, name) == getattr(before, name), name
    np.testing.assert_array_equal(after.velocity, before.velocity)
    assert m.update(int(t[181]), poses[181]).speed == pytest.approx(0.2, rel=2e-3)  # carries on normally


def test_earlier_timestamp_in_a_batch_names_its_index_and_keeps_the_poses_before() -> None:
    t = frames(1.0)
    poses = walk(t, lambda s: 0.2)
    times = t[:6].copy()
    times[4] = times[1]
    m = fathom.Motion()
    with pytest.raises(fathom.OutOfRangeError, match=r"fathom_motion_update_batch: timestamps\[4\]"):
        m.update_many(times, poses[:6])
    assert m.state.timestamp == t[3]


def test_gap_restarts_the_speed() -> None:
    """A gap longer than max_gap (0.5 s) restarts: guidance UNKNOWN and speed 0 at that pose, a fresh (unsmoothed)
    speed at the next; a gap of 0.4 s does not."""
    t = frames(2.0)
    t = np.r_[t, t[-1] + 800_000_000 + frames(1.0), t[-1] + 2_200_000_000 + frames(1.0)]  # +0.8 s, +0.4 s gaps
    poses = walk(t, lambda s: 0.2 if s < 2.5 else 0.1, turn_rate=0.5)
    for tau in (0.0, 0.3):
        states = fathom.Motion(time_constant=tau).update_many(t, poses)
        restarted = np.flatnonzero(states["restarted"])
        assert list(restarted) == [121]
        assert states["guidance"][121] == Guidance.UNKNOWN and states["speed"][121] == 0.0
        assert states["speed"][122] == pytest.approx(0.1, rel=2e-3)  # raw, not blended with the old speed


def test_seconds_and_nanoseconds() -> None:
    m = fathom.Motion()
    assert m.update(0.5, np.eye(4), seconds=True).timestamp == 500_000_000
    with pytest.raises(TypeError, match="seconds=True"):
        m.update(0.6, np.eye(4))
    with pytest.raises(TypeError, match="seconds=True"):
        fathom.Motion().update_many(np.array([0.0, 0.1]), [fathom.Pose(), fathom.Pose()])
    states = fathom.Motion().update_many(np.array([0.0, 0.1, 0.2]), np.tile(np.eye(4), (3, 1, 1)), seconds=True)
    np.testing.assert_array_equal(states["timestamp"], [0, 100_000_000, 200_000_000])
    assert fathom.seconds_to_ns(1.5) == 1_500_000_000
    np.testing.assert_array_equal(fathom.seconds_to_ns([0.1, 2.0000000015]), [100_000_000, 2_000_000_002])
    assert fathom.ns_to_seconds(1_500_000_000) == 1.5
    with pytest.raises(ValueError):
        fathom.seconds_to_ns(math.nan)
    assert fathom.Motion().update(np.int64(7), fathom.Pose()).timestamp == 7
    assert m.state.seconds == pytest.approx(0.5)


def test_reset_starts_over() -> None:
    t = frames(4.0)
    m = fathom.Motion()
    m.update_many(t, walk(t, lambda s: 0.2))
    m.reset()
    assert m.state.timestamp == 0 and m.state.guidance == Guidance.UNKNOWN
    s = m.update(10, np.eye(4))  # any time is now "first": an earlier one than before the reset is fine
    assert (s.timestamp, s.capture_interval, s.time_to_capture) == (10, 3.0, 3.0)


def test_pose_objects_and_arrays_agree() -> None:
    t = frames(1.0)
    poses = walk(t, lambda s: 0.2, turn_rate=1.0)
    a = fathom.Motion().update_many(t, poses)
    b = fathom.Motion().update_many(t, [fathom.Pose(p) for p in poses])
    np.testing.assert_array_equal(a, b)
    m = fathom.Motion()
    singles = [m.update(int(ti), fathom.Pose(p)) for ti, p in zip(t, poses)]
    np.testing.assert_array_equal([s.speed for s in singles], a["speed"])
    assert "speed=" in repr(singles[-1]) and "Motion(" in repr(m)
    assert len(fathom.Motion().update_many(np.zeros(0, np.int64), np.zeros((0, 4, 4)))) == 0


_EXTREMES = """
import fathom, numpy as np
m = fathom.Motion()
m.update(-2**63, np.eye(4))
moved = np.eye(4); moved[0, 3] = 1.0
s = m.update(2**63 - 1, moved)
assert s.restarted and s.guidance == fathom.Guidance.UNKNOWN, s
s = fathom.summarize_trajectory(np.array([-2**63, 2**63 - 1]), [fathom.Pose(), fathom.Pose(moved)])
assert s.steps == 0 and abs(s.duration - 2**64 * 1e-9) < 1e3, s
huge = fathom.Motion(intervals=(1, 2, 1e30))
huge.update(0, np.eye(4)); s = huge.update(10**8, np.eye(4))
assert not s.captured and s.time_to_capture > 1e9, s
late = fathom.Motion(); late.update(2**63 - 10**9, np.eye(4)); s = late.update(2**63 - 2, np.eye(4))
assert not s.captured, s  # the first capture (3 s later) is beyond the clock: never due, and no wrap-around
print("ok")
"""


def test_extreme_timestamps_and_intervals_do_not_crash() -> None:
    """Timestamps 2**64 ns apart, and intervals beyond int64 nanoseconds: no overflow trap (run in a child process,
    so a regression cannot take the test session down)."""
    done = subprocess.run([sys.executable, "-c", _EXTREMES], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
