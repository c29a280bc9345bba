"""NEXT-EVAL scoring (normalisation, expansion, Jaccard + Hungarian matching) and the detector on real pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scrapesmith.bench.nexteval import (
    RenderingDetector,
    detect_records,
    evaluate_page,
    expand_record,
    normalize_xpath,
    run_nexteval,
    score_page,
    score_records,
    text_map_keys,
)
from scrapesmith.bench.nexteval_fit import (
    C_OPTIONS,
    DEFAULT_C,
    LOW_F1,
    PageData,
    choose_c,
    cross_half_f1,
    cross_halves,
    fit_models,
    load_pages,
    shipped_method,
)
from scrapesmith.cli import app
from scrapesmith.dom.layout import unrendered
from scrapesmith.dom.parse import parse_html
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web.browser import BrowserRuntime
from scrapesmith.web.browser.layout import render_layout

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"


def test_normalize_strips_html_and_indexes_every_step() -> None:
    assert normalize_xpath("/html[1]/body/div[3]/ul/li[2]") == "/body[1]/div[3]/ul[1]/li[2]"
    assert normalize_xpath("/html/body") == "/body[1]"


def test_text_map_keys_are_parents_of_text_outside_scripts() -> None:
    tree = parse_html("<html><body><div><p>a</p><script>x()</script><span> </span>tail</div></body></html>")
    assert text_map_keys(tree) == ["/body[1]/div[1]", "/body[1]/div[1]/p[1]"]


def test_expansion_covers_descendants_but_not_longer_sibling_indexes() -> None:
    keys = sorted(["/body[1]/tr[1]/td[1]", "/body[1]/tr[10]/td[1]", "/body[1]/tr[1]"])
    assert expand_record(["/body/tr[1]"], keys) == {"/body[1]/tr[1]", "/body[1]/tr[1]/td[1]"}


def test_scores_use_jaccard_overlap_and_one_to_one_matching() -> None:
    truth = [frozenset({"a", "b"}), frozenset({"c"})]
    perfect = score_records(list(truth), truth)
    assert (perfect.precision, perfect.recall, perfect.f1) == (1.0, 1.0, 1.0)
    half = score_records([frozenset({"a"}), frozenset({"a", "b"})], truth)
    assert half.precision == pytest.approx(0.5) and half.recall == pytest.approx(0.5)
    extra = score_records([*truth, frozenset({"z"})], truth)
    assert extra.precision == pytest.approx(2 / 3) and extra.recall == 1.0


def test_empty_cases_follow_next_eval() -> None:
    assert score_records([], []).f1 == 1.0
    assert score_records([], [frozenset({"a"})]).f1 == 0.0
    assert score_records([frozenset({"a"})], []).f1 == 0.0


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_detector_finds_the_table_rows_of_a_real_page() -> None:
    truth = json.loads((DATA / "groundtruth" / "1.json").read_text())
    score = evaluate_page((DATA / "html" / "1.html").read_bytes(), truth)
    assert score.f1 > 0.9


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_benchmark_runs_on_a_few_pages(tmp_path: Path) -> None:
    result = run_nexteval(DATA / "html", DATA / "groundtruth", limit=3)
    assert result.summary["pages"] == 3 and result.summary["errors"] == 0
    assert 0.0 < float(result.summary["f1"]) <= 1.0


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_named_pages_only_and_unknown_pages_are_an_error() -> None:
    result = run_nexteval(DATA / "html", DATA / "groundtruth", only=["54", "5"])
    assert [case["page"] for case in result.cases] == ["5", "54"]
    with pytest.raises(ScrapesmithError, match="no such NEXT-EVAL pages: 999"):
        run_nexteval(DATA / "html", DATA / "groundtruth", only=["5", "999"])


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_pages_that_cannot_be_rendered_fall_back_to_dom_evidence_and_are_counted() -> None:
    dom = run_nexteval(DATA / "html", DATA / "groundtruth", only=["11", "28"])
    failing = RenderingDetector(lambda root: unrendered("no browser in this test"))
    fallback = run_nexteval(DATA / "html", DATA / "groundtruth", only=["11", "28"], detector=failing)
    assert [case["f1"] for case in fallback.cases] == [case["f1"] for case in dom.cases]
    assert fallback.summary["pages_not_rendered"] == 2 and fallback.summary["pages_rendered"] == 0
    assert all("no browser in this test" in str(case["layout_note"]) for case in fallback.cases)


@pytest.mark.browser
@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_rendered_pages_report_their_seconds_beside_f1() -> None:
    drawn = []  # each page's parsed tree and the layout drawn for it, as the detector was given them

    with BrowserRuntime() as runtime:

        def draw(root):
            layout = render_layout(root, runtime)
            drawn.append((root, layout))
            return layout

        result = run_nexteval(DATA / "html", DATA / "groundtruth", only=["11", "28"], detector=RenderingDetector(draw))
    assert result.summary["pages_rendered"] == 2 and result.summary["pages_not_rendered"] == 0
    assert [case["page"] for case in result.cases] == ["11", "28"] and len(drawn) == 2
    for case, (root, layout) in zip(result.cases, drawn, strict=True):
        assert case["rendered"] and layout.rendered
        assert case["render_seconds"] == round(layout.seconds, 3) and layout.seconds > 0
        truth = json.loads((DATA / "groundtruth" / f"{case['page']}.json").read_text(encoding="utf-8"))
        # beside it, the F1 of what the detector found with that very layout, scored on NEXT-EVAL's truth
        assert case["f1"] == pytest.approx(score_page(root, truth, lambda page, layout=layout: detect_records(page, layout)).f1)
    seconds = [layout.seconds for _, layout in drawn]
    assert result.summary["render_seconds_per_page"] == pytest.approx(sum(round(s, 3) for s in seconds) / 2)
    assert sum(seconds) <= result.summary["seconds"]  # measured inside the run, not made up


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_cross_halves_score_each_half_only_with_what_was_fitted_on_the_other() -> None:
    pages = load_pages(DATA / "html", DATA / "groundtruth", limit=6)
    splits: list[tuple[set[int], set[int]]] = []
    shipped = shipped_method(DEFAULT_C)  # the penalty fixed: only the splits are under test here

    def recording(train: list[PageData], test: list[PageData]) -> list[float]:
        splits.append(({id(page) for page in train}, {id(page) for page in test}))
        return shipped(train, test)

    halves = cross_halves(pages, recording)
    assert [len(half.scores) for half in halves] == [3, 3, 3, 3]
    everything = {id(page) for page in pages}
    for train, test in splits:
        assert not train & test and train | test == everything
    assert splits[0] == splits[1][::-1] and splits[2] == splits[3][::-1]
    assert splits[0][0] != splits[2][0]  # page halves and odd/even pages are different splits
    for half in halves:
        assert half.under_half == sum(1 for score in half.scores if score < LOW_F1)
    scores = [score for half in halves for score in half.scores]
    assert cross_half_f1(halves) == pytest.approx(sum(scores) / len(scores))
    assert 0.0 < cross_half_f1(halves) <= 1.0


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_the_penalty_is_one_of_the_options_and_a_page_or_two_still_fit() -> None:
    pages = load_pages(DATA / "html", DATA / "groundtruth", limit=6)
    assert choose_c(pages) in C_OPTIONS
    assert len(fit_models(pages[:1]).secondary.weights) == len(fit_models(pages).secondary.weights)


@pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")
def test_fit_prints_the_chosen_penalty_and_each_half_with_its_pages_under_half() -> None:
    where = ["--html", str(DATA / "html"), "--groundtruth", str(DATA / "groundtruth")]
    result = CliRunner().invoke(app, ["bench", "nexteval", "--fit", "--limit", "4", *where])
    assert result.exit_code == 0, result.output
    assert "# L2 penalty C = " in result.output and "INTERCEPT = " in result.output
    halves = [line for line in result.output.splitlines() if line.startswith("cross-half, fit on")]
    assert len(halves) == 4 and all("of 2 pages under 0.5" in line for line in halves)
    assert "cross-half, all four directions: F1 " in result.output
    [classes] = [line for line in result.output.splitlines() if line.startswith("cross-half loss by class")]
    for name in ("main", "extra", "missed", "boundary"):
        assert re.search(rf"{name} -?\d\.\d{{4}} \(\d+ pages\)", classes), classes
