"""Loading libfathom.so and declaring its C interface for ctypes.

The shared library is loaded once, lazily, on the first call into it:

1. ``$FATHOM_LIBRARY`` if that environment variable is set (a path to ``libfathom.so``);
2. otherwise ``libfathom.so`` next to this file (the copy a wheel ships, or ``make lib`` installs).

A library with a ``_cpu.txt`` beside it (what ``make wheel`` writes when it built for this machine's CPU,
``CPU_FLAGS``) is loaded only on a CPU that has the flags it lists (:func:`check_cpu_flags`): on an older x86-64
the load raises :class:`LibraryNotFoundError` instead of the process dying of SIGILL at the first call.

Every C function the binding calls is declared next to the Python wrapper that uses it, with
:func:`status_function` (functions returning ``fathom_status``: a call raises the :mod:`fathom.errors` class of a
non-OK status, with the library's message; :func:`check_status` does the same for a status a wrapper got from
:meth:`CFunction.raw`) or :func:`c_function`; every declaration lands in :data:`PROTOTYPES` (and its callable in
:data:`FUNCTIONS`), so a test can compare them with ``include/fathom.h``. The structs below mirror the header's,
field by field; :data:`STRUCTS` maps the header's type names to them (:data:`OPAQUE` the handle types, which C
never defines), and :data:`CONSTANTS` holds the header's enum values and macros.

This module imports :mod:`fathom.errors` (which imports nothing from the package); nothing imports this one back
in a cycle.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
import threading
from ctypes import POINTER, c_bool, c_char_p, c_double, c_float, c_int, c_int32, c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from .errors import FathomError, exception_class

__all__ = [
    "BINDING_VERSION",
    "CALLBACKS",
    "CONSTANTS",
    "FUNCTIONS",
    "OPAQUE",
    "PROTOTYPES",
    "STRUCTS",
    "CFunction",
    "LibraryNotFoundError",
    "LibraryVersionError",
    "Prototype",
    "c_function",
    "check_cpu_flags",
    "cpu_marker_flags",
    "check_status",
    "error_for_status",
    "status_function",
    "library",
    "library_path",
]

#: The header version this binding was written against (FATHOM_VERSION_MAJOR, _MINOR, _PATCH).
BINDING_VERSION = (1, 0, 0)

# ------------------------------------------------------------------------------------------------
# Structs (mirroring include/fathom.h)
# ------------------------------------------------------------------------------------------------


class Vec3(ctypes.Structure):
    """``fathom_vec3``: a point or direction, meters."""

    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]


class Quat(ctypes.Structure):
    """``fathom_quat``: a quaternion stored (x, y, z, w), real part last."""

    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float), ("w", c_float)]


class PoseStruct(ctypes.Structure):
    """``fathom_pose``: a 4x4 float matrix, column-major (element (r, c) at m[c*4 + r])."""

    _fields_ = [("m", c_float * 16)]


class IntrinsicsStruct(ctypes.Structure):
    """``fathom_intrinsics``: pinhole intrinsics in pixels of a width x height image."""

    _fields_ = [
        ("fx", c_float),
        ("fy", c_float),
        ("cx", c_float),
        ("cy", c_float),
        ("width", c_uint32),
        ("height", c_uint32),
    ]


class BoxStruct(ctypes.Structure):
    """``fathom_box``: the capture app's yaw-only box, optionally standing on a floor."""

    _fields_ = [
        ("center", Vec3),
        ("scale", Vec3),
        ("rot_y", c_float),
        ("floor", c_float),
        ("has_floor", c_bool),
    ]


class FaceStruct(ctypes.Structure):
    """``fathom_face``: one face of a box (centre, outward normal, orientation)."""

    _fields_ = [("center", Vec3), ("normal", Vec3), ("orientation", Quat)]


class ObbStruct(ctypes.Structure):
    """``fathom_obb``: an oriented box with any 3D rotation."""

    _fields_ = [("center", Vec3), ("scale", Vec3), ("rotation", Quat)]


class LabelRequestStruct(ctypes.Structure):
    """``fathom_label_request``: what :func:`fathom.place_label` sends to the library."""

    _fields_ = [
        ("anchor", c_int32),
        ("target", c_int32),
        ("target_width", c_float),
        ("target_height", c_float),
        ("panel_width", c_float),
        ("panel_height", c_float),
        ("relative_position", Vec3),
        ("position_offset", Vec3),
        ("used_anchors", c_uint32),
    ]


class LabelPlacementStruct(ctypes.Structure):
    """``fathom_label_placement``: a label's position and orientation in its target's frame."""

    _fields_ = [("position", Vec3), ("orientation", Quat), ("anchor", c_int32)]


class RayStruct(ctypes.Structure):
    """``fathom_ray``: origin + t * direction; 6 floats, so an (N, 6) float32 array is an array of rays."""

    _fields_ = [("origin", Vec3), ("direction", Vec3)]


class HitStruct(ctypes.Structure):
    """``fathom_hit``: a ray's hit (see :data:`fathom.HIT_DTYPE` for the numpy mirror)."""

    _fields_ = [
        ("t", c_float),
        ("point", Vec3),
        ("normal", Vec3),
        ("u", c_float),
        ("v", c_float),
        ("primitive", c_uint32),
        ("classification", c_uint8),
        ("front_face", c_bool),
        ("reserved", c_uint8 * 2),
    ]


