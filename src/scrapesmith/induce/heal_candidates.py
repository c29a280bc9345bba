"""Where a broken field may be now: every way to its seed values on the changed seed pages, for ``heal``.

The engine that learns a field from an example proposes (:func:`examples.example_candidates`: the value's
element, its label, its stable classes); to that, what a redesign leaves of the old selector and of the page:
a label whose text now holds the value, a label now beside the value (after it, or before it as a link),
the old selector's conditions on its nodes and its label spellings, the old selector read from the other end
(a block whose children were reversed), a multi-valued field's values as like siblings, two label spellings
seen on different seed pages joined into one step, and a renamed label opened to the spellings no seed page
shows, in its place. Each candidate carries a weight (the old shape, or a path inside the old selector's nodes,
counts more); :mod:`scrapesmith.induce.heal` scores them on the pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Literal

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, xpath_literal
from scrapesmith.induce.examples import Example, example_candidates
from scrapesmith.induce.execute import normalize_space, post_process
from scrapesmith.induce.labels import MAX_LABEL_CHARS
from scrapesmith.induce.views import FieldSpec, PostProcess

NARROW_FIRST = 0.99
"""A selector generalised from the first value to all its siblings wins only by giving back more values."""
NEW_CONDITIONS = 0.995
"""A selector that keeps the old one's conditions on its nodes wins over one without them, all else equal."""
SAME_SHAPE = 1.25
"""A selector shaped like the old one (the same steps and tests, other names: ``//div[@class='q7']`` for
``//div[@class='author_name']``) wins over a differently built one that gives the seed values back too: a
redesign renames more often than it rebuilds, and the old shape is what was known to read the same nodes on
every page, where another path that fits the seeds (a label that reads "Author:" on them but "Authors:" on a
page with two) may not."""
_LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"")
_LABEL_STEP = re.compile(r"//[\w-]+\[normalize-space\(\)\s*=[^\]]*\](?=/)")
_LAST_POSITION = re.compile(r"\[\d+\](?=(/text\(\))?$)")


def _label_text_candidates(root: etree._Element, value: str) -> list[FieldCandidate]:
    """A text right after a short label element that *contains* the value (``Knopf (May 2010)`` after
    ``<b>Publisher:</b>``): the old field's regex may still cut the value out of it."""
    found = []
    for element in root.iter(etree.Element):
        if value in (element.tail or "") and 0 < len(label := normalize_space(element.text_content())) <= MAX_LABEL_CHARS:
            found.append(FieldCandidate(f"//{element.tag}[normalize-space()={xpath_literal(label)}]"
                                   "/following-sibling::text()[1]", "label"))
    return found


def _label_beside_candidates(root: etree._Element, value: str, post: PostProcess) -> list[FieldCandidate]:
    """An element holding the value with a short label as its sibling element right before or after it (a
    row whose cells were swapped; a label cell whose text is a link, which induce's labels skip): anchored
    on that label, ``//td[normalize-space()='Height']/preceding-sibling::td[1]``. The element holds the value
    as the field reads it: whole, or cut out by the field's own regex (``6 ft 5 in (1.96 m)`` for a height
    that read ``6 ft 5 in``)."""
    found = []
    single = post.model_copy(update={"multiple": False, "split": None})
    for element in root.iter(etree.Element):
        text = normalize_space(element.text_content())
        if text != value and not (post.regex and value in text and post_process([text], single) == [value]):
            continue
        for sibling, axis in ((element.getnext(), "preceding-sibling"), (element.getprevious(), "following-sibling")):
            if sibling is None or not isinstance(sibling.tag, str):
                continue
            label = normalize_space(sibling.text_content())
            if 0 < len(label) <= MAX_LABEL_CHARS and label != value:
                path = f"//{sibling.tag}[normalize-space()={xpath_literal(label)}]/{axis}::{element.tag}"
                found.append(FieldCandidate(path if post.multiple else f"{path}[1]", "label"))
    return found


def _every_sibling(candidate: FieldCandidate) -> FieldCandidate | None:
    """``…/a[1]`` -> ``…/a``: the first of several values generalised to all its like siblings."""
    widened = _LAST_POSITION.sub("", candidate.xpath)
    return FieldCandidate(widened, candidate.evidence, candidate.regex) if widened != candidate.xpath else None


def _conditions(xpath: str) -> list[str]:
    """The predicates on the last step of ``xpath`` that name no class, id or position (``[starts-with(
    following-sibling::text()[1], '(Author')]``): what the forged program asked of its nodes beyond where
    they were, which a redesign that kept the records usually keeps too."""
    depth, start, groups, last_slash = 0, 0, [], 0
    for index, char in enumerate(xpath):
        if char == "[":
            depth += 1
            if depth == 1:
                start = index
        elif char == "]":
            depth -= 1
            if depth == 0:
                groups.append((start, xpath[start: index + 1]))
        elif char == "/" and depth == 0:
            last_slash = index
    return [group for at, group in groups if at > last_slash and "@class" not in group and "@id" not in group
            and not group[1:-1].strip().isdigit()]


