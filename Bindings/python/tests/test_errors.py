"""Status codes, their names and the exception classes."""

from __future__ import annotations

import pickle
import threading

import pytest

import fathom
from fathom import _lib
from fathom._lib import check_status, error_for_status
from fathom.errors import _BY_STATUS

STATUS_NAMES = {v: k for k, v in _lib.CONSTANTS.items() if k.startswith("FATHOM_ERR_") or k == "FATHOM_OK"}


@pytest.mark.parametrize("status", sorted(STATUS_NAMES))
def test_status_names_from_library(status: int) -> None:
    assert _lib.fathom_status_name(status).decode() == STATUS_NAMES[status]


def test_unknown_status_name() -> None:
    assert _lib.fathom_status_name(999).decode() == "FATHOM_UNKNOWN_STATUS"
    assert _lib.fathom_status_name(-1).decode() == "FATHOM_UNKNOWN_STATUS"


def test_check_ok_does_nothing() -> None:
    check_status(0)


@pytest.mark.parametrize("status", sorted(_BY_STATUS))
def test_check_raises_the_subclass(status: int) -> None:
    with pytest.raises(_BY_STATUS[status]) as info:
        check_status(status)
    assert info.value.status == status
    assert info.value.status_name == STATUS_NAMES[status]
    assert isinstance(info.value, fathom.FathomError)


def test_unknown_status_raises_base_class() -> None:
    err = error_for_status(77)
    assert type(err) is fathom.FathomError and err.status_name == "FATHOM_UNKNOWN_STATUS"


def test_subclass_names() -> None:
    expected = {
        1: "NullPointerError", 2: "NotFiniteError", 3: "OutOfRangeError", 4: "FathomOverflowError",
        5: "BufferTooSmallError", 6: "NotRigidError", 7: "DegenerateError", 8: "InvalidStateError",
        9: "ParseError", 10: "FormatError", 11: "NotABoxError", 12: "FathomIOError", 13: "LapackError",
        14: "FathomMemoryError",
        15: "NoDataError",
    }
    assert {s: c.__name__ for s, c in _BY_STATUS.items()} == expected
    for name in expected.values():
        assert getattr(fathom, name) is getattr(fathom.errors, name)


def test_builtin_families() -> None:
    assert issubclass(fathom.NotFiniteError, ValueError)
    assert issubclass(fathom.FathomIOError, OSError)
    assert issubclass(fathom.FathomMemoryError, MemoryError)
    assert issubclass(fathom.FathomOverflowError, OverflowError)


def test_error_carries_last_error_message() -> None:
    with pytest.raises(fathom.OutOfRangeError) as info:
        fathom.Box((0, 0, 0), (1, -0.2, 1))
    err = info.value
    assert err.message == _lib.fathom_last_error().decode()
    assert err.message.startswith("fathom_box_init")
    assert "-0.2" in err.message  # the offending value
    assert str(err) == f"{err.message} [FATHOM_ERR_OUT_OF_RANGE]"
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is fathom.OutOfRangeError and again.message == err.message


def test_success_does_not_clear_last_error() -> None:
    with pytest.raises(fathom.OutOfRangeError):
        fathom.Box((0, 0, 0), (1, 0, 1))
    message = _lib.fathom_last_error().decode()
    fathom.Box((0, 0, 0), (1, 1, 1))
    assert _lib.fathom_last_error().decode() == message


def test_last_error_is_per_thread() -> None:
    with pytest.raises(fathom.NotFiniteError):
        fathom.Box((float("nan"), 0, 0), (1, 1, 1))
    here = _lib.fathom_last_error().decode()
    seen: list[str] = []

    def other() -> None:
        seen.append(_lib.fathom_last_error().decode())  # a fresh thread: nothing failed yet
        try:
            fathom.Box((0, 0, 0), (1, 1, -5))
        except fathom.OutOfRangeError as e:
            seen.append(e.message)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen[0] == ""
    assert seen[1].startswith("fathom_box_init") and "scale" in seen[1]
    assert _lib.fathom_last_error().decode() == here  # the other thread's error did not overwrite ours


def test_errors_from_many_threads_stay_separate() -> None:
    results: dict[int, str] = {}

    def worker(i: int) -> None:
        for _ in range(200):
            try:
                fathom.Box((0, 0, 0), (1, 1, -float(i + 1)))
            except fathom.OutOfRangeError as e:
                results[i] = e.message
                if f"-{i + 1}" not in e.message:
                    results[i] = "WRONG: " + e.message
                    return

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(not m.startswith("WRONG") for m in results.values()), results
