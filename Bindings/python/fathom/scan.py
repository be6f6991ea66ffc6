"""Scans: the RGB-D capture files an iOS scanner app writes, read frame by frame and written back.

A scan is a handful of files named after its id ``<yyyyMMdd_HHmmss>_<device id>`` in one folder:

- ``<id>.json``: the metadata, one entry per stream (encoding, resolution ``[height, width]``, frame count);
- ``<id>.depth.zlib``: the depth frames (float16 meters, 256x192 on an iPhone; uint16 millimetres or float32
  from other writers), row by row, width fastest, little-endian, appended to one DEFLATE stream with no
  per-frame framing. The app writes raw DEFLATE (RFC 1951); zlib-wrapped streams (RFC 1950) are read too;
- ``<id>.confidence.zlib``: one byte per depth sample (0 low, 1 medium, 2 high), the same way (optional);
- ``<id>.jsonl``: one JSON object per frame: ``timestamp`` (nanoseconds since the device booted),
  ``intrinsics`` (3x3 column-major, pixels of the RGB image) and ``transform`` (4x4 column-major
  camera-to-world, ARKit camera axes: x right, y up, looking along -z). Other keys are ignored, and so
  are blank lines;
- ``<id>.mp4``: the RGB video (not read; the metadata gives its size, which the intrinsics refer to).

:class:`Scan` opens one by its folder, its metadata or any of its files. Opening reads the camera info and
inflates each stream once, in bounded memory, to count its whole frames and keep a checkpoint of the inflater
every 4 MiB of output: any frame is then read without inflating from the start, in any order. Poses within
1e-5 of rigid are kept as written; ARKit's float32 drift (up to 0.01) is re-orthonormalized (a warning says
how many and how far). :class:`ScanWriter` (and :func:`write_scan`) writes the same files, which :class:`Scan`
reads back bit for bit.

Damage: what is whole is kept, and every problem is one of :attr:`Scan.warnings`. A stream cut short keeps
its whole frames; a corrupt stream keeps the frames that inflated before the damaged DEFLATE block; bytes
after the end of the stream are ignored; when the streams, the camera info and the metadata disagree on the
number of frames, the shortest count is read. A scan without a single frame readable in every stream is an
error, never an empty scan: a missing file raises :class:`fathom.FathomIOError`, an empty or garbage file
:class:`fathom.FormatError` or :class:`fathom.ParseError`, and a bad camera-info line names the file, the
line number and the key. Every message names the file.

Thread safety: a :class:`Scan` is immutable once open and may be read from many threads at once (the library
serializes the inflation of its streams; the GIL is released during every library call). Do not close it
while another thread still reads it. A :class:`ScanWriter` is not thread-safe. A :class:`Scan` pickles by
its path (it is opened again on unpickling), so it can be handed to worker processes.
"""

from __future__ import annotations

import math
import os
from ctypes import POINTER, byref, c_char, c_char_p, c_int64, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p
from enum import IntEnum
from typing import Any, Callable, Iterator, Optional, Sequence, Union

import numpy as np

from ._arrays import pose_struct, poses_column_major
from ._handle import Handle
from ._progress import with_progress
from ._lib import (
    DepthFrameStruct,
    IntrinsicsPtr,
    IntrinsicsStruct,
    PosePtr,
    PoseStruct,
    PointCloudPtr,
    ProgressFn,
    ScanCloudOptionsStruct,
    ScanInfoStruct,
    ScanOpenOptionsStruct,
    ScanPtr,
    ScanWriterOptionsStruct,
    ScanWriterPtr,
    c_function,
    status_function,
)
from ._scalars import PathLike, enum_member, path_bytes, uint32
from ._sized import sized_text
from .camera import Intrinsics
from .depth import DepthFormat, DepthFrame
from .geometry import Pose, PoseLike

__all__ = ["Scan", "ScanFormat", "ScanWriter", "write_scan"]


class ScanFormat(IntEnum):
    """The capture formats a :class:`Scan` reads (``fathom_scan_format``): the iOS scanner app's files
    (``SCANNER``), a Stray Scanner folder (``STRAY``), a nerfstudio-style folder with depth PNGs (``NERFSTUDIO``,
    read only)."""

    SCANNER = 0
    STRAY = 1
    NERFSTUDIO = 2


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

#: numpy mirror of ``fathom_intrinsics`` (six 4-byte fields, 24 bytes), to read them in one call.
_INTRINSICS_DTYPE = np.dtype(
    [("fx", "<f4"), ("fy", "<f4"), ("cx", "<f4"), ("cy", "<f4"), ("width", "<u4"), ("height", "<u4")]
)

