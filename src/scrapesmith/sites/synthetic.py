"""A synthetic catalogue of any size on 127.0.0.1, every page made on the fly (``bench scale``, tests).

``/item/N`` (``0 <= N < pages``) is a product page with a name, a SKU and a price that :func:`item_truth`
knows (their XPaths: :data:`ITEM_FIELDS`), inside the navigation, breadcrumbs and related links a real
shop page has (about 5 KB); ``/category/C`` lists 25 items of category ``C`` (for list programs).
Item pages carry an ``ETag`` and a ``Last-Modified`` and answer a matching conditional request with 304;
:meth:`change` makes a page new. ``/robots.txt`` allows everything. ``/__stats`` answers JSON counts (requests, items
fetched more than once, robots.txt fetches, 304s, and the CPU milliseconds its process has used so far;
``/__stats?reset`` then forgets the counts), so a benchmark in another process can read them, and weigh
what the site itself takes of the cores the run shares with it.

The server (threads, or a process of its own for benchmarks: :func:`serve_in_process`) answers HTTP/1.1 with
keep-alive from byte templates made once (a page is a few short values filled in), with a blocking thread
per connection rather than an event loop: cheap enough that the clients, not the server, are what a
benchmark measures. Every request's arrival time is kept (the last :data:`LOG_ENTRIES`), so a test can
check the gaps a politeness limit left between requests.
"""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing
import socket
import threading
import time
from array import array
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from email.utils import formatdate
from string import Formatter
from typing import Any

from scrapesmith.errors import ScrapesmithError

LOG_ENTRIES = 100_000
_NAV = "".join(f'<li><a href="/category/{i}">Category {i}</a></li>' for i in range(40))
_WORDS = ("sturdy", "light", "classic", "compact", "quiet", "bright", "durable", "simple", "modern", "warm")
_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{name} | Synthetic Shop</title>
<link rel="stylesheet" href="/static/site.css"></head>
<body><header><a class="logo" href="/">Synthetic Shop</a><nav><ul class="menu">{nav}</ul></nav></header>
<div class="crumbs"><a href="/">Home</a> / <a href="/category/{category}">Category {category}</a> / {name}</div>
<main class="product"><h1 class="product-name">{name}</h1>
<dl class="facts"><dt>SKU</dt><dd class="sku">{sku}</dd><dt>Price</dt><dd class="price">{price}</dd>
<dt>Stock</dt><dd>{stock} left</dd></dl>
<section class="description"><h2>Description</h2><p>{text}</p><p>{text}</p><p>{text}</p></section>
<section class="related"><h2>Related</h2><ul>{related}</ul></section></main>
<footer><p>Synthetic Shop, page made on request. <a href="/about">About</a> <a href="/contact">Contact</a></p>
</footer></body></html>"""
_EPOCH = 1_700_000_000


ITEM_FIELDS = {"name": "//h1[@class='product-name']/text()", "sku": "//dd[@class='sku']/text()",
               "price": "//dd[@class='price']/text()"}
"""The XPath of each field of :func:`item_truth` on an item page (what a forged spec for it would hold)."""


CATEGORIES = 40
CATEGORY_ITEMS = 25
_CATEGORY = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Category {category} | Synthetic Shop</title></head>
<body><header><a class="logo" href="/">Synthetic Shop</a><nav><ul class="menu">{nav}</ul></nav></header>
<main><h1>Category {category}</h1><ul class="products">{cards}</ul></main>
<footer><p>Synthetic Shop. <a href="/about">About</a> <a href="/contact">Contact</a></p></footer></body></html>"""


def category_items(category: int, pages: int) -> list[int]:
    """The items ``/category/C`` lists, in order."""
    return [n for n in range(category, category + CATEGORIES * CATEGORY_ITEMS, CATEGORIES) if n < pages]


def category_page(category: int, pages: int) -> bytes:
    cards = "".join(f'<li class="card"><a class="title" href="/item/{n}">{item_truth(n)["name"]}</a>'
                    f'<span class="price">{item_truth(n)["price"]}</span></li>' for n in category_items(category, pages))
    return _CATEGORY.format(nav=_NAV, category=category, cards=cards).encode()


class SyntheticSiteError(ScrapesmithError):
    """The synthetic site could not start."""


