"""Fathom: geometry and measurement for AR capture data (Python binding of libfathom.so).

Units are meters and radians; the world frame is right-handed with +y up. Quaternions are numpy
float32 arrays (x, y, z, w); matrices are numpy arrays with rows as rows (the binding converts to
and from the library's column-major layout). Point arrays are (N, 3) or (N, k >= 3); float32 arrays
with packed columns are read in place, anything else is converted once.

Every failing call raises a :class:`FathomError` subclass carrying the library's message. The
library is loaded on first use, from ``$FATHOM_LIBRARY`` or the ``libfathom.so`` inside this package.
All functions are safe to call from several threads, as long as two threads do not edit the same
:class:`Box` at once; the GIL is released during every library call. A :class:`Mesh` is immutable and
may be queried from many threads at once (but not closed while another thread still uses it).

Ray casting: :func:`camera_ray`, :func:`grid_rays` and :func:`project` for cameras; :func:`ray_plane`,
:func:`ray_floor`, :func:`ray_sphere`, :func:`ray_obb` and :func:`ray_triangle` for single primitives;
:class:`Mesh` for triangle meshes with a BVH (batch casts return :data:`HIT_DTYPE` arrays); and the
capture app's tap flows :func:`tap_floor_height`, :func:`tap_place_box` and :func:`tap_box_face`.

Plotting helpers (matplotlib, the optional ``plot`` extra) are in :mod:`fathom.plot`.
"""

from __future__ import annotations

from ._lib import LibraryNotFoundError, LibraryVersionError, library_path
from .box import CORNER_NAMES, FACE_NAMES, Box, CenterScale, Corner, Face, Faces, fit_box_upright
from ._handle import ClosedHandleError
from .camera import Intrinsics, Projection, ProjectFlags, Ray, camera_ray, grid_rays, project
from .errors import (
    BufferTooSmallError,
    DegenerateError,
    FathomError,
    FathomIOError,
    FathomMemoryError,
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
)
from .geometry import (
    RIGID_TOLERANCE,
    Pose,
    PoseDistance,
    quat_angle_between,
    quat_from_axis_angle,
    quat_from_matrix,
    quat_multiply,
    quat_normalize,
    quat_rotate,
    quat_slerp,
    quat_to_matrix,
    version,
    version_number,
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
from .tap import tap_box_face, tap_floor_height, tap_place_box

#: The version of this Python package (the library's own is :func:`version`).
__version__ = "0.1.0"

__all__ = [
    "CORNER_NAMES",
    "FACE_NAMES",
    "HIT_DTYPE",
    "NO_HIT",
    "RIGID_TOLERANCE",
    "Anchor",
    "Bounds",
    "Box",
    "BoxHit",
    "BufferTooSmallError",
    "CenterScale",
    "ClosedHandleError",
    "Corner",
    "DegenerateError",
    "Face",
    "Faces",
    "FathomError",
    "FathomIOError",
    "FathomMemoryError",
    "FathomOverflowError",
    "FormatError",
    "FusedTag",
    "Hit",
    "Intrinsics",
    "InvalidStateError",
    "LabelPlacement",
    "LabelTarget",
    "LapackError",
    "LibraryNotFoundError",
    "LibraryVersionError",
    "Mesh",
    "MeshClass",
    "NotABoxError",
    "NotFiniteError",
    "NotRigidError",
    "NullPointerError",
    "OrientedBox",
    "OutOfRangeError",
    "ParseError",
    "Pose",
    "PoseDistance",
    "ProjectFlags",
    "Projection",
    "Ray",
    "__version__",
    "camera_ray",
    "empty_hits",
    "fit_box_upright",
    "fit_obb_pca",
    "fuse_tag_observations",
    "grid_rays",
    "hit_mask",
    "library_path",
    "make_rays",
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
    "rotate_covariance",
    "snap_vertical",
    "tap_box_face",
    "tap_floor_height",
    "tap_place_box",
    "tag_world_pose",
    "version",
    "version_number",
]
