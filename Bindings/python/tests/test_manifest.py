"""boundingbox.json through the binding: the library's manifest text (str or bytes) against JSON built and read by
the test itself, files, and each error's exception. The manifest's corners are box.md's, written out in a few
lines below to build hand-made files; the box math itself is the core tests' (BoxTests, ManifestTests)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fathom
from _poses import rot_y

ATOL = 1e-5
CORNER_NAMES = ("top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
                "top_left_back", "top_right_back", "bot_right_back", "bot_left_back")
#: Local corner signs in that order (box.md's table): front is local -z, left -x, top +y.
CORNER_SIGNS = np.array([(-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1),
                         (-1, 1, 1), (1, 1, 1), (1, -1, 1), (-1, -1, 1)], np.float64)


def box_corners(center, scale, angle, floor=None) -> np.ndarray:
    """box.md: center + R_y(angle) (+-sx/2, +-sy/2, +-sz/2), the bottom corners raised to a floor above them."""
    corners = np.asarray(center, np.float64) + (CORNER_SIGNS * np.asarray(scale, np.float64) / 2) @ rot_y(angle).T
    if floor is not None:
        corners[CORNER_SIGNS[:, 1] < 0, 1] = np.maximum(corners[CORNER_SIGNS[:, 1] < 0, 1], floor)
    return corners


def _xyz(v) -> dict[str, float]:
    return {"x": float(v[0]), "y": float(v[1]), "z": float(v[2])}


def _manifest(center, scale, angle, floor=None) -> dict[str, Any]:
    """A manifest built by hand from box.md (not by the library)."""
    corners = box_corners(center, scale, angle, floor)
    return {
        "center": _xyz(center),
        "rad_rot_about_y": float(angle),
        "positions": {name: _xyz(c) for name, c in zip(CORNER_NAMES, corners)},
        "entity_anchor_4x4": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
    }


def test_written_manifest_structure() -> None:
    box = fathom.Box((1.0, 0.5, -2.0), (0.4, 1.0, 0.6), 0.3)
    data = json.loads(box.to_manifest())
    assert set(data) == {"center", "rad_rot_about_y", "positions", "entity_anchor_4x4"}
    assert data["center"] == pytest.approx({"x": 1.0, "y": 0.5, "z": -2.0})
    assert data["rad_rot_about_y"] == pytest.approx(0.3)
    assert set(data["positions"]) == set(CORNER_NAMES)
    expected = box_corners((1.0, 0.5, -2.0), (0.4, 1.0, 0.6), 0.3)
    got = np.array([[data["positions"][n][k] for k in "xyz"] for n in CORNER_NAMES])
    np.testing.assert_allclose(got, expected, atol=ATOL)
    np.testing.assert_array_equal(np.array(data["entity_anchor_4x4"], dtype=float), np.eye(4))


def test_written_manifest_with_floor_has_clamped_corners() -> None:
    box = fathom.Box((0, 0.2, 0), (1, 1, 1), 0.4, floor=0.0)
    data = json.loads(box.to_manifest())
    got = np.array([[data["positions"][n][k] for k in "xyz"] for n in CORNER_NAMES])
    np.testing.assert_allclose(got, box_corners((0, 0.2, 0), (1, 1, 1), 0.4, floor=0.0), atol=ATOL)


@pytest.mark.parametrize("angle", [0.0, 0.3, -2.5])
def test_round_trip(angle: float) -> None:
    box = fathom.Box((0.3, -1.2, 2.0), (0.25, 1.5, 0.7), angle)
    back = fathom.Box.from_manifest(box.to_manifest())
    assert back.isclose(box, atol=1e-5), (box, back)
    assert back.floor is None


def test_round_trip_with_clamping_floor() -> None:
    box = fathom.Box((0.3, 0.2, -1.0), (0.5, 1.0, 0.8), 1.1, floor=0.0)
    back = fathom.Box.from_manifest(box.to_manifest())
    assert back.isclose(box, atol=1e-5), back


def test_unclamped_floor_reads_back_without_floor() -> None:
    box = fathom.Box((0, 2.0, 0), (1, 1, 1), 0.2, floor=0.0)  # floor below the bottom: no clamping
    back = fathom.Box.from_manifest(box.to_manifest())
    assert back.floor is None
    np.testing.assert_allclose(back.corners, box.corners, atol=ATOL)


def test_read_hand_built_manifest() -> None:
    text = json.dumps(_manifest((1.5, 0.75, -0.25), (0.3, 1.5, 0.9), -0.6))
    box = fathom.Box.from_manifest(text)
    np.testing.assert_allclose(box.center, [1.5, 0.75, -0.25], atol=ATOL)
    np.testing.assert_allclose(box.scale, [0.3, 1.5, 0.9], atol=ATOL)
    assert box.rot_y == pytest.approx(-0.6, abs=1e-6)
    assert box.floor is None


def test_read_hand_built_manifest_bytes_any_key_order() -> None:
    data = _manifest((0, 1, 0), (1, 2, 3), 0.1)
    reordered = {k: data[k] for k in ("positions", "entity_anchor_4x4", "rad_rot_about_y", "center")}
    box = fathom.Box.from_manifest(json.dumps(reordered, indent=4).encode("utf-8"))
    np.testing.assert_allclose(box.scale, [1, 2, 3], atol=ATOL)


def test_read_hand_built_manifest_with_floor() -> None:
    text = json.dumps(_manifest((0, 0.2, 0), (1.0, 1.0, 0.5), 0.8, floor=0.05))
    box = fathom.Box.from_manifest(text)
    assert box.floor == pytest.approx(0.05, abs=1e-5)
    np.testing.assert_allclose(box.scale, [1.0, 1.0, 0.5], atol=ATOL)
    np.testing.assert_allclose(box.center, [0, 0.2, 0], atol=ATOL)


def test_save_and_load(tmp_path: Path) -> None:
    box = fathom.Box((1, 2, 3), (0.5, 0.6, 0.7), 2.0, floor=1.8)
    path = tmp_path / "boundingbox.json"
    box.save(path)
    data = json.loads(path.read_text())
    assert data["rad_rot_about_y"] == pytest.approx(2.0)
    assert fathom.Box.load(path).isclose(box, atol=1e-5)
    assert fathom.Box.load(str(path)).isclose(box, atol=1e-5)


def test_save_replaces_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "boundingbox.json"
    path.write_text("x" * 10000)
    fathom.Box((0, 0, 0), (1, 1, 1)).save(path)
    json.loads(path.read_text())  # fully replaced, not overwritten in place


# -- bad input ------------------------------------------------------------------------------------


def test_truncated_manifest_is_parse_error() -> None:
    text = fathom.Box((0, 0, 0), (1, 1, 1)).to_manifest()
    with pytest.raises(fathom.ParseError, match="fathom_box_manifest_read") as info:
        fathom.Box.from_manifest(text[: len(text) // 2])
    assert info.value.status_name == "FATHOM_ERR_PARSE"


def test_malformed_manifest_is_parse_error() -> None:
    with pytest.raises(fathom.ParseError):
        fathom.Box.from_manifest('{"center": {"x": 1,, }')


def test_empty_manifest_is_parse_error() -> None:
    with pytest.raises(fathom.ParseError):
        fathom.Box.from_manifest("")


def test_not_utf8_is_parse_error() -> None:
    text = json.dumps(_manifest((0, 0, 0), (1, 1, 1), 0.0)).replace('"center"', '"c\xe9nter"')
    with pytest.raises(fathom.ParseError):
        fathom.Box.from_manifest(text.encode("latin-1"))  # a lone 0xE9 byte is not UTF-8


def test_not_utf8_in_a_string_value_is_parse_error() -> None:
    with pytest.raises(fathom.ParseError):
        fathom.Box.from_manifest(b'{"center": "\xff"}')


def test_top_level_not_an_object_is_format_error() -> None:
    with pytest.raises(fathom.FormatError, match="fathom_box_manifest_read"):
        fathom.Box.from_manifest("[1, 2]")


def test_missing_field_is_format_error() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    del data["rad_rot_about_y"]
    with pytest.raises(fathom.FormatError, match="rad_rot_about_y"):
        fathom.Box.from_manifest(json.dumps(data))


def test_missing_corner_is_format_error() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    del data["positions"]["bot_left_back"]
    with pytest.raises(fathom.FormatError, match="bot_left_back"):
        fathom.Box.from_manifest(json.dumps(data))


def test_boolean_angle_is_format_error() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    data["rad_rot_about_y"] = True
    with pytest.raises(fathom.FormatError, match="rad_rot_about_y"):
        fathom.Box.from_manifest(json.dumps(data))


def test_mistyped_field_is_format_error() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    data["center"]["y"] = "0.0"
    with pytest.raises(fathom.FormatError, match="center"):
        fathom.Box.from_manifest(json.dumps(data))


def test_non_finite_field_is_format_error() -> None:
    # 1e39 is a finite JSON number but infinite as float32, the type the box stores.
    text = json.dumps(_manifest((0, 0, 0), (1, 1, 1), 0.0)).replace('"rad_rot_about_y": 0.0', '"rad_rot_about_y": 1e39')
    assert "1e39" in text
    with pytest.raises(fathom.FormatError, match="rad_rot_about_y"):
        fathom.Box.from_manifest(text)


def test_non_identity_anchor_is_format_error() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    data["entity_anchor_4x4"][3][0] = 0.5  # a translation
    with pytest.raises(fathom.FormatError, match="entity_anchor_4x4"):
        fathom.Box.from_manifest(json.dumps(data))


def test_corners_not_a_box() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.3)
    data["positions"]["top_right_back"]["x"] += 0.05
    with pytest.raises(fathom.NotABoxError, match="top_right_back"):
        fathom.Box.from_manifest(json.dumps(data))


def test_corners_of_another_angle_are_not_a_box() -> None:
    data = _manifest((0, 0, 0), (1, 2, 1), 0.3)
    data["rad_rot_about_y"] = 0.3 + math.pi / 4
    with pytest.raises(fathom.NotABoxError):
        fathom.Box.from_manifest(json.dumps(data))


def test_corners_with_a_tilt_are_not_a_box() -> None:
    data = _manifest((0, 0, 0), (1, 1, 1), 0.0)
    for name in ("top_left_front", "top_right_front", "bot_right_front", "bot_left_front"):
        data["positions"][name]["y"] += 0.2  # the front raised: a box tilted about x
    with pytest.raises(fathom.NotABoxError):
        fathom.Box.from_manifest(json.dumps(data))


def test_load_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "boundingbox.json"
    with pytest.raises(fathom.FathomIOError, match="boundingbox.json") as info:
        fathom.Box.load(missing)
    assert isinstance(info.value, OSError)


def test_save_into_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(fathom.FathomIOError, match="fathom_box_manifest_save"):
        fathom.Box((0, 0, 0), (1, 1, 1)).save(tmp_path / "nope" / "boundingbox.json")


def test_load_truncated_file_is_parse_error(tmp_path: Path) -> None:
    path = tmp_path / "boundingbox.json"
    path.write_text('{"center": {"x": 0, "y"')
    with pytest.raises(fathom.ParseError):
        fathom.Box.load(path)


def test_path_with_nul_byte(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="NUL"):
        fathom.Box.load(str(tmp_path) + "/a\0b")


def test_from_manifest_wrong_type() -> None:
    with pytest.raises(TypeError, match="str or bytes"):
        fathom.Box.from_manifest({"center": 1})  # type: ignore[arg-type]
