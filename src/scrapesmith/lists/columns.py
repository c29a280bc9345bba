"""Map output columns to parts of a list item by name and value type (the no-model recorder).

A column name is split into words. The strongest evidence is markup that says what a part is (a class,
``itemprop`` or ``datetime`` naming one of the words: ``job-title``, ``post-author``); then the value
type the name implies (URL -> the item's main link, title -> its heading or main link text, date -> a
``<time>`` or a date-shaped text, price -> a currency amount, email -> an address). Columns nothing
supports stay unmapped, so the caller can look on the detail page or ask a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from scrapesmith.dom import element_text, is_element
from scrapesmith.lists.dsl import Action, SaveLink, SaveText
from scrapesmith.lists.selectors import field_selectors

URL_WORDS = frozenset({"url", "link", "href", "website", "permalink"})
DATE_WORDS = frozenset({"date", "posted", "published", "updated", "time", "when"})
PRICE_WORDS = frozenset({"price", "cost", "salary", "fee", "amount"})
NAME_WORDS = frozenset({"name", "author", "person", "customer", "reviewer", "by"})
PERSON_WORDS = NAME_WORDS - {"name"}
TITLE_WORDS = frozenset({"title", "headline", "position", "subject", "heading"})
GENERIC_WORDS = frozenset({"the", "of", "a", "an", "item", "list", "entry", "record", "text"})
DATE_TEXT = re.compile(
    r"\b(\d{4}-\d{2}-\d{2}|\d{1,2} [A-Z][a-z]{2,8}\.? \d{4}|[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}|\d{1,2}/\d{1,2}/\d{2,4})\b"
)
PRICE_TEXT = re.compile(r"[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(USD|EUR|GBP)")
EMAIL_TEXT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


@dataclass(frozen=True)
class ColumnMatch:
    column: str
    element: etree._Element
    link: bool
    evidence: str


def column_words(column: str) -> set[str]:
    return {word for word in re.split(r"[^a-z0-9]+", column.lower()) if word and word not in GENERIC_WORDS}


KIND_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("url", URL_WORDS), ("date", DATE_WORDS), ("price", PRICE_WORDS), ("email", frozenset({"email", "mail"})),
    ("title", TITLE_WORDS),
)
MEANS_KIND = 0.6
"""A column whose name means one of a kind's words this much (cosine of the offline sentence embeddings:
"Homepage" and "link" 0.64, "Price tag" and "price" 0.64; "Course" and "title" 0.34) takes that kind."""


def column_kind(column: str) -> str:
    """The kind of value a column name asks for: by its words, else by meaning (:func:`kind_by_meaning`)."""
    words = column_words(column)
    for kind, vocabulary in KIND_WORDS:
        if words & vocabulary:
            return kind
    return "text" if words & NAME_WORDS else kind_by_meaning(column)  # names have their own rules (locate)


@lru_cache(maxsize=1024)
def kind_by_meaning(column: str) -> str:
    """The kind whose words the column name means (the small offline embedding model the field ranker uses),
    or ``text``: names the word lists do not know ("Homepage", "Price tag") still find their value."""
    from scrapesmith.llm import embeddings_available, meaning_similarity

    if not column.strip() or not embeddings_available():
        return "text"
    scored = [(max(meaning_similarity(column, word) for word in vocabulary), kind) for kind, vocabulary in KIND_WORDS]
    best, kind = max(scored)
    return kind if best >= MEANS_KIND else "text"


def content_type(element: etree._Element) -> str:
    """What kind of value a part holds (link, date, price, email, number or text): what the model weighs
    against the type a column name implies (:func:`column_kind`)."""
    text = element_text(element)
    if element.tag == "a" and element.get("href"):
        return "link"
    if element.tag == "time" or DATE_TEXT.search(text):
        return "date"
    if PRICE_TEXT.search(text):
        return "price"
    if EMAIL_TEXT.search(text):
        return "email"
    if re.fullmatch(r"[\d\s.,%+-]+", text):
        return "number"
    return "text"


def _labels(element: etree._Element) -> set[str]:
    raw = " ".join(element.get(name) or "" for name in ("class", "itemprop", "id", "data-field", "name"))
    return {word for word in re.split(r"[^a-z0-9]+", raw.lower()) if word}


def _descendants(item: etree._Element) -> list[etree._Element]:
    return [node for node in item.iter() if is_element(node) and node.tag not in ("script", "style")]


def main_link(item: etree._Element) -> etree._Element | None:
    """The item's own link: one inside a heading if any, else the link with the most text."""
    links = [a for a in item.iter("a") if (a.get("href") or "").strip() and not a.get("href").startswith("#")]
    if item.tag == "a" and item.get("href"):
        links.insert(0, item)
    if not links:
        return None
    in_heading = [
        a for a in links if a.xpath("ancestor-or-self::*[self::h1 or self::h2 or self::h3 or self::h4]")
    ]
    return (in_heading or sorted(links, key=lambda a: -len(element_text(a))))[0]


HEADING_LABELS = frozenset({"heading", "headline", "title"})
HEADING_CHARS = 200


