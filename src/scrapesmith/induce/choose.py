"""``--method choose``: the heuristic proposes and ranks, the model chooses where the evidence disagrees.

For each field the ranked candidates (:func:`scrapesmith.induce.heuristic.rank_candidates`) are reduced to
the best few that extract *different* values (their first value differs on some seed) and pass the hard
checks. The model is asked in two cases, once per field at most:

* **no label names the field** and the evidence is weak or absent (nothing found, or the best candidate
  was found by a class, a heading or its values' look and scores under a third of a clean label match):
  the model sees the label → value pairs every seed page prints (``pairs.py``: table rows, definition
  lists, "Label: value" texts) with their values on each page, after the evidence's own best candidates,
  and names the one that is the field ("Institutional Control" for a university's type), or none. Only
  pairs that extract on every seed and whose values are all of the field's kind are offered, so its
  answer never overrules a hard check; the pair's value is then cleaned as the ranking cleans any
  candidate's;
* **the evidence is split**: the best two distinct candidates are within a factor of two; the model sees
  each candidate's values on every seed page.

Each of these is a path (which case, and whether the learned ranker is sure of the evidence's first
choice); the model is asked only on the paths the gate opens (:mod:`scrapesmith.induce.choose_gate`: those
where, on the development sites, its choices turned more fields right than wrong). Elsewhere the evidence's
choice is kept and the field's evidence says which path closed.

Either way each option is one line (its values on every seed, after its label for a pair) and the model
copies one line from an enum (JSON-schema grammar), or answers ``none``. The 1.5B model copied the right
values where, asked for a number, it named the wrong one (SWDE camera model, BENCHMARKS.md, issue 28
round 2). A small model thus never writes an XPath and can never pick outside the list.

The model moves a field to another candidate; it never empties one the evidence fills. ``none``, a failed
call, options the embedded model's grammar cannot hold (``GrammarError``, noted in the ledger) or an
unusable answer keeps the evidence's own choice: on SWDE under other templates the 1.5B model
rejected every option for a price, the evidence's correct first among them, and so emptied a field the
evidence had right, while no rejection turned a wrong value into a right one (issue 28, round 8). Nor is it offered an alternative that reads
the field's own label as one of its values on every seed page ("Genres, Crime | Genres, Crime | …"): that
is the label printed beside the values, not a value, and the model took it over the bare values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from scrapesmith.induce.candidates import page_title
from scrapesmith.induce.choose_gate import gate_open
from scrapesmith.induce.confidence import assess
from scrapesmith.induce.execute import folded
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.heuristic import MIN_SCORE, ScoredCandidate, rank_pool, trusted
from scrapesmith.induce.kinds import with_unit
from scrapesmith.induce.labels import label_of
from scrapesmith.induce.pairs import shared_pairs
from scrapesmith.induce.views import FieldRequest
from scrapesmith.llm import LLM, GrammarError, LLMError, ask_json, render_prompt

SHOWN = 5
CLEAR_LEAD = 2.0
# under a third of a clean label match: a value the same on every seed, several where one is asked, or one
# found by its look alone far from the record's heading
WEAK_EVIDENCE = 0.3
NAMED_BY_LABEL = frozenset({"label", "qualified", "section"})
EVIDENCE_SHOWN = 2
PAIRS_SHOWN = 15
VALUE_CHARS = 60
VALUES_SHOWN = 2
NONE = "none"
EMPTY = "(empty)"
ANSWER_TOKENS = 16
MIN_TITLE_CHARS = 4  # a short value ("PG", "Male") may sit in a title by chance; a record's name does not
LABEL_EMPTY = "no label names the field, no candidate"
LABEL_WEAK = "no label names the field, weak evidence"
CLOSE = "evidence close"
SURE = " (sure)"  # the learned ranker is sure of the evidence's first choice
GATED_PATHS = (LABEL_EMPTY, LABEL_WEAK, LABEL_WEAK + SURE, CLOSE, CLOSE + SURE)
GATE_CLOSED = "the model made this path worse on the development sites"


@dataclass
class Choice:
    """The chosen candidate (None when rejected or none exists), whether the model was asked, and why."""

    chosen: ScoredCandidate | None
    asked: bool
    reason: str


def distinct_options(ranked: Sequence[ScoredCandidate], limit: int = SHOWN) -> list[ScoredCandidate]:
    """The best candidate for each distinct answer: candidates whose first values agree on every seed (equal,
    or one holding the other) point at the same thing; how much of it to keep is the heuristic's call."""
    options: list[ScoredCandidate] = []
    for scored in ranked:
        if scored.score < MIN_SCORE or any(_same_answer(scored, kept) for kept in options):
            continue
        options.append(scored)
        if len(options) >= limit:
            break
    return options


