"""Capture reports: a whole capture turned into measurements, frame by frame or from a scan's files.

:class:`Capture` (a ``fathom_capture`` handle) is fed each frame's timestamp, pose, RGB intrinsics and depth,
live from an app or from a :class:`fathom.Scan`, and gives at any moment the speed guidance, the current box
estimate and the coverage so far; :meth:`Capture.report` gives the full :class:`ScanReport`.
:func:`scan_report` is that builder fed from a scan's files, so an app and a notebook get the same numbers.

What a report does: depth samples of confidence >= ``min_confidence`` within ``max_depth`` are fused into a voxel
grid (from frames that moved ``fuse_distance`` or turned ``fuse_angle`` since the last fused one: 60 fps depth
repeats itself). Each voxel counts how many of its samples a camera saw from above, so a surface seen from
below (a ceiling) is never a floor. The report's surfaces: the ``floor`` is the lowest upward-facing horizontal
surface covering ``floor_min_area`` (however sparse and grazing), the ``ceiling`` the highest downward-facing one
above every camera. An object is estimated only on an object capture (``orbit_min_views`` views of the point
nearest every optical axis, spanning ``orbit_min_span`` around it): it is the cluster of voxels standing on the
``support`` (the highest upward surface under that point with something on it: a table top or the floor)
nearest that point, inside the cameras' circle; its box is the upright box of least footprint reaching down to
the support. Otherwise ``object_reason`` says why there is none. The box given, or the ``boundingbox.json``
beside the scan, wins over the estimate. Speed guidance runs over every frame; coverage counts the
views the capture app would have taken (the motion tracker's automatic captures); frames are selected for a
reconstruction by distance and angle.

A :class:`ScanReport` is plain data (numpy arrays and the report's JSON): picklable, JSON-serialisable with
:meth:`ScanReport.to_json`, and saved with :meth:`ScanReport.save` (``report.json``, ``cloud.ply``,
``object.ply``, and PNG plots when matplotlib is installed). A :class:`Capture` is not thread-safe; different
captures and reports may be used on different threads at once (the library releases the GIL).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import stat
from ctypes import POINTER, byref, c_bool, c_char, c_char_p, c_int64, c_size_t, c_uint32, c_void_p
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np

from ._arrays import pose_struct
from ._defaults import default_field, library_defaults
from ._handle import Handle
from ._progress import with_progress
from ._scalars import path_bytes
from ._sized import sized_text
from ._lib import (
    BoxStruct,
    CaptureOpaque,
    CaptureOptionsStruct,
    CaptureStatusStruct,
    CoveragePtr,
    DepthFramePtr,
    FloatPtr,
    IntrinsicsPtr,
    MotionStatePtr,
    MotionStateStruct,
    PointCloudPtr,
    PosePtr,
    ProgressFn,
    ReportOpaque,
    ReportSummaryStruct,
    ScanPtr,
    c_function,
    status_function,
)
from .box import Box
from .camera import intrinsics_struct
from .coverage import Coverage, CoverageOptions, CoverageSummary
from .depth import DepthFrame
from .geometry import PoseLike
from .motion import MotionOptions, MotionState, TrajectorySummary
from .pointcloud import PointCloud
from .scan import Scan

__all__ = ["BoxSource", "Capture", "CaptureOptions", "CaptureStatus", "ReportCoverage", "ScanReport", "scan_report"]

_CapturePtr = POINTER(CaptureOpaque)
_ReportPtr = POINTER(ReportOpaque)

_options_init = status_function("fathom_capture_options_init", POINTER(CaptureOptionsStruct))
_capture_create = status_function(
    "fathom_capture_create", POINTER(CaptureOptionsStruct), POINTER(BoxStruct), POINTER(_CapturePtr)
)
_capture_destroy = c_function("fathom_capture_destroy", None, _CapturePtr)
_capture_add_frame = status_function("fathom_capture_add_frame", _CapturePtr, c_int64, DepthFramePtr, MotionStatePtr)
_capture_add_pose = status_function("fathom_capture_add_pose", _CapturePtr, c_int64, PosePtr, IntrinsicsPtr, MotionStatePtr)
_capture_wants_depth = status_function("fathom_capture_wants_depth", _CapturePtr, PosePtr, POINTER(c_bool))
_capture_get_status = status_function("fathom_capture_get_status", _CapturePtr, POINTER(CaptureStatusStruct))
_capture_box = status_function("fathom_capture_box", _CapturePtr, POINTER(BoxStruct))
_capture_coverage = status_function("fathom_capture_coverage", _CapturePtr, POINTER(BoxStruct), POINTER(CoveragePtr))
_capture_cloud = status_function("fathom_capture_cloud", _CapturePtr, POINTER(PointCloudPtr))
_capture_report = status_function("fathom_capture_report", _CapturePtr, POINTER(_ReportPtr))
_scan_report = status_function(
    "fathom_scan_report", ScanPtr, POINTER(CaptureOptionsStruct), POINTER(BoxStruct), ProgressFn, c_void_p, POINTER(_ReportPtr)
)
_report_destroy = c_function("fathom_report_destroy", None, _ReportPtr)
# Not called by ScanReport, which takes every number of this struct (and the rest) from fathom_report_json's text;
# declared so that the binding covers the whole header (tests/test_prototypes.py) and the tests can compare the two.
_report_get_summary = status_function("fathom_report_get_summary", _ReportPtr, POINTER(ReportSummaryStruct))
_report_json = status_function("fathom_report_json", _ReportPtr, POINTER(c_char), c_size_t, POINTER(c_size_t))
_report_cloud = status_function("fathom_report_cloud", _ReportPtr, c_uint32, POINTER(PointCloudPtr))
_report_save = status_function("fathom_report_save", _ReportPtr, c_char_p)
_report_html = status_function("fathom_report_html", _ReportPtr, POINTER(c_char), c_size_t, POINTER(c_size_t))
_report_from_json = status_function(
    "fathom_report_from_json", c_char_p, c_size_t, FloatPtr, c_size_t, c_size_t, FloatPtr, c_size_t, c_size_t, POINTER(_ReportPtr)
)


def _from_c_options(c: CaptureOptionsStruct) -> "CaptureOptions":
    return CaptureOptions(
        min_confidence=int(c.min_confidence), max_depth=float(c.max_depth), plausible_depth=float(c.plausible_depth), voxel=float(c.voxel),
        fuse_distance=float(c.fuse_distance), fuse_angle=float(c.fuse_angle), min_voxel_points=int(c.min_voxel_points),
        floor_threshold=float(c.floor_threshold), floor_iterations=int(c.floor_iterations),
        floor_max_tilt=float(c.floor_max_tilt), object_clearance=float(c.object_clearance),
        floor_min_area=float(c.floor_min_area), orbit_min_span=float(c.orbit_min_span),
        orbit_min_views=int(c.orbit_min_views), select_distance=float(c.select_distance), select_angle=float(c.select_angle), seed=int(c.seed),
        motion=MotionOptions._from_c(c.motion), coverage=CoverageOptions._from_c(c.coverage),
    )


_capture_defaults = library_defaults(CaptureOptionsStruct, _options_init, _from_c_options)


def _default(name: str) -> Any:
    return default_field(_capture_defaults, name)


@dataclass(frozen=True)
class CaptureOptions:
    """Settings of a capture report (``fathom_capture_options``); every default is the library's own.

    Attributes:
        min_confidence: depth samples of lower confidence are not fused (ARKit: 0 low, 1 medium, 2 high).
        max_depth: farther samples are not fused, meters (``math.inf``: none).
        plausible_depth: depth beyond it (meters), negative or NaN is no sensor's: never fused, and counted per
            frame in the report's warnings (``math.inf``: only negative and NaN samples are counted).
        voxel: edge of the voxels the fused cloud is downsampled to, meters.
        fuse_distance, fuse_angle: a frame is fused when the camera moved this far (m) or turned this much (rad)
            since the last fused frame.
        min_voxel_points: voxels with fewer samples are left out of the object.
        floor_threshold, floor_iterations, floor_max_tilt: the RANSAC of horizontal surfaces (inlier distance m,
            iterations, the largest tilt from horizontal in radians).
        object_clearance: object voxels lie at least this far above the support, meters.
        floor_min_area: the floor and the ceiling cover at least this much of the floor plan, m^2.
        orbit_min_span, orbit_min_views: an object capture's views of the focus span this angle (radians) around
            it, and there are at least this many.
        select_distance, select_angle: frame selection for a reconstruction.
        seed: RANSAC seed (results depend only on the data and the options).
        motion: :class:`fathom.MotionOptions` of the speed guidance; coverage: :class:`fathom.CoverageOptions`.
    """

    min_confidence: int = _default("min_confidence")
    max_depth: float = _default("max_depth")
    plausible_depth: float = _default("plausible_depth")
    voxel: float = _default("voxel")
    fuse_distance: float = _default("fuse_distance")
    fuse_angle: float = _default("fuse_angle")
    min_voxel_points: int = _default("min_voxel_points")
    floor_threshold: float = _default("floor_threshold")
    floor_iterations: int = _default("floor_iterations")
    floor_max_tilt: float = _default("floor_max_tilt")
    object_clearance: float = _default("object_clearance")
    floor_min_area: float = _default("floor_min_area")
    orbit_min_span: float = _default("orbit_min_span")
    orbit_min_views: int = _default("orbit_min_views")
    select_distance: float = _default("select_distance")
    select_angle: float = _default("select_angle")
    seed: int = _default("seed")
    motion: MotionOptions = _default("motion")
    coverage: CoverageOptions = _default("coverage")

    def replace(self, **changes: Any) -> "CaptureOptions":
        """A copy with some settings changed (unknown names are a TypeError)."""
        return dataclasses.replace(self, **changes)

    def _to_c(self) -> CaptureOptionsStruct:
        for name in ("min_confidence", "min_voxel_points", "floor_iterations", "orbit_min_views", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")
        if not isinstance(self.motion, MotionOptions):
            raise TypeError(f"motion must be a fathom.MotionOptions, got {type(self.motion).__name__}")
        if not isinstance(self.coverage, CoverageOptions):
            raise TypeError(f"coverage must be a fathom.CoverageOptions, got {type(self.coverage).__name__}")
        try:
            return CaptureOptionsStruct(
                min(int(self.min_confidence), 2**32 - 1), float(self.max_depth), float(self.plausible_depth), float(self.voxel), float(self.fuse_distance),
                float(self.fuse_angle), min(int(self.min_voxel_points), 2**32 - 1), float(self.floor_threshold),
                min(int(self.floor_iterations), 2**32 - 1), float(self.floor_max_tilt), float(self.object_clearance),
                float(self.floor_min_area), float(self.orbit_min_span), min(int(self.orbit_min_views), 2**32 - 1),
                float(self.select_distance), float(self.select_angle), int(self.seed) & (2**64 - 1),
                self.motion._to_c(), self.coverage._to_c(),
            )
        except (TypeError, ValueError) as exc:
            raise TypeError(f"CaptureOptions: {exc}") from None


def _options(options: Optional[CaptureOptions], overrides: dict[str, Any]) -> CaptureOptions:
    base = _capture_defaults() if options is None else options
    if not isinstance(base, CaptureOptions):
        raise TypeError(f"options must be a fathom.CaptureOptions, got {type(base).__name__}")
    return base.replace(**overrides) if overrides else base


def _box_arg(box: Optional[Box]) -> Any:
    if box is None:
        return None
    if not isinstance(box, Box):
        raise TypeError(f"box must be a fathom.Box or None, got {type(box).__name__}")
    return byref(box._c)


class BoxSource(IntEnum):
    """Where a report's box came from (``fathom_box_source``)."""

    NONE = 0        #: no object found, none given
    GIVEN = 1       #: given by the caller
    MANIFEST = 2    #: read from the boundingbox.json beside the scan
    FITTED = 3      #: estimated from the depth


