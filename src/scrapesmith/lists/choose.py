"""The model as chooser of a page's main list, asked only where the evidence's top two are close.

:func:`scrapesmith.dom.list_evidence.rank_lists` gives every candidate a probability of being a list of
data records and :func:`~scrapesmith.dom.list_evidence.select_lists` turns the ranking into the page's
lists (the likeliest, then the others that do not overlap it and, judged against it, reach 0.5). Without
a model, or when the best two options are :data:`CLOSE` or further apart, that is the answer.

When they are close, a call shows the :data:`CHOICES` best options — each with its item count, where
it sits (page chrome, a form, the main content; top, middle or bottom), and its first records as text —
and the model names the one that holds the page's main records, its answer bound by a JSON schema to
the ids shown (an enum). A second call shows the same options in reverse order: a choice counts only if
both name the same list (a small model that prefers whatever comes first names two different ones, and
the evidence decides). The program keeps the hard checks: a list inside the page's header, navigation,
footer or sidebar is not offered while a main-content list is. When the model names the evidence's own
first option, the evidence's selection stands unchanged; otherwise the chosen list comes first, the
options it beat are dropped unless the evidence is confident about them (:data:`CONFIDENT`), and
everything else is selected by the evidence as without a model, judged against the chosen list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from scrapesmith.dom import DATA_LIST_THRESHOLD, PageLayout, RankedList, rank_lists, select_lists
from scrapesmith.llm import LLM, LLMError, ask_json, render_prompt

CLOSE = 0.25
CHOICES = 4
POOL = 8
CONFIDENT = 0.75
PREVIEW_ITEMS = 3
PREVIEW_CHARS = 100


@dataclass
class ListDecision:
    """The lists taken, and what the model was offered and chose (for notes and benchmarks)."""

    lists: list[RankedList]
    options: list[RankedList] = field(default_factory=list)
    chosen: int | None = None
    calls: int = 0
    note: str = ""


def offered(ranked: list[RankedList]) -> list[RankedList]:
    """The options a chooser may pick from: the best :data:`CHOICES` candidates, leaving out lists in
    the page's header, navigation, footer or sidebar while a main-content list is among the best."""
    pool = ranked[:POOL]
    if any(not candidate.evidence.in_chrome_element for candidate in pool):
        pool = [candidate for candidate in pool if not candidate.evidence.in_chrome_element]
    return pool[:CHOICES]


def is_close(options: list[RankedList]) -> bool:
    """The evidence's best two options are within :data:`CLOSE` of each other."""
    return len(options) >= 2 and options[0].probability - options[1].probability < CLOSE


def with_main_list(ranked: list[RankedList], options: list[RankedList], main: RankedList) -> list[RankedList]:
    """The page's lists with ``main`` first: the options it beat are dropped unless the evidence is
    confident about them; the rest is the evidence's own selection."""
    beaten = {id(option) for option in options if option is not main and option.probability < CONFIDENT}
    rest = [candidate for candidate in ranked if candidate is not main and id(candidate) not in beaten]
    return select_lists([main, *rest], DATA_LIST_THRESHOLD)


def choose_data_lists(
    root: etree._Element, llm: LLM | None, url: str = "", goal: str = "", layout: PageLayout | None = None
) -> ListDecision:
    """The page's data lists: evidence (with the rendered ``layout`` when there is one) decides where it
    is clear, the model chooses the main list among the close options."""
    ranked = rank_lists(root, layout=layout)
    options = offered(ranked)
    if llm is None or not is_close(options):
        return ListDecision(
            select_lists(ranked, DATA_LIST_THRESHOLD), note="evidence clear; no model call"
        )
    decision = ListDecision([], options=options)
    try:
        decision.calls += 1
        first = _ask(llm, options, url, goal)
        decision.calls += 1
        again = len(options) - 1 - _ask(llm, options[::-1], url, goal)
    except LLMError as exc:
        decision.note = f"list chooser failed ({exc}); evidence alone decides"
        decision.lists = select_lists(ranked, DATA_LIST_THRESHOLD)
        return decision
    if first != again:
        decision.note = f"model named options {first} and {again} in the two orders; evidence alone decides"
        decision.lists = select_lists(ranked, DATA_LIST_THRESHOLD)
        return decision
    decision.chosen = first
    if decision.chosen == 0:  # the model agrees with the evidence: the evidence's own selection stands
        decision.lists = select_lists(ranked, DATA_LIST_THRESHOLD)
    else:
        decision.lists = with_main_list(ranked, options, options[decision.chosen])
    decision.note = f"model chose option {decision.chosen} of {len(options)} as the main list"
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
    third = min(int(evidence.position * 3), 2)
    places.append(("near the top", "in the middle", "near the bottom")[third] + " of the page")
    return {"items": evidence.items, "where": ", ".join(places)}


def _ask(llm: LLM, options: list[RankedList], url: str, goal: str) -> int:
    ids = list(range(len(options)))
    candidates = [
        {"id": i, **describe(c), "preview": c.preview(PREVIEW_ITEMS, PREVIEW_CHARS)} for i, c in enumerate(options)
    ]
    schema = {
        "title": "MainList",
        "type": "object",
        "properties": {"main_list": {"enum": ids}},
        "required": ["main_list"],
        "additionalProperties": False,
    }
    prompt = render_prompt("lists_choose_main_list", url=url, goal=goal, candidates=candidates)
    answer = ask_json(llm, prompt, schema, stage="lists.choose_main_list", max_tokens=16)
    return int(answer["main_list"])
