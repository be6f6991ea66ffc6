"""Fathom: geometry and measurement for AR capture data (Python binding of libfathom.so).

Units are meters and radians; the world frame is right-handed with +y up. Quaternions are numpy
float32 arrays (x, y, z, w); matrices are numpy arrays with rows as rows (the binding converts to
and from the library's column-major layout). Point arrays are (N, 3) or (N, k >= 3); float32 arrays
with packed columns are read in place, anything else is converted once. As in numpy, one (3,) point
goes wherever (N, 3) points go and gives the single result. Wherever a :class:`Pose` is taken, a (4, 4)
matrix is too (translation in the last column; the library checks it is rigid), and where many poses
are taken, an (N, 4, 4) array. :func:`camera_ray`, :meth:`DepthFrame.sample` and :meth:`DepthFrame.point`
take pixel coordinates u and v as numbers or as arrays of one shape; :func:`project` one point or (N, 3).

Every failing call raises a :class:`FathomError` subclass carrying the library's message. The
library is loaded on first use, from ``$FATHOM_LIBRARY`` or the ``libfathom.so`` inside this package; its version,
:func:`version`, is also the package's ``fathom.__version__``.
All functions are safe to call from several threads, as long as two threads do not edit the same
:class:`Box` at once; the GIL is released during every library call. A :class:`Mesh` is immutable and
may be queried from many threads at once (but not closed while another thread still uses it).

Ray casting: :func:`camera_ray`, :func:`grid_rays` and :func:`project` for cameras; :func:`ray_plane`,
:func:`ray_floor`, :func:`ray_sphere`, :func:`ray_obb` and :func:`ray_triangle` for single primitives;
:class:`Mesh` for triangle meshes with a BVH (batch casts return :data:`HIT_DTYPE` arrays); and the
capture app's tap flows :func:`tap_floor_height`, :func:`tap_place_box` and :func:`tap_box_face`.

Depth and length: :class:`DepthFrame` borrows a depth map (with confidence, range and the RGB intrinsics)
and back-projects it to points, samples the depth under an RGB pixel, and measures the length of an object
(:func:`length_keypoints`, :func:`length_mask`, :func:`length_polyline`, straight, and :func:`length_midline`
along a bent body, each with a 1-sigma error bar);
:func:`mask_endpoints` finds head and tail candidates in a segmentation mask. Least-squares and RANSAC fits:
:func:`fit_line_2d`, :func:`fit_line_3d`, :func:`fit_line_ransac`, :func:`fit_plane`, :func:`fit_plane_ransac`.

Capture guidance: :class:`Coverage` counts the views of each face of a :class:`Box` (with cells, view-direction
bins and where to go next; :mod:`fathom.coverage`); :class:`Motion` turns timestamped poses (int nanoseconds) into
speed, :class:`Guidance` and the app's capture interval; :func:`summarize_trajectory` and :func:`select_frames`
work on whole recordings (:mod:`fathom.motion`).

Scans: :class:`Scan` reads the RGB-D capture files of an iOS scanner app (depth, confidence, timestamps,
poses and intrinsics per frame, damage kept as warnings); :class:`ScanWriter` and :func:`write_scan` write them.

Files: :func:`read_ply` / :func:`write_ply` read and write point clouds (:class:`PointCloud`) as PLY;
:meth:`Mesh.save` writes a mesh as PLY or OBJ; :func:`read_transforms` / :func:`write_transforms` read and write
NeRF-style ``transforms.json`` camera poses (:class:`Transforms`).

Plotting helpers (matplotlib, the optional ``plot`` extra) are in :mod:`fathom.plot`.
"""

from __future__ import annotations

from . import _lib
from ._lib import LibraryNotFoundError, LibraryVersionError, library_path
from .box import CORNER_NAMES, FACE_NAMES, Box, CenterScale, Corner, Face, Faces, fit_box_upright
from ._handle import ClosedHandleError
from .camera import Intrinsics, PointFrame, Projection, ProjectFlags, Ray, camera_ray, grid_rays, project
from .depth import DepthFormat, DepthFrame, Sampling, as_mask
from .errors import (
    BufferTooSmallError,
    DegenerateError,
    FathomError,
    FathomIOError,
    FathomMemoryError,
    NoDataError,
    FathomOverflowError,
    FormatError,
    InvalidStateError,
    LapackError,
    NotABoxError,
    NotFiniteError,
    NotRigidError,
    NullPointerError,
    OutOfRangeError,
    ParseError,
    PlausibilityWarning,
)
from .fits import LineFit, LineMethod, PlaneFit, fit_line_2d, fit_line_3d, fit_line_ransac, fit_plane, fit_plane_ransac
from .geometry import (
    RIGID_TOLERANCE,
    Pose,
    PoseConvention,
    PoseDistance,
    convert_poses,
    quat_angle_between,
    quat_from_axis_angle,
    quat_from_matrix,
    quat_multiply,
    quat_normalize,
    quat_rotate,
    quat_slerp,
    quat_to_matrix,
)
from .coverage import (
    NO_FACE,
    VIEW_RESULT_DTYPE,
    Coverage,
    CoverageOptions,
    CoverageSummary,
    FaceCoverage,
    NextView,
    ViewResult,
    ViewStatus,
)
from .motion import (
    INCH,
    MOTION_STATE_DTYPE,
    Guidance,
    Motion,
    MotionOptions,
    MotionState,
    TrajectorySummary,
    ns_to_seconds,
    seconds_to_ns,
    select_frames,
    summarize_trajectory,
)
from .length import (
    KeypointDepth,
    Length,
    LengthOptions,
    length_keypoints,
    length_mask,
    length_midline,
    length_polyline,
    mask_endpoints,
)
from .mesh import Bounds, Mesh
from .obb import OrientedBox, fit_obb_pca
from .placement import (
    Anchor,
    FusedTag,
    LabelPlacement,
    LabelTarget,
    fuse_tag_observations,
    place_label,
    rotate_covariance,
    snap_vertical,
    tag_world_pose,
)
from .raycast import (
    HIT_DTYPE,
    NO_HIT,
    BoxHit,
    Hit,
    MeshClass,
    empty_hits,
    hit_mask,
    make_rays,
    ray_floor,
    ray_obb,
    ray_plane,
    ray_sphere,
    ray_triangle,
)
from .scan import Scan, ScanFormat, ScanWriter, write_scan
from .pointcloud import PointCloud, read_ply, write_ply
from .tap import tap_box_face, tap_floor_height, tap_place_box
from .transforms import Transforms, read_transforms, write_transforms
from .capture import BoxSource, Capture, CaptureOptions, CaptureStatus, ReportCoverage, ScanReport, scan_report