class BoxHitStruct(ctypes.Structure):
    """``fathom_box_hit``: a ray against an oriented box, with both crossings of its line."""

    _fields_ = [
        ("hit", HitStruct),
        ("t_enter", c_float),
        ("t_exit", c_float),
        ("face_enter", c_uint32),
        ("face_exit", c_uint32),
        ("origin_inside", c_bool),
    ]


class MeshInfoStruct(ctypes.Structure):
    """``fathom_mesh_info``: sizes and bounds of a mesh."""

    _fields_ = [
        ("vertex_count", c_uint64),
        ("triangle_count", c_uint64),
        ("bounds_min", Vec3),
        ("bounds_max", Vec3),
        ("surface_area", c_double),
        ("memory_bytes", c_uint64),
        ("bvh_bytes", c_uint64),
        ("bvh_nodes", c_uint64),
        ("bvh_depth", c_uint32),
        ("bvh_width", c_uint32),
        ("reserved", c_uint32 * 4),
    ]


class BatchOptionsStruct(ctypes.Structure):
    """``fathom_batch_options``: the range and thread count of a batch query."""

    _fields_ = [("tmin", c_float), ("tmax", c_float), ("threads", c_uint32), ("reserved", c_uint32 * 4)]


class DepthFrameStruct(ctypes.Structure):
    """``fathom_depth_frame``: a borrowed depth map and how to read it (see :class:`fathom.DepthFrame`)."""

    _fields_ = [
        ("depth", c_void_p),
        ("format", c_uint32),
        ("width", c_uint32),
        ("height", c_uint32),
        ("row_stride", c_size_t),
        ("scale", c_float),
        ("confidence", POINTER(c_uint8)),
        ("confidence_stride", c_size_t),
        ("min_depth", c_float),
        ("max_depth", c_float),
        ("intrinsics", IntrinsicsStruct),
        ("camera_to_world", PoseStruct),
        ("has_pose", c_bool),
        ("min_confidence", c_uint8),
        ("reserved", c_uint8 * 14),
    ]


class MaskStruct(ctypes.Structure):
    """``fathom_mask``: a borrowed binary mask (nonzero bytes are inside)."""

    _fields_ = [("data", POINTER(c_uint8)), ("width", c_uint32), ("height", c_uint32), ("row_stride", c_size_t)]


class DepthSelectionStruct(ctypes.Structure):
    """``fathom_depth_selection``: a rectangle of the depth grid, a step and an optional mask."""

    _fields_ = [
        ("x0", c_uint32),
        ("y0", c_uint32),
        ("x1", c_uint32),
        ("y1", c_uint32),
        ("step", c_uint32),
        ("mask", POINTER(MaskStruct)),
    ]


class LineFitStruct(ctypes.Structure):
    """``fathom_line_fit``: a fitted line (2D fits have z = 0)."""

    _fields_ = [
        ("point", c_double * 3),
        ("direction", c_double * 3),
        ("rms", c_double),
        ("max_residual", c_double),
        ("t_min", c_double),
        ("t_max", c_double),
        ("used", c_uint64),
    ]


class PlaneFitStruct(ctypes.Structure):
    """``fathom_plane_fit``: a fitted plane, dot(normal, x - point) = 0."""

    _fields_ = [
        ("point", c_double * 3),
        ("normal", c_double * 3),
        ("rms", c_double),
        ("max_residual", c_double),
        ("used", c_uint64),
    ]


class RansacOptionsStruct(ctypes.Structure):
    """``fathom_ransac_options``: inlier threshold, iterations (at most), seed, confidence."""

    _fields_ = [
        ("threshold", c_double),
        ("confidence", c_double),
        ("seed", c_uint64),
        ("iterations", c_uint32),
        ("reserved", c_uint32 * 5),
    ]


class LengthOptionsStruct(ctypes.Structure):
    """``fathom_length_options``: settings of the length functions (see :class:`fathom.LengthOptions`)."""

    _fields_ = [
        ("keypoint_depth", c_uint32),
        ("window", c_uint32),
        ("out_frame", c_uint32),
        ("trim_points", c_uint32),
        ("trim_fraction", c_double),
        ("plane", RansacOptionsStruct),
        ("depth_noise", c_double),
        ("depth_noise_growth", c_double),
        ("pixel_noise", c_double),
        ("edge_noise", c_double),
        ("reserved", c_uint32 * 4),
    ]


class LengthStruct(ctypes.Structure):
    """``fathom_length``: a measured length with its 1-sigma uncertainty and endpoints."""

    _fields_ = [
        ("length", c_double),
        ("sigma", c_double),
        ("head", c_double * 3),
        ("tail", c_double * 3),
        ("head_pixel", c_float * 2),
        ("tail_pixel", c_float * 2),
        ("rms", c_double),
        ("samples", c_uint64),
        ("reserved", c_uint32 * 4),
    ]


