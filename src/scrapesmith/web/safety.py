"""Safety and politeness rules shared by every way of getting a page (HTTP client and browser alike).

Three independent pieces, none tied to an HTTP library, so the browser runtime applies exactly the same
rules to each navigation:

* :class:`AddressGuard` refuses URLs whose host resolves to a private, loopback or otherwise non-public
  address (server-side request forgery), unless the caller lifted the block for that host;
* :class:`RobotsPolicy` answers "may this user agent fetch this URL?" from robots.txt (RFC 9309);
* :class:`HostThrottle` spaces requests to one origin and caps how many run at once.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import unquote, urlsplit, urlunsplit

from protego import Protego

from scrapesmith.web.page import BlockedAddress, FetchError, PrivateAddress, Unreachable

WEB_SCHEMES = ("http", "https")
# The header a guard proxy tags its refusals with (the reason tag of the FetchError it stands for).
REFUSED_HEADER = "X-Scrapesmith-Refused"
_DEFAULT_PORTS = {"http": 80, "https": 443}

Resolver = Callable[[str, int], list[str]]


class InvalidUrl(FetchError):
    """The URL cannot be fetched at all: no host, an unknown scheme, or an unencodable host name."""

    reason = "bad-url"


@dataclass(frozen=True)
class Origin:
    """``scheme://host:port`` with the default port filled in: the unit of politeness and of robots.txt."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"

    @property
    def robots_url(self) -> str:
        return f"{self}/robots.txt"


@lru_cache(maxsize=4096)
def origin_of(url: str) -> Origin:
    """The origin of an http(s) URL; raises :class:`InvalidUrl` for anything else.

    Cached: one fetch asks for the same URL's origin several times (guard, robots, throttle).
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise InvalidUrl(url, f"not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in WEB_SCHEMES:
        shown = f"'{scheme}'" if scheme else "no scheme"
        raise InvalidUrl(url, f"unsupported URL scheme ({shown}); use http:// or https://")
    if not parts.hostname:
        raise InvalidUrl(url, "the URL has no host")
    return Origin(scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme])


def split_credentials(url: str) -> tuple[str, tuple[str, str] | None]:
    """``url`` without ``user:password@`` — what may be logged, shown or archived — and the credentials.

    A URL that cannot be parsed comes back unchanged (whatever fetches it refuses it).
    """
    try:
        parts = urlsplit(url)
        if "@" not in parts.netloc:
            return url, None
        user, password = parts.username, parts.password
    except ValueError:
        return url, None
    clean = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
    return clean, (unquote(user or ""), unquote(password or ""))


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` removed."""
    return split_credentials(url)[0]


