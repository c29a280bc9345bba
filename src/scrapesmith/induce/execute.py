"""Apply a :class:`ScraperSpec` to pages: parse once, run compiled XPaths, post-process. No LLM, ever.

Pruning follows the paper's parser: a pruning XPath selects nodes, and the next XPath runs on each selected
node *as its own document*, so an absolute ``//x`` in a later step only sees the pruned subtree.
"""

from __future__ import annotations

import copy
import html as html_module
import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree, html

from scrapesmith.artifacts import regex_search
from scrapesmith.dom import parse_html as parse_robustly
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec

_WS = re.compile(r"\s+")
_FULL_HTML = re.compile(r"^\s*<(?:html|!doctype)", re.IGNORECASE)
SEPARATORS = " \t\r\n:;,|/-–—•·*>»"


class XPathSyntaxError(ScrapesmithError):
    """An XPath in a spec (or proposed by a model) does not compile."""


def parse_for_replay(source: str | bytes) -> etree._Element:
    """Parse a page for replay: libxml2 straight on decoded text (the fast path, same tree as
    :func:`scrapesmith.dom.parse.parse_html` builds), falling back to that robust parser for bytes,
    XML declarations and anything that does not come out as an ``<html>`` document."""
    if isinstance(source, str) and source and not source.isspace():
        try:
            # html.fromstring's own first step; a page with a <head> is a document, so its fragment
            # guessing (a regex over the text, two searches of the tree) would change nothing
            root = html.document_fromstring(source)
            if root.find("head") is None and not _FULL_HTML.match(source):
                root = html.fromstring(source)
        except (ValueError, etree.ParserError):
            return parse_robustly(source)
        if root.tag == "html":
            return root
    return parse_robustly(source)


def normalize_space(text: str) -> str:
    """Runs of whitespace as one space, none at the ends (XPath's ``normalize-space``)."""
    return " ".join(text.split())


@lru_cache(maxsize=4096)
def compile_xpath(expression: str) -> etree.XPath:
    """Compile once per process; specs are replayed on thousands of pages."""
    try:
        return etree.XPath(expression, smart_strings=False)
    except etree.XPathSyntaxError as exc:
        raise XPathSyntaxError(f"invalid XPath {expression!r}: {exc}") from exc


# elements a browser draws on a line of their own (or, for a cell, apart from its neighbour): the text nodes on
# either side of one belong to different lines, so they are joined with a space, never glued
LINE_BREAKING = frozenset({
    "br", "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table", "tbody", "thead", "tfoot",
    "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "address", "blockquote",
    "pre", "hr", "form", "fieldset", "nav", "aside", "main", "figure", "figcaption", "caption"})


def printed_text(element: etree._Element) -> str:
    """An element's text as the page prints it: its text nodes in order, a space where a line break or a
    block element separates two of them ("10820 W. Charleston Blvd<br>Las Vegas, NV" is not "…BlvdLas
    Vegas"); comments give nothing. Inline markup joins as it is ("<b>Pulp</b> Fiction")."""
    if next(element.iterdescendants(*LINE_BREAKING), None) is None:  # the common case, walked in C
        return element.text_content() if isinstance(element, html.HtmlElement) else "".join(element.itertext())
    parts: list[str] = []
    _printed(element, parts)
    return "".join(parts)


def _printed(element: etree._Element, parts: list[str]) -> None:
    if element.text and isinstance(element.tag, str):
        parts.append(element.text)
    for child in element:
        breaks = child.tag in LINE_BREAKING
        if breaks:
            parts.append(" ")
        _printed(child, parts)
        if breaks:
            parts.append(" ")
        if child.tail:
            parts.append(child.tail)


def node_value(item: object) -> str:
    """The text of one XPath result: element text content, attribute or text node, number."""
    if type(item) is str:  # a text node or an attribute (the commonest result, tested first)
        return " ".join(item.split())
    if isinstance(item, etree._Element):
        if isinstance(item, (etree._Comment, etree._ProcessingInstruction)):
            return ""
        if not len(item):  # a leaf: its text is its whole content
            return normalize_space(item.text or "")
        return normalize_space(printed_text(item))
    if isinstance(item, bool):
        return ""
    if isinstance(item, float):
        return str(int(item)) if item.is_integer() else str(item)
    return normalize_space(str(item))


def as_document(node: etree._Element) -> etree._Element:
    """A pruned node as the root of its own tree, so ``//`` in the next step stays inside it."""
    clone = copy.deepcopy(node)
    etree.ElementTree(clone)
    return clone


_FIRST_STEP = re.compile(r"^//(?:[\w-]+(?::[\w-]+)?|\*|text\(\))(?P<predicate>\[)?")


def union_parts(expression: str) -> list[str]:
    """The paths of a union ``a | b`` (``|`` outside quotes, brackets and parentheses), stripped."""
    parts, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(expression):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(expression[start:index].strip())
            start = index + 1
    return [*parts, expression[start:].strip()]


