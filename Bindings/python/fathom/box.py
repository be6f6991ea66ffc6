"""The capture app's box: rotated about world +y only, optionally standing on a floor.

:class:`Box` wraps the library's ``fathom_box`` by value. Its edits change the box in place and
return the values they changed, as the capture app's do; a failed edit raises and leaves the box
as it was. Local axes: +x right, +y up, +z back; the front face is local -z.
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_char, c_char_p, c_float, c_size_t
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple, Optional, Union

import numpy as np

from ._arrays import ArrayLike, point_buffer, pose_struct, to_vec3, vec3_from_c
from ._lib import BoxStruct, FaceStruct, FloatPtr, ObbStruct, PosePtr, Vec3, status_function
from ._scalars import PathLike, path_bytes
from ._sized import sized_text
from .geometry import PoseLike
from .obb import OrientedBox

__all__ = [
    "CORNER_NAMES",
    "FACE_NAMES",
    "Box",
    "CenterScale",
    "Corner",
    "Face",
    "Faces",
    "fit_box_upright",
]


_BoxPtr = POINTER(BoxStruct)


class Corner(IntEnum):
    """Corner indices in the capture app's order (``FATHOM_CORNER_*``); local signs in comments."""

    TOP_LEFT_FRONT = 0  # (-, +, -)
    TOP_RIGHT_FRONT = 1  # (+, +, -)
    BOT_RIGHT_FRONT = 2  # (+, -, -)
    BOT_LEFT_FRONT = 3  # (-, -, -)
    TOP_LEFT_BACK = 4  # (-, +, +)
    TOP_RIGHT_BACK = 5  # (+, +, +)
    BOT_RIGHT_BACK = 6  # (+, -, +)
    BOT_LEFT_BACK = 7  # (-, -, +)


class Face(IntEnum):
    """Face indices in the capture app's order (``FATHOM_FACE_*``), also used for face coverage."""

    FRONT = 0  # local -z
    LEFT = 1  # local -x
    RIGHT = 2  # local +x
    BOTTOM = 3  # local -y
    TOP = 4  # local +y
    BACK = 5  # local +z


#: Corner names as the manifest writes them, in :class:`Corner` order.
CORNER_NAMES: tuple[str, ...] = tuple(c.name.lower() for c in Corner)
#: Face names in :class:`Face` order.
FACE_NAMES: tuple[str, ...] = tuple(f.name.lower() for f in Face)


class CenterScale(NamedTuple):
    """What a scale or side edit changes: the new centre and scale, (3,) float32 arrays."""

    center: np.ndarray
    scale: np.ndarray


@dataclass(frozen=True)
class Faces:
    """The six faces of a box in :class:`Face` order.

    Attributes:
        centers: (6, 3) mean of each face's four (floor-clamped) corners, world meters.
        normals: (6, 3) outward unit normals.
        orientations: (6, 4) quaternions (x, y, z, w) of each face's frame (local z = the normal).
    """

    centers: np.ndarray
    normals: np.ndarray
    orientations: np.ndarray


_box_init = status_function("fathom_box_init", Vec3, Vec3, c_float, _BoxPtr)
_box_check = status_function("fathom_box_check", _BoxPtr)
_box_corners = status_function("fathom_box_corners", _BoxPtr, POINTER(Vec3))
_box_set_center = status_function("fathom_box_set_center", _BoxPtr, Vec3)
_box_update_center = status_function("fathom_box_update_center", _BoxPtr, Vec3)
_box_update_center_in_camera = status_function("fathom_box_update_center_in_camera", _BoxPtr, Vec3, PosePtr)
_box_set_center_on_floor = status_function("fathom_box_set_center_on_floor", _BoxPtr, c_float, c_float)
_box_set_scale = status_function("fathom_box_set_scale", _BoxPtr, Vec3)
_box_update_scale = status_function("fathom_box_update_scale", _BoxPtr, Vec3)
_box_set_angle = status_function("fathom_box_set_angle", _BoxPtr, c_float)
_box_update_angle = status_function("fathom_box_update_angle", _BoxPtr, c_float)
_box_set_floor = status_function("fathom_box_set_floor", _BoxPtr, c_float)
_box_clear_floor = status_function("fathom_box_clear_floor", _BoxPtr)
_box_extend_side = status_function("fathom_box_extend_side", _BoxPtr, Vec3)
_box_shrink_side = status_function("fathom_box_shrink_side", _BoxPtr, Vec3)
_box_faces = status_function("fathom_box_faces", _BoxPtr, POINTER(FaceStruct))
_box_face_distances = status_function("fathom_box_face_distances", _BoxPtr, Vec3, FloatPtr)
_box_to_obb = status_function("fathom_box_to_obb", _BoxPtr, POINTER(ObbStruct))
_box_manifest_write = status_function(
    "fathom_box_manifest_write", _BoxPtr, POINTER(c_char), c_size_t, POINTER(c_size_t)
)
_box_manifest_read = status_function("fathom_box_manifest_read", c_char_p, c_size_t, _BoxPtr)
_box_manifest_save = status_function("fathom_box_manifest_save", _BoxPtr, c_char_p)
_box_manifest_load = status_function("fathom_box_manifest_load", c_char_p, _BoxPtr)
_box_fit_upright = status_function(
    "fathom_box_fit_upright", FloatPtr, c_size_t, c_size_t, _BoxPtr, FloatPtr
)


