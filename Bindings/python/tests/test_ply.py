"""Point clouds as PLY: our files read by plyfile (an independent reader), plyfile's files (vertices only,
double xyz, big-endian, extra properties and elements, ascii) read by us, round trips, and bad files and
arguments with the status and a message naming the file, line or byte offset.

plyfile is a test dependency only (the Makefile installs it)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import fathom

plyfile = pytest.importorskip("plyfile", reason="plyfile is needed to check PLY files independently")
from plyfile import PlyData, PlyElement  # noqa: E402


def _cloud_arrays(rng: np.random.Generator, n: int = 57) -> dict[str, np.ndarray]:
    points = rng.normal(scale=3.0, size=(n, 3)).astype(np.float32)
    points[0] = (1e-30, -1e30, 0.0)  # extreme magnitudes survive ascii as well
    points[1] = (-0.0, 1.0 / 3.0, 123456.789)
    normals = rng.normal(size=(n, 3))
    normals = (normals / np.linalg.norm(normals, axis=1, keepdims=True)).astype(np.float32)
    colors = rng.integers(0, 256, size=(n, 3), dtype=np.uint8)
    colors[0] = (0, 255, 128)
    confidence = rng.integers(0, 3, size=n, dtype=np.uint8)
    return {"points": points, "normals": normals, "colors": colors, "confidence": confidence}


OPTIONS = list(itertools.product([False, True], repeat=3))


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "ascii"])
@pytest.mark.parametrize("with_normals,with_colors,with_confidence", OPTIONS)
def test_plyfile_reads_our_files(tmp_path: Path, rng: np.random.Generator, binary: bool, with_normals: bool,
                                 with_colors: bool, with_confidence: bool) -> None:
    a = _cloud_arrays(rng)
    path = tmp_path / "cloud.ply"
    fathom.write_ply(path, a["points"], normals=a["normals"] if with_normals else None,
                     colors=a["colors"] if with_colors else None,
                     confidence=a["confidence"] if with_confidence else None, binary=binary)
    ply = PlyData.read(str(path))
    assert ply.text == (not binary)
    if binary:
        assert ply.byte_order == "<"
    assert [e.name for e in ply.elements] == ["vertex"]
    v = ply["vertex"].data
    names = ["x", "y", "z"] + (["nx", "ny", "nz"] if with_normals else []) + (
        ["red", "green", "blue"] if with_colors else []) + (["confidence"] if with_confidence else [])
    assert list(v.dtype.names) == names
    for name in ("x", "y", "z"):
        assert v[name].dtype == np.float32
    points = np.stack([v["x"], v["y"], v["z"]], axis=1)
    assert points.tobytes() == a["points"].tobytes()  # exact, bit for bit (also -0.0), in ascii too
    if with_normals:
        assert np.stack([v["nx"], v["ny"], v["nz"]], axis=1).tobytes() == a["normals"].tobytes()
    if with_colors:
        assert v["red"].dtype == np.uint8
        np.testing.assert_array_equal(np.stack([v["red"], v["green"], v["blue"]], axis=1), a["colors"])
    if with_confidence:
        assert v["confidence"].dtype == np.uint8
        np.testing.assert_array_equal(v["confidence"], a["confidence"])


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "ascii"])
@pytest.mark.parametrize("with_normals,with_colors,with_confidence", OPTIONS)
def test_round_trip(tmp_path: Path, rng: np.random.Generator, binary: bool, with_normals: bool, with_colors: bool,
                    with_confidence: bool) -> None:
    a = _cloud_arrays(rng, 31)
    path = tmp_path / "cloud.ply"
    fathom.write_ply(path, a["points"], a["normals"] if with_normals else None, a["colors"] if with_colors else None,
                     a["confidence"] if with_confidence else None, binary=binary)
    with fathom.read_ply(path) as cloud:
        assert len(cloud) == 31 and cloud.count == 31
        assert cloud.points.dtype == np.float32 and cloud.points.shape == (31, 3)
        assert cloud.points.tobytes() == a["points"].tobytes()
        assert (cloud.normals is not None) == with_normals == cloud.has_normals
        assert (cloud.colors is not None) == with_colors == cloud.has_colors
        assert (cloud.confidence is not None) == with_confidence == cloud.has_confidence
        if with_normals:
            assert cloud.normals.tobytes() == a["normals"].tobytes()
        if with_colors:
            assert cloud.colors.dtype == np.uint8
            np.testing.assert_array_equal(cloud.colors, a["colors"])
        if with_confidence:
            np.testing.assert_array_equal(cloud.confidence, a["confidence"])
        # save_ply in the other encoding, read again: the same cloud.
        other = tmp_path / "again.ply"
        cloud.save_ply(other, binary=not binary)
    with fathom.read_ply(other) as again:
        assert again.points.tobytes() == a["points"].tobytes()
        if with_colors:
            np.testing.assert_array_equal(again.colors, a["colors"])


def _write_plyfile(path: Path, vertex: np.ndarray, *, text: bool = False, byte_order: str = "<",
                   extra: tuple = ()) -> None:
    elements = [PlyElement.describe(vertex, "vertex"), *extra]
    PlyData(elements, text=text, byte_order=byte_order).write(str(path))


def test_reads_plyfile_vertices_only(tmp_path: Path, rng: np.random.Generator) -> None:
    xyz = rng.normal(size=(100, 3)).astype(np.float32)
    vertex = np.empty(100, dtype=[("x", "f4"), ("y", "f4"), ("z", "f4")])
    vertex["x"], vertex["y"], vertex["z"] = xyz.T
    for text in (False, True):
        path = tmp_path / f"v{text}.ply"
        _write_plyfile(path, vertex, text=text)
        with fathom.read_ply(path) as cloud:
            np.testing.assert_array_equal(cloud.points, xyz)  # plyfile writes float32 exactly in ascii too
            assert cloud.normals is None and cloud.colors is None and cloud.confidence is None


def test_reads_double_xyz_rounded_to_float(tmp_path: Path, rng: np.random.Generator) -> None:
    xyz = rng.normal(scale=10.0, size=(64, 3))  # float64
    vertex = np.empty(64, dtype=[("x", "f8"), ("y", "f8"), ("z", "f8"), ("nx", "f8"), ("ny", "f8"), ("nz", "f8")])
    vertex["x"], vertex["y"], vertex["z"] = xyz.T
    vertex["nx"], vertex["ny"], vertex["nz"] = (xyz / np.linalg.norm(xyz, axis=1, keepdims=True)).T
    for text in (False, True):
        path = tmp_path / f"d{text}.ply"
        _write_plyfile(path, vertex, text=text)
        with fathom.read_ply(path) as cloud:
            # Round to nearest: numpy's float64 -> float32 conversion is the independent reference.
            np.testing.assert_array_equal(cloud.points, xyz.astype(np.float32))
            np.testing.assert_array_equal(cloud.normals[:, 0], vertex["nx"].astype(np.float32))


def test_reads_big_endian_with_normals_colors_confidence(tmp_path: Path, rng: np.random.Generator) -> None:
    a = _cloud_arrays(rng, 40)
    vertex = np.empty(40, dtype=[("x", ">f4"), ("y", ">f4"), ("z", ">f4"), ("nx", ">f8"), ("ny", ">f8"), ("nz", ">f8"),
                                 ("red", "u1"), ("green", "u1"), ("blue", "u1"), ("confidence", "u1")])
    for i, name in enumerate("xyz"):
        vertex[name] = a["points"][:, i]
        vertex["n" + name] = a["normals"][:, i]
    for i, name in enumerate(("red", "green", "blue")):
        vertex[name] = a["colors"][:, i]
    vertex["confidence"] = a["confidence"]
    path = tmp_path / "be.ply"
    _write_plyfile(path, vertex, byte_order=">")
    assert b"binary_big_endian" in path.read_bytes()[:100]
    with fathom.read_ply(path) as cloud:
        assert cloud.points.tobytes() == a["points"].tobytes()
        np.testing.assert_array_equal(cloud.normals, a["normals"])  # float32 -> double -> float32 is exact
        np.testing.assert_array_equal(cloud.colors, a["colors"])
        np.testing.assert_array_equal(cloud.confidence, a["confidence"])


@pytest.mark.parametrize("text", [False, True], ids=["binary", "ascii"])
def test_extra_properties_and_elements_are_skipped(tmp_path: Path, rng: np.random.Generator, text: bool) -> None:
    n = 25
    xyz = rng.normal(size=(n, 3)).astype(np.float32)
    vertex = np.empty(n, dtype=[("intensity", "f8"), ("x", "f4"), ("label", "i4"), ("y", "f4"), ("z", "f4"),
                                ("red", "u1"), ("green", "u1"), ("blue", "u1"), ("alpha", "u1"),
                                ("tags", "O")])
    vertex["x"], vertex["y"], vertex["z"] = xyz.T
    vertex["intensity"] = rng.normal(size=n)
    vertex["label"] = np.arange(n) - 7
    colors = rng.integers(0, 256, size=(n, 3), dtype=np.uint8)
    vertex["red"], vertex["green"], vertex["blue"] = colors.T
    vertex["alpha"] = 255
    vertex["tags"] = [np.arange(i % 4, dtype=np.int16) for i in range(n)]  # a list property, 0-3 items
    camera = np.array([(1.5, 7)], dtype=[("focal", "f4"), ("id", "u2")])
    faces = np.array([([0, 1, 2],), ([2, 3, 4, 5],)], dtype=[("vertex_indices", "O")])
    elements = [PlyElement.describe(camera, "camera"), PlyElement.describe(vertex, "vertex",
                                                                          len_types={"tags": "u1"}, val_types={"tags": "i2"}),
                PlyElement.describe(faces, "face")]
    path = tmp_path / "extra.ply"
    PlyData(elements, text=text).write(str(path))
    with fathom.read_ply(path) as cloud:
        np.testing.assert_array_equal(cloud.points, xyz)
        np.testing.assert_array_equal(cloud.colors, colors)
        assert cloud.normals is None and cloud.confidence is None


def test_a_mesh_ply_reads_as_its_vertices(tmp_path: Path) -> None:
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
    with fathom.Mesh(vertices, [[0, 1, 2], [0, 2, 3]]) as mesh:
        mesh.save(tmp_path / "m.ply")
    with fathom.read_ply(tmp_path / "m.ply") as cloud:
        np.testing.assert_array_equal(cloud.points, vertices)


def test_one_point_empty_and_views(tmp_path: Path) -> None:
    fathom.write_ply(tmp_path / "one.ply", [1.0, 2.0, 3.0], colors=[9, 8, 7], confidence=[2])
    with fathom.read_ply(tmp_path / "one.ply") as cloud:
        np.testing.assert_array_equal(cloud.points, [[1, 2, 3]])
        np.testing.assert_array_equal(cloud.colors, [[9, 8, 7]])
        assert "points=1" in repr(cloud) and "colors" in repr(cloud)
    for binary in (True, False):
        fathom.write_ply(tmp_path / "empty.ply", np.empty((0, 3)), binary=binary)
        assert len(PlyData.read(str(tmp_path / "empty.ply"))["vertex"].data) == 0
        with fathom.read_ply(tmp_path / "empty.ply") as cloud:
            assert len(cloud) == 0 and cloud.points.shape == (0, 3) and cloud.bounds is None
    # An (N, 6) float32 array is read in place (its first three columns); float64 lists are converted.
    wide = np.arange(24, dtype=np.float32).reshape(4, 6)
    fathom.write_ply(tmp_path / "wide.ply", wide)
    with fathom.read_ply(tmp_path / "wide.ply") as cloud:
        np.testing.assert_array_equal(cloud.points, wide[:, :3])
    fathom.write_ply(tmp_path / "list.ply", [[0.1, 0.2, 0.3]], normals=[[0, 0, 1]])
    with fathom.read_ply(tmp_path / "list.ply") as cloud:
        np.testing.assert_array_equal(cloud.points, np.float32([[0.1, 0.2, 0.3]]))
        np.testing.assert_array_equal(cloud.normals, [[0, 0, 1]])


def test_closed_cloud(tmp_path: Path) -> None:
    fathom.write_ply(tmp_path / "c.ply", [[1, 2, 3]])
    cloud = fathom.read_ply(tmp_path / "c.ply")
    cloud.close()
    assert repr(cloud) == "PointCloud(<closed>)"
    with pytest.raises(fathom.ClosedHandleError):
        _ = cloud.points
    cloud.close()  # twice is fine


# -- bad files -----------------------------------------------------------------------------------------


def _binary_cloud(tmp_path: Path, rng: np.random.Generator, n: int = 10) -> Path:
    path = tmp_path / "good.ply"
    fathom.write_ply(path, rng.normal(size=(n, 3)), colors=rng.integers(0, 256, (n, 3)))
    return path


def test_cut_binary_file_names_the_file_and_offset(tmp_path: Path, rng: np.random.Generator) -> None:
    data = _binary_cloud(tmp_path, rng).read_bytes()
    cut = tmp_path / "cut.ply"
    cut.write_bytes(data[:-7])  # the last record loses 7 of its 15 bytes
    with pytest.raises(fathom.ParseError) as info:
        fathom.read_ply(cut)
    message = str(info.value)
    assert "fathom_point_cloud_load_ply" in message and str(cut) in message
    # checkSizes sees the shortfall before reading: it names the header line of the vertex element.
    assert "line 4" in message and "element vertex" in message


def test_cut_ascii_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.ply"
    path.write_text("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                    "end_header\n0.000 0.000 0.000\n1.000 1.000 1.000\n2.000 2.000\n")
    with pytest.raises(fathom.ParseError, match=r"line 10: vertex 2 has too few values"):
        fathom.read_ply(path)


def test_counts_larger_than_the_file_are_refused_before_allocating(tmp_path: Path) -> None:
    path = tmp_path / "lying.ply"
    path.write_bytes(b"ply\nformat binary_little_endian 1.0\nelement vertex 4000000000000\nproperty double x\n"
                     b"property double y\nproperty double z\nend_header\n" + bytes(48))
    with pytest.raises(fathom.ParseError, match=r"line 3: element vertex declares 4000000000000 records"):
        fathom.read_ply(path)


@pytest.mark.parametrize(
    "header,body,error,pattern",
    [
        ("element vertex 1\nproperty float x\nproperty float y\n", "0 0\n", fathom.FormatError, "no z property"),
        ("element vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\n",
         "0 0 0 1 0\n", fathom.FormatError, "has nx, ny but no nz"),
        ("element vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty float red\n"
         "property float green\nproperty float blue\n", "0 0 0 1 1 1\n", fathom.FormatError, "red must be uchar, got float"),
        ("element vertex 1\nproperty int x\nproperty float y\nproperty float z\n", "0 0 0\n", fathom.FormatError,
         "x must be float or double, got int"),
        ("element vertex 2\nproperty float x\nproperty float y\nproperty float z\n", "0 0 0\nnan 1 1\n",
         fathom.FormatError, "line 9: vertex 1 is not finite"),
        ("element vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
         "property uchar green\nproperty uchar blue\n", "0 0 0 1 300 1\n", fathom.FormatError, "green 300, not a uchar"),
        ("element face 1\nproperty list uchar int vertex_indices\n", "3 0 1 2\n", fathom.FormatError, "no vertex element"),
        ("element vertex 1\nproperty float x\nproperty float y\nproperty float z\n", "0 zero 0\n", fathom.ParseError,
         "'zero' is not a number"),
    ],
    ids=["no-z", "partial-normal", "float-color", "int-x", "nan", "color-300", "no-vertex", "not-a-number"],
)
def test_bad_files(tmp_path: Path, header: str, body: str, error: type, pattern: str) -> None:
    path = tmp_path / "bad.ply"
    path.write_text("ply\nformat ascii 1.0\n" + header + "end_header\n" + body)
    with pytest.raises(error, match=pattern) as info:
        fathom.read_ply(path)
    assert str(path) in str(info.value)


def test_not_a_ply_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "x.ply"
    path.write_text("v 0 0 0\n")
    with pytest.raises(fathom.ParseError, match="not a PLY file"):
        fathom.read_ply(path)
    with pytest.raises(fathom.FathomIOError, match="cannot open"):
        fathom.read_ply(tmp_path / "missing.ply")


# -- bad arguments ----------------------------------------------------------------------------------------


def test_write_ply_bad_arguments(tmp_path: Path) -> None:
    path = tmp_path / "w.ply"
    with pytest.raises(fathom.NotFiniteError, match=r"points\[1\]"):
        fathom.write_ply(path, [[0, 0, 0], [np.nan, 0, 0]])
    assert not path.exists()  # nothing written on error
    with pytest.raises(fathom.NotFiniteError, match=r"normals\[0\]"):
        fathom.write_ply(path, [[0, 0, 0]], normals=[[np.inf, 0, 0]])
    assert not path.exists()
    with pytest.raises(ValueError, match="normals must have shape"):
        fathom.write_ply(path, np.zeros((3, 3)), normals=np.zeros((2, 3)))
    with pytest.raises(ValueError, match="0..255"):
        fathom.write_ply(path, np.zeros((1, 3)), colors=[[0, 256, 0]])
    with pytest.raises(TypeError, match="integers"):
        fathom.write_ply(path, np.zeros((1, 3)), colors=[[0.5, 0, 0]])
    with pytest.raises(ValueError, match="shape"):
        fathom.write_ply(path, np.zeros((4, 2)))
    with pytest.raises(TypeError, match="binary"):
        fathom.write_ply(path, np.zeros((1, 3)), binary="yes")
    with pytest.raises(fathom.FathomIOError, match="cannot create"):
        fathom.write_ply(tmp_path / "no" / "such" / "dir.ply", np.zeros((1, 3)))
    cloud_path = tmp_path / "ok.ply"
    fathom.write_ply(cloud_path, np.zeros((1, 3)))
    with fathom.read_ply(cloud_path) as cloud, pytest.raises(fathom.FathomIOError):
        cloud.save_ply(tmp_path / "no" / "dir.ply")
