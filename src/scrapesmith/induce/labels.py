"""Labels: the text a page prints in front of a value ("Publisher:", "Directors:", "Motion Picture Rating (MPAA)").

A label names the field in the page's own words. It may be the field's words exactly, in the plural when
the record has several values ("Director:" on one page, "Directors:" on the next), with a qualifier in
front ("Online Price", "Paperback ISBN"), or a longer phrase holding every word of the field's name
("Motion Picture Rating (MPAA)" for an ``mpaa_rating``). The value sits after it: in the label's tail
text, its next sibling (every next sibling of one tag for a field with several values), or the next cell.
A label is never a link (a linked "Publisher" is a filter or navigation entry, not a record's label).
"""

from __future__ import annotations

import re
from dataclasses import replace

from lxml import etree

from scrapesmith.induce.candidates import (
    FieldCandidate,
    icon_label,
    outer_box,
    value_before_label,
    visible_elements,
    xpath_literal,
)
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.kinds import label_unit

LABEL_STRIP = " \t\r\n:：-–—|*•»>"
MAX_LABEL_CHARS = 40
QUALIFIER_WORDS = 2
MAX_TEXT_LABEL_REPEATS = 2
PHRASE_WORDS = 6
# link texts that are page furniture, not values: "See more", "and 2 more credits", "View all"
_TRAILING_NOTE = re.compile(r"\s+\([^()]{1,15}\)$")
UI_TEXT = r"(?i)^(?!(?:and\s+\d+\s+)?more\b|see\s+(?:all|more)\b|view\s+(?:all|more)\b|show\s+(?:all|more)\b)(.+)$"


def is_ui_text(value: str) -> bool:
    """Is ``value`` the text of a page control ("(more)", "See all certifications", "and 1 more credit")?"""
    return re.match(UI_TEXT, value.strip(" ()[]»«›‹")) is None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _same_words(a: list[str], b: list[str]) -> bool:
    return len(a) == len(b) and all(_singular(x) == _singular(y) for x, y in zip(a, b, strict=True))


def label_of(text: str, labels: tuple[str, ...]) -> str | None:
    """The label ``text`` spells (case and a plural aside, trailing colon allowed), if any."""
    plain = normalize_space(text).strip(LABEL_STRIP).lower()
    if not plain or len(plain) > MAX_LABEL_CHARS:
        return None
    if plain in labels:
        return plain
    for form in dict.fromkeys([plain, _TRAILING_NOTE.sub("", plain)]):  # "Height (cm)": a unit or a note
        words = _words(form)
        found = next((label for label in labels if _same_words(words, _words(label))), None)
        if found:
            return found
    return None


def qualified_label_of(text: str, concept: FieldConcept) -> str | None:
    """A label with a qualifier in front ("Online Price", "Paperback ISBN"), or a short phrase that holds
    every word of a several-word field name ("Motion Picture Rating (MPAA)" for ``mpaa_rating``).

    Weaker evidence than an exact label, and the qualifier may name a distractor (a club price), which the
    concept's distractors then catch; one-word labels shorter than four letters ("by") are never qualified
    ("Sold by" is not an author).
    """
    plain = normalize_space(text).strip(LABEL_STRIP).lower()
    words = _words(plain)
    if not plain or len(plain) > MAX_LABEL_CHARS:
        return None
    for label in concept.labels:
        size = len(_words(label))
        if len(label) >= 4 and 0 < len(words) - size <= QUALIFIER_WORDS and _same_words(words[-size:], _words(label)):
            return label
    named = [w for w in concept.words if len(w) > 2]
    if len(named) >= 2 and len(words) <= PHRASE_WORDS and all(
            any(_singular(w) == _singular(x) for x in words) for w in named):
        return " ".join(named)
    return None


def label_evidence(text: str, concept: FieldConcept) -> str | None:
    """``label`` for an exact label, ``qualified`` for a qualified one, None when ``text`` is no label."""
    if label_of(text, concept.labels) is not None:
        return "label"
    return "qualified" if qualified_label_of(text, concept) is not None else None


def is_link(element: etree._Element) -> bool:
    return element.tag == "a" or any(a.tag == "a" for a in element.iterancestors())


def _predicate(whole: str, concept: FieldConcept) -> str:
    """``[normalize-space()='Director:']``, also accepting the plural (or singular) for a field with several
    values, whose label follows the count ("Director:" on one page, "Directors:" on the next)."""
    forms = [whole]
    if concept.multiple:
        core = whole.rstrip(LABEL_STRIP)
        if core and core[-1].isalpha():
            other = core[:-1] if core.endswith("s") and not core.endswith("ss") else core + "s"
            forms.append(other + whole[len(core):])
    return "[" + " or ".join(f"normalize-space()={xpath_literal(f)}" for f in forms) + "]"


