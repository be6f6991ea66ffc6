"""Progress callbacks of long calls (``fathom_progress_fn``): a Python ``progress(done, total)`` that returns False
to stop, or raises, passed to the library; an exception it raised is raised again once the library returns."""

from __future__ import annotations

from typing import Any, Callable, Optional

from ._lib import ProgressFn
from .errors import InvalidStateError


def with_progress(progress: Optional[Callable[[int, int], Any]], call: Callable[[Any], Any]) -> Any:
    """``call(callback)`` with ``progress`` as a ``fathom_progress_fn`` (NULL when None). The library stops at a
    non-zero return and reports InvalidStateError ("cancelled"); when ``progress`` raised, that exception is raised
    instead."""
    raised: list[BaseException] = []

    def relay(_user: Any, done: int, total: int) -> int:
        try:
            return 0 if progress(done, total) is not False else 1  # type: ignore[misc]
        except BaseException as exc:  # noqa: BLE001 - re-raised after the library returns
            raised.append(exc)
            return 1

    callback = ProgressFn(relay) if progress is not None else ProgressFn()
    try:
        return call(callback)
    except InvalidStateError:
        if raised:
            raise raised[0] from None
        raise
