"""Learn a field from an example value (autoscraper's ``wanted_list``): ``--example "price=$10.07"``.

The user names a value they can see on the first page. The nodes holding it are found (a whole element,
a text node, or a text that carries a label before the value), and each is generalised into the same
kinds of XPath the evidence produces: anchored on the label in front of it (``Online Price:``), on a
stable class or id, or on the element's place under an anchored ancestor. Every generalisation must
give back exactly the example on its page; among those, the one that also extracts one value of the
same kind on the other seed pages, with the strongest anchor and the shortest path, wins. No model.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.candidates import (
    FieldCandidate,
    anchored_path,
    line_paths,
    page_title,
    visible_elements,
    xpath_literal,
)
from scrapesmith.induce.confidence import assessed
from scrapesmith.induce.execute import (
    SEPARATORS,
    XPathSyntaxError,
    folded,
    normalize_space,
    post_process,
    printed_text,
    run_actions,
    strip_separators,
)
from scrapesmith.induce.field_evidence import FieldConcept, concept_for, recogniser
from scrapesmith.induce.heuristic import ScoredCandidate, page_candidates, rank_pool, trusted
from scrapesmith.induce.labels import MAX_LABEL_CHARS, label_candidates
from scrapesmith.induce.ranking import learned_order
from scrapesmith.induce.titles import title_cores
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec

# what the engine weighs to tell which node holds the field, moot once the user has pointed at it: the kind the
# field's name suggests, the page's record region, the headline's neighbourhood, a distractor's label
OVERRULED = ("type", "outside", "closeness", "distractor", "avoided", "headline")
TYPED_KINDS = ("isbn13", "isbn", "money", "date", "url", "phone")
ROWS = ("tr", "li")
HEADINGS = ("th", "h1", "h2", "h3", "h4", "h5", "h6")  # the rows of a table or a list, which a record may have more or fewer of
CUT = 0.8  # a value cut out of a longer text, where another path reads it whole (as ``labelled`` in the engine)


@dataclass(frozen=True)
class Example:
    name: str
    value: str


def parse_example(text: str) -> Example:
    """``NAME=VALUE`` from the command line."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), normalize_space(html.unescape(value))  # "AT&amp;T" as the page shows it
    if not sep or not name or not value or not name.replace("_", "").replace("-", "").isalnum():
        raise ScrapesmithError(f"bad example '{text}': use NAME=VALUE, e.g. 'price=$10.07'")
    return Example(name, value)


def kind_of(value: str) -> str | None:
    """The value type an example has (an ISBN-13, a price, a date …), if any."""
    return next((kind for kind in TYPED_KINDS if recogniser(kind)(value)), None)  # type: ignore[misc]


def _label_before(element: etree._Element) -> str | None:
    """Short text right before ``element`` that reads as its label: a previous sibling or the parent's text."""
    previous = element.getprevious()
    if previous is not None and isinstance(previous.tag, str):
        text = normalize_space(previous.text_content())
        if 0 < len(text) <= MAX_LABEL_CHARS and not normalize_space(previous.tail or ""):
            return text
    parent = element.getparent()
    if parent is not None and parent.index(element) == 0:
        text = normalize_space(parent.text or "")
        if 0 < len(text) <= MAX_LABEL_CHARS:
            return text
    return None


def example_candidates(root: etree._Element, example: Example) -> list[FieldCandidate]:
    """XPaths (with a regex where the value shares its text with a label) that point at the example's nodes."""
    found: list[FieldCandidate] = []
    value = example.value
    squeezed = "".join(value.split())
    for element in visible_elements(root):
        whole = normalize_space(element.text_content())
        if whole != value and "".join(whole.split()) == squeezed:  # the same characters, lines apart on the page
            whole = normalize_space(printed_text(element))
        own = normalize_space(element.text or "")
        tail = normalize_space(element.tail or "")
        if whole == value or (own == value and len(element)):
            suffix = "" if whole == value else "/text()"
            found += [FieldCandidate(path + suffix, "class") for path in anchored_path(element, hashed=True)]
            label = _label_before(element)
            if label:
                concept = FieldConcept(example.name, (label.strip(" :").lower(),))
                found += label_candidates(root, concept)
        elif value in own and own != value:
            head = own[: own.index(value)]
            if head.strip() and len(head) <= MAX_LABEL_CHARS and own.endswith(value):
                regex = re.escape(normalize_space(head)) + r"\s*(.+)"
                found.append(FieldCandidate(f"//{element.tag}[starts-with(normalize-space(), "
                                       f"{xpath_literal(normalize_space(head))})]", "label", regex))
        if tail == value or (value in tail and tail.endswith(value)):
            label = normalize_space(element.text_content())
            if 0 < len(label) <= MAX_LABEL_CHARS:
                head = strip_separators(tail[: tail.index(value)])
                regex = re.escape(head) + r"\s*(.+)" if head else None
                found.append(FieldCandidate(f"//{element.tag}[normalize-space()={xpath_literal(label)}]"
                                       "/following-sibling::text()[1]", "label", regex))
    found += text_node_candidates(root, value)
    return list({(c.xpath, c.regex): c for c in found}.values())


