"""A loopback HTTP proxy that every connection of our Chromium goes through, refusing unsafe addresses.

Why a proxy: Playwright's request interception does not see redirect hops (Chromium follows a 3xx on its
own), so a page on an allowed host that redirects to ``http://10.0.0.1/`` would reach the private network
before any route handler could object. Chromium launched with ``--proxy-server`` sends *every* request,
loopback included, through this proxy; the proxy resolves the host itself, checks each address with
:class:`~scrapesmith.web.safety.AddressGuard` and connects to the address it checked (no DNS-rebinding
window). A refused plain-HTTP request gets a 403 tagged ``X-Scrapesmith-Refused``; a refused ``CONNECT``
(HTTPS, WebSocket) gets a 403 before any tunnel exists. For plain-HTTP document navigations, redirect hops
included, ``navigation_check`` (robots.txt) runs here as well.

The request target is parsed once, strictly (:func:`parse_target`): a ``CONNECT`` takes a plain
``host:port`` and a forwarded request a plain ``http://host[:port]/path?query``; the address checked and the
address connected to both come from that one parse. Anything else (a ``/``, ``?``, ``#`` or ``@`` in a
``CONNECT`` target, user info or a fragment in a URI, a backslash, spaces, control or non-ASCII characters) is a 400
and a recorded refusal: a lenient parse let ``CONNECT 127.0.0.1:A/x:B`` pass the check for port A and
connect to port B.

One request per client connection: simple, and Chromium copes with a proxy that closes after a response.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from scrapesmith.web.page import FetchError
from scrapesmith.web.safety import REFUSED_HEADER, AddressGuard, origin_of, redact_url, resolve_host

__all__ = ["REFUSED_HEADER", "GuardProxy", "Refusal", "Target", "is_browser_service_host", "parse_target"]
_HOP_BY_HOP = {"proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "upgrade"}
_HEAD_LIMIT = 64 * 1024
_PIPE_CHUNK = 64 * 1024

NavigationCheck = Callable[[str], "Refusal | None"]

# Chromium contacts these on its own (component updates, account checks) even with background networking
# disabled. They are refused here without so much as a DNS lookup; pages never need them.
BROWSER_SERVICE_HOSTS = frozenset({"update.googleapis.com", "accounts.google.com", "clients2.google.com"})
BROWSER_SERVICE_SUFFIXES = (".gvt1.com", ".gvt2.com", "-pa.googleapis.com", "clientservices.googleapis.com")


def is_browser_service_host(host: str) -> bool:
    host = host.lower().strip("[]")
    return host in BROWSER_SERVICE_HOSTS or host.endswith(BROWSER_SERVICE_SUFFIXES)


# A host name (letters, digits, dots, hyphens, underscores), a dotted IPv4 address or a bracketed IPv6 one.
_HOST = r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?)"
_CONNECT_TARGET = re.compile(_HOST + r":(?P<port>[0-9]{1,5})")
# Printable ASCII without space, '#' or '\\': what a path and query may hold here (the host ends before it).
_ABSOLUTE_TARGET = re.compile(r"http://" + _HOST + r"(?::(?P<port>[0-9]{1,5}))?(?P<path>/[!-\"$-\[\]-~]*)?")
_METHOD = re.compile(r"[A-Z]{1,20}")


@dataclass(frozen=True)
class Target:
    """Where one proxied request goes, parsed once: the URL the guard checks names exactly the host and
    port connected to (``port``); ``path`` is what the upstream request asks for ("" for a tunnel)."""

    method: str
    url: str
    port: int
    path: str

    @property
    def tunnel(self) -> bool:
        return self.method == "CONNECT"


def parse_target(method: str, target: str) -> Target | None:
    """The request line's method and target as a :class:`Target`; ``None`` unless both are plain."""
    if not _METHOD.fullmatch(method):
        return None
    match = (_CONNECT_TARGET if method == "CONNECT" else _ABSOLUTE_TARGET).fullmatch(target)
    if match is None:
        return None
    port = int(match["port"] or 80)
    if not 0 < port < 65536:
        return None
    if method == "CONNECT":
        return Target(method, f"{'http' if port == 80 else 'https'}://{target}/", port, "")
    return Target(method, target, port, match["path"] or "/")  # plain: urlsplit reads the same host and port


@dataclass(frozen=True)
class Refusal:
    """Why a request was not sent: ``reason`` is a FetchError reason tag (``blocked-address``, ``robots``)."""

    url: str
    reason: str
    message: str