class Box:
    """An oriented box rotated about world +y only, as the capture app places it around an object.

    Args:
        center: (3,) world meters.
        scale: (3,) full extents along local x, y, z, meters, each > 0.
        rot_y: rotation about world +y, radians (any finite value; not wrapped).
        floor: world height of the surface the box stands on, or None. With a floor, bottom corners
            below it are raised to it; the box itself does not move.

    Raises :class:`fathom.OutOfRangeError` for a scale <= 0 and :class:`fathom.NotFiniteError` for
    NaN or infinite values.
    """

    __slots__ = ("_c",)

    def __init__(
        self,
        center: ArrayLike = (0.0, 0.0, 0.0),
        scale: ArrayLike = (1.0, 1.0, 1.0),
        rot_y: float = 0.0,
        floor: Optional[float] = None,
    ) -> None:
        c = BoxStruct()
        _box_init(to_vec3(center, "center"), to_vec3(scale, "scale"), float(rot_y), byref(c))
        if floor is not None:
            _box_set_floor(byref(c), float(floor))
        self._c = c

    @classmethod
    def _wrap(cls, c: BoxStruct) -> "Box":
        box = cls.__new__(cls)
        box._c = c
        return box

    @property
    def _as_parameter_(self) -> Any:
        """Lets a Box be passed where the C API takes ``fathom_box *``."""
        return byref(self._c)

    # -- fields ---------------------------------------------------------------------------------

    @property
    def center(self) -> np.ndarray:
        """Centre, world meters ((3,) float32). Assigning calls :meth:`set_center`."""
        return vec3_from_c(self._c.center)

    @center.setter
    def center(self, value: ArrayLike) -> None:
        self.set_center(value)

    @property
    def scale(self) -> np.ndarray:
        """Full extents along local x, y, z, meters. Assigning calls :meth:`set_scale`."""
        return vec3_from_c(self._c.scale)

    @scale.setter
    def scale(self, value: ArrayLike) -> None:
        self.set_scale(value)

    @property
    def rot_y(self) -> float:
        """Rotation about world +y, radians. Assigning calls :meth:`set_angle`."""
        return float(self._c.rot_y)

    @rot_y.setter
    def rot_y(self, value: float) -> None:
        self.set_angle(value)

    @property
    def floor(self) -> Optional[float]:
        """Height (world y) of the floor the box stands on, or None. Assigning None clears it."""
        return float(self._c.floor) if self._c.has_floor else None

    @floor.setter
    def floor(self, value: Optional[float]) -> None:
        if value is None:
            self.clear_floor()
        else:
            self.set_floor(value)

    # -- edits ----------------------------------------------------------------------------------

    def set_center(self, center: ArrayLike) -> np.ndarray:
        """center = ``center``; returns the new centre."""
        _box_set_center(self, to_vec3(center, "center"))
        return self.center

    def update_center(self, offset: ArrayLike, camera: Optional[PoseLike] = None) -> np.ndarray:
        """Moves the box by ``offset`` and returns the new centre.

        Without ``camera`` the offset is in world axes. With ``camera`` (a camera-to-world
        :class:`fathom.Pose` or (4, 4) matrix) it is in the camera's axes: ``(0.1, 0, 0)`` is 10 cm to the
        right of where the phone points.
        """
        v = to_vec3(offset, "offset")
        if camera is None:
            _box_update_center(self, v)
        else:
            _box_update_center_in_camera(self, v, byref(pose_struct(camera, "camera")))
        return self.center

    def set_center_on_floor(self, x: float, z: float) -> np.ndarray:
        """Stands the box on its floor at (x, z): center = (x, floor + sy/2, z); returns the centre.

        Raises :class:`fathom.InvalidStateError` if the box has no floor. (The app's set_center_xz.)
        """
        _box_set_center_on_floor(self, float(x), float(z))
        return self.center

    def set_scale(self, scale: ArrayLike) -> CenterScale:
        """scale = ``scale`` (each > 0); with a floor, re-seats the box on it. Returns (center, scale)."""
        _box_set_scale(self, to_vec3(scale, "scale"))
        return CenterScale(self.center, self.scale)

    def update_scale(self, multiplier: ArrayLike) -> CenterScale:
        """scale *= ``multiplier`` per axis (each > 0); with a floor, re-seats the box. Returns (center, scale)."""
        _box_update_scale(self, to_vec3(multiplier, "multiplier"))
        return CenterScale(self.center, self.scale)

    def set_angle(self, radians: float) -> float:
        """rot_y = ``radians``; returns it."""
        _box_set_angle(self, float(radians))
        return self.rot_y

    def update_angle(self, radians: float) -> float:
        """rot_y += ``radians``; returns the new rot_y (not wrapped)."""
        _box_update_angle(self, float(radians))
        return self.rot_y

    def set_floor(self, height: float) -> None:
        """Sets the floor height (world y); the box does not move, its bottom corners are clamped."""
        _box_set_floor(self, float(height))

    def clear_floor(self) -> None:
        """Removes the floor."""
        _box_clear_floor(self)

    def extend_side(self, offset: ArrayLike) -> CenterScale:
        """Moves the face on the side of ``offset`` (a local vector, e.g. (0, 0, -0.1) for the front)
        outward by |offset| per axis; the opposite face stays. Returns (center, scale)."""
        _box_extend_side(self, to_vec3(offset, "offset"))
        return CenterScale(self.center, self.scale)

    def shrink_side(self, offset: ArrayLike) -> CenterScale:
        """Moves the face opposite the sign of ``offset`` inward by |offset| per axis. Returns (center, scale).

        Raises :class:`fathom.OutOfRangeError` (and leaves the box unchanged) if a scale would be <= 0.
        """
        _box_shrink_side(self, to_vec3(offset, "offset"))
        return CenterScale(self.center, self.scale)

    # -- derived geometry -----------------------------------------------------------------------

    @property
    def corners(self) -> np.ndarray:
        """The 8 corners, (8, 3) float32, in :class:`Corner` order, bottom ones clamped to the floor."""
        out = np.empty((8, 3), dtype=np.float32)
        _box_corners(self, out.ctypes.data_as(POINTER(Vec3)))
        return out

    @property
    def faces(self) -> Faces:
        """The 6 faces (:class:`Faces`) in :class:`Face` order, built from the clamped corners.

        Raises :class:`fathom.DegenerateError` if the floor clamps the box flat.
        """
        raw = np.empty((6, 10), dtype=np.float32)  # fathom_face = 3 + 3 + 4 floats
        _box_faces(self, raw.ctypes.data_as(POINTER(FaceStruct)))
        return Faces(
            centers=np.ascontiguousarray(raw[:, 0:3]),
            normals=np.ascontiguousarray(raw[:, 3:6]),
            orientations=np.ascontiguousarray(raw[:, 6:10]),
        )

    def face_distances(self, point: ArrayLike) -> np.ndarray:
        """Signed distances (6,) from ``point`` to each face's plane: > 0 outside, < 0 inside."""
        out = np.empty(6, dtype=np.float32)
        _box_face_distances(self, to_vec3(point, "point"), out.ctypes.data_as(FloatPtr))
        return out

    def to_obb(self) -> OrientedBox:
        """The :class:`fathom.OrientedBox` of the corners (bottom raised to the floor if needed)."""
        out = ObbStruct()
        _box_to_obb(self, byref(out))
        return OrientedBox._wrap(out)

    @property
    def volume(self) -> float:
        """Volume of the corners' box (after floor clamping), cubic meters."""
        return self.to_obb().volume

    def check(self) -> None:
        """Raises the status of the first invalid field (``fathom_box_check``); boxes made by the
        binding are always valid."""
        _box_check(self)

    # -- manifest -------------------------------------------------------------------------------

    def to_manifest(self) -> str:
        """The capture app's ``boundingbox.json`` for this box, as a string."""
        return sized_text(_box_manifest_write, self)

    @classmethod
    def from_manifest(cls, text: Union[str, bytes]) -> "Box":
        """Reads a ``boundingbox.json`` manifest.

        Raises :class:`fathom.ParseError` (not JSON), :class:`fathom.FormatError` (missing, mistyped or
        extra field) or :class:`fathom.NotABoxError` (corners that are not a yaw-rotated box).
        """
        if isinstance(text, str):
            data = text.encode("utf-8")
        elif isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
        else:
            raise TypeError(f"text must be str or bytes, got {type(text).__name__}")
        out = BoxStruct()
        _box_manifest_read(data, len(data), byref(out))
        return cls._wrap(out)

    def save(self, path: PathLike) -> None:
        """Writes the manifest to ``path`` (created or replaced); :class:`fathom.FathomIOError` on failure."""
        _box_manifest_save(self, path_bytes(path))

    @classmethod
    def load(cls, path: PathLike) -> "Box":
        """Reads a manifest file; :class:`fathom.FathomIOError` if it cannot be read."""
        out = BoxStruct()
        _box_manifest_load(path_bytes(path), byref(out))
        return cls._wrap(out)

    # -- comparison and display -----------------------------------------------------------------

    def copy(self) -> "Box":
        """An independent copy (edits to one do not change the other)."""
        c = BoxStruct()
        c.center, c.scale, c.rot_y = self._c.center, self._c.scale, self._c.rot_y
        c.floor, c.has_floor = self._c.floor, self._c.has_floor
        return Box._wrap(c)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> "Box":
        return self.copy()

    def _fields(self) -> tuple[Any, ...]:
        return (tuple(self.center), tuple(self.scale), self.rot_y, self.floor)

    def __eq__(self, other: object) -> bool:
        """Exact equality of centre, scale, rot_y and floor (see :meth:`isclose`)."""
        if not isinstance(other, Box):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def isclose(self, other: "Box", atol: float = 1e-5, angle_atol: float = 1e-5) -> bool:
        """True if centre and scale agree within ``atol`` meters, rot_y within ``angle_atol`` radians
        (not modulo 2 pi), and both have no floor or floors within ``atol``."""
        if not isinstance(other, Box):
            raise TypeError(f"other must be a fathom.Box, got {type(other).__name__}")
        if (self.floor is None) != (other.floor is None):
            return False
        if self.floor is not None and abs(self.floor - other.floor) > atol:  # type: ignore[operator]
            return False
        return bool(
            np.allclose(self.center, other.center, rtol=0.0, atol=atol)
            and np.allclose(self.scale, other.scale, rtol=0.0, atol=atol)
            and abs(self.rot_y - other.rot_y) <= angle_atol
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (Box, (self.center.tolist(), self.scale.tolist(), self.rot_y, self.floor))

    def __repr__(self) -> str:
        c, s = self.center, self.scale
        floor = "None" if self.floor is None else f"{self.floor:.6g}"
        return (
            f"Box(center=({c[0]:.6g}, {c[1]:.6g}, {c[2]:.6g}), scale=({s[0]:.6g}, {s[1]:.6g}, {s[2]:.6g}), "
            f"rot_y={self.rot_y:.6g}, floor={floor})"
        )


def fit_box_upright(points: ArrayLike) -> Box:
    """The yaw-only box of least footprint around points of an upright object (no floor).

    The footprint is the minimum-area rectangle of the convex hull of the points' x-z projection;
    the height spans the lowest to the highest point; ``rot_y`` is in [0, pi/2). ``box.volume`` is
    its volume. Raises :class:`fathom.DegenerateError` if the points span no area in x-z or no
    height, :class:`fathom.NotFiniteError` for NaN/infinite points.
    """
    buf = point_buffer(points, "points")
    out = BoxStruct()
    volume = c_float()
    _box_fit_upright(buf.pointer, buf.count, buf.stride, byref(out), byref(volume))
    return Box._wrap(out)