def text_node_candidates(root: etree._Element, value: str) -> list[FieldCandidate]:
    """Paths to a text node that holds the value on its own line — after a ``<br>``, or between inline
    elements — which no element's text or tail alone gives a path to (:func:`candidates.line_paths`); a
    label printed in the same text node ("Phone: (325) …") is cut by a regex."""
    found: list[FieldCandidate] = []
    for text in root.xpath("//text()[normalize-space()]"):
        plain = normalize_space(str(text))
        if not plain.endswith(value):  # "…, AK, 99503 |": a separator after the value is not part of it
            plain = normalize_space(plain.rstrip(SEPARATORS))
        if plain != value and not plain.endswith(value):
            continue
        head = plain[: len(plain) - len(value)]
        if head and (len(head) > MAX_LABEL_CHARS or not head[-1].isspace() and head[-1] not in ":"):
            continue
        regex = re.escape(strip_separators(head)) + r"[\s:|–—-]*(.+)" if strip_separators(head) else None
        found += [FieldCandidate(path, evidence, regex) for path, evidence in line_paths(text, MAX_LABEL_CHARS)]
    return found


def template_row_candidates(pages: Sequence[etree._Element], value: str) -> list[FieldCandidate]:
    """A value in a table row or list item of its own with no label (a box's header row, "No. 20 Boston Celtics"),
    counted from the nearest heading row the template prints the same on every seed page ("Personal
    information") rather than from the top of its table, where rows before it come and go from record to record."""
    found: list[FieldCandidate] = []
    for element in visible_elements(pages[0]):
        if normalize_space(element.text_content()) != value or len(found) > 8:
            continue
        row, steps = element, []
        while row.getparent() is not None and len(steps) < 4:
            parent = row.getparent()
            if sum(child.tag == row.tag for child in parent) >= 3:  # a row among rows of its kind
                break
            steps.append(row.tag)
            row = parent
        parent = row.getparent()
        if parent is None or row.tag not in ROWS or sum(c.tag == row.tag for c in parent) < 3:
            continue
        rest = "".join(f"/{tag}" for tag in reversed(steps))
        for axis, siblings in (("preceding", row.itersiblings(row.tag)),
                               ("following", row.itersiblings(row.tag, preceding=True))):
            for distance, sibling in enumerate(siblings, start=1):
                text = normalize_space(sibling.text_content())
                if distance > 3 or len(text) > MAX_LABEL_CHARS:
                    break
                anchor = f"//{sibling.tag}[normalize-space()={xpath_literal(text)}]"
                heading = any(normalize_space(h.text_content()) == text for h in sibling.iter(*HEADINGS))
                # a heading the template prints on every seed, not data the seeds happen to share ("Las Vegas")
                if text and heading and all(root.xpath(anchor) for root in pages[1:]):
                    found.append(FieldCandidate(f"{anchor}/{axis}-sibling::{row.tag}[{distance}]{rest}", "label"))
                    break
    return found


def _values(root: etree._Element, candidate: FieldCandidate) -> list[str]:
    try:
        return post_process(run_actions(root, [candidate.xpath]), PostProcess(regex=candidate.regex, multiple=True))
    except XPathSyntaxError:
        return []


_LAST_POSITION = re.compile(r"\[\d+\]$")
_DIGITS_AS_ZERO = str.maketrans("0123456789", "0000000000")


def shape_candidates(root: etree._Element, values: Sequence[str]) -> list[FieldCandidate]:
    """Several values the user gave for the first page that the page prints in one shape (digits as zeros, no
    letters: "(000) 000-0000"): every text of that shape in the smallest block holding them all — the page's
    values of that kind there, however many a record has and on whatever line, where one path per value
    counts lines that move from record to record."""
    shapes = {value.translate(_DIGITS_AS_ZERO) for value in values}
    shape = next(iter(shapes))
    if len(shapes) != 1 or "0" not in shape or re.search(r"[^\W\d_]", shape):
        return []
    holders = []
    for text in root.xpath("//text()[normalize-space()]"):
        if normalize_space(str(text)) in values:
            owner = text.getparent()
            holders.append(owner.getparent() if text.is_tail else owner)
    if not holders or None in holders:
        return []
    common = [a for a in holders[0].iterancestors() if all(a in h.iterancestors() for h in holders[1:])]
    block = holders[0] if all(h is holders[0] for h in holders) else (common[0] if common else None)
    if block is None or block.tag in ("html", "body"):
        return []
    test = f"text()[translate(normalize-space(), '0123456789', '0000000000')={xpath_literal(shape)}]"
    # from an id or a class: a bare tag ("//tr") is every row of the page
    return [FieldCandidate(f"{path}//{test}", "class") for path in anchored_path(block, hashed=True)[:3] if "[@" in path]


