"""Serving the demo web on 127.0.0.1 with a threaded HTTP/1.1 server (keep-alive, no per-request work).

Every request is answered from :class:`SiteCollection` (a dict lookup for all linked pages) and logged in
a :class:`RequestLog`, so tests can check what a crawler requested and when (politeness, robots).
The server holds up to strangers too: a malformed request is answered 400, the log keeps the last
:data:`LOG_ENTRIES` requests (targets cut to :data:`LOG_TARGET_CHARS`), and a connection idle for
:data:`IDLE_SECONDS` is closed.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

from scrapesmith.errors import ScrapesmithError
from scrapesmith.sites.collection import SiteCollection, build_sites

LOG_ENTRIES = 20_000
LOG_TARGET_CHARS = 2_048
IDLE_SECONDS = 30.0
MAX_BODY_BYTES = 1024 * 1024


class SiteServerError(ScrapesmithError):
    """The demo server could not start (for example, the port is taken)."""


class RequestLog:
    """A thread-safe list of ``(time.monotonic(), method, target)`` tuples, one per request served.

    Bounded: the oldest entries give way past ``max_entries``, and long targets are cut, so a client
    sending endless long paths cannot grow the server's memory.
    """

    def __init__(self, max_entries: int = LOG_ENTRIES) -> None:
        self._lock = threading.Lock()
        self._entries: deque[tuple[float, str, str]] = deque(maxlen=max_entries)

    def append(self, entry: tuple[float, str, str]) -> None:
        when, method, target = entry
        with self._lock:
            self._entries.append((when, method, target[:LOG_TARGET_CHARS]))

    def snapshot(self) -> list[tuple[float, str, str]]:
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def paths(self) -> list[str]:
        return [target for _time, _method, target in self.snapshot()]

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[tuple[float, str, str]]:
        return iter(self.snapshot())

    def __getitem__(self, index: int) -> tuple[float, str, str]:
        with self._lock:
            return self._entries[index]


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # many concurrent clients (benchmarks, browser contexts) must not see resets
    sites: SiteCollection
    request_log: RequestLog

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that drop a keep-alive connection are normal traffic, not errors worth a traceback."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def track(self, connection: socket.socket, is_open: bool) -> None:
        with self._open_lock:
            (self._open.add if is_open else self._open.discard)(connection)

    def close_open_connections(self) -> None:
        """End keep-alive connections so no handler thread outlives the server."""
        with self._open_lock:
            connections = list(self._open)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scrapesmith-demo/1"
    disable_nagle_algorithm = True
    timeout = IDLE_SECONDS  # an idle keep-alive connection is closed (socket timeout ends handle())
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, True)

    def finish(self) -> None:
        self.server.track(self.connection, False)
        super().finish()

    def do_GET(self) -> None:
        self._answer(with_body=True)

    def do_HEAD(self) -> None:
        self._answer(with_body=False)

    def do_POST(self) -> None:
        self.server.request_log.append((time.monotonic(), "POST", self.path))
        length = self._body_length()
        if length is None:
            self.close_connection = True
            self._send(HTTPStatus.BAD_REQUEST, "text/plain; charset=utf-8", b"Bad Content-Length\n",
                       (("Connection", "close"),), True)
            return
        self.rfile.read(length)
        self._send(
            HTTPStatus.METHOD_NOT_ALLOWED,
            "text/plain; charset=utf-8",
            b"Method Not Allowed\n",
            (("Allow", "GET, HEAD"),),
            True,
        )

    def _body_length(self) -> int | None:
        """The request body's length, or ``None`` when the header is not a count we accept (``abc``, -1)."""
        value = (self.headers.get("Content-Length") or "0").strip()
        if not value.isdigit() or int(value) > MAX_BODY_BYTES:
            return None
        return int(value)

    def _answer(self, with_body: bool) -> None:
        self.server.request_log.append((time.monotonic(), self.command, self.path))
        status, content_type, body, headers = self.server.sites.respond(self.path)
        self._send(status, content_type, body, headers, with_body)

    def _send(self, status: int, content_type: str, body: bytes, headers: tuple, with_body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return


class DemoServer:
    """A running demo web: ``base_url``, ``url(path)``, ``sites`` and ``request_log``."""

    def __init__(self, sites: SiteCollection, port: int = 0, host: str = "127.0.0.1") -> None:
        try:
            self._httpd = _HTTPServer((host, port), _Handler)
        except OSError as exc:
            raise SiteServerError(
                f"cannot serve the demo sites on {host}:{port}: {exc.strerror or exc}"
            ) from exc
        self._httpd.sites = sites
        self._httpd.request_log = RequestLog()
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, name="demo-sites", daemon=True
        )
        self.sites = sites
        self.request_log = self._httpd.request_log
        self.host, self.port = self._httpd.server_address[:2]
        self.base_url = f"http://{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def start(self) -> DemoServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self._httpd.shutdown()
            self._thread.join()
        self._httpd.server_close()
        self._httpd.close_open_connections()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def serve_sites(port: int = 0, seed: int = 7, host: str = "127.0.0.1", layout: int = 0) -> Iterator[DemoServer]:
    """Build the demo web from ``seed`` (in layout version ``layout``) and serve it until the ``with`` block ends."""
    with DemoServer(build_sites(seed, layout), port=port, host=host) as server:
        yield server
