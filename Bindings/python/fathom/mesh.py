"""Triangle meshes with a BVH, and ray casts against them.

A :class:`Mesh` owns a ``fathom_mesh`` handle: vertices (float32 xyz), triangles (three uint32 vertex
indices each) and optional per-face classes (:class:`fathom.MeshClass`), with the library's bounding
volume hierarchy built once. A mesh is immutable: every query may run on many threads at once (the
GIL is released during each library call). Free it with :meth:`Mesh.close` or a ``with`` block (the
garbage collector frees it too); do not close it while another thread is still querying it.

Batch queries take rays as (N, 3) origins and (N, 3) directions (or a single (3,) row for either), or
as one (N, 6) float32 ray array (:func:`fathom.make_rays`, :func:`fathom.grid_rays`) that is passed
without a copy. Closest hits come back as a structured array of :data:`fathom.HIT_DTYPE`.
"""

from __future__ import annotations

import math
from ctypes import POINTER, byref, c_bool, c_char_p, c_float, c_size_t, c_uint8, c_uint32, c_uint64
from typing import Any, NamedTuple, Optional

import numpy as np

from ._arrays import ArrayLike, point_buffer, vec3_from_c
from ._handle import Handle
from ._lib import (
    CONSTANTS,
    BatchOptionsStruct,
    FloatPtr,
    HitPtr,
    HitStruct,
    MeshInfoStruct,
    MeshPtr,
    RayPtr,
    c_function,
    check_status,
    status_function,
)
from ._scalars import PathLike, path_bytes
from ._sized import sized
from .errors import NoDataError
from .raycast import (
    Hit,
    MeshClass,
    _hits_ptr,
    _range,
    _ray_array,
    _ray_struct,
    _rays_ptr,
    empty_hits,
)

__all__ = ["Bounds", "Mesh", "MeshClass"]


_MESH_COPY = int(CONSTANTS["FATHOM_MESH_COPY"])
_MESH_BORROW = int(CONSTANTS["FATHOM_MESH_BORROW"])
_MESH_COMPACT = int(CONSTANTS["FATHOM_MESH_COMPACT"])
_UINT32_MAX = 2**32 - 1

_mesh_create = status_function(
    "fathom_mesh_create", FloatPtr, c_size_t, c_size_t, POINTER(c_uint32), c_size_t, POINTER(c_uint8), c_uint32,
    POINTER(MeshPtr),
)
_mesh_load = status_function("fathom_mesh_load", c_char_p, POINTER(MeshPtr))
_mesh_destroy = c_function("fathom_mesh_destroy", None, MeshPtr)
_mesh_get_info = status_function("fathom_mesh_get_info", MeshPtr, POINTER(MeshInfoStruct))
_mesh_face_geometry = status_function("fathom_mesh_face_geometry", MeshPtr, FloatPtr, FloatPtr)
_mesh_intersect = status_function("fathom_mesh_intersect", MeshPtr, RayPtr, c_float, c_float, HitPtr)
_mesh_occluded = status_function("fathom_mesh_occluded", MeshPtr, RayPtr, c_float, c_float, POINTER(c_bool))
_mesh_intersect_all = status_function(
    "fathom_mesh_intersect_all", MeshPtr, RayPtr, c_float, c_float, HitPtr, c_size_t, POINTER(c_size_t)
)
_mesh_vertices = status_function("fathom_mesh_vertices", MeshPtr, FloatPtr, c_size_t)
_mesh_triangles = status_function("fathom_mesh_triangles", MeshPtr, POINTER(c_uint32), c_size_t)
_mesh_classes = status_function("fathom_mesh_classes", MeshPtr, POINTER(c_uint8), c_size_t)
_mesh_save = status_function("fathom_mesh_save", MeshPtr, c_char_p)
_BatchPtr = POINTER(BatchOptionsStruct)
_batch_options_init = status_function("fathom_batch_options_init", _BatchPtr)
_mesh_intersect_batch = status_function("fathom_mesh_intersect_batch", MeshPtr, RayPtr, c_size_t, _BatchPtr, HitPtr)
_mesh_intersect_batch_compact = status_function(
    "fathom_mesh_intersect_batch_compact", MeshPtr, RayPtr, c_size_t, _BatchPtr, FloatPtr, POINTER(c_uint32)
)
_mesh_ray_order = status_function("fathom_mesh_ray_order", MeshPtr, RayPtr, c_size_t, _BatchPtr, POINTER(c_uint32))
_mesh_occluded_batch = status_function(
    "fathom_mesh_occluded_batch", MeshPtr, RayPtr, c_size_t, _BatchPtr, POINTER(c_bool)
)
_mesh_intersect_all_batch = status_function(
    "fathom_mesh_intersect_all_batch", MeshPtr, RayPtr, c_size_t, _BatchPtr, HitPtr, c_size_t, POINTER(c_uint64)
)