def _example_scores(example: Example, pages: Sequence[etree._Element], pool: Sequence[FieldCandidate],
                    expected: Sequence[Sequence[str]], wanted_all: list[str] | None) -> list[tuple]:
    """The example's own generalisations scored by the example alone: coverage of the other pages, one value
    per page, the example's kind kept, the user's values for the next pages given back."""
    kind = kind_of(example.value)
    check = recogniser(kind) if kind else None
    scored = []
    for candidate in pool:
        first = _values(pages[0], candidate)
        if not first or first[0] != example.value and not (wanted_all and example.value in first):
            continue
        listed = wanted_all is not None and sorted(set(first)) == wanted_all
        others = [_values(root, candidate) for root in pages[1:]]
        typed = all(check(v[0]) for v in others if v) if check else True
        coverage = (1 + sum(bool(v) for v in others)) / len(pages)
        single = 1.0 if listed or all(len(v) <= 1 for v in [first, *others]) else 0.7
        score = candidate.prior * coverage * single * (1.0 if typed else 0.1) * (1.5 if listed else 1.0)
        if first[0] != example.value and not listed:
            continue
        score *= _expected_fit(others, expected, listed)
        scored.append((-round(score, 6), len(candidate.xpath), candidate.xpath, len(scored), listed, candidate))
    return scored


def _expected_fit(others: Sequence[Sequence[str]], expected: Sequence[Sequence[str]], listed: bool) -> float:
    """1.0, or 0.2 for every next page where the user said what it holds and the path gives something else."""
    fit = 1.0
    for values, wanted in zip(others, expected, strict=False):
        got = set(map(normalize_space, values)) if listed else {normalize_space(values[0])} if values else set()
        if wanted and not (got & set(wanted) if listed else got <= set(wanted) and got):
            fit *= 0.2
    return fit


def engine_ranked(example: Example, pages: Sequence[etree._Element],
                  pool: Sequence[FieldCandidate]) -> tuple[list[ScoredCandidate], FieldConcept]:
    """Every candidate the engine proposes for a field named like the example, with the example's own
    generalisations, scored by the engine on every page (``heuristic.rank_pool``): the one ranking of ``induce``,
    to which the example is a hard check."""
    concept = concept_for(example.name, "")
    support: dict = {}
    found: dict = {}
    cores = title_cores([folded(page_title(root)) for root in pages])
    for root, page_cores in zip(pages, cores, strict=True):
        for candidate in page_candidates(root, concept, page_cores):
            support[candidate.key] = support.get(candidate.key, 0) + 1
            found.setdefault(candidate.key, candidate)
    for candidate in pool:
        if candidate.key not in found or candidate.prior > found[candidate.key].prior:
            found[candidate.key] = candidate
            support.setdefault(candidate.key, 1)
    return rank_pool(found, support, concept, pages), concept


def _gives_example(scored: ScoredCandidate, example: Example, wanted_all: list[str] | None) -> bool | None:
    """Does the candidate give the example on the first page: True as a list of every value the user gave,
    False as one value, None when it does not give it."""
    first = scored.values[0] if scored.values else []
    if wanted_all and sorted(set(first)) == wanted_all:
        return True
    return False if first and first[0] == example.value else None


