"""``scrapesmith bench sandbox`` measures both modes and reports the overheads."""

from __future__ import annotations

import pytest

from scrapesmith.bench.sandbox import bench_sandbox
from scrapesmith.collect.isolation import bwrap_path


@pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap is not installed (make bubblewrap)")
def test_bench_sandbox_reports_start_up_and_collect_overheads():
    result = bench_sandbox(rounds=1)
    summary = result.summary
    for figure in ("startup", "collect", "rerun"):
        assert summary[f"{figure}_s_sandbox"] > 0 and summary[f"{figure}_s_no-sandbox"] > 0
        assert summary[f"{figure}_overhead_s"] == round(summary[f"{figure}_s_sandbox"]
                                                        - summary[f"{figure}_s_no-sandbox"], 3)
    assert {case["domain"] for case in result.cases} == {"academic", "sports"}
    assert all(case["rows"] > 0 and case["rerun_ok"] for case in result.cases)
