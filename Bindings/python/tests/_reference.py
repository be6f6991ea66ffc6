"""Independent numpy implementations of the geometry the tests check the library against.

Everything here follows the formulas in include/fathom.h and reference/*.md directly; none of it
calls the library.
"""

from __future__ import annotations

import numpy as np

#: Local corner signs in FATHOM_CORNER_* order (box.md table).
CORNER_SIGNS = np.array(
    [
        (-1, +1, -1),  # top_left_front
        (+1, +1, -1),  # top_right_front
        (+1, -1, -1),  # bot_right_front
        (-1, -1, -1),  # bot_left_front
        (-1, +1, +1),  # top_left_back
        (+1, +1, +1),  # top_right_back
        (+1, -1, +1),  # bot_right_back
        (-1, -1, +1),  # bot_left_back
    ],
    dtype=np.float64,
)
CORNER_NAMES = (
    "top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
    "top_left_back", "top_right_back", "bot_right_back", "bot_left_back",
)
TLF, TRF, BRF, BLF, TLB, TRB, BRB, BLB = range(8)
#: Corner triples (A, B, C) of each face in FATHOM_FACE_* order (box.md).
FACE_TRIPLES = [
    (BRF, BLF, TRF),  # front
    (BLF, BLB, TLB),  # left
    (BRB, BRF, TRF),  # right
    (BLF, BRF, BLB),  # bottom
    (TRF, TLF, TRB),  # top
    (BLB, BRB, TLB),  # back
]
#: Corners of each face (those whose local sign matches the face's axis).
FACE_AXES = [(2, -1), (0, -1), (0, +1), (1, -1), (1, +1), (2, +1)]  # (axis, sign)


def rot_y(a: float) -> np.ndarray:
    """R_y(a) from box.md, acting on column vectors."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def box_corners(center, scale, angle, floor=None) -> np.ndarray:
    """center + R_y(angle) * (±sx/2, ±sy/2, ±sz/2), bottom corners raised to the floor."""
    local = CORNER_SIGNS * (np.asarray(scale, np.float64) / 2.0)
    corners = np.asarray(center, np.float64) + local @ rot_y(angle).T
    if floor is not None:
        bottom = CORNER_SIGNS[:, 1] < 0
        corners[bottom, 1] = np.maximum(corners[bottom, 1], floor)
    return corners


def quat_to_matrix(q) -> np.ndarray:
    """The rotation matrix of a quaternion (x, y, z, w) (normalized first)."""
    x, y, z, w = np.asarray(q, np.float64) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def axis_angle_matrix(axis, angle) -> np.ndarray:
    """Rodrigues' formula: rotation by angle about axis (right-hand rule)."""
    k = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * (K @ K)


def hamilton(a, b) -> np.ndarray:
    """Hamilton product a * b of quaternions stored (x, y, z, w)."""
    ax, ay, az, aw = np.asarray(a, np.float64)
    bx, by, bz, bw = np.asarray(b, np.float64)
    return np.array(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ]
    )


def same_rotation(q1, q2, atol=1e-5) -> bool:
    """q and -q are the same rotation."""
    q1, q2 = np.asarray(q1, np.float64), np.asarray(q2, np.float64)
    return bool(np.allclose(q1, q2, atol=atol) or np.allclose(q1, -q2, atol=atol))


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random rotation matrix (QR of a Gaussian matrix, sign-fixed, det +1)."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


def rigid(R, t) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = R
    m[:3, 3] = t
    return m


def local_coords(points, center, R) -> np.ndarray:
    """Points in a box's local frame: R^T (p - c)."""
    return (np.asarray(points, np.float64) - center) @ np.asarray(R, np.float64)


def obb_signed_distance(points, center, scale, R) -> np.ndarray:
    """Signed Euclidean distance to an oriented box's surface (negative inside)."""
    d = np.abs(local_coords(points, center, R)) - np.asarray(scale, np.float64) / 2.0
    outside = np.linalg.norm(np.maximum(d, 0.0), axis=1)
    inside = np.minimum(d.max(axis=1), 0.0)
    return outside + inside
