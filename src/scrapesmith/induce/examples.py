"""Learn a field from an example value (autoscraper's ``wanted_list``): ``--example "price=$10.07"``.

The user names a value they can see on the first page. The nodes holding it are found (a whole element,
a text node, or a text that carries a label before the value), and each is generalised into the same
kinds of XPath the evidence produces: anchored on the label in front of it (``Online Price:``), on a
stable class or id, or on the element's place under an anchored ancestor. Every generalisation must
give back exactly the example on its page; among those, the one that also extracts one value of the
same kind on the other seed pages, with the strongest anchor and the shortest path, wins. No model.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.candidates import (
    FieldCandidate,
    anchored_path,
    line_paths,
    visible_elements,
    xpath_literal,
)
from scrapesmith.induce.execute import (
    XPathSyntaxError,
    normalize_space,
    post_process,
    printed_text,
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
    name, value = name.strip(), normalize_space(html.unescape(value))  # "AT&amp;T" as the page shows it
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
    squeezed = "".join(value.split())
    for element in visible_elements(root):
        whole = normalize_space(element.text_content())
        if whole != value and "".join(whole.split()) == squeezed:  # the same characters, lines apart on the page
            whole = normalize_space(printed_text(element))
        own = normalize_space(element.text or "")
        tail = normalize_space(element.tail or "")
        if whole == value or (own == value and len(element)):
            suffix = "" if whole == value else "/text()"
            found += [FieldCandidate(path + suffix, "class") for path in anchored_path(element, hashed=True)]
            label = _label_before(element)
            if label:
                concept = FieldConcept(example.name, (label.strip(" :").lower(),))
                found += label_candidates(root, concept)
        elif value in own and own != value:
            head = own[: own.index(value)]
            if head.strip() and len(head) <= MAX_LABEL and own.endswith(value):
                regex = re.escape(normalize_space(head)) + r"\s*(.+)"
                found.append(FieldCandidate(f"//{element.tag}[starts-with(normalize-space(), "
                                       f"{xpath_literal(normalize_space(head))})]", "label", regex))
        if tail == value or (value in tail and tail.endswith(value)):
            label = normalize_space(element.text_content())
            if 0 < len(label) <= MAX_LABEL:
                head = strip_separators(tail[: tail.index(value)])
                regex = re.escape(head) + r"\s*(.+)" if head else None
                found.append(FieldCandidate(f"//{element.tag}[normalize-space()={xpath_literal(label)}]"
                                       "/following-sibling::text()[1]", "label", regex))
    found += text_node_candidates(root, value)
    return list({(c.xpath, c.regex): c for c in found}.values())


def text_node_candidates(root: etree._Element, value: str) -> list[FieldCandidate]:
    """Paths to a text node that holds the value on its own line — after a ``<br>``, or between inline
    elements — which no element's text or tail alone gives a path to (:func:`candidates.line_paths`); a
    label printed in the same text node ("Phone: (325) …") is cut by a regex."""
    found: list[FieldCandidate] = []
    for text in root.xpath("//text()[normalize-space()]"):
        plain = normalize_space(str(text))
        if plain != value and not plain.endswith(value):
            continue
        head = plain[: len(plain) - len(value)]
        if head and (len(head) > MAX_LABEL or not head[-1].isspace() and head[-1] not in ":"):
            continue
        regex = re.escape(strip_separators(head)) + r"[\s:|–—-]*(.+)" if strip_separators(head) else None
        found += [FieldCandidate(path, evidence, regex) for path, evidence in line_paths(text, MAX_LABEL)]
    return found


def _values(root: etree._Element, candidate: FieldCandidate) -> list[str]:
    try:
        return post_process(run_actions(root, [candidate.xpath]), PostProcess(regex=candidate.regex, multiple=True))
    except XPathSyntaxError:
        return []


_LAST_POSITION = re.compile(r"\[\d+\]$")


def generalise(example: Example, pages: Sequence[etree._Element], expected: Sequence[Sequence[str]] = (),
               together: Sequence[str] = ()) -> FieldSpec:
    """The best XPath for ``example`` (given on ``pages[0]``), checked on every page (see the module docstring).
    ``expected`` are the values the user gave for the next pages (autoscraper's wanted list over several
    pages): a path that gives one of them on each such page beats one that does not. ``together`` are all the
    values the user gave for the first page when there are several (three phone numbers): a path that gives
    exactly those — the example's path without its last position, when that is what they share — makes the
    field a list."""
    kind = kind_of(example.value)
    check = recogniser(kind) if kind else None
    wanted_all = sorted(set(together)) if len(set(together)) > 1 else None
    scored = []
    pool = example_candidates(pages[0], example)
    if wanted_all:
        pool += [replace(c, xpath=_LAST_POSITION.sub("", c.xpath)) for c in pool if _LAST_POSITION.search(c.xpath)]
    for candidate in pool:
        first = _values(pages[0], candidate)
        if not first or first[0] != example.value and not (wanted_all and example.value in first):
            continue
        listed = wanted_all is not None and sorted(set(first)) == wanted_all
        others = [_values(root, candidate) for root in pages[1:]]
        typed = all(check(v[0]) for v in others if v) if check else True
        coverage = (1 + sum(bool(v) for v in others)) / len(pages)
        single = 1.0 if listed or all(len(v) <= 1 for v in [first, *others]) else 0.7
        score = candidate.prior * coverage * single * (1.0 if typed else 0.1) * (1.5 if listed else 1.0)
        if first[0] != example.value and not listed:
            continue
        for values, wanted in zip(others, expected, strict=False):
            got = set(map(normalize_space, values)) if listed else {normalize_space(values[0])} if values else set()
            if wanted and not (got & set(wanted) if listed else got <= set(wanted) and got):
                score *= 0.2  # the user said what this page holds, and the path gives something else
        scored.append((-round(score, 6), len(candidate.xpath), candidate.xpath, len(scored), listed, candidate))
    if not scored:
        raise ScrapesmithError(f"the example {example.name}={example.value!r} is not on the first page")
    *_, listed, best = min(scored)
    return FieldSpec(name=example.name, instruction=f"like the example {example.value!r}", actions=[best.xpath],
                     post=PostProcess(regex=best.regex, multiple=listed),
                     evidence=f"example {example.value!r} via {best.evidence}")


def induce_from_examples(examples: Sequence[Example], pages: Sequence[etree._Element], site: str = "",
                         seed_names: Sequence[str] = ()) -> ScraperSpec:
    """A spec with one field per example, learnt on ``pages[0]`` and checked on the rest. No model."""
    if not pages:
        raise ScrapesmithError("learning from examples needs at least one page")
    fields = [generalise(example, pages) for example in examples]
    return ScraperSpec(site=site, method="examples", seeds=list(seed_names), fields=fields)