class Bounds(NamedTuple):
    """An axis-aligned box: ``min`` and ``max`` corners, (3,) float32 arrays."""

    min: np.ndarray
    max: np.ndarray


def _threads(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"threads must be an int (0 = one per CPU), got {type(value).__name__}")
    if not 0 <= int(value) <= _UINT32_MAX:
        raise ValueError(f"threads must be in 0..{_UINT32_MAX} (0 = one per CPU), got {value}")
    return int(value)


def _hit_array(n: int) -> tuple[np.ndarray, tuple[Any, int]]:
    hits = empty_hits(n)
    return hits, (_hits_ptr(hits), n)


def _integers(value: Any, name: str, shape: str, maximum: int, dtype: Any) -> np.ndarray:
    """An integer array converted to ``dtype`` after checking every value fits (0..maximum)."""
    a = np.asarray(value)
    if a.size == 0 and not np.issubdtype(a.dtype, np.integer):
        a = a.astype(dtype)  # [] is float64 in numpy; an empty list is still a valid empty index list
    if not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.size and a.dtype != dtype:
        lo, hi = int(a.min()), int(a.max())
        if lo < 0 or hi > maximum:
            bad = np.unravel_index(int(np.argmin(a) if lo < 0 else np.argmax(a)), a.shape)
            where = ", ".join(map(str, bad))
            raise ValueError(f"{name}[{where}] = {a[bad]} does not fit {shape} (0..{maximum})")
    return a


