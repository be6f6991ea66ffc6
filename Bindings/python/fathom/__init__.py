"""Fathom: geometry and measurement for AR capture data (Python binding of libfathom.so).

Units are meters and radians; the world frame is right-handed with +y up. Quaternions are numpy
float32 arrays (x, y, z, w); matrices are numpy arrays with rows as rows (the binding converts to
and from the library's column-major layout). Point arrays are (N, 3) or (N, k >= 3); float32 arrays
with packed columns are read in place, anything else is converted once.

Every failing call raises a :class:`FathomError` subclass carrying the library's message. The
library is loaded on first use, from ``$FATHOM_LIBRARY`` or the ``libfathom.so`` inside this package.
All functions are safe to call from several threads, as long as two threads do not edit the same
:class:`Box` at once; the GIL is released during every library call.

Plotting helpers (matplotlib, the optional ``plot`` extra) are in :mod:`fathom.plot`.
"""

from __future__ import annotations

from ._lib import LibraryNotFoundError, LibraryVersionError, library_path
from .box import CORNER_NAMES, FACE_NAMES, Box, CenterScale, Corner, Face, Faces, fit_box_upright
from .camera import Intrinsics
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

#: The version of this Python package (the library's own is :func:`version`).
__version__ = "0.1.0"

__all__ = [
    "CORNER_NAMES",
    "FACE_NAMES",
    "RIGID_TOLERANCE",
    "Anchor",
    "Box",
    "BufferTooSmallError",
    "CenterScale",
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
    "Intrinsics",
    "InvalidStateError",
    "LabelPlacement",
    "LabelTarget",
    "LapackError",
    "LibraryNotFoundError",
    "LibraryVersionError",
    "NotABoxError",
    "NotFiniteError",
    "NotRigidError",
    "NullPointerError",
    "OrientedBox",
    "OutOfRangeError",
    "ParseError",
    "Pose",
    "PoseDistance",
    "__version__",
    "fit_box_upright",
    "fit_obb_pca",
    "fuse_tag_observations",
    "library_path",
    "place_label",
    "quat_angle_between",
    "quat_from_axis_angle",
    "quat_from_matrix",
    "quat_multiply",
    "quat_normalize",
    "quat_rotate",
    "quat_slerp",
    "quat_to_matrix",
    "rotate_covariance",
    "snap_vertical",
    "tag_world_pose",
    "version",
    "version_number",
]
