"""Camera-speed guidance and trajectory summaries: whether the person capturing should walk faster or slower.

While a person walks around an object taking pictures, the capture app tells them whether to walk faster or
slower, and takes a picture automatically now and then. This module is the Python front of the library's
``fathom_motion_*`` and ``fathom_trajectory_*`` functions:

- :class:`Motion` (a ``fathom_motion`` handle) turns timestamped camera poses into velocity, speed, angular
  speed, :class:`Guidance` ("Speed Up" / "keep this speed" / "Slow Down") and the app's automatic capture
  interval.
- :func:`summarize_trajectory` summarizes a whole recording; :func:`select_frames` picks frames for a
  reconstruction by distance and angle.

Timestamps are integer nanoseconds (any origin), the library's unit: ``int`` or integer numpy arrays. Float
seconds are accepted only when asked for with ``seconds=True``, which converts them with :func:`seconds_to_ns`
(rounded to the nearest nanosecond; a float64 holds whole nanoseconds exactly only up to about 104 days, so
convert epoch-based times to nanoseconds yourself). A float passed without ``seconds=True`` is a TypeError,
never silently read as nanoseconds.

Poses are camera-to-world: a :class:`fathom.Pose`, or a (4, 4) numpy matrix (rows as rows, translation in the
last column); many poses are a sequence of those or an (N, 4, 4) array. Matrices are checked by the library
(rigid within :data:`fathom.RIGID_TOLERANCE`, finite), which raises :class:`fathom.NotRigidError` or
:class:`fathom.NotFiniteError` naming the pose.

Speeds are meters per second (the app's thresholds are 5, 8 and 10 inches per second: 0.127, 0.2032 and
0.254 m/s; :data:`INCH` converts). The app divides by 0.5 s although its timer period is 0.25 s and so shows
half the true speed; the library computes the true speed from the timestamps.

Face coverage is :mod:`fathom.coverage`'s. Motion trackers are not thread-safe: use each from one thread at a time.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from ctypes import POINTER, byref, c_float, c_int64, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._arrays import pose_array_ptr, pose_struct, poses_column_major, vec3_from_c
from ._defaults import default_field, library_defaults
from ._handle import Handle
from ._lib import (
    MotionOptionsPtr,
    MotionOptionsStruct,
    MotionPtr,
    MotionStatePtr,
    MotionStateStruct,
    PosePtr,
    TrajectorySummaryStruct,
    c_function,
    status_function,
)
from ._scalars import real
from .geometry import PoseLike

__all__ = [
    "INCH",
    "MOTION_STATE_DTYPE",
    "Guidance",
    "Motion",
    "MotionOptions",
    "MotionState",
    "TrajectorySummary",
    "ns_to_seconds",
    "seconds_to_ns",
    "select_frames",
    "summarize_trajectory",
]

#: One inch in meters (the app's speed thresholds are in inches per second).
INCH = 0.0254

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

# ------------------------------------------------------------------------------------------------
# C functions
# ------------------------------------------------------------------------------------------------

_motion_options_init = status_function("fathom_motion_options_init", MotionOptionsPtr)
_motion_create = status_function("fathom_motion_create", MotionOptionsPtr, POINTER(MotionPtr))
_motion_destroy = c_function("fathom_motion_destroy", None, MotionPtr)
_motion_update = status_function("fathom_motion_update", MotionPtr, c_int64, PosePtr, MotionStatePtr)
_motion_update_batch = status_function(
    "fathom_motion_update_batch", MotionPtr, POINTER(c_int64), PosePtr, c_size_t, MotionStatePtr
)
_motion_get_state = status_function("fathom_motion_get_state", MotionPtr, MotionStatePtr)
_motion_reset = status_function("fathom_motion_reset", MotionPtr)
_trajectory_summarize = status_function(
    "fathom_trajectory_summarize", POINTER(c_int64), PosePtr, c_size_t, MotionOptionsPtr,
    POINTER(TrajectorySummaryStruct),
)
_trajectory_select = status_function(
    "fathom_trajectory_select", PosePtr, c_size_t, c_float, c_float, POINTER(c_uint32), c_size_t, POINTER(c_size_t)
)

# ------------------------------------------------------------------------------------------------
# Enums and numpy mirrors
# ------------------------------------------------------------------------------------------------


class Guidance(IntEnum):
    """Speed guidance (``fathom_guidance``): the app's "Speed Up" / "keep this speed" / "Slow Down"."""

    UNKNOWN = 0  # no speed yet (first pose, or after a gap)
    TOO_SLOW = 1  # speed < slow_speed
    SLIGHTLY_SLOW = 2  # slow_speed <= speed < slow_speed * (1 + slightly)
    OK = 3
    SLIGHTLY_FAST = 4  # fast_speed * (1 - slightly) < speed <= fast_speed
    TOO_FAST = 5  # speed > fast_speed


