"""Shared pieces of the browser tests: options, the policy allowing loopback, the trap pages, and the
check for Chromium processes left behind. (A plain module, so test files can import it by name.)"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from http.server import BaseHTTPRequestHandler
from typing import ClassVar

import psutil

from scrapesmith.web.browser import BrowserOptions, BrowserPolicy

FAST = BrowserOptions(action_timeout=1.5, page_timeout=10.0, settle_timeout=2.0, watchdog_margin=5.0)

TRAP_PAGES: dict[str, tuple[int, dict[str, str], bytes]] = {
    "/redirect-private": (302, {"Location": "http://10.0.0.1/secret"}, b""),
    "/redirect-chain": (302, {"Location": "/redirect-private"}, b""),
    "/link-private": (200, {"Content-Type": "text/html"},
                      b'<html><body><h1>Links</h1><a id="out" href="http://10.0.0.1/admin">router</a></body></html>'),
    "/meta-private": (200, {"Content-Type": "text/html"},
                      b'<html><head><meta http-equiv="refresh" content="0;url=http://10.0.0.1/m"></head></html>'),
    "/script-private": (200, {"Content-Type": "text/html"},
                        b'<html><body><script>location.href = "http://10.0.0.1/s";</script></body></html>'),
    "/image-private": (200, {"Content-Type": "text/html"},
                       b'<html><body><p id="ok">still here</p><img src="http://10.0.0.1/pixel.png"></body></html>'),
    "/download": (200, {"Content-Type": "application/octet-stream",
                        "Content-Disposition": "attachment; filename=data.bin"}, b"\x00\x01" * 64),
    "/form": (200, {"Content-Type": "text/html"}, b"""<html><body>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent =
  document.getElementById('q').value + '|' + document.getElementById('agree').checked;">
<input id="q" name="q"><label><input id="agree" type="checkbox"> agree</label>
<button id="go" type="submit">Search</button></form>
<p id="out"></p><p id="hovered"></p>
<div id="tip" onmouseover="document.getElementById('hovered').textContent='yes'">hover me</div>
<div style="height:3000px"></div><a id="bottom" href="/link-private">bottom link</a>
</body></html>"""),
    "/popups": (200, {"Content-Type": "text/html"}, b"""<html><body>
<a id="blank" target="_blank" href="/form">form in a new window</a>
<button id="opener" onclick="window.open('/image-private')">open a window</button>
<button id="alert" onclick="alert('hi'); document.getElementById('after').textContent = 'went on'">
alert</button>
<p id="after"></p>
<script>
window.addEventListener('beforeunload', function (e) { e.preventDefault(); e.returnValue = ''; });
</script>
</body></html>"""),
    "/later": (200, {"Content-Type": "text/html"}, b"""<html><body>
<button id="local" onclick="document.getElementById('out').textContent = 'drawn here'">draw</button>
<button id="fetch" onclick="fetch('/slow/data').then(r => r.text()).then(t => {
  document.getElementById('out').textContent = t; })">fetch</button>
<a id="away" href="/slow/page">away</a>
<p id="out"></p></body></html>"""),
    "/slow/data": (200, {"Content-Type": "text/plain"}, b"fetched late"),
    "/slow/page": (200, {"Content-Type": "text/html"}, b"<html><body><h1 id='arrived'>arrived late</h1></body></html>"),
    # once loaded, the page tells the server (a synchronous request: answered before the next line runs) and spins
    "/spin": (200, {"Content-Type": "text/html"}, b"""<html><body><p>busy</p><script>setTimeout(function () {
  var told = new XMLHttpRequest(); told.open('GET', '/spinning', false); told.send(); for (;;) {}
}, 50)</script></body></html>"""),
    "/spinning": (200, {"Content-Type": "text/plain"}, b"spinning"),
}


#: How long the server holds pages under ``/slow/`` (what an action started must still be waited for).
SLOW_SECONDS = 0.4


class TrapHandler(BaseHTTPRequestHandler):
    #: A path's event is set once the server has answered it, so a test can wait for what a page did.
    served: ClassVar[defaultdict[str, threading.Event]] = defaultdict(threading.Event)

    def do_GET(self) -> None:
        if self.path.startswith("/slow/"):
            time.sleep(SLOW_SECONDS)
        status, headers, body = TRAP_PAGES.get(self.path, (404, {"Content-Type": "text/plain"}, b"not found"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.served[self.path].set()

    def log_message(self, format: str, *args: object) -> None:
        return


def local_policy(**overrides: object) -> BrowserPolicy:
    """Rules allowing the loopback test servers, without politeness delays."""
    options: dict[str, object] = {"allow_hosts": ["127.0.0.1"], "delay": 0.0}
    options.update(overrides)
    return BrowserPolicy.from_settings(**options)  # type: ignore[arg-type]


def our_chromium_processes() -> list[psutil.Process]:
    """Chromium processes descended from this test process (other programs' Chromium is ignored)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if "chromium" in child.name() or "chromium" in " ".join(child.cmdline()[:1]):
                found.append(child)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found