def _sibling_candidates(anchor: str, sibling: etree._Element, evidence: str,
                        concept: FieldConcept, axis: str = "following") -> list[FieldCandidate]:
    found = [FieldCandidate(f"{anchor}/{axis}-sibling::{sibling.tag}[1]", evidence)]
    if len(sibling) and all(c.tag == sibling[0].tag for c in sibling):
        found.append(FieldCandidate(f"{anchor}/{axis}-sibling::{sibling.tag}[1]/{sibling[0].tag}", evidence))
        if len(sibling) > 1 and not concept.multiple:  # "Type of School" over a list: one value, its first item
            found.append(FieldCandidate(f"{anchor}/{axis}-sibling::{sibling.tag}[1]/{sibling[0].tag}[1]", evidence))
    if concept.multiple and axis == "following":  # "Genres: <a>Crime</a> | <a>Drama</a>": every link after
        found.append(FieldCandidate(f"{anchor}/following-sibling::{sibling.tag}", evidence, UI_TEXT))
    elif concept.multiple:  # printed before the label: those whose next label of its tag is this one
        tag = anchor[2:].split("[", 1)[0]
        condition = anchor[2 + len(tag):]
        found.append(FieldCandidate(
            f"{anchor}/preceding-sibling::{sibling.tag}[following-sibling::{tag}[1]{condition}]", evidence, UI_TEXT))
    return found


def after_label(element: etree._Element, whole: str, evidence: str, concept: FieldConcept,
                 condition: str | None = None) -> list[FieldCandidate]:
    """The ways from the label ``element`` to its value: its tail text, its next sibling(s), the next cell.
    ``condition`` finds a label the page draws as an icon (see ``icon_label``) instead of by its text."""
    anchor = f"//{element.tag}{condition or _predicate(whole, concept)}"
    here: list[FieldCandidate] = []
    if normalize_space(element.tail or "").strip(LABEL_STRIP):
        here.append(FieldCandidate(f"{anchor}/following-sibling::text()[1]", evidence))
    before = value_before_label(element)
    sibling = element.getprevious() if before else element.getnext()
    if sibling is not None and isinstance(sibling.tag, str):
        here.extend(_sibling_candidates(anchor, sibling, evidence, concept, "preceding" if before else "following"))
    parent = element.getparent()
    if condition is None and parent is not None and normalize_space(parent.text_content()) == whole:
        after = parent.getnext()
        if after is not None and isinstance(after.tag, str):
            here.append(FieldCandidate(
                f"//{parent.tag}[normalize-space()={xpath_literal(whole)}]/following-sibling::{after.tag}[1]",
                evidence))
    return here


def label_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """Values next to a label: the label's tail text, its next sibling(s), or the next cell after it."""
    found: list[FieldCandidate] = []
    for element in visible_elements(root):
        own = normalize_space(element.text or "")
        if not own and not len(element) and not is_link(element):
            found.extend(_icon_candidates(element, concept))
        if not own or len(element) > 2 or is_link(element):
            continue
        whole = normalize_space(element.text_content())
        if len(whole) > MAX_LABEL_CHARS + 5:
            continue
        evidence = label_evidence(whole, concept)
        if evidence is None:
            continue
        here = [c for box in dict.fromkeys((element, outer_box(element)))
                for c in after_label(box, whole, evidence, concept)]
        unit = label_unit(whole)  # "Height (cm)": the bare numbers after it are centimetres
        found.extend(replace(c, unit=unit) for c in here) if unit else found.extend(here)
    found.extend(_inline_label_candidates(root, concept))
    return found


def _icon_candidates(element: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """Values next to a label drawn as an icon (``<i title="Phone"></i> 555-0100``), found from the icon or
    from the box around it by the attribute that names it."""
    found: list[FieldCandidate] = []
    for box in dict.fromkeys((element, outer_box(element))):
        shown = icon_label(box)
        evidence = label_evidence(shown[0], concept) if shown else None
        if shown and evidence:
            found.extend(after_label(box, shown[0], evidence, concept, shown[1]))
    return found


def _inline_label_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """``<li>Publisher: Foo</li>``: the label and the value share one text node; a regex splits them."""
    found = []
    for element in visible_elements(root):
        text = normalize_space(element.text or "")
        if len(element) or ":" not in text or len(text) > concept.max_length + 40:
            continue
        head, _, tail = text.partition(":")
        evidence = label_evidence(head, concept)
        if evidence is None or not tail.strip() or is_link(element):
            continue
        prefix = normalize_space(head) + ":"
        regex = re.escape(prefix) + r"\s*(.+)"
        found.append(FieldCandidate(f"//{element.tag}[starts-with(normalize-space(), {xpath_literal(prefix)})]",
                               evidence, regex))
    return found


def text_label_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """A label that is bare text before an element: ``Our price: <span>$9.99</span>``. A record prints its
    label once; bare text printed before an element more than ``MAX_TEXT_LABEL_REPEATS`` times on one page
    ("by" before each related item's author) heads a list of other records, not this one's field."""
    found: list[FieldCandidate] = []
    counts: dict[str, int] = {}
    for element in visible_elements(root):
        pairs = [(element.text, element[0] if len(element) else None), (element.tail, element.getnext())]
        for text, following in pairs:
            if text and following is not None and isinstance(following.tag, str):
                label = normalize_space(text)
                if label_of(label, concept.labels) is not None:
                    counts[label] = counts.get(label, 0) + 1
                    if counts[label] > 1:
                        continue
                    anchor = f"//text()[normalize-space()={xpath_literal(label)}]/following-sibling::{following.tag}"
                    found.append(FieldCandidate(f"{anchor}[1]", "label"))
                    if concept.multiple:
                        found.append(FieldCandidate(anchor, "label"))
    repeated = {f"//text()[normalize-space()={xpath_literal(label)}]/" for label, n in counts.items()
                if n > MAX_TEXT_LABEL_REPEATS}
    return [c for c in found if not any(c.xpath.startswith(prefix) for prefix in repeated)]
