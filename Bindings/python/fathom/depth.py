"""Depth frames: back-projection of depth maps to points, and sampling the depth under an RGB pixel.

A :class:`DepthFrame` borrows a 2D numpy depth map (z-depth: distance from the camera plane, not along
the ray) and says how to read it: its storage (float32 meters, float16, or uint16 units times ``scale``),
an optional confidence map and threshold, the valid depth range, the intrinsics of the RGB image the
map belongs to (for example 1920x1440 for a 256x192 LiDAR map; they are scaled to the depth grid), and
optionally the camera pose. A sample is valid when its value in meters is finite, > 0, within
[``min_depth``, ``max_depth``] and its confidence (when given) is >= ``min_confidence``; invalid samples
never become points.

Plausibility check: a depth map is read in meters (stored value times ``scale``). When its largest finite depth
exceeds :data:`PLAUSIBLE_DEPTH` (50 m, beyond any phone's depth sensor), :class:`DepthFrame` warns with a
:class:`fathom.PlausibilityWarning` (most often a float map in millimetres: divide it by 1000, or pass
``scale=0.001``). The map is still used as given; ``warnings.simplefilter("ignore", fathom.PlausibilityWarning)``
silences the check for maps that really reach that far.

Depth sample (column i, row j) sits at the centre of its pixel, depth-grid coordinates (i + 0.5, j + 0.5);
its optical-frame point is ``((i + 0.5 - cx') / fx' * d, (j + 0.5 - cy') / fy' * d, d)`` with the
intrinsics scaled to the grid. Points come in one of three frames (:class:`fathom.PointFrame`): ``"optical"``
(x right, y down, z forward), ``"camera"`` (ARKit: x right, y up, looking along -z) or ``"world"`` (the
camera frame mapped by the pose; needs ``pose``, else :class:`fathom.InvalidStateError`).

Masks (a segmentation of the object) are any 2D bool or integer array, nonzero inside, of any resolution:
a depth sample is inside when the mask pixel under its centre is,
``mask[floor((j + 0.5) * mask_h / h), floor((i + 0.5) * mask_w / w)]``.

:meth:`DepthFrame.sample` and :meth:`DepthFrame.point` take an RGB pixel as two numbers, or many pixels as
arrays u and v of one shape (numpy style). The C API samples one pixel per call, so arrays are looped over in
Python, one library call per pixel; a pixel without a valid sample gives NaN there instead of raising.
"""

from __future__ import annotations

import functools
import math
import warnings
from ctypes import POINTER, byref, c_float, c_size_t, c_uint8, c_uint32, c_void_p
from enum import IntEnum
from typing import Any, Optional, Sequence, Union

import numpy as np

from ._arrays import as_mask, at_index, mask_struct, pixel_arrays, pose_column_major
from ._lib import (
    DepthFramePtr,
    DepthFrameStruct,
    DepthSelectionPtr,
    DepthSelectionStruct,
    FloatPtr,
    IntrinsicsPtr,
    MaskStruct,
    Vec3,
    status_function,
)
from ._scalars import enum_member, real, uint32
from ._sized import sized
from .camera import Intrinsics, PointFrame, intrinsics_struct
from .errors import FathomError, NoDataError, PlausibilityWarning
from .geometry import Pose, PoseLike
from .length import Length, LengthOptions, length_keypoints, length_mask, length_midline, length_polyline

__all__ = ["PLAUSIBLE_DEPTH", "DepthFormat", "DepthFrame", "Sampling", "as_mask"]

#: Meters: a depth map whose largest finite depth (stored value times scale) exceeds this makes :class:`DepthFrame`
#: warn with :class:`fathom.PlausibilityWarning` (phone depth sensors reach about 5 m; millimetres read as meters
#: give thousands).
PLAUSIBLE_DEPTH = 50.0


class DepthFormat(IntEnum):
    """Storage of depth values (``fathom_depth_format``)."""

    FLOAT32 = 0  # float, meters * 1/scale (ARKit's depthMap: scale 1)
    FLOAT16 = 1  # IEEE half precision
    UINT16 = 2  # unsigned 16-bit units (PNG depth: scale 0.001 for millimetres)


class Sampling(IntEnum):
    """How to read the depth under an RGB pixel (``fathom_depth_sampling``)."""

    NEAREST = 0  # the sample whose pixel contains the point
    BILINEAR = 1  # bilinear between the four nearest sample centres; invalid ones dropped, rest renormalized
    MEDIAN = 2  # median of the valid samples of a window x window block around the nearest sample


