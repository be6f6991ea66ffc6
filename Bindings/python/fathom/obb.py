"""General oriented boxes (any 3D rotation), point culling and the PCA box fit.

Containment follows the library: a point is inside when its local coordinates satisfy
``|l_i| <= scale_i / 2`` on every axis (faces count as inside); a point with a NaN or infinite
coordinate is outside. Point arrays are read in place when they are float32 with packed columns
(see :func:`fathom._arrays.point_buffer`).
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_float, c_size_t, c_uint8, c_uint64
from typing import Any

import numpy as np

from ._arrays import ArrayLike, point_buffer, quat_from_c, to_quat, to_vec3, vec3_from_c
from ._lib import FloatPtr, ObbStruct, Vec3, status_function
from .errors import BufferTooSmallError

__all__ = ["OrientedBox", "fit_obb_pca"]

_ObbPtr = POINTER(ObbStruct)
_SizePtr = POINTER(c_size_t)

_obb_check = status_function("fathom_obb_check", _ObbPtr)
_obb_corners = status_function("fathom_obb_corners", _ObbPtr, POINTER(Vec3))
_obb_volume = status_function("fathom_obb_volume", _ObbPtr, FloatPtr)
_obb_count_inside = status_function(
    "fathom_obb_count_inside", _ObbPtr, FloatPtr, c_size_t, c_size_t, _SizePtr
)
_obb_mask_inside = status_function(
    "fathom_obb_mask_inside", _ObbPtr, FloatPtr, c_size_t, c_size_t, POINTER(c_uint8), _SizePtr
)
_obb_indices_inside = status_function(
    "fathom_obb_indices_inside", _ObbPtr, FloatPtr, c_size_t, c_size_t, POINTER(c_uint64), c_size_t, _SizePtr
)
_obb_signed_distances = status_function(
    "fathom_obb_signed_distances", _ObbPtr, FloatPtr, c_size_t, c_size_t, FloatPtr
)
_obb_fit_pca = status_function("fathom_obb_fit_pca", FloatPtr, c_size_t, c_size_t, _ObbPtr, FloatPtr)


class OrientedBox:
    """A box with any 3D rotation: world = center + rotation * local.

    Args:
        center: (3,) meters.
        scale: (3,) full extents along local x, y, z, meters, each > 0.
        rotation: local-to-world rotation quaternion (x, y, z, w), unit within 1e-3.

    Raises :class:`fathom.OutOfRangeError` (scale <= 0, rotation not unit) or
    :class:`fathom.NotFiniteError`. Oriented boxes are immutable values.
    """

    __slots__ = ("_c",)

    def __init__(
        self,
        center: ArrayLike = (0.0, 0.0, 0.0),
        scale: ArrayLike = (1.0, 1.0, 1.0),
        rotation: ArrayLike = (0.0, 0.0, 0.0, 1.0),
    ) -> None:
        c = ObbStruct(to_vec3(center, "center"), to_vec3(scale, "scale"), to_quat(rotation, "rotation"))
        _obb_check(byref(c))
        self._c = c

    @classmethod
    def _wrap(cls, c: ObbStruct) -> "OrientedBox":
        obb = cls.__new__(cls)
        obb._c = c
        return obb

    @property
    def _as_parameter_(self) -> Any:
        """Lets an OrientedBox be passed where the C API takes ``const fathom_obb *``."""
        return byref(self._c)

    @property
    def center(self) -> np.ndarray:
        """Centre, meters ((3,) float32)."""
        return vec3_from_c(self._c.center)

    @property
    def scale(self) -> np.ndarray:
        """Full extents along local x, y, z, meters."""
        return vec3_from_c(self._c.scale)

    @property
    def rotation(self) -> np.ndarray:
        """Local-to-world rotation, quaternion (x, y, z, w)."""
        return quat_from_c(self._c.rotation)

    @property
    def corners(self) -> np.ndarray:
        """The 8 corners, (8, 3) float32, in :class:`fathom.Corner` order (local signs as for Box)."""
        out = np.empty((8, 3), dtype=np.float32)
        _obb_corners(self, out.ctypes.data_as(POINTER(Vec3)))
        return out

    @property
    def volume(self) -> float:
        """Volume, cubic meters."""
        out = c_float()
        _obb_volume(self, byref(out))
        return float(out.value)

    def contains(self, points: ArrayLike) -> Any:
        """A boolean mask (N,): True where the point is inside (faces count as inside, NaN is outside); for one
        (3,) point, a numpy bool."""
        buf = point_buffer(points, "points")
        mask = np.empty(buf.count, dtype=np.uint8)
        _obb_mask_inside(self, buf.pointer, buf.count, buf.stride, mask.ctypes.data_as(POINTER(c_uint8)), None)
        return buf.result(mask.view(np.bool_))

    def count_inside(self, points: ArrayLike) -> int:
        """The number of points inside (0 or 1 for one (3,) point)."""
        buf = point_buffer(points, "points")
        out = c_size_t()
        _obb_count_inside(self, buf.pointer, buf.count, buf.stride, byref(out))
        return int(out.value)

    def indices_inside(self, points: ArrayLike) -> np.ndarray:
        """The indices (uint64, ascending) of the points inside.

        The output is sized exactly: the library first counts, then writes the indices. One (3,) point is a
        list of one point: the result is ``[0]`` or empty.
        """
        buf = point_buffer(points, "points")
        total = c_size_t()
        _obb_count_inside(self, buf.pointer, buf.count, buf.stride, byref(total))
        for attempt in range(3):
            out = np.empty(total.value, dtype=np.uint64)
            pointer = out.ctypes.data_as(POINTER(c_uint64)) if out.size else None
            try:
                _obb_indices_inside(self, buf.pointer, buf.count, buf.stride, pointer, out.size, byref(total))
            except BufferTooSmallError:  # the points changed between the calls: size again from `total`
                if attempt == 2:
                    raise
                continue
            return out[: total.value]
        raise AssertionError("unreachable")

    def signed_distance(self, points: ArrayLike) -> Any:
        """Signed Euclidean distance (N,) float32 from each point to the surface: < 0 inside, > 0 outside; for
        one (3,) point, a numpy float32.

        Points must be finite (:class:`fathom.NotFiniteError`).
        """
        buf = point_buffer(points, "points")
        out = np.empty(buf.count, dtype=np.float32)
        _obb_signed_distances(self, buf.pointer, buf.count, buf.stride, out.ctypes.data_as(FloatPtr))
        return buf.result(out)

    def isclose(self, other: "OrientedBox", atol: float = 1e-5) -> bool:
        """True if centre, scale and rotation (q or -q) agree within ``atol``."""
        if not isinstance(other, OrientedBox):
            raise TypeError(f"other must be a fathom.OrientedBox, got {type(other).__name__}")
        q, r = self.rotation, other.rotation
        return bool(
            np.allclose(self.center, other.center, rtol=0.0, atol=atol)
            and np.allclose(self.scale, other.scale, rtol=0.0, atol=atol)
            and (np.allclose(q, r, rtol=0.0, atol=atol) or np.allclose(q, -r, rtol=0.0, atol=atol))
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OrientedBox):
            return NotImplemented
        return bytes(self._c) == bytes(other._c)

    def __hash__(self) -> int:
        return hash(bytes(self._c))

    def __reduce__(self) -> tuple[Any, ...]:
        return (OrientedBox, (self.center.tolist(), self.scale.tolist(), self.rotation.tolist()))

    def __repr__(self) -> str:
        c, s, q = self.center, self.scale, self.rotation
        return (
            f"OrientedBox(center=({c[0]:.6g}, {c[1]:.6g}, {c[2]:.6g}), "
            f"scale=({s[0]:.6g}, {s[1]:.6g}, {s[2]:.6g}), "
            f"rotation=({q[0]:.6g}, {q[1]:.6g}, {q[2]:.6g}, {q[3]:.6g}))"
        )


def fit_obb_pca(points: ArrayLike) -> OrientedBox:
    """The box aligned with the points' principal axes (largest variance = local x) enclosing them all.

    Needs >= 4 finite points not all on one plane (:class:`fathom.DegenerateError`). The fit is not
    the minimum-volume box; ``.volume`` gives its volume.
    """
    buf = point_buffer(points, "points")
    out = ObbStruct()
    volume = c_float()
    _obb_fit_pca(buf.pointer, buf.count, buf.stride, byref(out), byref(volume))
    return OrientedBox._wrap(out)
