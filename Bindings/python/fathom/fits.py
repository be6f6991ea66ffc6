"""Least-squares and RANSAC fits of lines (2D and 3D) and planes, in double precision.

Points are (N, 2) or (N, 3) arrays (a wider (N, k) array is read for its first 2 or 3 columns). A float64
array whose columns are packed and whose rows are evenly spaced is passed without a copy; anything else
is converted once to a packed float64 array. Degenerate input (too few points for the fit, coincident
points, collinear points for a plane, equal x for an ordinary fit) raises :class:`fathom.DegenerateError`,
a NaN or infinity :class:`fathom.NotFiniteError`, an empty array :class:`fathom.OutOfRangeError`.

Directions and normals are unit vectors whose largest-magnitude component is positive. A direction comes
from LAPACK's symmetric eigensolver on the covariance of the centred points (total least squares).
RANSAC results depend only on the points and the seed (reproducible on every machine).
"""

from __future__ import annotations

from ctypes import byref, c_size_t, c_uint32
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Union

import numpy as np

from ._lib import DoublePtr, LineFitPtr, LineFitStruct, PlaneFitPtr, PlaneFitStruct, RansacOptionsPtr
from ._lib import RansacOptionsStruct, status_function
from .camera import _size
from .depth import _enum, _real

__all__ = [
    "LineFit",
    "LineMethod",
    "PlaneFit",
    "fit_line_2d",
    "fit_line_3d",
    "fit_line_ransac",
    "fit_plane",
    "fit_plane_ransac",
]


class LineMethod(IntEnum):
    """Kinds of 2D line fit (``fathom_line_method``)."""

    ORDINARY = 0  # y = a x + b minimizing vertical residuals (needs two distinct x)
    TOTAL = 1  # minimizing perpendicular distances (the principal direction)


_fit_line2 = status_function("fathom_fit_line2", DoublePtr, c_size_t, c_size_t, c_uint32, LineFitPtr)
_fit_line3 = status_function("fathom_fit_line3", DoublePtr, c_size_t, c_size_t, LineFitPtr)
_fit_line_ransac = status_function(
    "fathom_fit_line_ransac", DoublePtr, c_size_t, c_size_t, c_uint32, RansacOptionsPtr, LineFitPtr
)
_fit_plane = status_function("fathom_fit_plane", DoublePtr, c_size_t, c_size_t, PlaneFitPtr)
_fit_plane_ransac = status_function("fathom_fit_plane_ransac", DoublePtr, c_size_t, c_size_t, RansacOptionsPtr, PlaneFitPtr)

_F64 = np.dtype(np.float64)


class _Points:
    """Double points ready for the ABI: ``array`` (kept alive), ``pointer``, ``count``, ``stride`` (bytes)."""

    __slots__ = ("array", "pointer", "count", "stride", "dimensions")

    def __init__(self, points: Any, dimensions: Union[int, None], name: str = "points") -> None:
        a = points if isinstance(points, np.ndarray) else None
        if a is None:
            try:
                a = np.asarray(points, dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"{name} must be an array of numbers, got {type(points).__name__}: {exc}") from None
        if not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
            raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
        if dimensions is None:  # RANSAC lines: 2D or 3D from the shape
            if a.ndim != 2 or a.shape[1] not in (2, 3):
                raise ValueError(f"{name} must have shape (N, 2) or (N, 3), got shape {a.shape}")
            dimensions = a.shape[1]
        elif a.ndim != 2 or a.shape[1] < dimensions:
            raise ValueError(f"{name} must have shape (N, {dimensions}), got shape {a.shape}")
        n = a.shape[0]
        row, col = a.strides
        in_place = (
            a.dtype == _F64 and a.dtype.isnative and col == 8 and a.ctypes.data % 8 == 0
            and (n <= 1 or (row >= 8 * dimensions and row % 8 == 0))
        )
        if not in_place:
            a = np.array(a[:, :dimensions], dtype=np.float64, order="C")  # a fresh, aligned, packed copy
        self.array = a
        self.pointer = a.ctypes.data_as(DoublePtr)
        self.count = n
        self.stride = a.strides[0] if n > 1 else 0  # 0: packed
        self.dimensions = dimensions


def _vector(values: Any, dimensions: int) -> np.ndarray:
    return np.array(values[:dimensions], dtype=np.float64)


