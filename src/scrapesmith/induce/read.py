"""``--method read``: the model reads, the evidence forges.

A small model is weak at choosing among XPaths and good at reading one page's text and copying out the
span that answers "the book's publisher" (issue 47). So:

1. the model reads the first seed page as the markdown view the project makes for agents
   (:func:`scrapesmith.dom.to_markdown`, its ``[id: N]`` marks dropped), cut to a token budget, and under a
   JSON schema returns, for every field at once, the exact text span on the page or ``null``;
2. every span is checked against the page as printed, by the reader ``--example`` uses (:func:`printed_text`:
   inline markup read through, ``<br>`` and blocks as spaces, entities decoded, whitespace runs as one space). A span not on the page
   is rejected; the fields with rejected spans are asked once more, naming the rejection; a span still not
   on the page leaves the field to the name-only evidence, with the reason in its ``evidence``;
3. a field the first page lacks (``null``) is read off the second seed page the same way;
4. each checked span becomes an ``--example`` and the example path (:func:`generalise`) forges its XPath,
   checked on the other seeds;
5. the name-only ranking (:func:`induce_heuristic`) is weighed beside it on every seed page (:func:`weigh`):
   the read span's XPath must give a value on most seed pages, or the name-only field is kept; where both
   give the same value on every seed page, the name-only field is kept and made sure
   (confidence at least ``AGREED``: the model's span is one witness on one page, the evidence was built
   across the seeds), unless only the read XPath gives the value as it is; a read XPath whose values are not
   of the field's kind where the name-only field's are is not taken; where they differ, a field that names the record keeps the name-only choice when its
   values fit the seed pages' titles better than the span's (the span its doubt); where both XPaths read the
   same text on every seed and part only in the cut (a list split, a regex), the span's cut is taken; a
   name-only choice the page labels is kept over a span of the kind that is no part of it; otherwise the
   read span's XPath is taken, the name-only choice and its value recorded, the field marked unsure and its
   confidence at most ``DISAGREED``. A field the model could not read keeps the name-only field, with why.

At most four calls a site: one read of each of the first two pages and one retry of each.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.dom import estimate_tokens, to_markdown
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.candidates import page_title
from scrapesmith.induce.examples import Example, generalise
from scrapesmith.induce.execute import CompiledSpec, comparable, folded, normalize_space, printed_text
from scrapesmith.induce.field_evidence import FieldConcept, concept_for
from scrapesmith.induce.heuristic import induce_heuristic, title_fit
from scrapesmith.induce.regions import chrome_markup
from scrapesmith.induce.views import FieldRequest, FieldSpec, ScraperSpec
from scrapesmith.llm import LLM, GrammarError, LLMError, ask_json, render_prompt

PAGE_TOKENS = 1500  # of the page view, estimated: on a busy 2-core CPU the 1.5B model reads ~10-30 prompt tokens a second
MIN_ANCHOR_CHARS = 3
SPAN_CHARS = 200
ANSWER_TOKENS_PER_FIELD = 48
PAGES_READ = 2
AGREED = 0.9
DISAGREED = 0.5
STAGE = "induce.read"
# evidence kinds (a field's evidence's first word) of a value the page names by a label spelt or meant
PAGE_LABELLED = frozenset({"label", "qualified", "section", "meant"})
CALLS_AT_MOST = 2 * PAGES_READ
EVIDENCE = ". Evidence: "  # ends the read summary of a field's evidence; what the kept field was built from follows
_ID_MARK = re.compile(r"\[id: \d+\] ?")
_KIND_WORD = re.compile(r"(\[id: \d+\] [^\n\[]*?) (?:link|button|clickable)\b")
_BARE_CONTROL = re.compile(r"\[id: \d+\] (?:link|button|clickable)\b ?")
Progress = Callable[[str], None]


@dataclass
class ReadOutcome:
    """One field's read: the checked span and the page it is on (an index into the seeds), or why none."""

    span: str | None = None
    page: int = 0
    reasons: list[str] = field(default_factory=list)


def page_printed(root: etree._Element) -> str:
    """The page's text as ``--example`` reads it (:func:`printed_text`: inline markup read through, a block
    or ``<br>`` a space, entities decoded by the parser), whitespace runs as one space."""
    return normalize_space(printed_text(root))


