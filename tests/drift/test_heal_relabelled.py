"""A label reworded to words nothing matches ("Publisher:" -> "Item 46f67e:") keeps its value in its place:
heal without seed values tries the old selector anchored on each label now printed on every page, keeps the
places whose values pass the old profile's hard checks and vary, and takes one only when one is left."""

from __future__ import annotations

from scrapesmith.drift.views import ColumnProfile
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.heal_candidates import reanchored
from scrapesmith.induce.heal_evidence import relocate_by_evidence
from scrapesmith.induce.views import FieldSpec

OLD = FieldSpec(name="publisher", instruction="the publisher of the book",
                actions=["//b[normalize-space()='Publisher:']/following-sibling::text()[1]"])
PROFILE = ColumnProfile(name="publisher", pages=3, filled=3, kinds={"date": 3}, lengths=[58, 23, 56],
                        seed_values=[["Knopf; First Edition (May 25, 2010)"], ["Vintage (June 23, 2009)"],
                                     ["Simon & Schuster Audio; Unabridged edition (June 15, 2010)"]])
LINES = ["Anchor (May 19, 2009)", "St. Martin's Press; 1 edition (June 22, 2010)", "Ballantine Books (June 8, 2010)"]


def _page(line: str, shipped: str, extra: str = "") -> str:
    return (f"<html><body><h1>A book</h1><ul><li><b>Item 46f67e:</b> {line}</li><li><b>Item bf75b9:</b> English</li>"
            f"<li><b>Item 2e4b73:</b> {shipped}</li>{extra}</ul></body></html>")


def test_the_old_selector_is_tried_on_every_label_each_page_prints() -> None:
    """The whole path on real pages (book-amazon, every label reworded, no seed value left) is
    tests/drift/test_heal_changed_pages.py; here, which places are offered."""
    pages = [parse_for_replay(_page(line, f"{n}.4 x 6.5 inches")) for n, line in enumerate(LINES)]
    offered = [c.xpath for c in reanchored(OLD.actions[0], pages, "label")]
    assert offered == [f"//b[normalize-space()='Item {label}:']/following-sibling::text()[1]"
                       for label in ("2e4b73", "46f67e", "bf75b9")]
    one_page_only = pages[:2] + [parse_for_replay(_page(LINES[2], "1 x 2 inches").replace("Item bf75b9", "Tongue"))]
    assert len(reanchored(OLD.actions[0], one_page_only, "label")) == 2  # a label is template: printed on every page
    assert reanchored("//div[@class='a']", pages, "label") == []  # no label step


def test_heal_without_seed_values_still_prefers_the_engine_evidence() -> None:
    pages = [parse_for_replay(_page(line, f"{n}.4 x 6.5 inches")) for n, line in enumerate(LINES)]
    healed, how = relocate_by_evidence(OLD, PROFILE, pages, None)
    assert healed is not None and healed.actions == ["//b[normalize-space()='Item 46f67e:']/following-sibling::text()[1]"]
    assert "look like its old output" in how
