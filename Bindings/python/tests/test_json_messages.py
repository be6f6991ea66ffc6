"""JSON errors say what was found: NaN and Infinity by name, a NUL in a path, a number that does not fit its
field (not the JSON decoder's "The given data was not valid JSON"), and text that is not JSON as a parse error
even when an out-of-range number comes first. Every message names the file, the line and the byte offset.
Numbers read as Python reads them: the float32 of the nearest double, for every way of writing them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
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
    with pytest.raises(fathom.FormatError, match=r"frames\[1\]\.file_path: a path holds no NUL"):
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


def _location(text: str, at: int) -> str:
    """The "line L, byte B" a message gives for offset `at` of `text` (ASCII text: bytes are characters)."""
    return f"line {text.count(chr(10), 0, at) + 1}, byte {at}"


@pytest.mark.parametrize(
    "broken, found",
    [('"w": 640,\n  "h": 480 x', "found 'x'"), ('"w": 640,,', "found ','"), ('"w": [1, 2,]', "found ']'"),
     ('"w": tru', "found 'e'" if False else "expected 'true'"), ('"w": "a\tb"', "control character")],
)
def test_syntax_errors_name_file_line_byte_and_what_was_found(tmp_path: Path, broken: str, found: str) -> None:
    text = '{\n  "frames": [],\n  ' + broken + "\n}\n"
    path = _transforms(tmp_path, text)
    with pytest.raises(fathom.ParseError) as info:
        fathom.read_transforms(path)
    message = info.value.message
    assert str(path) in message and found in message, message
    at = int(re.search(r"byte (\d+)", message).group(1))
    assert _location(text, at) in message
    assert at >= text.index(broken)  # the fault lies in the broken part, and the offset says where


def test_a_mistyped_field_names_its_path_line_and_byte(tmp_path: Path) -> None:
    document = _document([_frame(), _frame()])
    text = json.dumps(document, indent=2)
    second = text.index('"images/0.png"', text.index('"images/0.png"') + 1)
    text = text[:second] + '["images/0.png"]' + text[second + len('"images/0.png"'):]
    path = _transforms(tmp_path, text)
    with pytest.raises(fathom.FormatError) as info:
        fathom.read_transforms(path)
    message = info.value.message
    assert "field frames[1].file_path must be a string, found an array" in message, message
    assert _location(text, second) in message and str(path) in message


@pytest.mark.parametrize("value", ["1e30", "9223372036854775808", "-9223372036854775809", "2.5"])
def test_a_camera_timestamp_that_does_not_fit_names_the_field(tmp_path: Path, value: str) -> None:
    folder = tmp_path / "scan"
    folder.mkdir()
    with fathom.ScanWriter(str(folder), "s", depth_size=(4, 3), rgb_size=(40, 30), confidence=False) as writer:
        for i in range(2):
            writer.append(i, fathom.Intrinsics(50, 50, 20, 15, 40, 30), np.eye(4), np.ones((3, 4), np.float16))
    jsonl = folder / "s.jsonl"
    lines = jsonl.read_text().splitlines()
    lines[1] = re.sub(r'"timestamp":\s*\d+', f'"timestamp":{value}', lines[1])
    jsonl.write_text("\n".join(lines) + "\n")
    with pytest.raises(fathom.FormatError) as info:
        fathom.Scan(str(folder))
    message = info.value.message
    assert "s.jsonl" in message and "line 2" in message and "field timestamp" in message and value in message, message
    assert "The given data" not in message


def test_a_metadata_count_that_does_not_fit_names_the_field(tmp_path: Path) -> None:
    folder = tmp_path / "scan"
    folder.mkdir()
    with fathom.ScanWriter(str(folder), "s", depth_size=(4, 3), rgb_size=(40, 30), confidence=False) as writer:
        writer.append(0, fathom.Intrinsics(50, 50, 20, 15, 40, 30), np.eye(4), np.ones((3, 4), np.float16))
    metadata = folder / "s.json"
    metadata.write_text(re.sub(r'"number_of_frames":\s*1', '"number_of_frames":1e30', metadata.read_text(), count=1))
    with pytest.raises(fathom.FormatError) as info:
        fathom.Scan(str(folder))
    message = info.value.message
    assert "s.json" in message and "streams[0].number_of_frames" in message and "1e30" in message, message


def test_nesting_utf8_and_byte_order_marks(tmp_path: Path) -> None:
    deep = '{"frames": [], "x": ' + "[" * 70 + "]" * 70 + "}"
    with pytest.raises(fathom.ParseError, match="nested deeper than 64"):
        fathom.read_transforms(_transforms(tmp_path, deep))
    path = tmp_path / "transforms.json"
    path.write_bytes(b'{"frames": [], "x": "caf\xe9"}')
    with pytest.raises(fathom.ParseError, match=r"byte 24: a string that is not UTF-8"):
        fathom.read_transforms(path)
    path.write_bytes(b'\xef\xbb\xbf{"frames": []}')
    with pytest.raises(fathom.ParseError, match="byte 0"):
        fathom.read_transforms(path)
    path.write_bytes('{"frames": [], "x": "caf\u00e9 \\ud83d\\ude00"}'.encode())
    assert len(fathom.read_transforms(path)) == 0


def _number_texts(value: float, precise: bool) -> list[str]:
    """Ways writers put a number: shortest double (Python), 17 digits (JSONSerialization), float32 shortest
    (Swift), long fixed, an exponent; and with few digits unless `precise` (a rotation must stay rigid within
    1e-5 to be kept as written)."""
    f32 = np.float32(value)
    texts = [repr(value), f"{value:.17g}", repr(float(f32)), str(f32), f"{value:.25f}", f"{value:.15E}",
             f"{value * 1e7:.9f}e-7"]
    return texts + ([] if precise else [f"{value:.6f}", f"{value:.3e}", f"{value:.0f}", f"{value * 1e3:.2f}E-3"])


def test_numbers_read_as_float32_of_the_nearest_double(tmp_path: Path) -> None:
    """transform_matrix entries written every which way, float32 rounding ties written exactly among them, read
    back as numpy's float32(float(text)) bit for bit (rigid within 1e-5: kept as written)."""
    rng = np.random.default_rng(20261128)
    frames, expected = [], []
    for trial in range(400):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
        t = rng.normal(size=3) * 10.0 ** rng.integers(-4, 4)
        if trial % 2 == 0:
            # Exactly halfway between two float32s: float32 of that double rounds ties to even.
            a = np.float32(t[0])
            t[0] = (float(a) + float(np.nextafter(a, np.float32(np.inf)))) / 2
        texts = [[str(rng.choice(_number_texts(float(v), precise=True))) for v in r[row]]
                 + [str(rng.choice(_number_texts(float(t[row]), precise=False)))] for row in range(3)]
        texts.append(["0", "-0", "0.0e0", "1"])
        frames.append("{\"transform_matrix\": [" + ", ".join("[" + ", ".join(row) + "]" for row in texts) + "]}")
        expected.append(np.array([[np.float32(float(v)) for v in row] for row in texts]))
    text = '{"w": 640, "h": 480, "fl_x": 500, "frames": [' + ",\n".join(frames) + "]}"
    result = fathom.read_transforms(_transforms(tmp_path, text))
    assert len(result) == 400
    for i, matrix in enumerate(expected):
        got = result.poses[i].astype(np.float32)
        assert np.array_equal(got[:3], matrix[:3]), (i, got, matrix)


def test_escaped_keys_and_strings_read_as_written_plainly(tmp_path: Path) -> None:
    """Keys and paths written with \\u escapes (any JSON writer may) read as their plain text, surrogate pairs
    included; numbers with an exponent or a long fraction read as Python reads them."""
    plain = _document([_frame(file_path="café/😀.png")])
    escaped = json.dumps(plain, ensure_ascii=True).replace('"frames"', '"\\u0066rames"').replace(
        '"transform_matrix"', '"transform\\u005fmatrix"').replace('"w": 640', '"\\u0077": 64E1')
    assert json.loads(escaped) == {**plain, "w": 640.0}
    got = fathom.read_transforms(_transforms(tmp_path, escaped))
    assert got.file_paths == ["café/😀.png"] and tuple(got.sizes[0]) == (640, 480)