def page_view(root: etree._Element, budget: int = PAGE_TOKENS, anchors: Sequence[str] = ()) -> str:
    """The page as markdown within ``budget`` tokens, read as a person reads it: without the page's chrome
    (navigation, banners, footers, hidden blocks: :func:`chrome_markup`), the ``[id: N]`` marks an agent acts
    on, or the kind word after a control's text ("Stieg Larsson link" reads "Stieg Larsson"): a reader
    copies text, and those cost tokens and would be copied into spans. A page longer than ``budget`` is cut
    to the run of blocks that holds most ``anchors`` (:func:`_window`). The seed tree itself is not touched
    (the view is made from a copy)."""
    page = copy.deepcopy(root)
    for element in [e for e in page.iter() if isinstance(e.tag, str) and e.tag not in ("html", "body")
                    and chrome_markup(e)]:
        if element.getparent() is not None and not any(chrome_markup(a) for a in element.iterancestors()):
            _drop(element)
    view = to_markdown(page, max_tokens=10**7)  # whole; the window below is what is cut
    text = _ID_MARK.sub("", _KIND_WORD.sub(r"\1", _BARE_CONTROL.sub("", view.text)))
    if estimate_tokens(text) <= budget:
        return text
    blocks = text.split("\n\n")
    start, end = _window(blocks, budget, [folded(a) for a in anchors if len(folded(a)) >= MIN_ANCHOR_CHARS])
    kept = blocks[start:end]
    if start:
        kept.insert(0, f"… ({start} blocks above cut)")
    if end < len(blocks):
        kept.append(f"… ({len(blocks) - end} blocks below cut)")
    return "\n\n".join(kept)


def _window(blocks: Sequence[str], budget: int, anchors: Sequence[str]) -> tuple[int, int]:
    """The run of blocks within ``budget`` tokens that holds the most distinct ``anchors`` (the name-only
    evidence's values on this page: near the record, if not all right), the earliest such run; the page's
    start when no anchor is found."""
    costs = [estimate_tokens(block) + 1 for block in blocks]
    held_by = [{a for a in anchors if a in folded(block)} for block in blocks]
    counts: dict[str, int] = {}
    best, best_held, end, used = (0, 0), -1, 0, 0
    for start in range(len(blocks)):
        end = max(end, start)
        while end < len(blocks) and used + costs[end] <= budget:
            used, end = used + costs[end], end + 1
            for anchor in held_by[end - 1]:
                counts[anchor] = counts.get(anchor, 0) + 1
        held = sum(1 for n in counts.values() if n)
        if held > best_held and end > start:
            best, best_held = (start, end), held
        if end > start:
            used -= costs[start]
            for anchor in held_by[start]:
                counts[anchor] -= 1
    return best


def _drop(element: etree._Element) -> None:
    """Remove ``element`` and what it holds, keeping the text after it."""
    parent, tail = element.getparent(), element.tail or ""
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)


def on_page(span: str, printed: str) -> bool:
    """Is ``span`` printed on the page, whitespace aside?"""
    wanted = normalize_space(span)
    return bool(wanted) and wanted in printed


def _schema(names: Sequence[str]) -> dict:
    return {"title": "spans", "type": "object", "additionalProperties": False, "required": list(names),
            "properties": {name: {"anyOf": [{"type": "string", "maxLength": SPAN_CHARS}, {"type": "null"}]}
                           for name in names}}


def _ask(llm: LLM, requests: Sequence[FieldRequest], view: str, rejected: dict[str, str]) -> dict[str, str | None]:
    prompt = render_prompt("induce_read", page=view, fields=[(r.name, r.instruction or r.name) for r in requests],
                           rejected=list(rejected.items()))
    reply = ask_json(llm, prompt, _schema([r.name for r in requests]), stage=STAGE,
                     max_tokens=ANSWER_TOKENS_PER_FIELD * len(requests) + 16)
    return {r.name: (reply.get(r.name) or None) if isinstance(reply, dict) else None for r in requests}


