"""What the seed pages show about a chosen value's node, and the checks a confidence fit keeps from them
(``induce/value_facts.py``, ``induce/confidence.py``, ``bench/confidence.py``).

The fragments are copied from SWDE development pages (restaurant-opentable, auto-msn, university-usnews); the
last test induces on the real pages in ../shared/data/swde.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.bench.confidence import checks_for, fit
from scrapesmith.induce import parse_for_replay, use_ranker
from scrapesmith.induce.cleaning import several_texts
from scrapesmith.induce.confidence import (
    CHECK_ONLY,
    CHECKS,
    ConfidenceModel,
    assess,
    shipped_model,
    use_confidence,
)
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import rank_candidates, trusted
from scrapesmith.induce.value_facts import facts_for, joined_sample, own_texts, selections, value_facts

# restaurant-opentable 0000.htm: the street and the city printed on two lines of one element
ADDRESS = """<html><body><div id="tab_wrapper"><h1 class="RestProfileTitle">Agave - Las Vegas</h1>
<div class="RestProfileAddress">
\t\t10820 W. Charleston Blvd<br/>Las Vegas, NV  89135
\t</div></div></body></html>"""
# auto-msn 0001.htm: a price range where one price was asked for
PRICE = """<html><body><table><tr><td class="label"><a href="#general" title="2010 Audi S5 prices">MSRP Price Range</a>:
</td><td class="value"><b>$52,400&nbsp;- $58,250</b></td></tr></table></body></html>"""
# university-usnews 0000.htm: a micro-format's "type" twice, the address's and the phone's
TYPES = """<html><body><div class="vcard"><h1 class="fn org">Abilene Christian University</h1><div class="adr">
<span class="type">Work</span> <span class="street-address">ACU Box 29100</span>
<div class="tel"><span class="type">Work</span><span class="value">(800) 460-6228</span></div></div></div>
</body></html>"""

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
OPENTABLE = SWDE / "restaurant/restaurant-opentable"


def test_an_element_that_joins_two_printed_lines_is_a_joined_value_and_its_text_node_is_not():
    page = parse_for_replay(ADDRESS)
    concept = concept_for("address", "Please extract the restaurant's address.")
    whole = value_facts(selections([page], "//div[@class='RestProfileAddress']"),
                        [["10820 W. Charleston Blvd Las Vegas, NV 89135"]], concept, False)
    assert whole["joined texts"] > 0
    assert joined_sample(selections([page], "//div[@class='RestProfileAddress']")) == ["10820 W. Charleston Blvd",
                                                                                        "Las Vegas, NV 89135"]
    line = value_facts(selections([page], "//div[@class='RestProfileAddress']/text()[1]"),
                       [["10820 W. Charleston Blvd"]], concept, False)
    assert line["joined texts"] == 0.0
    assert joined_sample(selections([page], "//h1[@class='RestProfileTitle']")) == []


def test_the_texts_an_element_prints_leave_out_scripts_and_comments_but_not_the_text_after_them():
    """One reading of "the texts an element prints", for a value's facts and for the weight of a value that
    holds other fields (``cleaning.several_texts``): a script's code is not printed; the text after a comment
    or a script is."""
    page = parse_for_replay("<html><body><h1>Pulp Fiction <!-- year --> (1994)</h1><p>Knopf<script>var x = 1;"
                            "</script></p><div>Anchor<script>x()</script>(May 19, 2009)</div></body></html>")
    assert [own_texts(e) for e in page.xpath("//h1 | //p | //div")] == [
        ["Pulp Fiction", "(1994)"], ["Knopf"], ["Anchor", "(May 19, 2009)"]]
    assert several_texts(page, "//h1") and several_texts(page, "//div") and not several_texts(page, "//p")


def test_a_price_range_holds_two_prices_where_one_was_asked_for():
    page = parse_for_replay(PRICE)
    concept = concept_for("price", "Please extract the price of the auto.")
    value = page.xpath("string(//td[@class='value']/b)")
    selected = selections([page], "//td[@class='value']/b")
    assert value_facts(selected, [[value]], concept, False)["several of its kind"] == 1.0
    assert value_facts(selected, [["$53,310"]], concept, False)["several of its kind"] == 0.0


def test_a_path_matching_two_elements_for_a_field_asked_once_counts_its_matches_and_a_list_field_does_not():
    page = parse_for_replay(TYPES)
    concept = concept_for("type", "Please extract the type of the university.")
    types = selections([page], "//span[@class='type']")
    once = value_facts(types, [["Work"]], concept, False)
    assert once["several matches"] == pytest.approx(0.693, abs=1e-3)  # log 2
    assert value_facts(types, [["Work", "Work"]], concept, True)["several matches"] == 0.0
    names = selections([page], "//h1")
    assert value_facts(names, [["Abilene Christian University"]], concept, False)["several matches"] == 0.0


def row(site: str, right: bool, **signals: float) -> dict:
    found = {"same on every seed": 0.0, "constant kind": 0.0, "filled": 1.0, "shared affix": 0.0, "regex": 0.0,
             "ranker": 0.9 if right else 0.4, **signals}
    return {"site": site, "window": 0, "field": "f", "extracted": True,
            "category": "correct" if right else "unex", "signals": found}


def test_a_fit_keeps_the_checks_right_values_never_show_and_drops_those_they_do():
    rows = [row(s, True, **{"several matches": 0.69 if i < 3 else 0.0}) for s in "abc" for i in range(10)]
    rows += [row(s, False, **{"joined texts": 0.69}) for s in "ab"]
    kept = checks_for(rows)
    assert "joined texts" in kept and "several of its kind" in kept  # no right value shows either
    assert "several matches" not in kept  # 9 of 30 right values show it
    model = fit(rows, threshold=0.0, checks=kept)
    assert "joined texts" not in model.features  # a check-only fact is no weight of the model
    assert model.flags(row("c", False, **{"joined texts": 0.69})["signals"])
    assert not model.flags(row("c", True)["signals"])


@pytest.mark.skipif(not OPENTABLE.is_dir(), reason="SWDE data not present")
def test_an_address_read_from_the_element_that_joins_two_lines_is_doubted_with_both_lines_as_the_reason():
    """Whichever reading the engine prefers, the element's reading carries the fact; a model that keeps the
    check doubts it even though its probability is above the threshold, and says why in the page's words."""
    trees = [parse_for_replay(p.read_bytes().decode("utf-8-sig", "replace")) for p in sorted(OPENTABLE.glob("*.htm"))[:3]]
    concept = concept_for("address", "Please extract the restaurant's address.")
    with use_ranker(None):
        ranked = [s for s in rank_candidates(concept, trees) if trusted(s, len(trees))]
    element = next(s for s in ranked if s.candidate.xpath == "//div[@class='RestProfileAddress']")
    ranked = [element, *(s for s in ranked if s is not element)]
    element.facts = facts_for(element.candidate, element.values, concept, trees)
    assert element.facts.numbers["joined texts"] > 0
    names = ["ranker"]
    model = ConfidenceModel({"kind": "linear", "features": names, "mean": [0.0], "scale": [1.0], "weights": [0.0],
                             "bias": 5.0, "threshold": 0.5, "checks": ["joined texts"]})
    with use_confidence(model):
        confidence, doubt = assess(ranked, concept)
    assert confidence > 0.5
    assert doubt == "joins 2 texts the page prints apart ('10820 W. Charleston Blvd' + 'Las Vegas, NV 89135')"
    with use_confidence(ConfidenceModel({**model.data, "checks": []})):
        assert assess(ranked, concept) == (pytest.approx(0.993, abs=1e-3), None)


