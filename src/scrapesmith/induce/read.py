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
5. the name-only ranking (:func:`induce_heuristic`) is weighed beside it: where both give the same value
   on the page read, the field is sure (confidence at least ``AGREED``); where they differ, the read span's
   XPath is kept (it is on the page, and the model read it as the field), the name-only choice and its
   value are recorded in the field's ``evidence``, and the confidence drops to at most ``DISAGREED``. A
   field the model could not read keeps the name-only field, with why in its evidence.

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
from scrapesmith.induce.examples import Example, generalise
from scrapesmith.induce.execute import CompiledSpec, folded, normalize_space, printed_text
from scrapesmith.induce.heuristic import induce_heuristic
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
CALLS_AT_MOST = 2 * PAGES_READ
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
                progress(f"reading seed page {index + 1} for {', '.join(r.name for r in asked)}"
                         + (" (retry)" if attempt else ""))
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
    """Two values of one field agree: equal after case and punctuation folding, or one holds the other."""
    x, y = folded(a), folded(b)
    return bool(x and y) and (x == y or x in y or y in x)


def weigh(named: FieldSpec, read: FieldSpec | None, outcome: ReadOutcome, root: etree._Element) -> FieldSpec:
    """The field from both kinds of evidence (see the module docstring, step 5)."""
    why = "; ".join(outcome.reasons)
    if read is None:
        return named.model_copy(update={"evidence": f"no read span ({why or 'none read'}); name-only kept: {named.evidence}"})
    named_value = _first_value(named, root) if named.actions else ""
    if named.actions and same_value(named_value, outcome.span or ""):
        return read.model_copy(update={
            "confidence": max(AGREED, named.confidence or 0.0), "doubt": None,
            "evidence": f"read {outcome.span!r} on seed {outcome.page + 1}; name-only agrees "
                        f"({named.actions[-1]}); {read.evidence}"})
    other = f"name-only chose {named.actions[-1]} giving {named_value[:80]!r}" if named.actions else \
        "name-only found nothing"
    return read.model_copy(update={
        "confidence": min(DISAGREED, named.confidence if named.confidence is not None else DISAGREED),
        "evidence": f"read {outcome.span!r} on seed {outcome.page + 1}, kept over the name-only choice "
                    f"({other}); {read.evidence}"})


def induce_by_reading(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], llm: LLM, site: str = "",
                      seed_names: Sequence[str] = (), progress: Progress | None = None) -> ScraperSpec:
    """``--method read``: one spec from the model's read spans and the name-only evidence together."""
    named = induce_heuristic(requests, seeds, site=site, seed_names=seed_names)
    outcomes = read_spans(llm, requests, seeds, progress, named.fields)
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
        fields.append(weigh(named_field, read_field, outcome, seeds[outcome.page]))
    return ScraperSpec(site=site, method="read", seeds=list(seed_names), fields=fields)
