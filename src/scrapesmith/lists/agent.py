"""Record a list program with a model (BardeenAgent paper, sections 3.1-3.4), sized for small local models.

Algorithms propose, the model chooses: the DOM analysis lists the repeating regions and the model picks
the one the goal means; when the list is irregular (items of several shapes between headers and
dividers) the *selector model* writes one CSS selector for all items from the HTML of their least common
ancestor, which is validated before use; for each column and item shape the parts of an item are
numbered and the model names the one that holds the value (heuristic evidence is used first, so the
model is asked only where names and types say nothing); a column no single part holds is looked for on
the items' own pages by induce (the detail pass, :mod:`scrapesmith.lists.detail`), and only a column
found nowhere becomes an ``AnswerQuestion``. A *verifier* then looks at the rows the program extracts from the first page; if it
rejects them the recorder backtracks to the next candidate list. The number of calls depends on the
page's structure, never on how many rows or pages the list has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree
from pydantic import BaseModel

from scrapesmith.dom import (
    PageLayout,
    RankedList,
    RecordRegion,
    element_text,
    least_common_ancestor,
    rank_lists,
    simplify,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.choose import CONFIDENT, describe
from scrapesmith.lists.columns import column_kind, content_type, locate
from scrapesmith.lists.detail import record_detail_pass
from scrapesmith.lists.dsl import (
    Action,
    AnswerQuestion,
    EnterList,
    ExitList,
    Finish,
    SaveLink,
    SaveText,
    ScrapeFields,
)
from scrapesmith.lists.record import (
    Recording,
    apply_goal_filter,
    no_list_found,
    pagination_selector,
    widen_to_cousins,
)
from scrapesmith.lists.replay import Replayer
from scrapesmith.lists.runtime import PageRuntime, page_layout
from scrapesmith.lists.selectors import (
    list_item_selectors,
    multi_shape_field_selector,
    select_in,
    shape_of,
)
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm import LLM, LLMError, ask_json, ask_structured, render_prompt

CANDIDATE_LISTS = 4
CLOSE_MARGIN = 0.25
SAMPLE_CHARS = 160
SELECTOR_HTML_TOKENS = 1500
MAX_PARTS = 16
VERIFY_ROWS = 3
IRREGULAR_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "hr"})


class SelectorAnswer(BaseModel):
    thought: str = ""
    selector: str


class Verdict(BaseModel):
    thought: str = ""
    success: bool
    feedback: str = ""


@dataclass
class AgentContext:
    llm: LLM
    goal: str
    columns: list[str]
    notes: list[str]
    calls: int = 0
    examples: Mapping[str, str] | None = None

    def ask(self, prompt: str, model: type[BaseModel], stage: str, max_tokens: int = 256) -> BaseModel:
        self.calls += 1
        return ask_structured(self.llm, prompt, model, stage=stage, max_tokens=max_tokens)

    def ask_choice(self, prompt: str, key: str, allowed: list[int], stage: str) -> int:
        """One integer among ``allowed``, the schema an enum so a small model cannot answer outside it."""
        self.calls += 1
        schema = {
            "title": key,
            "type": "object",
            "properties": {key: {"enum": allowed}},
            "required": [key],
            "additionalProperties": False,
        }
        return int(ask_json(self.llm, prompt, schema, stage=stage, max_tokens=32)[key])


def record_with_llm(
    runtime: PageRuntime, start_url: str, goal: str, columns: list[str], llm: LLM,
    examples: Mapping[str, str] | None = None,
) -> Recording:
    """Record a program with ``llm`` choosing among algorithmic candidates (see the module docstring)."""
    context = AgentContext(llm, goal, columns, notes=[], examples=examples)
    tree = runtime.open(start_url)
    setup = apply_goal_filter(runtime, tree, goal, context.notes)
    layout = page_layout(runtime)  # first: a runtime that measures the page reads its tree again
    tree = runtime.tree()
    context.notes.append(f"list evidence: {layout.note}")
    candidates = _ranked_lists(context, tree, runtime.url, layout)
    if not candidates:
        raise no_list_found(runtime, tree)
    pagination = pagination_selector(tree, runtime.url, context.notes)
    program = None
    for region in candidates[:2]:
        program = _program_for(context, runtime, tree, region, setup, pagination, start_url)
        if _verified(context, runtime, program):
            break
        context.notes.append("verifier rejected the rows; backtracking to the next candidate list")
    return Recording(program=program, notes=context.notes, llm_calls=context.calls)


def _ranked_lists(
    context: AgentContext, tree: etree._Element, url: str, layout: PageLayout
) -> list[RecordRegion]:
    """Candidate lists by evidence; the model picks only when the best ones are close."""
    ranked = rank_lists(tree, layout=layout)[:CANDIDATE_LISTS]
    regions = [candidate.region for candidate in ranked]
    if len(ranked) < 2 or not _close(ranked):
        if ranked:
            context.notes.append(f"list by evidence (p={ranked[0].probability:.2f}); no model call")
        return regions
    described = [
        {"index": i, **describe(candidate), "preview": candidate.preview(2, SAMPLE_CHARS)}
        for i, candidate in enumerate(ranked)
    ]
    prompt = render_prompt(
        "lists_choose_list", goal=context.goal, columns=context.columns, url=url, candidates=described
    )
    try:
        choice = context.ask_choice(prompt, "choice", [*range(len(ranked)), -1], "lists.choose_list")
    except LLMError as exc:
        context.notes.append(f"list chooser failed ({exc}); using the likeliest list")
        return regions
    if choice >= 0:
        context.notes.append(f"model chose list {choice} of {len(ranked)} (evidence close)")
        return [regions[choice], *(r for i, r in enumerate(regions) if i != choice)]
    return regions


def _close(ranked: list[RankedList]) -> bool:
    """The evidence does not settle it: the best list is doubtful, or the runner-up is near it."""
    best, runner_up = ranked[0].probability, ranked[1].probability
    return best < CONFIDENT or runner_up >= best - CLOSE_MARGIN


def _program_for(
    context: AgentContext,
    runtime: PageRuntime,
    tree: etree._Element,
    region: RecordRegion,
    setup: list[Action],
    pagination: str | None,
    start_url: str,
) -> ListProgram:
    items = widen_to_cousins(tree, region)
    item_selector = list_item_selectors(items)
    if is_irregular(region):
        selector = selector_model(context, tree, items)
        if selector:
            item_selector, items = selector, select_in(tree, selector)
    actions = [_column_action(context, column, items) for column in context.columns]
    asked = [a.column for a in actions if isinstance(a, AnswerQuestion)]
    detail = record_detail_pass(runtime, items, asked, context.notes, examples=context.examples)  # the item's own page, before a model per row
    actions = [a for a in actions if not (isinstance(a, AnswerQuestion) and a.column in detail.found)]
    context.notes.append(f"list: {len(items)} items ({item_selector})")
    steps = [
        *setup,
        EnterList(elements=[item_selector], description=context.goal, pagination=pagination),
        *[a for a in actions if a is not None],
        *detail.actions,
        ExitList(),
        Finish(),
    ]
    return ListProgram(
        goal=context.goal,
        start_url=start_url,
        columns=context.columns,
        steps=steps,
        runtime="browser" if runtime.name == "browser" else "http",
        recorded_with=getattr(context.llm, "name", "llm"),
        notes=context.notes,
    )


def is_irregular(region: RecordRegion) -> bool:
    """Items interleaved with headers or dividers, or sections (several headers) around their container."""
    container = region.parent
    members = {id(item) for item in region.items}
    others = [child for child in container if isinstance(child.tag, str) and id(child) not in members]
    if any(child.tag in IRREGULAR_TAGS for child in others):
        return True
    parent = container.getparent()
    siblings = [child for child in parent if isinstance(child.tag, str)] if parent is not None else []
    return sum(1 for child in siblings if child.tag in IRREGULAR_TAGS) >= 2


def selector_model(context: AgentContext, tree: etree._Element, items: list[etree._Element]) -> str:
    """s = SelectorModel(g, c, H, d): one CSS selector for all items of an irregular list, validated."""
    lca = least_common_ancestor(items) if len(items) > 1 else items[0].getparent()
    container = lca.getparent() if lca is not None and lca.getparent() is not None else lca
    html = simplify(container, max_tokens=SELECTOR_HTML_TOKENS, max_similar=None).text
    examples = [simplify(item, max_tokens=200, max_similar=None).text for item in items[:2]]
    prompt = render_prompt(
        "lists_selector_model",
        goal=context.goal,
        columns=[{"name": c} for c in context.columns],
        description=context.goal,
        html=html,
        examples=examples,
    )
    try:
        answer = context.ask(prompt, SelectorAnswer, "lists.selector_model", max_tokens=400)
    except LLMError as exc:
        context.notes.append(f"selector model failed: {exc}")
        return ""
    found = select_in(tree, answer.selector)
    covers_examples = {id(item) for item in items} <= {id(node) for node in found}
    nested = any(a is not b and b in a.iterdescendants() for a in found for b in found)
    if not covers_examples or nested or not all(element_text(node) for node in found):
        context.notes.append(f"selector model answer {answer.selector!r} rejected ({len(found)} matches)")
        return ""
    context.notes.append(f"selector model: {answer.selector!r} ({len(found)} items)")
    return answer.selector


def _column_action(context: AgentContext, column: str, items: list[etree._Element]) -> Action | None:
    """SaveText/SaveLink with a selector that works for every item shape, else AnswerQuestion."""
    shapes: dict[tuple[str, str], etree._Element] = {}
    for item in items:
        shapes.setdefault(shape_of(item), item)
    targets, link = [], False
    for representative in shapes.values():
        match = locate(column, representative)
        target = match.element if match is not None else _choose_part(context, column, representative)
        if target is None:
            break
        link = link or bool(match and match.link)
        targets.append((representative, target))
    selector = multi_shape_field_selector(targets) if len(targets) == len(shapes) else ""
    if selector:
        return (SaveLink if link else SaveText)(element=selector, column=column)
    context.notes.append(f"column {column!r}: no part holds it alone; AnswerQuestion per item")
    return AnswerQuestion(element=":scope", column=column, question=f"What is the {column} in this record?")


def _choose_part(context: AgentContext, column: str, item: etree._Element) -> etree._Element | None:
    parts = [node for node in item.iter() if isinstance(node.tag, str) and _own_text(node)][:MAX_PARTS]
    if not parts:
        return None
    prompt = render_prompt(
        "lists_choose_field",
        goal=context.goal,
        column=column,
        wanted=column_kind(column),
        parts=[{"index": i, "text": element_text(p)[:120], "type": content_type(p)} for i, p in enumerate(parts)],
    )
    try:
        choice = context.ask_choice(prompt, "part", [*range(len(parts)), -1], "lists.choose_field")
    except LLMError:
        return None
    return parts[choice] if 0 <= choice < len(parts) else None


def detail_columns(program: ListProgram) -> set[str]:
    """The columns the program's detail pass fills."""
    return {c for a in program.plan().detail if isinstance(a, ScrapeFields) for c in a.columns}


