"""Value cleaning that becomes part of the spec, so replay does it with no model.

A value is what the page prints as one text: a text node is never cut by guessing which part of it the field
means ("Knopf; First Edition (May 25, 2010)" stays whole for a publisher, "6 ft 5 in (1.96 m)" for a height,
"Seafood, Californian" for a cuisine — measured: every such cut on the SWDE development sites turned a correct
field into a wrong one). What is cut is what is not the value by construction:

* the value's own label: ``By: Stephen King``, ``ISBN-13: 9781…`` — the cleaned variant keeps what follows
  the label (a regex in the spec's ``post``);
* a composite whose parts are separated by a spaced separator: ``Adams Media / 2007 / Paperback`` — the
  variants keep one part each (by position), and the ranking picks the part that fits the field;
* words every seed page prints around the value (template, :func:`template_affix`), and page controls among
  a list's items (:func:`without_controls`).

A value holding parts of other kinds — fields side by side with a spaced separator, or an element whose text
runs over several text nodes (``Pulp Fiction <span>(1994)</span>``) — weighs less than a part
(:func:`composite_whole`).

The variants are ordinary candidates: they are scored on every seed like the others, so a regex is kept
only when it gives the field's kind of value on all seeds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, xpath_literal
from scrapesmith.induce.execute import folded, normalize_space
from scrapesmith.induce.field_evidence import (
    COMPOSITE_SEPARATORS,
    MAX_PARTS,
    FieldConcept,
    composite_split,
    part_regex,
)
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.kinds import recogniser
from scrapesmith.induce.labels import is_ui_text, label_of
from scrapesmith.induce.titles import common_words
from scrapesmith.induce.value_facts import own_texts

OTHER_KINDS = ("isbn", "money", "date", "url", "phone")
_TRAILING_EXTRA = re.compile(r"^(.*?\S)\s*\(([^()]+)\)\s*$")
AFFIX_CHILDREN = 3
FUNCTION_WORDS = frozenset({"the", "a", "an", "of", "and", "or", "in", "on", "at", "to", "for", "by", "with", "from"})
_NUMBER = re.compile(r"^\s*[\d.,]+\s*$")
OTHER_TYPE = 0.3
LIST_SEPARATOR = re.compile(r"\s*(?:;|,|&|\band\b)\s+")
COMPOSITE = 0.5


def _flat(values: Sequence[Sequence[str]]) -> list[str]:
    return [v for page in values for v in page]


def _label_prefix(value: str, labels: Sequence[str]) -> str | None:
    lowered = value.lower()
    for label in sorted(labels, key=len, reverse=True):
        if label and lowered.startswith(label) and lowered[len(label):][:1] in (" ", ":", "："):
            return label
    return None


def prefix_regex(values: Sequence[str], labels: Sequence[str]) -> str | None:
    """A regex keeping what follows the label when every value starts with one of ``labels``."""
    found = [_label_prefix(v, labels) for v in values]
    if not values or None in found:
        return None
    alternatives = "|".join(re.escape(label) for label in sorted(set(found), key=len, reverse=True))  # type: ignore[arg-type]
    return rf"(?i)^\s*(?:{alternatives})\s*[:：]?\s*(.+)$"


def composite_parts(values: Sequence[Sequence[str]]) -> tuple[str, int] | None:
    """(separator, parts) when each page's value splits into the same number of parts on one separator."""
    firsts = [page[0] for page in values if page]
    if not firsts or len(firsts) < len(values) or any(recogniser("url")(v) for v in firsts):  # type: ignore[misc]
        return None
    for separator in COMPOSITE_SEPARATORS:
        counts = {len([p for p in v.split(separator)]) for v in firsts}
        if len(counts) == 1 and 2 <= (count := counts.pop()) <= MAX_PARTS and all(
                all(p.strip() for p in v.split(separator)) for v in firsts):
            return separator, count
    return None