#: The numpy mirror of ``fathom_motion_state`` (48 bytes): :meth:`Motion.update_many` returns an array of it.
#: ``timestamp`` is int64 nanoseconds, ``velocity`` (3,) float32 m/s; the flags are bools.
MOTION_STATE_DTYPE = np.dtype(
    [
        ("timestamp", np.int64),
        ("velocity", np.float32, (3,)),
        ("speed", np.float32),
        ("angular_speed", np.float32),
        ("guidance", np.uint32),
        ("capture_interval", np.float32),
        ("time_to_capture", np.float32),
        ("captured", np.bool_),
        ("skipped", np.bool_),
        ("restarted", np.bool_),
    ],
    align=True,
)

# ------------------------------------------------------------------------------------------------
# Argument conversion
# ------------------------------------------------------------------------------------------------


def seconds_to_ns(seconds: Any) -> Any:
    """Seconds (a float or an array of them) to integer nanoseconds, rounded to the nearest one.

    Returns an ``int`` for a scalar and an int64 array for an array. NaN, infinite or out-of-int64 values raise
    ValueError. Precision: a float64 resolves single nanoseconds only below about 2**53 ns (104 days); larger
    times (seconds since 1970) lose sub-microsecond digits, so convert those to integer nanoseconds yourself.
    """
    a = np.asarray(seconds, dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError("seconds must be finite")
    ns = np.rint(a * 1e9)
    if a.size and (ns.min() < _INT64_MIN or ns.max() >= 2.0**63):
        raise ValueError("seconds out of the int64 nanosecond range (about +-292 years)")
    out = ns.astype(np.int64)
    return int(out) if out.ndim == 0 else out


def ns_to_seconds(nanoseconds: Any) -> Any:
    """Integer nanoseconds to float seconds (a float for a scalar, a float64 array for an array)."""
    a = np.asarray(nanoseconds)
    out = a.astype(np.float64) * 1e-9
    return float(out) if out.ndim == 0 else out


def _timestamp(value: Any, seconds: bool, name: str = "timestamp") -> int:
    if seconds:
        return seconds_to_ns(real(value, name))
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{name} must be an int (nanoseconds), got {type(value).__name__}; pass seconds=True to give float seconds"
        )
    v = int(value)
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise ValueError(f"{name} must fit int64 nanoseconds, got {v}")
    return v


def _timestamps(values: Any, seconds: bool, count: int, name: str = "timestamps") -> np.ndarray:
    """(count,) C-contiguous int64 nanoseconds."""
    a = np.asarray(values)
    if seconds:
        if not (np.issubdtype(a.dtype, np.number) and not np.issubdtype(a.dtype, np.complexfloating)):
            raise TypeError(f"{name} must hold real numbers (seconds), got dtype {a.dtype}")
        a = np.asarray(seconds_to_ns(a), dtype=np.int64)
    elif a.size == 0 and not np.issubdtype(a.dtype, np.integer):
        a = a.astype(np.int64)
    elif a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(
            f"{name} must hold integers (nanoseconds), got dtype {a.dtype}; pass seconds=True to give float seconds"
        )
    if a.shape != (count,):
        raise ValueError(f"{name} must have shape ({count},) (one per pose), got shape {a.shape}")
    if a.dtype == np.uint64 and a.size and int(a.max()) > _INT64_MAX:
        raise ValueError(f"{name} must fit int64 nanoseconds, got {int(a.max())}")
    return np.ascontiguousarray(a, dtype=np.int64)


# ------------------------------------------------------------------------------------------------
# Motion
# ------------------------------------------------------------------------------------------------


