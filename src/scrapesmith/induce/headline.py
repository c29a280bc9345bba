"""Where a page's headline is, and how well values read as it.

A detail page names its record in its title (``Name - Site``) and prints it in a heading; the fields of the
record sit around that heading, distractors further away. :func:`title_fit` says how well a candidate's
values read as the page's headline; :class:`HeadlineAnchor` finds the heading and says how close a value is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from scrapesmith.induce.execute import folded, normalize_space
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.joined import leading_text
from scrapesmith.induce.regions import hidden_markup
from scrapesmith.induce.titles import leads_with

_TITLE_BOUNDARY = "|:-–—»·/,([{"


MID_SEGMENT = 0.9
CORE_LEADS = 0.95


def title_fit(values: Sequence[str], title: str, cores: Sequence[str] = ()) -> float:
    """How well a page's values read as its headline: 1.0 when the page title contains one starting at a
    boundary (``Name - Site``, ``Site | Name``), 0.6 when contained elsewhere, 0.3 when absent. A value that
    stops inside a run of the title's words ("Pulp" of "Pulp Fiction (1994) - IMDb") is likelier the first
    part of a heading drawn across inline elements than the whole, so it gets a little less. Given the title's
    record parts (``cores``), a value that is exactly it fits 1.0, and one that starts with it and goes on
    ("Ray Allen  #20  SG") fits a little less than 1.0 but more than a piece cut from inside it."""
    best = 0.3
    for value in values:
        needle = folded(value)
        if needle in cores:
            return 1.0
        if leads_with(needle, cores):
            best = max(best, CORE_LEADS)
        position = title.find(needle)
        if position < 0 or not needle:
            continue
        before = title[:position].rstrip()
        after = title[position + len(needle):].lstrip()
        fit = 1.0 if not before or before[-1] in _TITLE_BOUNDARY else 0.6
        best = max(best, fit * (1.0 if not after or after[0] in _TITLE_BOUNDARY else MID_SEGMENT))
    return best


@dataclass
class HeadlineAnchor:
    """Where a page's headline sits: values found by type alone count for more the closer they are to it,
    because a detail page puts its record's fields around its title and distractors further away."""

    root: etree._Element
    order: dict[etree._Element, int]
    position: int | None
    heading: etree._Element | None = None

    @classmethod
    def of(cls, root: etree._Element, title: str, template: frozenset[str] = frozenset()) -> HeadlineAnchor:
        """The page's headline: the first heading the title holds, else the first ``h1`` with text. A heading
        whose text is in ``template`` (printed alike on every seed page: the site's brand in its banner) is
        the template's, not the record's, whatever the title says; one in a hidden block (a pop-up that
        repeats the name for a cart) is not shown, and the record is where the page shows it."""
        order = {element: index for index, element in enumerate(root.iter())}
        heading = None
        for element in root.iter("h1", "h2", "h3"):
            if normalize_space(element.text_content()) in template or hidden(element):
                continue
            texts = [normalize_space(element.text_content()), normalize_space(element.text or ""), leading_text(element)]
            if any(len(text) >= 3 and title_fit([text], title) >= 1.0 for text in texts):
                heading = element
                break
        if heading is None:
            heading = next((h for h in root.iter("h1") if normalize_space(h.text_content())
                            and normalize_space(h.text_content()) not in template and not hidden(h)), None)
        return cls(root, order, order[heading] if heading is not None else None, heading)

    def closeness(self, xpath: str) -> float:
        if self.position is None:
            return 1.0
        nodes = value_nodes(self.root, xpath)
        if not nodes:
            return 0.4
        distance = abs(self.order.get(nodes[0], self.position) - self.position)
        return 0.4 + 0.6 / (1 + distance / 15)


def hidden(element: etree._Element) -> bool:
    """Is ``element`` inside a block the page does not show (``display: none``, ``hidden``)?"""
    return any(hidden_markup(node) for node in (element, *element.iterancestors()))


def template_headings(seeds: Sequence[etree._Element]) -> frozenset[str]:
    """The texts of headings (``h1``–``h3``) that every seed page prints alike (with two or more seeds)."""
    if len(seeds) < 2:
        return frozenset()
    sets = [{normalize_space(h.text_content()) for h in root.iter("h1", "h2", "h3")} for root in seeds]
    return frozenset(t for t in set.intersection(*sets) if t)