def label_step(xpath: str) -> str | None:
    """The first step of a label-anchored XPath (``//h4[normalize-space()='Director:' or …]``), if it is one."""
    match = _LABEL_STEP.match(xpath)
    return match.group(0) if match else None


def _with_old_label(candidate: FieldCandidate, old_step: str | None) -> FieldCandidate | None:
    """The candidate anchored on the old field's label step instead of its own (every spelling the forged
    program knew: 'Director:' and 'Directors:'), when both anchor on a label."""
    new_step = label_step(candidate.xpath)
    if old_step is None or new_step is None or new_step == old_step:
        return None
    return FieldCandidate(old_step + candidate.xpath[len(new_step):], candidate.evidence, candidate.regex)


MAX_SEEN_LABELS = 40
"""A label step is opened to unseen spellings only where the seed pages show at most this many labels of its tag."""


def unseen_spellings(old_step: str | None, roots: Sequence[etree._Element]) -> Callable[[FieldCandidate],
                                                                                       FieldCandidate | None]:
    """Open a renamed label to the spellings the seed pages never show: ``//h4[normalize-space()='Item 5f:' or
    (a label of that tag none of the seed pages shows)]``. The old label step knew several spellings
    ('Director:' and 'Directors:': the site words the label by its values) and none of them is on the changed
    seed pages (the labels were renamed); a candidate anchored on the new label knows fewer spellings than the
    old one did, so the others are renamed too, to texts no seed page shows. Every label of that tag the seed
    pages do show belongs to the new spellings or to something else; a short label of that tag never seen
    there, ending as the new one does, *in the new label's place* — its rank among the elements of its tag,
    the same on every seed page (else it is not opened) — is the field's under another of its spellings. On
    the seed pages it reads what the candidate reads (every label there is seen), so only other pages tell
    them apart."""
    old = _LITERAL.findall(old_step or "")
    if len(old) < 2 or any(root.xpath(old_step) for root in roots):
        return lambda candidate: None

    def opened(candidate: FieldCandidate) -> FieldCandidate | None:
        step = label_step(candidate.xpath)
        spellings = _LITERAL.findall(step or "")
        if step is None or not spellings or len(spellings) >= len(old):
            return None
        tag, condition = step[2:].split("[", 1)
        ranks = {len(label.xpath(f"preceding::{tag}")) for root in roots for label in root.xpath(step)}
        if len(ranks) != 1 or any(len(root.xpath(step)) != 1 for root in roots):
            return None  # no one place: the label moves among the others from page to page
        colon = all(literal[1:-1].endswith(":") for literal in spellings)
        seen = sorted({text for root in roots for element in root.iter(tag)
                       if 0 < len(text := normalize_space(element.text_content())) <= MAX_LABEL_CHARS
                       and (text.endswith(":") or not colon)} - {literal[1:-1] for literal in spellings})
        if len(seen) > MAX_SEEN_LABELS:
            return None
        ending = "substring(normalize-space(), string-length(normalize-space()))=':' and " if colon else ""
        place = f"count(preceding::{tag})={ranks.pop()} and string-length(normalize-space()) > 0"
        unseen = " and ".join([place, f"{ending}string-length(normalize-space()) <= {MAX_LABEL_CHARS}",
                               *(f"normalize-space()!={xpath_literal(text)}" for text in seen)])
        return FieldCandidate(f"//{tag}[{condition[:-1]} or ({unseen})]{candidate.xpath[len(step):]}",
                              candidate.evidence, candidate.regex)
    return opened


def _with_conditions(candidate: FieldCandidate, conditions: Sequence[str]) -> FieldCandidate | None:
    if not conditions or candidate.xpath.endswith(")"):  # text() or a function: no element step to qualify
        return None
    return FieldCandidate(candidate.xpath + "".join(conditions), candidate.evidence, candidate.regex)


_NAMED_STEP = re.compile(r"([\w-]+)\[@(class|id)=('[^']*'|\"[^\"]*\")\]")
_LABEL_TEXT_STEP = re.compile(r"([\w-]+)\[normalize-space\(\)=('[^']*'|\"[^\"]*\")"
                              r"(?: or normalize-space\(\)=(?:'[^']*'|\"[^\"]*\"))*\]")
MAX_RENAMINGS = 300


