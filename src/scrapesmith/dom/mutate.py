r"""Seeded, generic changes to a page's layout that keep its records: what a site redesign does to a scraper
(``bench drift`` measures drift and heal with them; the demo web's layout versions are drawn with them).

Each operator is a DOM operation on any page, never written for one page or site, and deterministic for a
seed: the same decisions are taken on every page of a site (they depend on the seed and on an element's
tag, class or position, never on the page's text), as a template change would. The records stay on the
page, so a program that read them before can be mended from its seed values:

* ``classes`` — every class and id obfuscated (``price`` -> ``c-1f3a9b``);
* ``wrappers`` — the content of some kinds of element (by tag and class) wrapped in an extra ``<span>``;
* ``reorder`` — the element children of some kinds of block container (by tag and class) reversed;
* ``labels`` — label texts (short texts ending in ``:``, table and definition headers) renamed;
* ``combined`` — all four;
* ``headings``, ``tables``, ``icons`` and ``split`` (``TEMPLATE_MUTATIONS`` only, not drift's set): headings
  drawn as styled ``div``\ s; tables of two-cell rows drawn as definition lists or ``div`` rows; label texts
  moved into an attribute of their element (an icon's ``aria-label`` or ``title``), the element left empty;
  texts drawn across inline elements (every word after the first in a ``<span>``).

One more kind changes what the records *say*, not only where: ``formats`` — classes obfuscated as above, and
amounts written another way (``$53,310`` -> ``USD 53310``, ``1,024`` -> ``1024``), so the seed values of
such fields are no longer on the page and heal must find them by other evidence. It is not a layout version
and not among the default layout ``MUTATIONS``; ``reformat_text`` maps a value read before to how the
changed page writes it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from lxml import etree, html

Mutation = Callable[[etree._Element, int], None]
BLOCKS = ("div", "ul", "ol", "table", "tbody", "tr", "dl", "section", "article", "form", "td")
WRAPPED = ("div", "td", "li", "span", "p", "dd", "b", "strong", "h1", "h2", "h3", "font")
LABEL_TAGS = ("th", "dt", "label")
MAX_LABEL = 40
WRAP_SHARE = 0.5
REORDER_SHARE = 0.5


def _token(seed: int, *parts: str) -> str:
    return hashlib.sha256("\x1f".join([str(seed), *parts]).encode()).hexdigest()[:6]


def _chance(seed: int, *parts: str) -> float:
    return int(_token(seed, *parts), 16) / 0xFFFFFF


def rename_classes(root: etree._Element, seed: int) -> None:
    """Every class token and id replaced by an opaque one, the same on every page."""
    for element in root.iter(etree.Element):
        classes = element.get("class")
        if classes:
            element.set("class", " ".join(f"c-{_token(seed, 'class', c)}" for c in classes.split()))
        if element.get("id"):
            element.set("id", f"i-{_token(seed, 'id', element.get('id'))}")


def add_wrappers(root: etree._Element, seed: int) -> None:
    """Half of the element kinds (tag and class) get their content wrapped in a new ``<span>``."""
    chosen = [e for e in root.iter(*WRAPPED)
              if _chance(seed, "wrap", e.tag, e.get("class") or "") < WRAP_SHARE and (len(e) or e.text)]
    for element in chosen:
        wrapper = etree.Element("span", {"class": f"w-{_token(seed, 'wrapper', element.tag)}"})
        wrapper.text, element.text = element.text, None
        for child in list(element):
            wrapper.append(child)
        element.append(wrapper)


def reorder_blocks(root: etree._Element, seed: int) -> None:
    """The element children of half of the kinds of block container (by tag and class) in reverse order: a
    label cell after its value, the last box of a column first, on every page alike."""
    for parent in list(root.iter(*BLOCKS)):
        children = [c for c in parent if isinstance(c.tag, str)]
        if len(children) < 2 or len(children) != len(parent):  # text between children would move too
            continue
        if _chance(seed, "reorder", parent.tag, parent.get("class") or "") >= REORDER_SHARE:
            continue
        for child in children:
            parent.remove(child)
        for child in reversed(children):
            parent.append(child)


def _renamed(text: str, seed: int) -> str:
    stripped = text.strip()
    colon = stripped.endswith(":")
    return f"Item {_token(seed, 'label', stripped.rstrip(':').strip().lower())}" + (":" if colon else "")


def _is_label(text: str | None) -> bool:
    stripped = (text or "").strip()
    return 1 < len(stripped) <= MAX_LABEL and stripped.endswith(":") and any(ch.isalpha() for ch in stripped)


def relabel(root: etree._Element, seed: int) -> None:
    """Label texts renamed: short texts ending in ``:`` and the text of table/definition headers and labels."""
    for element in root.iter(etree.Element):
        if element.tag in ("script", "style"):
            continue
        if _is_label(element.text) or (element.tag in LABEL_TAGS and element.text and len(element) == 0
                                       and 0 < len(element.text.strip()) <= MAX_LABEL):
            element.text = _renamed(element.text or "", seed)
        if _is_label(element.tail):
            element.tail = " " + _renamed(element.tail or "", seed) + " "


def combined(root: etree._Element, seed: int) -> None:
    for operator in (rename_classes, add_wrappers, reorder_blocks, relabel):
        operator(root, seed)


MUTATIONS: dict[str, Mutation] = {"classes": rename_classes, "wrappers": add_wrappers, "reorder": reorder_blocks,
                                  "labels": relabel, "combined": combined}


_AMOUNT = re.compile(r"([$£€])\s?(\d[\d,]*(?:\.\d+)?)")
_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_CURRENCY_CODES = {"$": "USD", "£": "GBP", "€": "EUR"}


def reformat_text(text: str) -> str:
    """Amounts written another way: a currency sign becomes its code before the number, thousands
    separators go (``$1,299.00`` -> ``USD 1299.00``); other text is unchanged."""
    text = _AMOUNT.sub(lambda m: f"{_CURRENCY_CODES[m.group(1)]} {m.group(2)}", text)
    return _GROUPED.sub(lambda m: m.group(0).replace(",", ""), text)


def reformat_values(root: etree._Element, seed: int) -> None:
    """Every text and tail on the page through :func:`reformat_text` (the seed is not needed: a site's new
    number format is one format)."""
    for element in root.iter(etree.Element):
        if element.tag in ("script", "style"):
            continue
        if element.text:
            element.text = reformat_text(element.text)
        if element.tail:
            element.tail = reformat_text(element.tail)


def formats(root: etree._Element, seed: int) -> None:
    rename_classes(root, seed)
    reformat_values(root, seed)


VALUE_MUTATIONS: dict[str, Mutation] = {"formats": formats}
"""Mutations that change the records' text as well as the layout (not among the default ``MUTATIONS``)."""


