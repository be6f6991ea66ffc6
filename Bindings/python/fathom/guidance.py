"""Capture guidance: face coverage of the box, camera-speed guidance, and trajectory summaries.

While a person walks around an object taking pictures, the capture app tells them which sides of the box
still need pictures and whether to walk faster or slower. This module is the Python front of the library's
``fathom_coverage_*``, ``fathom_motion_*`` and ``fathom_trajectory_*`` functions:

- :class:`Coverage` (a ``fathom_coverage`` handle) counts the views of each face of a :class:`fathom.Box`: each
  view's optical axis (the camera's -z) is cast at the box and the first face it meets is counted, unless a rule
  rejects the view (:class:`ViewStatus`). Faces are split into cells, and views are also binned by the direction
  from the box centre to the camera (equal-area rings x sectors about +y); :meth:`Coverage.next_view` says where
  to go next. Face colour and opacity follow the app's formulas (:class:`FaceCoverage`).
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
last column); many poses are a sequence of :class:`fathom.Pose` or an (N, 4, 4) array. Matrices are checked by
the library (rigid within :data:`fathom.RIGID_TOLERANCE`, finite), which raises :class:`fathom.NotRigidError` or
:class:`fathom.NotFiniteError` naming the pose.

Speeds are meters per second (the app's thresholds are 5, 8 and 10 inches per second: 0.127, 0.2032 and
0.254 m/s; :data:`INCH` converts). The app divides by 0.5 s although its timer period is 0.25 s and so shows
half the true speed; the library computes the true speed from the timestamps.

Coverage and motion trackers are not thread-safe: use each from one thread at a time.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from ctypes import POINTER, byref, c_float, c_int64, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from ._defaults import default_field, library_defaults
from ._arrays import pose_array_ptr, vec3_from_c
from ._handle import Handle
from ._lib import (
    CONSTANTS,
    BoxStruct,
    CoverageOptionsPtr,
    CoverageOptionsStruct,
    CoveragePtr,
    CoverageSummaryStruct,
    FaceCoverageStruct,
    FloatPtr,
    IntrinsicsPtr,
    MotionOptionsPtr,
    MotionOptionsStruct,
    MotionPtr,
    MotionStatePtr,
    MotionStateStruct,
    PosePtr,
    PoseStruct,
    TrajectorySummaryStruct,
    Vec3,
    ViewResultPtr,
    ViewResultStruct,
    c_function,
    status_function,
)
from .box import Box, Face
from .camera import Intrinsics, _intrinsics
from .depth import _enum, _real
from .geometry import Pose, _poses_column_major

__all__ = [
    "INCH",
    "MOTION_STATE_DTYPE",
    "VIEW_RESULT_DTYPE",
    "Coverage",
    "CoverageOptions",
    "CoverageSummary",
    "FaceCoverage",
    "Guidance",
    "Motion",
    "MotionOptions",
    "MotionState",
    "NextView",
    "TrajectorySummary",
    "ViewResult",
    "ViewStatus",
    "ns_to_seconds",
    "seconds_to_ns",
    "select_frames",
    "summarize_trajectory",
]

#: One inch in meters (the app's speed thresholds are in inches per second).
INCH = 0.0254

_NO_HIT = int(CONSTANTS["FATHOM_NO_HIT"])
_UINT32_MAX = 2**32 - 1
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

# ------------------------------------------------------------------------------------------------
# C functions
# ------------------------------------------------------------------------------------------------

_BoxPtr = POINTER(BoxStruct)
_coverage_options_init = status_function("fathom_coverage_options_init", CoverageOptionsPtr)
_coverage_create = status_function("fathom_coverage_create", _BoxPtr, CoverageOptionsPtr, POINTER(CoveragePtr))
_coverage_destroy = c_function("fathom_coverage_destroy", None, CoveragePtr)
_coverage_record = status_function("fathom_coverage_record", CoveragePtr, PosePtr, IntrinsicsPtr, ViewResultPtr)
_coverage_record_batch = status_function(
    "fathom_coverage_record_batch", CoveragePtr, PosePtr, c_size_t, IntrinsicsPtr, ViewResultPtr
)
_coverage_face = status_function("fathom_coverage_face", CoveragePtr, c_uint32, POINTER(FaceCoverageStruct))
_coverage_get_summary = status_function("fathom_coverage_get_summary", CoveragePtr, POINTER(CoverageSummaryStruct))
_coverage_cells = status_function("fathom_coverage_cells", CoveragePtr, c_uint32, POINTER(c_uint32), c_size_t)
_coverage_bins = status_function("fathom_coverage_bins", CoveragePtr, POINTER(c_uint32), FloatPtr, c_size_t)
_coverage_next_view = status_function(
    "fathom_coverage_next_view", CoveragePtr, c_float, POINTER(Vec3), POINTER(Vec3)
)
_coverage_reset = status_function("fathom_coverage_reset", CoveragePtr)

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


class ViewStatus(IntEnum):
    """Why a view was or was not counted (``fathom_view_status``)."""

    COUNTED = 0  # counted on its face
    MISSED = 1  # the optical axis does not meet the box (or the camera is inside it)
    TOO_CLOSE = 2  # the axis meets the box nearer than min_distance
    TOO_FAR = 3  # ... farther than max_distance
    OUT_OF_FRAME = 4  # fewer than min_in_view of the box's corners project inside the image
    TOO_SIMILAR = 5  # within min_separation_angle and min_separation_distance of a counted view


class Guidance(IntEnum):
    """Speed guidance (``fathom_guidance``): the app's "Speed Up" / "keep this speed" / "Slow Down"."""

    UNKNOWN = 0  # no speed yet (first pose, or after a gap)
    TOO_SLOW = 1  # speed < slow_speed
    SLIGHTLY_SLOW = 2  # slow_speed <= speed < slow_speed * (1 + slightly)
    OK = 3
    SLIGHTLY_FAST = 4  # fast_speed * (1 - slightly) < speed <= fast_speed
    TOO_FAST = 5  # speed > fast_speed


