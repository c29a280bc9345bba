"""Label → value pairs a page prints, whatever the field: the general key/value detector, and sections.

Detail pages print most facts as pairs: a table row (``<th>Height</th><td>6-8</td>``, ``<td>Institutional
Control:</td><td>Private</td>``), a definition list (``<dt>Company:</dt><dd>Acme</dd>``), a label ending in a
colon before its value (``<b>Publisher:</b> Knopf``, ``<span>Setting:</span> <span>urban</span>``) or one
text holding both (``<li>Year founded: 1906</li>``). Nothing here knows a field: any label counts.

Two uses:

* *sections*: a heading opens a run of pairs ("Fuel Economy" above "City (mpg) 18" and "Highway (mpg) 26")
  that ends at the next heading built like it. When the heading names the field and the rows do not, the
  section's values are the field's, each found from the heading onward by its own row label
  (``//h3[…='Fuel Economy']/following::td[…='City (mpg)'][1]/following-sibling::td[1]``), so the path holds
  on a page whose other sections have rows with the same labels;
* the model as chooser (``choose.py``): where no label names the field, the pairs found on every seed page
  are the options it chooses among.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, outer_box, step_for, visible_elements, xpath_literal
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.kinds import is_plain_number, label_unit
from scrapesmith.induce.labels import LABEL_STRIP, MAX_LABEL_CHARS, label_evidence
from scrapesmith.induce.regions import chrome_markup

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "caption", "legend"})
CELLS = ("td", "th")
MAX_LABEL_WORDS = 6
MAX_SECTION_ROWS = 12


@dataclass(frozen=True)
class Pair:
    """One label and the way from it to its value: ``//{anchor}{path}``, then ``regex`` when both share a text."""

    label: str
    anchor: str
    path: str
    element: etree._Element = field(compare=False, hash=False, repr=False)
    regex: str | None = None

    @property
    def xpath(self) -> str:
        return f"//{self.anchor}{self.path}"

    def after(self, heading: str) -> str:
        """The same value, looked up as the first such label after ``heading``."""
        return f"{heading}/following::{self.anchor}[1]{self.path}"

    def candidate(self, evidence: str = "pair") -> FieldCandidate:
        return FieldCandidate(self.xpath, evidence, self.regex, unit=label_unit(self.label))


def _label_text(element: etree._Element) -> str | None:
    """The element's whole text when it reads as a label: short, a few words, with a letter, not a number."""
    whole = normalize_space(element.text_content())
    plain = whole.strip(LABEL_STRIP)
    if not plain or len(whole) > MAX_LABEL_CHARS or len(plain.split()) > MAX_LABEL_WORDS:
        return None
    if not re.search(r"[^\W\d_]", plain) or is_plain_number(plain):
        return None
    return whole


def _is_link(element: etree._Element) -> bool:
    return element.tag == "a" or any(a.tag == "a" for a in element.iterancestors("a"))


def _row_pair(row: etree._Element) -> Pair | None:
    """``<tr><th>Height</th><td>6-8</td></tr>``: a row of two cells with text, the first a label."""
    cells = [c for c in row if c.tag in CELLS]
    filled = [c for c in cells if normalize_space(c.text_content())]
    if len(cells) < 2 or len(filled) != 2 or filled[0] is not cells[0] or cells[0].get("colspan"):
        return None
    label = _label_text(cells[0])
    if label is None:
        return None
    return Pair(label.strip(LABEL_STRIP), f"{cells[0].tag}[normalize-space()={xpath_literal(label)}]",
                f"/following-sibling::{filled[1].tag}[1]", cells[0])


def _term_pair(term: etree._Element) -> Pair | None:
    """``<dt>Company:</dt><dd>Acme</dd>``."""
    following = term.getnext()
    label = _label_text(term)
    if label is None or following is None or following.tag != "dd" or not normalize_space(following.text_content()):
        return None
    return Pair(label.strip(LABEL_STRIP), f"dt[normalize-space()={xpath_literal(label)}]",
                "/following-sibling::dd[1]", term)


