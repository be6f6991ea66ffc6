"""Camera and object poses for the binding's tests to pass in: rotations about the coordinate axes, rigid 4x4
matrices (rows as rows) and a camera looking at a point. Test input only: the library's own rotation math is
checked by the core tests (QuaternionTests.swift, PoseTests.swift)."""

from __future__ import annotations

import math

import numpy as np


def rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(a: float) -> np.ndarray:
    """R_y(a) of reference/box.md: +z turns toward +x."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rigid(R, t) -> np.ndarray:
    """The 4x4 camera-to-world (or object-to-world) matrix [R t; 0 1]."""
    m = np.eye(4)
    m[:3, :3] = R
    m[:3, 3] = t
    return m


def look_at(eye, target, up=(0.0, 1.0, 0.0)) -> np.ndarray:
    """A camera-to-world 4x4 at ``eye`` whose optical axis (ARKit's -z) points at ``target``, x level with ``up``."""
    eye, target, up = (np.asarray(v, np.float64) for v in (eye, target, up))
    z = eye - target
    z /= np.linalg.norm(z)
    x = np.cross(up, z)
    x /= np.linalg.norm(x)
    return rigid(np.column_stack([x, np.cross(z, x), z]), eye)
