"""Least-squares and RANSAC fits of lines (2D and 3D) and planes, in double precision.

Points are (N, 2) or (N, 3) arrays (a wider (N, k) array is read for its first 2 or 3 columns; one (2,) or
(3,) point is a fit of one point, refused as too few). A float64 or float32 array (what back-projection
returns) whose columns are packed and whose rows are evenly spaced is passed without a copy, float32 to the
library's ``f`` fits, which widen each coordinate to double; anything else is converted once to a packed float64
array (:func:`fathom._arrays.point_buffer`, as for every point argument). Degenerate input (too few points for the
fit, coincident points, collinear points for a plane, equal x for an ordinary fit) raises
:class:`fathom.DegenerateError`, a NaN or infinity :class:`fathom.NotFiniteError`, an empty array
:class:`fathom.OutOfRangeError`.

Directions and normals are unit vectors whose largest-magnitude component is positive. A direction comes
from LAPACK's symmetric eigensolver on the covariance of the centred points (total least squares).
RANSAC results depend only on the points and the seed (reproducible on every machine).
"""

from __future__ import annotations

from ctypes import POINTER, byref, c_size_t, c_uint8, c_uint32
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Optional, Union

import numpy as np

from ._arrays import PointBuffer, point_buffer
from ._lib import DoublePtr, FloatPtr, LineFitPtr, LineFitStruct, PlaneFitPtr, PlaneFitStruct, RansacOptionsPtr
from ._lib import RansacOptionsStruct, status_function
from ._scalars import enum_member, real, uint32

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


def _fit_pair(name: str, *argtypes: Any) -> dict[Any, Any]:
    """A fit's double function and its float (``f``) variant, by the points' dtype."""
    return {np.dtype(np.float64): status_function(name, DoublePtr, *argtypes),
            np.dtype(np.float32): status_function(name + "f", FloatPtr, *argtypes)}


_fit_line2 = _fit_pair("fathom_fit_line2", c_size_t, c_size_t, c_uint32, LineFitPtr)
_fit_line3 = _fit_pair("fathom_fit_line3", c_size_t, c_size_t, LineFitPtr)
_fit_line_ransac = _fit_pair(
    "fathom_fit_line_ransac", c_size_t, c_size_t, c_uint32, RansacOptionsPtr, LineFitPtr, POINTER(c_uint8)
)
_fit_plane = _fit_pair("fathom_fit_plane", c_size_t, c_size_t, PlaneFitPtr)
_fit_plane_ransac = _fit_pair(
    "fathom_fit_plane_ransac", c_size_t, c_size_t, RansacOptionsPtr, PlaneFitPtr, POINTER(c_uint8)
)
_ransac_options_init = status_function("fathom_ransac_options_init", RansacOptionsPtr)