def test_the_shipped_model_keeps_only_known_checks_and_weighs_no_check_only_fact():
    model = shipped_model()
    assert model is not None
    assert set(model.checks) <= set(CHECKS)
    assert not set(CHECK_ONLY) & set(model.features)


def test_the_reason_for_a_range_shows_the_value_that_holds_two_prices():
    page = parse_for_replay(PRICE)
    concept = concept_for("price", "Please extract the price of the auto.")
    with use_ranker(None):
        ranked = [s for s in rank_candidates(concept, [page, page]) if trusted(s, 2)]
    chosen = next(s for s in ranked if "$58,250" in s.values[0][0])
    chosen.facts = facts_for(chosen.candidate, chosen.values, concept, [page, page])
    model = ConfidenceModel({"kind": "linear", "features": ["ranker"], "mean": [0.0], "scale": [1.0],
                             "weights": [0.0], "bias": 5.0, "threshold": 0.5, "checks": ["several of its kind"]})
    with use_confidence(model):
        assert assess([chosen], concept)[1] == "one value holds several of its kind ('$52,400 - $58,250')"


def test_a_pair_of_checks_is_kept_where_right_values_show_each_alone_but_never_both():
    rows = [row(s, True, **{"several matches": 0.69 * (i < 3), "same on every seed": float(3 <= i < 6)})
            for s in "abc" for i in range(10)]
    kept = checks_for(rows)
    assert "several matches" not in kept and "same on every seed" not in kept
    assert "same on every seed & several matches" in kept
    assert not any(" & " in name and "joined texts" in name.split(" & ") for name in kept)  # kept alone already


def test_a_constant_text_its_path_finds_twice_a_page_is_doubted_with_both_reasons():
    """university-usnews: the micro-format's "type" of the address and of the phone, "Work" on every seed."""
    pages = [parse_for_replay(TYPES) for _ in range(3)]
    concept = concept_for("type", "Please extract the type of the university.")
    with use_ranker(None):
        ranked = [s for s in rank_candidates(concept, pages) if trusted(s, 3)]
    chosen = next(s for s in ranked if s.candidate.xpath == "//span[@class='type']")
    chosen.facts = facts_for(chosen.candidate, chosen.values, concept, pages)
    model = ConfidenceModel({"kind": "linear", "features": ["ranker"], "mean": [0.0], "scale": [1.0],
                             "weights": [0.0], "bias": 5.0, "threshold": 0.5,
                             "checks": ["several matches & same on every seed, any kind"]})
    with use_confidence(model):
        assert assess([chosen], concept)[1] == ("its path matches 2.0 elements a page; the first is taken; "
                                                "same text on every seed page")