_DTYPES = {
    np.dtype(np.float32): DepthFormat.FLOAT32,
    np.dtype(np.float16): DepthFormat.FLOAT16,
    np.dtype(np.uint16): DepthFormat.UINT16,
}

_depth_frame_init = status_function(
    "fathom_depth_frame_init", DepthFramePtr, c_void_p, c_uint32, c_uint32, c_uint32, IntrinsicsPtr
)
_depth_count = status_function("fathom_depth_count", DepthFramePtr, DepthSelectionPtr, POINTER(c_size_t))
_depth_backproject = status_function(
    "fathom_depth_backproject", DepthFramePtr, DepthSelectionPtr, c_uint32, FloatPtr, POINTER(c_uint32), FloatPtr,
    c_size_t, POINTER(c_size_t),
)
_depth_sample = status_function("fathom_depth_sample", DepthFramePtr, c_float, c_float, c_uint32, c_uint32, POINTER(c_float))
_depth_point = status_function(
    "fathom_depth_point", DepthFramePtr, c_float, c_float, c_uint32, c_uint32, c_uint32, POINTER(Vec3)
)


def _depth_array(depth: Any) -> np.ndarray:
    """The depth map as a float32/float16/uint16 array the library can read in place (converted once if not)."""
    a = depth if isinstance(depth, np.ndarray) else np.asarray(depth)
    if a.ndim != 2:
        raise ValueError(f"depth must be a 2D array (height, width), got shape {a.shape}")
    if a.dtype not in _DTYPES:
        if a.dtype.kind == "f":
            a = a.astype(np.float32)  # float64 (or a non-native byte order): one explicit conversion
        elif a.dtype.kind in "ui" and a.dtype.newbyteorder("=") == np.dtype(np.uint16):
            a = a.astype(np.uint16)  # uint16 of the other byte order
        else:
            raise TypeError(f"depth must be float32, float16 or uint16 (or another float, converted), got dtype {a.dtype}")
    item = a.itemsize
    h, w = a.shape
    row, col = a.strides
    in_place = (
        (w <= 1 or col == item)
        and (h <= 1 or (row > 0 and row % item == 0 and row >= w * item))
        and a.ctypes.data % item == 0
    )
    return a if in_place else np.ascontiguousarray(a)


def _largest_finite(a: np.ndarray) -> float:
    """The largest finite value of a depth array (-inf when it has none): one pass, a second one only when the
    array holds NaN or infinities."""
    if a.size == 0:
        return -math.inf
    top = float(a.max())
    if math.isfinite(top):
        return top
    return float(a.max(where=np.isfinite(a), initial=-np.inf))


def _check_plausible(a: np.ndarray, scale: float) -> None:
    """Warns (:class:`PlausibilityWarning`) when the largest finite depth, in meters, exceeds PLAUSIBLE_DEPTH. A
    scale that is not finite and positive is left to the library, which refuses it at the first query."""
    if not (0.0 < scale < math.inf):
        return
    top = _largest_finite(a)
    meters = top * scale
    if meters > PLAUSIBLE_DEPTH:
        stored = f"{top:g} (x scale {scale:g}) = " if scale != 1.0 else ""
        warnings.warn(
            f"DepthFrame: the largest depth is {stored}{meters:g} m, more than {PLAUSIBLE_DEPTH:g} m: depth is read in "
            f"meters (stored value x scale). A map in millimetres needs scale=0.001 (or dividing by 1000); "
            f"warnings.simplefilter('ignore', fathom.PlausibilityWarning) silences this check",
            PlausibilityWarning,
            stacklevel=3,
        )


