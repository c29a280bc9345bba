"""Keep every fetched byte in a WARC file, and serve pages back from it as an offline cache.

Each web page becomes a ``response`` record (status line, headers and body as received; the final URL as
``WARC-Target-URI``) and a ``request`` record; a local file becomes a ``resource`` record. Scrapesmith-specific facts ride in ``WARC-Scrapesmith-*``
headers: the URL the caller asked for (before redirects), how the page was fetched, its content type
and encoding. When a page's text is not simply its bytes decoded (a browser's rendered DOM), the text
is kept as a ``conversion`` record, so a replay returns exactly the page that was fetched.

httpx hands us bodies with the ``Content-Encoding`` already undone, so those transfer headers are stored
under an ``X-Scrapesmith-Original-`` prefix: a WARC reader must not try to gunzip a plain body.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from types import TracebackType
from typing import Self
from urllib.parse import urlsplit, urlunsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from scrapesmith.config import get_settings
from scrapesmith.dom import decode_html
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web.inflate import InflateError, inflate
from scrapesmith.web.page import Fetcher, FetchError, Page, TooLarge
from scrapesmith.web.safety import redact_url

REQUESTED_URI = "WARC-Scrapesmith-Requested-URI"
VIA = "WARC-Scrapesmith-Via"
ENCODING = "WARC-Scrapesmith-Encoding"
CONTENT_TYPE = "WARC-Scrapesmith-Content-Type"
ELAPSED = "WARC-Scrapesmith-Elapsed"
HEADERS = "WARC-Scrapesmith-Headers"
_TRANSFER_HEADERS = ("content-encoding", "transfer-encoding", "content-length")
MAX_ARCHIVE_INFLATED = 4 * 2**30  # an archive inflating past this is refused before it is read
MAX_HEADERS = 2**20  # a line may be this much longer than the largest page (headers, a one-line page)
_RENAMED_PREFIX = "X-Scrapesmith-Original-"


class ArchiveError(ScrapesmithError):
    """The WARC file cannot be created or written (no such folder, disk full, no permission)."""


class WarcWriter:
    """Appends pages to a gzipped WARC file; thread-safe. Use as a context manager or call :meth:`close`.

    Every failure to write (``--warc /dev/full``) is one :class:`ArchiveError` naming the file.
    """

    def __init__(self, path: Path | str, *, append: bool = False) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.pages_written = 0
        with self._reporting("create"):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("ab" if append else "wb")
        self._writer = WARCWriter(self._file, gzip=True, warc_version="1.1")
        if not append or self._file.tell() == 0:
            info = self._writer.create_warcinfo_record(
                self.path.name, {"software": "scrapesmith", "format": "WARC File Format 1.1"}
            )
            with self._reporting("write"):
                self._writer.write_record(info)
                self._file.flush()

    @contextmanager
    def _reporting(self, doing: str) -> Iterator[None]:
        try:
            yield
        except OSError as exc:
            raise ArchiveError(f"cannot {doing} the WARC file {self.path}: {exc.strerror or exc}") from exc

    def write(self, page: Page, request_headers: dict[str, str] | None = None) -> None:
        """Archive ``page``: web pages as response + request records, local files as resource records.

        Credentials in its URLs (``user:pw@``) are never archived."""
        page = replace(page, url=redact_url(page.url),
                       requested_url=redact_url(page.requested_url) if page.requested_url else page.requested_url)
        if _is_web(page.url):
            main = self._response_record(page)
            extra = [self._request_record(page, _record_id(main), request_headers or {})]
        else:
            main = self._resource_record(page)
            extra = []
        if redecode(page.content, page.encoding) != page.text:
            extra.append(self._conversion_record(page, _record_id(main)))
        with self._lock, self._reporting("write"):
            for record in (main, *extra):
                self._writer.write_record(record)
            self._file.flush()
            self.pages_written += 1

    def _response_record(self, page: Page):
        return self._writer.create_warc_record(
            page.url,
            "response",
            payload=io.BytesIO(page.content),
            length=len(page.content),
            http_headers=_response_headers(page),
            warc_headers_dict=_page_warc_headers(page),
        )

    def _resource_record(self, page: Page):
        """Pages without an HTTP exchange (files): the bytes as a resource, headers kept as JSON."""
        return self._writer.create_warc_record(
            page.url,
            "resource",
            payload=io.BytesIO(page.content),
            length=len(page.content),
            warc_content_type=page.content_type,
            warc_headers_dict={**_page_warc_headers(page), HEADERS: json.dumps(page.headers)},
        )

    def _request_record(self, page: Page, response_id: str, headers: dict[str, str]):
        parts = urlsplit(page.url)
        target = urlunsplit(("", "", parts.path or "/", parts.query, "")) if parts.netloc else page.url
        http_headers = StatusAndHeaders(
            f"GET {target} HTTP/1.1", [("Host", parts.netloc), *headers.items()], is_http_request=True
        )
        return self._writer.create_warc_record(
            page.url,
            "request",
            payload=io.BytesIO(b""),
            length=0,
            http_headers=http_headers,
            warc_headers_dict={"WARC-Date": _warc_date(page.fetched_at), "WARC-Concurrent-To": response_id},
        )

    def _conversion_record(self, page: Page, response_id: str):
        text = page.text.encode("utf-8")
        return self._writer.create_warc_record(
            page.url,
            "conversion",
            payload=io.BytesIO(text),
            length=len(text),
            warc_content_type="text/html; charset=utf-8",
            warc_headers_dict={"WARC-Date": _warc_date(page.fetched_at), "WARC-Refers-To": response_id},
        )

    def close(self) -> None:
        with self._lock, self._reporting("close"):
            if not self._file.closed:
                self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class ArchivingFetcher:
    """Wraps any :class:`Fetcher` (HTTP, file, browser) and archives every page it returns.

    ``close()`` closes the wrapped fetcher when it has a ``close``; the writer belongs to the caller.
    """

    def __init__(self, inner: Fetcher, writer: WarcWriter) -> None:
        self.inner = inner
        self.writer = writer

    def fetch(self, url: str) -> Page:
        page = self.inner.fetch(url)
        self.writer.write(page)
        return page

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


class WarcReplayFetcher:
    """Serves pages from a WARC archive, by requested or final URL, without touching the network.

    The archive is indexed once when opened; each fetch reads its record with its own file handle, so one
    replay fetcher can serve many threads. When a URL was archived several times, the latest copy wins.
    """

    def __init__(self, path: Path | str, max_bytes: int | None = None, max_total: int = MAX_ARCHIVE_INFLATED) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise FetchError(str(self.path), "no such WARC archive")
        #: the largest record body read back (the fetcher's size cap: no page we archived is larger)
        self.max_bytes = max_bytes if max_bytes is not None else get_settings().max_bytes
        self._responses: dict[str, int] = {}
        self._conversions: dict[str, int] = {}
        self._order: list[int] = []
        _check_inflated(self.path, max_total, self.max_bytes + MAX_HEADERS)
        self._index()

    def pages(self) -> list[Page]:
        """Every page the archive holds, in the order they were archived."""
        return [self._page_at(offset, requested="") for offset in self._order]

    @property
    def urls(self) -> list[str]:
        """Every URL (requested and final) the archive can answer."""
        return sorted(self._responses)

    def fetch(self, url: str) -> Page:
        offset = self._responses.get(url)
        if offset is None:
            offset = self._responses.get(_without_fragment(url))
        if offset is None:
            raise FetchError(
                url, f"not in the archive {self.path} ({len(set(self._responses.values()))} pages); fetch it online"
            )
        return self._page_at(offset, requested=url)

    def _index(self) -> None:
        with self.path.open("rb") as stream:
            records = ArchiveIterator(stream)
            for record in records:
                offset = records.get_record_offset()
                headers = record.rec_headers
                if record.rec_type in ("response", "resource"):
                    self._order.append(offset)
                    for key in (headers.get_header("WARC-Target-URI"), headers.get_header(REQUESTED_URI)):
                        if key:
                            self._responses[key] = offset
                            self._responses.setdefault(_without_fragment(key), offset)
                elif record.rec_type == "conversion" and headers.get_header("WARC-Refers-To"):
                    self._conversions[headers.get_header("WARC-Refers-To")] = offset

    def _record_at(self, offset: int) -> tuple[StatusAndHeaders, StatusAndHeaders | None, bytes]:
        with self.path.open("rb") as stream:
            stream.seek(offset)
            record = next(iter(ArchiveIterator(stream)))
            content = record.content_stream().read(self.max_bytes + 1)
            if len(content) > self.max_bytes:
                raise TooLarge(record.rec_headers.get_header("WARC-Target-URI") or str(self.path),
                               f"the archived record is over the {self.max_bytes:,}-byte cap")
            return record.rec_headers, record.http_headers, content

    def _page_at(self, offset: int, requested: str) -> Page:
        warc_headers, http_headers, content = self._record_at(offset)
        encoding = warc_headers.get_header(ENCODING) or "utf-8"
        conversion = self._conversions.get(warc_headers.get_header("WARC-Record-ID"))
        text = self._record_at(conversion)[2].decode("utf-8") if conversion is not None else None
        stored = warc_headers.get_header(HEADERS)
        headers = json.loads(stored) if stored else _restore_headers(http_headers)
        return Page(
            url=warc_headers.get_header("WARC-Target-URI"),
            content=content,
            text=text if text is not None else redecode(content, encoding),
            status=int(http_headers.get_statuscode()) if http_headers else 200,
            headers=headers,
            content_type=warc_headers.get_header(CONTENT_TYPE) or "text/html",
            encoding=encoding,
            requested_url=warc_headers.get_header(REQUESTED_URI) or requested,
            fetched_at=_parse_warc_date(warc_headers.get_header("WARC-Date")),
            via="warc",
            elapsed=float(warc_headers.get_header(ELAPSED) or 0.0),
        )


def _check_inflated(path: Path, max_total: int, max_line: int) -> None:
    """Refuse an archive that inflates past ``max_total`` bytes or holds a line over ``max_line`` bytes
    (the WARC library reads a header line whole, and a record body whole: a 1.5 MB bomb took 3.2 GB),
    inflating it piece by piece (:mod:`.inflate`) before the library reads it."""
    with path.open("rb") as stream:
        gzipped = stream.read(2) == b"\x1f\x8b"
        stream.seek(0)
        raw = iter(lambda: stream.read(2**16), b"")
        line = 0
        try:
            for piece in inflate(raw, ["gzip"] if gzipped else [], max_total):
                newline = piece.rfind(b"\n")
                line = len(piece) - newline - 1 if newline >= 0 else line + len(piece)
                if line > max_line:
                    raise FetchError(str(path), f"not a WARC archive we can read (a line over {max_line:,} bytes)")
        except InflateError as exc:
            if exc.too_large:
                raise TooLarge(str(path), f"the archive inflates past {max_total:,} bytes") from None
            raise FetchError(str(path), f"not a WARC archive we can read ({exc})") from None


def redecode(content: bytes, encoding: str) -> str:
    """Decode bytes with an already-chosen encoding, the way :func:`decode_html` does (BOM dropped)."""
    text, detected = decode_html(content, encoding)
    if detected == encoding:
        return text
    try:
        return content.decode(encoding, errors="replace")
    except LookupError:
        return text


def _page_warc_headers(page: Page) -> dict[str, str]:
    return {
        "WARC-Date": _warc_date(page.fetched_at),
        REQUESTED_URI: page.requested_url or page.url,
        VIA: page.via,
        ENCODING: page.encoding,
        CONTENT_TYPE: page.content_type,
        ELAPSED: f"{page.elapsed:.6f}",
    }


def _record_id(record) -> str:
    return record.rec_headers.get_header("WARC-Record-ID")


def _is_web(url: str) -> bool:
    return url.lower().startswith(("http:", "https:"))


def _response_headers(page: Page) -> StatusAndHeaders:
    headers = [
        (f"{_RENAMED_PREFIX}{name}" if name.lower() in _TRANSFER_HEADERS else name, value)
        for name, value in page.headers.items()
    ]
    return StatusAndHeaders(f"{page.status} {_reason(page.status)}", headers, protocol="HTTP/1.1")


def _restore_headers(http_headers: StatusAndHeaders | None) -> dict[str, str]:
    if http_headers is None:
        return {}
    return {name.removeprefix(_RENAMED_PREFIX): value for name, value in http_headers.headers}


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _warc_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_warc_date(value: str | None) -> datetime:
    if not value:
        return datetime.now(UTC)
    return datetime.fromisoformat(value)


def _without_fragment(url: str) -> str:
    return url.split("#", 1)[0]