@dataclass(frozen=True, eq=False)
class LineFit:
    """A fitted line: ``point + t * direction``.

    Attributes:
        point: the centroid of the points used, (2,) or (3,) float64.
        direction: unit direction, its largest-magnitude component positive.
        rms, max_residual: RMS and largest residual of the points used (perpendicular distance; vertical
            for an ordinary 2D fit).
        t_min, t_max: extent of the used points' projections on the line, from ``point``.
        used: the number of points used (the inliers of a RANSAC fit).
    """

    point: np.ndarray
    direction: np.ndarray
    rms: float
    max_residual: float
    t_min: float
    t_max: float
    used: int

    @classmethod
    def _from_c(cls, c: LineFitStruct, dimensions: int) -> "LineFit":
        return cls(_vector(c.point, dimensions), _vector(c.direction, dimensions), float(c.rms),
                   float(c.max_residual), float(c.t_min), float(c.t_max), int(c.used))

    @property
    def length(self) -> float:
        """``t_max - t_min``: the extent of the used points along the line."""
        return self.t_max - self.t_min

    @property
    def start(self) -> np.ndarray:
        """The point of the line at ``t_min``."""
        return self.point + self.t_min * self.direction

    @property
    def end(self) -> np.ndarray:
        """The point of the line at ``t_max``."""
        return self.point + self.t_max * self.direction

    def project(self, points: Any) -> np.ndarray:
        """The parameters t of points' projections on the line ((N,) float64)."""
        p = np.asarray(points, dtype=np.float64)[..., : len(self.point)]
        return (p - self.point) @ self.direction

    def distance(self, points: Any) -> np.ndarray:
        """Perpendicular distances of points from the line ((N,) float64)."""
        p = np.asarray(points, dtype=np.float64)[..., : len(self.point)] - self.point
        t = p @ self.direction
        return np.sqrt(np.maximum((p * p).sum(axis=-1) - t * t, 0.0))

    def __repr__(self) -> str:
        fmt = lambda v: "(" + ", ".join(f"{x:.6g}" for x in v) + ")"  # noqa: E731
        return (
            f"LineFit(point={fmt(self.point)}, direction={fmt(self.direction)}, rms={self.rms:.3g}, "
            f"max_residual={self.max_residual:.3g}, t=[{self.t_min:.6g}, {self.t_max:.6g}], used={self.used})"
        )


@dataclass(frozen=True, eq=False)
class PlaneFit:
    """A fitted plane: ``dot(normal, x - point) = 0``.

    Attributes:
        point: the centroid of the points used, (3,) float64.
        normal: unit normal, its largest-magnitude component positive.
        rms, max_residual: RMS and largest distance of the points used from the plane.
        used: the number of points used (the inliers of a RANSAC fit).
    """

    point: np.ndarray
    normal: np.ndarray
    rms: float
    max_residual: float
    used: int

    @classmethod
    def _from_c(cls, c: PlaneFitStruct) -> "PlaneFit":
        return cls(_vector(c.point, 3), _vector(c.normal, 3), float(c.rms), float(c.max_residual), int(c.used))

    def distance(self, points: Any) -> np.ndarray:
        """Signed distances of points (N, 3) from the plane, positive on the normal's side."""
        return (np.asarray(points, dtype=np.float64)[..., :3] - self.point) @ self.normal

    def __repr__(self) -> str:
        fmt = lambda v: "(" + ", ".join(f"{x:.6g}" for x in v) + ")"  # noqa: E731
        return (
            f"PlaneFit(point={fmt(self.point)}, normal={fmt(self.normal)}, rms={self.rms:.3g}, "
            f"max_residual={self.max_residual:.3g}, used={self.used})"
        )


def _ransac(threshold: float, iterations: int, seed: int) -> RansacOptionsStruct:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
    return RansacOptionsStruct(_real(threshold, "threshold"), _size(iterations, "iterations"), 0, int(seed))


def fit_line_2d(points: Any, method: Union[str, LineMethod] = "total") -> LineFit:
    """A 2D line through (N, 2) points: ``"total"`` least squares (perpendicular distances, the principal
    direction) or ``"ordinary"`` (y = a x + b minimizing vertical residuals; needs two distinct x)."""
    m = int(_enum(method, LineMethod, "method"))
    p = _Points(points, 2)
    out = LineFitStruct()
    _fit_line2(p.pointer, p.count, p.stride, m, byref(out))
    return LineFit._from_c(out, 2)


def fit_line_3d(points: Any) -> LineFit:
    """A 3D line through (N, 3) points by total least squares: the centroid and the principal direction."""
    p = _Points(points, 3)
    out = LineFitStruct()
    _fit_line3(p.pointer, p.count, p.stride, byref(out))
    return LineFit._from_c(out, 3)


def fit_line_ransac(points: Any, threshold: float, iterations: int = 1000, seed: int = 0) -> LineFit:
    """A robust line through (N, 2) or (N, 3) points (2D or 3D from the shape): RANSAC over point pairs
    counting the points within ``threshold`` of each candidate, then a total-least-squares refit on the best
    candidate's inliers. Reproducible for a given ``seed``."""
    p = _Points(points, None)
    options = _ransac(threshold, iterations, seed)
    out = LineFitStruct()
    _fit_line_ransac(p.pointer, p.count, p.stride, p.dimensions, byref(options), byref(out))
    return LineFit._from_c(out, p.dimensions)


def fit_plane(points: Any) -> PlaneFit:
    """The least-squares plane through (N, 3) points (orthogonal distances): the centroid and the direction
    of least spread. Collinear points raise :class:`fathom.DegenerateError`."""
    p = _Points(points, 3)
    out = PlaneFitStruct()
    _fit_plane(p.pointer, p.count, p.stride, byref(out))
    return PlaneFit._from_c(out)


def fit_plane_ransac(points: Any, threshold: float, iterations: int = 1000, seed: int = 0) -> PlaneFit:
    """A robust plane through (N, 3) points: RANSAC over point triples (collinear triples skipped), then a
    least-squares refit on the best triple's inliers (within ``threshold``). Reproducible for a ``seed``."""
    p = _Points(points, 3)
    options = _ransac(threshold, iterations, seed)
    out = PlaneFitStruct()
    _fit_plane_ransac(p.pointer, p.count, p.stride, byref(options), byref(out))
    return PlaneFit._from_c(out)