def _confidence_array(confidence: Any, shape: tuple[int, int]) -> np.ndarray:
    a = confidence if isinstance(confidence, np.ndarray) else np.asarray(confidence)
    if a.shape != shape:
        raise ValueError(f"confidence must have the depth map's shape {shape}, got shape {a.shape}")
    if a.dtype != np.uint8:
        if a.dtype.kind not in "ui" and a.dtype != np.bool_:
            raise TypeError(f"confidence must be an integer array (uint8: 0 low, 1 medium, 2 high), got dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() > 255):
            raise ValueError("confidence values must be in 0..255")
        a = a.astype(np.uint8)
    h, w = a.shape
    row, col = a.strides
    if not ((w <= 1 or col == 1) and (h <= 1 or (row > 0 and row >= w))):
        a = np.ascontiguousarray(a)
    return a


def _point_arrays(n: int, pixels: bool, normals: bool) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Room for ``n`` back-projected points (and their pixels and normals when asked for), and the arguments
    passing it to ``fathom_depth_backproject``."""
    points = np.empty((n, 3), dtype=np.float32)
    pix = np.empty((n, 2), dtype=np.uint32) if pixels else None
    nrm = np.empty((n, 3), dtype=np.float32) if normals else None
    return (points, pix, nrm), (
        points.ctypes.data_as(FloatPtr),
        None if pix is None else pix.ctypes.data_as(POINTER(c_uint32)),
        None if nrm is None else nrm.ctypes.data_as(FloatPtr),
        n,
    )


class DepthFrame:
    """A borrowed depth map with the intrinsics of its RGB image, and the rules that make a sample valid.

    Args:
        depth: (height, width) array: float32 meters (ARKit), float16, or uint16 units (PNG depth, with
            ``scale`` 0.001 for millimetres by default). Read in place, without a copy, when its columns
            are packed and its rows evenly spaced by a multiple of the item size (a crop of a larger map
            is fine); otherwise copied once. Other float dtypes are converted once to float32. The frame
            keeps a reference to it: changes to the array show in later queries.
        intrinsics: the RGB image's :class:`fathom.Intrinsics` (scaled to the depth grid by the library).
        confidence: optional (height, width) uint8 map (ARKit: 0 low, 1 medium, 2 high).
        min_confidence: samples with confidence below this are invalid (0 keeps all).
        min_depth, max_depth: the valid range, meters (``max_depth`` may be ``math.inf``).
        scale: meters per stored unit; None for the library's default (1, or 0.001 for uint16).
        pose: the camera-to-world :class:`fathom.Pose` (or a (4, 4) matrix, which must be rigid:
            :class:`fathom.NotRigidError` otherwise), needed for world-frame points.

    The arguments' values (a zero focal length, a negative scale, an empty map) are checked by the
    library at the first query, which raises the matching :class:`fathom.FathomError`. A map whose largest
    finite depth (value times ``scale``) exceeds :data:`PLAUSIBLE_DEPTH` (50 m) is used as given but warned
    about with :class:`fathom.PlausibilityWarning` (millimetres passed as meters), once, at construction.
    """

    __slots__ = ("_c", "_depth", "_confidence", "_intrinsics", "_pose")

    def __init__(
        self,
        depth: Any,
        intrinsics: Intrinsics,
        confidence: Optional[Any] = None,
        min_confidence: int = 0,
        min_depth: float = 0.0,
        max_depth: float = math.inf,
        scale: Optional[float] = None,
        pose: Optional[PoseLike] = None,
    ) -> None:
        k = intrinsics_struct(intrinsics)
        d = _depth_array(depth)
        h, w = d.shape
        c = DepthFrameStruct()
        _depth_frame_init(
            byref(c), d.ctypes.data_as(c_void_p), int(_DTYPES[d.dtype]), uint32(w, "depth width", "samples"),
            uint32(h, "depth height", "samples"), byref(k),
        )
        c.row_stride = d.strides[0] if h > 1 else 0
        if scale is not None:
            c.scale = real(scale, "scale")
        _check_plausible(d, float(c.scale))
        conf = None
        if confidence is not None:
            conf = _confidence_array(confidence, (h, w))
            c.confidence = conf.ctypes.data_as(POINTER(c_uint8))
            c.confidence_stride = conf.strides[0] if h > 1 else 0
        if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, np.integer)):
            raise TypeError(f"min_confidence must be an int, got {type(min_confidence).__name__}")
        if not 0 <= int(min_confidence) <= 255:
            raise ValueError(f"min_confidence must be in 0..255, got {min_confidence}")
        c.min_confidence = int(min_confidence)
        c.min_depth = real(min_depth, "min_depth")
        c.max_depth = real(max_depth, "max_depth")
        if pose is not None:
            if not isinstance(pose, Pose):  # a matrix: checked rigid now, so that the pose property is a Pose
                pose = Pose.from_column_major(pose_column_major(pose, "pose"))
            c.camera_to_world = pose._c
            c.has_pose = True
        self._c = c
        self._depth = d
        self._confidence = conf
        self._intrinsics = intrinsics
        self._pose = pose

    # -- ctypes ---------------------------------------------------------------------------------

    @property
    def _as_parameter_(self) -> Any:
        """Lets a DepthFrame be passed where the C API takes ``const fathom_depth_frame *``."""
        return byref(self._c)

    # -- properties -----------------------------------------------------------------------------

    @property
    def depth(self) -> np.ndarray:
        """The depth array the frame reads (the caller's array, or its one-time copy)."""
        return self._depth

    @property
    def confidence(self) -> Optional[np.ndarray]:
        """The confidence array, or None."""
        return self._confidence

    @property
    def format(self) -> DepthFormat:
        """How the depth values are stored."""
        return DepthFormat(self._c.format)

    @property
    def width(self) -> int:
        """Depth grid width, samples."""
        return int(self._c.width)

    @property
    def height(self) -> int:
        """Depth grid height, samples."""
        return int(self._c.height)

    @property
    def shape(self) -> tuple[int, int]:
        """(height, width) of the depth grid."""
        return self.height, self.width

    @property
    def scale(self) -> float:
        """Meters per stored unit."""
        return float(self._c.scale)

    @property
    def min_confidence(self) -> int:
        return int(self._c.min_confidence)

    @property
    def min_depth(self) -> float:
        return float(self._c.min_depth)

    @property
    def max_depth(self) -> float:
        return float(self._c.max_depth)

    @property
    def intrinsics(self) -> Intrinsics:
        """The RGB image's intrinsics."""
        return self._intrinsics

    @property
    def grid_intrinsics(self) -> Intrinsics:
        """The intrinsics scaled to the depth grid (fx' = fx * width / rgb width, ...)."""
        return self._intrinsics.scaled(self.width, self.height)

    @property
    def pose(self) -> Optional[Pose]:
        """The camera-to-world pose, or None."""
        return self._pose

    def __repr__(self) -> str:
        k = self._intrinsics
        return (
            f"DepthFrame({self.width}x{self.height} {self.format.name.lower()}, scale={self.scale:g}, "
            f"range=[{self.min_depth:g}, {self.max_depth:g}] m, min_confidence={self.min_confidence}, "
            f"rgb {k.width}x{k.height}, pose={'yes' if self._pose is not None else 'no'})"
        )

    # -- selection ------------------------------------------------------------------------------

    def _selection(self, region: Optional[Sequence[int]], step: int, mask: Optional[Any]) -> tuple[Any, Any]:
        """A ``fathom_depth_selection *`` (None: every sample) and what it points into."""
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise TypeError(f"step must be an int (samples), got {type(step).__name__}")
        if region is None and int(step) == 1 and mask is None:
            return None, None
        if region is None:
            x0, y0, x1, y1 = 0, 0, 0, 0
        else:
            r = tuple(region)
            if len(r) != 4:
                raise ValueError(f"region must be (x0, y0, x1, y1), got {region!r}")
            names = ("region x0", "region y0", "region x1", "region y1")
            x0, y0, x1, y1 = (uint32(v, n, "samples") for v, n in zip(r, names))
        sel = DepthSelectionStruct(x0, y0, x1, y1, uint32(step, "step", "samples"), None)
        keep: Any = None
        if mask is not None:
            m, array = mask_struct(mask)
            sel.mask = POINTER(MaskStruct)(m)
            keep = (m, array)
        return byref(sel), (sel, keep)

    def count(self, region: Optional[Sequence[int]] = None, step: int = 1, mask: Optional[Any] = None) -> int:
        """The number of valid samples selected (the number of points :meth:`backproject` returns).

        ``region`` is ``(x0, y0, x1, y1)``, the depth-grid rectangle [x0, x1) x [y0, y1) (None: the whole
        grid); every ``step``-th column and row from (x0, y0); ``mask`` (any resolution) keeps the samples
        under its nonzero pixels.
        """
        sel, _keep = self._selection(region, step, mask)
        out = c_size_t()
        _depth_count(self, sel, byref(out))
        return int(out.value)

    def backproject(
        self,
        frame: Union[str, PointFrame] = "camera",
        *,
        region: Optional[Sequence[int]] = None,
        step: int = 1,
        mask: Optional[Any] = None,
        pixels: bool = False,
        normals: bool = False,
    ) -> Union[np.ndarray, tuple[np.ndarray, ...]]:
        """Back-projects every valid selected sample, row by row: an (N, 3) float32 point array.

        With ``pixels=True`` also an (N, 2) uint32 array of each point's depth-grid (column, row); with
        ``normals=True`` an (N, 3) float32 array of unit surface normals in the same frame, facing the
        camera, from central differences of the neighbouring samples' points ((0, 0, 0) where an axis
        has no valid neighbour). Returns ``points``, or a tuple ``(points, pixels[, normals])`` /
        ``(points, normals)`` in that order. Selection as for :meth:`count`.
        """
        target = int(enum_member(frame, PointFrame, "frame"))
        sel, _keep = self._selection(region, step, mask)
        allocate = functools.partial(_point_arrays, pixels=pixels, normals=normals)
        (points, pix, nrm), _ = sized(_depth_backproject, (self, sel, target), allocate)
        extra = tuple(a for a in (pix, nrm) if a is not None)
        return (points, *extra) if extra else points

    # -- sampling -------------------------------------------------------------------------------

    def sample(self, u: Any, v: Any, method: Union[str, Sampling] = "nearest", window: int = 5) -> Any:
        """The depth (meters) at RGB pixel (u, v), continuous coordinates inside the RGB image.

        ``method``: ``"nearest"`` (the sample whose pixel contains the point), ``"bilinear"`` (between the
        four nearest sample centres; invalid ones dropped) or ``"median"`` (of the valid samples in a
        ``window`` x ``window`` block, ``window`` odd). Raises :class:`fathom.OutOfRangeError` outside the
        image and :class:`fathom.NoDataError` when no valid sample is there.

        ``u`` and ``v`` may be arrays of one shape S (or shapes that broadcast to S): the result is then an S
        float32 array of depths, NaN where no valid sample is (a pixel outside the image or a NaN coordinate
        still raises, naming its index).
        """
        m = int(enum_member(method, Sampling, "method"))
        w = uint32(window, "window", "samples")
        arrays = pixel_arrays(u, v)
        if arrays is None:
            out = c_float()
            _depth_sample(self, real(u, "u"), real(v, "v"), m, w, byref(out))
            return float(out.value)
        us, vs = arrays
        depths = np.full(us.shape, np.nan, dtype=np.float32)
        flat = depths.reshape(-1)
        out = c_float()
        for i, (x, y) in enumerate(zip(us.ravel().tolist(), vs.ravel().tolist())):
            try:
                _depth_sample(self, x, y, m, w, byref(out))
            except NoDataError:
                continue  # stays NaN
            except FathomError as error:
                raise at_index(error, i, us.shape, f"u={x!r}, v={y!r}") from None
            flat[i] = out.value
        return depths

    def point(
        self, u: Any, v: Any, method: Union[str, Sampling] = "nearest", window: int = 5,
        frame: Union[str, PointFrame] = "camera",
    ) -> np.ndarray:
        """The 3D point of RGB pixel (u, v) at its sampled depth d (:meth:`sample`), back-projected with
        the RGB intrinsics: optical ``((u - cx) / fx * d, (v - cy) / fy * d, d)``, in ``frame``. (3,) float32.

        ``u`` and ``v`` may be arrays of one shape S (or shapes that broadcast to S): the result is then an
        S + (3,) float32 array, NaN rows where no valid sample is (other errors raise, naming the index).
        """
        m = int(enum_member(method, Sampling, "method"))
        target = int(enum_member(frame, PointFrame, "frame"))
        w = uint32(window, "window", "samples")
        arrays = pixel_arrays(u, v)
        out = Vec3()
        if arrays is None:
            _depth_point(self, real(u, "u"), real(v, "v"), m, w, target, byref(out))
            return np.array((out.x, out.y, out.z), dtype=np.float32)
        us, vs = arrays
        points = np.full(us.shape + (3,), np.nan, dtype=np.float32)
        flat = points.reshape(-1, 3)
        for i, (x, y) in enumerate(zip(us.ravel().tolist(), vs.ravel().tolist())):
            try:
                _depth_point(self, x, y, m, w, target, byref(out))
            except NoDataError:
                continue  # stays NaN
            except FathomError as error:
                raise at_index(error, i, us.shape, f"u={x!r}, v={y!r}") from None
            flat[i] = (out.x, out.y, out.z)
        return points

    # -- lengths (fathom.length) ----------------------------------------------------------------

    def length_keypoints(
        self, head: Sequence[float], tail: Sequence[float], mask: Optional[Any] = None,
        method: Optional[str] = None, options: Optional[LengthOptions] = None, **overrides: Any,
    ) -> Length:
        """The length between two RGB keypoints; see :func:`fathom.length_keypoints`."""
        return length_keypoints(self, head, tail, mask, method=method, options=options, **overrides)

    def length_mask(self, mask: Any, options: Optional[LengthOptions] = None, **overrides: Any) -> Length:
        """The length of the object under a mask; see :func:`fathom.length_mask`."""
        return length_mask(self, mask, options=options, **overrides)

    def length_midline(self, mask: Any, *, points: int = 64, options: Optional[LengthOptions] = None,
                       **overrides: Any) -> Length:
        """The length along the midline of the object under a mask; see :func:`fathom.length_midline`."""
        return length_midline(self, mask, points=points, options=options, **overrides)

    def length_polyline(
        self, pixels: Any, mask: Optional[Any] = None, method: Optional[str] = None,
        options: Optional[LengthOptions] = None, **overrides: Any,
    ) -> Length:
        """The length along a traced centre line; see :func:`fathom.length_polyline`."""
        return length_polyline(self, pixels, mask, method=method, options=options, **overrides)
