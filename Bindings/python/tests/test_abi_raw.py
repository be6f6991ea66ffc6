"""The C ABI below the Pythonic layer: NULL pointers, sizes, strides and capacities.

Python code cannot pass NULL through the classes, so these tests call the registered ctypes
functions directly. Each function first gets a set of valid arguments (and must succeed with them);
then each required pointer is replaced by NULL in turn, which must give FATHOM_ERR_NULL_POINTER with
a message naming the function and the argument.
"""

from __future__ import annotations

import ctypes
from ctypes import byref, c_bool, c_char, c_float, c_size_t, c_uint8, c_uint32, c_uint64
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import fathom
from fathom import _lib
from fathom._lib import BoxStruct, FaceStruct, IntrinsicsStruct, LabelPlacementStruct, LabelRequestStruct
from fathom._lib import BatchOptionsStruct, BoxHitStruct, HitStruct, MeshInfoStruct, MeshPtr, RayStruct
from fathom._lib import ObbStruct, PoseStruct, Quat, Vec3
from fathom._lib import DepthFrameStruct, DepthSelectionStruct, LengthOptionsStruct, LengthStruct, LineFitStruct
from fathom._lib import MaskStruct, PlaneFitStruct, RansacOptionsStruct
from fathom._lib import CoverageOptionsStruct, CoveragePtr, CoverageSummaryStruct, FaceCoverageStruct, MotionOptionsStruct
from fathom._lib import MotionPtr, MotionStateStruct, TrajectorySummaryStruct, ViewResultStruct

pytest.importorskip("pycparser")
from _header import Header, params  # noqa: E402

#: Pointer arguments the header documents as "may be NULL".
OPTIONAL = {
    ("fathom_obb_mask_inside", "out_inside"),
    ("fathom_tag_fuse", "covariances"),
    ("fathom_tag_fuse", "out_covariance"),
    ("fathom_mesh_create", "classes"),
    ("fathom_mesh_face_geometry", "out_normals"),
    ("fathom_mesh_face_geometry", "out_areas"),
    ("fathom_tap_floor_height", "mesh"),
    ("fathom_tap_place_box", "mesh"),
    ("fathom_mesh_intersect_batch", "options"),
    ("fathom_mesh_intersect_batch_compact", "options"),
    ("fathom_mesh_intersect_batch_compact", "out_t"),
    ("fathom_mesh_intersect_batch_compact", "out_primitive"),
    ("fathom_mesh_ray_order", "options"),
    ("fathom_fit_line_ransac", "out_inliers"),
    ("fathom_fit_plane_ransac", "out_inliers"),
    ("fathom_fit_line_ransacf", "out_inliers"),
    ("fathom_fit_plane_ransacf", "out_inliers"),
    ("fathom_mesh_occluded_batch", "options"),
    ("fathom_mesh_intersect_all_batch", "options"),
    ("fathom_depth_count", "selection"),
    ("fathom_depth_backproject", "selection"),
    ("fathom_depth_backproject", "out_pixels"),
    ("fathom_depth_backproject", "out_normals"),
    ("fathom_length_keypoints", "mask"),
    ("fathom_length_keypoints", "options"),
    ("fathom_length_mask", "options"),
    ("fathom_length_midline", "options"),
    ("fathom_length_midline", "curve"),
    ("fathom_length_polyline", "mask"),
    ("fathom_length_polyline", "options"),
    ("fathom_mask_endpoints", "out_axis"),
    ("fathom_coverage_create", "options"),
    ("fathom_coverage_record", "intrinsics"),
    ("fathom_coverage_record", "out"),
    ("fathom_coverage_record_batch", "intrinsics"),
    ("fathom_coverage_record_batch", "out"),
    ("fathom_coverage_bins", "out_directions"),
    ("fathom_motion_create", "options"),
    ("fathom_motion_update", "out"),
    ("fathom_motion_update_batch", "out"),
    ("fathom_trajectory_summarize", "options"),
    ("fathom_scan_frame", "confidence"),
    ("fathom_scan_open_with", "options"),
    ("fathom_scan_writer_create", "options"),
    ("fathom_scan_point_cloud", "options"),
    ("fathom_ply_write_points", "normals"),
    ("fathom_ply_write_points", "colors"),
    ("fathom_ply_write_points", "confidence"),
    ("fathom_transforms_save", "file_paths"),
    ("fathom_capture_create", "options"),
    ("fathom_capture_create", "box"),
    ("fathom_capture_add_frame", "out"),
    ("fathom_capture_add_pose", "out"),
    ("fathom_capture_coverage", "box"),
    ("fathom_scan_report", "options"),
    ("fathom_scan_report", "box"),
}

CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32)
#: One triangle in the plane y = 0 around the origin, hit by the ray from (0, 1, 0) straight down.
TRIANGLE = np.array([[-1, 0, -1], [1, 0, -1], [0, 0, 1]], dtype=np.float32)