def _own_text(node: etree._Element) -> str:
    return ((node.text or "") + "".join(child.tail or "" for child in node)).strip()


def _verified(context: AgentContext, runtime: PageRuntime, program: ListProgram) -> bool:
    """Ask the verifier whether the rows the program extracts from the first page fit the goal."""
    try:
        rows = Replayer(program, _CurrentPage(runtime), llm=None).run(max_pages=1).rows[:VERIFY_ROWS]
    except ScrapesmithError as exc:
        context.notes.append(f"first-page check failed: {exc}")
        return False
    on_list = [c for c in program.columns if c not in detail_columns(program)]  # the dry run stays on the list page
    shown = "\n".join(str({c: row.get(c, "") for c in on_list}) for row in rows) or "(no rows)"
    prompt = render_prompt(
        "lists_verify",
        goal=context.goal,
        action="EnterList + Save* (one list)",
        url_before=runtime.url,
        before="(the list page)",
        url_after=runtime.url,
        after=f"Rows extracted:\n{shown}",
    )
    try:
        verdict = context.ask(prompt, Verdict, "lists.verify")
    except LLMError as exc:
        context.notes.append(f"verifier failed ({exc}); keeping the program")
        return True
    if verdict.feedback:
        context.notes.append(f"verifier: {verdict.feedback}")
    return verdict.success


class _CurrentPage:
    """The runtime's current page as a runtime that never navigates (the verifier's dry run)."""

    name = "dry-run"

    def __init__(self, runtime: PageRuntime) -> None:
        self._runtime = runtime

    @property
    def url(self) -> str:
        return self._runtime.url

    def open(self, url: str) -> etree._Element:
        return self._runtime.tree()

    def tree(self) -> etree._Element:
        return self._runtime.tree()

    def click(self, selector: str) -> bool:
        return False

    def click_element(self, element: etree._Element) -> bool:
        return False

    def type_input(self, selector: str, value: str, enter: bool) -> None:
        return None

    def go_back(self) -> None:
        return None
