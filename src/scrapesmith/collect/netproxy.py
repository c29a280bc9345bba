"""The sandboxed program's only network: a guard proxy on a Unix socket, run by the caller.

The sandbox has no network of its own (its own, empty network namespace). This proxy's socket alone is
bind-mounted into it, read-only (the program can neither replace it nor write beside it), and the
program's fetcher sends every request there (``HttpFetcher(proxy="unix:…")``). The proxy allows exactly the hosts the *run* allows — the caller's
``--allow-host`` entries and settings, ``host`` or ``host:port`` — and nothing else, public or not; for
those it resolves once and connects to the address it checked. Hosts a program declares for itself
count for nothing here. It serves at most :data:`MAX_CONNECTIONS` connections of the run at once: each
costs the caller descriptors, and a program opening thousands ran the caller out of them.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Self

from scrapesmith.web import AddressGuard, FetchError, origin_of
from scrapesmith.web.browser import GuardProxy, Refusal

SOCKET_NAME = "proxy.sock"
MAX_CONNECTIONS = 64  # a run's connections through the proxy at once (the runtime's fetcher uses a few)


class _RunProxy(GuardProxy):
    """A :class:`GuardProxy` that also refuses every host the run did not list."""

    def _check_blocking(self, url: str, navigation: bool) -> tuple[Refusal | None, list[str]]:
        try:
            origin = origin_of(url)
        except FetchError as exc:
            return self._refuse(Refusal(url, exc.reason, str(exc))), []
        if not self.guard.is_allowed_host(origin):
            allowed = ", ".join(sorted(self.guard.allow_hosts)) or "none"
            host = f"[{origin.host}]" if ":" in origin.host else origin.host
            return self._refuse(Refusal(
                url, "blocked-address", f"{url}: {host}:{origin.port} is not allowed for this run (allowed: "
                f"{allowed}); allow {host}:{origin.port} for the run to reach it")), []
        return super()._check_blocking(url, navigation)


class NetworkGate:
    """Context manager: the run's guard proxy on a Unix socket in a fresh private directory.

    ``socket_path`` is what the sandbox binds; ``refusals`` lists what the proxy refused.
    """

    def __init__(self, allow_hosts: Iterable[str]) -> None:
        self.allow_hosts = [h for h in allow_hosts if h.strip()]
        self.socket_dir = Path(tempfile.mkdtemp(prefix="scrapesmith-net-"))
        self.socket_path = self.socket_dir / SOCKET_NAME
        self._proxy = _RunProxy(AddressGuard(self.allow_hosts), max_connections=MAX_CONNECTIONS)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sandbox-net-proxy", daemon=True)

    @property
    def refusals(self) -> list[Refusal]:
        return list(self._proxy.refusals)

    def __enter__(self) -> Self:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._proxy.start_unix(str(self.socket_path)), self._loop)
        future.result(timeout=10)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self._proxy.close(), self._loop).result(timeout=10)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()
            shutil.rmtree(self.socket_dir, ignore_errors=True)