def offered(ranked: Sequence[ScoredCandidate], concept: FieldConcept) -> list[ScoredCandidate]:
    """``ranked`` without the alternatives that read the field's label as a value on every seed page; the
    evidence's own first choice stays whatever it reads, so asking the model never loses it."""
    return [s for i, s in enumerate(ranked) if i == 0 or not reads_label(s, concept)]


def reads_label(scored: ScoredCandidate, concept: FieldConcept) -> bool:
    """Does one of the candidate's values spell the field's label ("Genres" for a genre) on every seed?"""
    return bool(scored.values) and all(any(label_of(v, concept.labels) for v in page) for page in scored.values)


def _same_answer(a: ScoredCandidate, b: ScoredCandidate) -> bool:
    """On every seed, the first values are equal or one holds the other ("Ann" and "Ann and Bo")."""
    firsts = [(x[0] if x else "", y[0] if y else "") for x, y in zip(a.values, b.values, strict=False)]
    return all(u == v or (u and v and (u in v or v in u)) for u, v in firsts)


def option_line(scored: ScoredCandidate, label: str | None = None) -> str:
    """One option as the model sees it and answers it: its values on each seed page ("v1 | v2 | v3"),
    after its label when it has one ("Institutional Control: Private | Public | Private"); "(empty)" for
    a page where it finds nothing."""
    values = " | ".join(", ".join(v[:VALUE_CHARS].rstrip() for v in page[:VALUES_SHOWN]) or EMPTY
                        for page in scored.values)
    return f"{label}: {values}" if label else values


def choose_candidate(llm: LLM, request: FieldRequest, concept: FieldConcept, ranked: Sequence[ScoredCandidate],
                     seeds: Sequence[etree._Element], urls: Sequence[str] = ()) -> Choice:
    """The model's choice among ``ranked`` for ``request`` (see the module docstring); asked only on a path
    the gate opens (:mod:`scrapesmith.induce.choose_gate`)."""
    evidence = [s for s in ranked if trusted(s, len(seeds))]
    options = distinct_options(offered(evidence, concept))
    sure = SURE if options and sure_evidence(evidence, concept) else ""
    if unnamed(options, concept):
        pairs = label_options(concept, seeds, options[:EVIDENCE_SHOWN], urls)
        if pairs:
            path = (LABEL_WEAK if options else LABEL_EMPTY) + sure
            if not gate_open(path):
                return Choice(options[0] if options else None, False, f"{path}: {GATE_CLOSED}; no model call")
            lines = [(option_line(o), o) for o in options[:EVIDENCE_SHOWN]]
            lines += [(option_line(o, label), o) for label, o in pairs]
            return _answer(llm, "induce_choose_label", request, concept, lines, path, options[0] if options else None)
    if not options:
        return Choice(None, False, "no candidate passes the checks")
    if len(options) == 1 or options[0].score >= CLEAR_LEAD * options[1].score:
        return Choice(options[0], False, "evidence clear; no model call")
    if not gate_open(CLOSE + sure):
        return Choice(options[0], False, f"{CLOSE + sure}: {GATE_CLOSED}; no model call")
    lines = [(option_line(o), o) for o in options]
    return _answer(llm, "induce_choose", request, concept, lines, CLOSE + sure, options[0])


def sure_evidence(evidence: Sequence[ScoredCandidate], concept: FieldConcept) -> bool:
    """Is the evidence's first choice sure, as the heuristic's field would be judged (a confidence, no doubt)?"""
    confidence, doubt = assess(evidence, concept)
    return confidence is not None and doubt is None


def choose_path(evidence: str) -> str:
    """Which way :func:`choose_candidate` went for a field, from its evidence (``bench swde`` counts them)."""
    path = max((p for p in GATED_PATHS if p in evidence), key=len, default=None)
    if path is None:
        return "evidence clear" if evidence.startswith("evidence clear") else "nothing to choose"
    return f"{path}, {'gate closed' if GATE_CLOSED in evidence else 'model asked'}"


