"""Plotting helpers (optional: ``pip install "fathom[plot]"`` for matplotlib).

A picture of a box with the points around it answers "is the box where the object is?" faster
than numbers do. The helpers draw on a matplotlib 3D axes and return it, so they compose with
the rest of a notebook's plotting.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from ._arrays import ArrayLike, point_buffer
from .box import Box
from .obb import OrientedBox

__all__ = ["BOX_EDGES", "plot_box", "plot_points"]

#: The 12 edges of a box as pairs of corner indices (FATHOM_CORNER_* order).
BOX_EDGES: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 2), (2, 3), (3, 0),  # front face
    (4, 5), (5, 6), (6, 7), (7, 4),  # back face
    (0, 4), (1, 5), (2, 6), (3, 7),  # front to back
)


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            'fathom.plot needs matplotlib: pip install "fathom[plot]" (or pip install matplotlib)'
        ) from exc
    return plt


def _axes(ax: Optional[Any]) -> Any:
    if ax is not None:
        if getattr(ax, "name", None) != "3d":
            raise ValueError("ax must be a 3D axes (fig.add_subplot(projection='3d'))")
        return ax
    fig = _pyplot().figure()
    return fig.add_subplot(projection="3d")


def _yup(xyz: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World (x, y up, z) to matplotlib's (x, depth, up): plot x, -z, y so +y is drawn up, right-handed."""
    return xyz[..., 0], -xyz[..., 2], xyz[..., 1]


def plot_box(
    box: Union[Box, OrientedBox],
    ax: Optional[Any] = None,
    *,
    color: str = "tab:orange",
    label_front: bool = True,
    **line_kwargs: Any,
) -> Any:
    """Draws the 12 edges of a :class:`Box` or :class:`OrientedBox` (the front face thicker).

    World +y is drawn up. Returns the 3D axes (a new figure's when ``ax`` is None).
    """
    if not isinstance(box, (Box, OrientedBox)):
        raise TypeError(f"box must be a fathom.Box or fathom.OrientedBox, got {type(box).__name__}")
    ax = _axes(ax)
    corners = box.corners.astype(np.float64)
    segments = corners[np.array(BOX_EDGES)]  # (12, 2, 3)
    x, y, z = _yup(segments)
    width = line_kwargs.pop("linewidth", 1.2)
    for i in range(len(BOX_EDGES)):  # 12 edges: one matplotlib line each
        ax.plot(x[i], y[i], z[i], color=color, linewidth=width * (2.0 if label_front and i < 4 else 1.0), **line_kwargs)
    return ax


def plot_points(
    points: ArrayLike,
    ax: Optional[Any] = None,
    *,
    inside: Optional[Union[Box, OrientedBox]] = None,
    max_points: int = 20000,
    size: float = 1.0,
    seed: int = 0,
) -> Any:
    """Scatters points (N, 3) (a random subset of at most ``max_points``), coloured by whether they
    are inside ``inside`` when given. World +y is drawn up. Returns the 3D axes."""
    buf = point_buffer(points, "points")
    pts = np.asarray(buf.array[:, :3], dtype=np.float64)
    ax = _axes(ax)
    if len(pts) > max_points:
        pick = np.random.default_rng(seed).choice(len(pts), size=max_points, replace=False)
        pick.sort()
    else:
        pick = np.arange(len(pts))
    shown = pts[pick]
    x, y, z = _yup(shown)
    if inside is None:
        ax.scatter(x, y, z, s=size, color="tab:blue")
    else:
        obb = inside.to_obb() if isinstance(inside, Box) else inside
        mask = obb.contains(buf.array)[pick]
        ax.scatter(x[~mask], y[~mask], z[~mask], s=size, color="lightgray", label="outside")
        ax.scatter(x[mask], y[mask], z[mask], s=size, color="tab:blue", label="inside")
    ax.set_xlabel("x")
    ax.set_ylabel("-z")
    ax.set_zlabel("y (up)")
    return ax
