"""Fetchers: pages over HTTP (polite, safe, bounded), from local files, and a router between the two.

(``FileFetcher`` and ``expand_sources`` live in :mod:`scrapesmith.web.files`, ``RememberingFetcher`` in
:mod:`scrapesmith.web.remember`, and are re-exported here; how one response is read within bounds is
:mod:`scrapesmith.web.responses`.)

:class:`HttpFetcher` is the only place the project talks HTTP for documents. Every request passes, in
order: the address guard (no private networks unless allowed), robots.txt, the per-host throttle, then a
bounded request (timeout, size cap, content-type check) retried on timeouts, 429 and 5xx. Redirects are
followed by hand so that each hop passes the same checks — httpx's own redirect following would let a
public page bounce us into the local network. Each hop connects to the addresses the guard checked
(:mod:`scrapesmith.web.transport`), never to a second lookup's answer. With ``proxy="unix:PATH"`` every
request goes through the guard proxy on that Unix socket instead (how sandboxed programs reach the web).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Self
from urllib.parse import urljoin, urlsplit

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from scrapesmith.config import get_settings
from scrapesmith.dom import decode_html
from scrapesmith.web.content import DEFAULT_ACCEPT_TYPES, accepts, sniff_media_type
from scrapesmith.web.files import FileFetcher, expand_sources, is_file_url, is_web_url
from scrapesmith.web.page import (
    BlockedAddress,
    FetchError,
    HttpStatusError,
    Page,
    RobotsDisallowed,
    TooManyRedirects,
    Unreachable,
    UnsupportedContent,
)
from scrapesmith.web.remember import RememberingFetcher
from scrapesmith.web.responses import media_type, parse_retry_after, raw_headers, read_capped, read_prefix
from scrapesmith.web.safety import (
    REFUSED_HEADER,
    AddressGuard,
    HostThrottle,
    InvalidUrl,
    Origin,
    Resolver,
    RobotsFetch,
    RobotsPolicy,
    origin_of,
    redact_url,
    resolve_host,
    split_credentials,
)
from scrapesmith.web.transport import PinnedBackend, UnixProxyBackend, make_transport

if TYPE_CHECKING:
    from scrapesmith.web.archive import WarcWriter

__all__ = [
    "DEFAULT_ACCEPT_TYPES", "FileFetcher", "HttpFetcher", "RememberingFetcher", "RoutingFetcher", "accepts",
    "expand_sources", "is_web_url", "parse_retry_after", "sniff_media_type",
]

ACCEPT_HEADER = "text/html,application/xhtml+xml,application/xml;q=0.9,application/json;q=0.8,text/*;q=0.7"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
NOT_MODIFIED = 304
ROBOTS_MAX_BYTES = 512 * 1024
ROBOTS_MAX_REDIRECTS = 5
MAX_CRAWL_DELAY = 30.0
# Worth another attempt: the server was slow, or dropped a kept-alive connection under us.
_TRANSIENT = (httpx.TimeoutException, httpx.RemoteProtocolError)


class _RetryableStatus(Exception):
    """A 429/5xx answer, carried through tenacity so it can honour ``Retry-After``."""

    def __init__(self, status: int, retry_after: float | None) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.retry_after = retry_after


@dataclass(frozen=True)
class _Answer:
    """One HTTP exchange, before it becomes a :class:`Page` (or the next redirect hop)."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes
    media_type: str
    charset: str | None
    location: str | None = None