class Args:
    """Fresh valid arguments for every call (outputs are new buffers each time)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.manifest = fathom.Box((0, 0, 0), (1, 1, 1), 0.2).to_manifest().encode()
        self.saved = tmp / "saved.json"
        self.saved.write_bytes(self.manifest)
        self.obj = tmp / "triangle.obj"
        self.obj.write_text("v -1 0 -1\nv 1 0 -1\nv 0 0 1\nf 1 2 3\n")
        self.made: list[Any] = []  # meshes made by the calls, freed by close()
        self.mesh = self.new_mesh_out()
        status = _lib.FUNCTIONS["fathom_mesh_create"].raw(
            self.floats(TRIANGLE), 3, 12, (c_uint32 * 3)(0, 1, 2), 1, None, 0, byref(self.mesh)
        )
        assert status == 0, _lib.fathom_last_error()

    def new_mesh_out(self) -> Any:
        out = MeshPtr()
        self.made.append(out)
        return out

    def close(self) -> None:
        for m in self.made:
            _lib.FUNCTIONS["fathom_mesh_destroy"](m)  # NULL (never made) is allowed
        self.made.clear()
        for c in getattr(self, "coverages", []):
            _lib.FUNCTIONS["fathom_coverage_destroy"](c)
        for m in getattr(self, "motions", []):
            _lib.FUNCTIONS["fathom_motion_destroy"](m)
        for s in getattr(self, "scans", []):
            _lib.FUNCTIONS["fathom_scan_destroy"](s)  # NULL (never opened) is allowed
        for w in getattr(self, "writers", []):
            _lib.FUNCTIONS["fathom_scan_writer_destroy"](w)
        for c in getattr(self, "captures", []):
            _lib.FUNCTIONS["fathom_capture_destroy"](c)
        for r in getattr(self, "reports", []):
            _lib.FUNCTIONS["fathom_report_destroy"](r)
        for c in getattr(self, "clouds", []) + getattr(self, "scan_clouds", []):
            _lib.FUNCTIONS["fathom_point_cloud_destroy"](c)
        for t in getattr(self, "transforms", []):
            _lib.FUNCTIONS["fathom_transforms_destroy"](t)  # NULL (never read) is allowed
        self.scan_clouds, self.transforms = [], []
        self.captures, self.reports, self.clouds = [], [], []
        self.scans, self.writers = [], []
        self.coverages, self.motions = [], []

    def new_coverage(self) -> Any:
        """A fresh coverage tracker for a unit box on a floor (freed by close())."""
        out = CoveragePtr()
        status = _lib.FUNCTIONS["fathom_coverage_create"].raw(self.box(floor=True), None, byref(out))
        assert status == 0, _lib.fathom_last_error()
        self.coverages = [*getattr(self, "coverages", []), out]
        return out

    def new_motion(self) -> Any:
        """A fresh motion tracker (freed by close())."""
        out = MotionPtr()
        status = _lib.FUNCTIONS["fathom_motion_create"].raw(None, byref(out))
        assert status == 0, _lib.fathom_last_error()
        self.motions = [*getattr(self, "motions", []), out]
        return out

    def coverage_out(self) -> Any:
        out = CoveragePtr()
        self.coverages = [*getattr(self, "coverages", []), out]
        return out

    def motion_out(self) -> Any:
        out = MotionPtr()
        self.motions = [*getattr(self, "motions", []), out]
        return out

    @staticmethod
    def camera(z: float = -2.0) -> Any:
        """A camera at (0, 0.5, z) looking along +z (at the box at the origin)."""
        m = np.eye(4)
        m[:3, 0], m[:3, 2], m[:3, 3] = (-1, 0, 0), (0, 0, -1), (0, 0.5, z)
        return byref(PoseStruct(Args.floats(m.T)))

    @staticmethod
    def cameras(n: int) -> Any:
        poses = (PoseStruct * n)()
        for i in range(n):
            m = np.eye(4)
            m[:3, 0], m[:3, 2], m[:3, 3] = (-1, 0, 0), (0, 0, -1), (0.1 * i, 0.5, -2.0)
            poses[i] = PoseStruct(Args.floats(m.T))
        return poses

    def guidance_table(self) -> dict[str, Callable[[], list[Any]]]:
        cov, mot, k = self.new_coverage, self.new_motion, self.intrinsics
        times = lambda n: (ctypes.c_int64 * n)(*[10_000_000 * i for i in range(n)])  # noqa: E731
        return {
            "fathom_coverage_options_init": lambda: [byref(CoverageOptionsStruct())],
            "fathom_coverage_create": lambda: [self.box(), byref(CoverageOptionsStruct(10, 4, 4, 12, -1, -1, 0, 1e9, 0, 0.1, 0.1)),
                                               byref(self.coverage_out())],
            "fathom_coverage_record": lambda: [cov(), self.camera(), k(), byref(ViewResultStruct())],
            "fathom_coverage_record_batch": lambda: [cov(), self.cameras(3), 3, k(), (ViewResultStruct * 3)()],
            "fathom_coverage_face": lambda: [cov(), 0, byref(FaceCoverageStruct())],
            "fathom_coverage_get_summary": lambda: [cov(), byref(CoverageSummaryStruct())],
            "fathom_coverage_cells": lambda: [cov(), 0, (c_uint32 * 16)(), 16],
            "fathom_coverage_bins": lambda: [cov(), (c_uint32 * 48)(), (c_float * 144)(), 48],
            "fathom_coverage_next_view": lambda: [cov(), 2.0, byref(Vec3()), byref(Vec3())],
            "fathom_coverage_reset": lambda: [cov()],
            "fathom_motion_options_init": lambda: [byref(MotionOptionsStruct())],
            "fathom_motion_create": lambda: [
                byref(MotionOptionsStruct(0.1, 0.1, 0.2, 0.3, 0.2, 0.5, (c_float * 3)(1, 2, 3))), byref(self.motion_out())
            ],
            "fathom_motion_update": lambda: [mot(), 5, self.camera(), byref(MotionStateStruct())],
            "fathom_motion_update_batch": lambda: [mot(), times(3), self.cameras(3), 3, (MotionStateStruct * 3)()],
            "fathom_motion_get_state": lambda: [mot(), byref(MotionStateStruct())],
            "fathom_motion_reset": lambda: [mot()],
            "fathom_trajectory_summarize": lambda: [times(3), self.cameras(3), 3, None, byref(TrajectorySummaryStruct())],
            "fathom_trajectory_select": lambda: [self.cameras(3), 3, 0.05, float("inf"), (c_uint32 * 3)(), 3, byref(c_size_t())],
        }

    @staticmethod
    def intrinsics() -> Any:
        return byref(IntrinsicsStruct(500, 500, 320, 240, 640, 480))

    @staticmethod
    def ray() -> Any:
        return byref(RayStruct(Vec3(0, 1, 0), Vec3(0, -1, 0)))

    @staticmethod
    def rays() -> Any:
        return (RayStruct * 2)(RayStruct(Vec3(0, 1, 0), Vec3(0, -1, 0)), RayStruct(Vec3(0.1, 1, 0), Vec3(0, -2, 0)))

    @staticmethod
    def options() -> Any:
        return byref(BatchOptionsStruct(0.0, float("inf"), 1))

    @staticmethod
    def floats(values: Any) -> Any:
        a = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
        return (c_float * a.size)(*a)

    @staticmethod
    def pose() -> Any:
        return byref(PoseStruct(Args.floats(np.eye(4))))

    @staticmethod
    def box(floor: bool = False) -> Any:
        c = BoxStruct(Vec3(0, 0.5, 0), Vec3(1, 1, 1), 0.3, 0.0, 1 if floor else 0)
        return byref(c)

    @staticmethod
    def obb() -> Any:
        return byref(ObbStruct(Vec3(0, 0, 0), Vec3(1, 1, 1), Quat(0, 0, 0, 1)))

    @staticmethod
    def points() -> Any:
        return Args.floats(CUBE)

    def table(self) -> dict[str, Callable[[], list[Any]]]:
        Q, V = Quat(0, 0, 0, 1), Vec3(0.1, 0.2, 0.3)
        f, pose, box, obb, pts = self.floats, self.pose, self.box, self.obb, self.points
        out_f = lambda n=1: (c_float * n)()  # noqa: E731
        return {
            "fathom_quat_from_axis_angle": lambda: [Vec3(0, 1, 0), 0.5, byref(Quat())],
            "fathom_quat_from_matrix": lambda: [f(np.eye(3)), byref(Quat())],
            "fathom_quat_to_matrix": lambda: [Q, out_f(9)],
            "fathom_quat_multiply": lambda: [Q, Q, byref(Quat())],
            "fathom_quat_normalize": lambda: [Q, byref(Quat())],
            "fathom_quat_slerp": lambda: [Q, Q, 0.5, byref(Quat())],
            "fathom_quat_angle_between": lambda: [Q, Q, out_f()],
            "fathom_quat_rotate": lambda: [Q, V, byref(Vec3())],
            "fathom_pose_from_rotation_translation": lambda: [Q, V, byref(PoseStruct())],
            "fathom_pose_to_rotation_translation": lambda: [pose(), byref(Quat()), byref(Vec3())],
            "fathom_pose_from_row_major": lambda: [f(np.eye(4)), byref(PoseStruct())],
            "fathom_pose_to_row_major": lambda: [pose(), out_f(16)],
            "fathom_pose_check_rigid": lambda: [pose(), 1e-3],
            "fathom_pose_orthonormalize": lambda: [pose(), 0.01, byref(PoseStruct())],
            "fathom_pose_compose": lambda: [pose(), pose(), byref(PoseStruct())],
            "fathom_pose_invert": lambda: [pose(), byref(PoseStruct())],
            "fathom_poses_convert": lambda: [pose(), 1, 0, 1, byref(PoseStruct())],
            "fathom_pose_transform_point": lambda: [pose(), V, byref(Vec3())],
            "fathom_pose_transform_direction": lambda: [pose(), V, byref(Vec3())],
            "fathom_pose_transform_points": lambda: [pose(), pts(), 8, 12, out_f(24)],
            "fathom_pose_yaw": lambda: [pose(), out_f()],
            "fathom_pose_distance": lambda: [pose(), pose(), out_f(), out_f()],
            "fathom_box_init": lambda: [V, Vec3(1, 1, 1), 0.0, byref(BoxStruct())],
            "fathom_box_check": lambda: [box()],
            "fathom_box_corners": lambda: [box(), (Vec3 * 8)()],
            "fathom_box_set_center": lambda: [box(), V],
            "fathom_box_update_center": lambda: [box(), V],
            "fathom_box_update_center_in_camera": lambda: [box(), V, pose()],
            "fathom_box_set_center_on_floor": lambda: [box(floor=True), 0.0, 0.0],
            "fathom_box_set_scale": lambda: [box(), Vec3(1, 2, 3)],
            "fathom_box_update_scale": lambda: [box(), Vec3(1, 2, 3)],
            "fathom_box_set_angle": lambda: [box(), 0.1],
            "fathom_box_update_angle": lambda: [box(), 0.1],
            "fathom_box_set_floor": lambda: [box(), -1.0],
            "fathom_box_clear_floor": lambda: [box(floor=True)],
            "fathom_box_extend_side": lambda: [box(), Vec3(0, 0, 0.1)],
            "fathom_box_shrink_side": lambda: [box(), Vec3(0, 0, 0.1)],
            "fathom_box_faces": lambda: [box(), (FaceStruct * 6)()],
            "fathom_box_face_distances": lambda: [box(), V, out_f(6)],
            "fathom_box_manifest_write": lambda: [box(), (c_char * 4096)(), 4096, byref(c_size_t())],
            "fathom_box_manifest_read": lambda: [self.manifest, len(self.manifest), byref(BoxStruct())],
            "fathom_box_manifest_save": lambda: [box(), str(self.tmp / "out.json").encode()],
            "fathom_box_manifest_load": lambda: [str(self.saved).encode(), byref(BoxStruct())],
            "fathom_box_to_obb": lambda: [box(), byref(ObbStruct())],
            "fathom_obb_check": lambda: [obb()],
            "fathom_obb_corners": lambda: [obb(), (Vec3 * 8)()],
            "fathom_obb_volume": lambda: [obb(), out_f()],
            "fathom_obb_count_inside": lambda: [obb(), pts(), 8, 12, byref(c_size_t())],
            "fathom_obb_mask_inside": lambda: [obb(), pts(), 8, 12, (c_uint8 * 8)(), byref(c_size_t())],
            "fathom_obb_indices_inside": lambda: [obb(), pts(), 8, 12, (c_uint64 * 8)(), 8, byref(c_size_t())],
            "fathom_obb_signed_distances": lambda: [obb(), pts(), 8, 12, out_f(8)],
            "fathom_obb_fit_pca": lambda: [pts(), 8, 12, byref(ObbStruct()), out_f()],
            "fathom_box_fit_upright": lambda: [pts(), 8, 12, byref(BoxStruct()), out_f()],
            "fathom_tag_world_pose": lambda: [pose(), pose(), byref(PoseStruct())],
            "fathom_tag_snap_vertical": lambda: [pose(), byref(PoseStruct())],
            "fathom_covariance_rotate": lambda: [pose(), f(np.eye(3)), out_f(9)],
            "fathom_tag_fuse": lambda: [pose(), f(np.eye(3)), 1, byref(PoseStruct()), out_f(9)],
            "fathom_label_place": lambda: [
                byref(LabelRequestStruct(0, 0, 0.4, 0.3, 0.2, 0.1, Vec3(), Vec3(), 0)),
                byref(LabelPlacementStruct()),
            ],
            "fathom_intrinsics_scale": lambda: [
                byref(IntrinsicsStruct(500, 500, 320, 240, 640, 480)), 320, 240, byref(IntrinsicsStruct()),
            ],
            **self.raycast_table(),
            **self.depth_table(),
            **self.guidance_table(),
            **self.scan_table(),
            **self.files_table(),
            **self.capture_table(),
        }

    def raycast_table(self) -> dict[str, Callable[[], list[Any]]]:
        k, pose, ray, rays, opts, mesh = self.intrinsics, self.pose, self.ray, self.rays, self.options, self.mesh
        hit = lambda n=1: (HitStruct * n)()  # noqa: E731
        inf = float("inf")
        return {
            "fathom_camera_ray": lambda: [k(), pose(), 1.0, 2.0, byref(RayStruct())],
            "fathom_camera_project": lambda: [
                k(), pose(), Vec3(0, 0, -1), (c_float * 1)(), (c_float * 1)(), byref(c_uint32())
            ],
            "fathom_camera_grid_rays": lambda: [k(), pose(), 64, (RayStruct * 80)(), 80, byref(c_size_t())],
            "fathom_ray_plane": lambda: [ray(), 0.0, inf, Vec3(0, 0, 0), Vec3(0, 1, 0), hit()],
            "fathom_ray_floor": lambda: [ray(), 0.0, inf, 0.0, hit()],
            "fathom_ray_sphere": lambda: [ray(), 0.0, inf, Vec3(0, 0, 0), 0.5, hit()],
            "fathom_ray_obb": lambda: [ray(), 0.0, inf, self.obb(), byref(BoxHitStruct())],
            "fathom_ray_triangle": lambda: [ray(), 0.0, inf, Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(0, 0, 1), hit()],
            "fathom_mesh_create": lambda: [
                self.floats(TRIANGLE), 3, 12, (c_uint32 * 3)(0, 1, 2), 1, (c_uint8 * 1)(2), 0,
                byref(self.new_mesh_out()),
            ],
            "fathom_mesh_load": lambda: [str(self.obj).encode(), byref(self.new_mesh_out())],
            "fathom_mesh_get_info": lambda: [mesh, byref(MeshInfoStruct())],
            "fathom_mesh_face_geometry": lambda: [mesh, (c_float * 3)(), (c_float * 1)()],
            "fathom_mesh_intersect": lambda: [mesh, ray(), 0.0, inf, hit()],
            "fathom_mesh_occluded": lambda: [mesh, ray(), 0.0, inf, byref(c_bool())],
            "fathom_mesh_intersect_all": lambda: [mesh, ray(), 0.0, inf, hit(4), 4, byref(c_size_t())],
            "fathom_mesh_intersect_batch": lambda: [mesh, rays(), 2, opts(), hit(2)],
            "fathom_mesh_intersect_batch_compact": lambda: [mesh, rays(), 2, opts(), (c_float * 2)(), (c_uint32 * 2)()],
            "fathom_mesh_ray_order": lambda: [mesh, rays(), 2, opts(), (c_uint32 * 2)()],
            "fathom_batch_options_init": lambda: [byref(BatchOptionsStruct())],
            "fathom_mesh_occluded_batch": lambda: [mesh, rays(), 2, opts(), (c_bool * 2)()],
            "fathom_mesh_intersect_all_batch": lambda: [mesh, rays(), 2, opts(), hit(4), 4, (c_uint64 * 3)()],
            "fathom_tap_floor_height": lambda: [
                k(), pose(), 320.0, 400.0, mesh, Vec3(0, -1, 0), Vec3(0, 1, 0), (c_float * 1)(), byref(c_bool())
            ],
            "fathom_tap_place_box": lambda: [k(), pose(), 320.0, 400.0, mesh, self.box(floor=True), byref(c_bool())],
            "fathom_tap_box_face": lambda: [k(), pose(), 320.0, 240.0, self.box(), byref(c_uint32())],
        }


    def files_table(self) -> dict[str, Callable[[], list[Any]]]:
        """Point clouds and PLY, mesh export, transforms.json (files in the test's temporary directory; transforms
        handles freed by close())."""
        ply = self.tmp / "cloud.ply"
        fathom.write_ply(ply, CUBE, normals=CUBE, colors=np.zeros((8, 3), np.uint8), confidence=np.ones(8, np.uint8))
        self.cloud = fathom.read_ply(ply)  # freed with the Args (its handle passes straight to C)
        self.classified = fathom.Mesh(TRIANGLE, [[0, 1, 2]], [2])
        transforms = self.tmp / "transforms.json"
        fathom.write_transforms(transforms, np.stack([np.eye(4)] * 2), fathom.Intrinsics(500, 500, 320, 240, 640, 480),
                                ["a.png", "b.png"])
        cloud, mesh, path = self.cloud, self.mesh, str(transforms).encode()
        names = lambda: (ctypes.c_char_p * 2)(b"a.png", b"b.png")  # noqa: E731
        self.transforms: list[Any] = getattr(self, "transforms", [])

        def read() -> Any:
            out = _lib.TransformsPtr()
            self.transforms.append(out)
            assert _lib.FUNCTIONS["fathom_transforms_read"].raw(path, 30.0, byref(out)) == 0, _lib.fathom_last_error()
            return out

        def new_out(kind: Any, where: list[Any]) -> Any:
            out = kind()
            where.append(out)
            return byref(out)

        handle = read()  # a transforms.json read once, for fathom_transforms_frames and _paths
        return {
            "fathom_point_cloud_load_ply": lambda: [str(ply).encode(), byref(_lib.PointCloudPtr())],
            "fathom_point_cloud_get_info": lambda: [cloud, byref(_lib.PointCloudInfoStruct())],
            "fathom_point_cloud_points": lambda: [cloud, (c_float * 24)(), 8],
            "fathom_point_cloud_normals": lambda: [cloud, (c_float * 24)(), 8],
            "fathom_point_cloud_colors": lambda: [cloud, (c_uint8 * 24)(), 8],
            "fathom_point_cloud_confidence": lambda: [cloud, (c_uint8 * 8)(), 8],
            "fathom_point_cloud_save_ply": lambda: [cloud, str(self.tmp / "saved.ply").encode(), 1],
            "fathom_ply_write_points": lambda: [
                str(self.tmp / "points.ply").encode(), self.points(), 8, 12, self.points(), (c_uint8 * 24)(), (c_uint8 * 8)(), 0
            ],
            "fathom_mesh_vertices": lambda: [mesh, (c_float * 9)(), 3],
            "fathom_mesh_triangles": lambda: [mesh, (c_uint32 * 3)(), 1],
            "fathom_mesh_classes": lambda: [self.classified, (c_uint8 * 1)(), 1],
            "fathom_mesh_save": lambda: [mesh, str(self.tmp / "saved.obj").encode()],
            "fathom_transforms_read": lambda: [path, 30.0, new_out(_lib.TransformsPtr, self.transforms)],
            "fathom_transforms_frames": lambda: [
                handle, (ctypes.c_int64 * 2)(), (PoseStruct * 2)(), (IntrinsicsStruct * 2)(), 2, byref(c_size_t())
            ],
            "fathom_transforms_paths": lambda: [handle, (c_char * 64)(), 64, byref(c_size_t())],
            "fathom_transforms_save": lambda: [
                str(self.tmp / "saved_transforms.json").encode(), self.cameras(2),
                (IntrinsicsStruct * 2)(*[IntrinsicsStruct(500, 500, 320, 240, 640, 480)] * 2), 2, names(),
            ],
        }

    def scan_table(self) -> dict[str, Callable[[], list[Any]]]:
        """Scans: a 2-frame 4x3 float16 scan with confidence, and writers of that shape (freed by close())."""
        folder = self.tmp / "abi_scan"
        drifted = np.eye(4)
        drifted[0, 1] = 1e-4  # off rigid by 1e-4: re-orthonormalized on reading, so the scan has a warning
        fathom.write_scan(folder, "20240101_000000_abi", [1000, 2000], [drifted, np.eye(4)],
                          np.array([[500.0, 0, 320], [0, 500, 240], [0, 0, 1]]), np.ones((2, 3, 4), np.float16),
                          np.full((2, 3, 4), 2, np.uint8), rgb_size=(640, 480))
        path = str(folder).encode()
        self.scans: list[Any] = getattr(self, "scans", [])
        self.scan_clouds: list[Any] = getattr(self, "scan_clouds", [])
        self.writers: list[Any] = getattr(self, "writers", [])

        def opened() -> Any:
            out = _lib.ScanPtr()
            self.scans.append(out)
            assert _lib.FUNCTIONS["fathom_scan_open"].raw(path, byref(out)) == 0, _lib.fathom_last_error()
            return out

        def options() -> Any:
            o = _lib.ScanWriterOptionsStruct()
            _lib.FUNCTIONS["fathom_scan_writer_options_init"](byref(o))
            o.depth_width, o.depth_height, o.rgb_width, o.rgb_height = 4, 3, 640, 480
            return o

        def writer() -> Any:
            out = _lib.ScanWriterPtr()
            self.writers.append(out)
            status = _lib.FUNCTIONS["fathom_scan_writer_create"].raw(str(self.tmp).encode(), b"w", byref(options()), byref(out))
            assert status == 0, _lib.fathom_last_error()
            return out

        def new_out(kind: Any, where: list[Any]) -> Any:
            out = kind()
            where.append(out)
            return byref(out)

        depth = lambda: ctypes.cast((ctypes.c_uint16 * 12)(*[0x3C00] * 12), ctypes.c_void_p)  # noqa: E731  (1.0 in float16)
        scan = opened()
        k = IntrinsicsStruct(500, 500, 320, 240, 640, 480)
        return {
            "fathom_scan_open": lambda: [path, new_out(_lib.ScanPtr, self.scans)],
            "fathom_scan_open_options_init": lambda: [byref(_lib.ScanOpenOptionsStruct())],
            "fathom_scan_open_with": lambda: [path, byref(_lib.ScanOpenOptionsStruct(True)), new_out(_lib.ScanPtr, self.scans)],
            "fathom_scan_write": lambda: [scan, str(self.tmp / "abi_stray").encode(), 1, _lib.ProgressFn(), None],
            "fathom_scan_get_info": lambda: [scan, byref(_lib.ScanInfoStruct())],
            "fathom_scan_id": lambda: [scan, (c_char * 64)(), 64, byref(c_size_t())],
            "fathom_scan_warning": lambda: [scan, 0, (c_char * 512)(), 512, byref(c_size_t())],
            "fathom_scan_timestamps": lambda: [scan, (ctypes.c_int64 * 2)(), 2],
            "fathom_scan_poses": lambda: [scan, (PoseStruct * 2)(), 2],
            "fathom_scan_intrinsics": lambda: [scan, (IntrinsicsStruct * 2)(), 2],
            "fathom_scan_read_depth": lambda: [scan, 1, depth(), 24],
            "fathom_scan_read_confidence": lambda: [scan, 1, (c_uint8 * 12)(), 12],
            "fathom_scan_frame": lambda: [scan, 0, depth(), 24, (c_uint8 * 12)(), 12, byref(DepthFrameStruct())],
            "fathom_scan_writer_options_init": lambda: [byref(_lib.ScanWriterOptionsStruct())],
            "fathom_scan_cloud_options_init": lambda: [byref(_lib.ScanCloudOptionsStruct())],
            "fathom_scan_point_cloud": lambda: [scan, byref(_lib.ScanCloudOptionsStruct(0, float("inf"), 0.0, 1)),
                                                new_out(_lib.PointCloudPtr, self.scan_clouds)],
            "fathom_scan_writer_create": lambda: [
                str(self.tmp).encode(), b"c", byref(options()), new_out(_lib.ScanWriterPtr, self.writers)
            ],
            "fathom_scan_writer_append": lambda: [
                writer(), 5, byref(k), self.pose(), depth(), 24, (c_uint8 * 12)(), 12
            ],
            "fathom_scan_writer_finish": lambda: [writer()],
        }

    def depth_frame(self) -> Any:
        """A 4x3 float32 depth map at 1 m everywhere, for a 640x480 RGB image."""
        frame = DepthFrameStruct()
        status = _lib.FUNCTIONS["fathom_depth_frame_init"].raw(
            byref(frame), self.depth.ctypes.data_as(ctypes.c_void_p), 0, 4, 3, self.intrinsics()
        )
        assert status == 0, _lib.fathom_last_error()
        return byref(frame)

    def mask(self) -> Any:
        return byref(MaskStruct(self.mask_bytes.ctypes.data_as(ctypes.POINTER(c_uint8)), 4, 3, 0))

    @staticmethod
    def doubles(values: Any) -> Any:
        a = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
        return (ctypes.c_double * a.size)(*a)

    def capture_table(self) -> dict[str, Callable[[], list[Any]]]:
        """Captures (made with a given box, so a box and coverage exist at once) and reports (freed by close())."""
        self.captures: list[Any] = getattr(self, "captures", [])
        self.reports: list[Any] = getattr(self, "reports", [])
        self.clouds: list[Any] = getattr(self, "clouds", [])
        self.coverages = getattr(self, "coverages", [])
        capture_ptr = ctypes.POINTER(_lib.CaptureOpaque)
        report_ptr = ctypes.POINTER(_lib.ReportOpaque)
        self.depth = getattr(self, "depth", np.ones((3, 4), np.float32))

        def options() -> Any:
            o = _lib.CaptureOptionsStruct()
            _lib.FUNCTIONS["fathom_capture_options_init"](byref(o))
            return byref(o)

        def capture(frames: int = 1) -> Any:
            out = capture_ptr()
            self.captures.append(out)
            assert _lib.FUNCTIONS["fathom_capture_create"].raw(options(), self.box(floor=True), byref(out)) == 0, _lib.fathom_last_error()
            for i in range(frames):
                status = _lib.FUNCTIONS["fathom_capture_add_pose"].raw(out, 1000 * (i + 1), self.pose(), self.intrinsics(), None)
                assert status == 0, _lib.fathom_last_error()
            return out

        def report() -> Any:
            out = report_ptr()
            self.reports.append(out)
            assert _lib.FUNCTIONS["fathom_capture_report"].raw(capture(), byref(out)) == 0, _lib.fathom_last_error()
            return out

        def report_parts() -> list[Any]:
            """A report's JSON, its clouds (empty here) said to hold two points each, those points, and the out
            pointer: every pointer is then required."""
            r = report()
            text, length = (c_char * 2_000_000)(), c_size_t()
            assert _lib.FUNCTIONS["fathom_report_json"].raw(r, text, 2_000_000, byref(length)) == 0, _lib.fathom_last_error()
            json_text = text.value.replace(b'"cloud_points":0,"object_points":0,', b'"cloud_points":2,"object_points":2,')
            assert json_text != text.value
            points = (c_float * 6)(0, 0, 0, 1, 0, 0)
            return [json_text, len(json_text), points, 2, 12, points, 2, 12, new_out(report_ptr, self.reports)]

        def new_out(kind: Any, where: list[Any]) -> Any:
            out = kind()
            where.append(out)
            return byref(out)

        def frame_with_pose() -> Any:
            f = DepthFrameStruct()
            status = _lib.FUNCTIONS["fathom_depth_frame_init"].raw(
                byref(f), self.depth.ctypes.data_as(ctypes.c_void_p), 0, 4, 3, self.intrinsics()
            )
            assert status == 0, _lib.fathom_last_error()
            f.has_pose = 1
            return byref(f)

        scan_out = _lib.ScanPtr()
        self.scans = [*getattr(self, "scans", []), scan_out]
        folder = self.tmp / "abi_scan"
        assert _lib.FUNCTIONS["fathom_scan_open"].raw(str(folder).encode(), byref(scan_out)) == 0, _lib.fathom_last_error()
        return {
            "fathom_capture_options_init": lambda: [byref(_lib.CaptureOptionsStruct())],
            "fathom_capture_create": lambda: [options(), self.box(floor=True), new_out(capture_ptr, self.captures)],
            "fathom_capture_add_frame": lambda: [capture(0), 5, frame_with_pose(), byref(MotionStateStruct())],
            "fathom_capture_add_pose": lambda: [capture(0), 5, self.pose(), self.intrinsics(), byref(MotionStateStruct())],
            "fathom_capture_wants_depth": lambda: [capture(0), self.pose(), byref(c_bool())],
            "fathom_capture_get_status": lambda: [capture(), byref(_lib.CaptureStatusStruct())],
            "fathom_capture_box": lambda: [capture(), byref(BoxStruct())],
            "fathom_capture_coverage": lambda: [capture(), self.box(floor=True), new_out(CoveragePtr, self.coverages)],
            "fathom_capture_cloud": lambda: [capture(), new_out(_lib.PointCloudPtr, self.clouds)],
            "fathom_capture_report": lambda: [capture(), new_out(report_ptr, self.reports)],
            "fathom_scan_report": lambda: [scan_out, options(), self.box(floor=True), _lib.ProgressFn(), None,
                                           new_out(report_ptr, self.reports)],
            "fathom_report_get_summary": lambda: [report(), byref(_lib.ReportSummaryStruct())],
            "fathom_report_json": lambda: [report(), (c_char * 100_000)(), 100_000, byref(c_size_t())],
            "fathom_report_cloud": lambda: [report(), 0, new_out(_lib.PointCloudPtr, self.clouds)],
            "fathom_report_save": lambda: [report(), str(self.tmp / "report").encode()],
            "fathom_report_html": lambda: [report(), (c_char * 2_000_000)(), 2_000_000, byref(c_size_t())],
            "fathom_report_from_json": report_parts,
        }

    def depth_table(self) -> dict[str, Callable[[], list[Any]]]:
        self.depth = np.ones((3, 4), np.float32)
        self.mask_bytes = np.ones((3, 4), np.uint8)
        frame, mask, k, d, f = self.depth_frame, self.mask, self.intrinsics, self.doubles, self.floats
        line2 = [[0, 0], [1, 1.1], [2, 1.9]]
        line3 = [[0, 0, 0], [1, 1.1, 1], [2, 1.9, 2], [3, 3, 3.1]]
        plane = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.01]]
        ransac = lambda: byref(RansacOptionsStruct(threshold=0.1, confidence=0.99, seed=7, iterations=10))  # noqa: E731
        sel = lambda: byref(DepthSelectionStruct(0, 0, 0, 0, 1, None))  # noqa: E731
        options = lambda: byref(LengthOptionsStruct(1, 5, 1, 2, 0.005, RansacOptionsStruct(threshold=0.005, confidence=1.0, seed=0, iterations=100), 0.005, 2, 1))  # noqa: E731
        return {
            "fathom_depth_frame_init": lambda: [
                byref(DepthFrameStruct()), self.depth.ctypes.data_as(ctypes.c_void_p), 0, 4, 3, k()
            ],
            "fathom_depth_count": lambda: [frame(), sel(), byref(c_size_t())],
            "fathom_depth_backproject": lambda: [
                frame(), sel(), 1, (c_float * 36)(), (c_uint32 * 24)(), (c_float * 36)(), 12, byref(c_size_t())
            ],
            "fathom_depth_sample": lambda: [frame(), 320.0, 240.0, 2, 3, (c_float * 1)()],
            "fathom_depth_point": lambda: [frame(), 320.0, 240.0, 0, 1, 1, byref(Vec3())],
            "fathom_fit_line2": lambda: [d(line2), 3, 0, 1, byref(LineFitStruct())],
            "fathom_fit_line3": lambda: [d(line3), 4, 0, byref(LineFitStruct())],
            "fathom_fit_line_ransac": lambda: [d(line3), 4, 24, 3, ransac(), byref(LineFitStruct()), None],
            "fathom_fit_plane": lambda: [d(plane), 4, 0, byref(PlaneFitStruct())],
            "fathom_fit_plane_ransac": lambda: [d(plane), 4, 0, ransac(), byref(PlaneFitStruct()), None],
            "fathom_ransac_options_init": lambda: [byref(RansacOptionsStruct())],
            "fathom_fit_line2f": lambda: [f(line2), 3, 0, 1, byref(LineFitStruct())],
            "fathom_fit_line3f": lambda: [f(line3), 4, 0, byref(LineFitStruct())],
            "fathom_fit_line_ransacf": lambda: [f(line3), 4, 12, 3, ransac(), byref(LineFitStruct()), None],
            "fathom_fit_planef": lambda: [f(plane), 4, 0, byref(PlaneFitStruct())],
            "fathom_fit_plane_ransacf": lambda: [f(plane), 4, 0, ransac(), byref(PlaneFitStruct()), None],
            "fathom_length_options_init": lambda: [byref(LengthOptionsStruct())],
            "fathom_length_keypoints": lambda: [frame(), 100.0, 100.0, 500.0, 400.0, mask(), options(), byref(LengthStruct())],
            "fathom_length_mask": lambda: [frame(), mask(), options(), byref(LengthStruct())],
            "fathom_length_midline": lambda: [frame(), mask(), options(), byref(LengthStruct()), (ctypes.c_double * 12)(), 4],
            "fathom_length_polyline": lambda: [
                frame(), (c_float * 4)(100, 100, 500, 400), 2, mask(), options(), byref(LengthStruct())
            ],
            "fathom_mask_endpoints": lambda: [mask(), (c_float * 2)(), (c_float * 2)(), byref(LineFitStruct())],
        }


@pytest.fixture(scope="module")
def header(header_path: Path) -> Header:
    return Header(header_path)


@pytest.fixture
def args(tmp_path: Path):
    a = Args(tmp_path)
    yield a
    a.close()


def _pointer_params(name: str) -> list[int]:
    """Indices of a function's pointer arguments."""
    return [
        i for i, t in enumerate(_lib.PROTOTYPES[name].argtypes)
        if t is ctypes.c_char_p or (isinstance(t, type) and issubclass(t, ctypes._Pointer))
    ]


