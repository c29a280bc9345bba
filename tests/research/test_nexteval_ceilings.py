"""Oracle ceilings, chrome policies and sampling noise of NEXT-EVAL record detection
(research/analysis/nexteval_ceilings.py, research/nexteval_ceilings.py), on real NEXT-EVAL pages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.nexteval_ceilings import (
    CEILINGS,
    PageView,
    Pair,
    Stump,
    add_disjoint,
    chrome_annotation,
    chrome_policies,
    f1_of,
    fit_stump,
    in_chrome,
    page_ceilings,
    sampling_noise,
    view_shipped,
)
from scrapesmith.bench.nexteval_fit import PageData, load_pages

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageData]:
    """Pages 1 (detected right), 72 (annotated lists left out) and 10 (its truth lists records twice)."""
    root = tmp_path_factory.mktemp("nexteval")
    names = ("1", "10", "72")
    for folder, suffix in (("html", "html"), ("groundtruth", "json")):
        (root / folder).mkdir()
        for name in names:
            (root / folder / f"{name}.{suffix}").symlink_to(DATA / folder / f"{name}.{suffix}")
    return dict(zip(names, load_pages(root / "html", root / "groundtruth"), strict=True))


def test_a_page_detected_right_reaches_every_ceiling(pages: dict[str, PageData]) -> None:
    ceilings = page_ceilings(view_shipped(pages["1"]))
    assert all(ceilings[name] == pytest.approx(1.0) for name in CEILINGS)
    assert ceilings["repeated_truth"] == 0


def view_taking(view: PageView, chosen: list[Pair]) -> PageView:
    """The page as ``view`` ranks it, with ``chosen`` as the lists taken (whatever the detector takes)."""
    return PageView(view.page, view.ranked, chosen)


def true_lists(view: PageView) -> list[Pair]:
    """The page's true candidate lists (labelled by NEXT-EVAL's truth), likeliest first, none overlapping."""
    return add_disjoint([], [pair for pair in view.ranked if pair[1].label])


def test_the_ceilings_rise_as_each_oracle_fixes_one_more_kind_of_error(pages: dict[str, PageData]) -> None:
    # page 72 annotates several lists; the view takes one list the truth does not hold as its only list
    shipped = view_shipped(pages["72"])
    truth = true_lists(shipped)
    assert len(truth) >= 3
    wrong = next(pair for pair in shipped.ranked if not pair[1].label)
    ceilings = page_ceilings(view_taking(shipped, [wrong]))
    assert ceilings["detector"] < 0.5
    assert ceilings["main"] > ceilings["detector"] + 0.1  # the wrong main list replaced by a true one
    assert ceilings["added"] > ceilings["main"] + 0.1  # the true lists left out added
    assert ceilings["selection"] == pytest.approx(f1_of(truth, pages["72"].truth))
    assert max(ceilings["selection"], ceilings["greedy"]) <= ceilings["boundary"] + 1e-9
    assert ceilings["boundary"] <= ceilings["metric"] == pytest.approx(1.0)


def test_a_truth_that_lists_records_twice_caps_the_metric_for_any_detector(pages: dict[str, PageData]) -> None:
    page = pages["10"]
    ceilings = page_ceilings(view_shipped(page))
    repeated = ceilings["repeated_truth"]
    assert repeated > 0
    recall = (len(page.truth) - repeated) / len(page.truth)
    assert ceilings["metric"] == pytest.approx(2 * recall / (1 + recall))
    assert ceilings["boundary"] <= ceilings["metric"] + 1e-9


def test_a_true_list_left_out_is_counted_where_it_sits(pages: dict[str, PageData]) -> None:
    shipped = view_shipped(pages["72"])
    truth = true_lists(shipped)
    counts = chrome_annotation(view_taking(shipped, truth))
    assert counts["missed_chrome"] == counts["missed_content"] == 0
    for left_out in truth[1:]:
        counts = chrome_annotation(view_taking(shipped, [pair for pair in truth if pair is not left_out]))
        where = "missed_chrome" if in_chrome(left_out) else "missed_content"
        assert counts[where] == 1 and counts["missed_chrome"] + counts["missed_content"] == 1


def test_chrome_policies_bracket_the_page_oracle(pages: dict[str, PageData]) -> None:
    shipped = view_shipped(pages["72"])
    for scores in chrome_policies(view_taking(shipped, true_lists(shipped))).values():
        assert scores["page oracle none/all"] == max(scores["none"], scores["all"])
        assert 0.0 <= scores["none"] <= 1.0 and 0.0 <= scores["all"] <= 1.0
        assert scores["oracle"] >= max(scores["none"], scores["all"]) - 1e-9


def test_a_menus_rule_is_fitted_on_the_rows_it_is_given() -> None:
    rows = [{"evidence": {"lists": float(n)}, "all": float(n > 2), "none": float(n <= 2)} for n in range(6)]
    assert fit_stump(rows) == Stump("lists", 2.0, below=False)


def test_sampling_noise_finds_a_low_figure_unlikely_from_high_pages_and_the_low_share_it_needs() -> None:
    scores = [1.0] * 90 + [0.0] * 10
    noise = sampling_noise(scores, size=64, observed=0.776, observed_under=11, low=0.5, draws=20_000)
    assert noise["mean"] == pytest.approx(0.9)
    assert noise["p_sample_mean_at_most_observed"] < 0.01
    assert noise["share_under_low_for_observed"] == pytest.approx(0.224)
    assert noise["sample_mean_sd"] == pytest.approx(np.sqrt(0.09 / 64), rel=0.05)