_motion_defaults = library_defaults(MotionOptionsStruct, _motion_options_init, lambda c: MotionOptions._from_c(c))


def _motion_default(name: str) -> Any:
    return default_field(_motion_defaults, name)


@dataclass(frozen=True)
class MotionOptions:
    """Settings of a :class:`Motion` tracker and of :func:`summarize_trajectory` (``fathom_motion_options``).
    Every default is the library's own (``fathom_motion_options_init``): the app's thresholds in m/s.

    Attributes:
        time_constant: exponential smoothing of velocity and angular speed, seconds (0: none). Each update blends
            by ``alpha = 1 - exp(-dt / time_constant)``.
        slow_speed, brisk_speed, fast_speed: 5, 8 and 10 in/s (0.127, 0.2032, 0.254 m/s); 0 < slow <= brisk <= fast.
        slightly: width of the "slightly" bands as a fraction of a threshold, [0, 1).
        max_gap: seconds; a longer gap between poses restarts the speed (guidance UNKNOWN).
        intervals: (3,) automatic capture interval after a capture, seconds: speed in [brisk, fast), in
            [slow, brisk), below slow (also the first interval); at or above fast the interval is unchanged.
    """

    time_constant: float = _motion_default("time_constant")
    slow_speed: float = _motion_default("slow_speed")
    brisk_speed: float = _motion_default("brisk_speed")
    fast_speed: float = _motion_default("fast_speed")
    slightly: float = _motion_default("slightly")
    max_gap: float = _motion_default("max_gap")
    intervals: tuple[float, float, float] = _motion_default("intervals")

    def __post_init__(self) -> None:
        set_ = functools.partial(object.__setattr__, self)
        for name in ("time_constant", "slow_speed", "brisk_speed", "fast_speed", "slightly", "max_gap"):
            set_(name, real(getattr(self, name), name))
        iv = self.intervals
        if isinstance(iv, (str, bytes)) or np.shape(iv) != (3,):
            raise ValueError(f"intervals must be 3 numbers (seconds), got {iv!r}")
        set_("intervals", tuple(real(v, f"intervals[{i}]") for i, v in enumerate(iv)))

    @classmethod
    def _from_c(cls, c: MotionOptionsStruct) -> "MotionOptions":
        return cls(
            time_constant=float(c.time_constant), slow_speed=float(c.slow_speed), brisk_speed=float(c.brisk_speed),
            fast_speed=float(c.fast_speed), slightly=float(c.slightly), max_gap=float(c.max_gap),
            intervals=tuple(float(v) for v in c.intervals),  # type: ignore[arg-type]
        )

    def _to_c(self) -> MotionOptionsStruct:
        return MotionOptionsStruct(
            self.time_constant, self.slow_speed, self.brisk_speed, self.fast_speed, self.slightly, self.max_gap,
            (c_float * 3)(*self.intervals),
        )

    def replace(self, **changes: Any) -> "MotionOptions":
        """A copy with some settings changed (unknown names raise TypeError)."""
        return dataclasses.replace(self, **changes)

    def bands(self) -> dict[Guidance, tuple[float, float]]:
        """The speed range (m/s) of each guidance: ``{Guidance.TOO_SLOW: (0, slow), ...}`` (ends as in the header)."""
        s, f, w = self.slow_speed, self.fast_speed, self.slightly
        return {
            Guidance.TOO_SLOW: (0.0, s),
            Guidance.SLIGHTLY_SLOW: (s, s * (1 + w)),
            Guidance.OK: (s * (1 + w), f * (1 - w)),
            Guidance.SLIGHTLY_FAST: (f * (1 - w), f),
            Guidance.TOO_FAST: (f, math.inf),
        }


def _options(options: Optional[MotionOptions], overrides: dict[str, Any]) -> MotionOptions:
    base = _motion_defaults() if options is None else options
    if not isinstance(base, MotionOptions):
        raise TypeError(f"options must be a fathom.MotionOptions, got {type(base).__name__}")
    return base.replace(**overrides) if overrides else base