def _points(points: Any, dimensions: Optional[int]) -> PointBuffer:
    """Points for the fits: ``dimensions`` columns, or None for 2 or 3 told by the shape. A float32 array stays
    float32 (read in place by the ``f`` functions, as back-projection returns it); anything else becomes float64."""
    single = isinstance(points, np.ndarray) and points.dtype == np.float32
    return point_buffer(points, "points", dtype=np.float32 if single else np.float64, columns=dimensions)


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
        inliers: for a RANSAC fit, (N,) bool: the points used (as Open3D's segment_plane gives them); else None.
    """

    point: np.ndarray
    direction: np.ndarray
    rms: float
    max_residual: float
    t_min: float
    t_max: float
    used: int
    inliers: Optional[np.ndarray] = None

    @classmethod
    def _from_c(cls, c: LineFitStruct, dimensions: int, inliers: Optional[np.ndarray] = None) -> "LineFit":
        return cls(_vector(c.point, dimensions), _vector(c.direction, dimensions), float(c.rms),
                   float(c.max_residual), float(c.t_min), float(c.t_max), int(c.used), inliers)

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
        inliers: for a RANSAC fit, (N,) bool: the points used (as Open3D's segment_plane gives them); else None.
    """

    point: np.ndarray
    normal: np.ndarray
    rms: float
    max_residual: float
    used: int
    inliers: Optional[np.ndarray] = None

    @classmethod
    def _from_c(cls, c: PlaneFitStruct, inliers: Optional[np.ndarray] = None) -> "PlaneFit":
        return cls(_vector(c.point, 3), _vector(c.normal, 3), float(c.rms), float(c.max_residual), int(c.used),
                   inliers)

    def distance(self, points: Any) -> np.ndarray:
        """Signed distances of points (N, 3) from the plane, positive on the normal's side."""
        return (np.asarray(points, dtype=np.float64)[..., :3] - self.point) @ self.normal

    def __repr__(self) -> str:
        fmt = lambda v: "(" + ", ".join(f"{x:.6g}" for x in v) + ")"  # noqa: E731
        return (
            f"PlaneFit(point={fmt(self.point)}, normal={fmt(self.normal)}, rms={self.rms:.3g}, "
            f"max_residual={self.max_residual:.3g}, used={self.used})"
        )


def _ransac(threshold: float, iterations: int, seed: int, confidence: float) -> RansacOptionsStruct:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
    options = RansacOptionsStruct()
    _ransac_options_init(byref(options))
    options.threshold = real(threshold, "threshold")
    options.iterations = uint32(iterations, "iterations", unit="")
    options.seed = int(seed)
    options.confidence = real(confidence, "confidence")
    return options


def _inlier_mask(count: int) -> np.ndarray:
    return np.zeros(count, dtype=np.bool_)


def _mask_pointer(mask: np.ndarray) -> Any:
    return mask.ctypes.data_as(POINTER(c_uint8))


def fit_line_2d(points: Any, method: Union[str, LineMethod] = "total") -> LineFit:
    """A 2D line through (N, 2) points: ``"total"`` least squares (perpendicular distances, the principal
    direction) or ``"ordinary"`` (y = a x + b minimizing vertical residuals; needs two distinct x)."""
    m = int(enum_member(method, LineMethod, "method"))
    p = _points(points, 2)
    out = LineFitStruct()
    _fit_line2[p.array.dtype](p.pointer, p.count, p.stride, m, byref(out))
    return LineFit._from_c(out, 2)


def fit_line_3d(points: Any) -> LineFit:
    """A 3D line through (N, 3) points by total least squares: the centroid and the principal direction."""
    p = _points(points, 3)
    out = LineFitStruct()
    _fit_line3[p.array.dtype](p.pointer, p.count, p.stride, byref(out))
    return LineFit._from_c(out, 3)


def fit_line_ransac(
    points: Any, threshold: float, iterations: int = 1000, seed: int = 0, confidence: float = 0.99
) -> LineFit:
    """A robust line through (N, 2) or (N, 3) points (2D or 3D from the shape): RANSAC over point pairs
    counting the points within ``threshold`` of each candidate, then a total-least-squares refit on the best
    candidate's inliers, and once more on the refit line's inliers when they are at least as many.

    At most ``iterations`` pairs are drawn: the search stops sooner once a pair of inliers only has been drawn
    with probability ``confidence`` (estimated from the best pair's inlier fraction; 1 draws them all).
    Reproducible for a given ``seed``. ``inliers`` of the result marks the points the final fit used."""
    p = _points(points, None)
    dimensions = p.array.shape[1]
    options = _ransac(threshold, iterations, seed, confidence)
    out = LineFitStruct()
    inliers = _inlier_mask(p.count)
    _fit_line_ransac[p.array.dtype](
        p.pointer, p.count, p.stride, dimensions, byref(options), byref(out), _mask_pointer(inliers)
    )
    return LineFit._from_c(out, dimensions, inliers)


def fit_plane(points: Any) -> PlaneFit:
    """The least-squares plane through (N, 3) points (orthogonal distances): the centroid and the direction
    of least spread. Collinear points raise :class:`fathom.DegenerateError`."""
    p = _points(points, 3)
    out = PlaneFitStruct()
    _fit_plane[p.array.dtype](p.pointer, p.count, p.stride, byref(out))
    return PlaneFit._from_c(out)


def fit_plane_ransac(
    points: Any, threshold: float, iterations: int = 1000, seed: int = 0, confidence: float = 0.99
) -> PlaneFit:
    """A robust plane through (N, 3) points: RANSAC over point triples (collinear triples skipped), then a
    least-squares refit on the best triple's inliers (within ``threshold``), and once more on the refit
    plane's inliers when they are at least as many.

    At most ``iterations`` triples are drawn, fewer once a triple of inliers only has been drawn with
    probability ``confidence`` (1 draws them all; Open3D's ``segment_plane`` calls it ``probability``).
    Reproducible for a ``seed``. ``inliers`` of the result marks the points the final fit used (as
    ``segment_plane``'s inlier indices do in Open3D)."""
    p = _points(points, 3)
    options = _ransac(threshold, iterations, seed, confidence)
    out = PlaneFitStruct()
    inliers = _inlier_mask(p.count)
    _fit_plane_ransac[p.array.dtype](p.pointer, p.count, p.stride, byref(options), byref(out), _mask_pointer(inliers))
    return PlaneFit._from_c(out, inliers)