class CoverageOptionsStruct(ctypes.Structure):
    """``fathom_coverage_options``: settings of a coverage tracker (see :class:`fathom.CoverageOptions`)."""

    _fields_ = [
        ("goal", c_uint32),
        ("cells", c_uint32),
        ("rings", c_uint32),
        ("sectors", c_uint32),
        ("hemisphere", c_int32),
        ("exclude_bottom", c_int32),
        ("min_distance", c_float),
        ("max_distance", c_float),
        ("min_in_view", c_float),
        ("min_separation_angle", c_float),
        ("min_separation_distance", c_float),
        ("reserved", c_uint32 * 4),
    ]


class ViewResultStruct(ctypes.Structure):
    """``fathom_view_result``: what recording one view did (see :data:`fathom.VIEW_RESULT_DTYPE`)."""

    _fields_ = [
        ("status", c_uint32),
        ("face", c_uint32),
        ("cell", c_uint32),
        ("bin", c_uint32),
        ("distance", c_float),
        ("completed_face", c_uint32),
    ]


class FaceCoverageStruct(ctypes.Structure):
    """``fathom_face_coverage``: one face's coverage with the app's colour and opacity."""

    _fields_ = [
        ("count", c_uint32),
        ("progress", c_float),
        ("color", c_float * 3),
        ("opacity", c_float),
        ("complete", c_bool),
        ("needed", c_bool),
    ]


class CoverageSummaryStruct(ctypes.Structure):
    """``fathom_coverage_summary``: a coverage tracker's totals."""

    _fields_ = [
        ("views", c_uint64),
        ("counted", c_uint64),
        ("faces_complete", c_uint32),
        ("faces_needed", c_uint32),
        ("complete", c_bool),
        ("angular_score", c_float),
        ("reserved", c_uint32 * 4),
    ]


class MotionOptionsStruct(ctypes.Structure):
    """``fathom_motion_options``: settings of a motion tracker (see :class:`fathom.MotionOptions`)."""

    _fields_ = [
        ("time_constant", c_float),
        ("slow_speed", c_float),
        ("brisk_speed", c_float),
        ("fast_speed", c_float),
        ("slightly", c_float),
        ("max_gap", c_float),
        ("intervals", c_float * 3),
        ("reserved", c_uint32 * 4),
    ]


class MotionStateStruct(ctypes.Structure):
    """``fathom_motion_state``: a motion tracker's state (see :data:`fathom.MOTION_STATE_DTYPE`)."""

    _fields_ = [
        ("timestamp", c_int64),
        ("velocity", Vec3),
        ("speed", c_float),
        ("angular_speed", c_float),
        ("guidance", c_uint32),
        ("capture_interval", c_float),
        ("time_to_capture", c_float),
        ("captured", c_bool),
        ("skipped", c_bool),
        ("restarted", c_bool),
    ]


class TrajectorySummaryStruct(ctypes.Structure):
    """``fathom_trajectory_summary``: path length, speed percentiles and time out of the speed band."""

    _fields_ = [
        ("duration", c_double),
        ("path_length", c_double),
        ("speed_p10", c_float),
        ("speed_p50", c_float),
        ("speed_p90", c_float),
        ("speed_max", c_float),
        ("time_too_slow", c_double),
        ("time_too_fast", c_double),
        ("angular_speed_max", c_float),
        ("steps", c_uint64),
        ("reserved", c_uint32 * 4),
    ]


class ScanInfoStruct(ctypes.Structure):
    """``fathom_scan_info``: what a scan holds (see :class:`fathom.Scan`)."""

    _fields_ = [
        ("frame_count", c_uint64),
        ("depth_width", c_uint32),
        ("depth_height", c_uint32),
        ("depth_format", c_uint32),
        ("depth_scale", c_float),
        ("rgb_width", c_uint32),
        ("rgb_height", c_uint32),
        ("has_confidence", c_bool),
        ("warning_count", c_uint32),
        ("frequency", c_double),
        ("format", c_uint32),
        ("reserved", c_uint32 * 4),
    ]


class ScanOpenOptionsStruct(ctypes.Structure):
    """``fathom_scan_open_options``: how a scan is opened (see :class:`fathom.Scan`)."""

    _fields_ = [
        ("index_while_reading", c_bool),
        ("reserved", c_uint32 * 4),
    ]


class ScanCloudOptionsStruct(ctypes.Structure):
    """``fathom_scan_cloud_options``: which samples a scan's point cloud takes (see :meth:`fathom.Scan.point_cloud`)."""

    _fields_ = [
        ("min_confidence", c_uint32),
        ("max_depth", c_float),
        ("voxel", c_float),
        ("frame_step", c_uint32),
        ("reserved", c_uint32 * 4),
    ]


class ScanWriterOptionsStruct(ctypes.Structure):
    """``fathom_scan_writer_options``: settings of a scan writer (see :class:`fathom.ScanWriter`)."""

    _fields_ = [
        ("depth_width", c_uint32),
        ("depth_height", c_uint32),
        ("rgb_width", c_uint32),
        ("rgb_height", c_uint32),
        ("depth_format", c_uint32),
        ("with_confidence", c_bool),
        ("zlib_wrapped", c_bool),
        ("frequency", c_double),
        ("reserved", c_uint32 * 4),
    ]