def cleaning_variants(candidate: FieldCandidate, values: Sequence[Sequence[str]], concept: FieldConcept,
                      texts: SeedTexts | None = None) -> list[FieldCandidate]:
    """The cleaned versions of ``candidate`` its values call for (none when they are clean already)."""
    flat = _flat(values)
    if candidate.split is not None:
        return []
    people = concept.multiple and concept.kind == "person"
    if candidate.regex is not None:  # cleaned already; only a list of people in one text is left to split
        listed = people and any(LIST_SEPARATOR.search(v) for v in flat)
        return [replace(candidate, split=LIST_SEPARATOR.pattern)] if listed else []
    variants = []
    controls = without_controls(candidate, flat)
    if controls is not None:
        variants.append(controls)
    regex = prefix_regex(flat, concept.labels)
    if regex:
        variants.append(replace(candidate, regex=regex))
    composite = composite_parts(values) if not concept.multiple else None
    if composite:
        separator, count = composite
        variants += [replace(candidate, regex=part_regex(separator, i)) for i in range(count)]
    affix = template_affix(values, concept, texts) if texts is not None else None
    if affix:
        variants.append(replace(candidate, regex=affix))
    if people and any(LIST_SEPARATOR.search(v) for v in flat):
        # "Glenn Beck and Kevin Balfe": people listed in one text are several people; the split variant is
        # scored on its parts (a part that is no person's name loses). Other lists ("Seafood, Californian")
        # stay the phrase the page prints
        variants += [replace(candidate, regex=r, split=LIST_SEPARATOR.pattern) for r in (None, regex) if r is None or r]
    return variants


_ELEMENT_STEP = re.compile(r"/[\w-]+(?:\[[^\]]*\])*$")


def without_controls(candidate: FieldCandidate, flat: Sequence[str]) -> FieldCandidate | None:
    """The path without the page controls among its values ("Lisa Kleypas", "See All Contributors"): a link
    that opens more of the list is not one of its items. The controls' own texts, as the seeds print them,
    are left out by a predicate on the path's last element step."""
    controls = sorted({v for v in flat if is_ui_text(v)})
    if not controls or len(controls) == len(set(flat)) or "|" in candidate.xpath:
        return None
    if not _ELEMENT_STEP.search(candidate.xpath) or candidate.xpath.endswith(("text()", "]/text()")):
        return None
    test = " or ".join(f"normalize-space()={xpath_literal(text)}" for text in controls[:3])
    return replace(candidate, xpath=f"{candidate.xpath}[not({test})]")


class SeedTexts:
    """The whole texts of the small elements of each seed page, computed on first use: where a value
    minus a constant affix can be looked up as a text the page also prints on its own."""

    def __init__(self, seeds: Sequence[etree._Element]) -> None:
        self.seeds = seeds
        self._texts: list[set[str]] | None = None

    def on_page(self, index: int, text: str) -> bool:
        if self._texts is None:
            self._texts = [_element_texts(root) for root in self.seeds]
        return index < len(self._texts) and folded(text) in self._texts[index]


def _element_texts(root: etree._Element) -> set[str]:
    texts = set()
    for element in root.iter():
        if isinstance(element.tag, str) and len(element) <= AFFIX_CHILDREN:
            whole = normalize_space(element.text_content()) if len(element) else normalize_space(element.text or "")
            if whole and len(whole) <= 200:
                texts.add(folded(whole))
        if isinstance(element.tag, str) and len(element) and element.text and element.text.strip():
            texts.add(folded(normalize_space(element.text)))  # "2010 Audi A6 Avant" before its <span>
        if element.tail and element.tail.strip():
            texts.add(folded(normalize_space(element.tail)))
    return texts


def template_affix(values: Sequence[Sequence[str]], concept: FieldConcept, texts: SeedTexts) -> str | None:
    """A regex dropping the words every seed's value shares at its start or end ("Glacier BrewHouse *Review*"),
    when they are template and not data: the values differ, the shared words are no function words and no
    words of the field's own description ("University" in a university's name), and on every seed the rest
    is also printed on its own somewhere on the page (the breadcrumb's "Glacier BrewHouse", the heading's own
    text before its ``<span>``). Where seeds share words at both ends ("*2010 Audi* A6 Avant *Specs and
    Features*") and the rest without both is printed nowhere, one end alone is tried: seeds of one make share
    its name by chance, the template's words are the end whose rest the page prints. The shared words are
    cut where a page has them, never required: three seeds alike by chance (one car make) do not decide what
    every other page reads."""
    firsts = [page[0] for page in values if page]
    if len(firsts) < 2 or len(firsts) < len(values) or len(set(firsts)) < 2:
        return None
    split = [v.split() for v in firsts]
    prefix = common_words(split)
    suffix = common_words([list(reversed(words)) for words in split])[::-1]
    if any(len(words) <= len(prefix) + len(suffix) for words in split):
        return None
    ends = [(prefix, suffix)] + ([(prefix, []), ([], suffix)] if prefix and suffix else [])
    for head_words, tail_words in sorted(ends, key=lambda e: -len(e[0]) - len(e[1])):
        shared = [w.lower().strip(".,:;!?") for w in head_words + tail_words]
        if not shared or all(w in FUNCTION_WORDS for w in shared) or set(shared) & set(concept.asked):
            continue
        rests = [" ".join(words[len(head_words):len(words) - len(tail_words)]) for words in split]
        if all(texts.on_page(i, rest) for i, rest in enumerate(rests)):
            return _affix_regex(head_words, tail_words)
    return None


