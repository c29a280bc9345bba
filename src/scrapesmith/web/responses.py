"""Reading one HTTP response within bounds: its body under the size cap with ``Content-Encoding`` undone piece
by piece (:mod:`.inflate`), a prefix of it, its headers as sent, and ``Retry-After``.

:class:`~scrapesmith.web.fetch.HttpFetcher` reads every response through these. A body is never kept silently
short: past the cap it is :class:`TooLarge`, a page whose encoding cannot be undone is
:class:`UnsupportedContent`, and a prefix (robots.txt, a proxy's refusal) says why it ends early when its
encoding broke before the cap (:func:`read_prefix`).
"""

from __future__ import annotations

import email.utils
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx

from scrapesmith.web.inflate import STEP, InflateError, encodings, inflate
from scrapesmith.web.page import TooLarge, UnsupportedContent


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date); ``None`` if absent/bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def raw_headers(response: httpx.Response) -> dict[str, str]:
    """Response headers with their original spelling; repeated headers joined with ', '."""
    headers: dict[str, str] = {}
    for raw_name, raw_value in response.headers.raw:
        name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


def _decoded(response: httpx.Response, limit: int) -> Iterator[bytes]:
    """The body with its ``Content-Encoding`` undone piece by piece against ``limit`` (:mod:`.inflate`):
    httpx's own ``iter_bytes`` inflates a chunk whole, so ``gzip, gzip`` turned 5 kB into gigabytes."""
    return inflate(response.iter_raw(), encodings(response.headers.get_list("content-encoding")), limit)


def read_prefix(response: httpx.Response, limit: int) -> tuple[bytes, str | None]:
    """At most ``limit`` bytes of the body, inflated, and why it ends before its end for another reason than
    ``limit``: a body whose encoding breaks below the cap (one line, e.g. ``the gzip body is broken (…)``),
    which the caller reports; ``None`` when the body is whole or only cut at ``limit``."""
    chunks: list[bytes] = []
    size = 0
    try:  # inflated a piece past the limit, so the piece that crosses it is cut, not lost
        for chunk in _decoded(response, limit + STEP):
            chunks.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
    except InflateError as exc:
        if not exc.too_large:
            return b"".join(chunks)[:limit], str(exc)
    return b"".join(chunks)[:limit], None


def read_capped(url: str, response: httpx.Response, max_bytes: int) -> bytes:
    """The whole body, inflated: :class:`TooLarge` past ``max_bytes`` (declared, read or inflated), and
    :class:`UnsupportedContent` when its encoding cannot be undone (never a body kept short)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise TooLarge(url, f"response is {int(declared):,} bytes, over the {max_bytes:,}-byte cap")
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in _decoded(response, max_bytes):
            size += len(chunk)
            if size > max_bytes:
                raise TooLarge(url, f"response exceeds the {max_bytes:,}-byte cap")
            chunks.append(chunk)
    except InflateError as exc:
        if exc.too_large:
            raise TooLarge(url, f"response exceeds the {max_bytes:,}-byte cap once decompressed") from None
        raise UnsupportedContent(url, str(exc)) from None
    return b"".join(chunks)