@dataclass(frozen=True)
class CaptureStatus:
    """Where a :class:`Capture` stands: frames added and fused, voxels in the cloud, views the app would
    have captured, and the speed state after the last frame."""

    frames: int
    fused_frames: int
    cloud_points: int
    captures: int
    motion: MotionState


class Capture(Handle):
    """A capture being measured, fed frame by frame (a ``fathom_capture`` handle).

    Args:
        box: the object's :class:`fathom.Box`, or None to estimate it from the depth.
        options: :class:`CaptureOptions` (default: the library's); ``**overrides`` change single settings.

    Not thread-safe: feed and query one capture from one thread at a time.
    """

    __slots__ = ("_options",)
    _destroy = _capture_destroy

    def __init__(self, box: Optional[Box] = None, options: Optional[CaptureOptions] = None, **overrides: Any) -> None:
        self._ptr = None
        self._options = _options(options, overrides)
        out = _CapturePtr()
        _capture_create(byref(self._options._to_c()), _box_arg(box), byref(out))
        Handle.__init__(self, out)

    @property
    def options(self) -> CaptureOptions:
        return self._options

    def add_frame(self, frame: DepthFrame, timestamp: int) -> MotionState:
        """Adds a frame: its :class:`fathom.DepthFrame` (with its pose; the frame's intrinsics are the RGB
        image's) and its timestamp in integer nanoseconds. Returns the speed state after it."""
        if not isinstance(frame, DepthFrame):
            raise TypeError(f"frame must be a fathom.DepthFrame, got {type(frame).__name__}")
        state = MotionStateStruct()
        _capture_add_frame(self, _ns(timestamp), byref(frame._c), byref(state))
        return MotionState._from_c(state)

    def add_pose(self, timestamp: int, pose: PoseLike, intrinsics: Any) -> MotionState:
        """Adds a frame without depth: its timestamp (ns), camera-to-world pose (a :class:`fathom.Pose` or a (4, 4)
        matrix, which the library checks is rigid) and RGB intrinsics."""
        state = MotionStateStruct()
        p = byref(pose_struct(pose, "pose"))
        _capture_add_pose(self, _ns(timestamp), p, byref(intrinsics_struct(intrinsics)), byref(state))
        return MotionState._from_c(state)

    def wants_depth(self, pose: PoseLike) -> bool:
        """Whether a frame at ``pose`` would have its depth fused (so a reader can skip reading it)."""
        out = c_bool()
        _capture_wants_depth(self, byref(pose_struct(pose, "pose")), byref(out))
        return bool(out.value)

    @property
    def status(self) -> CaptureStatus:
        c = CaptureStatusStruct()
        _capture_get_status(self, byref(c))
        return CaptureStatus(int(c.frames), int(c.fused_frames), int(c.cloud_points), int(c.captures),
                             MotionState._from_c(c.motion))

    @property
    def box(self) -> Optional[Box]:
        """The box now: the given one or the estimate so far (None before an object is found)."""
        from .errors import NoDataError

        c = BoxStruct()
        try:
            _capture_box(self, byref(c))
        except NoDataError:
            return None
        return Box._wrap(c)

    def coverage(self, box: Optional[Box] = None) -> Coverage:
        """A new :class:`fathom.Coverage` of ``box`` (default: the current box) holding the views captured so far."""
        out = CoveragePtr()
        _capture_coverage(self, _box_arg(box), byref(out))
        tracker = Coverage.__new__(Coverage)
        tracker._box = box if box is not None else self.box
        tracker._options = self._options.coverage
        Handle.__init__(tracker, out)
        return tracker

    def cloud(self) -> np.ndarray:
        """The fused cloud so far: (M, 3) float32 world points, one per voxel."""
        out = PointCloudPtr()
        _capture_cloud(self, byref(out))
        with PointCloud._from_pointer(out) as cloud:
            return cloud.points

    def report(self) -> "ScanReport":
        """The report of everything added so far (the capture may go on)."""
        out = _ReportPtr()
        _capture_report(self, byref(out))
        return ScanReport._take(out)

    def __repr__(self) -> str:
        if self.closed:
            return "<fathom.Capture (closed)>"
        s = self.status
        return f"<fathom.Capture: {s.frames} frames, {s.fused_frames} fused, {s.cloud_points} voxels, {s.captures} captures>"


