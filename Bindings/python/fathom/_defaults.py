"""The library's own defaults for the options dataclasses: read once from a ``fathom_*_options_init`` call."""

from __future__ import annotations

import functools
from ctypes import byref
from dataclasses import field
from typing import Any, Callable


def library_defaults(struct_type: type, init: Callable[[Any], Any], from_c: Callable[[Any], Any]) -> Callable[[], Any]:
    """A cached function returning ``from_c`` of a ``struct_type`` filled by the library's ``init``."""

    @functools.lru_cache(maxsize=1)
    def defaults() -> Any:
        c = struct_type()
        init(byref(c))
        return from_c(c)

    return defaults


def default_field(defaults: Callable[[], Any], name: str) -> Any:
    """A dataclass field whose default is attribute ``name`` of ``defaults()``, read on first use."""
    return field(default_factory=lambda: getattr(defaults(), name))