def reanchored(xpath: str, roots: Sequence[etree._Element], anchor: Literal["class", "label"]) -> list[FieldCandidate]:
    """The old selector with its one anchor set to each that elements of the anchor's tag carry on every page
    of ``roots``: a redesign that renamed the anchor kept the element in its place, and the old selector's
    whole shape — its regex, its text steps, its conditions — with it. Only for a selector with one anchor of
    that kind (more would multiply the renamings).

    ``anchor="class"``: its one class or id, renamed to each that elements of the same tag carry
    (``//div[@class='author_name']`` -> ``//div[@class='c-e76aae']``; at most :data:`MAX_RENAMINGS`).
    ``anchor="label"``: its one label's text, every spelling it knew, reworded to each short text the label's
    tag prints on every page — a label is template (``//b[normalize-space()='Publisher:']/following-sibling::
    text()[1]`` -> ``//b[normalize-space()='Item 46f67e:']/…``)."""
    steps = list((_NAMED_STEP if anchor == "class" else _LABEL_TEXT_STEP).finditer(xpath))
    if len(steps) != 1:
        return []
    step, tag = steps[0], steps[0].group(1)
    attribute = step.group(2) if anchor == "class" else ""
    shared: set[str] | None = None
    for root in roots:
        found = {(e.get(attribute) or "").strip() if attribute else normalize_space(e.text_content())
                 for e in root.iter(tag)}
        shared = found if shared is None else shared & found
    names = [name for name in sorted(shared or ()) if name and (attribute or len(name) <= MAX_LABEL_CHARS)]
    test = f"@{attribute}" if attribute else "normalize-space()"
    return [FieldCandidate(f"{xpath[:step.start()]}{tag}[{test}={xpath_literal(name)}]{xpath[step.end():]}", anchor)
            for name in (names[:MAX_RENAMINGS] if attribute else names)]


def loosened(xpath: str) -> FieldCandidate | None:
    """The old selector with every child step made a descendant step (``//div[@id='profile_hdr']/h1`` ->
    ``//div[@id='profile_hdr']//h1``): a redesign that wrapped elements in new boxes kept the old anchors and the
    old target; only the way between them grew. An element's position among its siblings stays (a box that
    wraps a parent's content keeps its children's order: ``…/div[1]/h1`` -> ``…//div[1]//h1``); a text step
    is loosened only where it picks its text by what it says (``text()[translate(…)='(000) 000-0000']``), not
    by where it is. Not for a union."""
    if "|" in xpath:
        return None
    depth, out = 0, []
    for index, char in enumerate(xpath):
        depth += (char == "[") - (char == "]")
        lone = char == "/" and depth == 0 and xpath[index - 1:index] != "/" and xpath[index + 1:index + 2] != "/"
        step = xpath[index + 1:]
        plain = not step.startswith(("text()", "@")) and not re.match(r"[\w-]+::", step)  # an axis is kept as is
        plain = plain or (step.startswith("text()[") and not re.search(r"\[\d+\]", step))  # picked by what it says
        out.append("//" if lone and index > 0 and plain else char)
    widened = "".join(out)
    return FieldCandidate(widened, "class") if widened != xpath else None


_POSITION = re.compile(r"\[(\d+)\]")
_SIBLING_AXIS = re.compile(r"\b(following|preceding)-sibling::")


def mirrored(xpath: str) -> list[FieldCandidate]:
    """The old selector read from the other end: its positions counted from the last (``li[1]`` ->
    ``li[last()]``), its sibling axes turned round (a label now after its value), and both. A redesign that
    reversed a block's children kept its elements, their names and the old selector's tests; only the
    order changed. Not for a union."""
    if "|" in xpath:
        return []
    def from_end(match: re.Match[str]) -> str:
        position = int(match.group(1))
        return "[last()]" if position == 1 else f"[last()-{position - 1}]"
    def turned(match: re.Match[str]) -> str:
        return ("preceding" if match.group(1) == "following" else "following") + "-sibling::"
    counted = _POSITION.sub(from_end, xpath)
    swapped = _SIBLING_AXIS.sub(turned, xpath)
    evidence = "label" if label_step(xpath) else "class"
    return [FieldCandidate(x, evidence) for x in dict.fromkeys((counted, swapped, _SIBLING_AXIS.sub(turned, counted)))
            if x != xpath]