def generalise(example: Example, pages: Sequence[etree._Element], expected: Sequence[Sequence[str]] = (),
               together: Sequence[str] = ()) -> FieldSpec:
    """The best XPath for ``example`` (given on ``pages[0]``), checked on every page (see the module docstring).
    ``expected`` are the values the user gave for the next pages (autoscraper's wanted list over several
    pages): a path that gives one of them on each such page beats one that does not. ``together`` are all the
    values the user gave for the first page when there are several (three phone numbers): a path that gives
    exactly those — the example's path without its last position, when that is what they share — makes the
    field a list; when no one path gives them all, the union of each value's own path does.

    The engine's candidates for a field of the example's name and the example's own generalisations are
    ranked together by the engine (variation across the pages, kinds, labels, the page's record); among those
    that give back the example, the engine's first wins. Only when the engine trusts none does the example's
    own scoring decide."""
    wanted_all = sorted(set(together)) if len(set(together)) > 1 else None
    pool = example_candidates(pages[0], example) + template_row_candidates(pages, example.value)
    if wanted_all:
        pool += [replace(c, xpath=_LAST_POSITION.sub("", c.xpath)) for c in pool if _LAST_POSITION.search(c.xpath)]
        pool += shape_candidates(pages[0], wanted_all)
    ranked, concept = engine_ranked(example, pages, pool)
    kind = kind_of(example.value)
    check = recogniser(kind) if kind else None
    fitting = []
    for scored in ranked:
        listed = _gives_example(scored, example, wanted_all)
        if listed is None:
            continue
        for name in OVERRULED:  # the user pointed at this node: the engine's guesses about which node is the field's
            factor = scored.factors.pop(name, 1.0)
            scored.score /= factor if factor > 0 else 1.0
        if check and not all(check(page[0]) for page in scored.values[1:] if page):
            scored.weigh("example kind", 0.1)  # the example is a price; another page gives something else
        scored.weigh("expected", _expected_fit(scored.values[1:], expected, listed))
        if trusted(scored, len(pages)):
            fitting.append((listed, scored))
    _prefer_whole(fitting, pages)
    fitting.sort(key=lambda pair: (-pair[0], -round(pair[1].score, 6)))  # stable: the engine breaks ties
    if wanted_all and not any(listed for listed, _ in fitting):
        union = _union_of_values(example.name, pages, wanted_all)
        if union is not None:
            return union
    if fitting:
        listed, best = fitting[0]
        field = FieldSpec(name=example.name, instruction=f"like the example {example.value!r}",
                          actions=[best.candidate.xpath], post=PostProcess(regex=best.candidate.regex, multiple=listed,
                                                                           split=best.candidate.split),
                          evidence=f"example {example.value!r} via {best.candidate.evidence} (engine score "
                                   f"{best.score:.3f})")
        # weighed as ``induce`` weighs its first: the ranker's probability and its node's facts, no reordering;
        # a field the user gave several values for is a list, whatever its name suggests
        concept = replace(concept, multiple=concept.multiple or listed)
        return assessed(field, learned_order([s for _, s in fitting], concept, pages, reorder=False), concept)
    scored = _example_scores(example, pages, pool, expected, wanted_all)
    if not scored:
        raise ScrapesmithError(f"the example {example.name}={example.value!r} is not on the first page")
    *_, listed, best = min(scored)
    return FieldSpec(name=example.name, instruction=f"like the example {example.value!r}", actions=[best.xpath],
                     post=PostProcess(regex=best.regex, multiple=listed),
                     evidence=f"example {example.value!r} via {best.evidence}")


def _prefer_whole(fitting: Sequence[tuple[bool, ScoredCandidate]], pages: Sequence[etree._Element]) -> None:
    """A path that cuts the value out of a longer text (a regex after a label in the same text node) loses to
    one that reads the same values whole on every seed page: the page holds the value in a node of its own.
    A regex that only drops page controls ("See all") cuts nothing: every value it gives is a text read whole."""
    whole = {tuple(map(tuple, s.values)) for _, s in fitting if s.candidate.regex is None}
    for _, scored in fitting:
        if scored.candidate.regex is None or tuple(map(tuple, scored.values)) not in whole:
            continue
        read = [set(_values(root, replace(scored.candidate, regex=None))) for root in pages]
        if any(value not in texts for page, texts in zip(scored.values, read, strict=False) for value in page):
            scored.weigh("cut", CUT)


def _union_of_values(name: str, pages: Sequence[etree._Element], wanted: list[str]) -> FieldSpec | None:
    """One path per value the user gave for the first page ("18" under City, "26" under Highway), joined: a
    list field, when together they give exactly those values there."""
    paths = []
    for value in wanted:
        try:
            one = generalise(Example(name, value), pages)
        except ScrapesmithError:
            return None
        if one.post.regex or one.post.split:
            return None
        paths.append(one.actions[-1])
    xpath = " | ".join(dict.fromkeys(paths))
    first = _values(pages[0], FieldCandidate(xpath, "class"))
    if sorted(set(first)) != wanted:
        return None
    return FieldSpec(name=name, instruction=f"like the examples {wanted!r}", actions=[xpath],
                     post=PostProcess(multiple=True), evidence=f"examples {wanted!r}: one path per value, joined")


def induce_from_examples(examples: Sequence[Example], pages: Sequence[etree._Element], site: str = "",
                         seed_names: Sequence[str] = ()) -> ScraperSpec:
    """A spec with one field per example, learnt on ``pages[0]`` and checked on the rest. No model."""
    if not pages:
        raise ScrapesmithError("learning from examples needs at least one page")
    fields = [generalise(example, pages) for example in examples]
    return ScraperSpec(site=site, method="examples", seeds=list(seed_names), fields=fields)