def _descendant_path(path: str) -> str | None:
    match = _FIRST_STEP.match(path)
    if match is None:
        return None
    if match.group("predicate"):
        first = path[match.end() - 1:].split("]", 1)[0]
        if re.match(r"\[\s*\d", first) or "position()" in first or "last()" in first:
            return None
    return "descendant-or-self::" + path[2:]


@lru_cache(maxsize=4096)
def descendant_form(expression: str) -> str:
    """``//b[…]/x`` as ``descendant-or-self::b[…]/x``: the same nodes from a document's root element, found
    in one walk over the elements instead of a child step from every node (2-3x faster in libxml2); a
    union of such paths path by path.

    Only where a first step has no positional predicate (``//li[1]`` means "first among its siblings",
    ``descendant::li[1]`` "first in the document"); anything else is left as it is."""
    forms = [_descendant_path(part) for part in union_parts(expression)]
    return expression if None in forms else " | ".join(forms)  # type: ignore[arg-type]


def run_xpath(root: etree._Element, expression: str) -> list:
    """Evaluate ``expression`` on ``root``; from a document's root element a ``//`` path takes its fast form."""
    if root.getparent() is None:
        expression = descendant_form(expression)
    try:
        result = compile_xpath(expression)(root)
    except etree.XPathEvalError as exc:
        raise XPathSyntaxError(f"XPath {expression!r} failed: {exc}") from exc
    return result if isinstance(result, list) else [result]


def prune(roots: list[etree._Element], expression: str) -> list[etree._Element]:
    """One pruning step: the element nodes ``expression`` selects under each root, as new documents."""
    pruned = []
    for root in roots:
        for item in run_xpath(root, expression):
            if isinstance(item, etree._Element):
                pruned.append(as_document(item))
            elif hasattr(item, "getparent") and item.getparent() is not None:
                pruned.append(as_document(item.getparent()))
    return pruned


def run_actions(root: etree._Element, actions: list[str]) -> list[str]:
    """Raw values of an action sequence: whitespace-normalised, separators kept, empties dropped."""
    if not actions:
        return []
    roots = [root]
    for expression in actions[:-1]:
        roots = prune(roots, expression)
        if not roots:
            return []
    values: list[str] = []
    for current in roots:
        values.extend(v for v in (node_value(item) for item in run_xpath(current, actions[-1])) if v)
    return values


def strip_separators(value: str) -> str:
    return value.strip(SEPARATORS)


def folded(text: str) -> str:
    """``text`` lower-cased without accents, for "the same words?" checks across a page ("Sacks Café" in a
    heading, "Sacks Cafe" in the title)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def comparable(value: str) -> str:
    """A value reduced for "is this the same value?" checks: entities decoded, no whitespace or edge
    separators (the model's idea of a value and an XPath's raw text differ in exactly these)."""
    return _WS.sub("", html_module.unescape(value)).strip(SEPARATORS)


def post_process(values: list[str], post: PostProcess) -> list[str]:
    """Turn raw values into clean ones, as declared in the spec."""
    cleaned = []
    for value in values:
        if post.strip_separators:
            value = strip_separators(value)
        if post.regex:
            match = regex_search(post.regex, value)
            if not match:
                continue
            value = match.group(1) if match.groups() else match.group(0)
        if value and post.split and post.multiple:
            cleaned.extend(part for part in (strip_separators(p) for p in re.split(post.split, value)) if part)
        elif value:
            cleaned.append(value)
    return cleaned if post.multiple else cleaned[:1]


@dataclass
class FieldResult:
    raw: list[str]
    values: list[str]


def _values_of(xpath: etree.XPath, context: etree._Element, expression: str) -> list[str]:
    """``run_actions`` for one compiled step: the non-empty, whitespace-normalised values it selects."""
    try:
        result = xpath(context)
    except etree.XPathEvalError as exc:
        raise XPathSyntaxError(f"XPath {expression!r} failed: {exc}") from exc
    return [v for v in map(node_value, result if isinstance(result, list) else [result]) if v]


def rebased_xpath(field: FieldSpec) -> str | None:
    """A one-step ``//x…`` sequence (or a union of such paths) rebased onto a scope element
    (``descendant-or-self::x…``), if it is one."""
    if len(field.actions) != 1:
        return None
    parts = union_parts(field.actions[0])
    if not all(part.startswith("//") for part in parts):
        return None
    return " | ".join("descendant-or-self::" + part[2:] for part in parts)


@dataclass(frozen=True)
class _FieldPlan:
    """How one field is replayed, decided once per spec: a one-step field is one compiled XPath call per
    page (inside the scope when it has one), anything else runs its action sequence."""

    field: FieldSpec
    whole: etree.XPath | None
    scoped: etree.XPath | None


_PARSERS = threading.local()
_ID_CALL = re.compile(r"\bid\s*\(")
_ID_SCOPE = re.compile(r"id\('([^']*)'\)")
_PLAIN_TAG = re.compile(r"[A-Za-z][\w-]*")


def _plain_parser(ids: bool) -> etree.HTMLParser:
    """libxml2's HTML parser without lxml.html's element classes: the same tree, but every element an
    XPath returns becomes a Python object without a Python class-lookup callback (one per element).
    ``ids=False`` also skips the table of ``id`` attributes libxml2 builds for XPath's ``id()`` (5-9 % of
    the parse on SWDE pages), for a spec that never calls ``id()``."""
    key = "ids" if ids else "plain"
    parser = getattr(_PARSERS, key, None)
    if parser is None:  # a parser is not to be shared between threads
        parser = etree.HTMLParser(collect_ids=ids)
        setattr(_PARSERS, key, parser)
    return parser


def parse_page(source: str | bytes, ids: bool = True) -> etree._Element:
    """Parse a page to replay a spec on: :func:`parse_for_replay`'s tree, built faster for a text that is
    a whole document (has a ``<head>`` or starts as one); anything else takes :func:`parse_for_replay`.
    ``ids=False``: XPath's ``id()`` finds nothing in the tree (see :func:`_plain_parser`)."""
    if isinstance(source, str) and source and not source.isspace():
        try:
            root = etree.fromstring(source, _plain_parser(ids))
        except (ValueError, etree.ParserError, etree.XMLSyntaxError):
            return parse_for_replay(source)
        if root is not None and root.tag == "html" and (root.find("head") is not None or _FULL_HTML.match(source)):
            return root
    return parse_for_replay(source)