def _heading(item: etree._Element) -> etree._Element | None:
    """The item's heading: an ``<h1>``-``<h6>``, else the first part marked as one (``role="heading"``, or
    a class such as ``typography-heading-xs`` or ``card-title``) that holds only part of the item's text."""
    for node in item.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        if element_text(node):
            return node
    whole = element_text(item)
    for node in _descendants(item)[1:]:
        if node.get("role") != "heading" and not _labels(node) & HEADING_LABELS:
            continue
        text = element_text(node)
        if text and text != whole and len(text) <= HEADING_CHARS:
            return node
    return None


def _called(item: etree._Element, link: bool) -> etree._Element | None:
    """What the item is called: its heading (else, with ``link``, its main link), unless that is the whole item."""
    node = _heading(item)
    if node is None and link:
        node = main_link(item)
    return node if node is not None and element_text(node) != element_text(item) else None


def _by_label(item: etree._Element, words: set[str], kind: str) -> etree._Element | None:
    best, best_score = None, 0
    for node in _descendants(item)[1:]:
        hits = len(words & _labels(node))
        if not hits or not element_text(node):
            continue
        if kind == "url" and node.tag != "a" and node.find(".//a[@href]") is None:
            continue
        if hits > best_score:
            best, best_score = node, hits
    return best


def _by_pattern(item: etree._Element, pattern: re.Pattern[str]) -> etree._Element | None:
    """The smallest element whose whole text is dominated by a ``pattern`` match."""
    for node in reversed(_descendants(item)):
        text = element_text(node)
        match = pattern.search(text)
        if match and len(match.group(0)) >= 0.6 * len(text):
            return node
    return None


def _emphasised(item: etree._Element) -> etree._Element | None:
    """A short emphasised text (``<strong>``, ``<b>``, ``<cite>``, a bold/semibold class): how names are set."""
    for node in _descendants(item)[1:]:
        text = element_text(node)
        if not text or len(text) > 60 or node.tag == "a" or node.find(".//a") is not None:
            continue
        if node.tag in ("strong", "b", "cite") or _labels(node) & {"bold", "semibold", "name", "author"}:
            return node
    return None


def locate(column: str, item: etree._Element) -> ColumnMatch | None:
    """Where ``column``'s value lives in ``item``, with the evidence used; ``None`` if nothing supports it."""
    kind, words = column_kind(column), column_words(column)
    labelled = _by_label(item, words - URL_WORDS - {"name"} if kind == "url" else words, kind)
    if labelled is not None:
        return ColumnMatch(column, labelled, kind == "url", "label")
    if kind == "url":
        link = main_link(item)
        return ColumnMatch(column, link, True, "main link") if link is not None else None
    if kind == "title":
        node = _heading(item)
        node = node if node is not None else main_link(item)
        return ColumnMatch(column, node, False, "heading") if node is not None else None
    if kind == "date":
        node = next(iter(item.iter("time")), None)
        node = node if node is not None else _by_pattern(item, DATE_TEXT)
        return ColumnMatch(column, node, False, "date") if node is not None else None
    if "name" in words and words - NAME_WORDS and not words & PERSON_WORDS:  # "Product Name", "Company Name"
        node = _called(item, link=True)
        if node is not None:
            return ColumnMatch(column, node, False, "heading")
    if words & NAME_WORDS:
        node = _emphasised(item)
        if node is not None:
            return ColumnMatch(column, node, False, "emphasis")
    if words == {"name"}:  # a bare "Name" with no emphasised text
        node = _called(item, link=False)
        if node is not None:
            return ColumnMatch(column, node, False, "heading")
    pattern = {"price": PRICE_TEXT, "email": EMAIL_TEXT}.get(kind)
    node = _by_pattern(item, pattern) if pattern is not None else None
    return ColumnMatch(column, node, False, kind) if node is not None else None


def column_actions(
    columns: Sequence[str], item: etree._Element, others: Sequence[etree._Element]
) -> tuple[list[Action], list[str]]:
    """``SaveText``/``SaveLink`` actions (item-relative selectors) for the columns found, and the rest."""
    actions: list[Action] = []
    missing = []
    matches = {column: locate(column, item) for column in columns}
    naming = _naming_column(columns, matches, item)
    if naming is not None:
        matches[naming.column] = naming
    for column in columns:
        match = matches[column]
        selector = field_selectors(match.element, item, others) if match is not None else ""
        if not selector:
            missing.append(column)
        elif match.link:
            actions.append(SaveLink(element=selector, column=column))
        else:
            actions.append(SaveText(element=selector, column=column))
    return actions, missing


def _naming_column(columns: Sequence[str], matches: dict[str, ColumnMatch | None],
                   item: etree._Element) -> ColumnMatch | None:
    """The first column, when nothing located it, is a plain noun and no other column reads what the item is
    called: it names the item ("Course" in "Course,URL" is each course's name, as "Title" would be). A
    user names the thing listed first; a wrong guess shows in the rows, never as an empty column."""
    first = columns[0] if columns else None
    if first is None or matches.get(first) is not None or column_kind(first) != "text":
        return None
    node = _called(item, link=True)
    taken = {id(match.element) for match in matches.values() if match is not None and not match.link}
    if node is None or id(node) in taken:
        return None
    return ColumnMatch(first, node, False, "names the item")