_STORED_DTYPES = {
    DepthFormat.FLOAT32: np.dtype("<f4"),
    DepthFormat.FLOAT16: np.dtype("<f2"),
    DepthFormat.UINT16: np.dtype("<u2"),
}


# ------------------------------------------------------------------------------------------------
# Reading
# ------------------------------------------------------------------------------------------------

_scan_open = status_function("fathom_scan_open", c_char_p, POINTER(ScanPtr))
_scan_open_options_init = status_function("fathom_scan_open_options_init", POINTER(ScanOpenOptionsStruct))
_scan_open_with = status_function("fathom_scan_open_with", c_char_p, POINTER(ScanOpenOptionsStruct), POINTER(ScanPtr))
_scan_destroy = c_function("fathom_scan_destroy", None, ScanPtr)
_scan_get_info = status_function("fathom_scan_get_info", ScanPtr, POINTER(ScanInfoStruct))
_scan_id = status_function("fathom_scan_id", ScanPtr, POINTER(c_char), c_size_t, POINTER(c_size_t))
_scan_warning = status_function("fathom_scan_warning", ScanPtr, c_uint32, POINTER(c_char), c_size_t, POINTER(c_size_t))
_scan_timestamps = status_function("fathom_scan_timestamps", ScanPtr, POINTER(c_int64), c_size_t)
_scan_poses = status_function("fathom_scan_poses", ScanPtr, PosePtr, c_size_t)
_scan_intrinsics = status_function("fathom_scan_intrinsics", ScanPtr, IntrinsicsPtr, c_size_t)
_scan_write = status_function("fathom_scan_write", ScanPtr, c_char_p, c_uint32, ProgressFn, c_void_p)
_scan_read_depth = status_function("fathom_scan_read_depth", ScanPtr, c_uint64, c_void_p, c_size_t)
_scan_read_confidence = status_function("fathom_scan_read_confidence", ScanPtr, c_uint64, POINTER(c_uint8), c_size_t)
_scan_cloud_options_init = status_function("fathom_scan_cloud_options_init", POINTER(ScanCloudOptionsStruct))
_scan_point_cloud = status_function("fathom_scan_point_cloud", ScanPtr, POINTER(ScanCloudOptionsStruct), POINTER(PointCloudPtr))
_scan_frame = status_function(
    "fathom_scan_frame", ScanPtr, c_uint64, c_void_p, c_size_t, POINTER(c_uint8), c_size_t, POINTER(DepthFrameStruct)
)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class Scan(Handle):
    """An opened scan (a ``fathom_scan`` handle): frames read on demand, in any order, from many threads.

    Three formats are read, found from what is at ``path`` (:attr:`format`): the iOS scanner app's files, a Stray
    Scanner folder (``camera_matrix.csv``, ``odometry.csv``, ``depth/`` and ``confidence/`` PNGs; its OpenCV-axes
    poses are turned to ARKit's) and a nerfstudio-style ``transforms.json`` whose frames carry ``depth_file_path``
    PNGs (millimetres unless ``depth_unit_scale_factor`` says otherwise; no timestamps: frames 1/30 s apart).
    PNG depth reads as float32 meters. A frame whose PNG is missing or cut is skipped, dropped frames are
    found from the timestamps; each is one of :attr:`warnings`.

    Args:
        path: the scan's folder (holding one scan), or any of its files.
        index_while_reading: False (default): the scanner app's streams are inflated at opening, to count their
            whole frames and find damage (said in :attr:`warnings`). True: only their first frame is, the rest
            as frames are read, so reading every frame in order inflates each stream once; ``len(scan)`` is then
            the frames the camera info and the metadata list, and a read that meets damage raises
            :class:`fathom.FormatError` naming it (:meth:`report` stops there and says so in its warnings).
            Stray and nerfstudio folders are read frame by frame either way.

    Raises :class:`fathom.FathomIOError` for a missing or unreadable file, :class:`fathom.ParseError` or
    :class:`fathom.FormatError` for metadata that is not a scan's, a bad camera-info line (naming the line
    and the key) or a stream with no whole frame; the message names the file.

    ``len(scan)`` frames; ``scan[i]`` and iteration give :class:`fathom.DepthFrame` objects (see
    :meth:`frame`); :meth:`depth` and :meth:`confidence` give the stored arrays. Per-frame metadata
    (:attr:`timestamps`, :attr:`poses`, :attr:`intrinsics`) is read once at open. What was damaged but
    readable is in :attr:`warnings`. Close with :meth:`close` or a ``with`` block (or let the garbage
    collector do it). Pickling stores the path; unpickling opens the scan again.
    """

    __slots__ = ("_path", "_lazy", "_info", "_id", "_warnings", "_timestamps", "_columns", "_poses", "_intrinsics", "_k")
    _destroy = _scan_destroy

    def __init__(self, path: PathLike, index_while_reading: bool = False) -> None:
        self._ptr = None  # so __del__ sees a valid (closed) object if opening raises
        raw = path_bytes(path)
        out = ScanPtr()
        if index_while_reading:
            options = ScanOpenOptionsStruct()
            _scan_open_options_init(byref(options))
            options.index_while_reading = True
            _scan_open_with(raw, byref(options), byref(out))
        else:
            _scan_open(raw, byref(out))
        Handle.__init__(self, out)
        self._path = path
        self._lazy = bool(index_while_reading)
        info = ScanInfoStruct()
        _scan_get_info(out, byref(info))
        self._info = info
        n = int(info.frame_count)
        self._id = sized_text(_scan_id, out, errors="replace")
        self._warnings = [sized_text(_scan_warning, out, i, errors="replace") for i in range(int(info.warning_count))]
        timestamps = np.empty(n, dtype=np.int64)
        _scan_timestamps(out, timestamps.ctypes.data_as(POINTER(c_int64)), n)
        self._timestamps = _readonly(timestamps)
        columns = np.empty((n, 16), dtype=np.float32)
        _scan_poses(out, columns.ctypes.data_as(PosePtr), n)
        self._columns = columns  # column-major, as the library gives them (for Pose objects)
        self._poses = _readonly(columns.reshape(n, 4, 4).transpose(0, 2, 1).astype(np.float64, order="C"))
        k = np.empty(n, dtype=_INTRINSICS_DTYPE)
        _scan_intrinsics(out, k.ctypes.data_as(IntrinsicsPtr), n)
        self._k = k
        m = np.zeros((n, 3, 3), dtype=np.float64)
        m[:, 0, 0], m[:, 1, 1], m[:, 0, 2], m[:, 1, 2], m[:, 2, 2] = k["fx"], k["fy"], k["cx"], k["cy"], 1.0
        self._intrinsics = _readonly(m)

    @classmethod
    def open(cls, path: PathLike, index_while_reading: bool = False) -> "Scan":
        """Opens the scan at ``path`` (its folder, its metadata ``.json`` or any of its files); see :class:`Scan`."""
        return cls(path, index_while_reading)

    def __reduce__(self) -> Any:
        return (Scan.open, (self._path, self._lazy))

    # -- what the scan holds ----------------------------------------------------------------------

    def __len__(self) -> int:
        self._handle()
        return int(self._info.frame_count)

    @property
    def path(self) -> PathLike:
        """The path the scan was opened with."""
        return self._path

    @property
    def index_while_reading(self) -> bool:
        """Whether the scan was opened to index its streams as frames are read (see :class:`Scan`)."""
        return self._lazy

    @property
    def id(self) -> str:
        """The scan id: the files' common stem (``<yyyyMMdd_HHmmss>_<device id>``)."""
        return self._id

    @property
    def depth_size(self) -> tuple[int, int]:
        """(width, height) of the depth grid (the metadata's ``resolution`` is [height, width])."""
        return int(self._info.depth_width), int(self._info.depth_height)

    @property
    def rgb_size(self) -> tuple[int, int]:
        """(width, height) of the RGB image the intrinsics refer to."""
        return int(self._info.rgb_width), int(self._info.rgb_height)

    @property
    def depth_format(self) -> DepthFormat:
        """How depth is stored: ``FLOAT16`` (meters, as the app writes), ``UINT16`` or ``FLOAT32``."""
        return DepthFormat(int(self._info.depth_format))

    @property
    def depth_scale(self) -> float:
        """Meters per stored depth unit (1, or 0.001 for uint16 millimetres)."""
        return float(self._info.depth_scale)

    @property
    def has_confidence(self) -> bool:
        """True if the scan has a confidence stream."""
        return bool(self._info.has_confidence)

    @property
    def frequency(self) -> Optional[float]:
        """Frames per second stated by the metadata, or None."""
        f = float(self._info.frequency)
        return f if f > 0 else None

    @property
    def format(self) -> ScanFormat:
        """The format the scan was read from."""
        return ScanFormat(int(self._info.format))

    def write(
        self,
        directory: PathLike,
        format: Union[ScanFormat, str] = "scanner",  # noqa: A002 - the library's word
        progress: Optional[Callable[[int, int], Any]] = None,
    ) -> str:
        """Writes every frame into ``directory`` as ``format`` (``"scanner"`` or ``"stray"``) and returns the path to
        open the copy by (the scanner metadata ``.json``, or the Stray folder).

        Timestamps, intrinsics and confidence are kept exactly; a Stray copy rounds depth to the millimetre (exact
        for millimetre sources) and stores poses as quaternions in OpenCV axes (within float rounding); a scanner
        copy keeps the stored depth (millimetre PNG sources as uint16 millimetres, the same meters; PNG sources in
        other units as float32 meters).
        ``progress(done, total)`` returning False stops the work (:class:`fathom.InvalidStateError`).
        """
        target = enum_member(format, ScanFormat, "format")
        with_progress(progress, lambda callback: _scan_write(self._handle(), path_bytes(directory), int(target), callback, None))
        folder = os.fsdecode(directory)
        if target == ScanFormat.STRAY:
            return folder
        stem = self.id if self.id and not any(c in self.id for c in "/.\0") else "scan"
        return os.path.join(folder, stem + ".json")

    @property
    def warnings(self) -> list[str]:
        """What was wrong but readable (a cut or corrupt stream, disagreeing counts, repaired poses)."""
        return list(self._warnings)

    @property
    def timestamps(self) -> np.ndarray:
        """(N,) int64: each frame's time, nanoseconds since the device booted (read-only)."""
        return self._timestamps

    @property
    def poses(self) -> np.ndarray:
        """(N, 4, 4) float64 camera-to-world matrices, rows as rows (ARKit camera axes; read-only)."""
        return self._poses

    @property
    def intrinsics(self) -> np.ndarray:
        """(N, 3, 3) float64 RGB camera matrices ``[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``, pixels (read-only)."""
        return self._intrinsics

    @property
    def duration(self) -> float:
        """Seconds from the first frame's timestamp to the last's."""
        t = self._timestamps
        return float(t[-1] - t[0]) * 1e-9 if len(t) else 0.0

    # -- per frame --------------------------------------------------------------------------------

    def _index(self, index: Any) -> int:
        """``index`` as a frame number in 0..N-1 (negative counts from the end), or IndexError."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"frame index must be an int, got {type(index).__name__}")
        n = len(self)
        i = int(index)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"frame index {int(index)} is out of range for a scan of {n} frames")
        return i

    def pose(self, index: int) -> Pose:
        """Frame ``index``'s camera-to-world :class:`fathom.Pose`."""
        i = self._index(index)
        c = PoseStruct()
        c.m[:] = self._columns[i].tolist()
        return Pose._wrap(c)

    def rgb_intrinsics(self, index: int) -> Intrinsics:
        """Frame ``index``'s :class:`fathom.Intrinsics` of the RGB image (:attr:`rgb_size`)."""
        k = self._k[self._index(index)]
        return Intrinsics(float(k["fx"]), float(k["fy"]), float(k["cx"]), float(k["cy"]), int(k["width"]), int(k["height"]))

    def depth(self, index: int, raw: bool = False) -> np.ndarray:
        """Frame ``index``'s depth, (height, width).

        float16 streams give float16 meters as stored; float32 streams float32 meters; uint16 streams give
        float32 meters (the stored value times :attr:`depth_scale`, in float32), or with ``raw=True`` the
        stored uint16 values.
        """
        i = self._index(index)
        w, h = self.depth_size
        fmt = self.depth_format
        out = np.empty((h, w), dtype=_STORED_DTYPES[fmt])
        _scan_read_depth(self._handle(), i, out.ctypes.data_as(c_void_p), out.nbytes)
        if fmt == DepthFormat.UINT16 and not raw:
            return out.astype(np.float32) * np.float32(self.depth_scale)
        return out

    def confidence(self, index: int) -> np.ndarray:
        """Frame ``index``'s confidence, (height, width) uint8: 0 low, 1 medium, 2 high.

        Raises :class:`fathom.NoDataError` when the scan has no confidence stream.
        """
        i = self._index(index)
        w, h = self.depth_size
        out = np.empty((h, w), dtype=np.uint8)
        _scan_read_confidence(self._handle(), i, out.ctypes.data_as(POINTER(c_uint8)), out.nbytes)
        return out

    def frame(
        self, index: int, min_confidence: int = 0, min_depth: float = 0.0, max_depth: float = math.inf
    ) -> DepthFrame:
        """Frame ``index`` as a :class:`fathom.DepthFrame`: its stored depth (scaled by the frame for uint16),
        its confidence (if the scan has one), the frame's RGB intrinsics and its camera-to-world pose, so
        :meth:`fathom.DepthFrame.backproject` gives world points directly.

        ``min_confidence``, ``min_depth`` and ``max_depth`` (meters) decide which samples are valid, as for
        :class:`fathom.DepthFrame`.
        """
        i = self._index(index)
        w, h = self.depth_size
        depth = np.empty((h, w), dtype=_STORED_DTYPES[self.depth_format])
        confidence = np.empty((h, w), dtype=np.uint8) if self.has_confidence else None
        c = DepthFrameStruct()
        _scan_frame(
            self._handle(), i, depth.ctypes.data_as(c_void_p), depth.nbytes,
            None if confidence is None else confidence.ctypes.data_as(POINTER(c_uint8)),
            0 if confidence is None else confidence.nbytes, byref(c),
        )
        k = Intrinsics._from_c(c.intrinsics)
        pose = Pose._wrap(PoseStruct.from_buffer_copy(c.camera_to_world))
        return DepthFrame(
            depth, k, confidence if c.confidence else None, min_confidence=min_confidence, min_depth=min_depth,
            max_depth=max_depth, scale=float(c.scale), pose=pose,
        )

    def point_cloud(
        self, min_confidence: int = 2, max_depth: float = math.inf, voxel: Optional[float] = None, step: int = 1
    ) -> np.ndarray:
        """The scan's depth as world points: (M, 3) float32, meters.

        The valid samples of every ``step``-th frame (confidence >= ``min_confidence``, which a scan without a
        confidence stream skips; depth <= ``max_depth``), back-projected with each frame's depth intrinsics and
        pose, frame by frame and row by row; with ``voxel`` (meters, 1e-4 to 10), one point per voxel instead, the
        mean of its samples. Without ``voxel`` a long scan gives many points (49,152 per 256 x 192 frame).
        """
        for name, value in (("min_confidence", min_confidence), ("step", step)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if not 0 <= int(min_confidence) <= 255:
            raise ValueError(f"min_confidence must be in 0..255, got {min_confidence}")
        if not 1 <= int(step) < 2**32:
            raise ValueError(f"step must be >= 1, got {step}")
        options = ScanCloudOptionsStruct()
        _scan_cloud_options_init(byref(options))
        options.min_confidence = int(min_confidence)
        options.max_depth = float(max_depth)
        options.voxel = 0.0 if voxel is None else float(voxel)
        if voxel is not None and not options.voxel > 0:
            raise ValueError(f"voxel must be > 0 (or None), got {voxel}")
        options.frame_step = int(step)
        out = PointCloudPtr()
        _scan_point_cloud(self, byref(options), byref(out))
        from .pointcloud import PointCloud

        with PointCloud._from_pointer(out) as cloud:
            return cloud.points

    def __getitem__(self, index: Union[int, slice]) -> Union[DepthFrame, list[DepthFrame]]:
        """``scan[i]`` is ``scan.frame(i)``; a slice gives a list of frames."""
        if isinstance(index, slice):
            return [self.frame(i) for i in range(len(self))[index]]
        return self.frame(index)

    def __iter__(self) -> Iterator[DepthFrame]:
        for i in range(len(self)):
            yield self.frame(i)

    def __repr__(self) -> str:
        if self._ptr is None:
            return f"Scan({os.fsdecode(self._path)!r}, <closed>)"
        (w, h), (rw, rh) = self.depth_size, self.rgb_size
        f = self.frequency
        parts = [
            f"id={self._id!r}", f"frames={len(self)}", f"depth={w}x{h} {self.depth_format.name.lower()}",
            f"rgb={rw}x{rh}",
        ]
        if f is not None:
            parts.append(f"{f:g} Hz")
        parts.append("confidence" if self.has_confidence else "no confidence")
        if self._lazy:
            parts.append("indexed while reading")
        if self._warnings:
            parts.append(f"{len(self._warnings)} warning{'s' if len(self._warnings) > 1 else ''}")
        return f"Scan({os.fsdecode(self._path)!r}, {', '.join(parts)})"


# ------------------------------------------------------------------------------------------------
# Writing
# ------------------------------------------------------------------------------------------------

_writer_options_init = status_function("fathom_scan_writer_options_init", POINTER(ScanWriterOptionsStruct))
_writer_create = status_function(
    "fathom_scan_writer_create", c_char_p, c_char_p, POINTER(ScanWriterOptionsStruct), POINTER(ScanWriterPtr)
)
_writer_append = status_function(
    "fathom_scan_writer_append", ScanWriterPtr, c_int64, IntrinsicsPtr, PosePtr, c_void_p, c_size_t,
    POINTER(c_uint8), c_size_t,
)
_writer_finish = status_function("fathom_scan_writer_finish", ScanWriterPtr)
_writer_destroy = c_function("fathom_scan_writer_destroy", None, ScanWriterPtr)


def _pair(value: Any, name: str) -> tuple[int, int]:
    try:
        w, h = value
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be (width, height), got {value!r}") from None
    return uint32(w, f"{name} width"), uint32(h, f"{name} height")


def _timestamp(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"timestamp must be an int (nanoseconds), got {type(value).__name__}")
    t = int(value)
    if not _INT64_MIN <= t <= _INT64_MAX:
        raise ValueError(f"timestamp must fit in int64 nanoseconds, got {t}")
    return t


class ScanWriter(Handle):
    """Writes a scan in the app's files (a ``fathom_scan_writer`` handle), readable by :class:`Scan`.

    Args:
        directory: the folder (created if missing; files of the same names are replaced).
        scan_id: the files' stem, a name without '/' or '.' (the app uses ``<yyyyMMdd_HHmmss>_<device id>``).
        depth_size: (width, height) of the depth grid, default (256, 192).
        rgb_size: (width, height) of the RGB image the intrinsics refer to, default (1920, 1440).
        depth_format: ``"float16"`` (meters, as the app writes), ``"uint16"`` (millimetres) or ``"float32"``
            (meters), or a :class:`fathom.DepthFormat`.
        confidence: write a confidence stream (then every frame needs one).
        zlib_wrapped: write zlib-wrapped streams instead of the app's raw DEFLATE.
        frequency: frames per second stated in the metadata.

    :meth:`append` adds frames; :meth:`finish` ends the streams and writes the metadata, without which the
    scan cannot be opened. As a context manager it finishes on a clean exit (and only closes after an
    exception). Not thread-safe.
    """

    __slots__ = ("_directory", "_scan_id", "_options", "_count")
    _destroy = _writer_destroy

    def __init__(
        self,
        directory: PathLike,
        scan_id: str,
        depth_size: Sequence[int] = (256, 192),
        rgb_size: Sequence[int] = (1920, 1440),
        depth_format: Union[str, DepthFormat] = "float16",
        confidence: bool = True,
        zlib_wrapped: bool = False,
        frequency: float = 60,
    ) -> None:
        self._ptr = None  # so __del__ sees a valid (closed) object if a check below raises
        if not isinstance(scan_id, str):
            raise TypeError(f"scan_id must be a str, got {type(scan_id).__name__}")
        o = ScanWriterOptionsStruct()
        _writer_options_init(byref(o))
        o.depth_width, o.depth_height = _pair(depth_size, "depth_size")
        o.rgb_width, o.rgb_height = _pair(rgb_size, "rgb_size")
        o.depth_format = int(enum_member(depth_format, DepthFormat, "depth_format"))
        o.with_confidence = 1 if confidence else 0
        o.zlib_wrapped = 1 if zlib_wrapped else 0
        if isinstance(frequency, bool) or not isinstance(frequency, (int, float, np.integer, np.floating)):
            raise TypeError(f"frequency must be a number (frames per second), got {type(frequency).__name__}")
        o.frequency = float(frequency)
        out = ScanWriterPtr()
        _writer_create(path_bytes(directory, "directory"), path_bytes(scan_id, "scan_id"), byref(o), byref(out))
        Handle.__init__(self, out)
        self._directory = directory
        self._scan_id = scan_id
        self._options = o
        self._count = 0

    @property
    def directory(self) -> PathLike:
        return self._directory

    @property
    def scan_id(self) -> str:
        return self._scan_id

    @property
    def metadata_path(self) -> str:
        """The metadata file :meth:`finish` writes (what :meth:`Scan.open` takes)."""
        return os.path.join(os.fsdecode(self._directory), self._scan_id + ".json")

    @property
    def depth_size(self) -> tuple[int, int]:
        return int(self._options.depth_width), int(self._options.depth_height)

    @property
    def rgb_size(self) -> tuple[int, int]:
        return int(self._options.rgb_width), int(self._options.rgb_height)

    @property
    def depth_format(self) -> DepthFormat:
        return DepthFormat(int(self._options.depth_format))

    @property
    def count(self) -> int:
        """Frames appended so far."""
        return self._count

    def __len__(self) -> int:
        return self._count

    def _depth(self, depth: Any) -> np.ndarray:
        fmt = self.depth_format
        dtype = _STORED_DTYPES[fmt]
        a = depth if isinstance(depth, np.ndarray) else np.asarray(depth)
        w, h = self.depth_size
        if a.shape != (h, w):
            raise ValueError(f"depth must have shape (height, width) = {(h, w)}, got shape {a.shape}")
        if fmt == DepthFormat.UINT16:
            if a.dtype.kind not in "ui":
                raise TypeError(f"depth of a uint16 scan must be an integer array (millimetres), got dtype {a.dtype}")
            if a.dtype != dtype:
                if a.size and (int(a.min()) < 0 or int(a.max()) > 0xFFFF):
                    raise ValueError("depth of a uint16 scan must hold values in 0..65535 (millimetres)")
                a = a.astype(dtype)
        else:
            if a.dtype.kind != "f":
                raise TypeError(f"depth of a {fmt.name.lower()} scan must be a float array (meters), got dtype {a.dtype}")
            if a.dtype != dtype:
                a = a.astype(dtype)  # one explicit conversion (float32/float64 -> float16 rounds to nearest)
        return np.ascontiguousarray(a)

    def _confidence(self, confidence: Any) -> Optional[np.ndarray]:
        if confidence is None:
            return None
        a = confidence if isinstance(confidence, np.ndarray) else np.asarray(confidence)
        w, h = self.depth_size
        if a.shape != (h, w):
            raise ValueError(f"confidence must have shape (height, width) = {(h, w)}, got shape {a.shape}")
        if a.dtype != np.uint8:
            if a.dtype.kind not in "uib":
                raise TypeError(f"confidence must be an integer array (0 low, 1 medium, 2 high), got dtype {a.dtype}")
            if a.size and (int(a.min()) < 0 or int(a.max()) > 255):
                raise ValueError("confidence values must be 0, 1 or 2")
            a = a.astype(np.uint8)
        return np.ascontiguousarray(a)

    def _intrinsics(self, intrinsics: Any) -> IntrinsicsStruct:
        rw, rh = self.rgb_size
        if isinstance(intrinsics, Intrinsics):
            if (intrinsics.width, intrinsics.height) != (rw, rh):
                raise ValueError(
                    f"intrinsics are for a {intrinsics.width}x{intrinsics.height} image, the scan's RGB image is "
                    f"{rw}x{rh} (use intrinsics.scaled({rw}, {rh}) if they are the same camera)"
                )
            return intrinsics._to_c()
        m = np.asarray(intrinsics, dtype=np.float64)
        if m.shape != (3, 3):
            raise ValueError(f"intrinsics must be a fathom.Intrinsics or a (3, 3) camera matrix, got shape {m.shape}")
        return IntrinsicsStruct(float(m[0, 0]), float(m[1, 1]), float(m[0, 2]), float(m[1, 2]), rw, rh)

    def append(
        self, timestamp_ns: int, intrinsics: Union[Intrinsics, Any], pose: PoseLike, depth: Any,
        confidence: Optional[Any] = None,
    ) -> None:
        """Appends one frame.

        Args:
            timestamp_ns: int nanoseconds (since the device booted); must not decrease.
            intrinsics: the RGB image's :class:`fathom.Intrinsics` (of :attr:`rgb_size`) or a (3, 3) matrix
                ``[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``.
            pose: camera-to-world :class:`fathom.Pose` or (4, 4) matrix, rigid within
                :data:`fathom.RIGID_TOLERANCE` (written as given, in float32).
            depth: (height, width) array of the stored kind: floats for float16/float32 scans (meters; other
                float dtypes are converted once, explicitly), integers for uint16 scans (millimetres).
            confidence: (height, width) uint8 array of 0, 1, 2: required when the writer has a confidence
                stream, None otherwise.

        A refused frame writes nothing (:class:`fathom.OutOfRangeError` for a bad value or an earlier
        timestamp, :class:`fathom.NotRigidError` for a pose that is not rigid).
        """
        t = _timestamp(timestamp_ns)
        k = self._intrinsics(intrinsics)
        p = pose_struct(pose, "pose")
        d = self._depth(depth)
        c = self._confidence(confidence)
        _writer_append(
            self._handle(), t, byref(k), byref(p), d.ctypes.data_as(c_void_p), d.nbytes,
            None if c is None else c.ctypes.data_as(POINTER(c_uint8)), 0 if c is None else c.nbytes,
        )
        self._count += 1

    def finish(self) -> str:
        """Ends the streams and writes the metadata; returns its path. No frame may follow."""
        _writer_finish(self._handle())
        return self.metadata_path

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        try:
            if exc_type is None and self._ptr is not None:
                self.finish()
        finally:
            self.close()

    def __repr__(self) -> str:
        state = "<closed>" if self._ptr is None else f"frames={self._count}"
        w, h = self.depth_size
        return (
            f"ScanWriter({os.fsdecode(self._directory)!r}, {self._scan_id!r}, depth={w}x{h} "
            f"{self.depth_format.name.lower()}, {state})"
        )


def _intrinsics_list(intrinsics: Any, n: int) -> list[Any]:
    """N per-frame intrinsics (Intrinsics objects or (3, 3) matrices) from one or N of them."""
    if isinstance(intrinsics, Intrinsics):
        return [intrinsics] * n
    if isinstance(intrinsics, (list, tuple)) and intrinsics and all(isinstance(k, Intrinsics) for k in intrinsics):
        ks = list(intrinsics)
    else:
        a = np.asarray(intrinsics, dtype=np.float64)
        if a.shape == (3, 3):
            return [a] * n
        if a.ndim != 3 or a.shape[1:] != (3, 3):
            raise ValueError(f"intrinsics must be (N, 3, 3), (3, 3) or fathom.Intrinsics, got shape {a.shape}")
        ks = list(a)
    if len(ks) != n:
        raise ValueError(f"intrinsics holds {len(ks)} entries for {n} timestamps")
    return ks


_FORMAT_OF_DTYPE = {np.dtype(np.float16): "float16", np.dtype(np.uint16): "uint16", np.dtype(np.float32): "float32"}


def write_scan(
    directory: PathLike,
    scan_id: str,
    timestamps: Any,
    poses: Any,
    intrinsics: Any,
    depths: Any,
    confidences: Optional[Any] = None,
    **options: Any,
) -> str:
    """Writes a whole scan at once; returns the metadata path (what :meth:`Scan.open` takes).

    Args:
        timestamps: (N,) int nanoseconds.
        poses: (N, 4, 4) camera-to-world matrices or N :class:`fathom.Pose` objects (or (4, 4) matrices).
        intrinsics: (N, 3, 3) RGB camera matrices, N :class:`fathom.Intrinsics`, or one of either for every frame.
        depths: (N, height, width) depth array (or a sequence of N maps).
        confidences: (N, height, width) uint8, or None for a scan without confidence.
        **options: :class:`ScanWriter` settings. ``depth_size`` defaults to the depth maps' size, ``depth_format``
            to their dtype (float16, uint16 or float32; float16 for other float dtypes), ``confidence`` to
            whether ``confidences`` is given, and ``rgb_size`` to that of the first :class:`fathom.Intrinsics`.
    """
    t = np.asarray(timestamps)
    if t.ndim != 1:
        raise ValueError(f"timestamps must have shape (N,), got shape {t.shape}")
    if t.size and t.dtype.kind not in "iu":
        raise TypeError(f"timestamps must be integers (nanoseconds), got dtype {t.dtype}")
    n = t.shape[0]
    if not isinstance(depths, np.ndarray):
        depths = list(depths)
    if len(depths) != n:
        raise ValueError(f"depths holds {len(depths)} maps for {n} timestamps")
    first = np.asarray(depths[0]) if n else None
    dtype = depths.dtype if isinstance(depths, np.ndarray) else (first.dtype if first is not None else None)
    if "depth_size" not in options and first is not None and np.ndim(first) == 2:
        options["depth_size"] = (int(np.shape(first)[1]), int(np.shape(first)[0]))
    if "depth_format" not in options:
        options["depth_format"] = _FORMAT_OF_DTYPE.get(np.dtype(dtype), "float16") if dtype is not None else "float16"
    options.setdefault("confidence", confidences is not None)
    ks = _intrinsics_list(intrinsics, n)
    if "rgb_size" not in options and ks and isinstance(ks[0], Intrinsics):
        options["rgb_size"] = (ks[0].width, ks[0].height)
    columns = poses_column_major(poses, "poses")  # checked before anything is written
    if len(columns) != n:
        raise ValueError(f"poses holds {len(columns)} entries for {n} timestamps")
    if confidences is not None and len(confidences) != n:
        raise ValueError(f"confidences holds {len(confidences)} maps for {n} timestamps")
    with ScanWriter(directory, scan_id, **options) as writer:
        for i in range(n):
            pose = columns[i].reshape(4, 4).T  # back to rows as rows, as append takes a matrix
            writer.append(int(t[i]), ks[i], pose, depths[i], None if confidences is None else confidences[i])
    return writer.metadata_path
