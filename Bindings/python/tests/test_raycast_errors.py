"""Bad input to meshes and mesh casts, empty meshes, and the lifetime of the Mesh handle."""

from __future__ import annotations

import ctypes
import gc
import math
import pickle
import re
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import fathom
from fathom import _lib
from _meshes import icosphere, random_rays


@pytest.fixture
def ico():
    return icosphere(1)  # 42 vertices, 80 triangles


@pytest.fixture
def mesh(ico):
    with fathom.Mesh(*ico) as m:
        yield m


# -- building a mesh ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_vertex(ico, bad: float) -> None:
    v, t = ico
    v = v.copy()
    v[17, 1] = bad
    with pytest.raises(fathom.NotFiniteError, match="fathom_mesh_create") as info:
        fathom.Mesh(v, t)
    assert "17" in info.value.message, info.value.message  # names the vertex


def test_index_out_of_range_is_named(ico) -> None:
    v, t = ico
    t = t.copy()
    t[5, 2] = len(v) + 3
    with pytest.raises(fathom.OutOfRangeError, match="fathom_mesh_create") as info:
        fathom.Mesh(v, t)
    message = info.value.message
    assert str(len(v) + 3) in message, message
    assert re.search(r"\b(5|17)\b", message), f"should name triangle 5 (index 17): {message}"


def test_index_equal_to_vertex_count(ico) -> None:
    v, t = ico
    t = t.copy()
    t[0, 0] = len(v)  # one past the last vertex
    with pytest.raises(fathom.OutOfRangeError, match=str(len(v))):
        fathom.Mesh(v, t)


def test_bad_class_is_named(ico) -> None:
    v, t = ico
    classes = np.zeros(len(t), np.uint8)
    classes[9] = 8  # one past FATHOM_CLASS_DOOR
    with pytest.raises(fathom.OutOfRangeError, match="class") as info:
        fathom.Mesh(v, t, classes)
    assert re.search(r"\b9\b", info.value.message) and "8" in info.value.message, info.value.message


def test_index_and_class_values_checked_in_python(ico) -> None:
    v, t = ico
    neg = t.astype(np.int64)
    neg[3, 1] = -1
    with pytest.raises(ValueError, match=r"triangles\[3, 1\] = -1"):
        fathom.Mesh(v, neg)
    with pytest.raises(ValueError, match=r"triangles\[0, 0\] = 4294967296"):
        fathom.Mesh(v, np.full((1, 3), 2**32, np.int64))
    with pytest.raises(TypeError, match="triangles must hold integers"):
        fathom.Mesh(v, t.astype(np.float64))
    with pytest.raises(ValueError, match=r"triangles must have shape \(T, 3\)"):
        fathom.Mesh(v, np.zeros((5, 4), np.uint32))
    with pytest.raises(ValueError, match=r"classes must have shape \(80,\)"):
        fathom.Mesh(v, t, np.zeros(79, np.uint8))
    with pytest.raises(ValueError, match=r"classes\[2\] = 300"):
        fathom.Mesh(v, t, [0, 0, 300] + [0] * 77)
    with pytest.raises(ValueError, match=r"vertices must have shape"):
        fathom.Mesh(v[:, :2], t)


def test_failed_create_leaves_nothing_behind(ico, monkeypatch) -> None:
    v, t = ico
    v = v.copy()
    v[0, 0] = np.nan
    destroyed = []
    monkeypatch.setattr(fathom.Mesh, "_destroy", lambda ptr: destroyed.append(ptr))
    with pytest.raises(fathom.NotFiniteError):
        fathom.Mesh(v, t)
    gc.collect()
    assert destroyed == []  # no handle was made, so none is freed


# -- casting --------------------------------------------------------------------------------------


def test_zero_direction(mesh) -> None:
    with pytest.raises(fathom.DegenerateError, match="direction"):
        mesh.intersect((0, 0, 0), (0, 0, 0))
    with pytest.raises(fathom.DegenerateError, match="direction"):
        mesh.cast_all((0, 0, 0), (0, 0, 0))
    with pytest.raises(fathom.DegenerateError, match="direction"):
        mesh.occluded((0, 0, 0), (0, 0, 0))


