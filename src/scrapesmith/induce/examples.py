"""Learn a field from an example value (autoscraper's ``wanted_list``): ``--example "price=$10.07"``.

The user names a value they can see on the first page. The nodes holding it are found (a whole element,
a text node, or a text that carries a label before the value), and each is generalised into the same
kinds of XPath the evidence produces: anchored on the label in front of it (``Online Price:``), on a
stable class or id, or on the element's place under an anchored ancestor. Every generalisation must
give back exactly the example on its page; among those, the one that also extracts one value of the
same kind on the other seed pages, with the strongest anchor and the shortest path, wins. No model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.candidates import FieldCandidate, anchored_path, visible_elements, xpath_literal
from scrapesmith.induce.execute import (
    XPathSyntaxError,
    normalize_space,
    post_process,
    run_actions,
    strip_separators,
)
from scrapesmith.induce.field_evidence import FieldConcept, recogniser
from scrapesmith.induce.labels import label_candidates
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec

TYPED_KINDS = ("isbn13", "isbn", "money", "date", "url", "phone")
MAX_LABEL = 40


@dataclass(frozen=True)
class Example:
    name: str
    value: str


def parse_example(text: str) -> Example:
    """``NAME=VALUE`` from the command line."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), normalize_space(value)
    if not sep or not name or not value or not name.replace("_", "").replace("-", "").isalnum():
        raise ScrapesmithError(f"bad example '{text}': use NAME=VALUE, e.g. 'price=$10.07'")
    return Example(name, value)


def kind_of(value: str) -> str | None:
    """The value type an example has (an ISBN-13, a price, a date …), if any."""
    return next((kind for kind in TYPED_KINDS if recogniser(kind)(value)), None)  # type: ignore[misc]


def _label_before(element: etree._Element) -> str | None:
    """Short text right before ``element`` that reads as its label: a previous sibling or the parent's text."""
    previous = element.getprevious()
    if previous is not None and isinstance(previous.tag, str):
        text = normalize_space(previous.text_content())
        if 0 < len(text) <= MAX_LABEL and not normalize_space(previous.tail or ""):
            return text
    parent = element.getparent()
    if parent is not None and parent.index(element) == 0:
        text = normalize_space(parent.text or "")
        if 0 < len(text) <= MAX_LABEL:
            return text
    return None


def example_candidates(root: etree._Element, example: Example) -> list[FieldCandidate]:
    """XPaths (with a regex where the value shares its text with a label) that point at the example's nodes."""
    found: list[FieldCandidate] = []
    value = example.value
    for element in visible_elements(root):
        whole = normalize_space(element.text_content())
        own = normalize_space(element.text or "")
        tail = normalize_space(element.tail or "")
        if whole == value or (own == value and len(element)):
            suffix = "" if whole == value else "/text()"
            found += [FieldCandidate(path + suffix, "class") for path in anchored_path(element, hashed=True)]
            label = _label_before(element)
            if label:
                concept = FieldConcept(example.name, (label.strip(" :").lower(),))
                found += label_candidates(root, concept)
        elif (value in own and own != value) or (whole.endswith(value) and whole != value and own
                                                 and normalize_space(whole[: len(whole) - len(value)]) == own
                                                 and next(element.iter("br"), None) is None):
            text = own if value in own else whole  # a label before the value, in its own text or across markup
            head = text[: text.index(value)] if value in own else text[: len(text) - len(value)]
            if head.strip() and len(head) <= MAX_LABEL and text.endswith(value):
                regex = re.escape(normalize_space(head)) + r"\s*(.+)"
                found.append(FieldCandidate(f"//{element.tag}[starts-with(normalize-space(), "
                                       f"{xpath_literal(normalize_space(head))})]", "label", regex))
        if element.tag == "br" and tail == value:
            found += _after_break(element)
        elif tail == value or (value in tail and tail.endswith(value)):
            label = normalize_space(element.text_content())
            if 0 < len(label) <= MAX_LABEL:
                head = strip_separators(tail[: tail.index(value)])
                regex = re.escape(head) + r"\s*(.+)" if head else None
                found.append(FieldCandidate(f"//{element.tag}[normalize-space()={xpath_literal(label)}]"
                                       "/following-sibling::text()[1]", "label", regex))
    return list({(c.xpath, c.regex): c for c in found}.values())


def _after_break(br: etree._Element) -> list[FieldCandidate]:
    """The text after a ``<br>`` (``<td>Knopf<br>2001</td>``): the parent's n-th text, under its anchored paths,
    and, when a label element sits right before the break (``<b>Year:</b><br>2001``), that label's next text."""
    parent = br.getparent()
    if parent is None:
        return []
    texts = parent.xpath("text()")
    position = next((i for i, t in enumerate(texts, 1) if t.getparent() is br and t.is_tail), None)
    found = [FieldCandidate(f"{path}/text()[{position}]", "class") for path in anchored_path(parent, hashed=True)
             ] if position else []
    label = br.getprevious()
    if label is not None and isinstance(label.tag, str) and not normalize_space(label.tail or ""):
        text = normalize_space(label.text_content())
        if 0 < len(text) <= MAX_LABEL:
            found.append(FieldCandidate(f"//{label.tag}[normalize-space()={xpath_literal(text)}]"
                                        "/following-sibling::text()[normalize-space()][1]", "label"))
    return found


def _values(root: etree._Element, candidate: FieldCandidate) -> list[str]:
    try:
        return post_process(run_actions(root, [candidate.xpath]), PostProcess(regex=candidate.regex, multiple=True))
    except XPathSyntaxError:
        return []


def generalise(example: Example, pages: Sequence[etree._Element]) -> FieldSpec:
    """The best XPath for ``example`` (given on ``pages[0]``), checked on every page (see the module docstring)."""
    kind = kind_of(example.value)
    check = recogniser(kind) if kind else None
    scored = []
    for candidate in example_candidates(pages[0], example):
        first = _values(pages[0], candidate)
        if not first or first[0] != example.value:
            continue
        others = [_values(root, candidate) for root in pages[1:]]
        typed = all(check(v[0]) for v in others if v) if check else True
        coverage = (1 + sum(bool(v) for v in others)) / len(pages)
        single = 1.0 if all(len(v) <= 1 for v in [first, *others]) else 0.7
        score = candidate.prior * coverage * single * (1.0 if typed else 0.1)
        scored.append((-round(score, 6), len(candidate.xpath), candidate.xpath, candidate))
    if not scored:
        raise ScrapesmithError(f"the example {example.name}={example.value!r} is not on the first page")
    best = min(scored)[3]
    return FieldSpec(name=example.name, instruction=f"like the example {example.value!r}", actions=[best.xpath],
                     post=PostProcess(regex=best.regex), evidence=f"example {example.value!r} via {best.evidence}")


def induce_from_examples(examples: Sequence[Example], pages: Sequence[etree._Element], site: str = "",
                         seed_names: Sequence[str] = ()) -> ScraperSpec:
    """A spec with one field per example, learnt on ``pages[0]`` and checked on the rest. No model."""
    if not pages:
        raise ScrapesmithError("learning from examples needs at least one page")
    fields = [generalise(example, pages) for example in examples]
    return ScraperSpec(site=site, method="examples", seeds=list(seed_names), fields=fields)
