"""How a forged program reads a page, in lxml and parsel alone: the code an export copies beside its spider.

This module imports nothing of scrapesmith (only lxml, and parsel's CSS translator), so the code a user takes
away runs where scrapesmith is not installed. It repeats, rule for rule, what ``scrapesmith run`` and
``scrapesmith replay`` do to a page:

- a scraper spec's fields (:func:`spec_row`): each field's XPaths (all but the last prune the page, each
  pruned node becoming a document of its own), whitespace-normalised values, then the declared
  post-processing (edge separators, regex, one value or all, split);
- a list program's steps (:func:`extract`, :func:`select_in`): CSS selectors with ``:scope`` and `` || ``
  alternatives, an item's text and link, its identity (its own URL, else its node), the pagination control,
  a click or a GET form as the URL it leads to.

How a program runs page after page (a list program's phases, the row in its column order) is
:mod:`.standalone_run`; the export joins the two into one module (``forged/extract.py``, or the plain script).

``tests/export`` checks that both give the rows scrapesmith gives on the demo web and on SWDE pages.
"""

from __future__ import annotations

import copy
import re
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

from cssselect import SelectorError
from lxml import etree, html
from parsel.csstranslator import HTMLTranslator

SEPARATORS = " \t\r\n:;,|/-–—•·*>»"
MULTI_SEPARATOR = "; "
SKIPPED_TEXT_TAGS = frozenset({"script", "style", "noscript", "template"})
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "br", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul", "option", "select", "button", "label", "input", "textarea", "caption",
})
PREVIOUS_WORDS = re.compile(r"(prev|previous|newer|‹|«|←|back)", re.IGNORECASE)
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_FULL_HTML = re.compile(r"^\s*<(?:html|!doctype)", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_AXES = ("ancestor|ancestor-or-self|attribute|child|descendant|descendant-or-self|following|following-sibling"
         "|parent|preceding|preceding-sibling|self")
_XPATH_START = re.compile(
    rf"^\s*(\(|\.{{1,2}}(/|$)|/|@|({_AXES})::|(text|node|string|normalize-space|count|concat)\s*\()")
_TRANSLATOR = HTMLTranslator()
_PARSER = html.HTMLParser(encoding="utf-8", huge_tree=True)


# -- a scraper spec -------------------------------------------------------------------------------------


def parse_for_fields(text: str) -> etree._Element:
    """The page as a spec's XPaths see it."""
    if text and not text.isspace():
        try:
            root = html.document_fromstring(text)
            if root.find("head") is None and not _FULL_HTML.match(text):
                root = html.fromstring(text)
            if root.tag == "html":
                return root
        except (ValueError, etree.ParserError):
            pass
    return parse_for_lists(text)


def node_value(item: Any) -> str:
    """The text of one XPath result, whitespace-normalised."""
    if isinstance(item, str):
        return " ".join(item.split())
    if isinstance(item, etree._Element):
        if isinstance(item, (etree._Comment, etree._ProcessingInstruction)):
            return ""
        if not len(item):
            return " ".join((item.text or "").split())
        text = item.text_content() if isinstance(item, html.HtmlElement) else "".join(item.itertext())
        return " ".join(text.split())
    if isinstance(item, bool):
        return ""
    if isinstance(item, float):
        return str(int(item)) if item.is_integer() else str(item)
    return " ".join(str(item).split())


def _as_document(node: etree._Element) -> etree._Element:
    clone = copy.deepcopy(node)
    etree.ElementTree(clone)
    return clone


def _xpath(root: etree._Element, expression: str) -> list:
    result = root.xpath(expression)
    return result if isinstance(result, list) else [result]


def run_actions(root: etree._Element, actions: list[str]) -> list[str]:
    """A field's raw values: every XPath but the last prunes, the last one extracts."""
    if not actions:
        return []
    roots = [root]
    for expression in actions[:-1]:
        pruned = []
        for current in roots:
            for item in _xpath(current, expression):
                if isinstance(item, etree._Element):
                    pruned.append(_as_document(item))
                elif hasattr(item, "getparent") and item.getparent() is not None:
                    pruned.append(_as_document(item.getparent()))
        roots = pruned
        if not roots:
            return []
    values: list[str] = []
    for current in roots:
        values.extend(v for v in (node_value(item) for item in _xpath(current, actions[-1])) if v)
    return values


def _union_parts(expression: str) -> list[str]:
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


def post_process(values: list[str], post: dict[str, Any]) -> list[str]:
    """Raw values as the spec declares them clean."""
    cleaned = []
    for value in values:
        if post.get("strip_separators", True):
            value = value.strip(SEPARATORS)
        if post.get("regex"):
            match = re.search(post["regex"], value)
            if not match:
                continue
            value = match.group(1) if match.groups() else match.group(0)
        if value and post.get("split") and post.get("multiple"):
            cleaned.extend(part for part in (p.strip(SEPARATORS) for p in re.split(post["split"], value)) if part)
        elif value:
            cleaned.append(value)
    return cleaned if post.get("multiple") else cleaned[:1]


def spec_row(spec: dict[str, Any], root: etree._Element) -> dict[str, Any]:
    """One row of a spec's fields: a string (or None) per field, a list per multi-valued field."""
    scope = None
    if spec.get("scope"):
        found = _xpath(root, spec["scope"])
        scope = found[0] if found and isinstance(found[0], etree._Element) else None
    row: dict[str, Any] = {}
    for field in spec["fields"]:
        actions = field.get("actions") or []
        parts = _union_parts(actions[0]) if len(actions) == 1 else []
        if scope is not None and parts and all(part.startswith("//") for part in parts):
            rebased = " | ".join("descendant-or-self::" + part[2:] for part in parts)
            raw = [v for v in map(node_value, _xpath(scope, rebased)) if v]
        else:
            raw = run_actions(root, actions)
        values = post_process(raw, field.get("post") or {})
        row[field["name"]] = values if (field.get("post") or {}).get("multiple") else (values[0] if values else None)
    return row


# -- a list program -------------------------------------------------------------------------------------


def parse_for_lists(text: str) -> etree._Element:
    """The page as a list program's selectors see it."""
    text = _XML_DECLARATION.sub("", text.lstrip().lstrip("\ufeff"), count=1)
    try:
        root = html.document_fromstring(text.encode("utf-8", "replace"), parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        root = None
    if root is None or root.tag != "html":
        root = html.document_fromstring("<html><head></head><body></body></html>")
    return root


def normalize_text(text: str | None) -> str:
    return " ".join(_ZERO_WIDTH.sub("", text).split()) if text else ""


def node_text(node: etree._Element) -> str:
    """Visible text: script and style skipped, block elements separated by a space."""
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


def element_text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _css_to_xpath(expression: str) -> str:
    scoped = expression.strip()
    if scoped.startswith(":scope"):
        scoped = scoped[len(":scope"):].lstrip()
        prefix = "./" if scoped.startswith(">") else "descendant::"
        scoped = scoped.lstrip(">").strip()
    else:
        prefix = "descendant-or-self::"
    return _TRANSLATOR.css_to_xpath(scoped, prefix=prefix)


def select_in(scope: etree._Element, selector: str) -> list[etree._Element]:
    """What a program selector picks in ``scope``: its first `` || `` alternative that finds anything."""
    for alternative in (part.strip() for part in str(selector).split(" || ") if part.strip()):
        if alternative == ":scope":
            return [scope]
        try:
            xpath = alternative if _XPATH_START.match(alternative) else _css_to_xpath(alternative)
            found = [node for node in _xpath(scope, xpath) if isinstance(node, etree._Element)]
        except (SelectorError, etree.XPathError, TypeError):  # an alternative that does not parse is skipped
            continue
        if found:
            return found
    return []


def first_in(scope: etree._Element, selector: str) -> etree._Element | None:
    found = select_in(scope, selector)
    return found[0] if found else None


def text_of(scope: etree._Element, selector: str, regex: str | None = None) -> str:
    element = first_in(scope, selector)
    text = node_text(element) if element is not None else ""
    if not regex or not text:
        return text
    match = re.search(regex, text)
    return "" if match is None else (match.group(1) if match.groups() else match.group(0))


def link_of(scope: etree._Element, selector: str, page_url: str) -> str:
    element = first_in(scope, selector)
    if element is None:
        return ""
    link = element if element.get("href") else element.find(".//a[@href]")
    if link is None:
        link = next((a for a in element.iterancestors("a") if a.get("href")), None)
    return urljoin(page_url, link.get("href").strip()) if link is not None else ""


def main_link(item: etree._Element) -> etree._Element | None:
    """The item's own link: one inside a heading if any, else the link with the most text."""
    links = [a for a in item.iter("a") if (a.get("href") or "").strip() and not a.get("href").startswith("#")]
    if item.tag == "a" and item.get("href"):
        links.insert(0, item)
    if not links:
        return None
    in_heading = [a for a in links if a.xpath("ancestor-or-self::*[self::h1 or self::h2 or self::h3 or self::h4]")]
    return (in_heading or sorted(links, key=lambda a: -len(element_text(a))))[0]


def identities(items: list[etree._Element], page_url: str) -> list[str]:
    """Each item's identity: its own URL when most items have one of their own, else its node on this page."""
    urls = []
    for item in items:
        link = main_link(item)
        urls.append(urljoin(page_url, link.get("href").strip()).split("#", 1)[0] if link is not None else "")
    if all(urls) and len(set(urls)) > len(urls) / 2:
        return [f"url:{url}" for url in urls]
    return [f"node:{page_url}:{item.getroottree().getpath(item)}" for item in items]


def next_page(root: etree._Element, pagination: str | None, page_url: str, visited: set[str]) -> str | None:
    """The URL the pagination control leads to, or None where the list ends."""
    if pagination is None:
        return None
    controls = [c for c in select_in(root, pagination) if not _inactive(c)]
    forward = [c for c in controls
               if re.search(r"next|more|older|›|»", element_text(c), re.IGNORECASE)
               or not PREVIOUS_WORDS.search(element_text(c))]
    fresh = [c for c in forward if not c.get("href") or urljoin(page_url, c.get("href")) not in visited]
    return click_url(fresh[0], page_url) if fresh else None


def _inactive(control: etree._Element) -> bool:
    style = (control.get("style") or "").replace(" ", "").lower()
    return (control.get("hidden") is not None or control.get("disabled") is not None
            or control.get("aria-disabled") == "true" or "display:none" in style)


def click_url(element: etree._Element, page_url: str, typed: dict[str, str] | None = None) -> str | None:
    """Where clicking ``element`` leads over HTTP: its link, or its GET form submitted; None otherwise."""
    link = element if element.get("href") else next(element.iterancestors("a"), None)
    if link is not None and link.get("href"):
        return urljoin(page_url, link.get("href"))
    form = next(element.iterancestors("form"), None)
    if form is not None and element.tag in ("button", "input"):
        return form_url(form, page_url, typed)
    return None


def form_url(form: etree._Element, page_url: str, typed: dict[str, str] | None = None) -> str | None:
    """The URL a GET form submits to with its current values and ``typed`` ones; None for other methods."""
    if (form.get("method") or "get").lower() != "get":
        return None
    fields: dict[str, str] = {}
    for field in form.iter("input", "select", "textarea"):
        name = field.get("name")
        if not name or field.get("type") in ("submit", "button", "reset", "image", "file"):
            continue
        if field.tag == "select":
            selected = field.find(".//option[@selected]")
            selected = selected if selected is not None else field.find(".//option")
            fields[name] = (selected.get("value", selected.text_content()) if selected is not None else "") or ""
        elif field.get("type") in ("checkbox", "radio"):
            if field.get("checked") is not None:
                fields[name] = field.get("value", "on")
        else:
            fields[name] = field.get("value", "") if field.tag == "input" else (field.text or "")
    fields.update(typed or {})
    parts = urlsplit(urljoin(page_url, form.get("action") or page_url))
    query = urlencode([(name, value) for name, value in fields.items() if value])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def option_value(select: etree._Element, wanted: str) -> str | None:
    key = normalize_text(wanted).lower()
    for option in select.iter("option"):
        label = normalize_text(option.text_content()).lower()
        value = option.get("value", label)
        if key in (value.lower(), label):
            return value
    return None


def extract(scope: etree._Element, steps: list[dict[str, Any]], page_url: str) -> dict[str, Any]:
    """The values a program's Save… and ScrapeFields steps take from ``scope`` (an item or a page)."""
    values: dict[str, Any] = {}
    for step in steps:
        action = step["action"]
        if action == "SaveCurrentURL":
            values[step["column"]] = page_url
        elif action == "SaveText":
            values[step["column"]] = text_of(scope, step["element"], step.get("regex"))
        elif action == "SaveLink":
            values[step["column"]] = link_of(scope, step["element"], page_url)
        elif action == "ScrapeFields":
            row = spec_row(step["spec"], scope)
            values.update({name: MULTI_SEPARATOR.join(value) if isinstance(value, list) else (value or "")
                           for name, value in row.items()})
    return values