def item_truth(number: int, version: int = 0) -> dict[str, str]:
    """What the page of item ``number`` says its name, SKU and price are (an edit changes the price)."""
    return {"name": f"Item {number} {_WORDS[number % 10].title()} Model",
            "sku": f"SKU-{number:08d}", "price": f"${(number * 37) % 100_000 / 100 + 1 + version:.2f}"}


def _page_templates() -> tuple[bytes, ...]:
    """The item page as bytes with ``%s`` where a value goes, one per description text (the text depends
    on the item number modulo 10 only): a request fills in a few short values, in one pass."""
    templates = []
    for first in range(len(_WORDS)):
        text = " ".join(_WORDS[(first + i) % 10] for i in range(60))
        page = _PAGE.replace("{nav}", _NAV).replace("{text}", text)
        cut = [(literal.replace("%", "%%"), field) for literal, field, _spec, _conv in Formatter().parse(page)]
        if [field for _literal, field in cut if field] != list(_PAGE_FIELDS):
            raise SyntheticSiteError("the item page's placeholders differ from _PAGE_FIELDS")
        templates.append("".join(literal + ("%s" if field else "") for literal, field in cut).encode())
    return tuple(templates)


_PAGE_FIELDS = ("name", "category", "category", "name", "name", "sku", "price", "stock", "related")
_PAGE_TEMPLATES = _page_templates()
_RELATED = "".join(f'<li><a href="/item/{{{k}}}">Item {{{k}}}</a></li>' for k in range(12))
_RELATED_STEPS = [k * 7919 for k in range(1, 13)]


def item_page(number: int, version: int = 0) -> bytes:
    truth = item_truth(number, version)
    name, category = truth["name"].encode(), b"%d" % (number % 40)
    related = _RELATED.format(*[(number + step) % 1_000_003 for step in _RELATED_STEPS]).encode()
    return _PAGE_TEMPLATES[number % 10] % (name, category, category, name, name, truth["sku"].encode(),
                                           truth["price"].encode(), b"%d" % (number % 17), related)


class SyntheticSite:
    """The pages, what was asked for, and the HTTP answers (no I/O here: :class:`SyntheticServer` does it)."""

    def __init__(self, pages: int, latency: float = 0.0) -> None:
        self.pages = pages
        self.latency = latency
        self.validators = True
        self.versions: dict[int, int] = {}
        self.fetches = array("H", bytes(2 * pages))
        self.log: deque[tuple[float, str]] = deque(maxlen=LOG_ENTRIES)
        self.requests = 0
        self.robots = 0
        self.not_modified = 0
        self._lock = threading.Lock()

    def url(self, host: str, number: int) -> str:
        return f"http://{host}/item/{number}"

    def change(self, number: int) -> None:
        """Item ``number`` is edited: a new ETag and Last-Modified, a different page."""
        self.versions[number] = self.versions.get(number, 0) + 1

    def reset(self) -> None:
        """Forget what was asked so far (pages keep their versions)."""
        self.fetches = array("H", bytes(2 * self.pages))
        self.log.clear()
        self.requests = self.robots = self.not_modified = 0

    def stats(self) -> dict[str, int]:
        fetched = sum(1 for count in self.fetches if count)
        return {"requests": self.requests, "robots": self.robots, "not_modified": self.not_modified,
                "items_fetched": fetched, "item_requests": sum(self.fetches),
                "fetched_twice": sum(count - 1 for count in self.fetches if count > 1),
                "cpu_ms": round(1000 * time.process_time())}

    def answer(self, target: str, headers: dict[str, str]) -> bytes:
        with self._lock:  # connections are answered from threads of their own
            return self._answer(target, headers)

    def _answer(self, target: str, headers: dict[str, str]) -> bytes:
        self.requests += 1
        self.log.append((time.monotonic(), target))
        if target == "/robots.txt":
            self.robots += 1
            return _response(200, b"User-agent: *\nAllow: /\n", "text/plain")
        if target in ("/__stats", "/__stats?reset"):
            body = json.dumps(self.stats()).encode()
            if target.endswith("?reset"):
                self.reset()
            return _response(200, body, "application/json")
        category = _number_after(target, "/category/")
        if category is not None and 0 <= category < CATEGORIES:
            return _response(200, category_page(category, self.pages), "text/html; charset=utf-8")
        number = _number_after(target, "/item/")
        if number is None or not 0 <= number < self.pages:
            return _response(404, b"<h1>Not found</h1>", "text/html")
        if self.fetches[number] < 65_535:
            self.fetches[number] += 1
        version = self.versions.get(number, 0)
        extra = {}
        if self.validators:
            etag = f'"{number}-{version}"'
            extra = {"ETag": etag, "Last-Modified": _last_modified(version)}
            if headers.get("if-none-match") == etag:
                self.not_modified += 1
                return _response(304, b"", None, extra)
        return _response(200, item_page(number, version), "text/html; charset=utf-8", extra)