def _colon_pairs(element: etree._Element) -> list[Pair]:
    """``<b>Publisher:</b> Knopf`` or ``<span>Setting:</span> <span>urban</span>``: a label ending in a colon,
    then its tail text or its next element; ``<li>Year founded: 1906</li>``: both in one text."""
    if element.tag in CELLS or element.tag in ("dt", "dd", "tr") or _is_link(element) or len(element) > 2:
        return []
    whole = normalize_space(element.text_content())
    label = _label_text(element) if whole.endswith((":", "：")) else None
    if label is not None:
        anchor = f"{element.tag}[normalize-space()={xpath_literal(label)}]"
        following = element.getnext()
        if normalize_space(element.tail or "").strip(LABEL_STRIP):
            return [Pair(label.strip(LABEL_STRIP), anchor, "/following-sibling::text()[1]", element)]
        if following is not None and isinstance(following.tag, str) and normalize_space(following.text_content()):
            return [Pair(label.strip(LABEL_STRIP), anchor, f"/following-sibling::{following.tag}[1]", element)]
        return []
    head, colon, rest = whole.partition(":")
    if len(element) or not colon or not rest.strip() or _label_text_of(head) is None:
        return []
    prefix = normalize_space(head) + ":"
    return [Pair(normalize_space(head), f"{element.tag}[starts-with(normalize-space(), {xpath_literal(prefix)})]",
                 "", element, re.escape(prefix) + r"\s*(.+)")]


def _label_text_of(text: str) -> str | None:
    plain = normalize_space(text)
    if not plain or len(plain) > MAX_LABEL_CHARS or len(plain.split()) > MAX_LABEL_WORDS:
        return None
    return plain if re.search(r"[^\W\d_]", plain) and not is_plain_number(plain) else None


def _in_chrome(element: etree._Element) -> bool:
    return any(chrome_markup(node) for node in (element, *element.iterancestors()))


def page_pairs(root: etree._Element) -> list[Pair]:
    """Every label → value pair on one page outside its chrome, in document order (a label printed in two
    sections gives two pairs with one path)."""
    found: list[Pair] = []
    for element in visible_elements(root):
        if element.tag == "tr":
            pairs = [p for p in [_row_pair(element)] if p]
        elif element.tag == "dt":
            pairs = [p for p in [_term_pair(element)] if p]
        else:
            pairs = _colon_pairs(element)
        found += [pair for pair in pairs if not _in_chrome(pair.element)]
    return found


def shared_pairs(seeds: Sequence[etree._Element]) -> list[Pair]:
    """The pairs whose label every seed page prints (the site's template), one per path, in the first page's
    order."""
    if not seeds:
        return []
    keys = [{(p.xpath, p.regex) for p in page_pairs(root)} for root in seeds[1:]]
    first = {(p.xpath, p.regex): p for p in reversed(page_pairs(seeds[0]))}
    return [p for key, p in reversed(first.items()) if all(key in k for k in keys)]


def _headings(root: etree._Element) -> list[etree._Element]:
    """Headings (``h1``–``h6``, captions, legends) and header cells of a row with no data cell."""
    found = []
    for element in visible_elements(root):
        if element.tag in HEADING_TAGS or (element.tag == "th" and element.getparent() is not None and not any(
                c.tag == "td" and normalize_space(c.text_content()) for c in element.getparent())):
            found.append(element)
    return found


def _signature(heading: etree._Element) -> tuple[str, str]:
    """Headings of sibling sections are built alike: the same tag in the same kind of parent. The parent is
    looked at through wrappers (the outermost box that holds only it), which a template may add to every cell
    alike and which would make a section's heading and a heading inside its rows look built alike."""
    parent = heading.getparent()
    return heading.tag, step_for(outer_box(parent)) if parent is not None else ""


def section_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """The values of the pairs under a heading that names the field (see the module docstring)."""
    if concept.headline:
        return []
    headings = _headings(root)
    named = [h for h in headings if label_evidence(normalize_space(h.text_content()), concept)]
    if not named:
        return []
    order = {element: index for index, element in enumerate(root.iter())}
    pairs = [p for p in page_pairs(root) if p.regex is None]
    found = []
    for heading in named:
        start = order[heading]
        end = next((order[h] for h in headings if order[h] > start and _signature(h) == _signature(heading)),
                   len(order))
        rows = [p for p in pairs if start < order[p.element] < end]
        if not rows or len(rows) > MAX_SECTION_ROWS or any(label_evidence(p.label, concept) for p in rows):
            continue  # a row the field's own label names is found by that label, and more precisely
        text = normalize_space(heading.text_content())
        anchor = f"//{heading.tag}[normalize-space()={xpath_literal(text)}]"
        units = {label_unit(p.label) for p in rows}
        found.append(FieldCandidate(" | ".join(p.after(anchor) for p in rows), "section", several=True,
                               unit=units.pop() if len(units) == 1 else None))
    return found