def styled_headings(root: etree._Element, seed: int) -> None:
    """Every heading (``h1``-``h6``) drawn as a styled ``div``, as templates that size text by CSS do."""
    for heading in list(root.iter("h1", "h2", "h3", "h4", "h5", "h6")):
        level = heading.tag
        heading.tag = "div"
        heading.set("class", " ".join(filter(None, [heading.get("class"), f"t-{_token(seed, 'heading', level)}"])))


def _pair_rows(table: etree._Element) -> list[etree._Element] | None:
    """The table's rows when it reads as label/value pairs: every row one or two cells (a heading row, a
    pair), at least two pairs, and no table inside."""
    rows = [r for r in table.iter("tr") if next(r.iterancestors("table"), None) is table]
    if any(t is not table for t in table.iter("table")) or any(
            not 1 <= len(r) <= 2 or any(c.tag not in ("td", "th") for c in r) for r in rows):
        return None
    return rows if sum(len(r) == 2 for r in rows) >= 2 else None


def _moved(source: etree._Element, tag: str, cls: str) -> etree._Element:
    """A new ``tag`` element holding ``source``'s content (text and children)."""
    target = etree.Element(tag, {"class": cls})
    target.text = source.text
    for child in list(source):
        target.append(child)
    return target


def rows_as_pairs(root: etree._Element, seed: int) -> None:
    """Tables of label/value rows drawn as a definition list (even seeds) or as rows of ``div``/``span`` (odd
    seeds): the same facts in another template's markup. A one-cell row (a heading) stays a line of its own."""
    listed = seed % 2 == 0
    for table in list(root.iter("table")):
        rows = _pair_rows(table)
        parent = table.getparent()
        if rows is None or parent is None:
            continue
        box = etree.Element("dl" if listed else "div", {"class": f"p-{_token(seed, 'pairs')}"})
        for row in rows:
            if len(row) == 1:
                box.append(_moved(row[0], "dt" if listed else "div", f"h-{_token(seed, 'head')}"))
            elif listed:
                box.append(_moved(row[0], "dt", f"k-{_token(seed, 'k')}"))
                box.append(_moved(row[1], "dd", f"v-{_token(seed, 'v')}"))
            else:
                line = etree.SubElement(box, "div", {"class": f"r-{_token(seed, 'row')}"})
                line.append(_moved(row[0], "span", f"k-{_token(seed, 'k')}"))
                line.append(_moved(row[1], "span", f"v-{_token(seed, 'v')}"))
        box.tail = table.tail
        parent.replace(table, box)


