"""The binding's ctypes declarations against include/fathom.h, parsed with pycparser.

Checks both ways: every function in the header has a prototype in the binding and every prototype
is a header function, with the same return type and argument types; every struct has the same
fields in the same order with the same types (and the same size and offsets as a C compiler gives
them, when one is available); every enum value and the numeric macros match.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from ctypes import POINTER
from pathlib import Path
from typing import Any

import pytest

pycparser = pytest.importorskip("pycparser", reason="pycparser is needed to parse include/fathom.h")
from pycparser import c_ast  # noqa: E402

from _header import Header, _const_int  # noqa: E402
from _header import params as _params  # noqa: E402

import fathom  # noqa: E402,F401  (importing registers every prototype)
from fathom import _lib  # noqa: E402

#: Scalar C types and the ctypes type each must be declared as.
_SCALARS: dict[str, Any] = {
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "int": ctypes.c_int,
    "size_t": ctypes.c_size_t,
    "uint8_t": ctypes.c_uint8,
    "uint32_t": ctypes.c_uint32,
    "uint64_t": ctypes.c_uint64,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "bool": ctypes.c_bool,
    "_Bool": ctypes.c_bool,
    "char": ctypes.c_char,
    "void": None,
}


@pytest.fixture(scope="module")
def header(header_path: Path) -> Header:
    return Header(header_path)


def _ctype_of(decl_type: Any, header: Header, *, param: bool) -> Any:
    """The ctypes type a C declarator type must map to (arrays decay to pointers for parameters)."""
    if isinstance(decl_type, c_ast.TypeDecl):
        names = decl_type.type.names if isinstance(decl_type.type, c_ast.IdentifierType) else None
        assert names is not None, f"unexpected type node {decl_type.type}"
        name = " ".join(names)
        if name in _SCALARS:
            return _SCALARS[name]
        if name in header.enum_types:
            return ctypes.c_int
        if name in header.structs:
            return _lib.STRUCTS[name]
        if name in header.opaque:
            return _lib.OPAQUE[name]
        if name in _lib.CALLBACKS:
            return _lib.CALLBACKS[name]
        raise AssertionError(f"no ctypes mapping for C type {name!r}")
    if isinstance(decl_type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        if isinstance(decl_type, c_ast.ArrayDecl) and not param:
            return _ctype_of(decl_type.type, header, param=False) * _const_int(decl_type.dim)
        target = decl_type.type
        if isinstance(target, c_ast.TypeDecl) and getattr(target.type, "names", None) == ["char"]:
            return ctypes.c_char_p if "const" in target.quals else POINTER(ctypes.c_char)
        return POINTER(_ctype_of(target, header, param=False))
    raise AssertionError(f"unexpected declarator {decl_type}")


def _name(t: Any) -> str:
    return getattr(t, "__name__", repr(t))


def test_header_parses(header: Header) -> None:
    assert len(header.functions) > 50
    assert "fathom_box" in header.structs
    assert "fathom_mesh" in header.opaque


def test_opaque_handle_types_match_header(header: Header) -> None:
    assert set(header.opaque) == set(_lib.OPAQUE)
    pointer_types = [POINTER(t) for t in _lib.OPAQUE.values()]
    assert len(set(pointer_types)) == len(pointer_types), "each handle kind needs its own pointer type"


def test_every_header_function_has_a_prototype(header: Header) -> None:
    missing = sorted(set(header.functions) - set(_lib.PROTOTYPES))
    assert not missing, f"header functions without a ctypes prototype: {missing}"


def test_every_prototype_is_in_the_header(header: Header) -> None:
    extra = sorted(set(_lib.PROTOTYPES) - set(header.functions))
    assert not extra, f"ctypes prototypes for functions the header does not declare: {extra}"


def _function_names() -> list[str]:
    return sorted(_lib.PROTOTYPES)


@pytest.mark.parametrize("name", _function_names())
def test_prototype_matches_header(header: Header, name: str) -> None:
    func = header.functions.get(name)
    if func is None:
        pytest.fail(f"{name} is not declared in the header")
    proto = _lib.PROTOTYPES[name]
    ret = _ctype_of(func.type, header, param=False)
    assert proto.restype is ret, f"{name}: return type {_name(proto.restype)}, header says {_name(ret)}"
    returns_status = isinstance(func.type, c_ast.TypeDecl) and func.type.type.names == ["fathom_status"]
    assert proto.returns_status == returns_status, f"{name}: status checking does not match the return type"
    params = _params(func)
    assert len(proto.argtypes) == len(params), (
        f"{name}: {len(proto.argtypes)} ctypes arguments, header has {len(params)}: "
        f"{[p.name for p in params]}"
    )
    for i, (p, actual) in enumerate(zip(params, proto.argtypes)):
        expected = _ctype_of(p.type, header, param=True)
        assert actual is expected, f"{name} argument {i} ({p.name}): ctypes {_name(actual)}, header {_name(expected)}"


def test_structs_match_header(header: Header) -> None:
    assert set(header.structs) == set(_lib.STRUCTS), "struct sets differ"
    for name, fields in header.structs.items():
        cls = _lib.STRUCTS[name]
        expected = [(fname, _ctype_of(ftype, header, param=False)) for fname, ftype in fields]
        actual = list(cls._fields_)
        assert [f for f, _ in actual] == [f for f, _ in expected], f"{name}: field names/order differ"
        for (fname, a), (_, e) in zip(actual, expected):
            if isinstance(e, type) and issubclass(e, ctypes.Array):
                assert issubclass(a, ctypes.Array) and a._type_ is e._type_ and a._length_ == e._length_, (
                    f"{name}.{fname}: {_name(a)} vs {_name(e)}"
                )
            else:
                assert a is e, f"{name}.{fname}: ctypes {_name(a)}, header {_name(e)}"


def test_struct_layout_matches_c_compiler(header_path: Path, tmp_path: Path) -> None:
    """sizeof and offsetof from a real C compiler equal ctypes' (catches packing/alignment drift)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to measure struct layouts")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "fathom.h"', "int main(void) {"]
    for name, cls in _lib.STRUCTS.items():
        lines.append(f'  printf("{name} sizeof %zu\\n", sizeof({name}));')
        for fname, _ in cls._fields_:
            lines.append(f'  printf("{name} {fname} %zu\\n", offsetof({name}, {fname}));')
    lines += ["  return 0;", "}"]
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c99", "-I", str(header_path.parent), str(src), "-o", str(exe)], check=True)
    measured = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split("\n")
    for line in filter(None, measured):
        struct, field, value = line.split()
        cls = _lib.STRUCTS[struct]
        actual = ctypes.sizeof(cls) if field == "sizeof" else getattr(cls, field).offset
        assert actual == int(value), f"{struct}.{field}: ctypes {actual}, C {value}"