def _status(name: str, call_args: list[Any]) -> tuple[int, str]:
    """Calls the C function without raising; returns its status and fathom_last_error()."""
    status = _lib.FUNCTIONS[name].raw(*call_args)
    return status, _lib.fathom_last_error().decode()


POINTER_FUNCTIONS = sorted(n for n in _lib.PROTOTYPES if _pointer_params(n) and _lib.PROTOTYPES[n].returns_status)


def test_table_covers_every_function_with_pointers(args: Args) -> None:
    assert sorted(args.table()) == POINTER_FUNCTIONS


@pytest.mark.parametrize("name", POINTER_FUNCTIONS)
def test_valid_arguments_succeed(args: Args, name: str) -> None:
    status, message = _status(name, args.table()[name]())
    assert status == 0, f"{name} refused valid arguments: {message}"


def _null_cases() -> list[tuple[str, int]]:
    return [(n, i) for n in POINTER_FUNCTIONS for i in _pointer_params(n)]


@pytest.mark.parametrize("name, index", _null_cases(), ids=[f"{n}-{i}" for n, i in _null_cases()])
def test_null_pointer(args: Args, header: Header, name: str, index: int) -> None:
    pname = params(header.functions[name])[index].name
    call_args = args.table()[name]()
    call_args[index] = None
    status, message = _status(name, call_args)
    if (name, pname) in OPTIONAL:
        assert status == 0, f"{name}: {pname} may be NULL, but the call failed: {message}"
        return
    assert status == 1, f"{name}({pname}=NULL) gave {_lib.fathom_status_name(status).decode()}: {message}"
    assert name in message and pname in message, f"message should name {name} and {pname}: {message!r}"