class PointCloudInfoStruct(ctypes.Structure):
    """``fathom_point_cloud_info``: a point cloud's size and which optional arrays it has."""

    _fields_ = [
        ("count", c_uint64),
        ("has_normals", c_bool),
        ("has_colors", c_bool),
        ("has_confidence", c_bool),
        ("reserved", c_uint32 * 4),
    ]


class MeshOpaque(ctypes.Structure):
    """``fathom_mesh``: opaque. Only ``POINTER(MeshOpaque)`` is ever used, a type of its own, so a
    pointer to another kind of handle is refused by ctypes instead of reaching the library."""


class CoverageOpaque(ctypes.Structure):
    """``fathom_coverage``: opaque (a face-coverage tracker); only ``POINTER(CoverageOpaque)`` is used."""


class MotionOpaque(ctypes.Structure):
    """``fathom_motion``: opaque (a camera-speed tracker); only ``POINTER(MotionOpaque)`` is used."""


class ScanOpaque(ctypes.Structure):
    """``fathom_scan``: opaque (an opened scan); only ``POINTER(ScanOpaque)`` is used."""


class ScanWriterOpaque(ctypes.Structure):
    """``fathom_scan_writer``: opaque (a scan being written); only ``POINTER(ScanWriterOpaque)`` is used."""


class TransformsOpaque(ctypes.Structure):
    """``fathom_transforms``: opaque (a transforms.json read once); only ``POINTER(TransformsOpaque)`` is used."""


class PointCloudOpaque(ctypes.Structure):
    """``fathom_point_cloud``: opaque (a point cloud); only ``POINTER(PointCloudOpaque)`` is used."""


class CaptureOptionsStruct(ctypes.Structure):
    """``fathom_capture_options``: settings of a capture report (see :class:`fathom.CaptureOptions`)."""

    _fields_ = [
        ("min_confidence", c_uint32),
        ("max_depth", c_float),
        ("plausible_depth", c_float),
        ("voxel", c_float),
        ("fuse_distance", c_float),
        ("fuse_angle", c_float),
        ("min_voxel_points", c_uint32),
        ("floor_threshold", c_float),
        ("floor_iterations", c_uint32),
        ("floor_max_tilt", c_float),
        ("object_clearance", c_float),
        ("floor_min_area", c_float),
        ("orbit_min_span", c_float),
        ("orbit_min_views", c_uint32),
        ("select_distance", c_float),
        ("select_angle", c_float),
        ("seed", c_uint64),
        ("motion", MotionOptionsStruct),
        ("coverage", CoverageOptionsStruct),
        ("reserved", c_uint32 * 4),
    ]


class CaptureStatusStruct(ctypes.Structure):
    """``fathom_capture_status``: where a capture stands."""

    _fields_ = [
        ("frames", c_uint64),
        ("fused_frames", c_uint64),
        ("cloud_points", c_uint64),
        ("captures", c_uint64),
        ("motion", MotionStateStruct),
        ("reserved", c_uint32 * 4),
    ]


class ReportSummaryStruct(ctypes.Structure):
    """``fathom_report_summary``: a report's numbers."""

    _fields_ = [
        ("frames", c_uint64),
        ("fused_frames", c_uint64),
        ("duration", c_double),
        ("box", BoxStruct),
        ("box_source", c_uint32),
        ("has_floor", c_bool),
        ("floor_height", c_float),
        ("floor_normal", Vec3),
        ("has_focus", c_bool),
        ("focus", Vec3),
        ("cloud_points", c_uint64),
        ("object_points", c_uint64),
        ("has_trajectory", c_bool),
        ("trajectory", TrajectorySummaryStruct),
        ("has_coverage", c_bool),
        ("coverage", CoverageSummaryStruct),
        ("face_counts", c_uint32 * 6),
        ("captures", c_uint64),
        ("selected_frames", c_uint64),
        ("warning_count", c_uint32),
        ("has_support", c_bool),
        ("support_height", c_float),
        ("has_ceiling", c_bool),
        ("ceiling_height", c_float),
        ("object_capture", c_bool),
        ("orbit_views", c_uint32),
        ("orbit_span", c_float),
        ("object_voxels", c_uint64),
        ("reserved", c_uint32 * 4),
    ]


class CaptureOpaque(ctypes.Structure):
    """``fathom_capture``: opaque (a capture being measured); only ``POINTER(CaptureOpaque)`` is used."""


class ReportOpaque(ctypes.Structure):
    """``fathom_report``: opaque (a finished capture report); only ``POINTER(ReportOpaque)`` is used."""


#: ``fathom_progress_fn``: int (*)(void *user, uint64_t done, uint64_t total).
ProgressFn = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_uint64)

#: The header's function-pointer typedefs and their ctypes types.
CALLBACKS: dict[str, Any] = {"fathom_progress_fn": ProgressFn}


#: The header's opaque handle types (declared, never defined) and their ctypes stand-ins.
OPAQUE: dict[str, type[ctypes.Structure]] = {
    "fathom_mesh": MeshOpaque,
    "fathom_coverage": CoverageOpaque,
    "fathom_motion": MotionOpaque,
    "fathom_point_cloud": PointCloudOpaque,
    "fathom_scan": ScanOpaque,
    "fathom_scan_writer": ScanWriterOpaque,
    "fathom_capture": CaptureOpaque,
    "fathom_transforms": TransformsOpaque,
    "fathom_report": ReportOpaque,
}

