"""Mesh.load: OBJ and PLY (ascii and binary) against the same meshes made from arrays, and malformed
files written to a temporary directory (each must name its line or byte offset)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np
import pytest

import fathom
from _meshes import random_rays

CUBE_V = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=np.float32) - 0.5
# quads, counter-clockwise seen from outside (vertex i = 4x + 2y + z)
CUBE_QUADS = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
CUBE_T = np.array([t for a, b, c, d in CUBE_QUADS for t in ((a, b, c), (a, c, d))], dtype=np.uint32)  # fanned


def _obj_text() -> str:
    lines = ["# a unit cube", "o cube", ""]
    lines += [f"v {x:g} {y:g} {z:g}" for x, y, z in CUBE_V]
    lines += ["f " + " ".join(str(i + 1) for i in q) for q in CUBE_QUADS]
    return "\n".join(lines) + "\n"


def _same_hits(mesh: fathom.Mesh, vertices, triangles, rng: np.random.Generator, classes=None) -> None:
    with fathom.Mesh(vertices, triangles, classes) as expected:
        o, d = random_rays(rng, 500, spread=1.0)
        a, b = mesh.cast(o, d), expected.cast(o, d)
        assert a.tobytes() == b.tobytes()
    assert mesh.vertex_count == len(vertices) and mesh.triangle_count == len(triangles)


def test_obj_quads_are_fanned(tmp_path: Path, rng: np.random.Generator) -> None:
    path = tmp_path / "cube.obj"
    path.write_text(_obj_text())
    with fathom.Mesh.load(path) as mesh:
        assert mesh.triangle_count == 12
        assert mesh.surface_area == pytest.approx(6.0, rel=1e-6)
        # two triangles per quad, in the file's order: x = 0, x = 1, y = 0, y = 1, z = 0, z = 1, outward
        outward = np.repeat([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]], 2, axis=0)
        np.testing.assert_allclose(mesh.face_normals, outward, atol=1e-6)
        _same_hits(mesh, CUBE_V, CUBE_T, rng)
    with fathom.Mesh.load(str(path)) as again:  # str and bytes paths too
        assert again.triangle_count == 12
    with fathom.Mesh.load(bytes(path)) as again:
        assert again.triangle_count == 12


def test_obj_negative_indices(tmp_path: Path) -> None:
    path = tmp_path / "neg.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf 1 2 -1\n")
    with fathom.Mesh.load(path) as mesh:
        assert mesh.triangle_count == 2 and mesh.vertex_count == 4
        np.testing.assert_allclose(mesh.face_areas, [0.5, 0.5], rtol=1e-6)
        hit = mesh.intersect((0.2, 0.2, 1), (0, 0, -1))
        assert hit.primitive == 0
        hit = mesh.intersect((0.2, 1, 0.2), (0, -1, 0))
        assert hit.primitive == 1


def _ply_header(fmt: str, vertex_props: list[str], nv: int, nf: int, face_props: list[str]) -> str:
    return (
        "\n".join(
            ["ply", f"format {fmt} 1.0", "comment written by the fathom tests", f"element vertex {nv}"]
            + [f"property {p}" for p in vertex_props]
            + [f"element face {nf}"]
            + [f"property {p}" for p in face_props]
            + ["end_header"]
        )
        + "\n"
    )


def test_ascii_ply_with_classification(tmp_path: Path, rng: np.random.Generator) -> None:
    classes = np.array([i % 8 for i in range(len(CUBE_T))], np.uint8)
    text = _ply_header(
        "ascii", ["float x", "float y", "float z"], len(CUBE_V), len(CUBE_T),
        ["list uchar int vertex_indices", "uchar classification"],
    )
    text += "".join(f"{x:g} {y:g} {z:g}\n" for x, y, z in CUBE_V)
    text += "".join(f"3 {a} {b} {c} {k}\n" for (a, b, c), k in zip(CUBE_T, classes))
    path = tmp_path / "cube.ply"
    path.write_text(text)
    with fathom.Mesh.load(path) as mesh:
        _same_hits(mesh, CUBE_V, CUBE_T, rng, classes)
        hits = mesh.cast(*random_rays(rng, 200, spread=1.0))
        mask = fathom.hit_mask(hits)
        assert np.array_equal(hits["classification"][mask], classes[hits["primitive"][mask]])


def test_binary_ply_doubles_and_label(tmp_path: Path, rng: np.random.Generator) -> None:
    labels = np.array([(3 * i) % 8 for i in range(len(CUBE_T))], np.uint8)
    head = _ply_header(
        "binary_little_endian", ["double x", "double y", "double z"], len(CUBE_V), len(CUBE_T),
        ["list uchar uint vertex_indices", "uchar label"],
    ).encode()
    body = b"".join(struct.pack("<3d", *map(float, p)) for p in CUBE_V)
    body += b"".join(struct.pack("<B3IB", 3, *map(int, t), int(k)) for t, k in zip(CUBE_T, labels))
    path = tmp_path / "cube_bin.ply"
    path.write_bytes(head + body)
    with fathom.Mesh.load(path) as mesh:
        _same_hits(mesh, CUBE_V, CUBE_T, rng, labels)


def test_binary_ply_quads(tmp_path: Path, rng: np.random.Generator) -> None:
    head = _ply_header(
        "binary_little_endian", ["float x", "float y", "float z"], len(CUBE_V), len(CUBE_QUADS),
        ["list uchar int vertex_indices"],
    ).encode()
    body = CUBE_V.astype("<f4").tobytes()
    body += b"".join(struct.pack("<B4i", 4, *q) for q in CUBE_QUADS)
    path = tmp_path / "quads.ply"
    path.write_bytes(head + body)
    with fathom.Mesh.load(path) as mesh:
        assert mesh.triangle_count == 12
        assert mesh.surface_area == pytest.approx(6.0, rel=1e-6)


# -- bad files ------------------------------------------------------------------------------------

_LINE = r"line\D{0,3}%d\b"


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("bad_face.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n", 4),
        ("short_vertex.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n", 2),
        ("bad_number.obj", "v 0 0 0\nv 1 0 0\nv 0 1e+ 0\nf 1 2 3\n", 3),
        ("index_past_end.obj", "# c\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", 5),
        ("index_zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4),
        ("two_vertex_face.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4),
    ],
)
def test_malformed_obj_names_the_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(path)
    assert re.search(_LINE % line, info.value.message), info.value.message
    assert "fathom_mesh_load" in info.value.message


def test_nan_vertex_in_obj(tmp_path: Path) -> None:
    path = tmp_path / "nan.obj"
    path.write_text("v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises((fathom.ParseError, fathom.FormatError, fathom.NotFiniteError)) as info:
        fathom.Mesh.load(path)
    assert re.search(_LINE % 2, info.value.message), info.value.message


def _ascii_ply(vertex_lines: list[str], face_lines: list[str], nv: int = 3, nf: int = 1) -> str:
    head = _ply_header("ascii", ["float x", "float y", "float z"], nv, nf, ["list uchar int vertex_indices"])
    return head + "".join(line + "\n" for line in vertex_lines + face_lines)


@pytest.mark.parametrize(
    "name, text, line",
    [
        # the header takes lines 1-10 (ply, format, comment, element vertex, 3 properties, element face,
        # its property, end_header): vertices on lines 11-13, the face on line 14
        ("bad_vertex.ply", _ascii_ply(["0 0 0", "1 zero 0", "0 1 0"], ["3 0 1 2"]), 12),
        ("bad_face.ply", _ascii_ply(["0 0 0", "1 0 0", "0 1 0"], ["3 0 1 x"]), 14),
        ("face_index.ply", _ascii_ply(["0 0 0", "1 0 0", "0 1 0"], ["3 0 1 7"]), 14),
        ("truncated.ply", _ascii_ply(["0 0 0", "1 0 0"], []), 13),
    ],
)
def test_malformed_ascii_ply_names_the_line(tmp_path: Path, name: str, text: str, line: int) -> None:
    assert text.splitlines()[9] == "end_header" and text.splitlines()[10] == "0 0 0"  # line 11: first vertex
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(path)
    assert re.search(_LINE % line, info.value.message) or (
        name == "truncated.ply" and re.search(r"line|end|truncat", info.value.message)
    ), info.value.message


def test_short_ascii_ply_record(tmp_path: Path) -> None:
    """A face record with fewer indices than its count, at the end of the file: the library may report
    it at the record (line 14) or at the element that no longer fits in the file (line 8)."""
    path = tmp_path / "short_face.ply"
    path.write_text(_ascii_ply(["0 0 0", "1 0 0", "0 1 0"], ["3 0 1"]))
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(path)
    assert re.search(_LINE % 14, info.value.message) or re.search(_LINE % 8, info.value.message), info.value.message


@pytest.mark.parametrize(
    "name, content",
    [
        ("no_end_header.ply", b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"),
        ("big_endian.ply", b"ply\nformat binary_big_endian 1.0\nelement vertex 0\nend_header\n"),
        ("no_x.ply", b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float y\nproperty float z\n"
                     b"element face 0\nproperty list uchar int vertex_indices\nend_header\n1 2\n"),
        ("garbage.bin", bytes(range(256))),
    ],
)
def test_malformed_headers_and_contents(tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(path)
    assert "fathom_mesh_load" in info.value.message


@pytest.mark.parametrize(
    "name, content, vertices, triangles",
    [
        ("no_final_newline.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3", 3, 1),
        ("crlf.obj", b"v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n", 3, 1),
        ("normals.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\nf 1/1/1 2/1/1 3//1\n", 3, 1),
        ("no_final_newline.ply", _ascii_ply(["0 0 0", "1 0 0", "0 1 0"], ["3 0 1 2"]).rstrip("\n").encode(), 3, 1),
        ("crlf.ply", _ascii_ply(["0 0 0", "1 0 0", "0 1 0"], ["3 0 1 2"]).replace("\n", "\r\n").encode(), 3, 1),
    ],
)
def test_lenient_but_well_formed_files(tmp_path: Path, name: str, content: bytes, vertices: int, triangles: int) -> None:
    """Line endings, a missing final newline and OBJ's v/vt/vn face syntax are all well-formed."""
    path = tmp_path / name
    path.write_bytes(content)
    with fathom.Mesh.load(path) as mesh:
        assert (mesh.vertex_count, mesh.triangle_count) == (vertices, triangles)
        if triangles:
            assert mesh.intersect((0.2, 0.2, 1), (0, 0, -1)).primitive == 0