def test_mask_without_count(args: Args) -> None:
    mask = (c_uint8 * 8)()
    assert _status("fathom_obb_mask_inside", [args.obb(), args.points(), 8, 12, mask, None])[0] == 0
    assert list(mask) == [1, 0, 0, 0, 0, 0, 0, 0]  # only the cube corner (0, 0, 0) is in [-0.5, 0.5]^3


# -- sizes, strides and capacities ----------------------------------------------------------------


def test_count_times_stride_overflow(args: Args) -> None:
    status, message = _status("fathom_obb_count_inside", [args.obb(), args.points(), 2**62, 12, byref(c_size_t())])
    assert status == 4, message  # FATHOM_ERR_OVERFLOW, detected before any read
    assert "fathom_obb_count_inside" in message


def test_huge_count_for_fit_is_overflow(args: Args) -> None:
    status, message = _status("fathom_obb_fit_pca", [args.points(), 2**63, 16, byref(ObbStruct()), (c_float * 1)()])
    assert status == 4, message


@pytest.mark.parametrize("stride", [0, 4, 8, 13, 14])
def test_bad_stride(args: Args, stride: int) -> None:
    status, message = _status("fathom_obb_count_inside", [args.obb(), args.points(), 2, stride, byref(c_size_t())])
    assert status == 3, f"stride {stride}: {_lib.fathom_status_name(status).decode()} {message}"
    assert "stride" in message