def _borrowed(value: Any, name: str, dtype: Any, shape: tuple[Optional[int], ...]) -> np.ndarray:
    """``value`` itself if it is a C-contiguous native array of ``dtype`` and ``shape`` (None = any)."""
    dt = np.dtype(dtype)
    wanted = "(" + ", ".join("N" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    if not isinstance(value, np.ndarray):
        raise ValueError(f"borrow=True needs {name} as a numpy array of {dt.name}, got {type(value).__name__}")
    if value.dtype != dt or not value.dtype.isnative:
        raise ValueError(f"borrow=True needs {name} of dtype {dt.name}, got {value.dtype} (convert it, or borrow=False)")
    if not value.flags.c_contiguous:
        raise ValueError(f"borrow=True needs {name} C-contiguous (np.ascontiguousarray), or borrow=False")
    if value.ndim != len(shape) or any(s is not None and s != n for s, n in zip(shape, value.shape)):
        raise ValueError(f"{name} must have shape {wanted}, got shape {value.shape}")
    return value


class Mesh(Handle):
    """A triangle mesh and its BVH (``fathom_mesh``), for closest-hit, any-hit and all-hit ray casts.

    Args:
        vertices: (V, 3) vertex positions, meters (float32, or anything convertible to it; an (N, k >= 3)
            float32 array with packed columns is read in place). Must be finite.
        triangles: (T, 3) vertex indices (integers convertible to uint32), each < V.
        classes: optional (T,) per-triangle :class:`MeshClass` values (uint8, each <= ``MeshClass.DOOR``).
        borrow: if True, the library keeps pointers to these exact arrays instead of copying them: they
            must already be C-contiguous float32 / uint32 / uint8 (else ValueError), and must not be
            changed while the mesh lives. The Mesh keeps a reference to them until it is closed.
        compact: if True, the library copies the arrays (the vertices once, packed) and its BVH's leaves index
            that copy instead of holding each triangle's vertices: the least memory per triangle (all counted,
            about 37% less than the default on a closed mesh, 25% less on a triangle soup), slower casts, the
            same hits. Not with ``borrow`` (a borrowed mesh's leaves already index the caller's vertices).

    Degenerate (zero-area) triangles are kept but never hit; T may be 0 (every ray misses). Raises
    :class:`fathom.OutOfRangeError` naming the first bad index or class, :class:`fathom.NotFiniteError`
    for NaN or infinite vertices.

    Thread safety: a mesh is immutable; any number of threads may query it at once.
    """

    __slots__ = ("_keep", "_info", "_compact")
    _destroy = _mesh_destroy

    def __init__(
        self,
        vertices: ArrayLike,
        triangles: ArrayLike,
        classes: Optional[ArrayLike] = None,
        *,
        borrow: bool = False,
        compact: bool = False,
    ) -> None:
        self._ptr = None  # so __del__ sees a valid (closed) object if a check below raises
        self._keep: Optional[tuple[Any, ...]] = None
        self._info: Optional[MeshInfoStruct] = None
        self._compact = bool(compact)
        if borrow and compact:
            raise ValueError("borrow=True and compact=True exclude each other: a borrowed mesh's leaves already "
                             "index the caller's vertices (compact=True copies them once and indexes the copy)")
        if borrow:
            v = _borrowed(vertices, "vertices", np.float32, (None, 3))
            t = _borrowed(triangles, "triangles", np.uint32, (None, 3))
            c = None if classes is None else _borrowed(classes, "classes", np.uint8, (t.shape[0],))
            v_ptr, v_count, v_stride = v.ctypes.data_as(FloatPtr), v.shape[0], 12
        else:
            if not isinstance(vertices, np.ndarray) and np.size(vertices) == 0:
                vertices = np.empty((0, 3), np.float32)  # [] is an empty vertex list, not shape (0,)
            vb = point_buffer(vertices, "vertices")
            v, v_ptr, v_count, v_stride = vb.array, vb.pointer, vb.count, vb.stride
            t = _integers(triangles, "triangles", "uint32", _UINT32_MAX, np.uint32)
            if t.ndim != 2 or t.shape[1] != 3:
                if t.size == 0:
                    t = t.reshape(0, 3)
                else:
                    raise ValueError(f"triangles must have shape (T, 3), got shape {t.shape}")
            t = np.ascontiguousarray(t, dtype=np.uint32)
            c = None
            if classes is not None:
                c = _integers(classes, "classes", "uint8", 255, np.uint8)
                if c.shape != (t.shape[0],):
                    raise ValueError(f"classes must have shape ({t.shape[0]},) (one per triangle), got shape {c.shape}")
                c = np.ascontiguousarray(c, dtype=np.uint8)
        out = MeshPtr()
        _mesh_create(
            v_ptr, v_count, v_stride, t.ctypes.data_as(POINTER(c_uint32)), t.shape[0],
            None if c is None else c.ctypes.data_as(POINTER(c_uint8)),
            _MESH_BORROW if borrow else _MESH_COMPACT if compact else _MESH_COPY, byref(out),
        )
        Handle.__init__(self, out)
        if borrow:
            self._keep = (v, t, c)

    @classmethod
    def from_arrays(
        cls,
        vertices: ArrayLike,
        triangles: ArrayLike,
        classes: Optional[ArrayLike] = None,
        *,
        borrow: bool = False,
        compact: bool = False,
    ) -> "Mesh":
        """The same as ``Mesh(vertices, triangles, classes, borrow=borrow, compact=compact)``."""
        return cls(vertices, triangles, classes, borrow=borrow, compact=compact)

    @classmethod
    def load(cls, path: PathLike) -> "Mesh":
        """Loads a Wavefront OBJ or a PLY file (ascii or binary little-endian; chosen by its contents).

        OBJ: ``v`` and ``f`` records, polygons fanned into triangles, negative indices allowed. PLY:
        vertex x y z (float or double), faces as a list of indices, and an optional uchar face property
        ``classification`` or ``label`` read as the class. Raises :class:`fathom.FathomIOError` if the file
        cannot be read, :class:`fathom.ParseError` / :class:`fathom.FormatError` naming the line (OBJ, ascii
        PLY) or byte offset (binary PLY) of the first problem.
        """
        out = MeshPtr()
        _mesh_load(path_bytes(path), byref(out))
        mesh = cls.__new__(cls)
        mesh._keep = None
        mesh._info = None
        mesh._compact = False
        Handle.__init__(mesh, out)
        return mesh

    def _release(self) -> None:
        self._keep = None

    # -- sizes --------------------------------------------------------------------------------------

    def _get_info(self) -> MeshInfoStruct:
        handle = self._handle()  # a closed mesh raises even when the numbers are cached
        info = self._info
        if info is None:
            info = MeshInfoStruct()
            _mesh_get_info(handle, byref(info))
            self._info = info  # immutable mesh: the numbers never change
        return info

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return int(self._get_info().vertex_count)

    @property
    def triangle_count(self) -> int:
        """Number of triangles (degenerate ones included)."""
        return int(self._get_info().triangle_count)

    @property
    def bounds(self) -> Bounds:
        """The axis-aligned bounds of all vertices, (min, max); zeros for an empty mesh."""
        info = self._get_info()
        return Bounds(vec3_from_c(info.bounds_min), vec3_from_c(info.bounds_max))

    @property
    def surface_area(self) -> float:
        """Sum of the triangles' areas, square meters."""
        return float(self._get_info().surface_area)

    @property
    def memory_bytes(self) -> int:
        """Bytes the library holds for this mesh: the BVH, a compact mesh's vertices and its copy of the classes
        (not the copies of the triangles and, unless borrowed or compact, of the vertices kept for export)."""
        return int(self._get_info().memory_bytes)

    @property
    def bvh_bytes(self) -> int:
        """Of :attr:`memory_bytes`, the BVH's: nodes and per triangle its vertices or, for a borrowed or compact
        mesh, its vertex indices."""
        return int(self._get_info().bvh_bytes)

    @property
    def bvh_nodes(self) -> int:
        """Number of BVH nodes."""
        return int(self._get_info().bvh_nodes)

    @property
    def bvh_depth(self) -> int:
        """Depth of the BVH's deepest leaf."""
        return int(self._get_info().bvh_depth)

    @property
    def bvh_width(self) -> int:
        """Children per BVH node."""
        return int(self._get_info().bvh_width)

    @property
    def borrowed(self) -> bool:
        """True if the library reads the caller's arrays (``borrow=True``) instead of copies."""
        return self._keep is not None

    @property
    def compact(self) -> bool:
        """True if made with ``compact=True``: the vertices copied once, the BVH's leaves indexing them."""
        return self._compact

    @property
    def face_normals(self) -> np.ndarray:
        """(T, 3) float32 unit normals, (v1 - v0) x (v2 - v0) normalized; 0 for degenerate triangles."""
        out = np.empty((self.triangle_count, 3), dtype=np.float32)
        _mesh_face_geometry(self._handle(), out.ctypes.data_as(FloatPtr), None)
        return out

    @property
    def face_areas(self) -> np.ndarray:
        """(T,) float32 triangle areas, square meters."""
        out = np.empty(self.triangle_count, dtype=np.float32)
        _mesh_face_geometry(self._handle(), None, out.ctypes.data_as(FloatPtr))
        return out

    # -- the input, and saving ----------------------------------------------------------------------

    @property
    def vertices(self) -> np.ndarray:
        """(V, 3) float32 vertices in the order given (unused ones included); a fresh copy."""
        out = np.empty((self.vertex_count, 3), dtype=np.float32)
        _mesh_vertices(self._handle(), out.ctypes.data_as(FloatPtr), out.shape[0])
        return out

    @property
    def triangles(self) -> np.ndarray:
        """(T, 3) uint32 vertex indices in the order given (degenerate triangles included); a fresh copy."""
        out = np.empty((self.triangle_count, 3), dtype=np.uint32)
        _mesh_triangles(self._handle(), out.ctypes.data_as(POINTER(c_uint32)), out.shape[0])
        return out

    @property
    def classes(self) -> Optional[np.ndarray]:
        """(T,) uint8 per-triangle :class:`MeshClass` values, or None when the mesh has no classes."""
        out = np.empty(self.triangle_count, dtype=np.uint8)
        status = _mesh_classes.raw(self._handle(), out.ctypes.data_as(POINTER(c_uint8)), out.shape[0])
        if status == NoDataError.STATUS:
            return None
        check_status(status)
        return out

    def save(self, path: PathLike) -> None:
        """Writes the mesh to ``path``: ``.ply`` (binary little-endian, with the classes) or ``.obj`` (no classes),
        chosen by the extension (any case; another extension raises :class:`fathom.FormatError`).
        :meth:`load` reads it back to the same vertices (bit for bit), triangles and (PLY) classes.

        Memory: for this (and :attr:`vertices`, :attr:`triangles`) a mesh keeps a copy of its indices (12 bytes
        per triangle) and, unless borrowed, of its vertices (12 bytes per vertex), not counted in
        :attr:`memory_bytes`.
        """
        _mesh_save(self._handle(), path_bytes(path))

    # -- one ray ------------------------------------------------------------------------------------

    def intersect(
        self, origin: ArrayLike, direction: ArrayLike, tmin: float = 0.0, tmax: float = math.inf
    ) -> Optional[Hit]:
        """The closest hit of one ray within [tmin, tmax], or None.

        Watertight: a ray through a shared edge or vertex of a closed mesh hits once, never zero times.
        """
        out = HitStruct()
        lo, hi = _range(tmin, tmax)
        _mesh_intersect(self._handle(), byref(_ray_struct(origin, direction)), lo, hi, byref(out))
        return Hit._from_c(out)

    def cast_all(
        self, origin: ArrayLike, direction: ArrayLike, tmin: float = 0.0, tmax: float = math.inf
    ) -> np.ndarray:
        """Every surface crossing of one ray within [tmin, tmax], sorted by t, as a :data:`HIT_DTYPE`
        array. A crossing through a shared edge or vertex is reported once."""
        ray = byref(_ray_struct(origin, direction))
        lo, hi = _range(tmin, tmax)
        # Room for 16 crossings first: a ray rarely crosses more, and then one call is enough.
        hits, count = sized(_mesh_intersect_all, (self._handle(), ray, lo, hi), _hit_array, guess=16)
        return hits[:count].copy() if count < len(hits) else hits

    # -- batches ------------------------------------------------------------------------------------

    def _batch(self, origins: Any, directions: Any, tmin: float, tmax: float, threads: int) -> tuple[Any, ...]:
        rays = _ray_array(origins, directions)
        lo, hi = _range(tmin, tmax)
        options = BatchOptionsStruct()
        _batch_options_init(byref(options))
        options.tmin, options.tmax, options.threads = lo, hi, _threads(threads)
        return self._handle(), rays, byref(options), options

    def cast(
        self,
        origins: ArrayLike,
        directions: Optional[ArrayLike] = None,
        tmin: float = 0.0,
        tmax: float = math.inf,
        threads: int = 0,
    ) -> np.ndarray:
        """Closest hits of many rays: an (N,) :data:`HIT_DTYPE` array (misses have ``primitive == NO_HIT``
        and ``t == inf``; :func:`fathom.hit_mask` gives the hits).

        Rays are ``origins`` (N, 3) and ``directions`` (N, 3) (either may be one (3,) row), or an
        (N, 6) ray array as ``origins`` with ``directions`` None (passed in place if float32 and
        C-contiguous). ``threads``: worker threads, 0 = one per CPU; the results do not depend on it.
        A ray with a zero or non-finite direction fails the whole call, naming its index, before any
        work. No rays give an empty array.
        """
        handle, rays, options, _keep = self._batch(origins, directions, tmin, tmax, threads)
        hits = empty_hits(len(rays))
        if len(rays):
            _mesh_intersect_batch(handle, _rays_ptr(rays), len(rays), options, _hits_ptr(hits))
        return hits

    def cast_compact(
        self,
        origins: ArrayLike,
        directions: Optional[ArrayLike] = None,
        tmin: float = 0.0,
        tmax: float = math.inf,
        threads: int = 0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Closest hits of many rays as distance and triangle only: ``(t, primitive)``, (N,) float32 and (N,)
        uint32 arrays (``inf`` and ``NO_HIT`` on a miss), the same values as :meth:`cast`'s ``t`` and
        ``primitive`` without the rest of the hit record (a depth map rendered from a mesh needs no more).
        Rays and ``threads`` as for :meth:`cast`."""
        handle, rays, options, _keep = self._batch(origins, directions, tmin, tmax, threads)
        t = np.empty(len(rays), dtype=np.float32)
        primitive = np.empty(len(rays), dtype=np.uint32)
        if len(rays):
            _mesh_intersect_batch_compact(
                handle, _rays_ptr(rays), len(rays), options, t.ctypes.data_as(FloatPtr),
                primitive.ctypes.data_as(POINTER(c_uint32)),
            )
        return t, primitive

    def ray_order(
        self,
        origins: ArrayLike,
        directions: Optional[ArrayLike] = None,
        tmin: float = 0.0,
        tmax: float = math.inf,
        threads: int = 0,
    ) -> np.ndarray:
        """The order in which the batch calls trace these rays: a (N,) uint32 array whose j-th entry is the
        index of the ray traced j-th (``arange(N)`` when the batch is traced in the caller's order: batches
        under 4096 rays, meshes under 1 MB). Rays, range and ``threads`` as for :meth:`cast`."""
        handle, rays, options, _keep = self._batch(origins, directions, tmin, tmax, threads)
        order = np.empty(len(rays), dtype=np.uint32)
        if len(rays):
            _mesh_ray_order(handle, _rays_ptr(rays), len(rays), options, order.ctypes.data_as(POINTER(c_uint32)))
        return order

    def occluded(
        self,
        origins: ArrayLike,
        directions: Optional[ArrayLike] = None,
        tmin: float = 0.0,
        tmax: float = math.inf,
        threads: int = 0,
    ) -> Any:
        """Whether each ray hits anything within [tmin, tmax] (faster than :meth:`cast`): a bool (N,) array.

        Rays as for :meth:`cast`. For one ray (``origins`` and ``directions`` both (3,)) returns a bool.
        """
        if directions is not None and np.ndim(origins) == 1 and np.ndim(directions) == 1:
            lo, hi = _range(tmin, tmax)
            _threads(threads)
            flag = c_bool(False)
            _mesh_occluded(self._handle(), byref(_ray_struct(origins, directions)), lo, hi, byref(flag))
            return bool(flag.value)
        handle, rays, options, _keep = self._batch(origins, directions, tmin, tmax, threads)
        out = np.zeros(len(rays), dtype=np.bool_)
        if len(rays):
            _mesh_occluded_batch(handle, _rays_ptr(rays), len(rays), options, out.ctypes.data_as(POINTER(c_bool)))
        return out

    def cast_all_batch(
        self,
        origins: ArrayLike,
        directions: Optional[ArrayLike] = None,
        tmin: float = 0.0,
        tmax: float = math.inf,
        threads: int = 0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every crossing of many rays: ``(hits, offsets)``.

        ``offsets`` is (N + 1,) uint64; ray i's crossings, sorted by t, are ``hits[offsets[i]:offsets[i+1]]``
        (so ``np.diff(offsets)`` counts the crossings per ray). Rays as for :meth:`cast`. The library is
        called twice: once to count the crossings, once to write them into an array of exactly that size.
        """
        handle, rays, options, _keep = self._batch(origins, directions, tmin, tmax, threads)
        n = len(rays)
        offsets = np.zeros(n + 1, dtype=np.uint64)
        if n == 0:
            return empty_hits(0), offsets
        hits, _ = sized(_mesh_intersect_all_batch, (handle, _rays_ptr(rays), n, options), _hit_array, offsets=offsets)
        return hits, offsets

    # -- display ------------------------------------------------------------------------------------

    def __repr__(self) -> str:
        if self._ptr is None:
            return "Mesh(<closed>)"
        lo, hi = self.bounds
        return (
            f"Mesh(vertices={self.vertex_count}, triangles={self.triangle_count}, "
            f"bounds=(({lo[0]:.6g}, {lo[1]:.6g}, {lo[2]:.6g}), ({hi[0]:.6g}, {hi[1]:.6g}, {hi[2]:.6g})), "
            f"bvh_nodes={self.bvh_nodes}{', borrowed' if self.borrowed else ''}{', compact' if self.compact else ''})"
        )
