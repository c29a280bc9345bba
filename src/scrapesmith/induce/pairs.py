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

from scrapesmith.induce.candidates import (
    FieldCandidate,
    icon_label,
    outer_box,
    step_for,
    value_before_label,
    visible_elements,
    xpath_literal,
)
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.kinds import is_plain_number, label_unit, names_another_kind, telling_check
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

    def before(self, heading: str) -> str:
        """The same value, looked up as the nearest such label before ``heading``."""
        return f"{heading}/preceding::{self.anchor}[1]{self.path}"

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


def _label_anchor(element: etree._Element) -> tuple[str, str] | None:
    """(label, step) for an element that reads as a label: by its text (``dt[normalize-space()='Company:']``),
    or, when it shows none, by the attribute of the icon it draws (``dt[@title='Company:']``)."""
    label = _label_text(element)
    if label is not None:
        return label, f"{element.tag}[normalize-space()={xpath_literal(label)}]"
    shown = icon_label(element)
    if shown is None or _label_text_of(shown[0]) is None:
        return None
    return shown[0], f"{element.tag}{shown[1]}"


def _is_link(element: etree._Element) -> bool:
    return element.tag == "a" or any(a.tag == "a" for a in element.iterancestors("a"))


def _row_pair(row: etree._Element) -> list[Pair]:
    """``<tr><th>Height</th><td>6-8</td></tr>``: a row of two cells with text, the first a label; or the last
    one (a template that prints the value first), which only the seed pages together tell apart
    (``shared_pairs``)."""
    cells = [c for c in row if c.tag in CELLS]
    filled = [c for c in cells if normalize_space(c.text_content()) or icon_label(c)]
    if len(cells) < 2 or len(filled) != 2:
        return []
    ways = [(filled[0], filled[1], "following")] if filled[0] is cells[0] and not cells[0].get("colspan") else []
    if filled[1] is cells[-1] and not cells[-1].get("colspan"):
        ways.append((filled[1], filled[0], "preceding"))
    found = []
    for label_cell, value_cell, axis in ways:
        labelled = _label_anchor(label_cell)
        if labelled is not None and normalize_space(value_cell.text_content()):
            found.append(Pair(labelled[0].strip(LABEL_STRIP), labelled[1], f"/{axis}-sibling::{value_cell.tag}[1]",
                              label_cell))
    return found


def _term_pair(term: etree._Element) -> Pair | None:
    """``<dt>Company:</dt><dd>Acme</dd>``."""
    before = value_before_label(term)  # "<dd>Acme</dd><dt>Company:</dt>": a template printing values first
    following = term.getprevious() if before else term.getnext()
    labelled = _label_anchor(term)
    if labelled is None or following is None or following.tag != "dd" or not normalize_space(following.text_content()):
        return None
    return Pair(labelled[0].strip(LABEL_STRIP), labelled[1], f"/{'preceding' if before else 'following'}-sibling::dd[1]",
                term)


def _colon_pairs(element: etree._Element) -> list[Pair]:
    """``<b>Publisher:</b> Knopf`` or ``<span>Setting:</span> <span>urban</span>``: a label ending in a colon,
    then its tail text or its next element; ``<li>Year founded: 1906</li>``: both in one text."""
    if element.tag in CELLS or element.tag in ("dt", "dd", "tr") or _is_link(element) or len(element) > 2:
        return []
    whole = normalize_space(element.text_content())
    labelled = _label_anchor(element) if whole.endswith((":", "：")) or not (whole or len(element)) else None
    if labelled is not None:
        label, anchor = labelled
        following = element.getnext()
        if normalize_space(element.tail or "").strip(LABEL_STRIP):
            return [Pair(label.strip(LABEL_STRIP), anchor, "/following-sibling::text()[1]", element)]
        if following is not None and isinstance(following.tag, str) and normalize_space(following.text_content()):
            return [Pair(label.strip(LABEL_STRIP), anchor, f"/following-sibling::{following.tag}[1]", element)]
        return []
    head, colon, rest = whole.partition(":")
    if len(element) or not colon or not rest.strip() or rest.startswith("//") or _label_text_of(head) is None:
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


def page_pairs(root: etree._Element, both_ways: bool = False) -> list[Pair]:
    """Every label → value pair on one page outside its chrome, in document order (a label printed in two
    sections gives two pairs with one path). A row of two label-like cells is read label first unless
    ``both_ways`` (what only several pages together tell apart)."""
    found: list[Pair] = []
    for element in visible_elements(root):
        if element.tag == "tr":
            pairs = _row_pair(element)
        elif element.tag == "dt":
            pairs = [p for p in [_term_pair(element)] if p]
        else:
            pairs = _colon_pairs(element)
        found += [pair for pair in pairs if not _in_chrome(pair.element)]
    return found if both_ways else _one_way(found)


def shared_pairs(seeds: Sequence[etree._Element]) -> list[Pair]:
    """The pairs whose label every seed page prints (the site's template), one per path, in the first page's
    order."""
    if not seeds:
        return []
    keys = [{(p.xpath, p.regex) for p in page_pairs(root, both_ways=True)} for root in seeds[1:]]
    first = {(p.xpath, p.regex): p for p in reversed(page_pairs(seeds[0], both_ways=True))}
    shared = [p for key, p in reversed(first.items()) if all(key in k for k in keys)]
    return _one_way(shared)


def _one_way(pairs: list[Pair]) -> list[Pair]:
    """A row read both ways keeps its label-first reading (as most rows are); the other stays where it is the
    row's only one."""
    forward = {p.element.getparent() for p in pairs if p.element.tag in CELLS and p.path.startswith("/following")}
    return [p for p in pairs if p.element.tag not in CELLS or p.path.startswith("/following")
            or p.element.getparent() not in forward]


def unnamed_candidates(seeds: Sequence[etree._Element], concept: FieldConcept) -> list[FieldCandidate]:
    """The values of the template's pairs whatever their labels say, for a field whose kind has a telling look
    (``kinds.telling_check``): a page may label a company "Employer", "Hiring firm" or a word nobody foresaw,
    and its value still reads as a company. The path keeps the page's own label as its anchor, which holds
    when classes, wrappers and the order of blocks change; scoring asks the values to have the telling look
    and to vary across the seeds. A pair whose label asks for another kind is left to that kind."""
    if concept.headline or concept.avoid or telling_check(concept.kind) is None:
        return []  # a kind with look-alike distractors (a list price beside the price) needs its label's words
    return [pair.candidate("unnamed") for pair in shared_pairs(seeds)
            if not names_another_kind(pair.label, concept.kind)]


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
        alike = [order[h] for h in headings if _signature(h) == _signature(heading)]
        end = next((o for o in alike if o > start), len(order))
        begin = max((o for o in alike if o < start), default=-1)
        text = normalize_space(heading.text_content())
        anchor = f"//{heading.tag}[normalize-space()={xpath_literal(text)}]"
        # the rows under the heading; in a template that prints a block's parts in reverse, the rows above it
        for rows, path, evidence in (([p for p in pairs if start < order[p.element] < end], Pair.after, "section"),
                                     ([p for p in pairs if begin < order[p.element] < start and not
                                       text.endswith((":", "："))], Pair.before, "section above")):
            if not rows or len(rows) > MAX_SECTION_ROWS or any(label_evidence(p.label, concept) for p in rows):
                continue  # a row the field's own label names is found by that label, and more precisely
            units = {label_unit(p.label) for p in rows}
            found.append(FieldCandidate(" | ".join(path(p, anchor) for p in rows), evidence, several=True,
                                        unit=units.pop() if len(units) == 1 else None))
    return found
