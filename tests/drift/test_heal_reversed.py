"""Heal after a redesign that reversed the children of some blocks (``reorder``): a label now after its
value, a list read from its other end. Real SWDE pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.bench.drift import forge, rows_of
from scrapesmith.bench.swde import discover_sites, read_page
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.induce import parse_for_replay
from scrapesmith.induce.heal import heal_spec
from scrapesmith.induce.heal_candidates import mirrored

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"

pytestmark = pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE data not present")


def healed_field(key: str, name: str, mutation: str, seed: int) -> tuple[list, list, str, str]:
    """The field's values on pages 3-9 as forged, and after ``mutation`` and heal; its selector before and after."""
    site = next(s for s in discover_sites(SWDE) if s.key == key)
    texts = [read_page(p) for p in site.page_paths()[:10]]
    spec = forge(site, texts, 3)
    changed = [mutate_page(t, mutation, seed) for t in texts]
    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])
    before = [r[name] for r in rows_of(spec, texts[3:])]
    after = [r[name] for r in rows_of(healed.spec, changed[3:])]
    return before, after, spec.field(name).actions[0], healed.spec.field(name).actions[0]


def test_a_value_its_regex_cuts_out_is_found_before_its_label_now_after_it():
    """nbaplayer-wiki's height reads "6 ft 5 in" out of "6 ft 5 in (1.96 m)" in the cell after "Listed height";
    the row reversed, the cell comes first: the element beside the label holds the value the field's own
    regex cuts out, which no exact-text match finds."""
    before, after, old, new = healed_field("nbaplayer-wiki", "height", "reorder", 0)
    assert "following-sibling::td[1]" in old and "preceding-sibling::td" in new
    assert after == before and all(before)


def test_a_list_read_from_its_other_end():
    """university-collegeboard's type is the first item under "Type of School"; the list reversed, it is the
    last. The old selector counted from the end gives every seed value back, where a label beside one of the
    seed values gave two of three."""
    before, after, old, new = healed_field("university-collegeboard", "type", "reorder", 0)
    assert old.endswith("li[1]") and new.endswith("li[last()]")
    assert after == before and all(before)


def test_mirrors_turn_positions_and_sibling_axes_and_leave_unions_alone():
    found = [c.xpath for c in mirrored("//th[normalize-space()='Born']/following-sibling::td[2]")]
    assert found == ["//th[normalize-space()='Born']/following-sibling::td[last()-1]",
                     "//th[normalize-space()='Born']/preceding-sibling::td[2]",
                     "//th[normalize-space()='Born']/preceding-sibling::td[last()-1]"]
    assert mirrored("//b | //i[1]") == [] and mirrored("//h1") == []
