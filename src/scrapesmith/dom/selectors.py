"""Selectors for a node, and evaluation of selectors against a tree.

Scrapers (AutoScraper) and list programs (BardeenAgent, section 3.3) must find the same node
again on another page or after the page changed. So :func:`robust_xpath` and :func:`css_selector` prefer
what authors keep stable (ids, semantic classes, ``name``/``itemprop``/``role``-like attributes) over
positions, skip hashed class names (:func:`is_obfuscated_class`), and verify that the selector picks
exactly the node; positions are added only where nothing else disambiguates. :func:`select` evaluates
either language (CSS via parsel's translator, so ``::text`` and ``::attr(x)`` work too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cssselect import SelectorError as CssSyntaxError
from lxml import etree
from parsel.csstranslator import HTMLTranslator

from scrapesmith.dom.parse import HtmlElement, xml_safe
from scrapesmith.errors import ScrapesmithError

SKIPPED_TEXT_TAGS = frozenset({"script", "style", "noscript", "template"})
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul", "option", "select", "button", "label", "input", "textarea", "caption",
})
STABLE_ATTRIBUTES = ("name", "itemprop", "role", "type", "aria-label", "for", "rel", "data-testid", "title")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_AXES = (
    "ancestor|ancestor-or-self|attribute|child|descendant|descendant-or-self|following|following-sibling"
    "|parent|preceding|preceding-sibling|self"
)
_XPATH_START = re.compile(
    rf"^\s*(\(|\.{{1,2}}(/|$)|/|@|({_AXES})::|(text|node|string|normalize-space|count|concat)\s*\()"
)
_CAMEL_PIECES = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_KNOWN_HASHED = re.compile(r"^(sc-|jsx-\d|svelte-|emotion-|css-[\w-]*\d|jss\d)")
_CSS_IDENT = re.compile(r"^-?[_a-zA-Z][_a-zA-Z0-9-]*$")
_TRANSLATOR = HTMLTranslator()


class SelectorError(ScrapesmithError):
    """A selector expression is neither valid XPath nor valid CSS."""


def normalize_text(s: str | None) -> str:
    """Collapse all Unicode whitespace (NBSP included) to single spaces and drop zero-width characters."""
    if not s:
        return ""
    return " ".join(_ZERO_WIDTH.sub("", s).split())


def node_text(node: HtmlElement | str) -> str:
    """Visible text of ``node``: script/style skipped, block elements separated by a space, normalised."""
    if isinstance(node, str):
        return normalize_text(node)
    parts: list[str] = []
    walker = etree.iterwalk(node, events=("start", "end", "comment", "pi"))
    for event, element in walker:
        if event in ("comment", "pi"):
            parts.append("" if element is node else element.tail or "")
        elif event == "start":
            parts.append(" " if element.tag in BLOCK_TAGS else "")
            if element.tag in SKIPPED_TEXT_TAGS:
                walker.skip_subtree()
            else:
                parts.append(element.text or "")
        else:
            parts.append(" " if element.tag in BLOCK_TAGS else "")
            if element is not node:
                parts.append(element.tail or "")
    return normalize_text("".join(parts))


def element_text(element: HtmlElement) -> str:
    """All the text under ``element`` (script and style included), whitespace-normalised."""
    return " ".join("".join(element.itertext()).split())


def absolute_xpath(node: HtmlElement) -> str:
    """Positional XPath from the document root, e.g. ``/html/body/div[2]/p`` (lxml's ``getpath`` format,
    but valid for prefixed tags such as ``o:p`` too)."""
    steps = [_positional_step(element) for element in (node, *node.iterancestors())]
    return "/" + "/".join(reversed(steps))


def _positional_step(element: HtmlElement) -> str:
    tag = element.tag if _CSS_IDENT.match(element.tag) else f"*[name()={_xpath_literal(element.tag)}]"
    parent = element.getparent()
    if parent is None:
        return tag
    same = list(parent.iterchildren(element.tag))
    return tag + (f"[{same.index(element) + 1}]" if len(same) > 1 else "")


def relative_xpath(node: HtmlElement, ancestor: HtmlElement) -> str:
    """Positional XPath of ``node`` starting at ``ancestor`` (``.`` when they are the same node)."""
    node_path, ancestor_path = absolute_xpath(node), absolute_xpath(ancestor)
    if node is ancestor:
        return "."
    if not node_path.startswith(ancestor_path + "/"):
        raise ValueError("node is not inside ancestor")
    return "." + node_path[len(ancestor_path) :]


def is_obfuscated_class(name: str) -> bool:
    """Does a class name look generated (``css-1x2y3z``, ``sc-aXZVg``, ``Header_title__3xYzA``)?

    Generated names change with every build, so selectors must not rely on them. The test is per
    ``-``/``_`` segment: mixed letters and digits, camel pieces too short to be words, or no vowels.
    """
    if _KNOWN_HASHED.match(name):
        return True
    return any(_is_hashy_segment(segment) for segment in re.split(r"[-_]+", name) if segment)


def _is_hashy_segment(segment: str) -> bool:
    if len(segment) < 4 or segment.isdigit():
        return False
    pieces = _CAMEL_PIECES.findall(segment)
    if len(pieces) > len(segment) / 2.5 or len(pieces) > 3:
        return True
    letters = [c for c in segment.lower() if c.isalpha()]
    return len(letters) >= 5 and not any(c in "aeiouy" for c in letters)


def is_stable_id(value: str) -> bool:
    """Ids with hashes or long digit runs (``ember123``, ``:r1:``) are regenerated per render or per item."""
    return bool(_CSS_IDENT.match(value)) and not re.search(r"\d{3,}", value) and not is_obfuscated_class(value)


# -- selector generation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """What identifies one element without its position: tag, stable id, classes, stable attributes."""

    tag: str
    id: str | None = None
    classes: tuple[str, ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()

    @property
    def has_features(self) -> bool:
        return bool(self.id or self.classes or self.attributes)


def _describe(element: HtmlElement) -> _Step:
    """The element's features; values an XPath cannot spell (control characters) are no features."""
    element_id = element.get("id")
    classes = tuple(
        c for c in (element.get("class") or "").split() if not is_obfuscated_class(c) and xml_safe(c)
    )[:3]
    attributes = tuple(
        (name, element.get(name))
        for name in STABLE_ATTRIBUTES
        if element.get(name) and len(element.get(name)) <= 80 and xml_safe(element.get(name))
    )[:2]
    return _Step(
        tag=element.tag,
        id=element_id if element_id and is_stable_id(element_id) else None,
        classes=classes,
        attributes=attributes,
    )