def test_truncated_binary_ply_names_the_byte(tmp_path: Path) -> None:
    head = _ply_header(
        "binary_little_endian", ["float x", "float y", "float z"], 3, 1, ["list uchar int vertex_indices"]
    ).encode()
    body = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], "<f4").tobytes() + struct.pack("<B3i", 3, 0, 1, 2)
    whole = tmp_path / "whole.ply"
    whole.write_bytes(head + body)
    with fathom.Mesh.load(whole) as mesh:
        assert mesh.triangle_count == 1
    cut = tmp_path / "cut.ply"
    cut.write_bytes(head + body[:-6])  # the face's indices end early
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(cut)
    assert re.search(r"byte|offset", info.value.message), info.value.message
    bad_index = tmp_path / "bad_index.ply"
    bad_index.write_bytes(head + body[:-4] + struct.pack("<i", 5))
    with pytest.raises((fathom.ParseError, fathom.FormatError)) as info:
        fathom.Mesh.load(bad_index)
    assert re.search(r"byte|offset", info.value.message), info.value.message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(fathom.FathomIOError, match="fathom_mesh_load") as info:
        fathom.Mesh.load(tmp_path / "nope.obj")
    assert isinstance(info.value, OSError)
    with pytest.raises(fathom.FathomIOError):
        fathom.Mesh.load(tmp_path)
    with pytest.raises(ValueError, match="NUL"):
        fathom.Mesh.load("bad\0name.obj")


