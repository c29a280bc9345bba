"""``scrapesmith serve-sites`` prints its URL, answers requests and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from scrapesmith.sites import DemoServer

SCRAPESMITH = str(Path(sys.executable).with_name("scrapesmith"))


def _start(*args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [SCRAPESMITH, "serve-sites", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "120"},
    )
    first = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+", first)
    assert match, f"no URL in {first!r}"
    return process, match.group(0)


def test_serve_sites_prints_url_and_site_list_and_stops_on_ctrl_c() -> None:
    process, base_url = _start("--port", "0", "--seed", "7")
    try:
        assert httpx.get(base_url + "/robots.txt", timeout=5).status_code == 200
        assert "/proceedings/" in httpx.get(base_url + "/", timeout=5).text
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "/acme/" in out and "stopped" in out and "Traceback" not in err


def test_serve_sites_on_a_taken_port_fails_with_one_line(demo_web: DemoServer) -> None:
    result = subprocess.run(
        [SCRAPESMITH, "serve-sites", "--port", str(demo_web.port)],
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert "cannot serve the demo sites" in result.stderr and "Traceback" not in result.stderr
