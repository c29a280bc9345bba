import json
import subprocess
import sys

from scrapesmith.bench.dom import normalize_value, run_dom_benchmark


def test_swde_values_are_normalised_like_swde_evaluation():
    assert normalize_value(": 9780316125581") == "9780316125581"
    assert normalize_value("Barnes &amp; Noble") == "barnes&noble"
    assert normalize_value("  June\u00a02010 ") == "june2010"


def test_benchmark_reports_timings_ratios_and_kept_values(swde_dir):
    result = run_dom_benchmark(swde_dir, swde_dir / "groundtruth", max_tokens=4000, limit=5)
    summary = result.summary
    assert summary["pages"] == 5
    for key in ("ms_per_page", "bare_ms_per_page", "token_ratio_median", "token_ratio_p90", "gt_kept_ratio"):
        assert summary[key] > 0
    assert summary["gt_values"] > 5
    assert len(result.cases) == 5 and {"page", "token_ratio", "missing"} <= set(result.cases[0])


def test_bench_dom_command_writes_json(swde_dir, tmp_path):
    out = tmp_path / "dom.json"
    run = subprocess.run(
        [sys.executable, "-m", "scrapesmith", "bench", "dom", "--pages", str(swde_dir), "--limit", "3", "--json", str(out)],
        check=False, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["summary"]["pages"] == 3


def test_bench_dom_command_reports_missing_data_in_one_line(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "scrapesmith", "bench", "dom", "--pages", str(tmp_path / "none")],
        check=False, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert "not found" in run.stderr and "Traceback" not in run.stderr
