"""The HTML report page (report.html) and its standalone SVG figures, opened in a real headless Chromium.

Three reports: the CLI's built-in demo capture (`fathom-cli demo DIR`), a rendered room with an object circled
on a table and a rendered walk-through (no object: no box, no coverage, a ceiling), the last two written as
scanner scans by tests/_room_scenes.py and saved with `fathom.scan_report(path).save(dir)`. Each page must load
without a console message or a failed or external load, be one self-contained file, show report.json's
numbers in the units and formats of the contract below, and draw every figure. Full-page screenshots at 1280 px
are kept in test-output/report-page/ for people to look at.

The contract (what report.html promises):
- self-contained: no <link>, no external src/href, no @import, no web fonts; <title> starts "Fathom report".
- <section id="warnings"> before <table id="measurements">; one <li class="warning"> per warning, its text
  exactly the warning; none: <p class="none">No warnings.</p>.
- measurements: <tr data-key=KEY> with <th> (words), <td class="value" data-si=SI> and <td class="evidence">;
  data-si the report.json value (1e-6 relative; counts exact); displayed text per MEASUREMENTS below; a row
  exactly when its JSON source is not null.
- figures fig-top, fig-side, fig-speed always, fig-coverage and fig-bins with coverage: one inline <svg> with a
  viewBox and a <figcaption>; <text class="axis-label">, <text class="tick"> numbers, <g class="legend">
  entries (a <rect class="swatch"> before each), a scale bar in fig-top, face names and counts in fig-coverage.
- top-view.svg, side-view.svg, speed.svg (+ coverage.svg, view-bins.svg with coverage) beside report.html:
  standalone SVG documents with the inline figures' axis labels.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest
from PIL import Image

import fathom

import _room_scenes as rooms
from _browser import Browser

REPO_ROOT = Path(__file__).resolve().parents[3]
OUTPUT = REPO_ROOT / "test-output" / "report-page"
VIEWPORT = (1280, 800)
SVG_NS = "http://www.w3.org/2000/svg"

# KEY: (path of its value in report.json, kind). Kinds: length (m, shown "%.1f cm"), angle (rad, "%.0f°"),
# time (s, "%.1f s"), speed (m/s, "%.2f m/s"), count (an integer), score ("%.2f"), faces ("N of M").
MEASUREMENTS = {
    "floor_height": (("floor", "height"), "length"),
    "support_height": (("support", "height"), "length"),
    "ceiling_height": (("ceiling", "height"), "length"),
    "room_height": (("room_height",), "length"),
    "box_width": (("box", "scale", 0), "length"),
    "box_height": (("box", "scale", 1), "length"),
    "box_depth": (("box", "scale", 2), "length"),
    "box_rotation": (("box", "rot_y"), "angle"),
    "orbit_span": (("orbit", "span"), "angle"),
    "orbit_radius": (("orbit", "radius"), "length"),
    "orbit_views": (("orbit", "views"), "count"),
    "path_length": (("trajectory", "path_length"), "length"),
    "duration": (("duration",), "time"),
    "time_too_slow": (("trajectory", "time_too_slow"), "time"),
    "time_too_fast": (("trajectory", "time_too_fast"), "time"),
    "speed_p50": (("trajectory", "speed_p50"), "speed"),
    "speed_max": (("trajectory", "speed_max"), "speed"),
    "frames": (("frames",), "count"),
    "fused_frames": (("fused_frames",), "count"),
    "cloud_points": (("cloud_points",), "count"),
    "object_points": (("object_points",), "count"),
    "faces_complete": (("coverage", "faces_complete"), "faces"),
    "angular_score": (("coverage", "angular_score"), "score"),
}

AXIS_LABELS = {
    "fig-top": ["x (m)", "z (m)"],
    "fig-side": ["height y (m)", "x (m)"],
    "fig-speed": ["speed (m/s)", "time (s)"],
}
STANDALONE = {"fig-top": "top-view.svg", "fig-side": "side-view.svg", "fig-speed": "speed.svg",
              "fig-coverage": "coverage.svg", "fig-bins": "view-bins.svg"}
FACES = ("front", "back", "left", "right", "top", "bottom")


# -- building the reports -------------------------------------------------------------------------------


def _cli() -> Path:
    """The REPL/CLI binary: $FATHOM_CLI, else beside $FATHOM_LIBRARY (the Makefile sets it), else the release
    build in the repository."""
    candidates = []
    if os.environ.get("FATHOM_CLI"):
        candidates.append(Path(os.environ["FATHOM_CLI"]))
    if os.environ.get("FATHOM_LIBRARY"):
        candidates.append(Path(os.environ["FATHOM_LIBRARY"]).parent / "fathom-cli")
    candidates.append(REPO_ROOT / ".build" / "release" / "fathom-cli")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    pytest.fail("fathom-cli not found (looked at " + ", ".join(map(str, candidates)) + "); run `make build`")


def _build_demo(tmp: Path) -> Path:
    done = subprocess.run([str(_cli()), "demo", str(tmp)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"fathom-cli demo failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return tmp / "report"


def _build_rendered(builder):
    def build(tmp: Path) -> Path:
        scene = builder(0, n=60)
        scan = rooms.write_scanner(tmp / "scan", "room", scene.capture)
        out = tmp / "report"
        fathom.scan_report(scan).save(out)
        return out
    return build


BUILDS = {
    "demo": _build_demo,
    "object_on_table": _build_rendered(rooms.object_on_table),
    "room_walkthrough": _build_rendered(rooms.room_walkthrough),
}

# Everything the tests look at in a page, read in one go: text, attributes, legends and layout rects.
_READ_PAGE = r"""
(() => {
  const all = (root, sel) => root ? Array.from(root.querySelectorAll(sel)) : [];
  const text = e => e.textContent;
  const rect = e => { const r = e.getBoundingClientRect();
                      return {x: r.left + window.scrollX, y: r.top + window.scrollY,
                              width: r.width, height: r.height}; };
  const out = {title: document.title};
  const sec = document.querySelector('section#warnings');
  const table = document.querySelector('table#measurements');
  out.has_warnings = !!sec;
  out.has_table = !!table;
  out.warnings_first = !!(sec && table && (sec.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING));
  out.warnings = all(sec, 'li.warning').map(text);
  out.warning_items = all(document, 'li.warning').length;
  out.none = all(sec, 'p.none').map(text);
  out.rows = all(table, 'tr[data-key]').map(tr => ({
    key: tr.getAttribute('data-key'),
    th: all(tr, 'th').map(text),
    values: all(tr, 'td.value').map(td => ({text: td.textContent, si: td.getAttribute('data-si')})),
    evidence: all(tr, 'td.evidence').length,
  }));
  out.figures = {};
  for (const fig of all(document, 'figure[id]')) {
    const svgs = all(fig, 'svg').filter(s => !s.parentElement.closest('svg'));
    const svg = svgs[0] || null;
    const legend = [];
    for (const g of all(svg, 'g.legend')) {
      let swatch = null;
      for (const e of all(g, 'rect.swatch, text')) {
        if (e.tagName.toLowerCase() === 'rect') { swatch = getComputedStyle(e).fill; continue; }
        legend.push({text: e.textContent.trim(), swatch: swatch});
        swatch = null;
      }
    }
    out.figures[fig.id] = {
      svgs: svgs.length,
      view_box: svg ? svg.getAttribute('viewBox') : null,
      captions: all(fig, 'figcaption').map(e => e.textContent.trim()),
      axis_labels: all(svg, 'text.axis-label').map(e => e.textContent.trim()),
      ticks: all(svg, 'text.tick').map(e => e.textContent.trim()),
      legend: legend,
      legends: all(svg, 'g.legend').length,
      scale_bar: all(svg, 'g.scale-bar text').map(e => e.textContent.trim()),
      face_names: all(svg, 'text.face-name').map(e => e.textContent.trim()),
      face_counts: all(svg, 'text.face-count').map(e => e.textContent.trim()),
      rect: rect(fig),
      svg_rect: svg ? rect(svg) : null,
    };
  }
  out.links = all(document, 'link').map(e => e.outerHTML.slice(0, 200));
  out.srcs = all(document, '[src]').map(e => [e.tagName, e.getAttribute('src')]);
  out.data_attrs = all(document, 'object[data]').map(e => e.getAttribute('data'));
  out.hrefs = all(document, '*').flatMap(e => {
    const h = [e.getAttribute('href'), e.getAttributeNS('http://www.w3.org/1999/xlink', 'href')]
      .filter(v => v !== null);
    return h.map(v => [e.tagName, v]);
  });
  out.fonts = document.fonts ? document.fonts.size : 0;
  out.body_text = document.body ? document.body.innerText.length : 0;
  return out;
})()
"""


@dataclass
class Page:
    name: str
    dir: Path
    data: dict
    source: str
    problems: list
    dom: dict
    image: np.ndarray
    screenshot: Path


@pytest.fixture(scope="module")
def browser():
    with Browser(timeout=30) as b:
        b.set_viewport(*VIEWPORT)
        yield b


def _load(name: str, browser: Browser, folder: Path) -> Page:
    shot = OUTPUT / f"{name}.png"
    shot.unlink(missing_ok=True)  # no stale picture of an earlier run when this one fails
    folder = BUILDS[name](folder)
    html = folder / "report.html"
    if not html.is_file():
        holds = sorted(p.name for p in folder.iterdir())
        raise FileNotFoundError(f"no report.html in {folder} (it holds {holds}); the library or CLI predates the HTML "
                                "report")
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    browser.open(html)
    problems = browser.problems()
    dom = browser.evaluate(_READ_PAGE)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    png = browser.screenshot(shot)
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    return Page(name, folder, data, html.read_text(encoding="utf-8"), problems, dom, image, shot)


@pytest.fixture(scope="module", params=list(BUILDS))
def page(request, browser, tmp_path_factory):
    """Each report built and opened once: its :class:`Page`, or why there is none (every test then fails with
    it, rather than erroring in setup)."""
    try:
        return _load(request.param, browser, tmp_path_factory.mktemp(f"report-page-{request.param}"))
    except (Exception, pytest.fail.Exception) as e:  # noqa: BLE001 (reported by each test)
        return f"{type(e).__name__}: {e}"


def _ready(page) -> Page:
    """The page, or the test fails with why it could not be built or opened."""
    if isinstance(page, str):
        pytest.fail(page, pytrace=False)
    return page


# -- helpers ----------------------------------------------------------------------------------------------


def _source(data: dict, path: tuple) -> Any:
    v = data
    for p in path:
        if v is None:
            return None
        v = v[p]
    return v


def _formats(fmt: str, x: float) -> set:
    """What a correct formatting of ``x`` may show: ``fmt % x``, also for ``x`` one part in 1e9 either side (the
    writer may round a float32 differently at a half-way digit); a value that rounds to zero may show "0.0" and,
    when negative, "-0.0" too."""
    out = set()
    for v in (x, x * (1 + 1e-9) + 1e-12, x * (1 - 1e-9) - 1e-12):
        s = fmt % v
        m = re.fullmatch(r"(-?)([0-9.]+)(.*)", s)
        if m and set(m[2]) <= {"0", "."}:
            out.add(m[2] + m[3])
            if x < 0:
                out.add("-" + m[2] + m[3])
        else:
            out.add(s)
    return out


def _expected_text(kind: str, v: Any, data: dict) -> set:
    if kind == "length":
        return _formats("%.1f cm", float(v) * 100)
    if kind == "angle":
        return _formats("%.0f°", math.degrees(float(v)))
    if kind == "time":
        return _formats("%.1f s", float(v))
    if kind == "speed":
        return _formats("%.2f m/s", float(v))
    if kind == "score":
        return _formats("%.2f", float(v))
    if kind == "count":
        return {str(int(v))}
    if kind == "faces":
        return {f"{int(v)} of {int(data['coverage']['faces_needed'])}"}
    raise AssertionError(kind)


def _number(text: str) -> Optional[float]:
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None


def _svg_axis_labels(path: Path) -> list:
    root = ET.parse(path).getroot()
    return sorted("".join(e.itertext()).strip() for e in root.iter(f"{{{SVG_NS}}}text")
                  if "axis-label" in (e.get("class") or "").split())


def _expected_figures(data: dict) -> list:
    figs = ["fig-top", "fig-side", "fig-speed"]
    if data["coverage"] is not None:
        figs += ["fig-coverage", "fig-bins"]
    return figs


# -- the page as a browser sees it --------------------------------------------------------------------------


def test_loads_without_console_messages_or_outside_loads(page):
    page = _ready(page)
    assert page.problems == [], f"{page.name}: the page said or fetched:\n" + "\n".join(page.problems)
    assert page.dom["body_text"] > 0


def test_is_one_self_contained_file(page):
    page = _ready(page)
    d, src = page.dom, page.source
    assert d["title"].startswith("Fathom report"), d["title"]
    assert d["links"] == [], "no <link> elements"
    assert not re.search(r"<link\b", src, re.I)
    assert "@import" not in src
    assert "@font-face" not in src and d["fonts"] == 0, "no web fonts"
    bad_urls = re.findall(r"url\(\s*['\"]?\s*(?!data:|#)([^)'\"]*)", src)
    assert bad_urls == [], f"CSS url() references outside the page: {bad_urls}"
    bad_src = [s for s in d["srcs"] if not s[1].startswith("data:")]
    assert bad_src == [], f"src attributes that load a file: {bad_src}"
    assert [v for v in d["data_attrs"] if not v.startswith("data:")] == []
    outside = re.compile(r"^\s*(//|[a-z][a-z0-9+.-]*:)", re.I)
    bad_href = [h for h in d["hrefs"]
                if (h[0].lower() != "a" and not h[1].startswith(("#", "data:")))
                or (h[0].lower() == "a" and outside.match(h[1]) and not h[1].startswith("data:"))]
    assert bad_href == [], f"href attributes that point outside the page: {bad_href}"


def test_warnings_come_first_one_item_each(page):
    page = _ready(page)
    d, warnings = page.dom, page.data["warnings"]
    assert d["has_warnings"], "no <section id='warnings'>"
    assert d["has_table"], "no <table id='measurements'>"
    assert d["warnings_first"], "the warnings section must come before the measurements table"
    assert d["warnings"] == warnings
    assert d["warning_items"] == len(warnings), "li.warning outside the warnings section"
    if warnings:
        assert d["none"] == []
    else:
        assert d["none"] == ["No warnings."]


def test_measurements_match_report_json(page):
    page = _ready(page)
    data, rows = page.data, page.dom["rows"]
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)), f"repeated rows: {keys}"
    unknown = set(keys) - set(MEASUREMENTS)
    assert not unknown, f"rows the contract does not define: {sorted(unknown)}"
    expected = {k for k, (path, _) in MEASUREMENTS.items() if _source(data, path) is not None}
    assert set(keys) == expected, (f"missing rows {sorted(expected - set(keys))}, "
                                   f"rows whose source is null {sorted(set(keys) - expected)}")
    wrong = []
    for r in rows:
        path, kind = MEASUREMENTS[r["key"]]
        v = _source(data, path)
        assert len(r["th"]) == 1 and re.search(r"[A-Za-z]", r["th"][0]) and "_" not in r["th"][0], \
            f"{r['key']}: one <th> naming it in words, got {r['th']}"
        assert len(r["values"]) == 1, f"{r['key']}: one td.value, got {r['values']}"
        assert r["evidence"] == 1, f"{r['key']}: one td.evidence"
        cell = r["values"][0]
        si = _number(cell["si"] or "")
        assert si is not None, f"{r['key']}: data-si {cell['si']!r} is not a number"
        if kind in ("count", "faces"):
            ok_si = si == v
        else:
            ok_si = si == pytest.approx(float(v), rel=1e-6, abs=1e-12)
        shown, allowed = cell["text"].strip(), _expected_text(kind, v, data)
        if not ok_si or shown not in allowed:
            wrong.append(f"{r['key']}: data-si {cell['si']!r} shows {shown!r}; report.json {v!r} -> "
                         f"{' or '.join(sorted(allowed))}")
    assert not wrong, "\n".join(wrong)


def test_every_figure_has_one_svg_and_a_caption(page):
    page = _ready(page)
    figs = page.dom["figures"]
    want = _expected_figures(page.data)
    for fid in ("fig-top", "fig-side", "fig-speed", "fig-coverage", "fig-bins"):
        assert (fid in figs) == (fid in want), f"{fid} {'missing' if fid in want else 'present without coverage'}"
    for fid in want:
        f = figs[fid]
        assert f["svgs"] == 1, f"{fid}: {f['svgs']} inline svgs"
        box = [_number(t) for t in re.split(r"[\s,]+", (f["view_box"] or "").strip())]
        assert len(box) == 4 and None not in box and box[2] > 0 and box[3] > 0, f"{fid}: viewBox {f['view_box']!r}"
        assert len(f["captions"]) == 1 and f["captions"][0], f"{fid}: figcaption {f['captions']}"


def test_axis_labels_and_ticks(page):
    page = _ready(page)
    figs = page.dom["figures"]
    for fid, labels in AXIS_LABELS.items():
        assert sorted(figs[fid]["axis_labels"]) == labels, fid
        ticks = figs[fid]["ticks"]
        assert len(ticks) >= 2, f"{fid}: tick labels {ticks}"
    for fid, f in figs.items():
        assert [t for t in f["ticks"] if _number(t) is None] == [], f"{fid}: tick labels that are not numbers"


def _legend(page, fid) -> dict:
    entries = page.dom["figures"][fid]["legend"]
    assert page.dom["figures"][fid]["legends"] >= 1, f"{fid}: no g.legend"
    texts = [e["text"] for e in entries]
    assert len(texts) == len(set(texts)), f"{fid}: repeated legend entries {texts}"
    return {e["text"]: e["swatch"] for e in entries}


def _why(shown: bool) -> str:
    return "missing" if shown else "shown though report.json has no such thing"


def test_top_view_legend_and_scale_bar(page):
    page = _ready(page)
    data = page.data
    legend = _legend(page, "fig-top")
    for entry, shown in (("fused cloud", True), ("camera path", True), ("box", data["box"] is not None),
                         ("object points", data["object_points"] > 0), ("captures", bool(data["captures"])),
                         ("focus", data["focus"] is not None and data["object_capture"])):
        assert (entry in legend) == shown, f"fig-top legend {sorted(legend)}: {entry!r} {_why(shown)}"
    bar = page.dom["figures"]["fig-top"]["scale_bar"]
    assert len(bar) == 1 and re.fullmatch(r"\d+(\.\d+)? ?(cm|m)", bar[0]), f"scale bar text {bar}"


def test_side_view_legend(page):
    page = _ready(page)
    data = page.data
    legend = _legend(page, "fig-side")
    for entry, shown in (("floor", data["floor"] is not None), ("support", data["support"] is not None),
                         ("ceiling", data["ceiling"] is not None), ("cameras", True)):
        assert (entry in legend) == shown, f"fig-side legend {sorted(legend)}: {entry!r} {_why(shown)}"


def test_speed_legend_tells_each_band_apart(page):
    page = _ready(page)
    legend = _legend(page, "fig-speed")
    for entry in ("speed", "too slow", "too fast", "slightly slow", "slightly fast"):
        assert entry in legend, f"fig-speed legend {sorted(legend)} lacks {entry!r}"
    for a, b in (("too slow", "too fast"), ("slightly slow", "slightly fast")):
        assert legend[a] and legend[b], f"no rect.swatch before {a!r} or {b!r}: {legend}"
        assert legend[a] != legend[b], f"{a!r} and {b!r} share the colour {legend[a]}"


def test_coverage_faces_match_report_json(page):
    page = _ready(page)
    coverage = page.data["coverage"]
    if coverage is None:
        assert "fig-coverage" not in page.dom["figures"]
        return
    fig = page.dom["figures"]["fig-coverage"]
    assert sorted(fig["face_names"]) == sorted(FACES), fig["face_names"]
    assert len(fig["face_counts"]) == 6, fig["face_counts"]
    faces = {f["name"]: f for f in coverage["faces"]}
    for name, shown in zip(fig["face_names"], fig["face_counts"]):
        m = re.fullmatch(r"(\d+) views · (\d+)%", shown)
        assert m, f"{name}: face count text {shown!r}, want 'N views · P%'"
        f = faces[name]
        assert int(m[1]) == f["count"], f"{name}: {shown!r} but {f['count']} views"
        assert abs(int(m[2]) - f["progress"] * 100) <= 0.5 + 1e-9, f"{name}: {shown!r} but progress {f['progress']}"
    legend = _legend(page, "fig-coverage")
    for entry in ("0%", "100%", "not needed"):
        assert entry in legend, f"fig-coverage legend {sorted(legend)} lacks {entry!r}"


def test_screenshot_shows_every_figure_drawn(page):
    page = _ready(page)
    img = page.image
    assert img.shape[1] == VIEWPORT[0], f"screenshot {img.shape[1]} px wide"
    for fid in _expected_figures(page.data):
        f = page.dom["figures"][fid]
        assert f["rect"]["width"] > 0 and f["rect"]["height"] > 0, f"{fid} is not laid out"
        r = f["svg_rect"]
        x0, y0 = int(math.floor(r["x"])), int(math.floor(r["y"]))
        x1, y1 = int(math.ceil(r["x"] + r["width"])), int(math.ceil(r["y"] + r["height"]))
        assert r["width"] >= 100 and r["height"] >= 50, f"{fid}: its svg is {r['width']} x {r['height']} px"
        assert 0 <= x0 and x1 <= img.shape[1] and 0 <= y0 and y1 <= img.shape[0], f"{fid}: {r} off the page"
        crop = img[y0:y1, x0:x1].reshape(-1, 3).astype(np.uint32)
        colours, counts = np.unique(crop[:, 0] << 16 | crop[:, 1] << 8 | crop[:, 2], return_counts=True)
        drawn = 1 - counts.max() / len(crop)
        background = int(colours[counts.argmax()])
        assert drawn >= 0.03 and len(colours) > 2, (
            f"{fid} looks blank in {page.screenshot}: {drawn:.1%} of its pixels differ from its background "
            f"#{background:06x}, {len(colours)} colours")


def test_standalone_svgs_match_the_inline_figures(page):
    page = _ready(page)
    for fid in _expected_figures(page.data):
        path = page.dir / STANDALONE[fid]
        assert path.is_file(), f"{path.name} missing beside report.html"
        root = ET.parse(path).getroot()
        assert root.tag == f"{{{SVG_NS}}}svg", f"{path.name}: root {root.tag}, want an <svg> with xmlns={SVG_NS}"
        assert _svg_axis_labels(path) == sorted(page.dom["figures"][fid]["axis_labels"]), path.name
    if page.data["coverage"] is None:
        for fid in ("fig-coverage", "fig-bins"):
            assert not (page.dir / STANDALONE[fid]).exists(), f"{STANDALONE[fid]} written without coverage"


def test_strings_from_files_are_text_not_markup(browser, tmp_path):
    """A scan id and warnings come from files a user did not write: markup in them shows as text. The page runs no
    script, loads nothing and shows the strings exactly."""
    scan = rooms.write_scanner(tmp_path / "scan", "room", rooms.room_walkthrough(0, n=20).capture)
    report = fathom.scan_report(scan)
    data = report.to_dict()
    hostile = '</title></script><script>document.title="owned"</script><img src=x onerror=alert(1)>&amp;"\''
    data["scan_id"] = hostile
    data["warnings"] = [hostile, "<b>bold</b>"]
    fathom.ScanReport(data, report.cloud, report.object).save(tmp_path / "out")
    browser.open(tmp_path / "out" / "report.html")
    assert browser.problems() == []
    seen = browser.evaluate("""({title: document.title, scripts: document.scripts.length,
        images: document.images.length, bold: document.querySelectorAll('#warnings b').length,
        warnings: Array.from(document.querySelectorAll('li.warning')).map(e => e.textContent)})""")
    assert seen["title"] == "Fathom report: " + hostile
    assert seen["scripts"] == 0 and seen["images"] == 0 and seen["bold"] == 0
    assert seen["warnings"] == [hostile, "<b>bold</b>"]
    for svg in (tmp_path / "out").glob("*.svg"):
        ET.parse(svg)  # still well-formed XML
