"""How the simplified DOM shows an element's attributes: only those that help a model, kept short.

Ids and semantic classes hint at meaning, ``href``/``action`` at where things go, form attributes at
what can be typed or chosen. Hashed classes, tooltips repeating the visible text, session parameters
repeated on every link and the page's own origin are noise and are left out; long values are cut.
"""

from __future__ import annotations

from collections import Counter

from scrapesmith.dom.parse import HtmlElement, document_base_url
from scrapesmith.dom.selectors import is_obfuscated_class, normalize_text

SHOWN_ATTRIBUTES = (
    "id", "class", "href", "alt", "title", "name", "type", "value", "placeholder", "aria-label", "role", "for",
    "action", "checked", "selected", "disabled",
)
BOOLEAN_ATTRIBUTES = frozenset({"checked", "selected", "disabled"})
MAX_ATTRIBUTE_CHARS = 60
MAX_URL_CHARS = 40
MIN_LINKS_FOR_NOISE = 5

Noise = frozenset[str]  # raw ``name=value`` query fields


def shared_query_parameters(tree: HtmlElement) -> Noise:
    """Query parameters (e.g. session ids) repeated on most links of the page: noise for the model."""
    counts: Counter[str] = Counter()
    links = 0
    for href in tree.xpath(".//a/@href"):
        if "?" in href:
            links += 1
            counts.update(set(_query_fields(href)))
    if links < MIN_LINKS_FOR_NOISE:
        return frozenset()
    return frozenset(field for field, count in counts.items() if count >= links / 2)


def _query_fields(url: str) -> list[str]:
    """Raw ``name=value`` fields of a URL's query (string splitting: this runs for every link)."""
    return url.partition("#")[0].partition("?")[2].split("&")


def open_tag(
    element: HtmlElement, ident: int | None, own_text: str, noise: Noise
) -> str:
    parts = [element.tag] + ([f"#{ident}"] if ident is not None else [])
    for name in SHOWN_ATTRIBUTES:
        value = element.get(name)
        if value is None:
            continue
        if name in BOOLEAN_ATTRIBUTES:
            parts.append(name)
            continue
        value = _attribute_value(element, name, value, noise)
        if value and not _repeats_text(element, name, value, own_text):
            parts.append(f'{name}="{value}"')
    return "<" + " ".join(parts) + ">"


def _repeats_text(element: HtmlElement, name: str, value: str, own_text: str) -> bool:
    """A tooltip or value that only repeats the element's visible text is noise."""
    if name == "title":
        if own_text:
            return True
        shown = element.text_content() + " ".join(element.xpath(".//img/@alt"))
        return "".join(value.split()).lower() in "".join(shown.split()).lower()
    return name == "value" and value == own_text


def _attribute_value(
    element: HtmlElement, name: str, value: str, noise: Noise
) -> str | None:
    value = normalize_text(value)
    if name == "class":
        return " ".join([c for c in value.split() if not is_obfuscated_class(c)][:2]) or None
    if name == "id" and is_obfuscated_class(value):
        return None
    if name in ("href", "action"):
        return _short_url(element, value, noise)
    if len(value) > MAX_ATTRIBUTE_CHARS:
        value = value[:MAX_ATTRIBUTE_CHARS] + "…"
    return value.replace('"', "&quot;")


def _short_url(element: HtmlElement, url: str, noise: Noise) -> str:
    """URLs relative to the page's origin, without session noise, long ones cut: the shape is what matters."""
    if url.startswith("javascript:"):
        return "javascript:…"
    if noise and "?" in url:
        address, _, fragment = url.partition("#")
        path, _, query = address.partition("?")
        kept = "&".join(field for field in query.split("&") if field not in noise)
        url = path + ("?" + kept if kept else "") + ("#" + fragment if fragment else "")
    base = document_base_url(element)
    if base:
        origin = "/".join(base.split("/", 3)[:3])
        if url.startswith(origin + "/"):
            url = url[len(origin) :]
    if len(url) > MAX_URL_CHARS:
        url = url[:MAX_URL_CHARS] + "…"
    return url.replace('"', "&quot;")
