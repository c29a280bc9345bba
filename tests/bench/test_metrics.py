"""The executability metric against hand-computed cases (AutoScraper's run_swde/evaluate.py rules)."""

from __future__ import annotations

import pytest

from scrapesmith.bench.metrics import CaseScore, classify, normalize_strict, summarize, value_set


def _case(pages):
    case = CaseScore()
    for predicted, truth in pages:
        case.add_page(predicted, truth)
    return case


def test_normalisation_unescapes_entities_and_removes_all_whitespace_but_keeps_case():
    assert normalize_strict("Barnes &amp; Noble\n Inc") == "Barnes&NobleInc"
    assert value_set([": 978 0316", "", "  "]) == {":9780316"}
    assert value_set(["ABC"]) != value_set(["abc"])


def test_lenient_variant_strips_separators_from_both_sides():
    assert value_set([": 9780316125581"], lenient=True) == value_set(["9780316125581"], lenient=True)
    assert value_set([": 9780316125581"]) != value_set(["9780316125581"])


def test_counts_are_per_page_sets_summed_over_pages():
    case = _case([(["a", "a", "b"], ["a"]), ([], ["c", "d"]), (["x"], [])])
    assert (case.tp, case.fp, case.fn) == (1, 2, 2)
    assert case.precision == pytest.approx(1 / 3)
    assert case.recall == pytest.approx(1 / 3)


@pytest.mark.parametrize("pages, category", [
    ([(["a"], ["a"]), (["b"], ["b"])], "correct"),
    ([(["a"], ["a"]), ([], ["b"])], "prec"),            # p = 1, r = 0.5
    ([(["a", "z"], ["a"]), (["b"], ["b"])], "recall"),  # r = 1, p = 2/3
    ([([], ["a"]), ([], ["b"])], "unex"),              # nothing extracted: r = 0
    ([(["x"], ["a"])], "unex"),                         # r = 0 is tested before p = 0
    ([(["a", "x"], ["a", "b"])], "else"),               # p = r = 0.5
])
def test_cases_are_classified_in_the_evaluation_order(pages, category):
    assert _case(pages).category == category


def test_over_needs_zero_precision_with_nonzero_rounded_recall():
    # round(r, 4) == 0 and round(p, 4) == 0 hits Unex. first, so Over. only arises from epsilon effects;
    # the classifier follows the evaluation's order exactly.
    assert classify(0.0, 0.5, 0.0) == "over"
    assert classify(0.0, 0.0, 0.0) == "unex"


def test_values_are_rounded_to_four_places_before_classification():
    assert classify(0.99996, 1.0, 0.99998) == "correct"
    assert classify(0.9996, 1.0, 0.9998) == "recall"


def test_summary_reports_category_ratios_and_macro_means():
    cases = [_case([(["a"], ["a"])]), _case([([], ["a"])]), _case([(["a", "x"], ["a"])])]
    summary = summarize(cases)
    assert summary["cases"] == 3
    assert summary["correct_ratio"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["unex_ratio"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["recall_ratio"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["precision"] == pytest.approx((1 + 1 + 0.5) / 3, abs=1e-4)
    assert summary["recall"] == pytest.approx((1 + 0 + 1) / 3, abs=1e-4)