def _ns(timestamp: Any) -> int:
    if isinstance(timestamp, bool) or not isinstance(timestamp, (int, np.integer)):
        raise TypeError(f"timestamp must be integer nanoseconds, got {type(timestamp).__name__}")
    if not -(2**63) <= int(timestamp) < 2**63:
        raise OverflowError(f"timestamp {timestamp} does not fit in int64")
    return int(timestamp)


@dataclass(frozen=True)
class ReportCoverage(CoverageSummary):
    """Face coverage of a report's box by the captured views (the capture app's counts): the totals of a
    :class:`fathom.CoverageSummary`, and

    Attributes:
        faces: per face (front, left, right, bottom, top, back): dicts with count, progress, color, opacity,
            complete, needed.
        bins: view-direction bin counts; next_view: ``(direction, position)`` arrays or None.
    """

    faces: list
    bins: np.ndarray
    next_view: Optional[tuple]

    @property
    def counts(self) -> np.ndarray:
        """(6,) counted views per face."""
        return np.array([f["count"] for f in self.faces], dtype=np.int64)


class ScanReport:
    """A capture's measurements (plain data: picklable; :meth:`to_json` gives ``report.json``).

    Attributes:
        box: the object's :class:`fathom.Box` (None when no object was found), box_source: :class:`BoxSource`.
        floor, support, ceiling: dicts (height: world y m, normal, inliers: voxels, rms m, area m^2, extent_min and
            extent_max: x-z bounds, seen_from_above: fraction of samples) or None; room_height: ceiling above
            floor (m) or None.
        focus: (3,) the point the cameras look at, or None; orbit: dict (focus, views, span rad, radius m, rms m)
            or None; object_capture: whether the views circle the focus; object_voxels: the estimated object's
            voxels; object_reason: why there is no object (None when there is one or the box was given).
        cloud: (M, 3) float32 fused cloud (voxel means); object: (K, 3) its points inside the box.
        trajectory: :class:`fathom.TrajectorySummary` (None with fewer than 2 frames).
        speed: dict of (N,) arrays over the frames: time (s from the first frame), speed (m/s), angular_speed
            (rad/s), guidance (str).
        coverage: :class:`ReportCoverage` (None without a box).
        captures: frames the app would have captured; selected_frames: frames for a reconstruction.
        warnings: what was wrong but readable (the scan's and the report's own).
    """

    __slots__ = ("_data", "cloud", "object")

    def __init__(self, data: dict, cloud: np.ndarray, object: np.ndarray) -> None:  # noqa: A002
        self._data = data
        self.cloud = cloud
        self.object = object

    @classmethod
    def _take(cls, pointer: Any) -> "ScanReport":
        """Builds a report from a ``fathom_report`` handle and frees the handle."""
        try:
            data = json.loads(sized_text(_report_json, pointer))
            clouds = []
            for which in (0, 1):
                out = PointCloudPtr()
                _report_cloud(pointer, which, byref(out))
                with PointCloud._from_pointer(out) as cloud:
                    clouds.append(cloud.points)
        finally:
            _report_destroy(pointer)
        return cls(data, clouds[0], clouds[1])

    @classmethod
    def load(cls, directory: Union[str, os.PathLike]) -> "ScanReport":
        """Reads a report saved by :meth:`save` (or ``fathom report --out``, or ``fathom_report_save``): its
        ``report.json``, ``cloud.ply`` and ``object.ply`` (absent: no points)."""
        from .errors import FathomIOError
        from .pointcloud import read_ply

        directory = os.fspath(directory)
        path = os.path.join(directory, "report.json")
        # Opened without blocking and checked, as the library opens files: a FIFO would wait for a writer forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise FathomIOError(FathomIOError.STATUS, "FATHOM_ERR_IO", f"ScanReport.load: '{path}' is not a regular file")
            os.set_blocking(fd, True)
            with os.fdopen(fd, "rb") as f:
                fd = -1
                data = json.loads(f.read().decode("utf-8"))
        finally:
            if fd >= 0:
                os.close(fd)
        clouds = []
        for name in ("cloud.ply", "object.ply"):
            path = os.path.join(directory, name)
            clouds.append(read_ply(path).points if os.path.exists(path) or name == "cloud.ply" else np.zeros((0, 3), np.float32))
        report = cls(data, clouds[0], clouds[1])
        with report._library_report():  # the library checks the JSON and the clouds
            pass
        return report

    @contextlib.contextmanager
    def _library_report(self) -> Iterator[Any]:
        """The library's report rebuilt from the JSON and the clouds (``fathom_report_from_json``), freed on exit."""
        text = json.dumps(self._data, allow_nan=False).encode("utf-8")
        cloud = np.ascontiguousarray(self.cloud, dtype=np.float32).reshape(-1, 3)
        obj = np.ascontiguousarray(self.object, dtype=np.float32).reshape(-1, 3)
        out = _ReportPtr()
        _report_from_json(text, len(text), cloud.ctypes.data_as(FloatPtr), len(cloud), 12,
                          obj.ctypes.data_as(FloatPtr), len(obj), 12, byref(out))
        try:
            yield out
        finally:
            _report_destroy(out)

    # -- fields -------------------------------------------------------------------------------------

    @property
    def scan_id(self) -> Optional[str]:
        return self._data["scan_id"]

    @property
    def frames(self) -> int:
        return int(self._data["frames"])

    @property
    def fused_frames(self) -> int:
        return int(self._data["fused_frames"])

    @property
    def duration(self) -> float:
        return float(self._data["duration"])

    @property
    def box(self) -> Optional[Box]:
        b = self._data["box"]
        if b is None:
            return None
        return Box(center=b["center"], scale=b["scale"], rot_y=b["rot_y"], floor=b["floor"])

    @property
    def box_source(self) -> BoxSource:
        return BoxSource[self._data["box_source"].upper()]

    @property
    def floor(self) -> Optional[dict]:
        return self._data["floor"]

    @property
    def support(self) -> Optional[dict]:
        return self._data["support"]

    @property
    def ceiling(self) -> Optional[dict]:
        return self._data["ceiling"]

    @property
    def room_height(self) -> Optional[float]:
        return self._data["room_height"]

    @property
    def orbit(self) -> Optional[dict]:
        return self._data["orbit"]

    @property
    def object_capture(self) -> bool:
        return bool(self._data["object_capture"])

    @property
    def object_voxels(self) -> int:
        return int(self._data["object_voxels"])

    @property
    def object_reason(self) -> Optional[str]:
        return self._data["object_reason"]

    @property
    def focus(self) -> Optional[np.ndarray]:
        f = self._data["focus"]
        return None if f is None else np.array(f, dtype=np.float64)

    @property
    def trajectory(self) -> Optional[TrajectorySummary]:
        t = self._data["trajectory"]
        return None if t is None else TrajectorySummary(**{k: (int(v) if k == "steps" else float(v)) for k, v in t.items()})

    @property
    def speed(self) -> dict:
        s = self._data["speed"]
        return {
            "time": np.array(s["time"], dtype=np.float64),
            "speed": np.array([math.nan if v is None else v for v in s["speed"]], dtype=np.float64),
            "angular_speed": np.array([math.nan if v is None else v for v in s["angular_speed"]], dtype=np.float64),
            "guidance": np.array(s["guidance"], dtype=object),
        }

    @property
    def coverage(self) -> Optional[ReportCoverage]:
        c = self._data["coverage"]
        if c is None:
            return None
        nv = c["next_view"]
        return ReportCoverage(
            faces=c["faces"], views=int(c["views"]), counted=int(c["counted"]), faces_complete=int(c["faces_complete"]),
            faces_needed=int(c["faces_needed"]), complete=bool(c["complete"]), angular_score=float(c["angular_score"]),
            bins=np.array(c["bins"], dtype=np.int64),
            next_view=None if nv is None else (np.array(nv["direction"]), np.array(nv["position"])),
        )

    @property
    def captures(self) -> np.ndarray:
        return np.array(self._data["captures"], dtype=np.int64)

    @property
    def selected_frames(self) -> np.ndarray:
        return np.array(self._data["selected_frames"], dtype=np.int64)

    @property
    def warnings(self) -> list[str]:
        return list(self._data["warnings"])

    def row(self) -> dict:
        """The report's main numbers as a flat dict: one row of a table over many captures (pandas:
        ``DataFrame([r.row() for r in reports])``). Missing values are NaN."""
        nan = math.nan
        box, floor, t, c = self.box, self.floor, self.trajectory, self.coverage
        center = box.center if box is not None else (nan, nan, nan)
        scale = box.scale if box is not None else (nan, nan, nan)
        return {
            "scan_id": self.scan_id, "frames": self.frames, "duration": self.duration,
            "box_source": self.box_source.name.lower(),
            "center_x": float(center[0]), "center_y": float(center[1]), "center_z": float(center[2]),
            "scale_x": float(scale[0]), "scale_y": float(scale[1]), "scale_z": float(scale[2]),
            "rot_y": float(box.rot_y) if box is not None else nan,
            "floor_height": float(floor["height"]) if floor else nan,
            "support_height": float(self.support["height"]) if self.support else nan,
            "room_height": float(self.room_height) if self.room_height is not None else nan,
            "object_capture": self.object_capture,
            "path_length": t.path_length if t else nan, "speed_p50": t.speed_p50 if t else nan,
            "time_too_fast": t.time_too_fast if t else nan,
            "captures": len(self.captures), "faces_complete": c.faces_complete if c else 0,
            "angular_score": c.angular_score if c else nan, "cloud_points": len(self.cloud), "object_points": len(self.object),
            "warnings": len(self.warnings),
        }

    # -- output -------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The report as a dict of JSON values (a deep copy)."""
        return json.loads(json.dumps(self._data))

    def to_json(self, indent: Optional[int] = None) -> str:
        """The report as JSON text: what ``report.json`` holds."""
        return json.dumps(self._data, indent=indent)

    def save(self, directory: Union[str, os.PathLike]) -> list[str]:
        """Writes the report into ``directory`` (created if missing) with the library's one writer
        (``fathom_report_save``; the same bytes as ``fathom report --out``): ``report.json``, ``cloud.ply``,
        ``object.ply`` (with a box), ``report.html`` (the page to open) and its figures ``top-view.svg``,
        ``side-view.svg``, ``speed.svg``, and with a box ``coverage.svg`` and ``view-bins.svg``. Returns the
        paths written."""
        directory = os.fspath(directory)
        with self._library_report() as pointer:
            _report_save(pointer, path_bytes(directory))
        names = ["report.json", "cloud.ply"] + (["object.ply"] if self.box is not None else []) + ["report.html"]
        names += ["top-view.svg", "side-view.svg", "speed.svg"] + (["coverage.svg", "view-bins.svg"] if self.coverage is not None else [])
        return [os.path.join(directory, name) for name in names]

    def html(self) -> str:
        """``report.html``: one self-contained page (no network) with the warnings first, the measurements in
        cm, degrees and seconds with their evidence, and the figures as SVG."""
        with self._library_report() as pointer:
            return sized_text(_report_html, pointer)

    def _repr_html_(self) -> str:
        """Jupyter shows the report's page inline, in a frame so that its styles stay its own."""
        import html

        return (f'<iframe srcdoc="{html.escape(self.html(), quote=True)}" title="Fathom report" '
                'style="width: 100%; height: 900px; border: 1px solid #ddd;"></iframe>')

    def __reduce__(self) -> Any:
        return (ScanReport, (self._data, self.cloud, self.object))

    def __repr__(self) -> str:
        box = self.box
        what = "no box" if box is None else f"box {np.round(box.scale, 3).tolist()} m ({self.box_source.name.lower()})"
        return f"<fathom.ScanReport {self.scan_id or ''}: {self.frames} frames, {len(self.cloud)} cloud points, {what}>"


