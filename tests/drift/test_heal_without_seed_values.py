"""Heal a field whose seed values are gone from the pages (amounts written another way and classes renamed,
``formats``) on real SWDE camera pages: by the forging engine's evidence under the old profile's hard checks,
the model asked once per field only where the evidence is split, never shown an option that fails a check."""

from __future__ import annotations

from pathlib import Path

import pytest
from swde_truth import swde_truth, truth_f1

from scrapesmith.bench.drift import forge, rows_of
from scrapesmith.bench.swde import discover_sites, read_page
from scrapesmith.dom.mutate import mutate_page, reformat_text
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.heal import EvidenceHeal, heal_spec
from scrapesmith.llm.scripted import ScriptedLLM

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
pytestmark = pytest.mark.skipif(not (SWDE / "camera").is_dir(), reason="SWDE pages not present")


@pytest.fixture(scope="module")
def camera():
    site = discover_sites(SWDE, ["camera-amazon"])[0]
    texts = [read_page(p) for p in site.page_paths()[:10]]
    spec = forge(site, texts, 3)
    changed = [mutate_page(t, "formats", 0) for t in texts]
    truth = swde_truth(site.key, [p.stem for p in site.page_paths()[3:10]], ["price"])
    assert truth_f1(rows_of(spec, texts[3:]), truth, "price") == 1.0  # the forged spec reads SWDE's prices
    return spec, changed, truth


def price_f1(rows, truth) -> float:
    """F1 against SWDE's prices written as the ``formats`` page writes amounts (``$129.00`` -> ``USD 129.00``)."""
    return truth_f1(rows, truth, "price", written=reformat_text)


def test_without_evidence_a_field_whose_values_are_gone_is_lost(camera):
    spec, changed, _ = camera
    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])
    assert healed.lost == ["price"]
    assert price_f1(rows_of(healed.spec, changed[3:]), camera[2]) < 0.01  # a lost field reads no price


def test_the_evidence_alone_finds_it_again_with_no_model(camera):
    spec, changed, expected = camera
    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]], EvidenceHeal())
    assert "price" in healed.healed and not healed.lost
    assert price_f1(rows_of(healed.spec, changed[3:]), expected) == 1.0


def test_the_model_chooses_among_options_that_pass_the_checks_and_its_rejection_keeps_the_evidence(camera):
    spec, changed, expected = camera
    asked = []

    def reject(request):
        asked.append(request.messages[-1].content)
        return '{"answer": "none"}'

    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]], EvidenceHeal(ScriptedLLM(reject)))
    assert len(asked) == 1  # one call for the one field whose values are gone: its evidence is split here
    # a rejection never empties a field the evidence fills (induce.choose): the evidence's best stays
    assert not healed.lost and "price" in healed.healed
    assert "evidence's choice kept" in next(f.detail for f in healed.fields if f.name == "price")
    assert price_f1(rows_of(healed.spec, changed[3:]), expected) == 1.0
    options = asked[0].split('"enum":[')[1].split("]")[0]
    assert options.count("USD") == 9 and options.endswith('"none"')  # every option reads prices, as it did


def test_formats_rewrites_amounts_and_nothing_else():
    assert reformat_text("Price: $1,299.00 (was £1,400)") == "Price: USD 1299.00 (was GBP 1400)"
    assert reformat_text("1,024 pages, ISBN 978-0-12, 2010, 3.5 stars") == "1024 pages, ISBN 978-0-12, 2010, 3.5 stars"
