"""What the seed pages show about the chosen value's own node: facts a field's confidence weighs.

The ranker's candidates are judged by the strings their paths read; some doubts are about *how* the page
holds that string, and only the page can say:

* **joined texts** — the path reads an element whose text is several texts the page prints apart (two
  address lines split by a ``<br>``, a heading and the subtitle in its ``<span>``, a name and the link after
  it): the value glues what the page keeps apart, so which of them is the field's is unsure;
* **several matches** — a field asked for once, and its path matches several elements on a seed page (the
  first is taken): which one is the record's is the page's order, not evidence;
* **several of its kind** — one value holds two or more values of the field's kind ("$52,400 - $58,250" for a
  price): a range or a list where one value was asked for.

Each is counted on every seed page and kept as a number (:func:`value_facts`), with the texts that show it
(:func:`joined_sample`) for the reason a user reads, both from one selection a seed page (:func:`selections`).
Nothing here names a site, a vertical or an attribute; whether a fact makes a value doubtful is learned across
sites (``bench swde-confidence``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate
from scrapesmith.induce.execute import XPathSyntaxError, compile_xpath, normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.joined import text_part
from scrapesmith.induce.kinds import DATE, MONEY, PHONE

# kinds whose values a pattern can find inside a longer text: two finds in one value are two values
KIND_PATTERNS = {"money": MONEY, "phone": PHONE, "date": DATE}
FACT_NAMES = ("joined texts", "several matches", "several of its kind")


def _selected(root: etree._Element, xpath: str) -> list[object]:
    try:
        result = compile_xpath(text_part(xpath) or xpath)(root)
    except (etree.XPathError, XPathSyntaxError):
        return []
    return result if isinstance(result, list) else []


def own_texts(element: etree._Element) -> list[str]:
    """The separate texts the page prints inside ``element`` (each text node, spaces folded), in order: not
    a script's or a style's, nor a comment's; the text after one of them is printed."""
    texts = []
    for node in element.iter():
        printed = isinstance(node.tag, str) and node.tag not in ("script", "style")
        for text in (node.text if printed else None, node.tail if node is not element else None):
            plain = normalize_space(text or "")
            if plain:
                texts.append(plain)
    return texts


def selections(seeds: Sequence[etree._Element], xpath: str) -> list[list[object]]:
    """What ``xpath`` selects on each seed page (the element a joined text path starts in), once a page."""
    return [_selected(root, xpath) for root in seeds]


def joined_sample(selected: Sequence[Sequence[object]]) -> list[str]:
    """The texts the path's first element joins on the first seed page where it joins several (``selected``:
    :func:`selections`)."""
    for found in selected:
        first = next(iter(found), None)
        if isinstance(first, etree._Element):
            texts = own_texts(first)
            if len(texts) > 1:
                return texts
    return []


def value_facts(selected: Sequence[Sequence[object]], values: Sequence[Sequence[str]], concept: FieldConcept,
                several: bool) -> dict[str, float]:
    """The facts of :data:`FACT_NAMES` for a candidate whose path selects ``selected`` on the seed pages
    (:func:`selections`); ``values``: what it gives on each seed page, the first of a single field being the
    field's."""
    joined, matches = [], []
    for found in selected:
        if not found:
            continue
        first = found[0]
        joined.append(len(own_texts(first)) - 1 if isinstance(first, etree._Element) else 0)
        matches.append(len(found))
    kinded = [holds_several(page[0], concept.kind) for page in values if page] if not several else []
    return {
        "joined texts": math.log1p(max(0, sum(joined)) / len(joined)) if joined else 0.0,
        "several matches": math.log(sum(matches) / len(matches)) if matches and not several else 0.0,
        "several of its kind": sum(kinded) / len(kinded) if kinded and concept.kind in KIND_PATTERNS else 0.0,
    }


def holds_several(value: str, kind: str | None) -> bool:
    """Does one value hold two or more values of ``kind`` ("$52,400 - $58,250" for a price)?"""
    pattern = KIND_PATTERNS.get(kind or "")
    return pattern is not None and len(pattern.findall(value)) > 1


@dataclass
class ValueFacts:
    """What the seed pages show about a chosen candidate's node (:func:`value_facts`) and, when its element
    joins several texts, those texts on the first seed page that shows it. Empty: none known (every fact 0, no
    doubt from them)."""

    numbers: dict[str, float] = field(default_factory=dict)
    joined: list[str] = field(default_factory=list)


def facts_for(candidate: FieldCandidate, values: Sequence[Sequence[str]], concept: FieldConcept,
              seeds: Sequence[etree._Element]) -> ValueFacts:
    """The facts of a candidate's node (``values``: what it gives on each seed page), its path selected once
    a seed page for both; a scored candidate keeps them as its ``facts``."""
    several = concept.multiple or candidate.several
    selected = selections(seeds, candidate.xpath)
    return ValueFacts(value_facts(selected, values, concept, several), joined_sample(selected))