def label_unions(per_page: Sequence[Sequence[tuple[FieldCandidate, float]]]) -> list[tuple[FieldCandidate, float]]:
    """Label-anchored candidates that differ only in the label's text (``MSRP Price:`` on two seed pages,
    ``MSRP Price Range:`` on the third), joined two at a time into one that accepts both spellings: a label
    the site writes two ways is still one field, as induce forges it (``Director:`` or ``Directors:``). Only
    on three seed pages or more that read different values (copies of one record are one observation: an
    author's name beside the title on two copies of a book is no repeated label), so that a pair giving every
    seed value back has one spelling that repeats: a text beside the value that differs on every page (an
    address, "76% buy this") is no label."""
    if len(per_page) < 3:
        return []
    groups: dict[tuple, dict[str, float]] = {}
    for candidate, weight in (c for page in per_page for c in page):
        step = label_step(candidate.xpath)
        if step is None:
            continue
        tag, condition = step[2:].split("[", 1)
        spellings = groups.setdefault((tag, candidate.xpath[len(step):], candidate.regex, candidate.evidence), {})
        spellings[condition[:-1]] = min(weight, spellings.get(condition[:-1], weight))
    unions = []
    for (tag, rest, regex, evidence), spellings in groups.items():
        for (first, weight), (second, other) in combinations(spellings.items(), 2):
            unions.append((FieldCandidate(f"//{tag}[{first} or {second}]{rest}", evidence, regex), min(weight, other)))
    return unions


def heal_candidates(spec_field: FieldSpec,
                pairs: Sequence[tuple[etree._Element, Sequence[str]]]) -> list[tuple[FieldCandidate, float]]:
    """Every way to the seed values on their pages, each with its weight (widened ones a little less)."""
    pool: dict[tuple, tuple[FieldCandidate, float]] = {}
    per_page: dict[tuple[str, ...], list[tuple[FieldCandidate, float]]] = {}
    opened = unseen_spellings(label_step(spec_field.actions[-1]) if spec_field.actions else None,
                              [root for root, _ in pairs])
    for root, values in pairs:
        loose = [c for c in (loosened(a) for a in spec_field.actions[-1:]) if c is not None]
        # classes renamed and boxes added at once: the loosened selector renamed too
        renamed = [c for action in [*spec_field.actions[-1:], *(c.xpath for c in loose)]
                   for c in reanchored(action, [root], "class")] + loose
        found = [(c, 1.0) for c in (*example_candidates(root, Example(spec_field.name, values[0])), *renamed,
                                    *_label_text_candidates(root, values[0]),
                                    *_label_beside_candidates(root, values[0], spec_field.post))]
        if spec_field.post.multiple:
            found += [(w, NARROW_FIRST) for w in (_every_sibling(c) for c, _ in found) if w is not None]
        kept = _conditions(spec_field.actions[-1]) if spec_field.actions else []
        old_label = label_step(spec_field.actions[-1]) if spec_field.actions else None
        found = [(c, w * NEW_CONDITIONS) for c, w in found] + [
            (q, w) for c, w in found for q in (_with_conditions(c, kept), _with_old_label(c, old_label), opened(c))
            if q is not None] + [(m, 1.0) for a in spec_field.actions[-1:] for m in mirrored(a)]  # old conditions kept
        per_page.setdefault(tuple(values), found)  # seed pages that read the same values are one observation
        for candidate, weight in found:
            for regex in dict.fromkeys((candidate.regex, spec_field.post.regex)):
                # the field's own regex, where it still gives the values, over a cut learnt from the seeds alone
                kept_regex = weight if regex == spec_field.post.regex else weight * NEW_CONDITIONS
                pool.setdefault((candidate.xpath, regex),
                                (FieldCandidate(candidate.xpath, candidate.evidence, regex), kept_regex))
    for candidate, weight in label_unions(list(per_page.values())):
        pool.setdefault((candidate.xpath, candidate.regex), (candidate, weight))
    old_shape = shape(spec_field.actions[-1]) if spec_field.actions else None
    if old_shape is None or "?" not in old_shape:  # a selector by tags alone (``//b``) is no shape to keep
        return list(pool.values())
    loose = {shape(c.xpath) for c in (loosened(a) for a in spec_field.actions[-1:]) if c is not None}
    return [(c, w * SAME_SHAPE if shape(c.xpath) in (old_shape, *loose) or inside(c.xpath, spec_field.actions[-1])
             else w) for c, w in pool.values()]


def inside(xpath: str, old: str) -> bool:
    """``xpath`` reads within the nodes the old selector reads (``//div[@class='author_name']/a[2]`` within
    ``//div[@class='author_name']``): a redesign that kept the old element, its name and its place, moved the
    value only inside it (its children reversed, a box added), and the old element is what was known to hold
    the field on every page, where a label beside the value on the seed pages may be spelt otherwise elsewhere."""
    return "|" not in old and xpath.startswith(old + "/")


def shape(xpath: str) -> str:
    """An XPath without its names and texts: its steps, axes, tests and positions."""
    return _LITERAL.sub("?", xpath)