@functools.cache
def _last_modified(version: int) -> str:
    return formatdate(_EPOCH + version * 86_400, usegmt=True)


def _number_after(target: str, path: str) -> int | None:
    prefix, _, rest = target.partition(path)
    if prefix or not rest.isdigit():
        return None
    return int(rest)


def _response(status: int, body: bytes, content_type: str | None, extra: dict[str, str] | None = None) -> bytes:
    reason = {200: "OK", 304: "Not Modified", 400: "Bad Request", 404: "Not Found"}[status]
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}"]
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    lines += [f"{name}: {value}" for name, value in (extra or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def answer_request(site: SyntheticSite, head: bytes) -> bytes:
    """The answer to one request head; of its headers only ``If-None-Match`` matters here, so only it is
    read."""
    request_line, _, rest = head.partition(b"\r\n")
    parts = request_line.decode("latin-1").split(" ")
    if len(parts) != 3 or parts[0] != "GET":
        return _response(400, b"", None)
    headers = {}
    if b"if-none-match" in rest.lower():
        for line in rest.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return site.answer(parts[1], headers)


class SyntheticServer:
    """:class:`SyntheticSite` served on ``127.0.0.1:port`` (0 = any free port): one thread accepts, one
    thread per connection reads a request and writes its answer with plain blocking calls (two system calls
    a request, no event loop to turn), so the site costs the cores it shares with a run little."""

    def __init__(self, site: SyntheticSite, port: int = 0) -> None:
        self.site = site
        self._requested_port = port
        self._listener: socket.socket | None = None
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.port = 0

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url(self, number: int) -> str:
        return self.site.url(self.host, number)

    def start(self) -> SyntheticServer:
        try:
            self._listener = socket.create_server(("127.0.0.1", self._requested_port), backlog=512)
        except OSError as exc:
            raise SyntheticSiteError(f"cannot serve the synthetic site: {exc}") from exc
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, args=(self._listener,), name="synthetic-site", daemon=True).start()
        return self

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                connection, _address = listener.accept()
            except OSError:  # the listener was shut down: the server stops
                return
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._connections.add(connection)
            threading.Thread(target=self._serve, args=(connection,), name="synthetic-connection",
                             daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        buffer = b""
        try:
            with contextlib.suppress(OSError):  # the client went away, or the server is stopping
                while data := connection.recv(65_536):
                    buffer += data
                    while b"\r\n\r\n" in buffer:
                        head, _, buffer = buffer.partition(b"\r\n\r\n")
                        answer = answer_request(self.site, head)
                        if self.site.latency:
                            time.sleep(self.site.latency)
                        connection.sendall(answer)
        finally:
            with self._lock:
                self._connections.discard(connection)
            connection.close()

    def stop(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


@contextmanager
def serve_synthetic(pages: int, latency: float = 0.0) -> Iterator[SyntheticServer]:
    server = SyntheticServer(SyntheticSite(pages, latency)).start()
    try:
        yield server
    finally:
        server.stop()


def _serve_forever(pages: int, ready: Any) -> None:
    server = SyntheticServer(SyntheticSite(pages)).start()
    ready.send(server.port)
    with contextlib.suppress(EOFError):  # anything, or the parent's end closing, stops the server
        ready.recv()
    server.stop()


@contextmanager
def serve_in_process(pages: int) -> Iterator[str]:
    """The site in a process of its own (its own interpreter lock), as ``127.0.0.1:PORT``."""
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_serve_forever, args=(pages, child), daemon=True)
    process.start()
    try:
        if not parent.poll(30):
            raise SyntheticSiteError("the synthetic site did not start within 30 s")
        yield f"127.0.0.1:{parent.recv()}"
    finally:
        with contextlib.suppress(OSError):  # the server process already gone
            parent.send(None)
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
