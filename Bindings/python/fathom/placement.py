"""Fiducial tag poses and label placement.

Tags: a tag detected in a camera image has a pose in the camera's *optical* frame (x right, y down,
z forward, as a PnP solve gives it); :func:`tag_world_pose` turns it into a world pose using the
camera-to-world pose (ARKit axes). Several observations of one tag fuse into one estimate with
:func:`fuse_tag_observations`.

Labels: :func:`place_label` puts a flat panel next to a tracked image or a parent panel.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_size_t
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Iterable, NamedTuple, Optional, Sequence, Union

import numpy as np

from ._arrays import (
    ArrayLike,
    float_ptr,
    matrix3_from_c,
    matrix3_to_c,
    pose_array_ptr,
    pose_struct,
    poses_column_major,
    quat_from_c,
    to_vec3,
    vec3_from_c,
)
from ._lib import FloatPtr, LabelPlacementStruct, LabelRequestStruct, PosePtr, PoseStruct, status_function
from .geometry import Pose, PoseLike

__all__ = [
    "Anchor",
    "FusedTag",
    "LabelPlacement",
    "LabelTarget",
    "fuse_tag_observations",
    "place_label",
    "rotate_covariance",
    "snap_vertical",
    "tag_world_pose",
]

_tag_world_pose = status_function("fathom_tag_world_pose", PosePtr, PosePtr, PosePtr)
_tag_snap_vertical = status_function("fathom_tag_snap_vertical", PosePtr, PosePtr)
_covariance_rotate = status_function("fathom_covariance_rotate", PosePtr, FloatPtr, FloatPtr)
_tag_fuse = status_function("fathom_tag_fuse", PosePtr, FloatPtr, c_size_t, PosePtr, FloatPtr)
_label_place = status_function(
    "fathom_label_place", POINTER(LabelRequestStruct), POINTER(LabelPlacementStruct)
)

# ------------------------------------------------------------------------------------------------
# Tags
# ------------------------------------------------------------------------------------------------


def tag_world_pose(camera_to_world: PoseLike, tag_in_optical: PoseLike) -> Pose:
    """The tag's world pose: ``camera_to_world @ F @ tag_in_optical`` with F = diag(1, -1, -1, 1).

    ``tag_in_optical`` is the tag's pose in the camera's optical frame (x right, y down, z forward). Each
    pose is a :class:`fathom.Pose` or a (4, 4) matrix (the library checks it is rigid).
    """
    out = PoseStruct()
    _tag_world_pose(
        byref(pose_struct(camera_to_world, "camera_to_world")), byref(pose_struct(tag_in_optical, "tag_in_optical")),
        byref(out),
    )
    return Pose._wrap(out)


def snap_vertical(pose: PoseLike) -> Pose:
    """The tag turned about its own x axis so its z axis (the normal) is horizontal; translation kept.

    Raises :class:`fathom.DegenerateError` if the tag's x axis is vertical.
    """
    out = PoseStruct()
    _tag_snap_vertical(byref(pose_struct(pose, "pose")), byref(out))
    return Pose._wrap(out)


def rotate_covariance(pose: PoseLike, covariance: ArrayLike) -> np.ndarray:
    """``R @ S @ R.T``: a 3x3 covariance expressed in the frame ``pose``'s rotation maps into.

    The translation of ``pose`` is ignored. Returns a (3, 3) float32 array.
    """
    s = matrix3_to_c(covariance, "covariance")
    out = np.empty(9, dtype=np.float32)
    _covariance_rotate(byref(pose_struct(pose, "pose")), float_ptr(s), float_ptr(out))
    return matrix3_from_c(out)


class FusedTag(NamedTuple):
    """The fused estimate of one tag: its pose and the (3, 3) covariance of its position."""

    pose: Pose
    covariance: np.ndarray


def fuse_tag_observations(
    poses: Union[Sequence[PoseLike], np.ndarray], covariances: Optional[ArrayLike] = None
) -> FusedTag:
    """Fuses observations of one tag (world poses) into one pose and a position covariance.

    Args:
        poses: N >= 1 :class:`fathom.Pose` objects (or (4, 4) matrices), or an (N, 4, 4) array of matrices.
        covariances: None for equal weights, or (N, 3, 3) symmetric positive definite position
            covariances. With covariances the position is the information-weighted mean and the
            rotation the quaternion average weighted by 1 / trace(S_i).

    Returns:
        :class:`FusedTag` (pose, covariance): with covariances, ``(sum S_i^-1)^-1``; without, the
        sample covariance of the positions divided by N (zeros for one observation).

    Raises :class:`fathom.OutOfRangeError` for an empty list or a covariance that is not symmetric
    positive definite, :class:`fathom.DegenerateError` when the rotations cancel out.
    """
    matrices = poses_column_major(poses, "poses")
    n = matrices.shape[0]
    cov_ptr: Any = None
    cov: Optional[np.ndarray] = None
    if covariances is not None:
        c = np.asarray(covariances, dtype=np.float32)
        if c.shape != (n, 3, 3):
            raise ValueError(f"covariances must have shape ({n}, 3, 3) to match the {n} poses, got shape {c.shape}")
        cov = np.ascontiguousarray(c.transpose(0, 2, 1)).reshape(n * 9)  # each column-major
        cov_ptr = float_ptr(cov)
    out_pose = PoseStruct()
    out_cov = np.empty(9, dtype=np.float32)
    _tag_fuse(pose_array_ptr(matrices), cov_ptr, n, byref(out_pose), float_ptr(out_cov))
    return FusedTag(Pose._wrap(out_pose), matrix3_from_c(out_cov))


# ------------------------------------------------------------------------------------------------
# Labels
# ------------------------------------------------------------------------------------------------


class Anchor(IntEnum):
    """Where a label goes relative to its target (``fathom_anchor_point``)."""

    AUTO = 0  #: the first of TOP, BOTTOM, LEADING, TRAILING not used, else TOP
    CENTER = 1  #: centred on the target
    LEADING = 2  #: beside the target's left edge
    TRAILING = 3  #: beside the target's right edge
    TOP = 4  #: above the target's top edge
    BOTTOM = 5  #: below the target's bottom edge
    COVER = 6  #: covering the target (same place as CENTER)


class LabelTarget(IntEnum):
    """What a label is placed against (``fathom_label_target``)."""

    IMAGE = 0  #: a tracked image, lying in its own x-z plane (+z toward its bottom edge)
    PANEL = 1  #: a parent panel, in its x-y plane with top = +y


AnchorLike = Union[Anchor, str, int]
TargetLike = Union[LabelTarget, str, int]


def _enum_value(value: Any, enum: Any, name: str) -> int:
    """An enum's value from a member, its name (any case) or an int. An unknown int is passed on,
    for the library to refuse with OutOfRangeError."""
    if isinstance(value, str):
        try:
            return int(enum[value.upper()])
        except KeyError:
            choices = ", ".join(repr(m.name.lower()) for m in enum)
            raise ValueError(f"{name} must be one of {choices}, got {value!r}") from None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"{name} must be a {enum.__name__}, its name or an int, got {type(value).__name__}")


def _pair(value: Any, name: str) -> tuple[float, float]:
    a = np.asarray(value, dtype=np.float64)
    if a.shape != (2,):
        raise ValueError(f"{name} must be (width, height), got shape {a.shape}")
    return float(a[0]), float(a[1])


@dataclass(frozen=True)
class LabelPlacement:
    """A label's placement in its target's frame.

    Attributes:
        position: (3,) panel centre, meters.
        orientation: (4,) panel rotation (x, y, z, w): -90 degrees about x on an image, identity on a panel.
        anchor: the anchor point used (AUTO resolved).
    """

    position: np.ndarray
    orientation: np.ndarray
    anchor: Anchor

    @property
    def anchor_name(self) -> str:
        """The anchor's name in lower case ("top", "leading", ...)."""
        return self.anchor.name.lower()


