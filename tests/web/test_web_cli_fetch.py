"""`scrapesmith fetch` as a user runs it: a real process against the local server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fetch_test_server import RUSSIAN

from scrapesmith.web.archive import WarcReplayFetcher

SCRAPESMITH = Path(sys.executable).with_name("scrapesmith")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRAPESMITH), "fetch", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_fetch_prints_summary_to_stderr_and_text_to_stdout(site):
    result = run(site.url("/enc/cp1251-meta"), "--allow-host", site.host_port)
    assert result.returncode == 0, result.stderr
    assert RUSSIAN in result.stdout
    summary = result.stderr.strip().splitlines()[-1]
    assert summary.startswith("200 " + site.url("/enc/cp1251-meta"))
    assert "text/html" in summary and "cp1251" in summary and "via http" in summary


def test_fetch_writes_output_file_and_warc(site, tmp_path):
    out, warc = tmp_path / "page.html", tmp_path / "page.warc.gz"
    result = run(
        site.url("/redirect?to=/page/cli"), "--allow-host", "127.0.0.1", "-o", str(out), "--warc", str(warc),
        "--user-agent", "cli-test/1.0", "--timeout", "5",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "page /page/cli" in out.read_text(encoding="utf-8")
    replayed = WarcReplayFetcher(warc).fetch(site.url("/redirect?to=/page/cli"))
    assert replayed.url == site.url("/page/cli")
    assert {entry.user_agent for entry in site.state.log} == {"cli-test/1.0"}


def test_no_robots_flag(site):
    refused = run(site.url("/private/x"), "--allow-host", site.host_port)
    allowed = run(site.url("/private/x"), "--allow-host", site.host_port, "--no-robots")
    assert refused.returncode == 1 and "robots.txt disallows" in refused.stderr
    assert allowed.returncode == 0


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("blocked", "private or local address"),
        ("robots", "robots.txt disallows"),
        ("bad-scheme", "unsupported URL scheme"),
        ("no-host", "no host"),
        ("unreachable", "cannot reach the server"),
        ("missing-file", "no such file"),
        ("image", "image/png"),
    ],
)
def test_errors_are_one_line_and_exit_1(site, case, expected, tmp_path):
    allow = ["--allow-host", site.host_port]
    args = {
        "blocked": [site.url("/page/x")],
        "robots": [site.url("/private/x"), *allow],
        "bad-scheme": ["gopher://example.org/"],
        "no-host": ["http:///path"],
        "unreachable": ["http://127.0.0.1:9/", "--allow-host", "127.0.0.1:9"],
        "missing-file": [str(tmp_path / "missing.html")],
        "image": [site.url("/image.png"), *allow],
    }[case]
    result = run(*args)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:") and expected in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""
