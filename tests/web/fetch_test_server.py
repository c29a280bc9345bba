"""A real threaded HTTP server on 127.0.0.1 with the misbehaviours the web layer must survive.

Every request is logged server-side (path, arrival time, end time), and concurrent requests are counted,
so politeness and Retry-After are checked where they matter: at the server.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

FRENCH = "Café crème — naïve “quotes”, déjà vu, à la carte, garçon, façade, élève, cœur."
RUSSIAN = (
    "Привет, мир! Это тестовая страница на русском языке. Съешь же ещё этих мягких французских булок, "
    "да выпей чаю. Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства."
)
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"


def html(body: str, head: str = "") -> str:
    return f"<!DOCTYPE html><html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"


# name -> (Content-Type header, body bytes)
ENCODED_PAGES: dict[str, tuple[str, bytes]] = {
    "wrong-declared": ("text/html; charset=utf-8", html(FRENCH).encode("cp1252")),
    "bom": ("text/html; charset=iso-8859-1", b"\xef\xbb\xbf" + html(FRENCH).encode("utf-8")),
    "meta-vs-header": (
        "text/html; charset=iso-8859-1",
        html(FRENCH, '<meta charset="utf-8">').encode("utf-8"),
    ),
    "cp1251-meta": (
        "text/html",
        html(RUSSIAN, '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">').encode("cp1251"),
    ),
    "cp1251-undeclared": ("text/html", html(RUSSIAN).encode("cp1251")),
}


@dataclass
class RequestLog:
    path: str
    started: float
    user_agent: str = ""
    ended: float = 0.0
    authorization: str = ""


@dataclass
class SiteState:
    robots: tuple[int, str] = (200, "User-agent: *\nDisallow: /private/\n")
    log: list[RequestLog] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)
    active: int = 0
    max_active: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: SiteServer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the state's log is what tests read."""

    def do_GET(self) -> None:
        state = self.server.state
        entry = RequestLog(self.path, time.monotonic(), self.headers.get("User-Agent", ""),
                           authorization=self.headers.get("Authorization", ""))
        with state.lock:
            state.log.append(entry)
            state.hits[self.path] += 1
            state.active += 1
            state.max_active = max(state.max_active, state.active)
        try:
            self.route(urlsplit(self.path), state)
        finally:
            with state.lock:
                state.active -= 1
                entry.ended = time.monotonic()

    def route(self, url, state: SiteState) -> None:
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/")
        head = parts[0]
        if url.path == "/robots.txt":
            status, body = state.robots
            return self.send(status, "text/plain", body.encode())
        if head in ("page", "private"):
            return self.send(200, "text/html; charset=utf-8", html(f"page {url.path}").encode())
        if head == "flaky":  # /flaky/KEY?fail=N: 503 for the first N hits
            if state.hits[self.path] <= int(query.get("fail", "1")):
                return self.send(503, "text/html", b"busy")
            return self.send(200, "text/html; charset=utf-8", html("recovered").encode())
        if head == "ratelimit":  # /ratelimit/KEY?after=S: 429 once, then 200
            if state.hits[self.path] == 1:
                return self.send(429, "text/plain", b"slow down", {"Retry-After": query.get("after", "1")})
            return self.send(200, "text/html; charset=utf-8", html("welcome back").encode())
        if head == "drop":  # /drop/KEY: hang up without answering the first time
            if state.hits[self.path] == 1:
                self.close_connection = True
                return None
            return self.send(200, "text/html; charset=utf-8", html("answered").encode())
        if head == "status":
            return self.send(int(parts[1]), "text/html", b"status page")
        if head == "big":
            return self.send_big(int(query["size"]), chunked=query.get("chunked") == "1")
        if head == "loop":
            return self.redirect("/loop/b" if parts[1] == "a" else "/loop/a")
        if head == "chain":
            left = int(parts[1])
            return self.redirect(f"/chain/{left - 1}") if left else self.send(200, "text/html", html("end").encode())
        if head == "redirect":
            return self.redirect(query["to"])
        if head == "image.png":
            return self.send(200, "image/png", PNG_BYTES)
        if head == "data.json":
            return self.send(200, "application/json", b'{"ok": true, "name": "caf\xc3\xa9"}')
        if head == "enc":
            content_type, body = ENCODED_PAGES[parts[1]]
            return self.send(200, content_type, body)
        if head == "slow":
            time.sleep(float(query.get("s", "0.2")))
            return self.send(200, "text/html; charset=utf-8", html("slow").encode())
        return self.send(404, "text/html", b"not found")

    def send(self, status: int, content_type: str, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout test); nothing to do

    def redirect(self, location: str) -> None:
        self.send(302, "text/html", b"", {"Location": location})

    def send_big(self, size: int, chunked: bool) -> None:
        """A large page; with ``chunked`` the length is not announced (body ends when the connection does)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if chunked:
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        block = b"<p>" + b"x" * 8188 + b"</p>"
        sent = 0
        try:
            while sent < size:
                piece = block[: size - sent]
                self.wfile.write(piece)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            return


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.state = SiteState()

    @property
    def host_port(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"

    @property
    def base(self) -> str:
        return f"http://{self.host_port}"

    def url(self, path: str) -> str:
        return f"{self.base}{path}"