def place_label(
    anchor: AnchorLike = "auto",
    target: TargetLike = "image",
    *,
    target_size: ArrayLike,
    panel_size: ArrayLike,
    relative_position: ArrayLike = (0.0, 0.0, 0.0),
    position_offset: ArrayLike = (0.0, 0.0, 0.0),
    used: Iterable[AnchorLike] = (),
) -> LabelPlacement:
    """Places a label panel of ``panel_size`` (w, h) against a target of ``target_size`` (W, H), meters.

    Args:
        anchor: "auto", "center", "leading", "trailing", "top", "bottom", "cover" (or :class:`Anchor`).
        target: "image" (a tracked image, the panel lies on its x-z plane) or "panel" (a parent panel,
            x-y plane, top = +y).
        relative_position, position_offset: added to the position, in the target's frame.
        used: anchors other labels of the same target already took (for "auto").

    Offsets on an image (x, z): top (0, -(H/2 + h/2)), bottom (0, +(H/2 + h/2)),
    leading (-(W/2 + w/2), 0), trailing (+(W/2 + w/2), 0), center/cover (0, 0).
    Raises :class:`fathom.OutOfRangeError` for a size <= 0 or an unknown anchor/target number.
    """
    mask = 0
    for u in used:
        bit = _enum_value(u, Anchor, "used")
        if not 0 <= bit < 32:
            raise ValueError(f"used anchors must be Anchor values 0..31, got {bit}")
        mask |= 1 << bit
    tw, th = _pair(target_size, "target_size")
    pw, ph = _pair(panel_size, "panel_size")
    request = LabelRequestStruct(
        anchor=_enum_value(anchor, Anchor, "anchor"),
        target=_enum_value(target, LabelTarget, "target"),
        target_width=tw,
        target_height=th,
        panel_width=pw,
        panel_height=ph,
        relative_position=to_vec3(relative_position, "relative_position"),
        position_offset=to_vec3(position_offset, "position_offset"),
        used_anchors=mask,
    )
    out = LabelPlacementStruct()
    _label_place(byref(request), byref(out))
    try:
        used_anchor = Anchor(out.anchor)
    except ValueError:  # a library bug; keep the raw value visible rather than failing
        raise RuntimeError(f"fathom_label_place returned an unknown anchor {out.anchor}") from None
    return LabelPlacement(vec3_from_c(out.position), quat_from_c(out.orientation), used_anchor)
