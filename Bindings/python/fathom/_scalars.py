"""Checks and conversions of single-value arguments shared by the modules: real numbers, unsigned 32-bit
ints, enum members and file paths.

Each function takes the value and the argument's name, and returns what the ctypes call wants (a float, an
int, an enum member, bytes), or raises TypeError (not a number, a bool, a float where an int is needed) or
ValueError (outside the C type's range, an unknown enum name, a NUL in a path) naming the argument. Whether a
value makes sense (NaN, a negative size) is the library's to judge. Arrays are :mod:`fathom._arrays`' job.
"""

from __future__ import annotations

import os
from enum import IntEnum
from typing import Any, TypeVar, Union

import numpy as np

__all__ = ["UINT32_MAX", "PathLike", "enum_member", "path_bytes", "real", "uint32"]

#: The largest ``uint32_t``.
UINT32_MAX = 2**32 - 1

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

_E = TypeVar("_E", bound=IntEnum)


def real(value: Any, name: str) -> float:
    """A Python float from a real number (int, float, a numpy scalar or 0-d array of either; not a bool)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    return float(value)


def uint32(value: Any, name: str, unit: str = "pixels") -> int:
    """An int in 0..2**32 - 1 from an int (or a numpy integer; not a bool). ``unit`` names what it counts, for the
    messages ("" for none)."""
    in_unit = f" ({unit})" if unit else ""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int{in_unit}, got {type(value).__name__}")
    if not 0 <= int(value) <= UINT32_MAX:
        raise ValueError(f"{name} must be in 0..{UINT32_MAX}{' ' + unit if unit else ''}, got {value}")
    return int(value)


def enum_member(value: Any, cls: type[_E], name: str) -> _E:
    """A member of ``cls`` from a member, its int value or its name (any case)."""
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            names = ", ".join(repr(m.name.lower()) for m in cls)
            raise ValueError(f"{name} must be one of {names}, got {value!r}") from None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        try:
            return cls(int(value))
        except ValueError:
            raise ValueError(f"{name} must be a {cls.__name__} value, got {value}") from None
    raise TypeError(f"{name} must be a {cls.__name__} or its name, got {type(value).__name__}")


def path_bytes(path: Any, name: str = "path") -> bytes:
    """A file path (str, bytes or os.PathLike) as the bytes the library opens (``os.fsencode``)."""
    try:
        raw = os.fsencode(path)
    except TypeError:
        raise TypeError(f"{name} must be a str, bytes or os.PathLike, got {type(path).__name__}") from None
    if b"\0" in raw:
        raise ValueError(f"{name} must not contain a NUL character: {path!r}")
    return raw
