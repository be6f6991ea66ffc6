"""Metric length of an elongated object (a fish) from a depth frame, with a 1-sigma error bar.

Three ways to measure, all on a :class:`fathom.DepthFrame`:

- :func:`length_keypoints`: two RGB keypoints (head, tail), each given a depth (``"nearest"`` sample,
  ``"median"`` of a window, or ``"plane"``: its ray meets a plane fitted by RANSAC to the depth samples under
  a mask), back-projected with the RGB intrinsics; the length is their distance.
- :func:`length_mask`: the straight length of the object under a mask: the mask's body (its largest connected
  region) is laid on the plane of the depth samples under it, and the length is its extent along its axis.
- :func:`length_midline`: the length along the body's midline (a curve through the middle of the mask, on the
  plane), for bent fish; the other methods measure straight snout-to-tail lengths.
- :func:`length_polyline`: a traced centre line (RGB pixels), each pixel given a depth as a keypoint is;
  a 3D line is fitted and the length is the untrimmed extent of the projections.

:func:`mask_endpoints` gives head and tail candidates from a mask alone (its principal axis in 2D).

Settings are a :class:`LengthOptions`, whose defaults are the library's (``fathom_length_options_init``);
each function also takes the settings as keyword arguments (``window=7, depth_noise=0.01``). The error
bar assumes the noise the options state: each depth reading has Gaussian noise
``depth_noise * d ** depth_noise_growth``; keypoints are placed with ``pixel_noise`` RGB pixels in u and in v;
a mask's outline is placed with ``edge_noise`` mask pixels perpendicular to itself (a sharp tip, such as a
forked tail's lobe, recedes several times that). These propagate to the length to first order (with a fitted
plane's errors, and each mask end's gap to the last pixel centre inside, which depends on the tip's shape).
A lobe's error is skewed (it recedes further than it advances, or is cut off whole), so on forked tails the
one-sigma bar is cautious, about 80% (README, "Uncertainty").
"""

from __future__ import annotations

import dataclasses
import functools
from ctypes import byref, c_float, c_size_t
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

from ._arrays import mask_struct
from ._defaults import default_field, library_defaults
from ._lib import DepthFramePtr, DoublePtr, FloatPtr, LengthOptionsPtr, LengthOptionsStruct, LengthPtr, LengthStruct, LineFitPtr
from ._lib import DepthFrameStruct, LineFitStruct, MaskPtr, RansacOptionsStruct, status_function
from ._scalars import enum_member, real, uint32
from .camera import PointFrame
from .fits import LineFit

# For annotations only: depth.py imports this module (for DepthFrame's length methods), not the reverse.
if TYPE_CHECKING:  # pragma: no cover
    from .depth import DepthFrame

__all__ = ["KeypointDepth", "Length", "LengthOptions", "length_keypoints", "length_mask", "length_midline",
           "length_polyline", "mask_endpoints"]


class KeypointDepth(IntEnum):
    """How a keypoint gets its depth (``fathom_keypoint_depth``)."""

    NEAREST = 0  # the nearest depth sample
    MEDIAN = 1  # the median of the valid samples in a window, each moved to the keypoint along its depth gradient
    PLANE = 2  # the keypoint's ray meets the body plane of the mask (as length_mask's)


_length_options_init = status_function("fathom_length_options_init", LengthOptionsPtr)
_length_keypoints = status_function(
    "fathom_length_keypoints", DepthFramePtr, c_float, c_float, c_float, c_float, MaskPtr, LengthOptionsPtr, LengthPtr
)
_length_mask = status_function("fathom_length_mask", DepthFramePtr, MaskPtr, LengthOptionsPtr, LengthPtr)
_length_midline = status_function(
    "fathom_length_midline", DepthFramePtr, MaskPtr, LengthOptionsPtr, LengthPtr, DoublePtr, c_size_t
)
_length_polyline = status_function(
    "fathom_length_polyline", DepthFramePtr, FloatPtr, c_size_t, MaskPtr, LengthOptionsPtr, LengthPtr
)
_mask_endpoints = status_function("fathom_mask_endpoints", MaskPtr, FloatPtr, FloatPtr, LineFitPtr)


_defaults = library_defaults(LengthOptionsStruct, _length_options_init, lambda c: LengthOptions._from_c(c))


def _default(name: str) -> Any:
    return default_field(_defaults, name)