def _xpath_literal(value: str) -> str:
    if "'" not in value:
        return f"'{value}'"
    if '"' not in value:
        return f'"{value}"'
    return "concat(" + ", \"'\", ".join(f"'{part}'" for part in value.split("'")) + ")"


def _xpath_step(step: _Step, position: int | None = None) -> str:
    if step.id:
        predicates = [f"@id={_xpath_literal(step.id)}"]
    else:
        predicates = [
            f"contains(concat(' ', normalize-space(@class), ' '), {_xpath_literal(f' {c} ')})" for c in step.classes
        ]
        predicates += [f"@{name}={_xpath_literal(value)}" for name, value in step.attributes]
    tag = step.tag if _CSS_IDENT.match(step.tag) else f"*[name()={_xpath_literal(step.tag)}]"
    text = tag + "".join(f"[{p}]" for p in predicates)
    return text + (f"[{position}]" if position else "")


def _css_step(step: _Step, position: int | None = None) -> str:
    if step.id:
        text = f"{step.tag}#{step.id}"
    else:
        text = step.tag + "".join(f".{c}" if _CSS_IDENT.match(c) else f'[class~="{c}"]' for c in step.classes)
        text += "".join(f'[{name}="{_css_escape(value)}"]' for name, value in step.attributes)
    return text + (f":nth-of-type({position})" if position else "")


def _css_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _chain(node: HtmlElement, root: HtmlElement | None) -> list[HtmlElement]:
    """``node`` and its ancestors, nearest first, stopping below ``root`` (or at ``<html>``)."""
    chain = [node]
    for ancestor in node.iterancestors():
        if ancestor is root:
            break
        chain.append(ancestor)
    return chain


def _generate(node: HtmlElement, root: HtmlElement | None, language: str) -> str:
    """Walk up from ``node`` adding one step per ancestor until the expression selects exactly ``node``.

    Each step first tries without a position; a position is kept only when the element cannot be told
    from its siblings otherwise. Featureless, unambiguous ancestors are skipped with a descendant join.
    """
    context = root if root is not None else node.getroottree().getroot()
    render = _xpath_step if language == "xpath" else _css_step
    join_child, join_descendant = ("/", "//") if language == "xpath" else (" > ", " ")
    prefix = (".//" if root is not None else "//") if language == "xpath" else ""
    chain = _chain(node, root)
    expression, skipped = "", False
    for level, element in enumerate(chain):
        step = _describe(element)
        position = _sibling_position(element, step, language)
        if level and not step.has_features and position is None:
            skipped = True
            continue
        joint = "" if not level else (join_descendant if skipped else join_child)
        skipped = False
        unpositioned = render(step) + joint + expression
        if (step.has_features or not level) and _selects_exactly(context, prefix + unpositioned, node, language):
            return prefix + unpositioned
        expression = render(step, position) + joint + expression
        if position and _selects_exactly(context, prefix + expression, node, language):
            return prefix + expression
    return _positional(node, root, chain, render, join_child, language)