class HttpFetcher:
    """Fetches http(s) pages politely and safely; thread-safe, so callers may share one across threads.

    Arguments left as ``None`` come from :class:`scrapesmith.config.Settings`. ``retries`` counts extra
    attempts after the first; waits grow from ``backoff`` seconds and never exceed ``max_retry_wait``
    (a longer ``Retry-After`` is shortened to it). ``archive`` receives every page fetched. A run spread
    over several processes passes its own ``throttle`` (one that also keeps a limit shared by all of them)
    and ``robots_source`` (robots.txt answers fetched once for the whole run, see :meth:`fetch_robots`).
    """

    def __init__(
        self,
        *,
        user_agent: str | None = None,
        allow_hosts: Iterable[str] | None = None,
        allow_private: bool = False,
        respect_robots: bool = True,
        delay: float | None = None,
        max_per_host: int | None = None,
        timeout: float | None = None,
        max_bytes: int | None = None,
        max_redirects: int = 10,
        retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 30.0,
        accept_types: Iterable[str] = DEFAULT_ACCEPT_TYPES,
        archive: WarcWriter | None = None,
        proxy: str | None = None,
        resolver: Resolver | None = None,
        throttle: HostThrottle | None = None,
        robots_source: RobotsFetch | None = None,
    ) -> None:
        settings = get_settings()
        self.user_agent = user_agent or settings.user_agent
        self.max_bytes = max_bytes if max_bytes is not None else settings.max_bytes
        self.max_redirects = max_redirects
        self.retries = max(0, retries)
        self.backoff = backoff
        self.max_retry_wait = max_retry_wait
        self.accept_types = tuple(t.lower() for t in accept_types)
        self.archive = archive
        if proxy is not None and not proxy.startswith("unix:"):
            raise ValueError(f"proxy must be 'unix:/path/to/socket', not {proxy!r}")
        self.proxy = proxy
        # Behind the guard proxy, the proxy resolves, checks and pins; this side cannot even resolve.
        self.guard = AddressGuard(
            settings.allow_hosts if allow_hosts is None else allow_hosts,
            allow_private=allow_private or proxy is not None,
            resolver=resolver or resolve_host,
        )
        self._pins = PinnedBackend()
        self._proxy_refused: dict[Origin, str] = {}
        self._robots_unreadable: dict[Origin, str] = {}  # a robots.txt whose encoding broke: why
        backend = UnixProxyBackend(proxy.removeprefix("unix:")) if proxy else self._pins
        self.throttle = throttle or HostThrottle(
            settings.politeness_delay if delay is None else delay,
            max_per_host or settings.max_per_host,
        )
        # tenacity keeps per-call state thread-locally, so one Retrying serves every thread.
        self._retrying = Retrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._retry_wait,
            retry=retry_if_exception_type((_RetryableStatus, *_TRANSIENT)),
            reraise=True,
        )
        self.robots = RobotsPolicy(self.user_agent, robots_source or self.fetch_robots) if respect_robots else None
        # The guard proxy serves one request per connection: keeping one alive would race its close.
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=0 if proxy else 20)
        self._client = httpx.Client(
            headers={"User-Agent": self.user_agent, "Accept": ACCEPT_HEADER},
            timeout=timeout if timeout is not None else settings.timeout,
            follow_redirects=False,
            transport=make_transport(backend, limits, via_proxy=proxy is not None),
            trust_env=False,  # an HTTP_PROXY from the environment would bypass the pinned addresses
        )

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Page:
        """Fetch ``url``; credentials in it (``user:pw@``) are sent to its origin only and kept out of the
        page, errors and archive. ``headers`` go with every hop: ``If-None-Match``/``If-Modified-Since``
        make it conditional, and an unchanged page comes back with status 304 and no body."""
        started = time.monotonic()
        url, credentials = split_credentials(url)
        current = _normalise_url(url)
        home = origin_of(current)
        seen = {current}
        for _hop in range(self.max_redirects + 1):
            self._admit(current)
            auth = credentials if credentials is not None and origin_of(current) == home else None
            answer = self._exchange(current, auth, headers)
            if answer.location is None:
                return self._page(url, answer, time.monotonic() - started)
            # a hop's own user:password@ (the server's Location) is neither sent nor kept, shown or logged
            current = _normalise_url(redact_url(urljoin(answer.url, answer.location)))
            if current in seen:
                raise TooManyRedirects(url, f"redirect loop (back to {current})")
            seen.add(current)
        raise TooManyRedirects(url, f"more than {self.max_redirects} redirects")

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _admit(self, url: str) -> None:
        """The checks every hop passes before any byte is sent to its host."""
        self._check(url)
        if self.robots is None or self.robots.allowed(url):
            return
        if self.robots.server_unreachable(url):
            refused = self._proxy_refused.get(origin_of(url))
            if refused is not None:
                raise BlockedAddress(url, f"the network proxy refused the connection ({refused})")
            unreadable = self._robots_unreadable.get(origin_of(url))
            if unreadable is not None:  # RFC 9309: rules that cannot be known disallow the whole site
                raise RobotsDisallowed(url, f"robots.txt could not be read ({unreadable}), so nothing here is fetched")
            raise Unreachable(url, "cannot reach the server (robots.txt could not be fetched)")
        raise RobotsDisallowed(url, "robots.txt disallows fetching this URL")

    def _check(self, url: str) -> None:
        """The address guard, then pin what it checked so the connection goes to exactly that."""
        addresses = self.guard.check(url)
        self._pins.pin(url, origin_of(url).port, addresses)

    def _exchange(self, url: str, auth: tuple[str, str] | None = None,
                  headers: Mapping[str, str] | None = None) -> _Answer:
        try:
            return self._retrying(self._request_once, url, auth, headers)
        except _RetryableStatus as exc:
            raise HttpStatusError(url, f"HTTP {exc.status} after {self.retries + 1} attempts", exc.status) from None
        except httpx.TimeoutException:
            raise Unreachable(url, f"timed out ({self.retries + 1} attempts)") from None
        except httpx.RemoteProtocolError as exc:
            raise Unreachable(url, f"the server broke the connection ({exc})") from None

    def _retry_wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _RetryableStatus) and exc.retry_after is not None:
            return min(exc.retry_after, self.max_retry_wait)
        return min(self.backoff * 2 ** (state.attempt_number - 1), self.max_retry_wait)

    def _request_once(self, url: str, auth: tuple[str, str] | None = None,
                      headers: Mapping[str, str] | None = None) -> _Answer:
        with self.throttle.slot(url, self._crawl_delay(url)):
            try:
                with self._client.stream("GET", url, auth=auth, headers=headers) as response:
                    return self._read(url, response)
            except _TRANSIENT:
                raise
            except httpx.InvalidURL as exc:
                raise InvalidUrl(url, f"not a valid URL ({exc})") from None
            except httpx.ProxyError as exc:
                raise BlockedAddress(url, f"the network proxy refused the connection ({exc})") from None
            except httpx.HTTPError as exc:
                raise Unreachable(url, f"connection failed ({type(exc).__name__}: {exc})") from None

    def _read(self, url: str, response: httpx.Response) -> _Answer:
        status = response.status_code
        if status in RETRY_STATUSES:
            raise _RetryableStatus(status, parse_retry_after(response.headers.get("retry-after")))
        final_url = str(response.url)
        location = response.headers.get("location")
        if status == 403 and REFUSED_HEADER in response.headers:
            said, broken = read_prefix(response, 4096)
            reason = said.decode("utf-8", "replace").strip().removeprefix(url + ": ")
            reason += f" (the rest of its answer is unreadable: {broken})" if broken else ""
            raise BlockedAddress(url, f"refused by the network proxy: {reason}")
        if status in REDIRECT_STATUSES and location:
            return _Answer(final_url, status, {}, b"", "", None, location=location)
        if status == NOT_MODIFIED:
            return _Answer(final_url, status, raw_headers(response), b"", "", None)
        if status >= 400:
            raise HttpStatusError(url, f"HTTP {status} {response.reason_phrase}".rstrip(), status)
        kind = media_type(response.headers.get("content-type"))
        if kind and not accepts(self.accept_types, kind):
            raise UnsupportedContent(url, f"content type {kind} is not a document we read")
        body = read_capped(url, response, self.max_bytes)
        return _Answer(final_url, status, raw_headers(response), body, kind, response.charset_encoding)

    def _crawl_delay(self, url: str) -> float | None:
        if self.robots is None:
            return None
        requested = self.robots.crawl_delay(url)
        if requested is None:
            return None
        return max(self.throttle.delay, min(requested, MAX_CRAWL_DELAY))

    def _page(self, requested: str, answer: _Answer, elapsed: float) -> Page:
        text, encoding = decode_html(answer.body, answer.charset)
        page = Page(
            url=answer.url,
            content=answer.body,
            text=text,
            status=answer.status,
            headers=answer.headers,
            content_type=answer.media_type or sniff_media_type(answer.body),
            encoding=encoding,
            requested_url=requested,
            via="http",
            elapsed=elapsed,
        )
        if self.archive is not None:
            self.archive.write(page, request_headers={"User-Agent": self.user_agent, "Accept": ACCEPT_HEADER})
        return page

    def fetch_robots(self, robots_url: str) -> tuple[int, str] | None:
        """robots.txt for one origin as ``(status, text)``; ``None`` when the server cannot be reached, or when
        the body's encoding breaks before its end (its rules cannot be known; the reason is kept for the
        refusal of every page of that origin)."""
        current = robots_url
        for _hop in range(ROBOTS_MAX_REDIRECTS + 1):
            try:
                self._check(current)
                with self.throttle.slot(current), self._client.stream("GET", current) as response:
                    location = response.headers.get("location")
                    if response.status_code in REDIRECT_STATUSES and location:
                        current = redact_url(urljoin(current, location))
                        continue
                    body, broken = read_prefix(response, ROBOTS_MAX_BYTES)
                    if broken and 200 <= response.status_code < 300:  # other statuses' rules need no body
                        self._robots_unreadable[origin_of(robots_url)] = broken
                        return None
                    return response.status_code, body.decode("utf-8", errors="replace")
            except httpx.ProxyError as exc:  # the guard proxy refused the origin itself (HTTPS CONNECT)
                self._proxy_refused[origin_of(current)] = str(exc)
                return None
            except (httpx.HTTPError, FetchError):
                return None
        return 404, ""  # RFC 9309: too many redirects is treated as "unavailable", i.e. no rules


def _normalise_url(url: str) -> str:
    """Validate an http(s) URL and drop its fragment (never sent to servers)."""
    origin_of(url)
    return url.split("#", 1)[0]


class RoutingFetcher:
    """The default :class:`Fetcher`: http(s) URLs go to ``http``, paths and ``file://`` URLs to ``file``.

    Either side is created with default settings on first use when not given; any other URL scheme is
    refused with :class:`InvalidUrl`.
    """

    def __init__(self, http: HttpFetcher | None = None, file: FileFetcher | None = None) -> None:
        self._http = http
        self._file = file

    @property
    def http(self) -> HttpFetcher:
        if self._http is None:
            self._http = HttpFetcher()
        return self._http

    @property
    def file(self) -> FileFetcher:
        if self._file is None:
            self._file = FileFetcher()
        return self._file

    def fetch(self, url: str) -> Page:
        if is_web_url(url):
            return self.http.fetch(url)
        scheme = urlsplit(url).scheme
        if is_file_url(url) or not scheme or len(scheme) == 1:  # one letter: a Windows drive
            return self.file.fetch(url)
        raise InvalidUrl(url, f"unsupported URL scheme '{scheme}'; use http(s)://, file:// or a path")

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
