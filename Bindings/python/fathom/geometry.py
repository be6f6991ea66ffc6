"""Quaternions and rigid poses.

Quaternions are numpy float32 arrays of shape (4,) in (x, y, z, w) order: vector part first, real
part last, as simd_quatf and scipy's ``Rotation.as_quat()`` store them. :class:`Pose` is a rigid
transform (rotation + translation) held as the library's column-major 4x4 ``fathom_pose``; numpy
sees it as an ordinary (4, 4) matrix with rows as rows.

Wherever the package takes a pose it also takes any (4, 4) array-like in that layout (:data:`PoseLike`; the
library checks it is rigid), and where it takes many poses an (N, 4, 4) array: they are all converted by
:func:`fathom._arrays.pose_struct` and :func:`fathom._arrays.poses_column_major`.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, byref, c_float, c_size_t
from enum import IntEnum
from typing import Any, NamedTuple, Optional, Union

import numpy as np

from ._arrays import (
    ArrayLike,
    float_ptr,
    matrix3_from_c,
    matrix3_to_c,
    point_buffer,
    pose_array_ptr,
    pose_column_major,
    pose_struct,
    poses_column_major,
    quat_from_c,
    to_quat,
    to_vec3,
    vec3_from_c,
)
from ._lib import FloatPtr, PosePtr, PoseStruct, Quat, Vec3, status_function
from ._scalars import enum_member

__all__ = [
    "RIGID_TOLERANCE",
    "Pose",
    "PoseConvention",
    "convert_poses",
    "PoseLike",
    "PoseDistance",
    "quat_angle_between",
    "quat_from_axis_angle",
    "quat_from_matrix",
    "quat_multiply",
    "quat_normalize",
    "quat_rotate",
    "quat_slerp",
    "quat_to_matrix",
]

#: FATHOM_RIGID_TOLERANCE: the largest absolute entry of R^T R - I (and of the bottom row minus
#: (0, 0, 0, 1)) for which a matrix still counts as rigid.
RIGID_TOLERANCE: float = float(np.float32(1e-3))

_QuatPtr = POINTER(Quat)
_Vec3Ptr = POINTER(Vec3)


# ------------------------------------------------------------------------------------------------
# Quaternions
# ------------------------------------------------------------------------------------------------

_quat_from_axis_angle = status_function("fathom_quat_from_axis_angle", Vec3, c_float, _QuatPtr)
_quat_from_matrix = status_function("fathom_quat_from_matrix", FloatPtr, _QuatPtr)
_quat_to_matrix = status_function("fathom_quat_to_matrix", Quat, FloatPtr)
_quat_multiply = status_function("fathom_quat_multiply", Quat, Quat, _QuatPtr)
_quat_normalize = status_function("fathom_quat_normalize", Quat, _QuatPtr)
_quat_slerp = status_function("fathom_quat_slerp", Quat, Quat, c_float, _QuatPtr)
_quat_angle_between = status_function("fathom_quat_angle_between", Quat, Quat, FloatPtr)
_quat_rotate = status_function("fathom_quat_rotate", Quat, Vec3, _Vec3Ptr)


def quat_from_axis_angle(axis: ArrayLike, angle: float) -> np.ndarray:
    """The rotation by ``angle`` radians about ``axis`` (right-hand rule), as (x, y, z, w).

    ``axis`` need not be unit length; a zero axis raises :class:`fathom.DegenerateError`.
    """
    out = Quat()
    _quat_from_axis_angle(to_vec3(axis, "axis"), float(angle), byref(out))
    return quat_from_c(out)


def quat_from_matrix(matrix: ArrayLike) -> np.ndarray:
    """The unit quaternion (x, y, z, w) of a 3x3 rotation matrix.

    Raises :class:`fathom.NotRigidError` unless the matrix is a proper rotation within
    :data:`RIGID_TOLERANCE`.
    """
    m = matrix3_to_c(matrix, "matrix")
    out = Quat()
    _quat_from_matrix(float_ptr(m), byref(out))
    return quat_from_c(out)


def quat_to_matrix(q: ArrayLike) -> np.ndarray:
    """The 3x3 rotation matrix (float32) of the rotation quaternion ``q`` (x, y, z, w)."""
    out = np.empty(9, dtype=np.float32)
    _quat_to_matrix(to_quat(q, "q"), float_ptr(out))
    return matrix3_from_c(out)


def quat_multiply(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """The Hamilton product ``a * b``: the rotation ``b`` followed by ``a``. Inputs need not be unit."""
    out = Quat()
    _quat_multiply(to_quat(a, "a"), to_quat(b, "b"), byref(out))
    return quat_from_c(out)


def quat_normalize(q: ArrayLike) -> np.ndarray:
    """``q / |q|``; raises :class:`fathom.DegenerateError` when ``|q|`` is (nearly) zero."""
    out = Quat()
    _quat_normalize(to_quat(q, "q"), byref(out))
    return quat_from_c(out)


def quat_slerp(a: ArrayLike, b: ArrayLike, t: float) -> np.ndarray:
    """Spherical linear interpolation from ``a`` (t = 0) to ``b`` (t = 1) along the shorter arc.

    ``t`` outside [0, 1] extrapolates. The result is a unit quaternion.
    """
    out = Quat()
    _quat_slerp(to_quat(a, "a"), to_quat(b, "b"), float(t), byref(out))
    return quat_from_c(out)


def quat_angle_between(a: ArrayLike, b: ArrayLike) -> float:
    """The angle (radians, in [0, pi]) of the rotation taking ``a`` to ``b``; q and -q are equal."""
    out = c_float()
    _quat_angle_between(to_quat(a, "a"), to_quat(b, "b"), byref(out))
    return float(out.value)


def quat_rotate(q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """The vector ``v`` rotated by the rotation ``q``, as a (3,) float32 array."""
    out = Vec3()
    _quat_rotate(to_quat(q, "q"), to_vec3(v, "v"), byref(out))
    return vec3_from_c(out)


# ------------------------------------------------------------------------------------------------
# Poses
# ------------------------------------------------------------------------------------------------

_pose_from_rotation_translation = status_function(
    "fathom_pose_from_rotation_translation", Quat, Vec3, PosePtr
)
_pose_to_rotation_translation = status_function(
    "fathom_pose_to_rotation_translation", PosePtr, _QuatPtr, _Vec3Ptr
)
_pose_from_row_major = status_function("fathom_pose_from_row_major", FloatPtr, PosePtr)
_pose_to_row_major = status_function("fathom_pose_to_row_major", PosePtr, FloatPtr)
_pose_check_rigid = status_function("fathom_pose_check_rigid", PosePtr, c_float)
_pose_orthonormalize = status_function("fathom_pose_orthonormalize", PosePtr, c_float, PosePtr)
_pose_compose = status_function("fathom_pose_compose", PosePtr, PosePtr, PosePtr)
_pose_invert = status_function("fathom_pose_invert", PosePtr, PosePtr)
_pose_transform_point = status_function("fathom_pose_transform_point", PosePtr, Vec3, _Vec3Ptr)
_pose_transform_direction = status_function("fathom_pose_transform_direction", PosePtr, Vec3, _Vec3Ptr)
_pose_transform_points = status_function(
    "fathom_pose_transform_points", PosePtr, FloatPtr, c_size_t, c_size_t, FloatPtr
)
_pose_yaw = status_function("fathom_pose_yaw", PosePtr, FloatPtr)
_pose_distance = status_function("fathom_pose_distance", PosePtr, PosePtr, FloatPtr, FloatPtr)


class PoseDistance(NamedTuple):
    """How far apart two poses are: origin distance (meters) and rotation angle (radians, [0, pi])."""

    meters: float
    radians: float


def _sixteen(values: Any, name: str) -> np.ndarray:
    a = np.asarray(values, dtype=np.float32)
    if a.shape not in ((16,), (4, 4)):
        raise ValueError(f"{name} must be 16 numbers or 4 nested rows of 4, got shape {a.shape}")
    return np.ascontiguousarray(a).reshape(16)


class Pose:
    """A rigid transform: rotation + translation, mapping local points into the parent frame.

    A camera pose is camera-to-world (``world = pose @ camera``). Poses are immutable values;
    ``a @ b`` composes (``b`` first, then ``a``), ``np.asarray(pose)`` gives the 4x4 matrix.

    Every constructor checks the matrix is rigid within :data:`RIGID_TOLERANCE` and raises
    :class:`fathom.NotRigidError` otherwise (:meth:`orthonormalized` repairs a slightly-off one).
    """

    __slots__ = ("_c",)

    #: numpy defers to Pose for operators, so ``pose @ array`` is a TypeError rather than a silent
    #: matrix product of ``np.asarray(pose)`` (use :meth:`transform_points` for points).
    __array_ufunc__ = None

    def __init__(self, matrix: Optional[ArrayLike] = None) -> None:
        """A pose from a 4x4 matrix (numpy rows as rows); the identity when ``matrix`` is None."""
        c = PoseStruct()
        if matrix is None:
            c.m[0] = c.m[5] = c.m[10] = c.m[15] = 1.0
            self._c = c
            return
        ctypes.memmove(c.m, pose_column_major(matrix, "matrix").ctypes.data, 64)
        _pose_check_rigid(byref(c), RIGID_TOLERANCE)
        self._c = c

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _wrap(cls, c: PoseStruct) -> "Pose":
        pose = cls.__new__(cls)
        pose._c = c
        return pose

    @classmethod
    def identity(cls) -> "Pose":
        """The identity pose."""
        return cls()

    @classmethod
    def from_rotation_translation(
        cls, rotation: ArrayLike = (0.0, 0.0, 0.0, 1.0), translation: ArrayLike = (0.0, 0.0, 0.0)
    ) -> "Pose":
        """The pose with rotation quaternion ``rotation`` (x, y, z, w) and ``translation`` (meters)."""
        out = PoseStruct()
        _pose_from_rotation_translation(to_quat(rotation, "rotation"), to_vec3(translation, "translation"), byref(out))
        return cls._wrap(out)

    @classmethod
    def from_row_major(cls, rows: ArrayLike) -> "Pose":
        """A pose from 16 numbers in row-major order, or 4 nested rows of 4 (NeRF ``transform_matrix``)."""
        values = _sixteen(rows, "rows")
        out = PoseStruct()
        _pose_from_row_major(float_ptr(values), byref(out))
        return cls._wrap(out)

    @classmethod
    def from_column_major(cls, values: ArrayLike) -> "Pose":
        """A pose from 16 numbers in column-major order (simd/ARKit ``transform`` flattened)."""
        a = np.asarray(values, dtype=np.float32)
        if a.shape != (16,):
            raise ValueError(f"values must be 16 numbers in column-major order, got shape {a.shape}")
        c = PoseStruct()
        ctypes.memmove(c.m, np.ascontiguousarray(a).ctypes.data, 64)
        _pose_check_rigid(byref(c), RIGID_TOLERANCE)
        return cls._wrap(c)

    # -- ctypes ---------------------------------------------------------------------------------

    @property
    def _as_parameter_(self) -> Any:
        """Lets a Pose be passed where the C API takes ``const fathom_pose *``."""
        return byref(self._c)

    # -- views ----------------------------------------------------------------------------------

    @property
    def column_major(self) -> np.ndarray:
        """The 16 floats in the library's column-major order (translation at 12, 13, 14)."""
        return np.ctypeslib.as_array(self._c.m).copy()

    @property
    def matrix(self) -> np.ndarray:
        """The 4x4 float32 matrix (rows as rows; translation in the last column)."""
        return np.ctypeslib.as_array(self._c.m).reshape(4, 4).T.copy()

    @property
    def row_major(self) -> np.ndarray:
        """The 16 floats in row-major order (``fathom_pose_to_row_major``)."""
        out = np.empty(16, dtype=np.float32)
        _pose_to_row_major(self, float_ptr(out))
        return out

    def _rotation_translation(self) -> tuple[np.ndarray, np.ndarray]:
        q, t = Quat(), Vec3()
        _pose_to_rotation_translation(self, byref(q), byref(t))
        return quat_from_c(q), vec3_from_c(t)

    @property
    def rotation(self) -> np.ndarray:
        """The rotation as a unit quaternion (x, y, z, w) with w >= 0."""
        return self._rotation_translation()[0]

    @property
    def translation(self) -> np.ndarray:
        """The translation (meters), a (3,) float32 array."""
        return self._rotation_translation()[1]

    @property
    def yaw(self) -> float:
        """The heading about world +y, radians in (-pi, pi] (a box with ``rot_y = yaw`` faces the same way)."""
        out = c_float()
        _pose_yaw(self, byref(out))
        return float(out.value)

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> np.ndarray:
        m = self.matrix
        return m if dtype is None else m.astype(dtype)

    # -- operations -----------------------------------------------------------------------------

    def inverse(self) -> "Pose":
        """The inverse pose, (R^T, -R^T t)."""
        out = PoseStruct()
        _pose_invert(self, byref(out))
        return Pose._wrap(out)

    def __matmul__(self, other: "Pose") -> "Pose":
        """``self @ other``: ``other`` followed by ``self`` (camera-to-world then world-to-map).

        Both must be :class:`Pose` objects (``pose @ array`` is a TypeError, never a silent matrix product);
        :meth:`compose` also takes a (4, 4) matrix.
        """
        if not isinstance(other, Pose):
            return NotImplemented
        out = PoseStruct()
        _pose_compose(self, other, byref(out))
        return Pose._wrap(out)

    def compose(self, other: "PoseLike") -> "Pose":
        """``self @ other``, where ``other`` may also be a (4, 4) matrix (the library checks it is rigid)."""
        out = PoseStruct()
        _pose_compose(self, byref(pose_struct(other, "other")), byref(out))
        return Pose._wrap(out)

    def transform_point(self, point: ArrayLike) -> np.ndarray:
        """``pose * (p, 1)``: a point mapped from the local frame to the parent frame."""
        out = Vec3()
        _pose_transform_point(self, to_vec3(point, "point"), byref(out))
        return vec3_from_c(out)

    def transform_direction(self, direction: ArrayLike) -> np.ndarray:
        """``pose * (d, 0)``: a direction rotated from the local frame to the parent frame."""
        out = Vec3()
        _pose_transform_direction(self, to_vec3(direction, "direction"), byref(out))
        return vec3_from_c(out)

    def transform_points(self, points: ArrayLike) -> np.ndarray:
        """Points (N, 3) or (N, k >= 3) mapped through the pose, as a new (N, 3) float32 array; one (3,) point
        gives a (3,) array.

        Every point must be finite (:class:`fathom.NotFiniteError`); N must be >= 1.
        """
        buf = point_buffer(points, "points")
        out = np.empty((buf.count, 3), dtype=np.float32)
        _pose_transform_points(self, buf.pointer, buf.count, buf.stride, float_ptr(out))
        return buf.result(out)

    def distance_to(self, other: "PoseLike") -> PoseDistance:
        """(meters, radians): the distance between the origins and the angle between the rotations.

        ``other``: a :class:`Pose` or a (4, 4) matrix (the library checks it is rigid).
        """
        meters, radians = c_float(), c_float()
        _pose_distance(self, byref(pose_struct(other, "other")), byref(meters), byref(radians))
        return PoseDistance(float(meters.value), float(radians.value))

    def orthonormalized(self, max_deviation: float) -> "Pose":
        """The nearest rigid pose (rotation by polar decomposition; translation kept).

        Raises :class:`fathom.NotRigidError` if the matrix deviates from rigid by more than
        ``max_deviation`` (> 0): a scale, shear or projection is refused rather than repaired.
        Poses are always rigid within :data:`RIGID_TOLERANCE`; this removes the remaining drift.
        """
        out = PoseStruct()
        _pose_orthonormalize(self, float(max_deviation), byref(out))
        return Pose._wrap(out)

    @classmethod
    def nearest_rigid(cls, matrix: ArrayLike, max_deviation: float) -> "Pose":
        """The rigid pose nearest to a 4x4 ``matrix`` that may be off rigid by up to ``max_deviation``.

        Use it for matrices that accumulated error (a chain of float products, a file with few
        digits) and would fail the rigidity check of ``Pose(matrix)``.
        """
        out = PoseStruct()
        _pose_orthonormalize(byref(pose_struct(matrix, "matrix")), float(max_deviation), byref(out))
        return cls._wrap(out)

    def check_rigid(self, tolerance: float = RIGID_TOLERANCE) -> None:
        """Raises :class:`fathom.NotRigidError` (with the deviation) unless rigid within ``tolerance``."""
        _pose_check_rigid(self, float(tolerance))

    # -- comparison and display -----------------------------------------------------------------

    def isclose(self, other: "PoseLike", atol: float = 1e-5) -> bool:
        """True if every matrix entry differs from ``other``'s (a :class:`Pose` or a (4, 4) matrix) by at most
        ``atol``."""
        return bool(np.allclose(self.column_major, pose_column_major(other, "other"), rtol=0.0, atol=atol))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pose):
            return NotImplemented
        return bytes(self._c) == bytes(other._c)

    def __hash__(self) -> int:
        return hash(bytes(self._c))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pose.from_column_major, (self.column_major.tolist(),))

    def __repr__(self) -> str:
        t = self._c.m[12:15]
        try:
            q = self.rotation
        except Exception:  # repr must not raise (e.g. when the library cannot be loaded)
            return f"Pose(matrix={self.matrix.tolist()})"
        return (
            f"Pose(rotation=({q[0]:.6g}, {q[1]:.6g}, {q[2]:.6g}, {q[3]:.6g}), "
            f"translation=({t[0]:.6g}, {t[1]:.6g}, {t[2]:.6g}))"
        )


