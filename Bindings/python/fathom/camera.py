"""Pinhole camera intrinsics."""

from __future__ import annotations

from ctypes import POINTER, byref, c_uint32
from dataclasses import dataclass

import numpy as np

from ._lib import IntrinsicsStruct, status_function

__all__ = ["Intrinsics"]

_IntrinsicsPtr = POINTER(IntrinsicsStruct)
_intrinsics_scale = status_function("fathom_intrinsics_scale", _IntrinsicsPtr, c_uint32, c_uint32, _IntrinsicsPtr)

_UINT32_MAX = 2**32 - 1


def _size(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int (pixels), got {type(value).__name__}")
    if not 0 <= int(value) <= _UINT32_MAX:
        raise ValueError(f"{name} must be in 0..{_UINT32_MAX} pixels, got {value}")
    return int(value)


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole intrinsics in pixels of an image of ``width`` x ``height`` pixels.

    Pixel (0, 0) is the top-left corner of the top-left pixel; u grows right, v down.

    Attributes:
        fx, fy: focal lengths, pixels (> 0).
        cx, cy: principal point from the image's top-left corner, pixels.
        width, height: the image size these are for, pixels (>= 1).
    """

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    def _to_c(self) -> IntrinsicsStruct:
        return IntrinsicsStruct(
            float(self.fx), float(self.fy), float(self.cx), float(self.cy),
            _size(self.width, "width"), _size(self.height, "height"),
        )

    @classmethod
    def _from_c(cls, c: IntrinsicsStruct) -> "Intrinsics":
        return cls(float(c.fx), float(c.fy), float(c.cx), float(c.cy), int(c.width), int(c.height))

    def scaled(self, width: int, height: int) -> "Intrinsics":
        """The same sensor at another resolution: fx' = fx * width/self.width, cx' likewise; fy, cy by height.

        E.g. from the 1920x1440 RGB image to the 256x192 depth map. Raises
        :class:`fathom.OutOfRangeError` for a zero size or a focal length <= 0.
        """
        out = IntrinsicsStruct()
        _intrinsics_scale(byref(self._to_c()), _size(width, "width"), _size(height, "height"), byref(out))
        return Intrinsics._from_c(out)

    @property
    def matrix(self) -> np.ndarray:
        """The 3x3 camera matrix K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (float32)."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]], dtype=np.float32)
