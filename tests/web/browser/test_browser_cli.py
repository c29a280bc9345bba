"""``scrapesmith render`` and ``scrapesmith bench browser`` end to end (real Chromium, demo web)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scrapesmith.bench.browser import bench_browser

pytestmark = pytest.mark.browser


def scrapesmith(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapesmith", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_render_auto_renders_the_js_job_board_and_says_why(demo_web):
    url = demo_web.url("/globex/careers/")
    result = scrapesmith("render", url, "--render", "auto", "--allow-host", "127.0.0.1")
    assert result.returncode == 0, result.stderr
    assert "via browser (rendered: noscript-hint" in result.stderr
    assert "Load more button" in result.stdout and "- [id:" in result.stdout


def test_render_errors_are_one_line(demo_web):
    refused = scrapesmith("render", demo_web.url("/acme/"))  # 127.0.0.1 not allowed
    unknown = scrapesmith("render", demo_web.url("/acme/"), "--render", "sometimes")
    for result, status in ((refused, 1), (unknown, 2)):  # a refused fetch fails the run; a bad option is usage
        assert result.returncode == status
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "127.0.0.1" in refused.stderr and "--render: 'sometimes'" in unknown.stderr


def test_bench_browser_reports_both_fetchers_at_each_level(tmp_path):
    result = bench_browser(pages=4, concurrency=(1, 2), launches=0)
    out = tmp_path / "browser.json"
    out.write_text(json.dumps(result.to_json()))

    assert [(c["fetcher"], c["contexts"]) for c in result.cases] == [
        ("http", 1), ("browser", 1), ("http", 2), ("browser", 2)]
    assert all(c["pages"] == 4 and c["pages_per_s"] > 0 for c in result.cases)
    assert result.summary["launch_s_median"] > 0 and result.summary["render_s_median"] > 0
    assert json.loads(out.read_text())["name"] == "browser"