#: The header's struct names and their ctypes mirrors.
STRUCTS: dict[str, type[ctypes.Structure]] = {
    "fathom_vec3": Vec3,
    "fathom_quat": Quat,
    "fathom_pose": PoseStruct,
    "fathom_intrinsics": IntrinsicsStruct,
    "fathom_box": BoxStruct,
    "fathom_face": FaceStruct,
    "fathom_obb": ObbStruct,
    "fathom_label_request": LabelRequestStruct,
    "fathom_label_placement": LabelPlacementStruct,
    "fathom_ray": RayStruct,
    "fathom_hit": HitStruct,
    "fathom_box_hit": BoxHitStruct,
    "fathom_mesh_info": MeshInfoStruct,
    "fathom_batch_options": BatchOptionsStruct,
    "fathom_depth_frame": DepthFrameStruct,
    "fathom_mask": MaskStruct,
    "fathom_depth_selection": DepthSelectionStruct,
    "fathom_line_fit": LineFitStruct,
    "fathom_plane_fit": PlaneFitStruct,
    "fathom_ransac_options": RansacOptionsStruct,
    "fathom_length_options": LengthOptionsStruct,
    "fathom_length": LengthStruct,
    "fathom_coverage_options": CoverageOptionsStruct,
    "fathom_view_result": ViewResultStruct,
    "fathom_face_coverage": FaceCoverageStruct,
    "fathom_coverage_summary": CoverageSummaryStruct,
    "fathom_motion_options": MotionOptionsStruct,
    "fathom_motion_state": MotionStateStruct,
    "fathom_trajectory_summary": TrajectorySummaryStruct,
    "fathom_point_cloud_info": PointCloudInfoStruct,
    "fathom_scan_info": ScanInfoStruct,
    "fathom_scan_writer_options": ScanWriterOptionsStruct,
    "fathom_scan_cloud_options": ScanCloudOptionsStruct,
    "fathom_scan_open_options": ScanOpenOptionsStruct,
    "fathom_capture_options": CaptureOptionsStruct,
    "fathom_capture_status": CaptureStatusStruct,
    "fathom_report_summary": ReportSummaryStruct,
}

#: ``fathom_status`` and the header's other enums are C ints.
Status = c_int

