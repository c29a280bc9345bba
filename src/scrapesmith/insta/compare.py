"""Comparing records: "the ticket with the cheapest cost", "the card with the greatest number", "the N-th result".

A page lists things as *records*: siblings of one tag and class (cards, rows, results), each holding a control. A
task that asks for the record with a superlative ("cheapest", "most expensive", "shortest", "greatest", …) names a
quantity — money, a duration, a number — that each record shows once; the record whose value is the greatest or the
least is the one to act on, and its control is the target. An ordinal ("the 3rd result", "the last card") picks the
record by its place. Values are read from the records' text in the page (a card turned face down keeps its number in
the page, as the markdown view shows it); a record showing no value of the kind, or several, leaves the comparison
undecided (no candidate).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scrapesmith.dom import HtmlElement, node_text
from scrapesmith.insta.reading import ORDINAL_WORDS
from scrapesmith.insta.views import Action, ActionCandidate, Element

MOST = ("most expensive", "highest", "greatest", "largest", "biggest", "longest", "slowest", "maximum")
LEAST = ("least expensive", "cheapest", "lowest", "smallest", "shortest", "fastest", "quickest", "minimum")
_SUPERLATIVE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, MOST + LEAST), key=len, reverse=True))
                          + r")\b((?:\s+\w+){0,2})", re.IGNORECASE)
MONEY_WORDS = frozenset({"cost", "price", "expensive", "cheapest", "cheap", "fare", "priced"})
DURATION_WORDS = frozenset({"duration", "shortest", "longest", "fastest", "quickest", "slowest", "time", "trip",
                            "flight"})
_MONEY = re.compile(r"[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s?(?:USD|EUR|GBP|dollars?)\b")
_DURATION = re.compile(r"\b(?:(\d+)\s*h(?:ours?|rs?)?\s*)?(\d+)\s*m(?:in(?:utes?)?)?\b|\b(\d+)\s*h(?:ours?|rs?)?\b")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
_ORDINAL = re.compile(r"\b(?:(\d+)(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
                      r"|last))\s+(\w+)", re.IGNORECASE)
CLICKABLE_ROLES = frozenset({"button", "link", "clickable", "tab", "menuitem", "option", "treeitem", "summary"})


@dataclass(frozen=True)
class Superlative:
    """The task asks for the record whose ``kind`` value is the greatest (``most``) or least."""

    phrase: str
    most: bool
    kind: str  # money, duration, number


def read_superlative(task: str) -> Superlative | None:
    match = _SUPERLATIVE.search(task)
    if match is None:
        return None
    word = match.group(1).casefold()
    following = set(re.findall(r"\w+", (match.group(2) or "").casefold()))
    said = {*word.split(), *following}
    kind = "money" if said & MONEY_WORDS else "duration" if said & DURATION_WORDS else "number"
    return Superlative(phrase=match.group(0).strip(), most=word in MOST, kind=kind)


def value_of(text: str, kind: str) -> float | None:
    """The one value of ``kind`` the text shows (None: none, or several that differ)."""
    if kind == "money":
        found = {float((m.group(1) or m.group(2)).replace(",", "")) for m in _MONEY.finditer(text)}
    elif kind == "duration":
        found = {float(m.group(1) or 0) * 60 + float(m.group(2)) if m.group(2) else float(m.group(3)) * 60
                 for m in _DURATION.finditer(text)}
    else:
        found = {float(n) for n in _NUMBER.findall(text)}
    return found.pop() if len(found) == 1 else None


#: Tags that are records by themselves; any other tag needs a class shared with its siblings.
RECORD_TAGS = frozenset({"li", "tr", "article"})


def _signature(node: HtmlElement) -> tuple[str, str] | None:
    classes = (node.get("class") or "").split()
    if not classes and node.tag not in RECORD_TAGS:
        return None
    return str(node.tag), classes[0] if classes else ""


def record_of(node: HtmlElement, depth: int = 6) -> HtmlElement | None:
    """The nearest ancestor-or-self of ``node`` that has a sibling of its own tag and first class: a record."""
    for _ in range(depth):
        parent = node.getparent()
        if parent is None or node.tag in ("body", "html"):
            return None
        own = _signature(node)
        if own is not None and sum(1 for sibling in parent if isinstance(sibling.tag, str)
                                   and _signature(sibling) == own) > 1:
            return node
        node = parent
    return None


def records_beside(record: HtmlElement) -> list[HtmlElement]:
    parent = record.getparent()
    return [] if parent is None else [s for s in parent if isinstance(s.tag, str) and _signature(s) == _signature(record)]


def _controls(root: HtmlElement, elements: list[Element]) -> dict[int, tuple[HtmlElement, Element]]:
    nodes = {int(n.get("data-ss-id")): n for n in root.iter() if isinstance(n.tag, str)
             and (n.get("data-ss-id") or "").isdigit()}
    return {e.id: (nodes[e.id], e) for e in elements if e.id in nodes and e.role in CLICKABLE_ROLES}


def _names_records(noun: str, records: list[HtmlElement]) -> bool:
    """The task's noun after an ordinal ("the 3rd *result*") is a word of the records' class or id."""
    word = noun.casefold().removesuffix("s")
    said = {w for record in records[:1] for attribute in ("class", "id")
            for w in re.split(r"[-_\s]+", (record.get(attribute) or "").casefold()) if w}
    return word in {w.removesuffix("s") for w in said}


def _inside(node: HtmlElement, record: HtmlElement) -> bool:
    return node is record or any(a is record for a in node.iterancestors())


def compare_candidates(task: str, root: HtmlElement | None, elements: list[Element]) -> list[ActionCandidate]:
    """A click on the control of the record the task's superlative or ordinal picks; empty when it picks none."""
    if root is None:
        return []
    superlative = read_superlative(task)
    ordinal = _ORDINAL.search(task)
    if superlative is None and ordinal is None:
        return []
    controls = _controls(root, elements)
    groups: dict[str, list[HtmlElement]] = {}
    for node, _ in controls.values():
        record = record_of(node)
        if record is not None:  # keyed by the parent's snapshot id: lxml's proxies are not stable objects
            groups.setdefault(str(record.getparent().get("data-ss-id")), records_beside(record))
    out = []
    for records in groups.values():
        chosen, phrase = None, ""
        if superlative is not None:
            values = [value_of(node_text(record), superlative.kind) for record in records]
            if None in values or len(set(values)) < len(values) or len(values) < 2:
                continue
            best = (max if superlative.most else min)(values)  # type: ignore[type-var]
            chosen, phrase = records[values.index(best)], f"{superlative.phrase} ({best:g})"
        elif ordinal is not None and _names_records(ordinal.group(3), records):
            place = int(ordinal.group(1)) if ordinal.group(1) else ORDINAL_WORDS[ordinal.group(2).casefold()]
            if abs(place) > len(records) or place == 0:
                continue
            chosen, phrase = records[place - 1] if place > 0 else records[place], ordinal.group(0)
        inside = [(node, element) for node, element in controls.values() if chosen is not None
                  and _inside(node, chosen)]
        if not inside:
            continue
        _, element = inside[0]
        out.append(ActionCandidate(id="", action=Action(action_key="click", target_element_id=element.id),
                                   text=f'click [id: {element.id}] "{element.name}": the record with the {phrase}',
                                   score=4.2, grounded=[phrase], element=element))
    return out[:1]


__all__ = ["Superlative", "compare_candidates", "read_superlative", "record_of", "value_of"]
