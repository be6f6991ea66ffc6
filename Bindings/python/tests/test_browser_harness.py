"""The headless-browser harness (tests/_browser.py) catches what the report-page tests rely on it to catch:
console messages, failed and external loads, DOM read-back, pixels of a screenshot, and a hung browser failing
instead of hanging. Each page is a few lines written to tmp_path."""

from __future__ import annotations

import io
import os
import signal
import time

import numpy as np
import pytest
from PIL import Image

from _browser import Browser, BrowserError, JavaScriptError


@pytest.fixture(scope="module")
def browser():
    with Browser(timeout=20) as b:
        yield b


def _page(tmp_path, body: str, name: str = "page.html") -> str:
    path = tmp_path / name
    head = "<!doctype html><html><head><meta charset='utf-8'><title>t</title></head>"
    path.write_text(f"{head}<body>{body}</body></html>", encoding="utf-8")
    return str(path)


def _live_in_group(pgid: int) -> list[int]:
    """Processes of a process group that are still running (not zombies waiting to be reaped)."""
    live = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            live.append(int(entry))
    return live


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_console_error_is_reported(browser, tmp_path):
    browser.open(_page(tmp_path, "<script>console.error('x')</script>"))
    assert [(m["level"], m["text"]) for m in browser.console] == [("error", "x")]
    assert browser.problems() == ["console console [error]: x"]


def test_every_console_level_and_uncaught_exceptions_are_reported(browser, tmp_path):
    browser.open(_page(tmp_path, "<script>console.log('a'); console.info('b', 2); console.warn('c');"
                                 "console.debug('d');"
                                 "setTimeout(() => { throw new Error('late') }, 0)</script>"
                                 "<script>undefinedFunction()</script>"))
    texts = [m["text"] for m in browser.console]
    assert texts[:4] == ["a", "b 2", "c", "d"]
    assert [m["level"] for m in browser.console[:4]] == ["log", "info", "warning", "debug"]
    exceptions = [m["text"] for m in browser.console if m["source"] == "exception"]
    assert any("undefinedFunction" in t for t in exceptions), browser.console
    assert any("late" in t for t in exceptions), browser.console  # thrown after the load event: settle() waits


def test_a_missing_image_is_a_failed_load(browser, tmp_path):
    browser.open(_page(tmp_path, "<img src='missing.png'>"))
    assert [f["url"] for f in browser.failed] == [(tmp_path / "missing.png").as_uri()]
    assert "ERR_FILE_NOT_FOUND" in browser.failed[0]["reason"]
    assert browser.external == []
    assert any("missing.png" in p for p in browser.problems())


def test_an_external_script_is_reported_and_never_fetched(browser, tmp_path):
    browser.open(_page(tmp_path, "<script src='http://example.com/a.js'></script>"
                                 "<p style=\"background:url(https://example.org/bg.png)\">p</p>"))
    urls = [e["url"] for e in browser.external]
    assert "http://example.com/a.js" in urls
    assert "https://example.org/bg.png" in urls
    # Blocked by the harness, so the test neither needs nor uses the network.
    assert {f["url"] for f in browser.failed} >= {"http://example.com/a.js"}


def test_a_clean_page_reports_nothing_and_reads_back(browser, tmp_path):
    inline = "data:image/svg+xml," + "%3Csvg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/%3E"
    browser.open(_page(tmp_path, f"<h1 id='h'>Hello <b>there</b></h1><ul><li>1</li><li>2</li></ul>"
                                 f"<img src=\"{inline}\">"))
    assert browser.problems() == []
    assert browser.evaluate("document.getElementById('h').textContent") == "Hello there"
    assert browser.evaluate("document.title") == "t"
    assert browser.evaluate("Array.from(document.querySelectorAll('li')).map(e => +e.textContent)") == [1, 2]
    value = browser.evaluate("({a: [1, 2.5, null], b: {c: 'd'}, e: true})")
    assert value == {"a": [1, 2.5, None], "b": {"c": "d"}, "e": True}


def test_a_second_page_starts_from_a_clean_slate(browser, tmp_path):
    browser.open(_page(tmp_path, "<script>console.error('first')</script>", "a.html"))
    assert browser.problems()
    browser.open(_page(tmp_path, "<p>second</p>", "b.html"))
    assert browser.problems() == []


def test_a_throwing_expression_raises(browser, tmp_path):
    browser.open(_page(tmp_path, "<p>p</p>"))
    with pytest.raises(JavaScriptError, match="boom"):
        browser.evaluate("(() => { throw new Error('boom') })()")


def test_screenshot_shows_a_coloured_div_where_its_rect_says(browser, tmp_path):
    browser.set_viewport(400, 300)
    try:
        browser.open(_page(tmp_path,
                           "<style>body{margin:0;background:#fff} div{position:absolute}</style>"
                           "<div id='a' style='left:40px;top:60px;width:120px;height:80px;"
                           "background:rgb(0,128,255)'></div>"
                           "<div id='b' style='left:200px;top:1500px;width:50px;height:40px;"
                           "background:rgb(200,30,40)'></div>"
                           "<div style='position:static;height:2000px'></div>"))
        png = browser.screenshot(tmp_path / "shot.png")
        assert (tmp_path / "shot.png").read_bytes() == png
        img = _pixels(png)
        assert img.shape[1] == 400 and img.shape[0] >= 2000  # the whole page, not the 300 px viewport
        for (sel, colour) in (("#a", (0, 128, 255)), ("#b", (200, 30, 40))):
            [r] = browser.rects(sel)
            x, y, w, h = (int(round(r[k])) for k in ("x", "y", "width", "height"))
            inside = img[y + 2:y + h - 2, x + 2:x + w - 2].reshape(-1, 3)
            assert np.abs(inside.astype(int) - colour).max() <= 2, sel
            assert (img[y - 5, x - 5] == 255).all() and (img[y + h + 5, x + w + 5] == 255).all()
        assert browser.rects("#b")[0]["y"] == 1500
        # The viewport only: 300 px tall.
        assert _pixels(browser.screenshot(full_page=False)).shape[:2] == (300, 400)
    finally:
        browser.set_viewport(1280, 800)


def test_a_hung_page_times_out(tmp_path):
    with Browser(timeout=20) as b:
        b.open(_page(tmp_path, "<p>p</p>"))
        start = time.monotonic()
        with pytest.raises(BrowserError, match="timed out"):
            b.evaluate("new Promise(() => {})", timeout=1)
        assert time.monotonic() - start < 5


def test_a_hung_browser_fails_instead_of_hanging_and_is_killed(tmp_path):
    b = Browser(timeout=20)
    pid = b.pid
    try:
        os.killpg(pid, signal.SIGSTOP)  # the whole browser (its own process group) stops answering
        start = time.monotonic()
        with pytest.raises(BrowserError, match="timed out"):
            b.send("Runtime.evaluate", {"expression": "1"}, timeout=1)
        assert time.monotonic() - start < 5
    finally:
        b.close()
    assert b.pid is None
    assert _live_in_group(pid) == []


def test_close_ends_every_browser_process():
    b = Browser(timeout=20)
    pid = b.pid
    assert len(_live_in_group(pid)) > 1  # the browser and its helpers
    b.close()
    b.close()  # twice is fine
    assert _live_in_group(pid) == []
    with pytest.raises(BrowserError, match="closed"):
        b.send("Runtime.evaluate", {"expression": "1"})


def test_a_missing_browser_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("FATHOM_BROWSER", str(tmp_path / "no-such-browser"))
    with pytest.raises(BrowserError):
        Browser(timeout=5)