def read_spans(llm: LLM, requests: Sequence[FieldRequest], seeds: Sequence[etree._Element],
               progress: Progress | None = None, named: Sequence[FieldSpec] = ()) -> dict[str, ReadOutcome]:
    """Every field's span read off the first seed page, or the second for those the first lacks; checked
    against the page, a rejected span asked once more (see the module docstring)."""
    outcomes = {r.name: ReadOutcome() for r in requests}
    waiting = list(requests)
    for index, root in enumerate(seeds[:PAGES_READ]):
        if not waiting:
            break
        anchors = [_first_value(f, root) for f in named if f.actions]
        printed, view = page_printed(root), page_view(root, anchors=anchors)
        asked, rejected = waiting, {}
        for attempt in range(2):
            if progress:
                progress(f"reading seed page {index + 1} (~{estimate_tokens(view):,} tokens) for "
                         f"{', '.join(r.name for r in asked)}" + (" (retry)" if attempt else ""))
            try:
                answers = _ask(llm, asked, view, rejected)
            except (GrammarError, LLMError) as exc:
                for request in asked:
                    outcomes[request.name].reasons.append(f"page {index + 1}: the model's answer was unusable "
                                                          f"({str(exc)[:120]})")
                break
            rejected = {}
            for request in asked:
                span = answers[request.name]
                outcome = outcomes[request.name]
                if span is None:
                    outcome.reasons.append(f"page {index + 1}: the model read no value")
                elif on_page(span, printed):
                    outcome.span, outcome.page = normalize_space(span), index
                else:
                    rejected[request.name] = span
                    outcome.reasons.append(f"page {index + 1}: {span[:80]!r} is not on the page"
                                           + (" (retried)" if attempt else ""))
            asked = [r for r in asked if r.name in rejected]
            if not asked:
                break
        waiting = [r for r in waiting if outcomes[r.name].span is None]
    return outcomes


def _first_value(spec_field: FieldSpec, root: etree._Element) -> str:
    compiled = CompiledSpec(ScraperSpec(fields=[spec_field.model_copy(update={"doubt": None})]))
    values = compiled.row_from(compiled.extract_tree(root))[spec_field.name]
    if isinstance(values, list):
        values = values[0] if values else None
    return normalize_space(values or "")


def same_value(a: str, b: str) -> bool:
    """Two values of one field are the same: equal once case, whitespace and edge separators are set aside
    (one holding the other is not the same: "Ace & Co 1965" holds the year and the publisher)."""
    x, y = folded(comparable(a)), folded(comparable(b))
    return bool(x) and x == y


def seed_values(spec_field: FieldSpec, seeds: Sequence[etree._Element]) -> list[str]:
    """The field's first value on each seed page ("" where it finds none)."""
    return [_first_value(spec_field, root) for root in seeds] if spec_field.actions else [""] * len(seeds)


def agreeing_pages(named: Sequence[str], read: Sequence[str]) -> int:
    """On how many seed pages the two fields give the same value (:func:`same_value`), or both none."""
    return sum(same_value(a, b) or not (a or b) for a, b in zip(named, read, strict=True))


def headline_fit(values: Sequence[str], seeds: Sequence[etree._Element]) -> float:
    """How well a field's values read as the seed pages' own titles (:func:`title_fit`, the mean over the
    seeds): a field that names the record is printed in the page's title."""
    return sum(title_fit([v] if v else [], folded(page_title(root))) for v, root in zip(values, seeds, strict=True)) \
        / max(1, len(seeds))


def exact_on(spec_field: FieldSpec, seeds: Sequence[etree._Element]) -> bool:
    """Does the field's XPath give its value as it is (post-processing cutting nothing off) on every seed page
    where it gives one?"""
    compiled = CompiledSpec(ScraperSpec(fields=[spec_field.model_copy(update={"doubt": None})]))
    for root in seeds:
        found = compiled.extract_tree(root)[spec_field.name]
        values = found.values if isinstance(found.values, list) else [found.values]
        if found.raw and values and values[0] and normalize_space(found.raw[0]) != normalize_space(str(values[0])):
            return False
    return True


def raw_texts(spec_field: FieldSpec, seeds: Sequence[etree._Element]) -> list[str]:
    """The field's XPath's own text on each seed page, before any cut or split ("" where it finds none)."""
    compiled = CompiledSpec(ScraperSpec(fields=[spec_field.model_copy(update={"doubt": None})]))
    return [normalize_space(" ".join(compiled.extract_tree(root)[spec_field.name].raw)) for root in seeds]


def one_node(named: FieldSpec, read: FieldSpec, seeds: Sequence[etree._Element]) -> bool:
    """Do the two fields read the same text on every seed page (found somewhere), so they part only in how
    it is cut into values?"""
    named_raw, read_raw = raw_texts(named, seeds), raw_texts(read, seeds)
    return any(named_raw) and named_raw == read_raw