def scope_id(scope: str | None) -> str | None:
    """The id of a scope ``id('x')``, else None."""
    match = _ID_SCOPE.fullmatch(scope.strip()) if scope else None
    return match.group(1) if match else None


def _id_walk(ident: str, tag: str = "*") -> etree.XPath:
    """The first element with this id (as ``id()`` gives it) in a tree without an id table: a walk that
    stops at the first match, faster still when the element's tag is known."""
    return compile_xpath(f"descendant::{tag}[@id='{ident}'][1]")


class CompiledSpec:
    """A spec ready to replay: XPaths compiled up front so bad ones fail before the first page."""

    def __init__(self, spec: ScraperSpec) -> None:
        self.spec = spec
        for field in spec.fields:
            for expression in field.actions:
                compile_xpath(expression)
        # the id table is built only for a spec whose fields call id(); an id('x') scope is then a walk
        self._ids = any(_ID_CALL.search(e) for f in spec.fields for e in f.actions)
        self._scope_id = None if self._ids else scope_id(spec.scope)
        self._ids = self._ids or bool(spec.scope and self._scope_id is None and _ID_CALL.search(spec.scope))
        self._scope = (_id_walk(self._scope_id) if self._scope_id is not None
                       else compile_xpath(spec.scope) if spec.scope else None)
        self._scope_by_tag: etree.XPath | None = None  # the walk for the tag the scope had on the last page
        self._plans = [_FieldPlan(f, compile_xpath(descendant_form(f.actions[0])) if len(f.actions) == 1 else None,
                                  compile_xpath(rebased) if (rebased := rebased_xpath(f)) is not None else None)
                       for f in spec.fields]

    def extract_tree(self, root: etree._Element) -> dict[str, FieldResult]:
        inside = self._scope_element(root)
        document = root.getparent() is None
        results = {}
        for plan in self._plans:
            field = plan.field
            if inside is not None and plan.scoped is not None:
                raw = _values_of(plan.scoped, inside, field.actions[0])
            elif document and plan.whole is not None:
                raw = _values_of(plan.whole, root, field.actions[0])
            else:
                raw = run_actions(root, field.actions)
            results[field.name] = FieldResult(raw, post_process(raw, field.post))
        return results

    def _scope_element(self, root: etree._Element) -> etree._Element | None:
        """The record's scope on this page; an id's element is looked for by its tag first (a record's
        scope keeps its tag from page to page), then by its id alone."""
        if self._scope is None:
            return None
        if self._scope_by_tag is not None and (found := self._scope_by_tag(root)):
            return found[0]
        scope = self._scope(root)
        inside = scope[0] if scope and isinstance(scope, list) and isinstance(scope[0], etree._Element) else None
        if inside is not None and self._scope_id is not None and _PLAIN_TAG.fullmatch(inside.tag):
            self._scope_by_tag = _id_walk(self._scope_id, inside.tag)
        return inside

    def extract(self, source: str | bytes) -> dict[str, FieldResult]:
        return self.extract_tree(parse_page(source, self._ids))

    def row(self, source: str | bytes) -> dict[str, str | list[str] | None]:
        """One output row: a string per single-valued field, a list per multi-valued field."""
        return self.row_from(self.extract(source))

    def row_from(self, results: dict[str, FieldResult]) -> dict[str, str | list[str] | None]:
        row: dict[str, str | list[str] | None] = {}
        for field in self.spec.fields:
            values = results[field.name].values
            row[field.name] = values if field.post.multiple else (values[0] if values else None)
        return row
