"""Face coverage of the box by the captured views: which sides of an object still need pictures.

While a person walks around an object taking pictures, the capture app tells them which sides of the box
still need pictures. :class:`Coverage` (a ``fathom_coverage`` handle, the library's ``fathom_coverage_*``
functions) counts the views of each face of a :class:`fathom.Box`: each view's optical axis (the camera's -z)
is cast at the box and the first face it meets is counted, unless a rule rejects the view (:class:`ViewStatus`).
Faces are split into cells, and views are also binned by the direction from the box centre to the camera
(equal-area rings x sectors about +y); :meth:`Coverage.next_view` says where to go next. Face colour and
opacity follow the app's formulas (:class:`FaceCoverage`).

Poses are camera-to-world: a :class:`fathom.Pose`, or a (4, 4) numpy matrix (rows as rows, translation in the
last column); many poses are a sequence of those or an (N, 4, 4) array. Matrices are checked by the library
(rigid within :data:`fathom.RIGID_TOLERANCE`, finite), which raises :class:`fathom.NotRigidError` or
:class:`fathom.NotFiniteError` naming the pose.

Camera speed is :mod:`fathom.motion`'s. Coverage trackers are not thread-safe: use each from one thread at a time.
"""

from __future__ import annotations

import dataclasses
import functools
from ctypes import POINTER, byref, c_float, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Optional, Sequence, Union

import numpy as np

from ._arrays import pose_array_ptr, pose_struct, poses_column_major, vec3_from_c
from ._defaults import default_field, library_defaults
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
    PosePtr,
    Vec3,
    ViewResultPtr,
    ViewResultStruct,
    c_function,
    status_function,
)
from ._scalars import UINT32_MAX, enum_member, real
from .box import Box, Face
from .camera import Intrinsics, intrinsics_struct
from .geometry import PoseLike

__all__ = [
    "NO_FACE",
    "VIEW_RESULT_DTYPE",
    "Coverage",
    "CoverageOptions",
    "CoverageSummary",
    "FaceCoverage",
    "NextView",
    "ViewResult",
    "ViewStatus",
]

_NO_HIT = int(CONSTANTS["FATHOM_NO_HIT"])

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


#: The value of a :data:`VIEW_RESULT_DTYPE` face field when there is no face: -1. It is the header's
#: ``FATHOM_NO_HIT`` (``0xFFFFFFFF``), which the library writes, read as a signed 32-bit integer.
NO_FACE: int = int(np.array(_NO_HIT, np.uint32).view(np.int32))

#: The numpy mirror of ``fathom_view_result`` (24 bytes): :meth:`Coverage.record_many` returns an array of it,
#: written by the library in place. Fields: ``status`` (a :class:`ViewStatus` value), ``face`` (a
#: :class:`fathom.Face` value, or :data:`NO_FACE` on a miss), ``cell``, ``bin``, ``distance`` (meters) and
#: ``completed_face`` (the face this view completed, else :data:`NO_FACE`). The two face fields are int32, so
#: that no face is -1 (``results["face"] >= 0`` masks the views that met the box; the header's uint32
#: ``FATHOM_NO_HIT`` has the same bits); ``fathom.Face(results["face"][i])`` names a face.
VIEW_RESULT_DTYPE = np.dtype(
    [
        ("status", np.uint32),
        ("face", np.int32),
        ("cell", np.uint32),
        ("bin", np.uint32),
        ("distance", np.float32),
        ("completed_face", np.int32),
    ],
    align=True,
)

# ------------------------------------------------------------------------------------------------
# Argument conversion
# ------------------------------------------------------------------------------------------------


def _optional_intrinsics(value: Optional[Intrinsics]) -> Any:
    return None if value is None else byref(intrinsics_struct(value))


def _count(value: Any, name: str, maximum: int = UINT32_MAX) -> int:
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
    return enum_member(value, Face, "face")


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
            set_(name, real(getattr(self, name), name))

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
        face: the :class:`fathom.Face` the optical axis meets first (also when not counted), or None on a miss
            (:data:`fathom.NO_FACE` in :meth:`Coverage.record_many`'s array).
        cell: the cell index ``b * cells + a`` on that face (:meth:`Coverage.cells` gives ``[b, a]``).
        bin: the camera's view-direction bin, ``ring * sectors + sector``.
        distance: along the axis to the face, meters (0 on a miss).
        completed_face: the face this view completed (its count reached the goal), else None; reported once per
            face until :meth:`Coverage.reset` (:data:`fathom.NO_FACE` in :meth:`Coverage.record_many`'s array).
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

    def record(self, pose: PoseLike, intrinsics: Optional[Intrinsics] = None) -> ViewResult:
        """Records one view from ``pose`` (camera-to-world: a :class:`fathom.Pose` or a (4, 4) matrix).

        With ``intrinsics`` the ``min_in_view`` rule is checked. Returns the :class:`ViewResult`.
        """
        p = byref(pose_struct(pose, "pose"))
        k = _optional_intrinsics(intrinsics)
        out = ViewResultStruct()
        _coverage_record(self._handle(), p, k, byref(out))
        return ViewResult._from_c(out)

    def record_many(
        self, poses: Union[Sequence[PoseLike], np.ndarray], intrinsics: Optional[Intrinsics] = None
    ) -> np.ndarray:
        """Records many views in order (``fathom_coverage_record_batch``): an (N,) :data:`VIEW_RESULT_DTYPE` array,
        one row per view with the fields of :class:`ViewResult`; where :meth:`record` gives None for no face, the
        int32 ``face`` and ``completed_face`` fields hold :data:`fathom.NO_FACE` (-1).

        ``poses``: an (N, 4, 4) array, or a sequence of :class:`fathom.Pose` objects or (4, 4) matrices. A pose that
        is not rigid (or not finite) raises naming its index; the views before it stay recorded. No poses give an
        empty array.
        """
        matrices = poses_column_major(poses, "poses")
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
            d = real(distance, "distance")
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
