"""Heal after a redesign that reversed the children of some blocks (``reorder``): a label now after its
value, a list read from its other end. Real SWDE pages."""

from __future__ import annotations

import pytest
from healed import SWDE, healed_field

from scrapesmith.induce.heal_candidates import mirrored

pytestmark = pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE data not present")


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