#: Enum values and numeric macros of the header that the binding relies on.
CONSTANTS: dict[str, float] = {
    "FATHOM_VERSION_MAJOR": BINDING_VERSION[0],
    "FATHOM_VERSION_MINOR": BINDING_VERSION[1],
    "FATHOM_VERSION_PATCH": BINDING_VERSION[2],
    "FATHOM_RIGID_TOLERANCE": 1e-3,
    "FATHOM_NO_HIT": 0xFFFFFFFF,
    # fathom_status
    "FATHOM_OK": 0,
    "FATHOM_ERR_NULL_POINTER": 1,
    "FATHOM_ERR_NOT_FINITE": 2,
    "FATHOM_ERR_OUT_OF_RANGE": 3,
    "FATHOM_ERR_OVERFLOW": 4,
    "FATHOM_ERR_BUFFER_TOO_SMALL": 5,
    "FATHOM_ERR_NOT_RIGID": 6,
    "FATHOM_ERR_DEGENERATE": 7,
    "FATHOM_ERR_INVALID_STATE": 8,
    "FATHOM_ERR_PARSE": 9,
    "FATHOM_ERR_FORMAT": 10,
    "FATHOM_ERR_NOT_A_BOX": 11,
    "FATHOM_ERR_IO": 12,
    "FATHOM_ERR_LAPACK": 13,
    "FATHOM_ERR_OUT_OF_MEMORY": 14,
    "FATHOM_ERR_NO_DATA": 15,
    # corners
    "FATHOM_CORNER_TOP_LEFT_FRONT": 0,
    "FATHOM_CORNER_TOP_RIGHT_FRONT": 1,
    "FATHOM_CORNER_BOT_RIGHT_FRONT": 2,
    "FATHOM_CORNER_BOT_LEFT_FRONT": 3,
    "FATHOM_CORNER_TOP_LEFT_BACK": 4,
    "FATHOM_CORNER_TOP_RIGHT_BACK": 5,
    "FATHOM_CORNER_BOT_RIGHT_BACK": 6,
    "FATHOM_CORNER_BOT_LEFT_BACK": 7,
    # faces
    "FATHOM_FACE_FRONT": 0,
    "FATHOM_FACE_LEFT": 1,
    "FATHOM_FACE_RIGHT": 2,
    "FATHOM_FACE_BOTTOM": 3,
    "FATHOM_FACE_TOP": 4,
    "FATHOM_FACE_BACK": 5,
    # fathom_anchor_point
    "FATHOM_ANCHOR_AUTO": 0,
    "FATHOM_ANCHOR_CENTER": 1,
    "FATHOM_ANCHOR_LEADING": 2,
    "FATHOM_ANCHOR_TRAILING": 3,
    "FATHOM_ANCHOR_TOP": 4,
    "FATHOM_ANCHOR_BOTTOM": 5,
    "FATHOM_ANCHOR_COVER": 6,
    # fathom_label_target
    "FATHOM_LABEL_ON_IMAGE": 0,
    "FATHOM_LABEL_ON_PANEL": 1,
    # fathom_camera_project flags
    "FATHOM_PROJECT_BEHIND": 1,
    "FATHOM_PROJECT_OUTSIDE": 2,
    # fathom_mesh_class
    "FATHOM_CLASS_NONE": 0,
    "FATHOM_CLASS_WALL": 1,
    "FATHOM_CLASS_FLOOR": 2,
    "FATHOM_CLASS_CEILING": 3,
    "FATHOM_CLASS_TABLE": 4,
    "FATHOM_CLASS_SEAT": 5,
    "FATHOM_CLASS_WINDOW": 6,
    "FATHOM_CLASS_DOOR": 7,
    # fathom_mesh_create flags
    "FATHOM_MESH_COPY": 0,
    "FATHOM_MESH_BORROW": 1,
    "FATHOM_MESH_COMPACT": 2,
    # fathom_depth_format
    "FATHOM_DEPTH_FLOAT32": 0,
    "FATHOM_DEPTH_FLOAT16": 1,
    "FATHOM_DEPTH_UINT16": 2,
    # fathom_frame
    "FATHOM_FRAME_OPTICAL": 0,
    "FATHOM_FRAME_CAMERA": 1,
    "FATHOM_FRAME_WORLD": 2,
    # fathom_depth_sampling
    "FATHOM_SAMPLE_NEAREST": 0,
    "FATHOM_SAMPLE_BILINEAR": 1,
    "FATHOM_SAMPLE_MEDIAN": 2,
    # fathom_line_method
    "FATHOM_FIT_ORDINARY": 0,
    "FATHOM_FIT_TOTAL": 1,
    # fathom_keypoint_depth
    "FATHOM_KEYPOINT_NEAREST": 0,
    "FATHOM_KEYPOINT_MEDIAN": 1,
    "FATHOM_KEYPOINT_PLANE": 2,
    # fathom_view_status
    "FATHOM_VIEW_COUNTED": 0,
    "FATHOM_VIEW_MISSED": 1,
    "FATHOM_VIEW_TOO_CLOSE": 2,
    "FATHOM_VIEW_TOO_FAR": 3,
    "FATHOM_VIEW_OUT_OF_FRAME": 4,
    "FATHOM_VIEW_TOO_SIMILAR": 5,
    # fathom_guidance
    "FATHOM_GUIDANCE_UNKNOWN": 0,
    "FATHOM_GUIDANCE_TOO_SLOW": 1,
    "FATHOM_GUIDANCE_SLIGHTLY_SLOW": 2,
    "FATHOM_GUIDANCE_OK": 3,
    "FATHOM_GUIDANCE_SLIGHTLY_FAST": 4,
    "FATHOM_GUIDANCE_TOO_FAST": 5,
    # fathom_ply_format
    "FATHOM_PLY_BINARY": 0,
    "FATHOM_PLY_ASCII": 1,
    # fathom_box_source
    "FATHOM_BOX_NONE": 0,
    "FATHOM_BOX_GIVEN": 1,
    "FATHOM_BOX_MANIFEST": 2,
    "FATHOM_BOX_FITTED": 3,
    # fathom_pose_convention
    "FATHOM_POSE_ARKIT": 0,
    "FATHOM_POSE_OPENCV": 1,
    "FATHOM_POSE_OPENCV_WORLD_TO_CAMERA": 2,
    # fathom_scan_format
    "FATHOM_SCAN_SCANNER": 0,
    "FATHOM_SCAN_STRAY": 1,
    "FATHOM_SCAN_NERFSTUDIO": 2,
    # fathom_report_cloud_kind
    "FATHOM_REPORT_CLOUD": 0,
    "FATHOM_REPORT_OBJECT": 1,
}

# Pointer types used by several modules.
FloatPtr = POINTER(c_float)
Vec3Ptr = POINTER(Vec3)
PosePtr = POINTER(PoseStruct)
IntrinsicsPtr = POINTER(IntrinsicsStruct)
RayPtr = POINTER(RayStruct)
HitPtr = POINTER(HitStruct)
MeshPtr = POINTER(MeshOpaque)
DoublePtr = POINTER(c_double)
DepthFramePtr = POINTER(DepthFrameStruct)
MaskPtr = POINTER(MaskStruct)
DepthSelectionPtr = POINTER(DepthSelectionStruct)
LineFitPtr = POINTER(LineFitStruct)
PlaneFitPtr = POINTER(PlaneFitStruct)
RansacOptionsPtr = POINTER(RansacOptionsStruct)
LengthOptionsPtr = POINTER(LengthOptionsStruct)
LengthPtr = POINTER(LengthStruct)
CoveragePtr = POINTER(CoverageOpaque)
MotionPtr = POINTER(MotionOpaque)
CoverageOptionsPtr = POINTER(CoverageOptionsStruct)
ViewResultPtr = POINTER(ViewResultStruct)
MotionOptionsPtr = POINTER(MotionOptionsStruct)
MotionStatePtr = POINTER(MotionStateStruct)
PointCloudPtr = POINTER(PointCloudOpaque)
ScanPtr = POINTER(ScanOpaque)
ScanWriterPtr = POINTER(ScanWriterOpaque)
TransformsPtr = POINTER(TransformsOpaque)