def test_unaligned_points(args: Args) -> None:
    raw = (c_char * 256)()
    unaligned = ctypes.cast(ctypes.addressof(raw) + 2, ctypes.POINTER(c_float))
    status, message = _status("fathom_obb_count_inside", [args.obb(), unaligned, 2, 12, byref(c_size_t())])
    assert status == 3, message
    assert "align" in message


def test_zero_count(args: Args) -> None:
    status, message = _status("fathom_pose_transform_points", [args.pose(), args.points(), 0, 12, (c_float * 3)()])
    assert status == 3 and "count" in message


def test_indices_buffer_too_small(args: Args) -> None:
    pts = np.zeros((10, 3), np.float32)
    pts[[1, 4, 6, 9]] = 5.0  # outside the unit box at the origin; 6 inside
    out = (c_uint64 * 3)(99, 99, 99)
    inside = c_size_t()
    status, message = _status(
        "fathom_obb_indices_inside",
        [args.obb(), pts.ctypes.data_as(_lib.FloatPtr), 10, 12, out, 3, byref(inside)],
    )
    assert status == 5, message
    assert inside.value == 6
    assert list(out) == [0, 2, 3]  # the first `capacity` indices are written


def test_indices_capacity_zero_with_null(args: Args) -> None:
    inside = c_size_t()
    status, _ = _status("fathom_obb_indices_inside", [args.obb(), args.points(), 8, 12, None, 0, byref(inside)])
    assert status == 5 and inside.value == 1  # only the cube corner (0, 0, 0) is inside [-0.5, 0.5]^3


