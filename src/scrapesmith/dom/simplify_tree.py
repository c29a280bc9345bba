"""The page as the simplified DOM's tree of kept nodes, before it is rendered (:mod:`.simplify`).

Invisible and non-content elements are dropped (:data:`SKIPPED_TAGS`), formatting elements give their
content to their parent, a wrapper that only wraps one kept node is folded away, a plain image whose alt text
its siblings already show is dropped, and text is whitespace-normalised. Every kept element is a
:class:`Node` whose ``weight`` approximates its rendered size.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapesmith.dom.parse import HtmlElement
from scrapesmith.dom.selectors import normalize_text
from scrapesmith.dom.visibility import INTERACTIVE_TAGS, is_hidden, is_interactive

SKIPPED_TAGS = frozenset({
    "script", "style", "noscript", "template", "head", "meta", "link", "base", "iframe", "object", "embed",
    "canvas", "svg", "math", "map", "audio", "video", "source", "track", "br", "hr", "wbr",
})
STRUCTURAL_TAGS = frozenset({
    "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "form",
    "img", "title", "label", "fieldset", "legend", "nav", "main", "header", "footer", "p",
})
FORMATTING_TAGS = frozenset({
    "b", "i", "em", "strong", "u", "font", "small", "big", "sup", "sub", "abbr", "cite", "s", "strike",
    "mark", "tt", "nobr", "q", "ins", "del", "kbd", "var", "bdi", "bdo",
})
FOLDABLE_TAGS = frozenset({
    "li", "p", "dd", "dt", "nav", "header", "footer", "main", "fieldset", "label", "title",
})
TEXT_CHARS_PER_WEIGHT = 40
MAX_DEPTH = 120


@dataclass(eq=False)
class Node:
    element: HtmlElement
    items: list[Node | str]
    weight: int = 0  # kept elements below, plus text length / 40: a cheap proxy for rendered size

    def __post_init__(self) -> None:
        self.weight = 1 + sum(
            item.weight if isinstance(item, Node) else len(item) // TEXT_CHARS_PER_WEIGHT for item in self.items
        )


def build_items(element: HtmlElement, depth: int) -> list[Node | str]:
    """The element as simplified items: a kept node, or its hoisted children when it only wraps them."""
    if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS or is_hidden(element):
        return []
    if depth > MAX_DEPTH:
        text = normalize_text(element.text_content())
        return [text] if text else []
    items: list[Node | str] = []
    _add_text(items, element.text)
    for child in element:
        items.extend(build_items(child, depth + 1))
        _add_text(items, child.tail)
    items = _without_redundant_images(items)
    if element.tag in FORMATTING_TAGS and not is_interactive(element):
        return items
    if not items and not _is_actionable(element):
        return []
    if _is_meaningful(element, items):
        if _is_foldable_wrapper(element, items):
            return items
        return [Node(element, _fold_single_child(element, items))]
    if len(items) >= 2:
        return [Node(element, items)]
    return items


def _without_redundant_images(items: list[Node | str]) -> list[Node | str]:
    """Drop a plain image whose alt text its siblings already show (a product card's cover and title)."""
    if len(items) < 2:
        return items
    images = [i for i in items if isinstance(i, Node) and i.element.tag == "img" and not is_interactive(i.element)]
    if not images:
        return items
    image_ids = {id(image) for image in images}
    others = (i if isinstance(i, str) else i.element.text_content() for i in items if id(i) not in image_ids)
    shown = _compact(" ".join(others))
    return [i for i in items if id(i) not in image_ids or _compact(i.element.get("alt") or "") not in shown]


def _compact(text: str) -> str:
    return "".join(text.split()).lower()


def _add_text(items: list[Node | str], text: str | None) -> None:
    text = normalize_text(text)
    if not text:
        return
    if items and isinstance(items[-1], str):
        items[-1] = f"{items[-1]} {text}"
    else:
        items.append(text)


def _is_meaningful(element: HtmlElement, items: list[Node | str]) -> bool:
    return (
        element.tag in STRUCTURAL_TAGS
        or element.tag in INTERACTIVE_TAGS
        or is_interactive(element)
        or any(isinstance(item, str) for item in items)
    )


def _is_actionable(element: HtmlElement) -> bool:
    """Worth showing even when empty: something to click or type into, or an image with alt text."""
    return is_interactive(element) or (element.tag == "img" and bool(normalize_text(element.get("alt"))))


def _is_foldable_wrapper(element: HtmlElement, items: list[Node | str]) -> bool:
    """``<li><a>x</a></li>``: a textless layout element around a single kept node adds nothing."""
    return (
        element.tag in FOLDABLE_TAGS
        and len(items) == 1
        and isinstance(items[0], Node)
        and _is_meaningful(items[0].element, items[0].items)
        and not is_interactive(element)
    )


def _fold_single_child(element: HtmlElement, items: list[Node | str]) -> list[Node | str]:
    """A meaningful element whose only child is a plain wrapper takes the wrapper's children instead."""
    if len(items) == 1 and isinstance(items[0], Node):
        only = items[0]
        if not _is_meaningful(only.element, only.items):
            return only.items
    return items