def resolve_host(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, via the system resolver."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def is_public_address(address: str) -> bool:
    """True for globally routable unicast addresses; false for private, loopback, link-local and the like."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    blocked = (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or not ip.is_global
    )
    return not blocked


class AddressGuard:
    """Refuses URLs that point into private networks unless their host was explicitly allowed.

    ``allow_hosts`` entries are host names or addresses, optionally with ``:port`` to allow one service
    only (``127.0.0.1`` or ``127.0.0.1:8000``). ``allow_private`` turns the address check off entirely.
    ``resolver`` maps ``(host, port)`` to addresses; it defaults to the system resolver and exists so
    callers with their own name resolution can apply the same rule.
    """

    def __init__(
        self,
        allow_hosts: Iterable[str] = (),
        allow_private: bool = False,
        resolver: Resolver = resolve_host,
    ) -> None:
        self.allow_hosts = frozenset(_normalise_host_entry(entry) for entry in allow_hosts if entry.strip())
        self.allow_private = allow_private
        self._resolve = resolver

    def is_allowed_host(self, origin: Origin) -> bool:
        host = f"[{origin.host}]" if ":" in origin.host else origin.host
        return origin.host in self.allow_hosts or f"{host}:{origin.port}" in self.allow_hosts

    def check(self, url: str) -> list[str] | None:
        """Raise :class:`BlockedAddress`, :class:`InvalidUrl` or :class:`Unreachable` unless ``url`` is safe.

        Returns the addresses that were checked (connect to these and no others: a second lookup may
        answer differently), or ``None`` when the host is exempt and was not resolved.
        """
        try:
            origin = origin_of(url)
        except InvalidUrl as exc:
            raise BlockedAddress(url, str(exc).removeprefix(f"{url}: ")) from None
        if self.allow_private or self.is_allowed_host(origin):
            return None
        addresses = self._addresses(url, origin)
        for address in addresses:
            if not is_public_address(address):
                where = "is" if address == origin.host else f"resolves to {address}, which is"
                raise PrivateAddress(
                    url, origin.host,
                    f"{origin.host} {where} a private or local address; allow the host explicitly if you mean it",
                )
        return addresses

    def _addresses(self, url: str, origin: Origin) -> list[str]:
        if _is_ip_literal(origin.host):
            return [origin.host]
        try:
            addresses = self._resolve(origin.host, origin.port)
        except UnicodeError:
            raise InvalidUrl(url, f"invalid host name {origin.host!r}") from None
        except OSError as exc:
            raise Unreachable(url, f"cannot resolve host {origin.host} ({exc})") from None
        if not addresses:
            raise Unreachable(url, f"host {origin.host} resolves to no address")
        return addresses


def _normalise_host_entry(entry: str) -> str:
    return entry.strip().lower().rstrip("/").removeprefix("http://").removeprefix("https://")


RobotsFetch = Callable[[str], "tuple[int, str] | None"]


@dataclass
class _RobotsRules:
    """What one origin's robots.txt says: allow all, disallow all, or the parsed rules."""

    parser: Protego | None = None
    allow_all: bool = False
    unreachable: bool = False

    def allows(self, url: str, user_agent: str) -> bool:
        if self.parser is None:
            return self.allow_all
        return bool(self.parser.can_fetch(url, user_agent))


class RobotsPolicy:
    """robots.txt rules per origin, fetched once through ``fetch_robots`` and cached.

    ``fetch_robots(robots_url)`` returns ``(status, body)`` after following redirects, or ``None`` when the
    server could not be reached. Following RFC 9309: a 4xx means no restrictions; a 5xx or an unreachable
    server means the whole site is disallowed (we cannot know what it forbids).
    """

    def __init__(self, user_agent: str, fetch_robots: RobotsFetch) -> None:
        self.user_agent = user_agent
        self._product_token = user_agent.split("/", 1)[0].split()[0] if user_agent.strip() else "*"
        self._fetch_robots = fetch_robots
        self._rules: dict[Origin, _RobotsRules] = {}
        self._locks: dict[Origin, threading.Lock] = {}
        self._guard = threading.Lock()

    def allowed(self, url: str) -> bool:
        return self._rules_for(url).allows(url, self._product_token)

    def server_unreachable(self, url: str) -> bool:
        """True when robots.txt could not be fetched at all, which is why everything there is refused."""
        return self._rules_for(url).unreachable

    def crawl_delay(self, url: str) -> float | None:
        parser = self._rules_for(url).parser
        if parser is None:
            return None
        delay = parser.crawl_delay(self._product_token)
        return float(delay) if delay is not None else None

    def _rules_for(self, url: str) -> _RobotsRules:
        origin = origin_of(url)
        rules = self._rules.get(origin)
        if rules is not None:
            return rules
        with self._guard:
            lock = self._locks.setdefault(origin, threading.Lock())
        with lock:  # one fetch per origin even when many threads ask at once
            rules = self._rules.get(origin)
            if rules is None:
                rules = self._load(origin)
                self._rules[origin] = rules
        return rules

    def _load(self, origin: Origin) -> _RobotsRules:
        try:
            answer = self._fetch_robots(origin.robots_url)
        except FetchError:
            answer = None
        if answer is None:
            return _RobotsRules(allow_all=False, unreachable=True)
        status, body = answer
        if 200 <= status < 300:
            return _RobotsRules(parser=Protego.parse(body))
        if status >= 500:
            return _RobotsRules(allow_all=False)
        return _RobotsRules(allow_all=True)


@dataclass
class _HostState:
    semaphore: threading.BoundedSemaphore
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_start: float = 0.0


class HostThrottle:
    """Per-origin politeness: at least ``delay`` seconds between request starts, at most ``max_per_host``
    requests in flight. Thread-safe; hold a :meth:`slot` for the duration of each request."""

    def __init__(self, delay: float, max_per_host: int) -> None:
        if max_per_host < 1:
            raise ValueError("max_per_host must be at least 1")
        self.delay = max(0.0, delay)
        self.max_per_host = max_per_host
        self._hosts: dict[Origin, _HostState] = {}
        self._guard = threading.Lock()

    @contextmanager
    def slot(self, url: str, delay: float | None = None) -> Iterator[None]:
        """Wait for a turn on ``url``'s origin; ``delay`` overrides the default gap (e.g. a Crawl-delay)."""
        state = self._state(origin_of(url))
        gap = self.delay if delay is None else max(0.0, delay)
        with state.semaphore:
            with state.lock:
                now = time.monotonic()
                start = max(now, state.next_start)
                state.next_start = start + gap
            if start > now:
                time.sleep(start - now)
            yield

    def _state(self, origin: Origin) -> _HostState:
        with self._guard:
            state = self._hosts.get(origin)
            if state is None:
                state = _HostState(threading.BoundedSemaphore(self.max_per_host))
                self._hosts[origin] = state
            return state


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