# ------------------------------------------------------------------------------------------------
# Loading
# ------------------------------------------------------------------------------------------------


class LibraryNotFoundError(OSError):
    """libfathom.so could not be found or loaded."""


class LibraryVersionError(ImportError):
    """The loaded libfathom.so is not compatible with this binding."""


_LIBRARY_ENV = "FATHOM_LIBRARY"
_LIBRARY_NAME = "libfathom.so"
# Beside a library built for a CPU level above the x86-64 baseline (`make wheel` writes it when CPU_FLAGS was set):
# the x86 CPU flags that library needs, as /proc/cpuinfo spells them, whitespace-separated; lines starting with #
# are comments. No such file: a portable build, loaded on any x86-64.
_CPU_MARKER_NAME = "_cpu.txt"
_CPUINFO = Path("/proc/cpuinfo")

_lock = threading.Lock()
_library: Optional[ctypes.CDLL] = None


def library_path() -> Path:
    """The path the library is (or would be) loaded from: ``$FATHOM_LIBRARY`` or the package copy."""
    env = os.environ.get(_LIBRARY_ENV)
    if env:
        return Path(env)
    return Path(__file__).resolve().parent / _LIBRARY_NAME


def _load() -> ctypes.CDLL:
    path = library_path()
    from_env = bool(os.environ.get(_LIBRARY_ENV))
    if not path.is_file():
        if from_env:
            raise LibraryNotFoundError(
                f"{_LIBRARY_ENV} is set to {str(path)!r}, but no file exists there. Point {_LIBRARY_ENV} "
                f"at a built libfathom.so (`make lib` in the Fathom repository writes "
                f".build/release/libfathom.so), or unset it to use the copy inside the fathom package."
            )
        raise LibraryNotFoundError(
            f"libfathom.so was not found next to the fathom package ({path}). Either build it and copy "
            f"it there (`make lib` in the Fathom repository does both), or set {_LIBRARY_ENV} to the "
            f"path of a built libfathom.so, or install a fathom wheel, which ships the library."
        )
    _check_cpu(path)
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as exc:
        raise LibraryNotFoundError(
            f"{path} exists but could not be loaded ({exc}). Is it a libfathom.so built for this machine "
            f"(x86-64 Linux, with the libraries it links installed: liblapacke, libopenblas, zlib, libisal and "
            f"libspng; `ldd {path}` names any that is missing)?"
        ) from exc
    _check_version(lib, path)
    return lib


def check_cpu_flags(cpuinfo: str, required: Iterable[str], library: Optional[Path] = None) -> None:
    """Raises :class:`LibraryNotFoundError` naming the flags of ``required`` that ``cpuinfo`` (the text of
    /proc/cpuinfo) lacks. A flag counts as present only if every ``flags`` line (one per logical CPU) lists it, since
    the process may run on any of them; a text with no ``flags`` line (not x86, or /proc/cpuinfo not what Linux
    writes) blocks nothing. Lines end at ``\\n``, as Linux writes them. ``library`` is the path the message names."""
    cpus = [line.partition(":")[2].split() for line in cpuinfo.split("\n") if line.partition(":")[0].strip() == "flags"]
    if not cpus:
        return
    have = set.intersection(*map(set, cpus))
    missing = [flag for flag in dict.fromkeys(required) if flag not in have]
    if missing:
        what = str(library) if library is not None else "this libfathom.so"
        raise LibraryNotFoundError(
            f"{what} was built for x86-64 CPUs with AVX2 and FMA (Haswell, 2013, or newer), and this CPU lacks "
            f"{', '.join(missing)} (flags missing from /proc/cpuinfo): loading it would crash the process at the "
            f"first call (SIGILL). For a build that runs on any x86-64, run `make CPU_FLAGS= lib wheel` in a "
            f"checkout of the Fathom repository and install the wheel it writes to .build/wheel/ (or point "
            f"{_LIBRARY_ENV} at the .build/release/libfathom.so it builds)."
        )


def cpu_marker_flags(marker: bytes) -> list[str]:
    """The flags a CPU marker (``_cpu.txt``) lists: its whitespace-separated words outside lines whose first word
    starts with ``#``. Bytes that are not UTF-8 are replaced (U+FFFD), so such a word names no flag a CPU has."""
    text = marker.decode("utf-8", errors="replace")
    return [flag for line in text.split("\n") if not line.lstrip().startswith("#") for flag in line.split()]


def _check_cpu(path: Path) -> None:
    """On Linux x86, :func:`check_cpu_flags` for a library with a CPU marker beside it; an unreadable marker or
    /proc/cpuinfo blocks nothing (the check is a courtesy, not a gate the library relies on)."""
    if not sys.platform.startswith("linux") or platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686"):
        return
    try:
        required = cpu_marker_flags((path.parent / _CPU_MARKER_NAME).read_bytes())
    except OSError:
        return
    if not required:
        return
    try:
        cpuinfo = _CPUINFO.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return
    check_cpu_flags(cpuinfo, required, path)


