"""Decompression bombs against the fetcher and the WARC reader (issue 43): a few kilobytes that inflate to
gigabytes must stop at the size cap with memory bounded, never a ``MemoryError`` traceback.

A real server on 127.0.0.1 serves the bombs; each fetch runs in a child process whose peak memory is read
back (``VmHWM``, its own address space's: ``ru_maxrss`` keeps the test runner's from before the exec), so
the figure is the fetcher's own.
"""

from __future__ import annotations

import gzip
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

import scrapesmith

INFLATED = 512 * 2**20  # what the bomb inflates to
PEAK_MB = 150  # the child's whole peak: about 75 MB here (Python, httpx, lxml imported); 192-1145 MB on a8d56ea


def _gzip_of_zeros(size: int) -> bytes:
    """gzip of ``size`` zero bytes, made a megabyte at a time (never ``size`` bytes in memory)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(2**20)
    out = io.BytesIO()
    for _ in range(size // len(block)):
        out.write(packer.compress(block))
    out.write(packer.flush())
    return out.getvalue()


@pytest.fixture(scope="module")
def bombs():
    once = _gzip_of_zeros(INFLATED)
    return {"gzip": once, "gzip, gzip": gzip.compress(once, 9)}


@pytest.fixture(scope="module")
def bomb_site(bombs):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            encoding = "gzip, gzip" if "double" in self.path else "gzip"
            body = bombs[encoding]
            self.send_response(200)
            self.send_header("Content-Type", "text/plain" if self.path == "/robots.txt" else "text/html")
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            return

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


CHILD = """
import json, resource, sys
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import FetchError
host, path, robots = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
fetcher = HttpFetcher(allow_hosts=[host], delay=0.0, timeout=30.0, retries=1, respect_robots=robots,
                      max_bytes=10 * 2**20)
try:
    page = fetcher.fetch(f"http://{host}{path}")
    outcome = f"fetched {len(page.content)} bytes"
except FetchError as exc:
    outcome = f"{exc.reason}: {exc}"