def test_manifest_size_query_and_too_small_buffer(args: Args) -> None:
    length = c_size_t()
    status, _ = _status("fathom_box_manifest_write", [args.box(), None, 0, byref(length)])
    assert status == 5 and length.value > 100
    small = (c_char * length.value)()  # no room for the NUL
    ctypes.memset(small, ord("#"), length.value)
    status, message = _status("fathom_box_manifest_write", [args.box(), small, length.value, byref(length)])
    assert status == 5, message
    assert small.raw == b"#" * length.value  # nothing written
    exact = (c_char * (length.value + 1))()
    assert _status("fathom_box_manifest_write", [args.box(), exact, len(exact), byref(length)])[0] == 0
    assert exact.raw[-1:] == b"\0" and len(exact.value) == length.value


def test_label_unknown_used_bits_are_ignored_or_refused(args: Args) -> None:
    req = LabelRequestStruct(0, 0, 0.4, 0.3, 0.2, 0.1, Vec3(), Vec3(), 0xFFFFFFFF)
    out = LabelPlacementStruct()
    status, message = _status("fathom_label_place", [byref(req), byref(out)])
    assert status == 0, message
    assert out.anchor == fathom.Anchor.TOP  # every anchor taken: TOP


def test_box_check_reports_first_bad_field(args: Args) -> None:
    bad = BoxStruct(Vec3(0, float("nan"), 0), Vec3(1, -1, 1), 0.0, 0.0, 0)
    status, message = _status("fathom_box_check", [byref(bad)])
    assert status == 2 and "center" in message  # center comes before scale