@dataclass(frozen=True, eq=False)
class MotionState:
    """A motion tracker's state after an update.

    Attributes:
        timestamp: of the last accepted pose, int nanoseconds (:attr:`seconds` in seconds).
        velocity: (3,) float32 world velocity, m/s (smoothed if the options say so).
        speed: |velocity|, m/s. angular_speed: rad/s, from the relative rotation of consecutive poses.
        guidance: :class:`Guidance`.
        capture_interval: seconds, the app's automatic policy; time_to_capture: seconds until the next automatic
            capture (<= 0: due).
        captured: this update took an automatic capture (and the interval was adjusted).
        skipped: the pose repeated the last timestamp and was ignored.
        restarted: the gap before this pose exceeded max_gap (the speed restarts).
    """

    timestamp: int
    velocity: np.ndarray
    speed: float
    angular_speed: float
    guidance: Guidance
    capture_interval: float
    time_to_capture: float
    captured: bool
    skipped: bool
    restarted: bool

    @property
    def seconds(self) -> float:
        """The timestamp in seconds."""
        return self.timestamp * 1e-9

    @classmethod
    def _from_c(cls, c: MotionStateStruct) -> "MotionState":
        return cls(
            int(c.timestamp), vec3_from_c(c.velocity), float(c.speed), float(c.angular_speed), Guidance(c.guidance),
            float(c.capture_interval), float(c.time_to_capture), bool(c.captured), bool(c.skipped), bool(c.restarted),
        )

    def __repr__(self) -> str:
        flags = [n for n in ("captured", "skipped", "restarted") if getattr(self, n)]
        return (
            f"MotionState(t={self.seconds:.6f} s, speed={self.speed:.4g} m/s, angular_speed={self.angular_speed:.4g} "
            f"rad/s, guidance={self.guidance.name}, capture_interval={self.capture_interval:g} s, "
            f"time_to_capture={self.time_to_capture:.3f} s{', ' + ', '.join(flags) if flags else ''})"
        )


class Motion(Handle):
    """Camera speed from timestamped poses (a ``fathom_motion`` handle).

    Args:
        options: a :class:`MotionOptions` (default: the library's, the app's thresholds).
        **overrides: settings as keyword arguments (``time_constant=0.2``), overriding ``options``.

    Feed poses with :meth:`update` (one) or :meth:`update_many` (a recording). Velocity is the position difference
    over the time difference of consecutive accepted poses; the first pose starts the capture clock. A timestamp
    equal to the last accepted one is skipped; an earlier one raises :class:`fathom.OutOfRangeError` and changes
    nothing. Not thread-safe.
    """

    __slots__ = ("_options",)
    _destroy = _motion_destroy

    def __init__(self, options: Optional[MotionOptions] = None, **overrides: Any) -> None:
        self._ptr = None
        self._options = _options(options, overrides)
        out = MotionPtr()
        _motion_create(byref(self._options._to_c()), byref(out))
        Handle.__init__(self, out)

    @property
    def options(self) -> MotionOptions:
        """The settings the tracker was made with."""
        return self._options

    def update(self, timestamp: Union[int, float], pose: PoseLike, *, seconds: bool = False) -> MotionState:
        """Feeds one pose taken at ``timestamp`` (int nanoseconds; float seconds with ``seconds=True``) and
        returns the new :class:`MotionState`. ``pose``: camera-to-world :class:`fathom.Pose` or (4, 4) matrix."""
        t = _timestamp(timestamp, seconds)
        p = byref(pose_struct(pose, "pose"))
        out = MotionStateStruct()
        _motion_update(self._handle(), t, p, byref(out))
        return MotionState._from_c(out)

    def update_many(
        self, timestamps: Any, poses: Union[Sequence[PoseLike], np.ndarray], *, seconds: bool = False
    ) -> np.ndarray:
        """Feeds N poses in order (``fathom_motion_update_batch``): an (N,) :data:`MOTION_STATE_DTYPE` array of
        the state after each.

        ``timestamps``: (N,) integer nanoseconds (float seconds with ``seconds=True``); ``poses``: an (N, 4, 4)
        array, or a sequence of :class:`fathom.Pose` objects or (4, 4) matrices. A bad pose or timestamp raises
        naming its index; the poses before it stay applied.
        """
        matrices = poses_column_major(poses, "poses")
        times = _timestamps(timestamps, seconds, len(matrices))
        handle = self._handle()
        out = np.zeros(len(matrices), dtype=MOTION_STATE_DTYPE)
        if len(matrices):
            _motion_update_batch(
                handle, times.ctypes.data_as(POINTER(c_int64)), pose_array_ptr(matrices), len(matrices),
                out.ctypes.data_as(MotionStatePtr),
            )
        return out

    @property
    def state(self) -> MotionState:
        """The current state (all zero with guidance UNKNOWN before the first pose)."""
        out = MotionStateStruct()
        _motion_get_state(self._handle(), byref(out))
        return MotionState._from_c(out)

    def reset(self) -> None:
        """Forgets every pose (the options stay)."""
        _motion_reset(self._handle())

    def __repr__(self) -> str:
        if self._ptr is None:
            return "Motion(<closed>)"
        return f"Motion({self.state!r})"


