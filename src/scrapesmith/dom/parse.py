"""Turn whatever a fetcher returned into an lxml tree, without ever refusing a page.

Real pages are broken in many ways: unclosed tags, a byte-order mark before ``<base href>`` (every SWDE
page), an XML declaration inside an already-decoded string (lxml refuses those), a declared charset that
lies, NUL bytes, or no content at all. Every capability parses through :func:`parse_html`, so these cases
are handled once. The tree always has an ``<html>`` root, and its document URL is the *effective* base
URL (``<base href>`` resolved against the page URL), so relative links resolve the way a browser would.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

import lxml.html
from lxml import etree

from scrapesmith.dom.encoding import decode_html

HtmlElement = lxml.html.HtmlElement

# One parser for all documents: input is always UTF-8 bytes (decoded first, see below), so the encoding is
# fixed and libxml2 ignores ``<meta charset>`` declarations that may be wrong. ``huge_tree`` lifts
# libxml2's depth and text-size limits, which real pages with runaway nesting hit.
_PARSER = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_BOMS = ("\ufeff", "\ufffe")


def parse_html(source: str | bytes, url: str | None = None, encoding: str | None = None) -> HtmlElement:
    """Parse ``source`` into an ``<html>`` element; never raises on bad markup.

    ``bytes`` are decoded by :func:`scrapesmith.dom.encoding.decode_html`, which weighs the declared
    ``encoding`` (e.g. from the Content-Type header) against BOMs, ``<meta charset>`` and the bytes
    themselves. ``str`` input is used as is, minus a BOM and any XML declaration. ``url`` is the page's
    address; together with ``<base href>`` it sets the base URL that :func:`document_base_url` returns.
    """
    text = _decode(source, encoding) if isinstance(source, bytes) else source
    text = _strip_preamble(text)
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        root = empty_document()
    if not isinstance(root, HtmlElement) or root.tag != "html":
        root = empty_document()
    _set_base_url(root, url)
    return root


def empty_document() -> HtmlElement:
    """An ``<html>`` with empty ``<head>`` and ``<body>``: what an empty or unparsable page becomes."""
    return lxml.html.document_fromstring("<html><head></head><body></body></html>")


def document_base_url(tree: HtmlElement) -> str | None:
    """The effective base URL of the document ``tree`` belongs to (``None`` when unknown)."""
    return tree.getroottree().docinfo.URL


def absolutize(tree: HtmlElement, href: str) -> str:
    """Resolve ``href`` against the document's effective base URL, as a browser would."""
    base = document_base_url(tree)
    return urljoin(base, href.strip()) if base else href.strip()


def _decode(content: bytes, declared: str | None) -> str:
    decoded = decode_html(content, declared)
    return decoded if isinstance(decoded, str) else decoded[0]


def _strip_preamble(text: str) -> str:
    """Drop what lxml rejects or mis-parses at the start of a decoded document: BOMs and XML declarations."""
    text = text.lstrip()
    while text.startswith(_BOMS):
        text = text[1:].lstrip()
    return _XML_DECLARATION.sub("", text, count=1)


def _set_base_url(root: HtmlElement, url: str | None) -> None:
    base_hrefs = root.xpath("//base[@href][1]/@href")
    base = url
    if base_hrefs:
        href = str(base_hrefs[0]).strip()
        base = urljoin(url, href) if url else href
    if base:
        root.getroottree().docinfo.URL = base