class GuardProxy:
    """Asyncio proxy on 127.0.0.1 (port chosen by the OS); run it on the browser's event loop."""

    def __init__(
        self,
        guard: AddressGuard,
        navigation_check: NavigationCheck | None = None,
        connect_timeout: float = 10.0,
        idle_timeout: float = 60.0,
        max_connections: int | None = None,
    ) -> None:
        self.guard = guard
        self.navigation_check = navigation_check
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        #: connections served at once; one more is closed unanswered (each costs this
        #: process two descriptors: thousands of them ran a sandbox's parent out)
        self.max_connections = max_connections
        self._over_reported = False
        self.refusals: deque[Refusal] = deque(maxlen=200)
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0, limit=_HEAD_LIMIT)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def start_unix(self, path: str) -> str:
        """Listen on the Unix socket ``path`` instead (a sandbox's only way out); returns ``path``."""
        self._server = await asyncio.start_unix_server(self._accept, path, limit=_HEAD_LIMIT)
        return path

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def refusal_for(self, url: str) -> Refusal | None:
        """The most recent refusal of ``url`` (or of its origin, for tunnels), if any."""
        try:
            origin = str(origin_of(url))
        except FetchError:
            return None
        for refusal in reversed(self.refusals):
            if refusal.url == url or refusal.url.rstrip("/") == origin:
                return refusal
        return None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.max_connections is not None and len(self._tasks) >= self.max_connections:
            if not self._over_reported:
                self._over_reported = True
                self._refuse(Refusal("", "too-many-connections", f"connections past {self.max_connections} at "
                                     "once (each one more is closed unanswered)"))
            writer.close()
            return
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            with contextlib.suppress(TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                await self._serve(reader, writer)
        finally:
            if task is not None:
                self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.idle_timeout)
        lines = head.decode("latin-1").split("\r\n")
        method, raw_target, _version = (lines[0].split(" ", 2) + ["", ""])[:3]
        target = parse_target(method, raw_target)
        if target is None:
            shown = repr(redact_url(raw_target)[:200])  # never a user:password@ in the log
            self._refuse(Refusal(shown, "invalid-url", f"{shown}: not a plain host:port or http:// URL"))
            writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
        if target.tunnel:
            await self._tunnel(target, reader, writer)
        else:
            await self._forward(target, headers, reader, writer)

    async def _tunnel(self, target: Target, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        refusal, addresses = await self._check(target.url, navigation=False)
        if refusal is not None:
            await _write_refusal(writer, refusal)
            return
        upstream = await self._connect(addresses, target.port)
        if upstream is None:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        await self._pipe_both(reader, writer, *upstream)

    async def _forward(
        self,
        target: Target,
        headers: list[tuple[str, ...]],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        names = {name.lower(): value for name, value in headers}
        navigation = names.get("sec-fetch-mode") == "navigate" and names.get("sec-fetch-dest") == "document"
        refusal, addresses = await self._check(target.url, navigation=navigation)
        if refusal is not None:
            await _write_refusal(writer, refusal)
            return
        upstream = await self._connect(addresses, target.port)
        if upstream is None:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        kept = [f"{name}: {value}" for name, value in headers if name.lower() not in _HOP_BY_HOP]
        request_head = "\r\n".join([f"{target.method} {target.path} HTTP/1.1", *kept, "Connection: close", "", ""])
        upstream[1].write(request_head.encode("latin-1"))
        await self._pipe_both(reader, writer, *upstream)

    async def _check(self, url: str, navigation: bool) -> tuple[Refusal | None, list[str]]:
        """Resolve once, check those exact addresses (and robots for navigations) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._check_blocking, url, navigation)

    def _check_blocking(self, url: str, navigation: bool) -> tuple[Refusal | None, list[str]]:
        try:
            origin = origin_of(url)
            if is_browser_service_host(origin.host):
                return Refusal(url, "browser-service", f"{url}: Chromium's own traffic is not sent"), []
            addresses = resolve_host(origin.host, origin.port)
            pinned = AddressGuard(
                self.guard.allow_hosts, self.guard.allow_private, resolver=lambda host, port: addresses
            )
            pinned.check(url)
        except FetchError as exc:
            return self._refuse(Refusal(url, exc.reason, str(exc))), []
        except OSError as exc:
            return self._refuse(Refusal(url, "unreachable", f"{url}: cannot resolve host ({exc})")), []
        if navigation and self.navigation_check is not None:
            refusal = self.navigation_check(url)
            if refusal is not None:
                return self._refuse(refusal), []
        return None, addresses

    def _refuse(self, refusal: Refusal) -> Refusal:
        self.refusals.append(refusal)
        return refusal

    async def _connect(
        self, addresses: list[str], port: int
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for address in dict.fromkeys(addresses):
            try:
                return await asyncio.wait_for(
                    asyncio.open_connection(address, port, limit=_PIPE_CHUNK), self.connect_timeout
                )
            except (TimeoutError, OSError):
                continue
        return None

    async def _pipe_both(
        self,
        client_reader: asyncio.StreamReader,
        client_writer: asyncio.StreamWriter,
        upstream_reader: asyncio.StreamReader,
        upstream_writer: asyncio.StreamWriter,
    ) -> None:
        """Copy bytes both ways until the upstream side finishes (it closes after one response)."""
        upload = asyncio.ensure_future(self._pipe(client_reader, upstream_writer, close_when_done=True))
        try:
            await self._pipe(upstream_reader, client_writer)
        finally:
            upload.cancel()
            with contextlib.suppress(BaseException):
                await upload
            upstream_writer.close()

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, close_when_done: bool = False
    ) -> None:
        try:
            while True:
                chunk = await asyncio.wait_for(reader.read(_PIPE_CHUNK), self.idle_timeout)
                if not chunk:
                    return
                writer.write(chunk)
                await writer.drain()
        finally:
            if close_when_done:  # the client hung up: end the tunnel instead of idling until the timeout
                writer.close()


async def _write_refusal(writer: asyncio.StreamWriter, refusal: Refusal) -> None:
    body = refusal.message.encode("utf-8", "replace")
    writer.write(
        (
            "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"{REFUSED_HEADER}: {refusal.reason}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode("latin-1")
        + body
    )
    await writer.drain()