def unnamed(options: Sequence[ScoredCandidate], concept: FieldConcept) -> bool:
    """Is the field named by no label on the pages, with weak or no evidence for it otherwise? (A headline
    field is named by the page's title, not by a label.)"""
    if concept.headline:
        return False
    return not options or (options[0].candidate.evidence not in NAMED_BY_LABEL and options[0].score < WEAK_EVIDENCE)


def label_options(concept: FieldConcept, seeds: Sequence[etree._Element], shown: Sequence[ScoredCandidate],
                  urls: Sequence[str] = ()) -> list[tuple[str, ScoredCandidate]]:
    """The pairs every seed prints, each with its label and as its best cleaned candidate, that pass the hard
    checks: they extract on every seed, every value is of the field's kind, and they answer other than
    ``shown``."""
    labels = {p.xpath: p.label for p in shared_pairs(seeds)}
    candidates = {c.key: c for c in (p.candidate() for p in shared_pairs(seeds))}
    best: dict[str, ScoredCandidate] = {}
    for scored in rank_pool(candidates, dict.fromkeys(candidates, len(seeds)), concept, seeds, urls):
        best.setdefault(scored.candidate.xpath, scored)
    found: list[tuple[str, ScoredCandidate]] = []
    for xpath, label in labels.items():
        scored = best.get(xpath)
        if scored is None or not all(scored.values) or not trusted(scored, len(seeds)):
            continue
        if names_the_record(scored, seeds):
            continue
        flat = [with_unit(v, scored.candidate.unit) for page in scored.values for v in page]
        if all(concept.matches_type(v) is not False for v in flat) and not any(
                _same_answer(scored, other) for other in [*shown, *(o for _, o in found)]):
            found.append((label, scored))
    return found[:PAIRS_SHOWN]


def names_the_record(scored: ScoredCandidate, seeds: Sequence[etree._Element]) -> bool:
    """Does the option's value repeat each seed page's own title (``Overview: <the page's heading>``)? That
    names the record the page is about, not one of its properties: a field that is not the headline is
    never the page's title (the chooser copied such a row for a university's type, issue 28)."""
    titles = [folded(page_title(root)) for root in seeds]
    firsts = [folded(page[0]) if page else "" for page in scored.values]
    return bool(firsts) and all(len(v) >= MIN_TITLE_CHARS and v in t for v, t in zip(firsts, titles, strict=False))


def _answer(llm: LLM, template: str, request: FieldRequest, concept: FieldConcept,
            lines: Sequence[tuple[str, ScoredCandidate]], why: str, fallback: ScoredCandidate | None) -> Choice:
    """Ask with ``template``; the answer is one of the lines copied (a JSON-schema enum) or ``none``. A small
    model copies the values it means more reliably than it maps them to a number (SWDE, round 2)."""
    by_line: dict[str, ScoredCandidate] = {}
    for line, option in lines:  # two options that print alike are one answer: the better-ranked one
        if line != NONE:
            by_line.setdefault(line, option)
    if not by_line:
        return Choice(fallback, False, f"no option to show ({why}); heuristic choice kept")
    prompt = render_prompt(template, field=request.name, instruction=request.instruction or request.name,
                           multiple=concept.multiple, lines=list(by_line))
    schema = {"title": "answer", "type": "object", "additionalProperties": False, "required": ["answer"],
              "properties": {"answer": {"enum": [*by_line, NONE]}}}
    budget = ANSWER_TOKENS + max(len(line) for line in by_line) // 2
    try:
        answer = ask_json(llm, prompt, schema, stage="induce.choose", max_tokens=budget)["answer"]
    except GrammarError as exc:  # the options cannot be put in the model's grammar: it is not asked
        return Choice(fallback, True, f"model not asked ({why}: {exc}); heuristic choice kept")
    except (LLMError, KeyError, TypeError):
        return Choice(fallback, True, f"model answer unusable ({why}); heuristic choice kept")
    if answer == NONE:
        return Choice(fallback, True, f"the model rejected all {len(by_line)} options ({why}); "
                                      "the evidence's choice kept")
    if answer not in by_line:
        return Choice(fallback, True, f"model answer unusable ({why}); heuristic choice kept")
    return Choice(by_line[answer], True, f"model chose {list(by_line).index(answer)} of {len(by_line)} ({why})")