def labelled(spec_field: FieldSpec) -> bool:
    """Was the name-only field found by a label the page prints at its value on the seed pages (its
    evidence's kind, :data:`PAGE_LABELLED`)?"""
    return spec_field.evidence.split(" ", 1)[0] in PAGE_LABELLED


def kind_fits(values: Sequence[str], concept: FieldConcept) -> int:
    """On how many seed pages the value is of the field's kind (its recogniser says so)."""
    return sum(bool(v) and concept.matches_type(v) is True for v in values)


def weigh(named: FieldSpec, read: FieldSpec | None, outcome: ReadOutcome, seeds: Sequence[etree._Element],
          concept: FieldConcept | None = None) -> FieldSpec:
    """The field from both kinds of evidence (see the module docstring, step 5), judged on every seed page:

    * the read span's XPath must give a value on most seed pages, and of the field's kind (when it has one)
      on as many as the name-only field does (an ISBN-10 is not an ISBN-13): the model never overrules a
      hard check the evidence passes (the name-only field is kept, with why);
    * the two agree when they give the same value on every seed page (a model's span on one page is one
      witness; two XPaths that meet on that page may part on the next): the name-only field is kept, made
      sure — or the read one, when only it gives the value as it is, post-processing cutting nothing off
      (the strict metric reads an XPath's own text);
    * they disagree: for a field that names the record (``concept.headline``) the name-only field is kept when its
      values fit the seed pages' titles better than the read span's (the read span is its doubt); when
      both read the same text on every seed page (:func:`one_node`), the node is not in dispute and the
      span shows how a reader cuts its text into values: the read field is taken, the name-only cut its
      doubt; the name-only field is kept too when the page labels its value (:func:`labelled`: a label
      printed at the value on the seed pages, spelt or meaning the field — the page's own word on every
      seed against the model's on one) and its values are of the field's kind on as many pages as the read
      span's and are not the read values with more text around them;
      otherwise the read span's XPath is taken, the name-only choice recorded. No fitted sureness settles
      it: the calibrated confidence's threshold did so before, and held out (fitted without the site) it
      passed a name-only choice the read span was right against (BENCHMARKS.md, issue 47, h47r)."""
    why = "; ".join(outcome.reasons)
    if read is None:
        return named.model_copy(update={"evidence": f"no read span ({why or 'none read'}); name-only kept{EVIDENCE}"
                                                    f"{named.evidence}"})
    read_values, named_values = seed_values(read, seeds), seed_values(named, seeds)
    span = f"read {outcome.span!r} on seed {outcome.page + 1}"
    held = sum(bool(v) for v in read_values)
    if held * 2 <= len(seeds):
        return named.model_copy(update={
            "evidence": f"{span}, but its XPath gives a value on {held} of {len(seeds)} seed pages; "
                        f"name-only kept{EVIDENCE}{named.evidence}"})
    other_kind = [v for v in read_values if v and concept is not None and concept.matches_type(v) is False]
    if other_kind and concept is not None and kind_fits(named_values, concept) > kind_fits(read_values, concept):
        return named.model_copy(update={
            "evidence": f"{span}, but its XPath gives {other_kind[0][:60]!r}, not of the field's kind "
                        f"({concept.kind}); name-only kept{EVIDENCE}{named.evidence}"})
    if not named.actions:
        return read.model_copy(update={
            "confidence": DISAGREED,
            "evidence": f"{span}, kept over the name-only choice (name-only found nothing){EVIDENCE}{read.evidence}"})
    agreed = agreeing_pages(named_values, read_values)
    if agreed == len(seeds) and exact_on(read, seeds) and not exact_on(named, seeds):
        return read.model_copy(update={
            "confidence": max(AGREED, named.confidence or 0.0), "doubt": None,
            "evidence": f"{span}; name-only agrees on {agreed} of {len(seeds)} seed pages, but its XPath gives "
                        f"more than the value ({named.actions[-1]}), so the read one is kept{EVIDENCE}{read.evidence}"})
    if agreed == len(seeds):
        return named.model_copy(update={
            "confidence": max(AGREED, named.confidence or 0.0), "doubt": None,
            "evidence": f"{span}; name-only agrees on {agreed} of {len(seeds)} seed pages "
                        f"({named.actions[-1]}, kept){EVIDENCE}{named.evidence}"})
    confidence = min(DISAGREED, named.confidence if named.confidence is not None else DISAGREED)
    if concept is not None and concept.headline and headline_fit(named_values, seeds) > headline_fit(read_values, seeds):
        return named.model_copy(update={
            "confidence": confidence, "doubt": f"the model read {outcome.span!r} (seed {outcome.page + 1}), not this",
            "evidence": f"{span}; the name-only choice, nearer the pages' titles, kept over its XPath "
                        f"({read.actions[-1]}){EVIDENCE}{named.evidence}"})
    fits_less = concept is not None and concept.hard_type and kind_fits(named_values, concept) < kind_fits(read_values, concept)
    holds_more = all(r and n and r != n and r in n for r, n in zip(read_values, named_values, strict=True) if r or n)
    if one_node(named, read, seeds):  # the node agreed on every seed: the reader's span is how its text is cut
        cut = f"the evidence reads the same text as {named_values[outcome.page][:80]!r}"
        return read.model_copy(update={
            "confidence": confidence, "doubt": f"{cut} ({named.actions[-1]})",
            "evidence": f"{span}, the same text as the name-only choice cut as read ({cut}){EVIDENCE}{read.evidence}"})
    if labelled(named) and not fits_less and not holds_more:  # the page names it, of the kind, just the value
        return named.model_copy(update={
            "confidence": confidence, "doubt": f"the model read {outcome.span!r} (seed {outcome.page + 1}), not this",
            "evidence": f"{span}; the name-only choice, labelled on the page, kept over its XPath "
                        f"({read.actions[-1]}){EVIDENCE}{named.evidence}"})
    other = f"name-only chose {named.actions[-1]} giving {named_values[outcome.page][:80]!r}"
    return read.model_copy(update={
        "confidence": confidence, "doubt": f"the evidence and the model disagree ({other})",
        "evidence": f"{span}, kept over the name-only choice ({other}){EVIDENCE}{read.evidence}"})