@pytest.mark.parametrize(
    "name, content, error, words",
    [
        ("empty.obj", b"", fathom.NoDataError, "no triangles"),
        ("comments.obj", b"# nothing here\n\n", fathom.NoDataError, "no triangles"),
        ("points.obj", b"v 0 0 0\nv 1 0 0\n", fathom.NoDataError, "no triangles (2 vertices)"),
        ("empty.ply", b"", fathom.ParseError, "not a PLY file: the file is empty"),
        ("text.ply", b"hello\n", fathom.ParseError, "does not start with a 'ply' line"),
        ("cases.py", b"import os\nv = 1\n", fathom.FormatError, "not a mesh file"),
        ("no_extension", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", fathom.FormatError, "not a mesh file"),
    ],
)
def test_files_that_are_not_meshes(tmp_path: Path, name: str, content: bytes, error: type, words: str) -> None:
    """Unknown formats and files without triangles are errors naming the file (a mesh of 0 triangles would
    only ever be missed by every ray)."""
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(error) as info:
        fathom.Mesh.load(path)
    assert words in info.value.message and name in info.value.message


def test_ply_without_faces_is_not_a_mesh(tmp_path: Path) -> None:
    path = tmp_path / "cloud.ply"
    path.write_bytes(_ascii_ply(["0 0 0", "1 0 0", "0 1 0"], [], nf=0).encode())
    with pytest.raises(fathom.NoDataError, match="no triangles"):
        fathom.Mesh.load(path)