#: The numpy mirror of ``fathom_view_result`` (24 bytes): :meth:`Coverage.record_many` returns an array of it,
#: written by the library in place. ``face`` and ``completed_face`` are ``fathom.NO_HIT`` when there is none.
VIEW_RESULT_DTYPE = np.dtype(
    [
        ("status", np.uint32),
        ("face", np.uint32),
        ("cell", np.uint32),
        ("bin", np.uint32),
        ("distance", np.float32),
        ("completed_face", np.uint32),
    ],
    align=True,
)

#: The numpy mirror of ``fathom_motion_state`` (56 bytes): :meth:`Motion.update_many` returns an array of it.
#: ``timestamp`` is int64 nanoseconds, ``velocity`` (3,) float32 m/s; flags are 0 or 1.
MOTION_STATE_DTYPE = np.dtype(
    [
        ("timestamp", np.int64),
        ("velocity", np.float32, (3,)),
        ("speed", np.float32),
        ("angular_speed", np.float32),
        ("guidance", np.uint32),
        ("capture_interval", np.float32),
        ("time_to_capture", np.float32),
        ("captured", np.uint32),
        ("skipped", np.uint32),
        ("restarted", np.uint32),
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
        return seconds_to_ns(_real(value, name))
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


def _pose_arg(value: Any, name: str) -> Any:
    """Something ctypes passes as ``const fathom_pose *``: a Pose, or a (4, 4) matrix (the library checks it)."""
    if isinstance(value, Pose):
        return value
    if isinstance(value, (np.ndarray, list, tuple)):
        m = np.asarray(value, dtype=np.float32)
        if m.shape != (4, 4):
            raise ValueError(f"{name} must be a fathom.Pose or a (4, 4) matrix, got shape {m.shape}")
        c = PoseStruct()
        c.m[:] = np.ascontiguousarray(m.T).reshape(16).tolist()
        return byref(c)
    raise TypeError(f"{name} must be a fathom.Pose or a (4, 4) matrix, got {type(value).__name__}")


def _poses(values: Any, name: str) -> np.ndarray:
    """(N, 16) float32 column-major matrices from Pose objects or an (N, 4, 4) array."""
    if isinstance(values, Pose):
        raise TypeError(f"{name} must be a sequence of poses or an (N, 4, 4) array (for one pose, use [pose])")
    if isinstance(values, (list, tuple)) and values and not isinstance(values[0], Pose):
        values = np.asarray(values, dtype=np.float32)
    return _poses_column_major(values, name)


def _optional_intrinsics(value: Optional[Intrinsics]) -> Any:
    return None if value is None else byref(_intrinsics(value))


def _count(value: Any, name: str, maximum: int = _UINT32_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not 0 <= int(value) <= maximum:
        raise ValueError(f"{name} must be in 0..{maximum}, got {value}")
    return int(value)


def _tristate(value: Any, name: str) -> Optional[bool]:
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    raise TypeError(f"{name} must be True, False or None (the library decides from the box's floor), got {value!r}")


def _face(value: Any) -> Face:
    return _enum(value, Face, "face")  # type: ignore[return-value]


def _optional_face(value: int) -> Optional[Face]:
    return None if value == _NO_HIT else Face(value)


# ------------------------------------------------------------------------------------------------
# Coverage
# ------------------------------------------------------------------------------------------------


_coverage_defaults = library_defaults(CoverageOptionsStruct, _coverage_options_init, lambda c: CoverageOptions._from_c(c))


def _coverage_default(name: str) -> Any:
    return default_field(_coverage_defaults, name)


@dataclass(frozen=True)
class CoverageOptions:
    """Settings of a :class:`Coverage` tracker (``fathom_coverage_options``). Every default is the library's own,
    read from ``fathom_coverage_options_init`` on first use, so ``CoverageOptions()`` is the C default.

    Attributes:
        goal: views per face for it to be complete (the app's 10), >= 1.
        cells: each face is split into cells x cells cells, 1..64.
        rings, sectors: view-direction bins: rings of equal height (equal area) x sectors of equal azimuth
            about +y, each 1..256.
        hemisphere: True: bins over the upper hemisphere only (directions below the box centre count in the
            lowest ring); False: the whole sphere; None: True when the box has a floor.
        exclude_bottom: True: the bottom face is not needed for "complete"; None: True when the box has a floor.
        min_distance, max_distance: a view counts only if its axis meets the box within [min, max] meters.
        min_in_view: with intrinsics, the fraction of the box's 8 corners that must project inside the image.
        min_separation_angle, min_separation_distance: a view within this angle (radians, between directions
            from the box centre to the cameras) and this distance (meters) of a counted view is too similar;
            0 turns the check off.

    The library checks the values (:class:`fathom.OutOfRangeError` naming the setting) when a tracker is made.
    """

    goal: int = _coverage_default("goal")
    cells: int = _coverage_default("cells")
    rings: int = _coverage_default("rings")
    sectors: int = _coverage_default("sectors")
    hemisphere: Optional[bool] = _coverage_default("hemisphere")
    exclude_bottom: Optional[bool] = _coverage_default("exclude_bottom")
    min_distance: float = _coverage_default("min_distance")
    max_distance: float = _coverage_default("max_distance")
    min_in_view: float = _coverage_default("min_in_view")
    min_separation_angle: float = _coverage_default("min_separation_angle")
    min_separation_distance: float = _coverage_default("min_separation_distance")

    def __post_init__(self) -> None:
        set_ = functools.partial(object.__setattr__, self)
        for name in ("goal", "cells", "rings", "sectors"):
            set_(name, _count(getattr(self, name), name))
        for name in ("hemisphere", "exclude_bottom"):
            set_(name, _tristate(getattr(self, name), name))
        for name in ("min_distance", "max_distance", "min_in_view", "min_separation_angle", "min_separation_distance"):
            set_(name, _real(getattr(self, name), name))

    @classmethod
    def _from_c(cls, c: CoverageOptionsStruct) -> "CoverageOptions":
        def tri(v: int) -> Optional[bool]:
            return None if v < 0 else bool(v)

        return cls(
            goal=int(c.goal), cells=int(c.cells), rings=int(c.rings), sectors=int(c.sectors),
            hemisphere=tri(c.hemisphere), exclude_bottom=tri(c.exclude_bottom),
            min_distance=float(c.min_distance), max_distance=float(c.max_distance), min_in_view=float(c.min_in_view),
            min_separation_angle=float(c.min_separation_angle),
            min_separation_distance=float(c.min_separation_distance),
        )

    def _to_c(self) -> CoverageOptionsStruct:
        def tri(v: Optional[bool]) -> int:
            return -1 if v is None else int(v)

        return CoverageOptionsStruct(
            self.goal, self.cells, self.rings, self.sectors, tri(self.hemisphere), tri(self.exclude_bottom),
            self.min_distance, self.max_distance, self.min_in_view, self.min_separation_angle,
            self.min_separation_distance,
        )

    def replace(self, **changes: Any) -> "CoverageOptions":
        """A copy with some settings changed (unknown names raise TypeError)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class ViewResult:
    """What recording one view did.

    Attributes:
        status: :class:`ViewStatus` (``COUNTED`` if the view was counted).
        face: the :class:`fathom.Face` the optical axis meets first (also when not counted), or None on a miss.
        cell: the cell index ``b * cells + a`` on that face (:meth:`Coverage.cells` gives ``[b, a]``).
        bin: the camera's view-direction bin, ``ring * sectors + sector``.
        distance: along the axis to the face, meters (0 on a miss).
        completed_face: the face this view completed (its count reached the goal), else None; reported once per
            face until :meth:`Coverage.reset`.
    """

    status: ViewStatus
    face: Optional[Face]
    cell: int
    bin: int
    distance: float
    completed_face: Optional[Face]

    @property
    def counted(self) -> bool:
        """True if the view was counted."""
        return self.status == ViewStatus.COUNTED

    @classmethod
    def _from_c(cls, c: ViewResultStruct) -> "ViewResult":
        return cls(
            ViewStatus(c.status), _optional_face(c.face), int(c.cell), int(c.bin), float(c.distance),
            _optional_face(c.completed_face),
        )


@dataclass(frozen=True, eq=False)
class FaceCoverage:
    """One face's coverage, with the app's colour and opacity.

    Attributes:
        face: which face (:class:`fathom.Face`).
        count: views counted on it.
        progress: min(count / goal, 1).
        color: (3,) float32 RGB in [0, 1]: (1 - progress) * yellow (1, 1, 0) + progress * cyan (0, 1, 1).
        opacity: 0.25 + 0.5 * progress while progress < 1; 0 once complete (the face turns clear).
        complete: count >= goal.
        needed: whether the face counts toward "complete" (False for an excluded bottom).
    """

    face: Face
    count: int
    progress: float
    color: np.ndarray
    opacity: float
    complete: bool
    needed: bool

    @property
    def rgba(self) -> tuple[float, float, float, float]:
        """(r, g, b, opacity), as matplotlib takes a colour."""
        return (float(self.color[0]), float(self.color[1]), float(self.color[2]), self.opacity)

    @classmethod
    def _from_c(cls, face: Face, c: FaceCoverageStruct) -> "FaceCoverage":
        return cls(
            face, int(c.count), float(c.progress), np.array(c.color[:], np.float32), float(c.opacity),
            bool(c.complete), bool(c.needed),
        )

    def __repr__(self) -> str:
        return (
            f"FaceCoverage({self.face.name}, count={self.count}, progress={self.progress:.3g}, "
            f"opacity={self.opacity:.3g}, complete={self.complete}, needed={self.needed})"
        )


@dataclass(frozen=True)
class CoverageSummary:
    """A tracker's totals.

    Attributes:
        views: views recorded since the last reset; counted: of which counted.
        faces_complete: needed faces that are complete, of ``faces_needed`` (5 or 6).
        complete: True when every needed face is complete.
        angular_score: fraction of view-direction bins holding at least one counted view, [0, 1].
    """

    views: int
    counted: int
    faces_complete: int
    faces_needed: int
    complete: bool
    angular_score: float


class NextView(NamedTuple):
    """Where to go next: a unit ``direction`` from the box centre and a camera ``position`` along it, (3,) float32."""

    direction: np.ndarray
    position: np.ndarray


class Coverage(Handle):
    """Face coverage of a box by the recorded views (a ``fathom_coverage`` handle).

    Args:
        box: the :class:`fathom.Box` (copied: later edits of ``box`` do not change the tracker). A box whose
            floor is at or above its top has no faces: :class:`fathom.DegenerateError`.
        options: a :class:`CoverageOptions` (default: the library's).
        **overrides: settings as keyword arguments (``goal=5, cells=8``), overriding ``options``.

    Each :meth:`record` casts the camera's optical axis (its -z) at the box and counts the first face it meets,
    unless a rule of the options rejects the view (:attr:`ViewResult.status` says which). Free the tracker with
    :meth:`close` or a ``with`` block (the garbage collector frees it too). Not thread-safe.
    """

    __slots__ = ("_box", "_options")
    _destroy = _coverage_destroy

    def __init__(self, box: Box, options: Optional[CoverageOptions] = None, **overrides: Any) -> None:
        self._ptr = None  # so __del__ sees a valid (closed) object if a check below raises
        if not isinstance(box, Box):
            raise TypeError(f"box must be a fathom.Box, got {type(box).__name__}")
        base = _coverage_defaults() if options is None else options
        if not isinstance(base, CoverageOptions):
            raise TypeError(f"options must be a fathom.CoverageOptions, got {type(base).__name__}")
        self._options = base.replace(**overrides) if overrides else base
        self._box = Box._wrap(BoxStruct.from_buffer_copy(box._c))
        out = CoveragePtr()
        _coverage_create(self._box, byref(self._options._to_c()), byref(out))
        Handle.__init__(self, out)

    # -- settings -----------------------------------------------------------------------------------

    @property
    def box(self) -> Box:
        """A copy of the tracker's box."""
        return Box._wrap(BoxStruct.from_buffer_copy(self._box._c))

    @property
    def options(self) -> CoverageOptions:
        """The settings the tracker was made with (``hemisphere``/``exclude_bottom`` None: decided by the floor)."""
        return self._options

    @property
    def hemisphere(self) -> bool:
        """Whether the view bins cover the upper hemisphere only (the option, or: the box has a floor)."""
        h = self._options.hemisphere
        return self._box.floor is not None if h is None else h

    # -- recording ----------------------------------------------------------------------------------

    def record(self, pose: Union[Pose, np.ndarray], intrinsics: Optional[Intrinsics] = None) -> ViewResult:
        """Records one view from ``pose`` (camera-to-world: a :class:`fathom.Pose` or a (4, 4) matrix).

        With ``intrinsics`` the ``min_in_view`` rule is checked. Returns the :class:`ViewResult`.
        """
        p = _pose_arg(pose, "pose")
        k = _optional_intrinsics(intrinsics)
        out = ViewResultStruct()
        _coverage_record(self._handle(), p, k, byref(out))
        return ViewResult._from_c(out)

    def record_many(self, poses: Union[Sequence[Pose], np.ndarray], intrinsics: Optional[Intrinsics] = None) -> np.ndarray:
        """Records many views in order (``fathom_coverage_record_batch``): an (N,) :data:`VIEW_RESULT_DTYPE` array.

        ``poses``: a sequence of :class:`fathom.Pose` or an (N, 4, 4) array. A pose that is not rigid (or not
        finite) raises naming its index; the views before it stay recorded. No poses give an empty array.
        """
        matrices = _poses(poses, "poses")
        k = _optional_intrinsics(intrinsics)
        handle = self._handle()
        out = np.zeros(len(matrices), dtype=VIEW_RESULT_DTYPE)
        if len(matrices):
            _coverage_record_batch(
                handle, pose_array_ptr(matrices), len(matrices), k, out.ctypes.data_as(ViewResultPtr)
            )
        return out

    def reset(self) -> None:
        """Forgets every view: counts, completion events and the similarity memory (box and options stay)."""
        _coverage_reset(self._handle())

    # -- queries ------------------------------------------------------------------------------------

    def face(self, face: Union[Face, int, str]) -> FaceCoverage:
        """One face's :class:`FaceCoverage` (``face``: a :class:`fathom.Face`, its index or its name)."""
        f = _face(face)
        out = FaceCoverageStruct()
        _coverage_face(self._handle(), int(f), byref(out))
        return FaceCoverage._from_c(f, out)

    def faces(self) -> list[FaceCoverage]:
        """The six faces' coverage in :class:`fathom.Face` order."""
        return [self.face(f) for f in Face]

    def summary(self) -> CoverageSummary:
        """The tracker's totals (:class:`CoverageSummary`)."""
        out = CoverageSummaryStruct()
        _coverage_get_summary(self._handle(), byref(out))
        return CoverageSummary(
            int(out.views), int(out.counted), int(out.faces_complete), int(out.faces_needed), bool(out.complete),
            float(out.angular_score),
        )

    @property
    def complete(self) -> bool:
        """True when every needed face has reached the goal."""
        return self.summary().complete

    def cells(self, face: Union[Face, int, str]) -> np.ndarray:
        """A face's cell counts as a (cells, cells) uint32 array indexed ``[b, a]``.

        On the face's plane the hit is located along two local box axes: (x, y) for front/back, (z, y) for
        left/right, (x, z) for bottom/top; ``a`` runs along the first, ``b`` along the second, from the negative
        side (``a = floor((coordinate / extent + 1/2) * cells)``).
        """
        f = _face(face)
        n = self._options.cells
        out = np.zeros((n, n), dtype=np.uint32)
        _coverage_cells(self._handle(), int(f), out.ctypes.data_as(POINTER(c_uint32)), out.size)
        return out

    def bins(self) -> tuple[np.ndarray, np.ndarray]:
        """The view-direction bins: ``(counts, directions)``.

        ``counts`` is (rings, sectors) uint32 (counted views per bin); ``directions`` (rings, sectors, 3) float32,
        each bin's centre as a unit world direction from the box centre: height y at the ring's middle, azimuth
        at the sector's middle, measured from +x toward +z. Ring 0 is the lowest.
        """
        rings, sectors = self._options.rings, self._options.sectors
        counts = np.zeros((rings, sectors), dtype=np.uint32)
        directions = np.zeros((rings, sectors, 3), dtype=np.float32)
        _coverage_bins(
            self._handle(), counts.ctypes.data_as(POINTER(c_uint32)), directions.ctypes.data_as(FloatPtr), counts.size
        )
        return counts, directions

    def next_view(self, distance: Optional[float] = None) -> NextView:
        """Where to go next: the centre of the least-covered view bin (fewest counted views; ties: the bin
        farthest in angle from every bin holding a view, then the lowest index).

        Returns :class:`NextView` ``(direction, position)``: a unit direction from the box centre, and the camera
        position ``distance`` meters from the centre along it. ``distance`` None: the distance (from the box
        centre) of the last counted view; :class:`fathom.InvalidStateError` if none was counted yet.
        """
        if distance is None:
            d = 0.0
        else:
            d = _real(distance, "distance")
            if not d > 0:
                raise ValueError(f"distance must be > 0 meters (None: that of the last counted view), got {distance}")
        direction, position = Vec3(), Vec3()
        _coverage_next_view(self._handle(), d, byref(direction), byref(position))
        return NextView(vec3_from_c(direction), vec3_from_c(position))

    # -- display ------------------------------------------------------------------------------------

    def __repr__(self) -> str:
        if self._ptr is None:
            return "Coverage(<closed>)"
        s = self.summary()
        counts = ", ".join(f"{f.face.name.lower()}={f.count}" for f in self.faces())
        return (
            f"Coverage(goal={self._options.goal}, views={s.views}, counted={s.counted}, "
            f"faces_complete={s.faces_complete}/{s.faces_needed}, angular_score={s.angular_score:.3g}, {counts})"
        )


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
            set_(name, _real(getattr(self, name), name))
        iv = self.intervals
        if isinstance(iv, (str, bytes)) or np.shape(iv) != (3,):
            raise ValueError(f"intervals must be 3 numbers (seconds), got {iv!r}")
        set_("intervals", tuple(_real(v, f"intervals[{i}]") for i, v in enumerate(iv)))

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

    def update(self, timestamp: Union[int, float], pose: Union[Pose, np.ndarray], *, seconds: bool = False) -> MotionState:
        """Feeds one pose taken at ``timestamp`` (int nanoseconds; float seconds with ``seconds=True``) and
        returns the new :class:`MotionState`. ``pose``: camera-to-world :class:`fathom.Pose` or (4, 4) matrix."""
        t = _timestamp(timestamp, seconds)
        p = _pose_arg(pose, "pose")
        out = MotionStateStruct()
        _motion_update(self._handle(), t, p, byref(out))
        return MotionState._from_c(out)

    def update_many(
        self, timestamps: Any, poses: Union[Sequence[Pose], np.ndarray], *, seconds: bool = False
    ) -> np.ndarray:
        """Feeds N poses in order (``fathom_motion_update_batch``): an (N,) :data:`MOTION_STATE_DTYPE` array of
        the state after each.

        ``timestamps``: (N,) integer nanoseconds (float seconds with ``seconds=True``); ``poses``: a sequence of
        :class:`fathom.Pose` or an (N, 4, 4) array. A bad pose or timestamp raises naming its index; the poses
        before it stay applied.
        """
        matrices = _poses(poses, "poses")
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
    poses: Union[Sequence[Pose], np.ndarray],
    *,
    seconds: bool = False,
    options: Optional[MotionOptions] = None,
    **overrides: Any,
) -> TrajectorySummary:
    """Summarizes N >= 2 timestamped camera poses (``fathom_trajectory_summarize``).

    ``timestamps``: (N,) non-decreasing integer nanoseconds (float seconds with ``seconds=True``); ``poses``: a
    sequence of :class:`fathom.Pose` or an (N, 4, 4) array. Speeds are unsmoothed unless the options'
    ``time_constant`` says otherwise; settings as for :class:`Motion`. Raises :class:`fathom.OutOfRangeError` for
    fewer than 2 poses or a decreasing timestamp (naming its index).
    """
    o = _options(options, overrides)
    matrices = _poses(poses, "poses")
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
    poses: Union[Sequence[Pose], np.ndarray], min_distance: float = math.inf, min_angle: float = math.inf
) -> np.ndarray:
    """Frames for a reconstruction (``fathom_trajectory_select``): pose 0, then every pose at least
    ``min_distance`` meters from the last selected one or turned at least ``min_angle`` radians from it.

    Either threshold may be ``math.inf`` to ignore it; at least one must be finite and > 0
    (:class:`fathom.OutOfRangeError`). Returns the selected indices, ascending, as an int64 array.
    """
    matrices = _poses(poses, "poses")
    d, a = _real(min_distance, "min_distance"), _real(min_angle, "min_angle")
    n = len(matrices)
    out = np.zeros(max(n, 1), dtype=np.uint32)  # never more than n are selected: the buffer always suffices
    count = c_size_t(0)
    _trajectory_select(pose_array_ptr(matrices), n, d, a, out.ctypes.data_as(POINTER(c_uint32)), len(out), byref(count))
    return out[: count.value].astype(np.int64)
