"""A small Chrome DevTools Protocol client for the tests: a headless Chromium driven over a pipe, no packages.

The browser is started with ``--remote-debugging-pipe``: it reads commands on fd 3 and writes replies and
events on fd 4, each message JSON text ended by a NUL byte. One page is opened (a target attached with a flat
session); :meth:`Browser.open` loads a file and waits for its load event, and meanwhile everything the page
says or fetches is recorded:

- ``console``: console calls of any level (Runtime.consoleAPICalled), uncaught exceptions
  (Runtime.exceptionThrown) and the browser's own log (Log.entryAdded: failed loads, CSP, deprecations ...);
- ``failed``: loads that failed (Network.loadingFailed, or an HTTP error status);
- ``external``: every request whose URL is not ``file:`` or ``data:`` (blocked, so nothing leaves the machine).

Every wait has a deadline: a hung or crashed browser raises :class:`BrowserError` (with the end of the
browser's own stderr), it never hangs the test. The browser is killed on :meth:`Browser.close`, on leaving a
``with`` block and at interpreter exit.

    with Browser() as b:
        b.set_viewport(1280, 800)
        b.open(path)
        assert not b.problems()
        title = b.evaluate("document.title")
        png = b.screenshot()
"""

from __future__ import annotations

import atexit
import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional, Union

__all__ = ["Browser", "BrowserError", "JavaScriptError", "find_browser"]

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

# Quiet and reproducible in a container: no sandbox (root, no user namespaces), no GPU, /tmp instead of a small
# /dev/shm, nothing fetched in the background, no throttling of a page nobody looks at, sRGB colours and no
# scroll bars in screenshots.
FLAGS = (
    "--headless=new",
    "--remote-debugging-pipe",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-component-extensions-with-background-pages",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-breakpad",
    "--disable-crash-reporter",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-features=Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions,"
    "AutofillServerCommunication",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-hang-monitor",
    "--disable-prompt-on-repost",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--mute-audio",
    "--hide-scrollbars",
    "--force-color-profile=srgb",
    "--font-render-hinting=none",
    "--log-level=3",
)


class BrowserError(RuntimeError):
    """The browser failed: not found, did not start, died, timed out or answered a command with an error."""


class JavaScriptError(BrowserError):
    """An expression given to :meth:`Browser.evaluate` threw."""


def find_browser() -> str:
    """The Chromium to run: ``$FATHOM_BROWSER``, else the first of :data:`BROWSER_NAMES` on the PATH."""
    override = os.environ.get("FATHOM_BROWSER")
    if override:
        return override
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError(
        "no Chromium found (looked for $FATHOM_BROWSER, " + ", ".join(BROWSER_NAMES)
        + "); install the Debian package `chromium` (make deps does)"
    )


