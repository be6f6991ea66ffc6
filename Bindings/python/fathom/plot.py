"""Plotting helpers (optional: ``pip install "fathom-geometry[plot]"`` for matplotlib).

A picture of a box with the points around it answers "is the box where the object is?" faster
than numbers do, a picture of a mesh with the rays cast at it answers "what did the tap hit?", a
depth map with the fish's mask, keypoints and measured segment answers "what was measured?", and the
box's faces in the capture app's colours, the view-direction heat map and the speed over time with its
guidance bands answer "what is left to capture, and how fast may I walk?".
The helpers draw on a matplotlib axes (3D for scenes, 2D for images, bins and time series) and return it, so
they compose with the rest of a notebook's plotting. World +y is drawn up. Every helper frames all it draws (the
3D ones in a cube around everything on the axes), names its axes with their units, draws distinct meanings in
distinct colours and names them in a legend (or, for a box's faces, in text on the face).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

from ._arrays import ArrayLike, point_buffer
from .box import Box
from .coverage import Coverage
from .depth import DepthFrame, as_mask
from .fits import LineFit
from .length import Length
from .mesh import Mesh
from .motion import INCH, MOTION_STATE_DTYPE, Guidance, MotionOptions
from .obb import OrientedBox
from .raycast import HIT_DTYPE, NO_HIT, MeshClass, _ray_array

__all__ = [
    "AXIS_LABELS_3D",
    "BOX_EDGES",
    "CLASS_COLORS",
    "FACE_CORNERS",
    "GUIDANCE_COLORS",
    "THRESHOLD_COLORS",
    "plot_box",
    "plot_coverage",
    "plot_depth",
    "plot_hits",
    "plot_length_points",
    "plot_mesh",
    "plot_points",
    "plot_rays",
    "plot_report",
    "plot_report_coverage",
    "plot_speed",
    "plot_view_bins",
    "save_report_plots",
]

#: Face colours by :class:`fathom.MeshClass` value (NONE, WALL, FLOOR, CEILING, TABLE, SEAT, WINDOW, DOOR).
CLASS_COLORS: tuple[str, ...] = (
    "lightgray", "tan", "sienna", "lightsteelblue", "olivedrab", "orchid", "lightskyblue", "darkkhaki",
)

#: The 12 edges of a box as pairs of corner indices (FATHOM_CORNER_* order).
BOX_EDGES: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 2), (2, 3), (3, 0),  # front face
    (4, 5), (5, 6), (6, 7), (7, 4),  # back face
    (0, 4), (1, 5), (2, 6), (3, 7),  # front to back
)

#: The 4 corners of each face in :class:`fathom.Face` order (FATHOM_CORNER_* indices, going around the face).
FACE_CORNERS: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),  # front (local -z)
    (0, 3, 7, 4),  # left (local -x)
    (1, 5, 6, 2),  # right (local +x)
    (3, 2, 6, 7),  # bottom (local -y)
    (0, 4, 5, 1),  # top (local +y)
    (4, 5, 6, 7),  # back (local +z)
)

#: Band colours of :func:`plot_speed` by :class:`fathom.Guidance`, one per band: cool below the ok band, warm above.
GUIDANCE_COLORS: dict[Guidance, str] = {
    Guidance.TOO_SLOW: "tab:purple",
    Guidance.SLIGHTLY_SLOW: "tab:cyan",
    Guidance.OK: "tab:green",
    Guidance.SLIGHTLY_FAST: "tab:orange",
    Guidance.TOO_FAST: "tab:red",
}

#: Line colours of :func:`plot_speed`'s slow and fast thresholds (darker than the bands they bound).
THRESHOLD_COLORS: dict[str, str] = {"slow": "indigo", "fast": "darkred"}

#: Axis labels of the 3D helpers: world x, -z and y (drawn up), meters.
AXIS_LABELS_3D: tuple[str, str, str] = ("x (m)", "-z (m)", "y, up (m)")


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            'fathom.plot needs matplotlib: pip install "fathom-geometry[plot]" (or pip install matplotlib)'
        ) from exc
    return plt


def _axes(ax: Optional[Any]) -> Any:
    if ax is not None:
        if getattr(ax, "name", None) != "3d":
            raise ValueError("ax must be a 3D axes (fig.add_subplot(projection='3d'))")
        return ax
    fig = _pyplot().figure()
    return fig.add_subplot(projection="3d")


def _include(ax: Any, drawn: Any) -> None:
    """Counts points (..., 3) given in plot axes (x, -z, y) into a 3D axes' data limits, so that :func:`_equal`
    frames them (collections added with ``add_collection3d`` do not count in every matplotlib version)."""
    p = np.asarray(drawn, dtype=np.float64).reshape(-1, 3)
    p = p[np.isfinite(p).all(axis=1)]
    if len(p):
        ax.auto_scale_xyz(p[:, 0], p[:, 1], p[:, 2], had_data=True)


def _legend(ax: Any) -> None:
    """A legend of the labelled artists on ``ax`` once there are two or more (one needs no legend)."""
    handles, _ = ax.get_legend_handles_labels()
    if len(handles) >= 2:
        ax.legend(loc="upper right", fontsize="small")


def _equal(ax: Any) -> Any:
    """Equal scales on the three axes of a 3D plot: a cube around what is drawn, so a box looks like a box (3D axes
    scale each axis to its own data range otherwise). The cube is fitted to everything drawn on ``ax`` so far, so
    plots added to the same axes later still show. Names the axes (:data:`AXIS_LABELS_3D`) unless they have names.
    Returns ``ax``."""
    for axis, text in zip((ax.xaxis, ax.yaxis, ax.zaxis), AXIS_LABELS_3D):
        if not axis.get_label_text():
            axis.set_label_text(text)
    ax.autoscale(enable=True)  # setting limits below turned it off: let the next call's data count too
    ax.autoscale_view()
    limits = np.array([ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d()], dtype=np.float64)
    centre = limits.mean(axis=1)
    half = float((limits[:, 1] - limits[:, 0]).max()) / 2 or 0.5
    ax.set_xlim3d(centre[0] - half, centre[0] + half)
    ax.set_ylim3d(centre[1] - half, centre[1] + half)
    ax.set_zlim3d(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1, 1, 1))
    return ax


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
    """Draws the 12 edges of a :class:`Box` or :class:`OrientedBox` (the front face thicker), named in the axes'
    legend "box (front edges thick)" ("box" without ``label_front``; ``label="..."`` names it otherwise).

    World +y is drawn up. Returns the 3D axes (a new figure's when ``ax`` is None).
    """
    ax = _axes(ax)
    _draw_box(ax, box, color, label_front, **line_kwargs)
    _legend(ax)
    return _equal(ax)


def _draw_box(ax: Any, box: Any, color: str, label_front: bool, **line_kwargs: Any) -> None:
    if not isinstance(box, (Box, OrientedBox)):
        raise TypeError(f"box must be a fathom.Box or fathom.OrientedBox, got {type(box).__name__}")
    corners = box.corners.astype(np.float64)
    segments = corners[np.array(BOX_EDGES)]  # (12, 2, 3)
    x, y, z = _yup(segments)
    width = line_kwargs.pop("linewidth", 1.2)
    label = line_kwargs.pop("label", "box (front edges thick)" if label_front else "box")
    for i in range(len(BOX_EDGES)):  # 12 edges: one matplotlib line each, the first one named in the legend
        ax.plot(x[i], y[i], z[i], color=color, linewidth=width * (2.0 if label_front and i < 4 else 1.0),
                label=label if i == 0 else "_nolegend_", **line_kwargs)


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
    are inside ``inside`` when given (blue inside, gray outside, named in the legend). World +y is drawn up.
    Returns the 3D axes."""
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
        ax.scatter(x, y, z, s=size, color="tab:blue", label="points")
    else:
        obb = inside.to_obb() if isinstance(inside, Box) else inside
        mask = obb.contains(buf.array)[pick]
        ax.scatter(x[~mask], y[~mask], z[~mask], s=size, color="lightgray", label="outside")
        ax.scatter(x[mask], y[mask], z[mask], s=size, color="tab:blue", label="inside")
    _include(ax, np.stack([x, y, z], axis=-1))
    _legend(ax)
    return _equal(ax)


def _mesh_arrays(mesh: Any, triangles: Any, classes: Any) -> tuple[np.ndarray, np.ndarray, Optional[np.ndarray]]:
    if isinstance(mesh, Mesh):
        if triangles is not None:
            raise TypeError("plot_mesh(mesh): a fathom.Mesh brings its own triangles")
        return mesh.vertices, mesh.triangles, mesh.classes if classes is None else classes
    if triangles is None:
        raise TypeError("plot_mesh(vertices, triangles): triangles are missing")
    return mesh, triangles, classes


def plot_mesh(
    vertices: Any,
    triangles: Optional[ArrayLike] = None,
    classes: Optional[ArrayLike] = None,
    ax: Optional[Any] = None,
    *,
    max_triangles: int = 20000,
    color: str = "lightgray",
    alpha: float = 0.35,
    edgecolor: Optional[str] = "gray",
    seed: int = 0,
) -> Any:
    """Draws a triangle mesh as a Poly3DCollection and returns the 3D axes.

    Pass ``vertices`` (V, 3) and ``triangles`` (T, 3), or a :class:`fathom.Mesh` (``plot_mesh(Mesh.load(path))``;
    its vertices, triangles and classes are read back from the library). With ``classes`` (T,) (or the mesh's)
    faces are coloured by :data:`CLASS_COLORS`, one collection per class present, named in the legend by its
    :class:`fathom.MeshClass`; without, one collection named "mesh". Above ``max_triangles``
    a random subset (seeded) of that many triangles is drawn, so large scans stay responsive.
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # type: ignore[import-untyped]

    v, t, c = _mesh_arrays(vertices, triangles, classes)
    v = np.asarray(v, dtype=np.float64)
    t = np.asarray(t)
    if v.ndim != 2 or v.shape[1] < 3:
        raise ValueError(f"vertices must have shape (V, 3), got shape {v.shape}")
    if t.ndim != 2 or t.shape[1] != 3:
        raise ValueError(f"triangles must have shape (T, 3), got shape {t.shape}")
    if t.size and (t.min() < 0 or t.max() >= len(v)):
        raise ValueError(f"triangles index vertices 0..{len(v) - 1}, got indices {t.min()}..{t.max()}")
    ax = _axes(ax)
    pick = np.arange(len(t))
    if len(t) > max_triangles:
        pick = np.sort(np.random.default_rng(seed).choice(len(t), size=max_triangles, replace=False))
    x, y, z = _yup(v[:, :3])
    drawn = np.stack([x, y, z], axis=-1)[t[pick]]  # (K, 3, 3) in plot axes
    if c is not None:
        c = np.asarray(c)
        if c.shape != (len(t),):
            raise ValueError(f"classes must have shape ({len(t)},), got shape {c.shape}")
        drawn_classes = np.clip(c[pick], 0, len(CLASS_COLORS) - 1)
        for k in np.unique(drawn_classes):  # one collection per class: the legend names each colour
            faces = Poly3DCollection(drawn[drawn_classes == k], alpha=alpha, edgecolor=edgecolor, linewidths=0.2,
                                     facecolor=CLASS_COLORS[k], label=MeshClass(int(k)).name.lower())
            ax.add_collection3d(faces)
    else:
        ax.add_collection3d(Poly3DCollection(drawn, alpha=alpha, edgecolor=edgecolor, linewidths=0.2,
                                             facecolor=color, label="mesh"))
    _include(ax, drawn)
    _legend(ax)
    return _equal(ax)


def plot_rays(
    origins: ArrayLike,
    directions: Optional[ArrayLike] = None,
    hits: Optional[np.ndarray] = None,
    ax: Optional[Any] = None,
    *,
    length: float = 1.0,
    max_rays: int = 2000,
    color: str = "tab:blue",
    miss_color: str = "tab:gray",
    hit_color: str = "tab:red",
    seed: int = 0,
) -> Any:
    """Draws rays as segments and returns the 3D axes.

    Rays as for :meth:`fathom.Mesh.cast` (origins and directions, or one (N, 6) array). With ``hits``
    (the :data:`fathom.HIT_DTYPE` array of those rays) a ray that hit is drawn in ``color`` up to its hit point,
    which is marked in ``hit_color`` (:func:`plot_hits`); a miss is drawn ``length`` meters long in
    ``miss_color``; the legend names the three with their counts. Without hits every ray is drawn ``length``
    meters long in ``color``. At most ``max_rays`` (a seeded random subset) are drawn.
    """
    from mpl_toolkits.mplot3d.art3d import Line3DCollection  # type: ignore[import-untyped]

    rays = _ray_array(origins, directions).astype(np.float64)
    if hits is not None:
        if not isinstance(hits, np.ndarray) or hits.dtype != HIT_DTYPE or hits.shape != (len(rays),):
            raise ValueError(f"hits must be the ({len(rays)},) HIT_DTYPE array of these rays")
    ax = _axes(ax)
    pick = np.arange(len(rays))
    if len(rays) > max_rays:
        pick = np.sort(np.random.default_rng(seed).choice(len(rays), size=max_rays, replace=False))
    o, d = rays[pick, :3], rays[pick, 3:]
    norms = np.linalg.norm(d, axis=1, keepdims=True)
    unit = np.divide(d, norms, out=np.zeros_like(d), where=norms > 0)
    ends = o + length * unit
    hit = np.zeros(len(pick), dtype=bool)
    if hits is not None:
        hit = hits["primitive"][pick] != NO_HIT
        ends[hit] = hits["point"][pick][hit]
    segments = np.stack([np.stack(_yup(o), axis=-1), np.stack(_yup(ends), axis=-1)], axis=1)  # (K, 2, 3)
    if hits is None:
        ax.add_collection3d(Line3DCollection(segments, colors=color, linewidths=0.6, label="rays"))
    else:  # one collection each, so that the legend tells them apart
        for chosen, c, name in ((hit, color, "rays that hit"), (~hit, miss_color, "rays that missed")):
            if chosen.any():
                ax.add_collection3d(Line3DCollection(segments[chosen], colors=c, linewidths=0.6,
                                                     label=f"{name} ({int(chosen.sum())})"))
    _include(ax, segments)
    if hits is not None and hit.any():
        plot_hits(hits[pick], ax, color=hit_color)
    _legend(ax)
    return _equal(ax)


def plot_hits(hits: np.ndarray, ax: Optional[Any] = None, *, size: float = 6.0, color: str = "tab:red") -> Any:
    """Marks the hit points of a :data:`fathom.HIT_DTYPE` array (misses are skipped), named "hit points (count)"
    in the legend; returns the axes."""
    if not isinstance(hits, np.ndarray) or hits.dtype != HIT_DTYPE:
        raise TypeError("hits must be an array of fathom.HIT_DTYPE (as returned by Mesh.cast)")
    ax = _axes(ax)
    shown = hits[hits["primitive"] != NO_HIT]
    x, y, z = _yup(shown["point"].astype(np.float64))
    ax.scatter(x, y, z, s=size, color=color, depthshade=False, label=f"hit points ({len(shown)})")
    _include(ax, np.stack([x, y, z], axis=-1))
    _legend(ax)
    return _equal(ax)


# ------------------------------------------------------------------------------------------------
# Depth frames and lengths
# ------------------------------------------------------------------------------------------------


def plot_depth(
    frame: Union[DepthFrame, np.ndarray],
    mask: Optional[ArrayLike] = None,
    keypoints: Optional[ArrayLike] = None,
    length: Optional[Length] = None,
    ax: Optional[Any] = None,
    *,
    rgb_size: Optional[tuple[int, int]] = None,
    cmap: str = "viridis",
    mask_color: str = "tab:red",
    mask_alpha: float = 0.35,
) -> Any:
    """Draws a depth map (meters; invalid samples blank) in RGB pixel coordinates, with a mask overlay, keypoints
    and the measured segment, and returns the 2D axes.

    ``frame`` is a :class:`fathom.DepthFrame` (its depth in meters, stretched over its RGB image's size so that
    RGB pixel coordinates line up) or a plain 2D array (drawn over ``rgb_size`` (width, height), default its
    own size). ``mask`` (any resolution) is overlaid over the same extent; ``keypoints`` (K, 2) RGB pixels are
    marked; ``length`` (a :class:`fathom.Length`) draws the segment between its head and tail pixels, labelled
    with its value and sigma.
    """
    plt = _pyplot()
    if isinstance(frame, DepthFrame):
        depth = np.asarray(frame.depth, dtype=np.float64) * frame.scale
        valid = np.isfinite(depth) & (depth > 0) & (depth >= frame.min_depth) & (depth <= frame.max_depth)
        if frame.confidence is not None:
            valid &= frame.confidence >= frame.min_confidence
        width, height = frame.intrinsics.width, frame.intrinsics.height
    else:
        depth = np.asarray(frame, dtype=np.float64)
        if depth.ndim != 2:
            raise ValueError(f"depth must be a 2D array, got shape {depth.shape}")
        valid = np.isfinite(depth) & (depth > 0)
        width, height = rgb_size if rgb_size is not None else (depth.shape[1], depth.shape[0])
    if ax is None:
        ax = plt.figure().add_subplot()
    extent = (0, width, height, 0)
    image = ax.imshow(np.where(valid, depth, np.nan), cmap=cmap, extent=extent, interpolation="nearest")
    ax.figure.colorbar(image, ax=ax, label="depth (m)")
    drawn = [np.array([[0.0, 0.0], [width, height]])]  # pixels: the image, and marks that may lie beyond it
    if mask is not None:
        m = as_mask(mask).astype(bool)
        overlay = np.zeros(m.shape + (4,))
        rgba = plt.matplotlib.colors.to_rgba(mask_color, mask_alpha)
        overlay[m] = rgba
        ax.imshow(overlay, extent=extent, interpolation="nearest")
        # an image is not a legend entry: an empty patch of the mask's colour names it
        ax.add_patch(plt.matplotlib.patches.Rectangle((0, 0), 0, 0, facecolor=rgba, edgecolor="none",
                                                      label=f"mask ({int(m.sum())} pixels)"))
    if keypoints is not None:
        k = np.asarray(keypoints, dtype=np.float64).reshape(-1, 2)
        ax.scatter(k[:, 0], k[:, 1], s=30, marker="x", color="white", label="keypoints")
        drawn.append(k)
    if length is not None:
        if not isinstance(length, Length):
            raise TypeError(f"length must be a fathom.Length, got {type(length).__name__}")
        ends = np.stack([length.head_pixel, length.tail_pixel]).astype(np.float64)
        ax.plot(ends[:, 0], ends[:, 1], "-o", color="tab:orange", linewidth=2, markersize=4,
                label=f"{length.value * 100:.1f} ± {length.sigma * 100:.1f} cm")
        drawn.append(ends)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper right", fontsize="small")
    marks = np.concatenate(drawn)
    marks = marks[np.isfinite(marks).all(axis=1)]
    lo, hi = marks.min(axis=0), marks.max(axis=0)
    margin = 0.02 * float(max(width, height)) if (lo < 0).any() or hi[0] > width or hi[1] > height else 0.0
    ax.set_xlim(lo[0] - margin, hi[0] + margin)
    ax.set_ylim(hi[1] + margin, lo[1] - margin)  # v down, as in the image
    ax.set_xlabel("u (RGB pixels)")
    ax.set_ylabel("v (RGB pixels)")
    return ax


def plot_length_points(
    points: ArrayLike,
    line: Optional[LineFit] = None,
    length: Optional[Length] = None,
    ax: Optional[Any] = None,
    *,
    max_points: int = 20000,
    size: float = 1.0,
    seed: int = 0,
) -> Any:
    """Scatters back-projected points (N, 3) with a fitted 3D line (drawn over its points' extent
    ``t_min..t_max``, red) and a measured length's endpoints (orange), named in the legend, and returns the 3D
    axes. Points, line and length must be in the same frame (the camera or world frame draws +y up). At most
    ``max_points`` (seeded subset)."""
    ax = plot_points(points, ax, max_points=max_points, size=size, seed=seed)
    if line is not None:
        if not isinstance(line, LineFit) or len(line.point) != 3:
            raise TypeError("line must be a 3D fathom.LineFit (fit_line_3d or fit_line_ransac of 3D points)")
        ends = np.stack([line.start, line.end])
        x, y, z = _yup(ends)
        ax.plot(x, y, z, color="tab:red", linewidth=2, label="fitted line")
    if length is not None:
        if not isinstance(length, Length):
            raise TypeError(f"length must be a fathom.Length, got {type(length).__name__}")
        # a midline length draws its curve, the others the segment between their ends
        path = length.curve if length.curve is not None else np.stack([length.head, length.tail])
        x, y, z = _yup(path)
        ax.plot(x, y, z, "-", color="tab:orange", linewidth=2,
                label=f"length {length.value * 100:.1f} ± {length.sigma * 100:.1f} cm")
        x, y, z = _yup(np.stack([length.head, length.tail]))
        ax.plot(x, y, z, "o", color="tab:orange", markersize=5)
    _legend(ax)
    return _equal(ax)


# ------------------------------------------------------------------------------------------------
# Capture guidance
# ------------------------------------------------------------------------------------------------


def plot_coverage(coverage: Coverage, ax: Optional[Any] = None, *, counts: bool = True, edges: bool = True) -> Any:
    """Draws the tracker's box with each face in the capture app's colour and opacity (yellow to cyan with
    progress, clear once complete), the box's edges, and at each face's centre its name and ``count/goal`` (an
    excluded bottom reads "not needed"). World +y is drawn up. Returns the 3D axes."""
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # type: ignore[import-untyped]

    if not isinstance(coverage, Coverage):
        raise TypeError(f"coverage must be a fathom.Coverage, got {type(coverage).__name__}")
    faces = coverage.faces()
    box = coverage.box
    ax = _axes(ax)
    corners = box.corners.astype(np.float64)
    drawn = np.stack(_yup(corners), axis=-1)  # (8, 3) in plot axes
    polygons = drawn[np.array(FACE_CORNERS)]  # (6, 4, 3)
    for f, polygon in zip(faces, polygons):  # one collection per face, labelled with its name
        ax.add_collection3d(Poly3DCollection([polygon], facecolors=[f.rgba], edgecolors="none", label=f.face.name.lower()))
    if edges:
        _draw_box(ax, box, "dimgray", True)
    if counts:
        goal = coverage.options.goal
        for f, centre in zip(faces, box.faces.centers.astype(np.float64)):
            x, y, z = _yup(centre)
            text = f"{f.count}/{goal}" if f.needed else f"{f.count} (not needed)"
            ax.text(x, y, z, f"{f.face.name.lower()}\n{text}", ha="center", va="center", fontsize="small")
    _include(ax, drawn)
    return _equal(ax)


def plot_view_bins(coverage: Coverage, ax: Optional[Any] = None, *, next_view: bool = True, cmap: str = "viridis") -> Any:
    """Draws the view-direction bins as a heat map of counted views: azimuth (degrees from +x toward +z) across,
    the direction's height y up (equal-area rings are equal-height bands: [0, 1] on a hemisphere, [-1, 1] on the
    sphere), with the next-best direction (:meth:`fathom.Coverage.next_view`) marked by a star. Returns the 2D
    axes."""
    plt = _pyplot()
    if not isinstance(coverage, Coverage):
        raise TypeError(f"coverage must be a fathom.Coverage, got {type(coverage).__name__}")
    counts, _ = coverage.bins()
    if ax is None:
        ax = plt.figure().add_subplot()
    bottom = 0.0 if coverage.hemisphere else -1.0
    image = ax.imshow(counts, origin="lower", extent=(0.0, 360.0, bottom, 1.0), aspect="auto", cmap=cmap,
                      interpolation="nearest")
    ax.figure.colorbar(image, ax=ax, label="counted views")
    if next_view:
        direction, _ = coverage.next_view(1.0)  # the direction does not depend on the distance
        azimuth = np.degrees(np.arctan2(direction[2], direction[0])) % 360.0
        ax.scatter([azimuth], [direction[1]], marker="*", s=250, color="tab:red", edgecolors="white",
                   label="next view", zorder=3)
        ax.legend(loc="upper right", fontsize="small")
    ax.set_xlim(0, 360)
    ax.set_ylim(bottom, 1)
    ax.set_xlabel("azimuth (degrees, from +x toward +z)")
    ax.set_ylabel("height y of the unit view direction (sine of elevation)")
    return ax


def plot_speed(
    states: Any,
    speeds: Optional[ArrayLike] = None,
    ax: Optional[Any] = None,
    *,
    options: Optional[MotionOptions] = None,
    inches: bool = False,
) -> Any:
    """Draws camera speed over time on the guidance bands (too slow, slightly slow, ok, slightly fast, too fast,
    from ``options`` or the library's defaults; one colour each, :data:`GUIDANCE_COLORS`) with the slow and fast
    thresholds as dashed lines (:data:`THRESHOLD_COLORS`, named in the legend with their values, such as
    "slow 5 in/s"), and returns the 2D axes.

    ``states`` is the :data:`fathom.MOTION_STATE_DTYPE` array of :meth:`fathom.Motion.update_many` (skipped poses
    are dropped, poses without a speed (guidance UNKNOWN) leave a gap, automatic captures are marked), or (N,)
    integer-nanosecond timestamps with ``speeds`` (N,) in m/s. Time is drawn in seconds from the first timestamp;
    ``inches=True`` draws inches per second, the app's unit.
    """
    plt = _pyplot()
    o = MotionOptions() if options is None else options
    if not isinstance(o, MotionOptions):
        raise TypeError(f"options must be a fathom.MotionOptions, got {type(o).__name__}")
    captured: Optional[np.ndarray] = None
    if speeds is None:
        if not isinstance(states, np.ndarray) or states.dtype != MOTION_STATE_DTYPE or states.ndim != 1:
            raise TypeError("states must be a fathom.MOTION_STATE_DTYPE array (Motion.update_many), or pass speeds")
        kept = states[states["skipped"] == 0]
        t = kept["timestamp"]
        v = kept["speed"].astype(np.float64)
        v[kept["guidance"] == int(Guidance.UNKNOWN)] = np.nan
        captured = kept["captured"] != 0
    else:
        t = np.asarray(states)
        v = np.asarray(speeds, dtype=np.float64)
        if t.ndim != 1 or v.shape != t.shape:
            raise ValueError(f"timestamps and speeds must have the same (N,) shape, got {t.shape} and {v.shape}")
    time = (t - t[0]).astype(np.float64) * 1e-9 if len(t) else np.zeros(0)
    scale = 1.0 / INCH if inches else 1.0
    unit = "in/s" if inches else "m/s"
    if ax is None:
        ax = plt.figure().add_subplot()
    finite = v[np.isfinite(v)]
    top = max(float(finite.max()) * 1.1 if finite.size else 0.0, o.fast_speed * 1.3)
    bottom = min(float(finite.min()) * 1.1 if finite.size else 0.0, 0.0)  # speeds are >= 0; frame any given
    for guidance, (lo, hi) in o.bands().items():
        if hi > lo:
            ax.axhspan(lo * scale, min(hi, top) * scale, color=GUIDANCE_COLORS[guidance], alpha=0.15, linewidth=0,
                       label=guidance.name.lower().replace("_", " "))
    for name, value in (("slow", o.slow_speed), ("fast", o.fast_speed)):
        ax.axhline(value * scale, color=THRESHOLD_COLORS[name], linestyle="--", linewidth=0.9,
                   label=f"{name} {value * scale:.3g} {unit}")
    ax.plot(time, v * scale, color="black", linewidth=1.0, label="speed")
    if captured is not None and captured.any():
        ax.scatter(time[captured], v[captured] * scale, marker="o", s=18, color="tab:blue", zorder=3, label="capture")
    ax.set_ylim(bottom * scale, top * scale)
    if len(time):
        span = float(time[-1] - time[0]) if len(time) > 1 else 0.0
        pad = 0.02 * span if span > 0 else 0.5
        ax.set_xlim(float(time.min()) - pad, float(time.max()) + pad)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"speed ({unit})")
    ax.legend(loc="upper right", fontsize="small")
    return ax


def plot_report(report: Any, ax: Optional[Any] = None, *, max_points: int = 100_000) -> Any:
    """Draws a :class:`fathom.ScanReport` seen from above (x across, z down, as a floor plan): the fused cloud
    (gray, at most ``max_points``), the object's points (blue), the box's footprint (green), the camera path
    (black) with the app's captures (red) and the point the cameras look at (orange x). Equal axes; returns the
    2D axes.

    The view frames all of them: the object, the box, the camera path, the captures, the focus, and the cloud
    without its extreme 0.5 % of points on each side along x and along z (stray voxels far away). Cloud points
    outside the frame are not drawn; the legend says how many."""
    plt = _pyplot()
    if ax is None:
        ax = plt.figure(figsize=(7, 7)).add_subplot()
    cloud = np.asarray(report.cloud, dtype=np.float64).reshape(-1, 3)[:, [0, 2]]
    cloud = cloud[np.isfinite(cloud).all(axis=1)]
    obj = np.asarray(report.object, dtype=np.float64).reshape(-1, 3)[:, [0, 2]]
    box = report.box
    footprint = np.asarray(box.corners, dtype=np.float64)[[0, 1, 5, 4, 0]][:, [0, 2]] if box is not None else None
    positions = np.asarray(report.to_dict()["camera_positions"], dtype=np.float64).reshape(-1, 3)[:, [0, 2]]
    captured = positions[np.asarray(report.captures, dtype=np.int64)] if len(positions) else np.zeros((0, 2))
    focus = None if report.focus is None else np.asarray(report.focus, dtype=np.float64)[[0, 2]]

    # the frame: everything drawn, the cloud without its extreme 0.5 % on each side; a square, for equal axes
    parts = [obj, positions, captured]
    if len(cloud):
        parts.append(np.quantile(cloud, [0.005, 0.995], axis=0))
    if footprint is not None:
        parts.append(footprint)
    if focus is not None:
        parts.append(focus[None])
    points = np.concatenate(parts)
    points = points[np.isfinite(points).all(axis=1)]
    if len(points):
        lo, hi = points.min(axis=0), points.max(axis=0)
    else:
        lo, hi = np.zeros(2), np.zeros(2)
    centre = (lo + hi) / 2
    half = float((hi - lo).max()) / 2
    half += max(0.05 * half, 0.05)  # a margin: 5 %, at least 5 cm
    flo, fhi = centre - half, centre + half

    inside = np.all((cloud >= flo) & (cloud <= fhi), axis=1)
    shown = cloud[inside]
    if len(shown) > max_points:
        shown = shown[:: int(np.ceil(len(shown) / max_points))]
    dropped = int(len(cloud) - inside.sum())
    label = "fused cloud" + (f" ({dropped} outlying points not drawn)" if dropped else "")
    ax.scatter(shown[:, 0], shown[:, 1], s=0.2, color="lightgray", label=label, rasterized=True)
    if len(obj):
        ax.scatter(obj[:, 0], obj[:, 1], s=0.5, color="tab:blue", label="object")
    if footprint is not None:
        ax.plot(footprint[:, 0], footprint[:, 1], color="tab:green", linewidth=2,
                label=f"box ({report.box_source.name.lower()})")
    if len(positions):
        ax.plot(positions[:, 0], positions[:, 1], color="black", linewidth=1, label="camera path")
        if len(captured):
            ax.scatter(captured[:, 0], captured[:, 1], color="tab:red", s=30, zorder=3, label="captures")
    if focus is not None:
        ax.scatter([focus[0]], [focus[1]], marker="x", s=80, color="tab:orange", zorder=4, label="focus")
    ax.set_xlim(flo[0], fhi[0])
    ax.set_ylim(fhi[1], flo[1])  # z down
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("z (m)")
    legend = ax.legend(loc="upper right", fontsize="small")
    for handle in getattr(legend, "legend_handles", getattr(legend, "legendHandles", [])):
        if hasattr(handle, "set_sizes") and handle.get_sizes().size and handle.get_sizes()[0] < 10:
            handle.set_sizes([12.0])  # the cloud's and the object's dots, big enough to see in the legend
    return ax


def _report_goal(report: Any, coverage: Any) -> Optional[float]:
    """The views a face needs: the report's own when it says, else from a face in progress (progress = count / goal
    below 1; a complete face's progress stops at 1 and says nothing)."""
    goal = getattr(coverage, "goal", None)
    if goal is None and hasattr(report, "to_dict"):
        goal = (report.to_dict().get("coverage") or {}).get("goal")
    if goal is None:
        partial = [f["count"] / f["progress"] for f in coverage.faces if 0 < f["progress"] < 1]
        goal = round(partial[0]) if partial else None
    return None if goal is None else float(goal)


def plot_report_coverage(report: Any, ax: Optional[Any] = None) -> Any:
    """Draws a report's face coverage: one bar per face, named under it, of the captured views counted on the face,
    in the capture app's colour for the face's progress (gray for a face not needed), with ``count/goal`` (or
    "not needed") above it and the goal as a dashed line named with its value. Returns the 2D axes."""
    plt = _pyplot()
    coverage = report.coverage
    if coverage is None:
        raise ValueError("the report has no coverage (no box)")
    if ax is None:
        ax = plt.figure().add_subplot()
    names = [f["name"] for f in coverage.faces]
    counts = np.array([f["count"] for f in coverage.faces], dtype=np.float64)
    colors = [tuple(f["color"]) if f["needed"] else (0.8, 0.8, 0.8) for f in coverage.faces]
    position = np.arange(len(names))
    bars = ax.bar(position, counts, color=colors, edgecolor="dimgray")
    ax.set_xticks(position, names)
    goal = _report_goal(report, coverage)
    texts = [(f"{f['count']}/{goal:g}" if goal else f"{f['count']}") if f["needed"] else f"{f['count']} (not needed)"
             for f in coverage.faces]
    ax.bar_label(bars, texts, padding=2, fontsize="small")
    if goal:
        ax.axhline(goal, color="dimgray", linestyle="--", linewidth=0.8, label=f"goal {goal:g} views")
        ax.legend(loc="upper right", fontsize="small")
    top = max(float(counts.max()) if len(counts) else 0.0, goal or 0.0, 1.0)
    ax.set_ylim(0, top * 1.2)  # room for the labels over the bars
    ax.set_xlabel("face")
    ax.set_ylabel("captured views counted (views)")
    ax.set_title(f"{coverage.faces_complete}/{coverage.faces_needed} faces complete, angular score {coverage.angular_score:.2f}")
    return ax


def save_report_plots(report: Any, directory: str) -> list[str]:
    """Saves ``trajectory.png`` (:func:`plot_report`), ``coverage.png`` (:func:`plot_report_coverage`, when the
    report has a box) and ``speed.png`` (:func:`plot_speed`) into ``directory``; returns their paths."""
    import os

    plt = _pyplot()
    paths = []
    figures = [("trajectory.png", lambda ax: plot_report(report, ax))]
    if report.coverage is not None:
        figures.append(("coverage.png", lambda ax: plot_report_coverage(report, ax)))
    speed = report.speed

    limits = report.to_dict().get("speed") or {}
    options = None
    if all(isinstance(limits.get(k), (int, float)) for k in ("slow_speed", "fast_speed", "slightly")) and \
            0 < limits["slow_speed"] <= limits["fast_speed"]:  # the capture's own thresholds, when the report has them
        options = MotionOptions(slow_speed=limits["slow_speed"], fast_speed=limits["fast_speed"],
                                slightly=limits["slightly"])

    def draw_speed(ax: Any) -> Any:
        t = np.round(speed["time"] * 1e9).astype(np.int64)
        v = np.where(speed["guidance"] == "unknown", np.nan, speed["speed"])
        return plot_speed(t, v, ax, options=options)

    figures.append(("speed.png", draw_speed))
    for name, draw in figures:
        fig = plt.figure(figsize=(8, 6))
        draw(fig.add_subplot())
        path = os.path.join(directory, name)
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