@pytest.mark.parametrize("method", ["cast", "occluded", "cast_all_batch"])
def test_bad_ray_in_a_batch_is_named(mesh, rng: np.random.Generator, method: str) -> None:
    o, d = random_rays(rng, 100)
    d[37] = 0.0
    with pytest.raises(fathom.DegenerateError) as info:
        getattr(mesh, method)(o, d)
    assert re.search(r"\b37\b", info.value.message), info.value.message
    d[37] = (1, 0, 0)
    d[12, 2] = np.nan
    with pytest.raises(fathom.NotFiniteError) as info:
        getattr(mesh, method)(o, d)
    assert re.search(r"\b12\b", info.value.message), info.value.message
    d[12, 2] = 1.0
    o[90, 0] = np.inf
    with pytest.raises(fathom.NotFiniteError) as info:
        getattr(mesh, method)(o, d)
    assert re.search(r"\b90\b", info.value.message), info.value.message


@pytest.mark.parametrize("method", ["cast", "occluded", "cast_all_batch", "intersect", "cast_all", "occluded1"])
def test_bad_ranges(mesh, method: str) -> None:
    o, d = np.zeros((4, 3), np.float32), np.tile(np.float32([0, 0, 1]), (4, 1))
    if method in ("intersect", "cast_all", "occluded1"):
        o, d = o[0], d[0]
    call = getattr(mesh, method.rstrip("1"))
    with pytest.raises(fathom.OutOfRangeError, match="tmin"):
        call(o, d, tmin=2.0, tmax=1.0)
    with pytest.raises(fathom.OutOfRangeError, match="tmin"):
        call(o, d, tmin=-0.5)
    with pytest.raises(fathom.NotFiniteError):
        call(o, d, tmin=float("nan"))
    call(o, d, tmin=0.0, tmax=math.inf)  # the default range is valid
    call(o, d, tmin=1.0, tmax=1.0)  # an empty-width range is valid


def test_thread_counts(mesh) -> None:
    o, d = random_rays(np.random.default_rng(1), 10)
    with pytest.raises(ValueError, match="threads must be in"):
        mesh.cast(o, d, threads=-1)
    with pytest.raises(TypeError, match="threads must be an int"):
        mesh.cast(o, d, threads=1.5)


