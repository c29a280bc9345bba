"""The ``Page`` value every fetcher returns, and the fetch errors every fetcher raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from scrapesmith.dom import HtmlElement, parse_html
from scrapesmith.errors import ScrapesmithError


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Page:
    """One fetched document.

    ``content`` holds the raw bytes exactly as received (what the WARC archive keeps); ``text`` is the
    decoded document. ``url`` is the final URL after redirects, ``requested_url`` what the caller asked for.
    ``via`` records which path served the page (``http``, ``file``, ``warc``, ``browser``).
    """

    url: str
    content: bytes
    text: str
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/html"
    encoding: str = "utf-8"
    requested_url: str = ""
    fetched_at: datetime = field(default_factory=utc_now)
    via: str = "http"
    elapsed: float = 0.0

    @property
    def is_html(self) -> bool:
        return "html" in self.content_type or "xml" in self.content_type


def parse_page(page: Page) -> HtmlElement:
    """Parse a fetched :class:`Page`, preferring the fetcher's decoded text over re-decoding the bytes."""
    if page.text:
        return parse_html(page.text, url=page.url)
    return parse_html(page.content, url=page.url, encoding=page.encoding)


class Fetcher(Protocol):
    """The seam every capability gets pages through. Tests swap implementations, never patch internals."""

    def fetch(self, url: str) -> Page: ...


class FetchError(ScrapesmithError):
    """A page could not be fetched. ``reason`` is a short machine-readable tag."""

    reason = "fetch-failed"

    def __init__(self, url: str, message: str) -> None:
        super().__init__(f"{url}: {message}")
        self.url = url
        self.message = message

    def __reduce__(self) -> tuple:
        """Rebuilt from its own arguments when it crosses a process pool (``args`` holds only the line)."""
        return type(self), (self.url, self.message)


class RobotsDisallowed(FetchError):
    reason = "robots"


class BlockedAddress(FetchError):
    reason = "blocked-address"


class PrivateAddress(BlockedAddress):
    """A host that is, or resolves to, a private or local address, and that the caller did not allow."""

    def __init__(self, url: str, host: str, message: str) -> None:
        super().__init__(url, message)
        self.host = host

    def __reduce__(self) -> tuple:
        return type(self), (self.url, self.host, self.message)


class TooLarge(FetchError):
    reason = "too-large"


class UnsupportedContent(FetchError):
    reason = "content-type"


class TooManyRedirects(FetchError):
    reason = "redirects"


class HttpStatusError(FetchError):
    reason = "http-status"

    def __init__(self, url: str, message: str, status: int) -> None:
        super().__init__(url, message)
        self.status = status

    def __reduce__(self) -> tuple:
        return type(self), (self.url, self.message, self.status)


class Unreachable(FetchError):
    reason = "unreachable"