def _affix_regex(prefix: Sequence[str], suffix: Sequence[str]) -> str:
    # the shared words are optional: seeds that happen to share words of their data ("Hyundai Accent" on three
    # seeds of one make) must not leave the field empty on every page that does not
    head = rf"(?:{re.escape(' '.join(prefix))}\s*)?" if prefix else ""
    tail = rf"(?:\s*{re.escape(' '.join(suffix))})?" if suffix else ""
    return rf"^\s*{head}(.+?){tail}\s*$"


def role_variant(candidate: FieldCandidate, seeds: Sequence[etree._Element], concept: FieldConcept) -> FieldCandidate | None:
    """``<a>Naomi Novik</a> (Author), <a>Dominic Harman</a> (Illustrator)``: when every value of a list is
    followed by its role in parentheses and some role is the field's own word, keep the values with that role."""
    if not concept.multiple or candidate.regex or candidate.xpath.endswith(")") or "/text()" in candidate.xpath:
        return None
    roles: list[str] = []
    for root in seeds:
        nodes = value_nodes(root, candidate.xpath)
        tails = [normalize_space(n.tail or "") for n in nodes]
        if not nodes or not all(t.startswith("(") and ")" in t for t in tails):
            return None
        roles += [t[1:t.index(")")].strip() for t in tails]
    named = [r for r in roles if label_of(r, concept.labels)]
    if not named:
        return None
    role = xpath_literal("(" + named[0])
    return FieldCandidate(f"{candidate.xpath}[starts-with(normalize-space(following-sibling::text()[1]), {role})]",
                     candidate.evidence)



def is_other_type(value: str) -> bool:
    """Does ``value`` read as a well-known kind (ISBN, price, date, URL, phone, bare number) as a whole? A text
    of parts, one of them of such a kind ("Vintage (June 23, 2009)"), holds another field; it is not one."""
    if _NUMBER.match(value):
        return True
    return len(value_parts(value)) == 1 and any(recogniser(kind)(value) for kind in OTHER_KINDS)  # type: ignore[misc]


def other_type(values: Sequence[str]) -> float:
    """For a field with no type of its own (a publisher): values that are all dates or numbers are not it."""
    return OTHER_TYPE if values and all(is_other_type(v) for v in values) else 1.0


def value_parts(value: str) -> list[str]:
    """The parts of a composite value: split on a spaced separator (" / ", " | ", "; "), else a trailing
    parenthesised extra ("Anchor (May 19, 2009)", "Pulp Fiction (1994)"); one part when it is neither."""
    split = composite_split(value)
    if split:
        return split[1]
    match = _TRAILING_EXTRA.match(value)
    return [match.group(1), match.group(2)] if match else [value]


def holds_other_fields(value: str, concept: FieldConcept) -> bool:
    """Is ``value`` made of parts of which some are the field's kind and some not (or, for a field with no
    hard kind, some a date, number or price and some not)?"""
    return _mixed(value_parts(value), concept)


def _mixed(parts: Sequence[str], concept: FieldConcept) -> bool:
    if len(parts) < 2:
        return False
    marks = [bool(concept.matches_type(p)) for p in parts] if concept.hard_type else [is_other_type(p) for p in parts]
    return any(marks) and not all(marks)


def composite_whole(values: Sequence[str], concept: FieldConcept, seeds: Sequence[etree._Element] = (),
                    xpath: str = "") -> float:
    """A value that holds several fields weighs less than a part: fields laid side by side with a spaced
    separator ("Adams Media / 2007 / Paperback"), or an element whose text runs over several text nodes, parts
    of other kinds among them ("Pulp Fiction <span>(1994)</span>": its first text node is the value). One text
    node the page prints as one phrase ("Anchor (May 19, 2009)", "6 ft 5 in (1.96 m)") is the value as printed
    and is not weighed down."""
    if concept.multiple:
        return 1.0
    if any((split := composite_split(v)) and _mixed(split[1], concept) for v in values):
        return COMPOSITE
    if any(holds_other_fields(v, concept) for v in values) and any(several_texts(root, xpath) for root in seeds):
        return COMPOSITE
    return 1.0


def several_texts(root: etree._Element, xpath: str) -> bool:
    """Does ``xpath`` point at an element that prints more than one text (:func:`value_facts.own_texts`)?"""
    try:
        found = root.xpath(xpath)
    except (etree.XPathError, ValueError):
        return False
    return any(isinstance(item, etree._Element) and len(own_texts(item)) > 1
               for item in (found if isinstance(found, list) else []))