@dataclass(frozen=True)
class LengthOptions:
    """Settings of the length functions (``fathom_length_options``). Every default is the library's own
    (read from ``fathom_length_options_init`` on first use), so ``LengthOptions()`` is the C default.

    Attributes:
        keypoint_depth: how a keypoint gets its depth (:class:`KeypointDepth` or ``"nearest"``,
            ``"median"``, ``"plane"``).
        window: the median window, odd >= 1.
        out_frame: the :class:`fathom.PointFrame` of the reported endpoints (``"camera"`` by default).
        trim_points, trim_fraction: mask lengths drop ``max(trim_points, trim_fraction * n)`` of the n
            outline pixels at each end (none by default: a tapered tip's last pixels are the tip).
        plane_threshold, plane_iterations, plane_seed, plane_confidence: the body plane's RANSAC (the
            threshold is raised to three times the depth noise at the samples' median depth when that is larger;
            confidence 1, the default, draws all ``plane_iterations`` samples).
        depth_noise: depth noise at 1 m, meters (1 sigma); ``depth_noise_growth``: its exponent in depth.
        pixel_noise: keypoint placement noise, RGB pixels (1 sigma in u and in v).
        edge_noise: mask outline placement noise, mask pixels (1 sigma, perpendicular to the outline).
    """

    keypoint_depth: KeypointDepth = _default("keypoint_depth")
    window: int = _default("window")
    out_frame: PointFrame = _default("out_frame")
    trim_points: int = _default("trim_points")
    trim_fraction: float = _default("trim_fraction")
    plane_threshold: float = _default("plane_threshold")
    plane_iterations: int = _default("plane_iterations")
    plane_seed: int = _default("plane_seed")
    plane_confidence: float = _default("plane_confidence")
    depth_noise: float = _default("depth_noise")
    depth_noise_growth: float = _default("depth_noise_growth")
    pixel_noise: float = _default("pixel_noise")
    edge_noise: float = _default("edge_noise")

    def __post_init__(self) -> None:
        set_ = functools.partial(object.__setattr__, self)
        set_("keypoint_depth", enum_member(self.keypoint_depth, KeypointDepth, "keypoint_depth"))
        set_("out_frame", enum_member(self.out_frame, PointFrame, "out_frame"))
        for name in ("window", "trim_points", "plane_iterations"):
            set_(name, uint32(getattr(self, name), name, ""))
        seed = self.plane_seed
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**64:
            raise ValueError(f"plane_seed must be an int in 0..2**64-1, got {seed!r}")
        set_("plane_seed", int(seed))
        for name in ("trim_fraction", "plane_threshold", "plane_confidence", "depth_noise", "depth_noise_growth",
                     "pixel_noise", "edge_noise"):
            set_(name, real(getattr(self, name), name))

    @classmethod
    def _from_c(cls, c: LengthOptionsStruct) -> "LengthOptions":
        return cls(
            keypoint_depth=KeypointDepth(c.keypoint_depth), window=int(c.window), out_frame=PointFrame(c.out_frame),
            trim_points=int(c.trim_points), trim_fraction=float(c.trim_fraction),
            plane_threshold=float(c.plane.threshold), plane_iterations=int(c.plane.iterations),
            plane_seed=int(c.plane.seed), plane_confidence=float(c.plane.confidence), depth_noise=float(c.depth_noise),
            depth_noise_growth=float(c.depth_noise_growth), pixel_noise=float(c.pixel_noise),
            edge_noise=float(c.edge_noise),
        )

    def _to_c(self) -> LengthOptionsStruct:
        return LengthOptionsStruct(
            int(self.keypoint_depth), self.window, int(self.out_frame), self.trim_points, self.trim_fraction,
            RansacOptionsStruct(
                threshold=self.plane_threshold, confidence=self.plane_confidence, seed=self.plane_seed,
                iterations=self.plane_iterations,
            ),
            self.depth_noise, self.depth_noise_growth, self.pixel_noise, self.edge_noise,
        )

    def replace(self, **changes: Any) -> "LengthOptions":
        """A copy with some settings changed (unknown names raise TypeError)."""
        return dataclasses.replace(self, **changes)

    def noise(self, depth: Any) -> Any:
        """The model's depth noise (1 sigma, meters) of one reading at ``depth`` meters."""
        return self.depth_noise * np.asarray(depth, dtype=np.float64) ** self.depth_noise_growth