ICON_ATTRIBUTES = ("aria-label", "title")


def labels_as_icons(root: etree._Element, seed: int) -> None:
    """Label texts drawn as icons: an element whose whole text is a label (as :func:`relabel` finds them) keeps
    its tag and place but no text, and says the label in an attribute a screen reader or a tooltip reads
    (``aria-label`` for even seeds, ``title`` for odd ones), as templates that show a symbol for "Phone:" do."""
    attribute = ICON_ATTRIBUTES[seed % 2]
    for element in list(root.iter(etree.Element)):
        if element.tag in ("script", "style") or len(element) or not element.text:
            continue
        if _is_label(element.text) or (element.tag in LABEL_TAGS and 0 < len(element.text.strip()) <= MAX_LABEL):
            element.set(attribute, element.text.strip())
            element.text = None


SPLIT_SHARE = 0.5


def _split_off(text: str) -> tuple[str, str] | None:
    """``"Adams Media (June 2010)"`` -> ``("Adams ", "Media (June 2010)")``: the first word and the rest."""
    lead = text[:len(text) - len(text.lstrip())]
    head, space, rest = text.lstrip().partition(" ")
    return (f"{lead}{head} ", rest) if space and rest.strip() and not text.strip().endswith(":") else None


def split_values(root: etree._Element, seed: int) -> None:
    """Texts of half of the element kinds (by tag and class) split across inline elements: every word after
    the first drawn in a ``<span>`` of its own (``Adams <span>Media</span>``), in an element's own text and in
    the text after it, as templates that mark a name's parts or a price's cents do; labels (texts ending in
    ``:``) stay whole. What a reader sees is unchanged."""
    chosen = [e for e in root.iter(*WRAPPED, "a", "i", "em", "dt", "th", "li")
              if _chance(seed, "split", e.tag, e.get("class") or "") < SPLIT_SHARE]
    for element in chosen:
        cls = f"s-{_token(seed, 'split', element.tag)}"
        parts = _split_off(element.text or "")
        if parts:
            element.text = parts[0]
            part = etree.Element("span", {"class": cls})
            part.text = parts[1]
            element.insert(0, part)
        parent = element.getparent()
        tail = _split_off(element.tail or "")
        if tail and parent is not None and parent.tag not in ("script", "style"):
            element.tail = tail[0]
            part = etree.Element("span", {"class": cls})
            part.text = tail[1]
            element.addnext(part)


TEMPLATE_MUTATIONS: dict[str, Mutation] = {**MUTATIONS, "headings": styled_headings, "tables": rows_as_pairs,
                                           "icons": labels_as_icons, "split": split_values}
"""What another site's template may change, for ``bench swde --mutate``: the drift kinds above and four
more (headings drawn as styled divs, two-cell table rows as definition lists or div rows, labels as icons,
values split across inline elements)."""


def mutate_page(text: str, mutation: str, seed: int = 0) -> str:
    """The page ``text`` with ``mutation`` (a layout or a value mutation) applied, serialised again as HTML."""
    root = html.document_fromstring(text)
    (TEMPLATE_MUTATIONS.get(mutation) or VALUE_MUTATIONS[mutation])(root, seed)
    return html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")


LAYOUT_VERSIONS = ("classes", "wrappers", "reorder", "labels", "combined")
"""Layout version N (1-based) of a site is its pages under this mutation, seeded with N."""


def check_layout_version(version: int) -> None:
    if not 0 <= version <= len(LAYOUT_VERSIONS):
        raise ValueError(f"layout version {version} does not exist (0 to {len(LAYOUT_VERSIONS)})")


def layout_version(text: str, version: int) -> str:
    """The page as layout ``version`` draws it (0: as it is)."""
    check_layout_version(version)
    return mutate_page(text, LAYOUT_VERSIONS[version - 1], seed=version) if version else text
