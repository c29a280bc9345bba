"""Turn whatever a fetcher returned into an lxml tree, without ever refusing a page.

Real pages are broken in many ways: unclosed tags, a byte-order mark before ``<base href>`` (every SWDE
page), an XML declaration inside an already-decoded string (lxml refuses those), a declared charset that
lies, NUL bytes, or no content at all. Every capability parses through :func:`parse_html`, so these cases
are handled once. The tree always has an ``<html>`` root, and its document URL is the *effective* base
URL (``<base href>`` resolved against the page URL), so relative links resolve the way a browser would.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

from scrapesmith.dom.encoding import decode_html

HtmlElement = lxml.html.HtmlElement

# One parser for all documents: input is always UTF-8 bytes (decoded first, see below), so the encoding is
# fixed and libxml2 ignores ``<meta charset>`` declarations that may be wrong. ``huge_tree`` lifts
# libxml2's depth and text-size limits, which real pages with runaway nesting hit.
_PARSER = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# What libxml2 cannot hold in a name, an XPath expression or an XPath variable (lxml raises ValueError).
_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_TAG_UNSAFE = re.compile(r"[^A-Za-z0-9_.:-]")
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
    if _XML_UNSAFE.search(text):
        _make_names_safe(root)
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
    return safe_urljoin(base, href.strip()) if base else href.strip()


def safe_urljoin(base: str | None, href: str) -> str:
    """``urljoin`` that never raises: an unparsable URL (``http://[``) comes back as ``href`` unresolved.

    Pages carry every kind of broken link; the standard library raises ``ValueError`` on some (an open
    IPv6 bracket), and one bad href must not cost the page.
    """
    try:
        return urljoin(base or "", href)
    except ValueError:
        return href


def xml_safe(text: str) -> bool:
    """Whether lxml accepts ``text`` as a name, inside an XPath expression or as an XPath variable."""
    return not _XML_UNSAFE.search(text)


def _decode(content: bytes, declared: str | None) -> str:
    decoded = decode_html(content, declared)
    return decoded if isinstance(decoded, str) else decoded[0]


def _strip_preamble(text: str) -> str:
    """Drop what lxml rejects or mis-parses at the start of a decoded document: BOMs and XML declarations."""
    text = text.lstrip()
    while text.startswith(_BOMS):
        text = text[1:].lstrip()
    return _XML_DECLARATION.sub("", text, count=1)


def _make_names_safe(root: HtmlElement) -> None:
    """Rename tags and drop attributes whose names lxml cannot look up (control characters, a leading ``{``).

    libxml2 keeps ``<x\x01y a\x01b=1>`` as written, but lxml refuses such names in every lookup by name
    (``iterchildren(tag)``, ``attrib[name]``), so each later step would raise on them.
    """
    for element in root.iter(etree.Element):
        if not xml_safe(element.tag):
            element.tag = _safe_tag(element.tag)
        if not all(_usable_name(name) for name in element.attrib):
            keep_attributes(element, [name for name in element.attrib if _usable_name(name)])


def _safe_tag(tag: str) -> str:
    """``tag`` with what lxml refuses in an HTML tag name removed; ``span`` when nothing usable is left."""
    cleaned = _TAG_UNSAFE.sub("", tag)
    return cleaned if cleaned[:1].isalpha() else "span"


def _usable_name(name: str) -> bool:
    """A name lxml can look up: no control characters, and no ``{`` opening a namespace."""
    return xml_safe(name) and not name.startswith("{")


def keep_attributes(element: HtmlElement, names: list[str]) -> None:
    """Keep only the attributes ``names`` of ``element``, whatever the names of the others.

    Deleting by name fails for names lxml cannot look up (``{a}b`` reads as a namespace, ``a\x01b``
    holds a control character), so the element's attributes are cleared and the kept ones set again;
    control characters in their values are dropped, as lxml refuses to set them.
    """
    wanted = frozenset(names)
    kept = [(name, _XML_UNSAFE.sub("", value)) for name, value in element.attrib.items()
            if name in wanted and _usable_name(name)]
    element.attrib.clear()
    element.attrib.update(kept)


def _set_base_url(root: HtmlElement, url: str | None) -> None:
    """The page URL, or ``<base href>`` resolved against it; a base no URL parser accepts is ignored."""
    base_hrefs = root.xpath("//base[@href][1]/@href")
    base = url
    if base_hrefs:
        href = str(base_hrefs[0]).strip()
        resolved = safe_urljoin(url, href) if url else href
        base = resolved if is_parsable_url(resolved) else url
    if base and xml_safe(base):
        root.getroottree().docinfo.URL = base


def is_parsable_url(url: str) -> bool:
    """Whether the standard library's URL functions accept ``url`` (``http://[`` is refused)."""
    try:
        urlsplit(url)
    except ValueError:
        return False
    return True
