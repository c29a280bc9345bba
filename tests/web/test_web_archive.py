"""WARC round trip: fetch -> archive -> replay offline gives identical pages."""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from scrapesmith.web.archive import ArchivingFetcher, WarcReplayFetcher, WarcWriter
from scrapesmith.web.fetch import FileFetcher
from scrapesmith.web.page import FetchError, Page

PATHS = [
    "/page/plain",
    "/redirect?to=/page/landing",
    "/enc/wrong-declared",
    "/enc/bom",
    "/enc/cp1251-meta",
    "/enc/cp1251-undeclared",
    "/data.json",
]
SAME = ("url", "content", "text", "status", "headers", "content_type", "encoding", "requested_url")


def assert_same_page(replayed: Page, original: Page) -> None:
    for name in SAME:
        assert getattr(replayed, name) == getattr(original, name), name
    assert replayed.via == "warc"


def test_round_trip_offline_gives_identical_pages(site, make_fetcher, tmp_path):
    archive = tmp_path / "run.warc.gz"
    with WarcWriter(archive) as writer:
        fetcher = make_fetcher(archive=writer)
        originals = {path: fetcher.fetch(site.url(path)) for path in PATHS}
    site.shutdown()
    site.server_close()  # offline from here on

    replay = WarcReplayFetcher(archive)
    for path, original in originals.items():
        assert_same_page(replay.fetch(site.url(path)), original)
    landing = replay.fetch(site.url("/page/landing"))
    assert landing.requested_url == site.url("/redirect?to=/page/landing"), "final URL finds the page too"


def test_archive_is_standard_gzipped_warc_with_request_and_response(site, make_fetcher, tmp_path):
    archive = tmp_path / "one.warc.gz"
    with WarcWriter(archive) as writer:
        make_fetcher(archive=writer, user_agent="archiver/1.0").fetch(site.url("/redirect?to=/page/final"))
    with gzip.open(archive, "rb") as stream:
        assert stream.read(8) == b"WARC/1.1"
    with archive.open("rb") as stream:
        records = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"), r.http_headers) for r in ArchiveIterator(stream)]
    kinds = [kind for kind, _, _ in records]
    assert kinds == ["warcinfo", "response", "request"]
    _, target, http_headers = records[1]
    assert target == site.url("/page/final")
    assert http_headers.get_statuscode() == "200"
    assert records[2][2].get_header("User-Agent") == "archiver/1.0"


def test_archiving_fetcher_wraps_any_fetcher_and_keeps_rendered_text(tmp_path):
    source = tmp_path / "page.html"
    source.write_bytes("<html><body>r\u00e9sum\u00e9</body></html>".encode("cp1252"))
    archive = tmp_path / "files.warc.gz"

    class RenderingFetcher:
        """Stands in for a browser: the text is a rendered DOM, not the bytes decoded."""

        def fetch(self, url: str) -> Page:
            page = FileFetcher().fetch(url)
            return replace(page, text=page.text.replace("<body>", "<body><div>added by script</div>"), via="browser")

    with WarcWriter(archive) as writer:
        plain = ArchivingFetcher(FileFetcher(), writer).fetch(str(source))
        rendered = ArchivingFetcher(RenderingFetcher(), writer).fetch(source.as_uri() + "#rendered")
    replay = WarcReplayFetcher(archive)
    assert_same_page(replay.fetch(str(source)), plain)
    assert replay.fetch(source.as_uri() + "#rendered").text == rendered.text


def test_replay_of_a_missing_url_is_a_clear_error(site, make_fetcher, tmp_path):
    archive = tmp_path / "a.warc.gz"
    with WarcWriter(archive) as writer:
        make_fetcher(archive=writer).fetch(site.url("/page/a"))
    with pytest.raises(FetchError, match="not in the archive"):
        WarcReplayFetcher(archive).fetch(site.url("/page/b"))


def test_replay_of_a_missing_archive_is_a_clear_error(tmp_path):
    with pytest.raises(FetchError, match="no such WARC"):
        WarcReplayFetcher(tmp_path / "none.warc.gz")


def test_appending_keeps_earlier_pages_and_latest_copy_wins(tmp_path: Path):
    page_v1 = Page(url="http://a.example/x", content=b"<p>one</p>", text="<p>one</p>")
    page_v2 = replace(page_v1, content=b"<p>two</p>", text="<p>two</p>")
    other = Page(url="http://a.example/y", content=b"<p>y</p>", text="<p>y</p>")
    archive = tmp_path / "grow.warc.gz"
    with WarcWriter(archive) as writer:
        writer.write(page_v1)
        writer.write(other)
    with WarcWriter(archive, append=True) as writer:
        writer.write(page_v2)
    replay = WarcReplayFetcher(archive)
    assert replay.fetch("http://a.example/x").text == "<p>two</p>"
    assert replay.fetch("http://a.example/y").text == "<p>y</p>"
