"""Inputs that once killed the host process, by class (issue 15): each now gives a status and an exception.

- fits of finite coordinates whose squares overflow a double: a force-unwrap in the moments trapped;
- a coverage tracker recording a rigid camera pose far from the box: a Float to Int cell conversion trapped;
  recording in batches of 8, a NaN cell coordinate (a box 1e-39 thin, a camera 3e38 away) became a wild memory
  index (found by reading the code);
- a scan whose metadata asks for 65535 x 65535 depth frames: gigabytes allocated from a small deflate stream;
- loading a device such as /dev/zero as a mesh, manifest or point cloud: the whole-file read never ended;
- an OBJ file starting with a UTF-8 byte-order mark lost its first vertex line (a silent loss).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fathom


@pytest.mark.parametrize("scale", [1e154, 1e200, 1e300])
def test_fits_of_huge_coordinates_are_out_of_range(scale: float) -> None:
    rng = np.random.default_rng(1)
    points = rng.normal(size=(50, 3)) * scale
    for fit in (fathom.fit_line_3d, fathom.fit_plane):
        with pytest.raises(fathom.OutOfRangeError, match="supported"):
            fit(points)
    with pytest.raises(fathom.OutOfRangeError, match="supported"):
        fathom.fit_line_2d(points[:, :2])
    with pytest.raises(fathom.OutOfRangeError, match="supported"):
        fathom.fit_plane_ransac(points, threshold=scale, iterations=10, seed=1)
    with pytest.raises(fathom.OutOfRangeError, match="supported"):
        fathom.fit_line_ransac(points, threshold=scale, iterations=10, seed=1)


def test_fits_at_the_supported_limit_still_work() -> None:
    """A line along x through points up to 1e99 (inside the 1e100 limit): direction (1, 0, 0)."""
    t = np.linspace(-1, 1, 11) * 1e99
    points = np.stack([t, np.full_like(t, 5e98), np.zeros_like(t)], 1)
    line = fathom.fit_line_3d(points)
    np.testing.assert_allclose(line.direction, [1, 0, 0], atol=1e-12)


@pytest.mark.parametrize("distance", [1e32, 3e38])
def test_a_camera_far_from_the_box_records_without_trapping(distance: float) -> None:
    box = fathom.Box(center=(0, 0.25, 0), scale=(0.4, 0.5, 0.3), floor=0.0)
    pose = np.eye(4)
    pose[:3, 3] = (distance, 0.0, 0.0)
    with fathom.Coverage(box) as coverage:
        coverage.record(pose)                      # the camera looks along -z: it misses the box
        assert sum(face.count for face in coverage.faces()) == 0
        looking = np.eye(4)                        # now facing the box from far along +z
        looking[:3, 3] = (0.0, 0.25, distance)
        coverage.record(looking)


@pytest.mark.parametrize(
    "center, scale, camera",
    [
        ((0, 0, 0), (1e-39, 1, 1), (0, 0, -2)),    # 1 / scale.x is infinite: the hit's x cell is 0 * inf = NaN
        ((0, -1e38, 0), (1, 1e37, 1), (0, 3e38, -2)),  # the direction to the camera overflows: its ring is NaN
    ],
)
def test_views_recorded_in_batches_with_nan_cells_land_in_cell_zero(center, scale, camera) -> None:
    """Eight views at once take the 8-lane path; its NaN cells go where one view's do (cell 0, ring 0)."""
    box = fathom.Box(center=center, scale=scale)
    pose = np.diag([-1.0, 1.0, -1.0, 1.0])  # turned about y: looks along +z, at the box's front face
    pose[:3, 3] = camera
    one = fathom.Coverage(box, min_separation_distance=0.0)
    many = fathom.Coverage(box, min_separation_distance=0.0)
    with one, many:
        singles = [one.record(pose) for _ in range(8)]
        batch = many.record_many(np.repeat(pose[None], 8, axis=0))
        assert [int(s.status) for s in singles] == list(batch["status"])
        assert [(s.cell, s.bin) for s in singles] == list(zip(batch["cell"], batch["bin"]))
        for face in range(6):
            np.testing.assert_array_equal(one.cells(face), many.cells(face))
        assert [f.count for f in one.faces()] == [f.count for f in many.faces()]


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/"])
def test_devices_and_directories_are_refused_not_read(path: str) -> None:
    for load in (fathom.Mesh.load, fathom.Box.load, fathom.read_ply):
        with pytest.raises(fathom.FathomIOError, match="not a regular file"):
            load(path)


def test_a_byte_order_mark_does_not_lose_the_first_vertex(tmp_path: Path) -> None:
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
    plain, marked = tmp_path / "plain.obj", tmp_path / "marked.obj"
    plain.write_text(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    with fathom.Mesh.load(marked) as mesh:
        np.testing.assert_array_equal(mesh.vertices, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
        np.testing.assert_array_equal(mesh.triangles, [[0, 1, 2]])


def test_a_mesh_near_floats_limits_builds_and_casts() -> None:
    """Centroids of vertices near +-3.3e38 overflow to infinity in the BVH's binning: they must not trap."""
    rng = np.random.default_rng(2)
    vertices = (rng.uniform(-1, 1, (3000, 3)) * 3.3e38).astype(np.float32)
    triangles = rng.integers(0, 3000, (2000, 3)).astype(np.uint32)
    with fathom.Mesh(vertices, triangles) as mesh:
        assert mesh.bvh_nodes >= 1
        mesh.cast([[0, 0, 0]], [[0, 0, -1]])  # any answer, as long as it is one