def scan_report(
    scan: Union[Scan, str, os.PathLike],
    box: Optional[Box] = None,
    options: Optional[CaptureOptions] = None,
    progress: Optional[Callable[[int, int], Any]] = None,
    **overrides: Any,
) -> ScanReport:
    """The report of a scan: a :class:`Capture` fed from its files (depth read only for the frames it fuses).

    Args:
        scan: a :class:`fathom.Scan`, or a path to open one (its folder, metadata or any of its files), which is
            opened with ``index_while_reading=True``: the report reads the frames in order, so the streams are
            inflated once (damage found on the way ends the frames fed, said in the warnings).
        box: the object's box; None: the scan folder's ``boundingbox.json`` if there is one, else estimated.
        options: :class:`CaptureOptions`; ``**overrides`` change single settings (``voxel=0.005``).
        progress: called as ``progress(done, total)`` after each frame; returning False stops the work
            (:class:`fathom.InvalidStateError`). An exception it raises stops the work and is raised again.
    """
    if not isinstance(scan, Scan):
        with Scan.open(scan, index_while_reading=True) as opened:
            return scan_report(opened, box, options, progress, **overrides)
    o = _options(options, overrides)
    out = _ReportPtr()
    with_progress(progress, lambda callback: _scan_report(scan, byref(o._to_c()), _box_arg(box), callback, None, byref(out)))
    return ScanReport._take(out)