def _positional(node, root, chain, render, join_child: str, language: str) -> str:
    """Fallback: the full chain, each step with its position among siblings that share its features."""
    steps = []
    for element in reversed(chain):
        step = _describe(element)
        steps.append(render(step, _sibling_position(element, step, language)))
    if language == "xpath":
        expression = ("./" if root is not None else "/") + "/".join(steps)
    else:
        expression = (":scope > " if root is not None else "") + join_child.join(steps)
    context = root if root is not None else node.getroottree().getroot()
    if _selects_exactly(context, expression, node, language):
        return expression
    return relative_xpath(node, root) if root is not None and language == "xpath" else absolute_xpath(node)


def _sibling_position(element: HtmlElement, step: _Step, language: str) -> int | None:
    """1-based position needed to tell ``element`` from same-tag siblings sharing its features, else None.

    XPath counts among siblings matching the step's predicates; CSS ``:nth-of-type`` counts all
    same-tag siblings.
    """
    parent = element.getparent()
    if parent is None:
        return None
    same_tag = list(parent.iterchildren(element.tag))
    matching = [sibling for sibling in same_tag if _matches_step(sibling, step)]
    if len(matching) < 2:
        return None
    return (matching if language == "xpath" else same_tag).index(element) + 1


def _matches_step(element: HtmlElement, step: _Step) -> bool:
    """Mirror of the XPath predicates of ``step``: does ``element`` satisfy them?"""
    if step.id:
        return element.get("id") == step.id
    classes = set((element.get("class") or "").split())
    return set(step.classes) <= classes and all(element.get(name) == value for name, value in step.attributes)


def _selects_exactly(context: HtmlElement, expression: str, node: HtmlElement, language: str) -> bool:
    try:
        found = select(context, expression)
    except SelectorError:
        return False
    return len(found) == 1 and found[0] is node


def robust_xpath(node: HtmlElement, root: HtmlElement | None = None) -> str:
    """A short XPath that selects exactly ``node`` (within ``root`` when given), avoiding positions."""
    return _generate(node, root, "xpath")


def css_selector(node: HtmlElement, root: HtmlElement | None = None) -> str:
    """A short CSS selector that selects exactly ``node`` (within ``root`` when given), avoiding positions.

    For the rare node CSS cannot single out (e.g. a prefixed tag like ``o:p``), the verified positional
    XPath is returned instead; :func:`select` evaluates either.
    """
    return _generate(node, root, "css")


# -- evaluation ------------------------------------------------------------------------------------------


def is_xpath(expression: str) -> bool:
    """XPath starts with ``/``, ``./``, ``(``, ``@``, an axis or a function; anything else is CSS."""
    return bool(_XPATH_START.match(expression))


@lru_cache(maxsize=2048)
def css_to_xpath(expression: str) -> str:
    """Translate CSS (with parsel's ``::text`` / ``::attr(x)`` and ``:scope``) to XPath, cached."""
    scoped = expression.strip()
    if scoped.startswith(":scope"):
        scoped = scoped[len(":scope") :].lstrip()
        prefix = "./" if scoped.startswith(">") else "descendant::"
        scoped = scoped.lstrip(">").strip()
    else:
        prefix = "descendant-or-self::"
    try:
        return _TRANSLATOR.css_to_xpath(scoped, prefix=prefix)
    except CssSyntaxError as exc:
        raise SelectorError(f"invalid CSS selector {expression!r}: {exc}") from exc


def select(tree: HtmlElement, expression: str) -> list:
    """Evaluate an XPath or CSS ``expression`` on ``tree``; always returns a list (scalars are wrapped)."""
    xpath = expression if is_xpath(expression) else css_to_xpath(expression)
    try:
        result = tree.xpath(xpath)
    except (etree.XPathError, TypeError) as exc:
        raise SelectorError(f"invalid selector {expression!r}: {exc}") from exc
    return result if isinstance(result, list) else [result]


def select_text(tree: HtmlElement, expression: str) -> list[str]:
    """Texts selected by ``expression``, whitespace-normalised; empty results are dropped."""
    texts = []
    for item in select(tree, expression):
        if isinstance(item, bool):
            text = "true" if item else "false"
        elif isinstance(item, float):
            text = str(int(item)) if item.is_integer() else str(item)
        else:
            text = node_text(item) if isinstance(item, etree._Element) else normalize_text(str(item))
        if text:
            texts.append(text)
    return texts
