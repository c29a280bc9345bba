import json
import statistics
import subprocess
import sys

import pytest

from scrapesmith.bench.dom import normalize_value, run_dom_benchmark
from scrapesmith.bench.swde import discover_sites, load_groundtruth
from scrapesmith.dom import estimate_tokens


def test_swde_values_are_normalised_like_swde_evaluation():
    assert normalize_value(": 9780316125581") == "9780316125581"
    assert normalize_value("Barnes &amp; Noble") == "barnes&noble"
    assert normalize_value("  June\u00a02010 ") == "june2010"


def _first_pages(swde_dir, count: int):
    """The pages the benchmark measures first and SWDE's truth for them, read here on their own."""
    [site, *_] = discover_sites(swde_dir)
    paths = site.page_paths()[:count]
    files = sorted((swde_dir / "groundtruth" / site.vertical).glob(f"{site.key}-*.txt"))
    truth = {path.stem: {f.stem[len(site.key) + 1:]: load_groundtruth(f).get(path.stem, []) for f in files}
             for path in paths}
    return paths, truth


def test_benchmark_reports_timings_ratios_and_kept_values(swde_dir):
    result = run_dom_benchmark(swde_dir, swde_dir / "groundtruth", max_tokens=4000, limit=5)
    summary, cases = result.summary, result.cases
    paths, truth = _first_pages(swde_dir, 5)
    assert summary["pages"] == 5 and [case["page"] for case in cases] == [path.stem for path in paths]
    # timings: every stage measured, the total is their sum, the slowdown is against bare lxml on the same bytes
    stages = [summary[f"{stage}_ms_per_page"] for stage in ("parse", "clean", "simplify")]
    assert min(stages) > 0 and summary["bare_ms_per_page"] > 0
    assert summary["ms_per_page"] == pytest.approx(sum(stages), abs=0.01)
    assert summary["slowdown_vs_bare"] == pytest.approx(summary["ms_per_page"] / summary["bare_ms_per_page"], rel=0.01)
    # ratios: the simplified page's tokens over the raw HTML's, the raw counted here from the file itself
    ratios = []
    for case, path in zip(cases, paths, strict=True):
        assert case["raw_tokens"] == estimate_tokens(path.read_bytes().decode("utf-8", errors="replace"))
        assert 0 < case["simplified_tokens"] < case["raw_tokens"]
        assert case["token_ratio"] == pytest.approx(case["simplified_tokens"] / case["raw_tokens"], abs=1e-4)
        ratios.append(case["simplified_tokens"] / case["raw_tokens"])
    assert summary["token_ratio_median"] == pytest.approx(statistics.median(ratios), abs=1e-4)
    assert summary["token_ratio_median"] <= summary["token_ratio_p90"] < 1
    # kept values: SWDE's values for these pages, counted here; every one survives simplification
    assert summary["gt_values"] == sum(len(values) for page in truth.values() for values in page.values())
    assert summary["gt_values_missing"] == 0 and summary["gt_kept_ratio"] == 1.0
    assert all(case["gt_kept"] and case["missing"] == "" for case in cases)


def test_values_a_simplification_loses_are_reported_missing(swde_dir):
    # a budget of 40 tokens cuts each simplified page short: values go, and each one reported is SWDE's
    result = run_dom_benchmark(swde_dir, swde_dir / "groundtruth", max_tokens=40, limit=5)
    _, truth = _first_pages(swde_dir, 5)
    assert result.summary["gt_values_missing"] > 0 and result.summary["gt_kept_ratio"] < 1.0
    for case in result.cases:
        for missing in filter(None, case["missing"].split("; ")):
            attribute, value = missing.split("=", 1)
            assert value in truth[case["page"]][attribute]


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