def _check_version(lib: ctypes.CDLL, path: Path) -> None:
    try:
        number_fn = lib.fathom_version_number
    except AttributeError as exc:
        raise LibraryVersionError(f"{path} does not export fathom_version_number: not a libfathom.so") from exc
    number_fn.argtypes = []
    number_fn.restype = c_uint32
    number = int(number_fn())
    major, minor = number // 10000, (number // 100) % 100
    if major != BINDING_VERSION[0] or minor < BINDING_VERSION[1]:
        wanted = ".".join(map(str, BINDING_VERSION))
        raise LibraryVersionError(
            f"{path} is libfathom {major}.{minor}.{number % 100}, but this binding needs "
            f"{BINDING_VERSION[0]}.x with x >= {BINDING_VERSION[1]} (written for {wanted}). "
            f"Install the matching fathom package or point {_LIBRARY_ENV} at a matching library."
        )


def library() -> ctypes.CDLL:
    """The loaded library (loaded on the first call; thread-safe)."""
    global _library
    lib = _library
    if lib is None:
        with _lock:
            if _library is None:
                _library = _load()
            lib = _library
    return lib


# ------------------------------------------------------------------------------------------------
# Prototypes
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prototype:
    """One C function's declaration: name, ctypes return type and argument types.

    ``returns_status`` is true for functions returning ``fathom_status``: their wrapper raises the
    matching :class:`fathom.FathomError` subclass for any status other than ``FATHOM_OK``.
    """

    name: str
    restype: Any
    argtypes: tuple[Any, ...]
    returns_status: bool


#: Every C function the binding declares, by name.
PROTOTYPES: dict[str, Prototype] = {}
#: The callable for each declared function (what the wrappers call), by name.
FUNCTIONS: dict[str, "CFunction"] = {}


class CFunction:
    """A lazily bound C function. Calling it loads the library on first use.

    A function returning ``fathom_status`` raises on any non-OK status and returns ``None``;
    others return their ctypes result.
    """

    __slots__ = ("prototype", "_fn")

    def __init__(self, prototype: Prototype) -> None:
        self.prototype = prototype
        self._fn: Optional[Callable[..., Any]] = None

    def _bind(self) -> Callable[..., Any]:
        lib = library()
        try:
            fn = getattr(lib, self.prototype.name)
        except AttributeError as exc:
            raise LibraryVersionError(
                f"{library_path()} does not export {self.prototype.name}, which this binding needs; "
                f"the library is older than or different from the header the binding was written for"
            ) from exc
        fn.argtypes = list(self.prototype.argtypes)
        fn.restype = self.prototype.restype
        self._fn = fn
        return fn

    def __call__(self, *args: Any) -> Any:
        fn = self._fn or self._bind()
        result = fn(*args)
        if self.prototype.returns_status:
            if result != 0:
                raise error_for_status(result)
            return None
        return result

    def raw(self, *args: Any) -> Any:
        """Calls the function and returns its result without checking the status."""
        fn = self._fn or self._bind()
        return fn(*args)

    def __repr__(self) -> str:
        return f"<CFunction {self.prototype.name}>"


def _register(proto: Prototype) -> CFunction:
    if proto.name in PROTOTYPES:
        raise RuntimeError(f"{proto.name} is declared twice")
    PROTOTYPES[proto.name] = proto
    FUNCTIONS[proto.name] = fn = CFunction(proto)
    return fn


def c_function(name: str, restype: Any, *argtypes: Any) -> CFunction:
    """Declares a C function that does not return ``fathom_status`` (its result is returned as is)."""
    return _register(Prototype(name, restype, tuple(argtypes), returns_status=False))


def status_function(name: str, *argtypes: Any) -> CFunction:
    """Declares a C function returning ``fathom_status``; calling it raises on any non-OK status."""
    return _register(Prototype(name, Status, tuple(argtypes), returns_status=True))


# Functions with no better home than the loader.
fathom_version = c_function("fathom_version", c_char_p)
fathom_version_number = c_function("fathom_version_number", c_uint32)
fathom_status_name = c_function("fathom_status_name", c_char_p, Status)
fathom_last_error = c_function("fathom_last_error", c_char_p)


def _decode(raw: Optional[bytes]) -> str:
    return raw.decode("utf-8", errors="replace") if raw else ""


def error_for_status(status: int) -> FathomError:
    """The exception for a non-OK status: its :mod:`fathom.errors` class, with the status name and the calling
    thread's ``fathom_last_error()`` text."""
    return exception_class(status)(status, _decode(fathom_status_name(status)), _decode(fathom_last_error()))


def check_status(status: int) -> None:
    """Raises the :class:`fathom.FathomError` subclass for ``status`` unless it is FATHOM_OK (0).

    For the results of :meth:`CFunction.raw` (calls that expect a status such as FATHOM_ERR_BUFFER_TOO_SMALL);
    functions declared with :func:`status_function` check their status themselves.
    """
    if status != 0:
        raise error_for_status(status)
