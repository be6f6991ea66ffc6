"""A parser for include/fathom.h (pycparser), shared by the prototype and raw-ABI tests."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from pycparser import c_ast, c_parser

_FAKE_TYPEDEFS = """
typedef unsigned long size_t;
typedef unsigned char uint8_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef int int32_t;
typedef long int64_t;
typedef _Bool bool;
"""


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _python_preprocess(text: str) -> str:
    """A minimal preprocessor for this header: drops directives and the C++-only blocks."""
    out, skipping = [], 0
    for line in _strip_comments(text).splitlines():
        s = line.strip()
        if s.startswith("#"):
            if s.startswith("#ifdef __cplusplus"):
                skipping += 1
            elif s.startswith("#endif") and skipping:
                skipping -= 1
            continue
        if not skipping:
            out.append(line)
    return "\n".join(out)


def _preprocess(text: str) -> str:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#include"))
    source = _FAKE_TYPEDEFS + body
    cpp = shutil.which("cpp") or shutil.which("gcc")
    if cpp is None:
        return _python_preprocess(source)
    args = [cpp, "-P", "-undef", "-"] if cpp.endswith("cpp") else [cpp, "-E", "-P", "-undef", "-x", "c", "-"]
    return subprocess.run(args, input=source, capture_output=True, text=True, check=True).stdout


class Header:
    """Functions, structs (and opaque handle types), enums and macros of include/fathom.h."""

    def __init__(self, path: Path) -> None:
        text = path.read_text()
        self.macros = {
            m.group(1): m.group(2).strip()
            for m in re.finditer(r"^#define\s+(FATHOM_\w+)\s+([^\n]+)$", text, flags=re.M)
            if not m.group(1).endswith("_H")
        }
        ast = c_parser.CParser().parse(_preprocess(text), filename=str(path))
        self.typedefs: dict[str, Any] = {}
        self.functions: dict[str, c_ast.FuncDecl] = {}
        self.structs: dict[str, list[tuple[str, Any]]] = {}
        self.opaque: set[str] = set()  # handle types: declared, never defined (typedef struct x x;)
        self.enums: dict[str, int] = {}
        self.enum_types: set[str] = set()
        for node in ast.ext:
            if isinstance(node, c_ast.Typedef):
                self.typedefs[node.name] = node.type
                inner = node.type.type
                if isinstance(inner, c_ast.Struct):
                    if inner.decls is None:
                        self.opaque.add(node.name)
                    else:
                        self.structs[node.name] = [(d.name, d.type) for d in inner.decls]
                elif isinstance(inner, c_ast.Enum):
                    self.enum_types.add(node.name)
                    self._enum(inner)
            elif isinstance(node, c_ast.Decl):
                if isinstance(node.type, c_ast.FuncDecl):
                    self.functions[node.name] = node.type
                elif isinstance(node.type, c_ast.Enum):
                    self._enum(node.type)

    def _enum(self, enum: c_ast.Enum) -> None:
        value = -1
        for e in enum.values.enumerators:
            value = _const_int(e.value) if e.value is not None else value + 1
            self.enums[e.name] = value


def _const_int(node: Any) -> int:
    if isinstance(node, c_ast.Constant):
        return int(node.value.rstrip("uUlL"), 0)
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        return -_const_int(node.expr)
    raise AssertionError(f"unsupported enum value expression {node}")


def params(func: c_ast.FuncDecl) -> list[c_ast.Decl]:
    """A function's parameters ([] for "(void)")."""
    if func.args is None:
        return []
    ps = list(func.args.params)
    if len(ps) == 1 and ps[0].name is None and getattr(ps[0].type.type, "names", None) == ["void"]:
        return []
    return ps