def test_failed_edit_leaves_box_unchanged(args: Args) -> None:
    c = BoxStruct(Vec3(1, 2, 3), Vec3(1, 1, 1), 0.5, 0.0, 0)
    before = bytes(c)
    for name, extra in [
        ("fathom_box_shrink_side", [Vec3(2, 0, 0)]),
        ("fathom_box_set_scale", [Vec3(1, 0, 1)]),
        ("fathom_box_update_center", [Vec3(float("inf"), 0, 0)]),
        ("fathom_box_set_center_on_floor", [0.0, 0.0]),
        ("fathom_box_update_center_in_camera", [Vec3(1, 0, 0), byref(PoseStruct())]),  # all-zero: not rigid
    ]:
        status, message = _status(name, [byref(c), *extra])
        assert status != 0, name
        assert bytes(c) == before, f"{name} changed the box on failure ({message})"


# -- capture guidance -------------------------------------------------------------------------------


def test_coverage_cells_and_bins_capacity(args: Args) -> None:
    cov = args.new_coverage()
    counts = (c_uint32 * 16)(*([7] * 16))
    status, message = _status("fathom_coverage_cells", [cov, 0, counts, 15])
    assert status == 5 and "capacity 15" in message and "16 cells" in message
    assert list(counts) == [7] * 16  # nothing written
    status, message = _status("fathom_coverage_bins", [cov, (c_uint32 * 48)(), None, 47])
    assert status == 5 and "48 bins" in message
    status, message = _status("fathom_coverage_face", [cov, 6, byref(FaceCoverageStruct())])
    assert status == 3 and "face must be 0...5" in message