def test_enum_values_match_header(header: Header) -> None:
    ours = {k: v for k, v in _lib.CONSTANTS.items() if k not in _MACROS}
    assert ours == header.enums


_MACROS = (
    "FATHOM_VERSION_MAJOR", "FATHOM_VERSION_MINOR", "FATHOM_VERSION_PATCH", "FATHOM_RIGID_TOLERANCE", "FATHOM_NO_HIT",
)


def test_macros_match_header(header: Header) -> None:
    for name in ("FATHOM_VERSION_MAJOR", "FATHOM_VERSION_MINOR", "FATHOM_VERSION_PATCH"):
        assert int(header.macros[name]) == _lib.CONSTANTS[name], name
    tolerance = float(header.macros["FATHOM_RIGID_TOLERANCE"].rstrip("fF"))
    assert _lib.CONSTANTS["FATHOM_RIGID_TOLERANCE"] == tolerance
    assert fathom.RIGID_TOLERANCE == pytest.approx(tolerance, rel=1e-6)
    no_hit = int(header.macros["FATHOM_NO_HIT"].rstrip("uUlL"), 0)
    assert _lib.CONSTANTS["FATHOM_NO_HIT"] == no_hit == fathom.NO_HIT


def test_python_enums_match_constants() -> None:
    for member in fathom.Corner:
        assert _lib.CONSTANTS[f"FATHOM_CORNER_{member.name}"] == member.value
    for member in fathom.Face:
        assert _lib.CONSTANTS[f"FATHOM_FACE_{member.name}"] == member.value
    for member in fathom.Anchor:
        assert _lib.CONSTANTS[f"FATHOM_ANCHOR_{member.name}"] == member.value
    for member in fathom.LabelTarget:
        assert _lib.CONSTANTS[f"FATHOM_LABEL_ON_{member.name}"] == member.value
    assert {m.name for m in fathom.MeshClass} == {k[len("FATHOM_CLASS_"):] for k in _lib.CONSTANTS if k.startswith("FATHOM_CLASS_")}
    for member in fathom.MeshClass:
        assert _lib.CONSTANTS[f"FATHOM_CLASS_{member.name}"] == member.value
    for member in fathom.ProjectFlags:
        assert _lib.CONSTANTS[f"FATHOM_PROJECT_{member.name}"] == member.value


def test_hit_dtype_mirrors_fathom_hit() -> None:
    """The numpy hit dtype has fathom_hit's size, field order, offsets and scalar types."""
    assert fathom.HIT_DTYPE.itemsize == ctypes.sizeof(_lib.HitStruct)
    assert list(fathom.HIT_DTYPE.names) == [f for f, _ in _lib.HitStruct._fields_]
    for fname, ctype in _lib.HitStruct._fields_:
        dt, offset = fathom.HIT_DTYPE.fields[fname][:2]
        assert offset == getattr(_lib.HitStruct, fname).offset, fname
        assert dt.itemsize == ctypes.sizeof(ctype), fname


def test_error_classes_cover_every_status(header: Header) -> None:
    statuses = {k: v for k, v in header.enums.items() if k.startswith("FATHOM_ERR_")}
    from fathom.errors import _BY_STATUS

    assert set(_BY_STATUS) == set(statuses.values())
    for cls in _BY_STATUS.values():
        assert issubclass(cls, fathom.FathomError)


def test_library_exports_every_prototype() -> None:
    lib = _lib.library()
    missing = [name for name in _lib.PROTOTYPES if not hasattr(lib, name)]
    assert not missing, f"{_lib.library_path()} does not export: {missing}"