@dataclass(frozen=True, eq=False)
class Length:
    """A measured length with its 1-sigma uncertainty.

    Attributes:
        value: the length, meters.
        sigma: one standard deviation, meters.
        head, tail: the endpoints ((3,) float64) in the options' ``out_frame``: the head keypoint (or the
            line's start, the smaller projection) and the tail.
        head_pixel, tail_pixel: the endpoints' RGB pixel coordinates (u, v), (2,) float32.
        rms: the fit's RMS residual (plane, line or midline), meters; 0 for nearest or median keypoints.
        samples: the number of depth samples the result rests on.
        curve: for :func:`length_midline`, the midline's points ((K, 3) float64, evenly spaced by arc length
            from head to tail, in ``out_frame``); else None.
    """

    value: float
    sigma: float
    head: np.ndarray
    tail: np.ndarray
    head_pixel: np.ndarray
    tail_pixel: np.ndarray
    rms: float
    samples: int
    curve: Optional[np.ndarray] = None

    @classmethod
    def _from_c(cls, c: LengthStruct, curve: Optional[np.ndarray] = None) -> "Length":
        return cls(
            float(c.length), float(c.sigma), np.array(c.head[:], np.float64), np.array(c.tail[:], np.float64),
            np.array(c.head_pixel[:], np.float32), np.array(c.tail_pixel[:], np.float32), float(c.rms),
            int(c.samples), curve,
        )

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return (
            f"Length({self.value:.4f} m ± {self.sigma:.4f} m, head_pixel=({self.head_pixel[0]:.1f}, "
            f"{self.head_pixel[1]:.1f}), tail_pixel=({self.tail_pixel[0]:.1f}, {self.tail_pixel[1]:.1f}), "
            f"rms={self.rms:.3g}, samples={self.samples})"
        )


def _options(options: Optional[LengthOptions], method: Optional[Any], overrides: dict[str, Any]) -> LengthOptions:
    base = _defaults() if options is None else options
    if not isinstance(base, LengthOptions):
        raise TypeError(f"options must be a fathom.LengthOptions, got {type(base).__name__}")
    if method is not None:
        overrides = {**overrides, "keypoint_depth": method}
    return base.replace(**overrides) if overrides else base


def _frame(frame: Any) -> DepthFrame:
    # Told by the C struct it carries, not by its class, which this module does not import at run time.
    if not isinstance(getattr(frame, "_c", None), DepthFrameStruct):
        raise TypeError(f"frame must be a fathom.DepthFrame, got {type(frame).__name__}")
    return frame


def _pixel(value: Any, name: str) -> tuple[float, float]:
    a = np.asarray(value, dtype=np.float64)
    if a.shape != (2,):
        raise ValueError(f"{name} must be an RGB pixel (u, v), got shape {a.shape}")
    return float(a[0]), float(a[1])


def _optional_mask(mask: Optional[Any]) -> tuple[Any, Any]:
    if mask is None:
        return None, None
    m, keep = mask_struct(mask)
    return byref(m), (m, keep)


def length_keypoints(
    frame: DepthFrame, head: Sequence[float], tail: Sequence[float], mask: Optional[Any] = None, *,
    method: Optional[Union[str, KeypointDepth]] = None, options: Optional[LengthOptions] = None, **overrides: Any,
) -> Length:
    """The length between two RGB keypoints ``head`` and ``tail`` (u, v).

    ``method`` (or ``options.keypoint_depth``) says how each keypoint gets its depth: ``"nearest"``,
    ``"median"`` (the default: a ``window`` x ``window`` median, each sample moved to the keypoint along the
    window's depth gradient) or ``"plane"`` (needs ``mask``: the keypoint's ray meets the plane RANSAC fits to
    the depth samples under the mask's body). Other settings as keyword
    arguments override ``options``. Raises :class:`fathom.OutOfRangeError` for a keypoint outside the RGB
    image and :class:`fathom.NoDataError` when there is no valid depth there.
    """
    f = _frame(frame)
    o = _options(options, method, overrides)
    (hu, hv), (tu, tv) = _pixel(head, "head"), _pixel(tail, "tail")
    m, _keep = _optional_mask(mask)
    out = LengthStruct()
    _length_keypoints(f, hu, hv, tu, tv, m, byref(o._to_c()), byref(out))
    return Length._from_c(out)