print(json.dumps({"outcome": outcome, "peak_mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) // 1024}))
"""


def _fetch_in_child(host: str, path: str, robots: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(Path(scrapesmith.__file__).parents[1])}
    done = subprocess.run([sys.executable, "-c", CHILD, host, path, "1" if robots else "0"], capture_output=True,
                          text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", ["/double", "/single"], ids=["gzip-gzip", "gzip"])
def test_a_compressed_page_that_inflates_to_gigabytes_stops_at_the_cap(bomb_site, path):
    """``Content-Encoding: gzip, gzip``: the body was inflated whole, a chunk at a time, before the 10 MB cap
    was checked (issue 43's 5 kB page took more than 3 GB, then a MemoryError)."""
    result = _fetch_in_child(bomb_site, path)
    assert result["outcome"].startswith("too-large:"), result
    assert result["peak_mb"] < PEAK_MB, result


def test_a_compressed_robots_txt_that_inflates_to_gigabytes(bomb_site):
    """robots.txt is read up to 512 kB; as a bomb it was inflated whole first."""
    result = _fetch_in_child(bomb_site, "/double", robots=True)
    assert result["peak_mb"] < PEAK_MB, result


def test_inflate_undoes_stacked_encodings_and_keeps_plain_bodies():
    from scrapesmith.web.inflate import InflateError, encodings, inflate

    body = b"<p>hello</p>" * 5000
    stacked = gzip.compress(zlib.compress(body))
    assert b"".join(inflate([stacked[:100], stacked[100:]], encodings(["deflate, gzip"]), 10**6)) == body
    assert b"".join(inflate([body], encodings(["identity"]), 10**6)) == body
    raw = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    assert b"".join(inflate([raw.compress(body) + raw.flush()], ["deflate"], 10**6)) == body  # raw deflate
    assert b"".join(inflate([gzip.compress(body) + gzip.compress(body)], ["gzip"], 10**6)) == body * 2
    with pytest.raises(InflateError) as caught:
        list(inflate([gzip.compress(body)], ["gzip"], 1000))
    assert caught.value.too_large
    with pytest.raises(InflateError):
        list(inflate([b"not gzip at all"], ["gzip"], 10**6))
    with pytest.raises(InflateError, match="stacked"):
        list(inflate([body], ["gzip"] * 5, 10**6))


def _warc_bomb(path: Path, body_block: bytes) -> Path:
    """A ``pages.warc.gz`` of one resource record whose body is ``INFLATED`` bytes of ``body_block``s."""
    count = INFLATED // len(body_block)
    head = ("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://bomb.test/\r\n"
            "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000043>\r\n"
            "WARC-Date: 2026-11-28T00:00:00Z\r\nContent-Type: text/html\r\n"
            f"Content-Length: {count * len(body_block)}\r\n\r\n").encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    with path.open("wb") as out:
        out.write(packer.compress(head))
        for _ in range(count):
            out.write(packer.compress(body_block))
        out.write(packer.compress(b"\r\n\r\n"))
        out.write(packer.flush())
    return path


WARC_CHILD = """
import json, resource, sys
from scrapesmith.web.archive import WarcReplayFetcher
from scrapesmith.web.page import FetchError
try:
    page = WarcReplayFetcher(sys.argv[1]).fetch("http://bomb.test/")
    outcome = f"read {len(page.content)} bytes"
except FetchError as exc:
    outcome = f"{exc.reason}: {exc}"
print(json.dumps({"outcome": outcome, "peak_mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) // 1024}))
"""


@pytest.mark.parametrize("block", [b"x" * 63 + b"\n", b"\0" * 64], ids=["lines", "one-line"])
def test_a_warc_bomb_read_back(tmp_path, block):
    """A 1.5 MB ``pages.warc.gz`` took 3.2 GB to read back: the record body (or one header line) was
    inflated whole. Collect's validation reads the program's archive this way."""
    archive = _warc_bomb(tmp_path / "pages.warc.gz", block * 16384)
    env = {**os.environ, "PYTHONPATH": str(Path(scrapesmith.__file__).parents[1])}
    done = subprocess.run([sys.executable, "-c", WARC_CHILD, str(archive)], capture_output=True, text=True,
                          timeout=180, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert not result["outcome"].startswith("read"), result
    assert result["peak_mb"] < PEAK_MB, result


def _broken_robots_site(robots_status: int):
    """A server whose robots.txt says ``Content-Encoding: gzip`` and is a gzip stream broken after its header
    (its first block has the reserved block type), and whose /page is a plain page."""
    broken = gzip.compress(b"User-agent: *\nDisallow: /page\n")[:10] + b"\xff" * 40

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            robots = self.path == "/robots.txt"
            body = broken if robots else b"<html><body><p>a page</p></body></html>"
            self.send_response(robots_status if robots else 200)
            self.send_header("Content-Type", "text/plain" if robots else "text/html")
            if robots:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            return

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_robots_txt_whose_encoding_breaks_below_the_cap_refuses_the_site_and_says_why():
    """A robots.txt that cannot be inflated was kept as the few bytes inflated before the break (here none:
    no rules, so everything allowed, silently); its rules cannot be known, so the site is refused, with why."""
    from scrapesmith.web.fetch import HttpFetcher
    from scrapesmith.web.page import RobotsDisallowed

    server = _broken_robots_site(200)
    host = f"127.0.0.1:{server.server_address[1]}"
    try:
        with HttpFetcher(allow_hosts=[host], delay=0.0, retries=0) as fetcher:
            with pytest.raises(RobotsDisallowed) as refused:
                fetcher.fetch(f"http://{host}/page")
            assert "robots.txt could not be read" in str(refused.value)
            assert "gzip body is broken" in str(refused.value)
    finally:
        server.shutdown()
        server.server_close()


def test_a_broken_robots_txt_under_a_404_still_allows_everything():
    """RFC 9309: a 4xx robots.txt means no rules whatever its body, so a broken body there refuses nothing."""
    from scrapesmith.web.fetch import HttpFetcher

    server = _broken_robots_site(404)
    host = f"127.0.0.1:{server.server_address[1]}"
    try:
        with HttpFetcher(allow_hosts=[host], delay=0.0, retries=0) as fetcher:
            assert b"a page" in fetcher.fetch(f"http://{host}/page").content
    finally:
        server.shutdown()
        server.server_close()


def test_a_prefix_says_why_it_ends_early_when_its_encoding_breaks():
    """read_prefix (robots.txt, a proxy's refusal): cut at its limit silently, but a broken encoding is said."""
    import httpx

    from scrapesmith.web.responses import read_prefix

    def response(body: bytes) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(body))

    whole = gzip.compress(b"x" * 10_000)
    assert read_prefix(response(whole), 100) == (b"x" * 100, None)
    assert read_prefix(response(whole), 10**6) == (b"x" * 10_000, None)
    kept, why = read_prefix(response(whole[:10] + b"\xff" * 40), 10**6)
    assert kept == b"" and why is not None and "broken" in why
