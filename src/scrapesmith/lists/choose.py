"""The model as chooser among candidate lists, asked only where the evidence is split.

:func:`scrapesmith.dom.list_evidence.rank_lists` gives every candidate a probability of being a list of
data records. Candidates at or above :data:`CONFIDENT` are kept and those below :data:`DOUBTFUL` dropped
without asking anyone; when some of the shortlist fall in between, one call shows the shortlist (item
count, where it sits, its first records) and the model names the data lists, its answer constrained by a
JSON schema to the ids shown. The model decides only the doubtful candidates — it can neither drop a
confident one nor bring back a dismissed one — and the hard check (no list nested in another one taken)
runs after it. Without a model, or when nothing is doubtful, the result is exactly
:func:`~scrapesmith.dom.list_evidence.detect_lists`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from scrapesmith.dom.list_evidence import (
    DATA_LIST_THRESHOLD,
    LOOK_ALIKE_FLOOR,
    RankedList,
    rank_lists,
    select_lists,
)
from scrapesmith.llm.structured import ask_json
from scrapesmith.llm.templates import render_prompt
from scrapesmith.llm.types import LLM, LLMError

CONFIDENT = 0.75
DOUBTFUL = 0.25
SHORTLIST = 6
PREVIEW_ITEMS = 3
PREVIEW_CHARS = 100


@dataclass
class ListDecision:
    """The lists taken, and what the model was shown and said (for notes and benchmarks)."""

    lists: list[RankedList]
    shown: list[int] = field(default_factory=list)
    doubtful: list[int] = field(default_factory=list)
    model_chose: list[int] = field(default_factory=list)
    calls: int = 0
    note: str = ""


def choose_data_lists(
    root: etree._Element, llm: LLM | None, url: str = "", goal: str = ""
) -> ListDecision:
    """The page's data lists: evidence decides where it is clear, the model where it is split."""
    ranked = rank_lists(root)
    shortlist = ranked[:SHORTLIST]
    doubtful = [i for i, c in enumerate(shortlist) if DOUBTFUL <= c.probability < CONFIDENT]
    if llm is None or not doubtful:
        return ListDecision(select_lists(ranked, DATA_LIST_THRESHOLD, LOOK_ALIKE_FLOOR), note="evidence clear; no model call")
    decision = ListDecision([], shown=list(range(len(shortlist))), doubtful=doubtful, calls=1)
    try:
        decision.model_chose = _ask(llm, shortlist, url, goal)
    except LLMError as exc:
        decision.note = f"list chooser failed ({exc}); evidence alone decides"
        decision.lists = select_lists(ranked, DATA_LIST_THRESHOLD, LOOK_ALIKE_FLOOR)
        return decision
    keep = [
        c
        for i, c in enumerate(ranked)
        if c.probability >= CONFIDENT or (i in doubtful and i in decision.model_chose)
    ]
    decision.lists = select_lists(keep or ranked[:1], threshold=0.0)
    decision.note = f"model kept {sorted(set(doubtful) & set(decision.model_chose))} of doubtful {doubtful}"
    return decision


def describe(candidate: RankedList) -> dict[str, Any]:
    """Where a candidate sits, in words a model can weigh."""
    evidence = candidate.evidence
    places = [
        label
        for label, present in (
            ("in the page header/navigation/footer/sidebar", evidence.in_chrome_element),
            ("inside a form", evidence.in_form),
            ("in the main content", evidence.in_main and not evidence.in_chrome_element),
        )
        if present
    ]
    return {"items": evidence.items, "where": ", ".join(places)}


def _ask(llm: LLM, shortlist: list[RankedList], url: str, goal: str) -> list[int]:
    ids = list(range(len(shortlist)))
    candidates = [
        {"id": i, **describe(c), "preview": c.preview(PREVIEW_ITEMS, PREVIEW_CHARS)}
        for i, c in enumerate(shortlist)
    ]
    schema = {
        "title": "DataLists",
        "type": "object",
        "properties": {"data_lists": {"type": "array", "items": {"enum": ids}, "uniqueItems": True}},
        "required": ["data_lists"],
        "additionalProperties": False,
    }
    prompt = render_prompt("lists_choose_data_lists", url=url, goal=goal, candidates=candidates)
    answer = ask_json(llm, prompt, schema, stage="lists.choose_data_lists", max_tokens=48)
    return [int(i) for i in answer["data_lists"]]
