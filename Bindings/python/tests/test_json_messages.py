"""JSON errors say what was found: NaN and Infinity by name, a NUL in a path, a number that does not fit its
field (not the JSON decoder's "The given data was not valid JSON"), and text that is not JSON as a parse error
even when an out-of-range number comes first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fathom

ROWS = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def _transforms(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "transforms.json"
    path.write_text(text)
    return path


def _frame(**extra) -> dict:
    return {"file_path": "images/0.png", "transform_matrix": ROWS, **extra}


def _document(frames: list) -> dict:
    return {"fl_x": 500, "fl_y": 500, "cx": 320, "cy": 240, "w": 640, "h": 480, "frames": frames}


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_named(tmp_path: Path, word: str) -> None:
    text = json.dumps(_document([_frame()])).replace('"transform_matrix": [[1', f'"transform_matrix": [[{word}', 1)
    with pytest.raises(fathom.ParseError, match=f"{word} is not a JSON number"):
        fathom.read_transforms(_transforms(tmp_path, text))


def test_a_nul_in_a_path_is_refused(tmp_path: Path) -> None:
    text = json.dumps(_document([_frame(), _frame(file_path="images/1.png\u0000.exe")]))
    with pytest.raises(fathom.FormatError, match=r"frame 1 \(frames\[1\].file_path\): a path holds no NUL"):
        fathom.read_transforms(_transforms(tmp_path, text))


@pytest.mark.parametrize("field, value", [("w", "6.5"), ("w", "1e30"), ("fl_x", "1e39")])
def test_a_number_that_does_not_fit_is_a_format_error(tmp_path: Path, field: str, value: str) -> None:
    document = _document([_frame()])
    document[field] = 0
    text = json.dumps(document).replace(f'"{field}": 0', f'"{field}": {value}')
    with pytest.raises(fathom.FormatError) as info:
        fathom.read_transforms(_transforms(tmp_path, text))
    assert "The given data" not in info.value.message


def test_text_that_is_not_json_is_a_parse_error_after_a_huge_number(tmp_path: Path) -> None:
    with pytest.raises(fathom.ParseError):
        fathom.read_transforms(_transforms(tmp_path, '{"w": 1e309, "frames": [}'))