def length_mask(frame: DepthFrame, mask: Any, *, options: Optional[LengthOptions] = None, **overrides: Any) -> Length:
    """The straight length of the object under ``mask`` (any resolution).

    The mask's body is its largest connected region (pixels within one empty pixel of each other connect,
    so stray pixels and blobs further away are left out). A plane is fitted by RANSAC to the valid depth
    samples under the body (flying pixels and the background fall outside its threshold) and the body's
    pixels are laid on it along their RGB rays; the length is the extent of the outline along the body's
    principal axis there, each end half a mask pixel beyond the last inside pixel centre. The head is the
    end toward the image's left (or top); ``head`` and ``tail`` are on the axis line.
    :class:`fathom.NoDataError` for an empty mask or fewer than 3 valid samples under it."""
    f = _frame(frame)
    o = _options(options, None, overrides)
    m, _keep = mask_struct(mask)
    out = LengthStruct()
    _length_mask(f, byref(m), byref(o._to_c()), byref(out))
    return Length._from_c(out)


def length_midline(
    frame: DepthFrame, mask: Any, *, points: int = 64, options: Optional[LengthOptions] = None, **overrides: Any,
) -> Length:
    """The length along the midline of the object under ``mask``: for a bent fish, beside
    :func:`length_mask`'s straight snout-to-tail length (what FishSense and the fish app measure).

    The body is laid on its plane as in :func:`length_mask`, cut into slices across its axis, and the
    slices' centres are fitted with a polynomial of degree up to 4 (a C or an S bend; each end within about
    60 degrees of the axis), then sliced across that curve and refitted. Each end is where the curve leaves
    the body, or at a forked tail the level of the lobes' tips; the length is the arc length between the
    ends. ``points`` (>= 2) curve points are returned in ``Length.curve``.
    """
    f = _frame(frame)
    o = _options(options, None, overrides)
    count = uint32(points, "points", "")
    if count < 2:
        raise ValueError(f"points must be >= 2, got {count}")
    m, _keep = mask_struct(mask)
    out = LengthStruct()
    curve = np.empty((count, 3), dtype=np.float64)
    _length_midline(f, byref(m), byref(o._to_c()), byref(out), curve.ctypes.data_as(DoublePtr), count)
    return Length._from_c(out, curve)


def length_polyline(
    frame: DepthFrame, pixels: Any, mask: Optional[Any] = None, *,
    method: Optional[Union[str, KeypointDepth]] = None, options: Optional[LengthOptions] = None, **overrides: Any,
) -> Length:
    """The length along a traced centre line: ``pixels`` (N, 2) RGB (u, v), each given a depth as keypoints
    are (``method``; pixels without valid depth are skipped), a 3D line fitted, and the untrimmed extent of
    the projections. :class:`fathom.NoDataError` for fewer than 2 pixels with valid depth."""
    f = _frame(frame)
    o = _options(options, method, overrides)
    try:
        p = np.ascontiguousarray(pixels, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"pixels must be an array of numbers, got {type(pixels).__name__}: {exc}") from None
    if p.ndim != 2 or p.shape[1] != 2:
        raise ValueError(f"pixels must have shape (N, 2) as (u, v) rows, got shape {p.shape}")
    m, _keep = _optional_mask(mask)
    out = LengthStruct()
    _length_polyline(f, p.ctypes.data_as(FloatPtr), p.shape[0], m, byref(o._to_c()), byref(out))
    return Length._from_c(out)


def mask_endpoints(mask: Any) -> tuple[np.ndarray, np.ndarray, LineFit]:
    """Head and tail candidates from a mask alone: ``(end0, end1, axis)``.

    ``axis`` is the 2D total-least-squares line through the mask's pixel centres (i + 0.5, j + 0.5);
    ``end0`` and ``end1`` ((2,) float32, mask pixel coordinates) are the centres of the mask pixels with the
    smallest and the largest projection on it. Scale by ``rgb_width / mask_width`` to use them as keypoints.
    :class:`fathom.NoDataError` for an empty mask, :class:`fathom.DegenerateError` for a single pixel.
    """
    m, _keep = mask_struct(mask)
    end0 = np.empty(2, dtype=np.float32)
    end1 = np.empty(2, dtype=np.float32)
    axis = LineFitStruct()
    _mask_endpoints(byref(m), end0.ctypes.data_as(FloatPtr), end1.ctypes.data_as(FloatPtr), byref(axis))
    return end0, end1, LineFit._from_c(axis, 2)