READ_PATHS = {"no read span": "no span", ", but its XPath gives a value on": "span fails the seeds",
              "not of the field's kind": "span of another kind",
              "so the read one is kept": "agree, the read XPath exact", "; name-only agrees": "agree",
              "nearer the pages' titles": "evidence fits the titles",
              "labelled on the page, kept": "evidence labelled",
              ", kept over the name-only choice (name-only found": "read fills an empty field",
              "the same text as the name-only choice cut as read": "one text, cut as read",
              ", kept over the name-only choice": "read kept over the evidence"}


def read_choice(evidence: str) -> str:
    """The part of a ``read`` field's evidence that says what was read and chosen (the forging detail cut)."""
    return evidence.split(EVIDENCE)[0]


def read_path(evidence: str) -> str:
    """Which way :func:`weigh` went for a field, from its evidence (``bench swde`` counts them)."""
    return next((path for mark, path in READ_PATHS.items() if mark in read_choice(evidence)), "other")


def induce_by_reading(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], llm: LLM, site: str = "",
                      seed_names: Sequence[str] = (), progress: Progress | None = None) -> ScraperSpec:
    """``--method read``: one spec from the model's read spans and the name-only evidence together."""
    named = induce_heuristic(requests, seeds, site=site, seed_names=seed_names)
    outcomes = read_spans(llm, requests, seeds, progress, named.fields)
    return forge_and_weigh(requests, seeds, named, outcomes, progress)


def forge_and_weigh(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], named: ScraperSpec,
                    outcomes: dict[str, ReadOutcome], progress: Progress | None = None) -> ScraperSpec:
    """Steps 4 and 5 of the module docstring: each checked span forged into an XPath and weighed against the
    name-only field (no model: ``research/swde_read_reweigh.py`` re-weighs recorded spans with it)."""
    fields = []
    for request, named_field in zip(requests, named.fields, strict=True):
        if progress:
            progress(request.name)
        outcome = outcomes[request.name]
        read_field = None
        if outcome.span is not None:
            pages = [seeds[outcome.page], *(s for i, s in enumerate(seeds) if i != outcome.page)]
            try:
                forged = generalise(Example(request.name, outcome.span), pages)
                read_field = forged.model_copy(update={"instruction": request.instruction,
                                                       "post": forged.post.model_copy(
                                                           update={"multiple": named_field.post.multiple})})
            except ScrapesmithError:
                outcome.reasons.append(f"{outcome.span[:80]!r} is on the page but no XPath gives it back exactly")
        fields.append(weigh(named_field, read_field, outcome, seeds, concept_for(request.name, request.instruction)))
    return ScraperSpec(site=named.site, method="read", seeds=list(named.seeds), fields=fields)
