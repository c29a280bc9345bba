"""The safety filter inside the pipeline, on real loopback sites: refused before the proposer, recorded, counted."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scrapesmith.insta.pipeline import PipelineConfig, run_pipeline
from scrapesmith.insta.store import ResultStore
from scrapesmith.io import read_rows
from scrapesmith.scale.runner import LocalPoolRunner

from .scripted import llm_factory

WALL = (b"<html><head><title>Sign in</title></head><body><form><label>Email</label><input name=email>"
        b"<label>Password</label><input type=password name=password><button>Sign in</button>"
        b"<a href='/reset'>Forgot password?</a></form></body></html>")
ROUTES = {
    "/wall/": ("text/html; charset=utf-8", WALL),
    "/api/": ("application/json", b'{"error": {"code": 401, "message": "missing API key"}}'),
    "/font/": ("font/woff2", b"wOF2\x00\x01"),
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        content_type, body = ROUTES.get(self.path, ("text/plain", b"not found"))
        self.send_response(200 if self.path in ROUTES else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hosts() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_login_walls_and_machine_hosts_are_refused_by_evidence_before_any_model_call(hosts, tmp_path):
    sites = [f"{hosts}/wall/", f"{hosts}/api/", f"{hosts}/font/"]
    config = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, seed=1)
    runner = LocalPoolRunner(workers=1)
    try:
        summary = run_pipeline(sites, ResultStore(tmp_path / "run"), runner, config, llm_factory=llm_factory())
    finally:
        runner.close()
    assert (summary.unsafe, summary.ok, summary.failed) == (3, 0, 0)
    assert summary.refused == {"login": 1, "api_cdn": 2}
    rows = {row["site"]: row for row in read_rows(tmp_path / "run" / "results.parquet")}
    assert [rows[site]["safety_category"] for site in sites] == ["login", "api_cdn", "api_cdn"]
    assert all(rows[site]["safety_decided_by"] == "evidence" and rows[site]["llm_calls"] == 0 for site in sites)
    assert "mostly a sign-in form" in rows[sites[0]]["safety_reason"]
    assert "missing API key" in rows[sites[1]]["safety_reason"]
    assert "font/woff2" in rows[sites[2]]["safety_reason"]
    report = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "refused by the safety filter (evidence), login: [strong] login: the page is mostly a sign-in form" in report