#: A pose argument: a :class:`Pose`, or a (4, 4) matrix (rows as rows, translation in the last column).
PoseLike = Union[Pose, ArrayLike]


# ------------------------------------------------------------------------------------------------
# Pose conventions of other tools
# ------------------------------------------------------------------------------------------------


class PoseConvention(IntEnum):
    """How a tool writes a camera pose (``fathom_pose_convention``); the world frame is the tool's own.

    ``ARKIT``: camera-to-world, camera x right, y up, looking along -z (ARKit, the scanner app, transforms.json /
    nerfstudio, this library). ``OPENCV``: camera-to-world, x right, y down, looking along +z (Stray Scanner,
    Open3D / Redwood ``trajectory.log``, OpenCV). ``OPENCV_WORLD_TO_CAMERA``: world-to-camera in OpenCV axes
    (COLMAP ``images.txt``, Open3D's camera ``extrinsic``).
    """

    ARKIT = 0
    OPENCV = 1
    OPENCV_WORLD_TO_CAMERA = 2


_poses_convert = status_function("fathom_poses_convert", PosePtr, c_size_t, ctypes.c_uint32, ctypes.c_uint32, PosePtr)


def convert_poses(poses: Any, source: Union[PoseConvention, str, int], target: Union[PoseConvention, str, int]) -> np.ndarray:
    """Rigid poses written in convention ``source`` rewritten in ``target`` (:class:`PoseConvention`, or its name
    such as ``"opencv"``): a (4, 4) matrix or :class:`Pose` gives a (4, 4) float64 array, an (N, 4, 4) array or a
    sequence of them an (N, 4, 4) one. Raises :class:`fathom.NotRigidError` naming the first pose that is not rigid.

    >>> stray = convert_poses(arkit_poses, "arkit", "opencv")   # for Stray Scanner or Open3D
    """
    src = enum_member(source, PoseConvention, "source")
    dst = enum_member(target, PoseConvention, "target")
    single = isinstance(poses, Pose) or np.ndim(poses) == 2
    columns = poses_column_major([poses] if single else poses, "poses")
    out = np.empty_like(columns)
    _poses_convert(pose_array_ptr(columns), len(columns), int(src), int(dst), pose_array_ptr(out))
    matrices = out.reshape(-1, 4, 4).transpose(0, 2, 1).astype(np.float64)
    return matrices[0] if single else matrices
