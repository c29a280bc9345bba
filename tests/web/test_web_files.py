"""FileFetcher, expand_sources and RoutingFetcher on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from fetch_test_server import FRENCH, PNG_BYTES, RUSSIAN, html

from scrapesmith.web.fetch import FileFetcher, HttpFetcher, RoutingFetcher, expand_sources
from scrapesmith.web.page import FetchError, UnsupportedContent
from scrapesmith.web.safety import InvalidUrl


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    (tmp_path / "site" / "deep").mkdir(parents=True)
    (tmp_path / "site" / "a.html").write_text(html(FRENCH), encoding="utf-8")
    (tmp_path / "site" / "deep" / "b.htm").write_bytes(html(RUSSIAN).encode("cp1251"))
    (tmp_path / "site" / "logo.png").write_bytes(PNG_BYTES)
    (tmp_path / "site" / "notes.md").write_text("not a page")
    return tmp_path


def test_reads_a_file_by_path_and_by_file_url(pages):
    by_path = FileFetcher().fetch(str(pages / "site" / "a.html"))
    by_url = FileFetcher().fetch((pages / "site" / "a.html").as_uri())
    assert FRENCH in by_path.text and by_path.via == "file" and by_path.content_type == "text/html"
    assert by_url.url == by_path.url == (pages / "site" / "a.html").as_uri()
    assert by_url.content == by_path.content


def test_relative_paths_resolve_against_root(pages):
    page = FileFetcher(root=pages / "site").fetch("deep/b.htm")
    assert RUSSIAN in page.text and page.encoding == "cp1251"
    assert page.requested_url == "deep/b.htm"


def test_directory_is_refused_with_a_hint(pages):
    with pytest.raises(FetchError, match="is a folder; pass the files"):
        FileFetcher().fetch(str(pages / "site"))


def test_missing_file_and_binary_file_are_clear_errors(pages):
    with pytest.raises(FetchError, match="no such file"):
        FileFetcher().fetch(str(pages / "nope.html"))
    with pytest.raises(UnsupportedContent, match="image/png"):
        FileFetcher().fetch(str(pages / "site" / "logo.png"))


def test_expand_sources_handles_dirs_globs_lists_and_urls(pages):
    listing = pages / "urls.txt"
    listing.write_text("# pages to fetch\nhttp://127.0.0.1:8000/a\n\nsite/a.html\nfile:///tmp/x.html\n")
    expanded = expand_sources([str(pages / "site"), str(pages / "site" / "*.html"), str(listing), "https://e.org/"])
    assert expanded == [
        str(pages / "site" / "a.html"),
        str(pages / "site" / "deep" / "b.htm"),
        str(pages / "site" / "a.html"),
        "http://127.0.0.1:8000/a",
        str(pages / "site" / "a.html"),
        "file:///tmp/x.html",
        "https://e.org/",
    ]


def test_expand_sources_keeps_a_missing_file_for_its_fetch_to_fail_alone(pages):
    assert expand_sources([str(pages / "missing"), str(pages / "site" / "a.html")]) == [
        str(pages / "missing"), str(pages / "site" / "a.html")]
    with pytest.raises(FetchError, match="no file matches"):
        expand_sources([str(pages / "*.nothing")])


def test_routing_sends_urls_to_http_and_paths_to_files(site, pages):
    with RoutingFetcher(http=HttpFetcher(allow_hosts=[site.host_port], delay=0)) as router:
        assert router.fetch(site.url("/page/r")).via == "http"
        assert router.fetch(str(pages / "site" / "a.html")).via == "file"
        assert router.fetch((pages / "site" / "a.html").as_uri()).via == "file"
        with pytest.raises(InvalidUrl, match="unsupported URL scheme 'ftp'"):
            router.fetch("ftp://example.org/file")


def test_confined_reader_reads_only_inside_its_roots(pages):
    """``confine_to``: the real path decides — a ``..`` path or a symbolic link out of the root is refused."""
    (pages / "secret.txt").write_text("outside")
    (pages / "site" / "link.html").symlink_to(pages / "secret.txt")
    files = FileFetcher(confine_to=[pages / "site"])
    assert FRENCH in files.fetch((pages / "site" / "a.html").as_uri()).text
    for outside in (str(pages / "secret.txt"), (pages / "secret.txt").as_uri(), f"{pages}/site/../secret.txt",
                    str(pages / "site" / "link.html")):
        with pytest.raises(FetchError, match="outside the local roots this run may read"):
            files.fetch(outside)
    single = FileFetcher(confine_to=[pages / "site" / "a.html"])  # a file root: that file only
    assert single.fetch(str(pages / "site" / "a.html")).via == "file"
    with pytest.raises(FetchError, match="outside the local roots"):
        single.fetch(str(pages / "site" / "deep" / "b.htm"))
    with pytest.raises(FetchError, match=r"outside the local roots this run may read \(none\)"):
        FileFetcher(confine_to=[]).fetch(str(pages / "site" / "a.html"))


def test_directory_pages_are_sorted_and_the_rest_is_listed(pages):
    from scrapesmith.web.files import HTML_SUFFIXES, directory_pages

    found, skipped = directory_pages(pages / "site", HTML_SUFFIXES)
    assert found == [pages / "site" / "a.html", pages / "site" / "deep" / "b.htm"]
    assert skipped == [pages / "site" / "logo.png", pages / "site" / "notes.md"]