# ------------------------------------------------------------------------------------------------
# Trajectories
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrajectorySummary:
    """Summary of a recorded trajectory (:func:`summarize_trajectory`).

    Attributes:
        duration: last - first timestamp, seconds.
        path_length: sum of the distances between consecutive poses, meters.
        speed_p10, speed_p50, speed_p90, speed_max: nearest-rank percentiles of the per-step speeds, m/s.
        time_too_slow, time_too_fast: seconds of steps whose guidance was TOO_SLOW / TOO_FAST.
        angular_speed_max: rad/s.
        steps: pairs of consecutive poses used (gaps above max_gap and repeated timestamps are not steps).
    """

    duration: float
    path_length: float
    speed_p10: float
    speed_p50: float
    speed_p90: float
    speed_max: float
    time_too_slow: float
    time_too_fast: float
    angular_speed_max: float
    steps: int


def summarize_trajectory(
    timestamps: Any,
    poses: Union[Sequence[PoseLike], np.ndarray],
    *,
    seconds: bool = False,
    options: Optional[MotionOptions] = None,
    **overrides: Any,
) -> TrajectorySummary:
    """Summarizes N >= 2 timestamped camera poses (``fathom_trajectory_summarize``).

    ``timestamps``: (N,) non-decreasing integer nanoseconds (float seconds with ``seconds=True``); ``poses``: an
    (N, 4, 4) array, or a sequence of :class:`fathom.Pose` objects or (4, 4) matrices. Speeds are unsmoothed
    unless the options' ``time_constant`` says otherwise; settings as for :class:`Motion`. Raises
    :class:`fathom.OutOfRangeError` for fewer than 2 poses or a decreasing timestamp (naming its index).
    """
    o = _options(options, overrides)
    matrices = poses_column_major(poses, "poses")
    times = _timestamps(timestamps, seconds, len(matrices))
    out = TrajectorySummaryStruct()
    _trajectory_summarize(
        times.ctypes.data_as(POINTER(c_int64)), pose_array_ptr(matrices), len(matrices), byref(o._to_c()), byref(out)
    )
    return TrajectorySummary(
        float(out.duration), float(out.path_length), float(out.speed_p10), float(out.speed_p50),
        float(out.speed_p90), float(out.speed_max), float(out.time_too_slow), float(out.time_too_fast),
        float(out.angular_speed_max), int(out.steps),
    )


def select_frames(
    poses: Union[Sequence[PoseLike], np.ndarray], min_distance: float = math.inf, min_angle: float = math.inf
) -> np.ndarray:
    """Frames for a reconstruction (``fathom_trajectory_select``): pose 0, then every pose at least
    ``min_distance`` meters from the last selected one or turned at least ``min_angle`` radians from it.

    Either threshold may be ``math.inf`` to ignore it; at least one must be finite and > 0
    (:class:`fathom.OutOfRangeError`). Returns the selected indices, ascending, as an int64 array.
    """
    matrices = poses_column_major(poses, "poses")
    d, a = real(min_distance, "min_distance"), real(min_angle, "min_angle")
    n = len(matrices)
    out = np.zeros(max(n, 1), dtype=np.uint32)  # never more than n are selected: the buffer always suffices
    count = c_size_t(0)
    _trajectory_select(pose_array_ptr(matrices), n, d, a, out.ctypes.data_as(POINTER(c_uint32)), len(out), byref(count))
    return out[: count.value].astype(np.int64)
