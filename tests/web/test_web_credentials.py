"""Credentials in a URL (``http://user:pw@host/``) reach that origin only, and never a page, an error,
a log line or a WARC record."""

from __future__ import annotations

import base64
import gzip
import subprocess
import sys

import pytest

from scrapesmith.web.archive import WarcWriter
from scrapesmith.web.page import HttpStatusError
from scrapesmith.web.safety import redact_url, split_credentials

SECRET = "s3cr3t-pw"


def _with_credentials(url: str) -> str:
    return url.replace("http://", f"http://alice:{SECRET}@", 1)


def test_split_credentials():
    assert split_credentials("http://alice:p%40ss@host:8/x?q=1") == ("http://host:8/x?q=1", ("alice", "p@ss"))
    assert split_credentials("http://host/x") == ("http://host/x", None)
    assert redact_url("https://token@host/") == "https://host/"


def test_credentials_go_to_the_origin_but_not_into_the_page_or_the_warc(site, make_fetcher, tmp_path):
    archive = tmp_path / "pages.warc.gz"
    with WarcWriter(archive) as warc:
        fetcher = make_fetcher(archive=warc)
        page = fetcher.fetch(_with_credentials(site.url("/page/x")))
    assert page.url == site.url("/page/x") and page.requested_url == site.url("/page/x")
    expected = "Basic " + base64.b64encode(f"alice:{SECRET}".encode()).decode()
    assert [e.authorization for e in site.state.log if e.path == "/page/x"] == [expected]
    stored = gzip.decompress(archive.read_bytes())
    assert SECRET.encode() not in stored and b"alice" not in stored


def test_credentials_are_not_sent_across_a_redirect_to_another_origin(serve, make_fetcher, site):
    other = serve()
    fetcher = make_fetcher(allow_hosts=[site.host_port, other.host_port])
    fetcher.fetch(_with_credentials(site.url(f"/redirect?to={other.url('/page/y')}")))
    assert [e.authorization for e in other.state.log if e.path == "/page/y"] == [""]


def test_errors_do_not_carry_the_credentials(site, make_fetcher):
    with pytest.raises(HttpStatusError) as caught:
        make_fetcher().fetch(_with_credentials(site.url("/status/404")))
    assert SECRET not in str(caught.value) and SECRET not in caught.value.url


def test_the_fetch_command_prints_and_archives_no_credentials(site, tmp_path):
    archive = tmp_path / "one.warc.gz"
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "fetch", _with_credentials(site.url("/page/z")),
                           "--allow-host", site.host_port, "--warc", str(archive)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert SECRET.encode() not in gzip.decompress(archive.read_bytes())


def test_credentials_a_redirect_carries_are_neither_sent_nor_kept(site, make_fetcher, tmp_path):
    """The server's own ``Location: http://user:pw@…`` is dropped from that hop before it is requested."""
    archive = tmp_path / "pages.warc.gz"
    hidden = "".join(f"%{ord(c):02X}" for c in _with_credentials(site.url("/page/w")))  # the server decodes it
    with WarcWriter(archive) as warc:
        page = make_fetcher(archive=warc).fetch(site.url(f"/redirect?to={hidden}"))
    assert page.url == site.url("/page/w")
    assert [e.authorization for e in site.state.log if e.path == "/page/w"] == [""]
    assert SECRET.encode() not in gzip.decompress(archive.read_bytes())
