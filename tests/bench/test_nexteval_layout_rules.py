"""Layout deciding the other lists on a real NEXT-EVAL page (dom/list_selection.py ``drawn_like_taken``): a
list the DOM evidence leaves out is taken when its items are drawn the size of a list taken's, and a page
that cannot be drawn keeps the DOM's own choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapesmith.bench.nexteval import detect_records, expand_record, score_records, text_map_keys
from scrapesmith.dom import detect_lists, parse_html, rank_lists, select_lists, unrendered
from scrapesmith.dom.list_layout import LayoutEvidence, same_item_box
from scrapesmith.dom.list_selection import drawn_like_taken
from scrapesmith.web.browser import BrowserRuntime
from scrapesmith.web.browser.layout import render_layout

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


def evidence(width: float, height: float, shown: float = 1.0) -> LayoutEvidence:
    return LayoutEvidence(shown, 0.1, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, width, height)


def test_item_boxes_are_the_same_size_within_the_tolerance_and_only_when_both_are_drawn() -> None:
    assert same_item_box(evidence(1224, 18), evidence(1301, 20))
    assert not same_item_box(evidence(1224, 206), evidence(1301, 20))
    assert not same_item_box(evidence(600, 20), evidence(1301, 20))
    assert not same_item_box(evidence(1301, 20, shown=0.2), evidence(1301, 20))
    assert not same_item_box(None, evidence(1301, 20))


@pytest.mark.browser
@needs_data
def test_on_a_real_page_a_list_drawn_like_the_main_table_is_taken_and_the_score_rises() -> None:
    html = (DATA / "html" / "61.html").read_bytes()
    root = parse_html(html)
    with BrowserRuntime() as runtime:
        layout = render_layout(root, runtime)
    assert layout.rendered
    tree = root.getroottree()
    by_dom = {tree.getpath(region.items[0]) for region in detect_lists(root)}
    taken = select_lists(rank_lists(root, layout=layout))
    added = [candidate for candidate in taken if tree.getpath(candidate.region.items[0]) not in by_dom]
    assert len(added) == 1
    assert any("Ibuprofen" in " ".join(candidate.preview(3, 80)) for candidate in added)
    assert all(
        any(
            same_item_box(candidate.evidence.layout, other.evidence.layout)
            for other in taken
            if other is not candidate
        )
        for candidate in added
    )
    keys = text_map_keys(root)
    truth = [
        expand_record(record, keys) for record in json.loads((DATA / "groundtruth" / "61.json").read_text())
    ]
    dom_only = score_records([expand_record(record, keys) for record in detect_records(root)], truth)
    with_layout = score_records(
        [expand_record(record, keys) for record in detect_records(root, layout)], truth
    )
    assert with_layout.f1 > dom_only.f1


@needs_data
def test_a_page_that_cannot_be_drawn_keeps_the_dom_choice() -> None:
    root = parse_html((DATA / "html" / "61.html").read_bytes())
    ranked = rank_lists(root, layout=unrendered("no browser in this test"))
    assert all(candidate.evidence.layout is None for candidate in ranked)
    assert drawn_like_taken(ranked, ranked[:1]) == []
    assert [candidate.region for candidate in select_lists(ranked)] == detect_lists(root)