def version() -> str:
    """The library's version, "MAJOR.MINOR.PATCH" (``fathom_version()``); also ``fathom.__version__``."""
    return _lib.fathom_version().decode("ascii")


def version_number() -> int:
    """The library's version as MAJOR * 10000 + MINOR * 100 + PATCH (``fathom_version_number()``)."""
    return int(_lib.fathom_version_number())


def __getattr__(name: str) -> str:
    """``fathom.__version__``, which is :func:`version`: the library is the one source of the version. Asked on
    first read, because importing fathom does not load the library."""
    if name == "__version__":
        globals()["__version__"] = value = version()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CORNER_NAMES",
    "FACE_NAMES",
    "HIT_DTYPE",
    "INCH",
    "MOTION_STATE_DTYPE",
    "NO_FACE",
    "NO_HIT",
    "RIGID_TOLERANCE",
    "VIEW_RESULT_DTYPE",
    "Anchor",
    "Bounds",
    "Box",
    "BoxHit",
    "BufferTooSmallError",
    "CenterScale",
    "ClosedHandleError",
    "Corner",
    "Coverage",
    "CoverageOptions",
    "CoverageSummary",
    "DegenerateError",
    "DepthFormat",
    "DepthFrame",
    "Face",
    "FaceCoverage",
    "Faces",
    "FathomError",
    "FathomIOError",
    "FathomMemoryError",
    "FathomOverflowError",
    "FormatError",
    "FusedTag",
    "Guidance",
    "Hit",
    "Intrinsics",
    "InvalidStateError",
    "KeypointDepth",
    "LabelPlacement",
    "LabelTarget",
    "LapackError",
    "Length",
    "LengthOptions",
    "LibraryNotFoundError",
    "LibraryVersionError",
    "LineFit",
    "LineMethod",
    "Mesh",
    "MeshClass",
    "Motion",
    "MotionOptions",
    "MotionState",
    "NextView",
    "NoDataError",
    "NotABoxError",
    "NotFiniteError",
    "NotRigidError",
    "NullPointerError",
    "OrientedBox",
    "OutOfRangeError",
    "ParseError",
    "PlaneFit",
    "PlausibilityWarning",
    "PointCloud",
    "PointFrame",
    "Pose",
    "PoseConvention",
    "convert_poses",
    "ScanFormat",
    "PoseDistance",
    "ProjectFlags",
    "Projection",
    "Ray",
    "Sampling",
    "BoxSource",
    "Capture",
    "CaptureOptions",
    "CaptureStatus",
    "ReportCoverage",
    "Scan",
    "ScanReport",
    "scan_report",
    "ScanWriter",
    "TrajectorySummary",
    "Transforms",
    "ViewResult",
    "ViewStatus",
    "as_mask",
    "camera_ray",
    "empty_hits",
    "fit_box_upright",
    "fit_line_2d",
    "fit_line_3d",
    "fit_line_ransac",
    "fit_obb_pca",
    "fit_plane",
    "fit_plane_ransac",
    "fuse_tag_observations",
    "grid_rays",
    "hit_mask",
    "length_keypoints",
    "length_mask",
    "length_midline",
    "length_polyline",
    "library_path",
    "make_rays",
    "mask_endpoints",
    "ns_to_seconds",
    "place_label",
    "project",
    "quat_angle_between",
    "quat_from_axis_angle",
    "quat_from_matrix",
    "quat_multiply",
    "quat_normalize",
    "quat_rotate",
    "quat_slerp",
    "quat_to_matrix",
    "ray_floor",
    "ray_obb",
    "ray_plane",
    "ray_sphere",
    "ray_triangle",
    "read_ply",
    "read_transforms",
    "rotate_covariance",
    "seconds_to_ns",
    "select_frames",
    "snap_vertical",
    "summarize_trajectory",
    "tag_world_pose",
    "tap_box_face",
    "tap_floor_height",
    "tap_place_box",
    "version",
    "version_number",
    "write_ply",
    "write_scan",
    "write_transforms",
]
