"""How :class:`~scrapesmith.web.fetch.HttpFetcher` reaches servers: only at addresses that were checked.

The address guard resolves a host and checks every address; if httpx then resolved the name again, a
name that answers differently the second time (DNS rebinding) would reach an address nobody checked.
:class:`PinnedBackend` replaces httpcore's network backend: it connects to the addresses the guard pinned
for ``(host, port)`` and never resolves on its own (a host without a pin is refused). The request keeps
its URL, so the ``Host`` header and the TLS server name (SNI, certificate check) stay the host name.

:class:`UnixProxyBackend` sends every connection to a guard proxy on a Unix socket instead (the
sandboxed program's only way out: plain HTTP in absolute form, HTTPS through ``CONNECT``); the proxy
resolves, checks and pins.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterable

import httpcore
import httpx

# Any name works: the Unix-socket backend connects to the socket whatever host the proxy URL names.
_PROXY_URL = "http://scrapesmith-proxy.invalid"


class PinnedBackend(httpcore.SyncBackend):
    """Connects ``(host, port)`` only to its pinned addresses; ``None`` pins mean "exempt, use the name"."""

    def __init__(self) -> None:
        self._pins: dict[tuple[str, int], list[str] | None] = {}
        self._lock = threading.Lock()

    def pin(self, url: str, port: int, addresses: list[str] | None) -> None:
        host = httpx.URL(url).host
        with self._lock:
            self._pins[(host, port)] = list(addresses) if addresses is not None else None

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[tuple] | None = None) -> httpcore.NetworkStream:
        with self._lock:
            known = (host, port) in self._pins
            addresses = self._pins.get((host, port))
        if not known:
            raise httpcore.ConnectError(f"{host}:{port} was not checked by the address guard")
        if addresses is None:
            return super().connect_tcp(host, port, timeout, local_address, socket_options)
        last: Exception = httpcore.ConnectError(f"{host} has no address")
        for address in dict.fromkeys(addresses):
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        raise last


class UnixProxyBackend(httpcore.SyncBackend):
    """Every connection goes to the proxy listening on the Unix socket ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[tuple] | None = None) -> httpcore.NetworkStream:
        return self.connect_unix_socket(self.path, timeout, socket_options)


def make_transport(backend: httpcore.SyncBackend, limits: httpx.Limits, via_proxy: bool,
                   verify: ssl.SSLContext | bool = True) -> httpx.HTTPTransport:
    """An httpx transport whose connections all go through ``backend`` (as proxy requests if ``via_proxy``);
    ``verify`` as in httpx (certificates are checked against the URL's host name, never the address)."""
    transport = httpx.HTTPTransport(limits=limits, proxy=_PROXY_URL if via_proxy else None, verify=verify)
    pool = transport._pool  # httpcore's pool: the backend is the one thing we replace
    if not hasattr(pool, "_network_backend"):
        raise RuntimeError("this httpcore version does not let scrapesmith pin connection addresses")
    pool._network_backend = backend
    return transport
