"""A selector with no anchor (``//b``: the first bold text) that a redesign leaves right on every seed page:
heal re-anchors it on its label, the label written two ways on the seed pages joined into one step. Real SWDE
auto pages, under two reorderings: the label after its value, and before it as a link."""

from __future__ import annotations

import pytest
from lxml import etree
from swde_truth import swde_truth, truth_f1

from scrapesmith.bench.drift import rows_of
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.induce.candidates import FieldCandidate
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.heal import heal_spec
from scrapesmith.induce.heal_candidates import label_unions


@pytest.mark.parametrize("seed", [0, 1])
def test_an_unanchored_selector_is_re_anchored_on_its_label(auto_msn, seed):
    forged, texts = auto_msn
    # a selector by tag alone, right on every seed page (what the forger chose before it learnt to prefer an
    # anchored path of the same reading, issue 28)
    spec = forged.model_copy(update={"fields": [
        f.model_copy(update={"actions": ["//b"]}) if f.name == "price" else f for f in forged.fields]})
    assert rows_of(spec, texts[:3]) == rows_of(forged, texts[:3])  # it reads what the forged spec reads
    changed = [mutate_page(t, "reorder", seed) for t in texts]
    truth = swde_truth("auto-msn", [f"{n:04d}" for n in range(3, 10)], ["price"])
    before = truth_f1(rows_of(spec, texts[3:]), truth, "price")
    assert before >= 0.6  # one of SWDE's two prices (the range) on each unchanged page
    assert truth_f1(rows_of(spec, changed[3:]), truth, "price") < 0.95 * before  # another <b> now comes first

    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])

    [heal] = [f for f in healed.fields if f.name == "price"]
    assert heal.outcome == "healed" and heal.detail.startswith("re-anchored on its label")
    assert "normalize-space()='MSRP Price:' or normalize-space()='MSRP Price Range:'" in heal.after[0]
    assert truth_f1(rows_of(healed.spec, changed[3:]), truth, "price") >= before
    assert truth_f1(rows_of(spec, texts[3:]), truth, "price") == before  # the old version still runs as before


def test_an_anchored_selector_that_still_reads_its_seed_values_is_kept(auto_msn):
    spec, texts = auto_msn
    [engine] = [f for f in spec.fields if f.name == "engine"]
    healed = heal_spec(spec, [parse_for_replay(t) for t in texts[:3]])
    assert [f.outcome for f in healed.fields if f.name == "engine"] == ["kept"]
    assert "@" in engine.actions[0] or "normalize-space(" in engine.actions[0]


def _label_candidate(label: str) -> tuple[FieldCandidate, float]:
    return FieldCandidate(f"//td[normalize-space()='{label}']/following-sibling::td[1]", "label"), 1.0


def test_two_label_spellings_join_on_three_seed_pages_or_more():
    pages = [[_label_candidate("Price:")], [_label_candidate("Price:")], [_label_candidate("Price range:")]]
    [(joined, _)] = label_unions(pages)
    assert joined.xpath == ("//td[normalize-space()='Price:' or normalize-space()='Price range:']"
                            "/following-sibling::td[1]")
    root = etree.fromstring("<table><tr><td>Price range:</td><td>$1 - $2</td></tr></table>")
    assert [e.text for e in root.xpath(joined.xpath)] == ["$1 - $2"]
    assert label_unions(pages[1:]) == []  # two pages, two spellings: nothing shows either repeats