def test_coverage_tristate_options_and_zero_counts(args: Args) -> None:
    out = args.coverage_out()
    bad = CoverageOptionsStruct(10, 4, 4, 12, 2, -1, 0, 1e9, 0, 0.1, 0.1)
    status, message = _status("fathom_coverage_create", [args.box(), byref(bad), byref(out)])
    assert status == 3 and "hemisphere must be -1, 0 or 1" in message
    assert not out  # nothing made
    status, message = _status("fathom_coverage_record_batch", [args.new_coverage(), args.cameras(1), 0, None, None])
    assert status == 3 and "count" in message
    status, message = _status("fathom_motion_update_batch", [args.new_motion(), (ctypes.c_int64 * 1)(), args.cameras(1), 0, None])
    assert status == 3 and "count" in message


def test_trajectory_select_capacity(args: Args) -> None:
    count = c_size_t()
    status, _ = _status("fathom_trajectory_select", [args.cameras(5), 5, 0.05, float("inf"), None, 0, byref(count)])
    assert status == 5 and count.value == 5  # 0.1 m apart: every pose is selected
    out = (c_uint32 * 2)(99, 99)
    status, message = _status("fathom_trajectory_select", [args.cameras(5), 5, 0.05, float("inf"), out, 2, byref(count)])
    assert status == 5 and count.value == 5 and list(out) == [0, 1], message  # the first `capacity` are written


def test_handles_of_one_kind_are_refused_as_the_other(args: Args) -> None:
    with pytest.raises(ctypes.ArgumentError):
        _lib.FUNCTIONS["fathom_motion_reset"].raw(args.new_coverage())
    with pytest.raises(ctypes.ArgumentError):
        _lib.FUNCTIONS["fathom_coverage_reset"].raw(args.mesh)