def _high_fd(fd: int) -> int:
    """A close-on-exec copy of ``fd`` numbered 10 or above (so renumbering to 3 and 4 cannot collide); closes
    ``fd``."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


_TRAMPOLINE = (
    "import os, sys\n"
    "r, w = int(sys.argv[1]), int(sys.argv[2])\n"
    "os.dup2(r, 3)\n"
    "os.dup2(w, 4)\n"
    "os.close(r)\n"
    "os.close(w)\n"
    "os.execv(sys.argv[3], sys.argv[3:])\n"
)

_live: "set[Browser]" = set()


@atexit.register
def _kill_all() -> None:
    for b in list(_live):
        b.close()


class Browser:
    """One headless Chromium with one page. Not thread-safe.

    Args:
        executable: the browser (default :func:`find_browser`).
        timeout: default seconds for each command and each wait.
        extra_flags: more command-line flags.
    """

    def __init__(self, executable: Optional[str] = None, timeout: float = 20.0, extra_flags: tuple = ()) -> None:
        self.timeout = float(timeout)
        self.console: list[dict] = []
        self.failed: list[dict] = []
        self.external: list[dict] = []
        self.events: list[dict] = []
        self._requests: dict[str, str] = {}
        self._buffer = b""
        self._next_id = 0
        self._session: Optional[str] = None
        self._unresponsive = False  # a command or wait timed out: close() kills without asking first
        self._proc: Optional[subprocess.Popen] = None
        self._profile = tempfile.mkdtemp(prefix="fathom-browser-")
        self._stderr = open(os.path.join(self._profile, "stderr.log"), "w+b")  # noqa: SIM115 (closed in close())
        exe = executable or find_browser()

        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        cmd_r, cmd_w, reply_r, reply_w = (_high_fd(fd) for fd in (cmd_r, cmd_w, reply_r, reply_w))
        # subprocess keeps pass_fds open at their own numbers; a small Python renumbers them to the 3 and 4 the
        # browser expects, closes the originals and becomes the browser (/bin/sh may not take fds above 9).
        args = [sys.executable, "-c", _TRAMPOLINE, str(cmd_r), str(reply_w), exe, *FLAGS, *extra_flags,
                f"--user-data-dir={self._profile}/profile", "about:blank"]
        try:
            self._proc = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=self._stderr, stderr=self._stderr,
                pass_fds=(cmd_r, reply_w), start_new_session=True,
            )
        except OSError as e:
            for fd in (cmd_r, cmd_w, reply_r, reply_w):
                os.close(fd)
            self._cleanup_files()
            raise BrowserError(f"could not start {exe}: {e}") from e
        os.close(cmd_r)
        os.close(reply_w)
        self._out = cmd_w
        self._in = reply_r
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)
        _live.add(self)
        try:
            self._attach()
        except BaseException:
            self.close()
            raise

    # -- lifetime -----------------------------------------------------------------------------------

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def pid(self) -> Optional[int]:
        """The browser's process id (also its process group's), None once closed."""
        return None if self._proc is None else self._proc.pid

    def close(self) -> None:
        """Asks the browser to quit, then kills whatever is left of its process group and removes its profile.
        Safe to call twice."""
        _live.discard(self)
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None and not self._unresponsive:
                try:
                    self._write(b'{"id": 0, "method": "Browser.close", "params": {}}\0', time.monotonic() + 1)
                    proc.wait(timeout=2)
                except (BrowserError, subprocess.TimeoutExpired):
                    pass
            for fd in (self._out, self._in):
                try:
                    os.close(fd)
                except OSError:
                    pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the browser's own group (start_new_session): its helpers too
            except (ProcessLookupError, PermissionError):
                pass
            if proc.poll() is None:
                proc.kill()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self._cleanup_files()

    def _cleanup_files(self) -> None:
        if not self._stderr.closed:
            self._stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def stderr_tail(self, limit: int = 2000) -> str:
        """The end of what the browser wrote to stdout and stderr."""
        if self._stderr.closed:
            return ""
        self._stderr.flush()
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - limit))
        text = self._stderr.read().decode("utf-8", "replace")
        self._stderr.seek(0, os.SEEK_END)
        return text

    def _fail(self, message: str) -> BrowserError:
        if "timed out" in message:
            self._unresponsive = True
        code = None if self._proc is None else self._proc.poll()
        state = "not running" if self._proc is None else ("running" if code is None else f"exited with {code}")
        tail = self.stderr_tail().strip()
        return BrowserError(f"{message} (browser {state})" + (f"; its output ends:\n{tail}" if tail else ""))

    # -- the pipe -----------------------------------------------------------------------------------

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail("timed out writing a command")
            _, writable, _ = select.select([], [self._out], [], left)
            if not writable:
                continue
            try:
                n = os.write(self._out, view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError) as e:
                raise self._fail(f"the command pipe broke: {e}") from e
            view = view[n:]

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            readable, _, _ = select.select([self._in], [], [], left)
            if not readable:
                continue
            try:
                chunk = os.read(self._in, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._fail("the browser closed its reply pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(raw)
        if "method" in message:
            self._on_event(message)
        return message

    def _send(self, method: str, params: Optional[dict], session: Optional[str], timeout: Optional[float]) -> dict:
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        self._write(json.dumps(message).encode("utf-8") + b"\0", deadline)
        while True:
            try:
                reply = self._read_message(deadline)
            except TimeoutError:
                raise self._fail(f"timed out waiting for the reply to {method}") from None
            if reply.get("id") == ident:
                if "error" in reply:
                    error = reply["error"]
                    raise BrowserError(f"{method} failed: {error.get('message')} {error.get('data', '')}".strip())
                return reply.get("result", {})

    def send(self, method: str, params: Optional[dict] = None, timeout: Optional[float] = None) -> dict:
        """Sends a command to the page's session and returns its result (events meanwhile are recorded)."""
        if self._proc is None:
            raise BrowserError("the browser is closed")
        return self._send(method, params, self._session, timeout)

    def wait_for(self, method: str, timeout: Optional[float] = None, since: int = 0) -> dict:
        """The first event named ``method`` recorded at index ``since`` or later of :attr:`events`, waiting for
        it up to ``timeout`` seconds."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        index = since
        while True:
            while index < len(self.events):
                if self.events[index]["method"] == method:
                    return self.events[index]
                index += 1
            try:
                self._read_message(deadline)
            except TimeoutError:
                raise self._fail(f"timed out waiting for {method}") from None

    def _attach(self) -> None:
        self._send("Browser.getVersion", None, None, self.timeout)  # the first answer: the browser is up
        target = self._send("Target.createTarget", {"url": "about:blank"}, None, None)["targetId"]
        attached = self._send("Target.attachToTarget", {"targetId": target, "flatten": True}, None, None)
        self._session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        # Nothing leaves the machine: external requests are still reported (requestWillBeSent), then blocked.
        # URLPattern rules (Chromium 138+); the older glob list also matched "http://" inside data: URLs (an
        # inline SVG's xmlns), so without the new form nothing is blocked and external loads are only reported.
        try:
            self.send("Network.setBlockedURLs", {"urlPatterns": [{"urlPattern": f"{scheme}://*", "block": True}
                                                                 for scheme in ("http", "https", "ws", "wss", "ftp")]})
        except BrowserError:
            pass
        self.send("Network.setCacheDisabled", {"cacheDisabled": True})

    # -- events -------------------------------------------------------------------------------------

    def _on_event(self, event: dict) -> None:
        if event.get("sessionId") != self._session:
            return
        self.events.append(event)
        method, p = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(_remote_text(a) for a in p.get("args", []))
            self.console.append({"source": "console", "level": p.get("type"), "text": text})
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text", "")
            where = f"{d.get('url', '')}:{d.get('lineNumber', 0) + 1}:{d.get('columnNumber', 0) + 1}"
            self.console.append({"source": "exception", "level": "error", "text": f"{text} at {where}"})
        elif method == "Log.entryAdded":
            e = p.get("entry", {})
            self.console.append({"source": f"log:{e.get('source')}", "level": e.get("level"),
                                 "text": (e.get("text", "") + (f" ({e['url']})" if e.get("url") else "")).strip()})
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            self._requests[p.get("requestId", "")] = url
            if not url.startswith(("file:", "data:")):
                self.external.append({"url": url, "type": p.get("type")})
        elif method == "Network.loadingFailed":
            url = self._requests.get(p.get("requestId", ""), "?")
            reason = p.get("blockedReason") or p.get("errorText") or "failed"
            self.failed.append({"url": url, "reason": reason, "type": p.get("type")})
        elif method == "Network.responseReceived":
            r = p.get("response", {})
            if r.get("url", "").startswith(("http:", "https:")) and int(r.get("status", 0)) >= 400:
                self.failed.append({"url": r["url"], "reason": f"HTTP {r['status']}", "type": p.get("type")})

    def clear(self) -> None:
        """Forgets the recorded events, console messages and loads."""
        self.events.clear()
        self.console.clear()
        self.failed.clear()
        self.external.clear()
        self._requests.clear()

    def problems(self) -> list[str]:
        """Everything that should not happen on a clean self-contained page, one line each: console messages,
        exceptions, browser log entries, failed loads and external requests."""
        out = [f"console {m['source']} [{m['level']}]: {m['text']}" for m in self.console]
        out += [f"failed load: {f['url']} ({f['reason']})" for f in self.failed]
        out += [f"external request: {e['url']}" for e in self.external]
        return out

    def settle(self, timeout: Optional[float] = None) -> None:
        """Waits two animation frames, then drains what arrived: messages logged just after load are seen."""
        self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
                      timeout=timeout)
        deadline = time.monotonic() + 0.05
        try:
            while True:
                self._read_message(deadline)
        except TimeoutError:
            pass

    # -- page ---------------------------------------------------------------------------------------

    def open(self, where: Union[str, os.PathLike], timeout: Optional[float] = None) -> None:
        """Loads a file (a path or a ``file:`` URL) and waits for its load event; records from a clean slate."""
        url = Path(where).resolve().as_uri() if not str(where).startswith(("file:", "data:", "about:")) else str(where)
        self.clear()
        result = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if result.get("errorText"):
            raise BrowserError(f"could not open {url}: {result['errorText']}")
        self.wait_for("Page.loadEventFired", timeout=timeout)
        self.settle(timeout)

    def evaluate(self, expression: str, timeout: Optional[float] = None) -> Any:
        """The JSON value of a JavaScript expression (promises are awaited). Raises :class:`JavaScriptError`
        when it throws."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True,
                                          "userGesture": False}, timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise JavaScriptError(d.get("exception", {}).get("description") or d.get("text", "exception"))
        return r.get("result", {}).get("value")

    def set_viewport(self, width: int, height: int, scale: float = 1.0) -> None:
        """The page's viewport in CSS pixels and its device pixel ratio."""
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": int(width), "height": int(height), "deviceScaleFactor": float(scale), "mobile": False})

    def rects(self, selector: str) -> list[dict]:
        """Bounding rectangles (x, y, width, height in CSS pixels of the whole page, not the viewport) of the
        elements matching a CSS selector, in document order, with each element's id."""
        return self.evaluate(
            "Array.from(document.querySelectorAll(" + json.dumps(selector) + ")).map(e => {"
            " const r = e.getBoundingClientRect();"
            " return {id: e.id, x: r.left + window.scrollX, y: r.top + window.scrollY,"
            "         width: r.width, height: r.height};"
            "})"
        )

    def screenshot(self, path: Union[str, os.PathLike, None] = None, full_page: bool = True,
                   timeout: Optional[float] = None) -> bytes:
        """A PNG of the page (the whole document when ``full_page``, else the viewport), written to ``path``
        too when given. At device scale 1 its pixels are the CSS pixels of :meth:`rects`."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            m = self.send("Page.getLayoutMetrics", timeout=timeout)
            size = m.get("cssContentSize") or m["contentSize"]
            params["captureBeyondViewport"] = True
            params["clip"] = {"x": 0, "y": 0, "width": max(1, size["width"]), "height": max(1, size["height"]),
                              "scale": 1}
        data = base64.b64decode(self.send("Page.captureScreenshot", params, timeout=timeout)["data"])
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_bytes(data)
        return data


def _remote_text(obj: dict) -> str:
    """A console argument (a Runtime.RemoteObject) as text."""
    if "value" in obj:
        v = obj["value"]
        return v if isinstance(v, str) else json.dumps(v)
    if "unserializableValue" in obj:
        return str(obj["unserializableValue"])
    return str(obj.get("description", obj.get("type", "")))