def test_ray_shapes(mesh) -> None:
    with pytest.raises(ValueError, match=r"rays must have shape \(N, 6\)"):
        mesh.cast(np.zeros((3, 5), np.float32))
    with pytest.raises(ValueError, match=r"origins must have shape \(N, 3\) or \(3,\)"):
        mesh.cast(np.zeros((3, 2)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="same length"):
        mesh.cast(np.zeros((3, 3)), np.ones((4, 3)))
    with pytest.raises(TypeError, match="real numbers"):
        mesh.cast(np.zeros((3, 3), complex), np.ones((3, 3)))


def test_no_rays(mesh) -> None:
    empty = np.zeros((0, 6), np.float32)
    assert mesh.cast(empty).shape == (0,)
    assert mesh.occluded(empty).shape == (0,)
    hits, offsets = mesh.cast_all_batch(empty)
    assert hits.shape == (0,) and offsets.tolist() == [0]


# -- empty meshes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vertex_count", [0, 3])
def test_empty_mesh_misses_everything(rng: np.random.Generator, vertex_count: int) -> None:
    v = rng.normal(size=(vertex_count, 3)).astype(np.float32)
    with fathom.Mesh(v, np.zeros((0, 3), np.uint32)) as mesh:
        assert mesh.triangle_count == 0 and mesh.vertex_count == vertex_count
        assert mesh.surface_area == 0.0
        assert mesh.face_normals.shape == (0, 3) and mesh.face_areas.shape == (0,)
        if vertex_count == 0:
            assert mesh.bounds.min.tolist() == [0, 0, 0] and mesh.bounds.max.tolist() == [0, 0, 0]
        o, d = random_rays(rng, 50)
        hits = mesh.cast(o, d)
        assert not fathom.hit_mask(hits).any()
        assert np.all(np.isinf(hits["t"])) and np.all(hits["primitive"] == fathom.NO_HIT)
        assert not mesh.occluded(o, d).any()
        assert mesh.intersect(o[0], d[0]) is None
        assert mesh.cast_all(o[0], d[0]).shape == (0,)
        all_hits, offsets = mesh.cast_all_batch(o, d)
        assert len(all_hits) == 0 and np.all(offsets == 0)
    with fathom.Mesh([], []) as from_lists:  # empty Python lists are an empty mesh too
        assert from_lists.triangle_count == 0


# -- the handle -----------------------------------------------------------------------------------


def test_closed_mesh_raises_a_python_error(ico) -> None:
    mesh = fathom.Mesh(*ico)
    o, d = np.zeros(3), np.array([0.0, 0.0, 1.0])
    mesh.close()
    assert mesh.closed and repr(mesh) == "Mesh(<closed>)"
    calls = [
        lambda: mesh.cast(o[None], d[None]),
        lambda: mesh.occluded(o[None], d[None]),
        lambda: mesh.occluded(o, d),
        lambda: mesh.intersect(o, d),
        lambda: mesh.cast_all(o, d),
        lambda: mesh.cast_all_batch(o[None], d[None]),
        lambda: mesh.triangle_count,
        lambda: mesh.bounds,
        lambda: mesh.face_normals,
        lambda: mesh.face_areas,
        lambda: fathom.tap_floor_height(
            fathom.Intrinsics(500, 500, 320, 240, 640, 480), fathom.Pose(), 320, 240, mesh=mesh
        ),
        lambda: mesh._as_parameter_,
    ]
    for call in calls:
        with pytest.raises(fathom.ClosedHandleError, match="closed"):
            call()
    with pytest.raises(ValueError):  # ClosedHandleError is a ValueError, like I/O on a closed file
        mesh.intersect(o, d)
    mesh.close()  # closing again does nothing
    with pytest.raises(fathom.ClosedHandleError):
        with mesh:
            pass


def test_info_cached_before_close_still_refuses(ico) -> None:
    mesh = fathom.Mesh(*ico)
    assert mesh.triangle_count == 80
    mesh.close()
    with pytest.raises(fathom.ClosedHandleError):
        mesh.triangle_count


def test_context_manager_and_gc_free_once(ico, monkeypatch) -> None:
    freed = []
    real = fathom.Mesh._destroy
    monkeypatch.setattr(fathom.Mesh, "_destroy", lambda ptr: (freed.append(1), real(ptr)))
    with fathom.Mesh(*ico) as mesh:
        assert not mesh.closed
    assert mesh.closed and len(freed) == 1
    mesh.close()
    assert len(freed) == 1
    other = fathom.Mesh(*ico)
    del other
    gc.collect()
    assert len(freed) == 2
    with pytest.raises(RuntimeError):
        with fathom.Mesh(*ico):
            raise RuntimeError("the block fails; the mesh is still freed")
    assert len(freed) == 3


def test_handles_have_their_own_ctypes_type(mesh) -> None:
    """A pointer of another type is refused by ctypes before the library sees it."""

    class OtherHandle(ctypes.Structure):
        """Another kind of opaque handle."""

    info = _lib.MeshInfoStruct()
    with pytest.raises(ctypes.ArgumentError):
        _lib.FUNCTIONS["fathom_mesh_get_info"](ctypes.pointer(OtherHandle()), ctypes.byref(info))
    with pytest.raises(ctypes.ArgumentError):
        _lib.FUNCTIONS["fathom_mesh_get_info"](fathom.Box(), ctypes.byref(info))
    _lib.FUNCTIONS["fathom_mesh_get_info"](mesh, ctypes.byref(info))  # the Mesh itself passes
    assert info.triangle_count == 80
    with pytest.raises(TypeError, match="fathom.Mesh"):
        fathom.tap_floor_height(fathom.Intrinsics(500, 500, 320, 240, 640, 480), fathom.Pose(), 1, 1, mesh=object())


def test_mesh_is_not_picklable(mesh) -> None:
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(mesh)


def test_meshes_alive_at_interpreter_exit(tmp_path: Path) -> None:
    """__del__ at shutdown must not raise or crash (module globals may already be gone)."""
    script = tmp_path / "exit.py"
    script.write_text(textwrap.dedent(
        """
        import numpy as np
        import fathom
        v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
        t = np.array([[0, 1, 2]], np.uint32)
        KEEP = [fathom.Mesh(v, t), fathom.Mesh(v, t, borrow=True)]
        cycle = {"mesh": fathom.Mesh(v, t)}
        cycle["self"] = cycle
        print(KEEP[0].intersect((0.2, 0.2, 1), (0, 0, -1)).t)
        """
    ))
    env_path = str(Path(fathom.__file__).resolve().parents[1])
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "PYTHONPATH": env_path},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1.0"
    assert "Exception ignored" not in result.stderr and "Error" not in result.stderr, result.stderr


def test_many_python_threads_query_one_mesh(rng: np.random.Generator) -> None:
    v, t = icosphere(3)
    o, d = random_rays(rng, 4000, spread=1.5)
    with fathom.Mesh(v, t) as mesh:
        expected = mesh.cast(o, d, threads=1)
        barrier = threading.Barrier(4)

        def work(k: int) -> bytes:
            barrier.wait()
            part = slice(k * 1000, (k + 1) * 1000)
            return mesh.cast(o[part], d[part], threads=2).tobytes()

        with ThreadPoolExecutor(4) as pool:
            parts = list(pool.map(work, range(4)))
        assert b"".join(parts) == expected.tobytes()
