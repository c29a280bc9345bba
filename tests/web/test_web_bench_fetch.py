"""The fetch benchmark runs end to end on the demo web and reports the shared figure names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_bench_fetch_reports_rates_for_both_clients(tmp_path: Path):
    out = tmp_path / "fetch.json"
    scrapesmith = Path(sys.executable).with_name("scrapesmith")
    result = subprocess.run(
        [str(scrapesmith), "bench", "fetch", "--pages", "40", "--rounds", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    summary = data["summary"]
    assert summary["pages"] == 40
    assert summary["pages_per_s"] > 0 and summary["bare_pages_per_s"] > 0
    # the ratio is of the unrounded rates; the rates themselves are printed rounded to 0.1 page/s
    assert abs(summary["ratio"] - summary["pages_per_s"] / summary["bare_pages_per_s"]) < 0.002
    assert {case["mode"] for case in data["cases"]} == {"bare_httpx", "fetcher_robots", "fetcher_no_robots"}
    assert all(case["pages"] == 40 for case in data["cases"])
