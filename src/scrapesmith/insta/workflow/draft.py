"""One judged-successful episode as a workflow-to-be (:class:`Draft`), before drafts merge (:mod:`.compile`).

A draft keeps every step that the browser took (failed steps are left out; the episode went on without them), with
locators for its element (``locate.locators_for``), its value's source (a parameter found in the task by
``align.find_span``, the value a ``read`` step took, a constant choice; a typed value with no source is
``unbound``, so replay never types it), its options, and the judge's verified criteria it proves
(``verify.Verdict.at``). Steps that do the same to each item the task enumerates ("Select A, B and C") become one
step repeated over a list parameter. Parameters are named p1, p2, … in the order the steps first use them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from scrapesmith.insta.criteria_reading import read_criterion
from scrapesmith.insta.evidence_judge import task_criteria
from scrapesmith.insta.page_values import PageValue, page_values
from scrapesmith.insta.values import same_value, satisfies, value_constraints
from scrapesmith.insta.verify import verify_criteria
from scrapesmith.insta.views import SiteResult, Step, Trajectory
from scrapesmith.insta.workflow.align import (
    ITEM_SEPARATOR,
    Span,
    find_span,
    spans_of_kind,
)
from scrapesmith.insta.workflow.locate import element_name, locators_for
from scrapesmith.insta.workflow.views import Locator, ValueRef, WorkflowStep

PARAMETER = re.compile(r"\{(p\d+)\}")


def family_of(url: str) -> str:
    """Host and path of a page, without port, query or fragment: one task family (a site's page, a MiniWoB task)."""
    parts = urlsplit(url)
    return f"{parts.hostname or ''}{parts.path}"


class _Namer:
    """Turns the task's words an episode used into parameters, one per span of the task."""

    def __init__(self, task: str) -> None:
        self.task = task
        self.slots: dict[str, Span] = {}

    def param_for(self, span: Span) -> str:
        for name, known in self.slots.items():
            if (known.start, known.end) == (span.start, span.end):
                return name
        name = f"p{len(self.slots) + 1}"
        self.slots[name] = span
        return name

    def name_of(self, text: str) -> str | None:
        span = find_span(text, self.task)
        return None if span is None else f"{{{self.param_for(span)}}}"

    def context_of(self, row: str, name: str = "") -> str | None:
        """The first quoted phrase or name of the task, other than the element's own ``name``, that the element's
        row holds (the "Like" button of the post by @x)."""
        for kind in ("name", "quoted"):
            for span in spans_of_kind(self.task, kind):
                if len(span.text) > 1 and span.text.casefold() != name.casefold() and re.search(rf"(?<!\w){re.escape(span.text)}(?!\w)", row, re.IGNORECASE):
                    return f"{{{self.param_for(span)}}}"
        return None


@dataclass
class Draft:
    """One episode as a workflow-to-be."""

    result: SiteResult
    task: str
    steps: list[WorkflowStep]
    slots: dict[str, Span]
    items: set[str] = field(default_factory=set)

    @property
    def family(self) -> str:
        return family_of(self.result.trajectory.start_url if self.result.trajectory else self.result.url)

    def signature(self) -> tuple:
        """What must be equal for two episodes to be one workflow: actions, element kinds and fixed names."""
        return tuple((s.action, tuple((lo.kind, lo.role, lo.value, lo.context) for lo in s.locators
                                      if lo.kind in ("role", "label", "source", "satisfies")),
                      s.value.source if s.value else None, s.value.parameter if s.value else None,
                      s.value.constant if s.value else None, s.value.reading if s.value else None,
                      tuple(sorted(s.options.items())))
                     for s in self.steps)


def _options(step: Step) -> dict[str, str | int | float | bool]:
    assert step.action is not None
    kwargs, key = step.action.action_kwargs, step.action.action_key
    if key == "set_checked":
        return {"checked": str(kwargs.get("checked", True)).strip().lower() not in ("false", "0", "no", "off")}
    if key == "scroll":
        return {"to": str(kwargs["to"])} if kwargs.get("to") else {"delta_y": int(float(kwargs.get("delta_y", 600) or 0))}
    if key == "read" and kwargs.get("word"):
        return {"word": int(kwargs["word"])}
    if key == "goto":
        return {"url": str(kwargs.get("url", ""))}
    if key == "wait":
        return {"seconds": float(kwargs.get("seconds", 1) or 0)}
    return {}


def _value(text: str, namer: _Namer, reads: list[tuple[str, int]], typed: bool,
           from_page: Iterable[PageValue] = ()) -> ValueRef:
    """Where ``text`` came from: a value read earlier, the task, a value typed that the page gave (its problem, the
    value beside a label), else (a choice) a constant or (typed) nothing."""
    for value, index in reads:
        if same_value(value, text):
            return ValueRef(source="read", read=index, example=text)
    span = find_span(text, namer.task)
    if span is not None:
        return ValueRef(source="parameter", parameter=namer.param_for(span), example=text)
    given = next((found for found in from_page if same_value(text, found.value)), None)
    if typed and given is not None:
        return ValueRef(source="page", reading=given.reading, example=text)
    return ValueRef(source="unbound", example=text) if typed else ValueRef(source="constant", constant=text, example=text)


def _meets_task(step: Step, namer: _Namer) -> Locator | None:
    """A ``satisfies`` locator for a clicked element whose name the task does not give but whose name meets what the
    task asks of the value ("an item that starts with "Sa"": the suggestion "San Marino"), the task's parts as
    parameters; None otherwise."""
    constraints = value_constraints(namer.task)
    element = step.target
    name = (element_name(element) or element.text) if element is not None else ""
    if not constraints or not satisfies(name, constraints) or find_span(name, namer.task) is not None:
        return None
    parts = [(kind, namer.name_of(part) or part) for kind, part in constraints]
    phrase = " and ".join(f'contains "{part}"' if kind == "contains" else f'{kind} with "{part}"' for kind, part in parts)
    return Locator(kind="satisfies", role=element.role if element is not None else None, value=phrase)


def draft_of(result: SiteResult) -> Draft | None:
    """The draft of one judged-successful episode (None when a step's element cannot be located again)."""
    trajectory = result.trajectory
    assert trajectory is not None
    namer = _Namer(trajectory.task)
    steps: list[WorkflowStep] = []
    at: dict[int, int] = {}
    reads: list[tuple[str, int]] = []
    for index, step in enumerate(trajectory.steps):
        action = step.action
        if action is None or step.error:
            continue
        key, kwargs = action.action_key, action.action_kwargs
        if key == "stop":
            answer = trajectory.answer
            steps.append(WorkflowStep(action="stop", value=_value(answer, namer, reads, True) if answer else None))
            at[index] = len(steps) - 1
            break
        workflow_step = WorkflowStep(action=key, options=_options(step))
        if action.target_element_id is not None:
            workflow_step.locators = locators_for(step, namer.name_of, namer.context_of)
            if not workflow_step.locators:
                return None
            meets = _meets_task(step, namer) if key == "click" else None
            if meets is not None:  # a suggestion chosen for what it is like, not for its name in this instance
                workflow_step.locators = [meets]  # its id or place holds another suggestion in another instance
        if key == "fill":
            label = step.target.label if step.target is not None else ""
            workflow_step.value = _value(str(kwargs.get("value", "")), namer, reads, True,
                                         page_values(trajectory.task, step.observation, label, action.target_element_id))
        elif key == "select_option":
            workflow_step.value = _value(str(kwargs.get("label", "")), namer, reads, False)
        elif key == "read" and kwargs.get("value") not in (None, ""):
            reads.append((str(kwargs["value"]), len(steps)))
        steps.append(workflow_step)
        at[index] = len(steps) - 1
    for number, criterion, index in _proofs(trajectory):
        if index in at:
            steps[at[index]].checks.append(number)
            steps[at[index]].check_texts.append(criterion)
    steps = _each_of_the_page(steps)
    draft = Draft(result=result, task=trajectory.task, steps=steps, slots=namer.slots)
    _collapse_lists(draft)
    renumber(draft)
    return draft


def _each_of_the_page(steps: list[WorkflowStep]) -> list[WorkflowStep]:
    """A click proving a criterion that asks for every item ("on all posts by @x", counted from the page by the
    judge) becomes one step done on each element its locator finds; the episode's clicks on the same locator
    before it fold into it (another instance shows another number of items)."""
    kept: list[WorkflowStep] = []
    for step in steps:
        if step.action == "click" and any(read_criterion(text).count in ("all", "each", "every")
                                          for text in step.check_texts):
            step.options["each"] = True
            kept = [other for other in kept if not (other.action == "click" and _role_locators(other) ==
                                                    _role_locators(step))]
        kept.append(step)
    return kept


def _role_locators(step: WorkflowStep) -> list[tuple[str | None, str, str | None]]:
    return [(lo.role, lo.value, lo.context) for lo in step.locators if lo.kind == "role"]


def _proofs(trajectory: Trajectory) -> list[tuple[int, str, int]]:
    """Each criterion the judge's program pass verifies on the whole episode, with the first step after which it
    holds (a criterion on "both fields" holds only after the second one): where its check goes."""
    criteria = task_criteria(trajectory.task)
    verdicts = verify_criteria(trajectory.task, criteria, trajectory)
    proofs = []
    for number, verdict in enumerate(verdicts):
        if verdict.status != "verified" or verdict.at < 0:
            continue
        for end in range(verdict.at, len(trajectory.steps)):
            prefix = trajectory.model_copy(update={"steps": trajectory.steps[:end + 1]})
            if verify_criteria(trajectory.task, criteria, prefix)[number].status == "verified":
                proofs.append((number, verdict.criterion, end))
                break
    return proofs


def _item_param(step: WorkflowStep) -> str | None:
    """The parameter a step's element is named by, when its whole name is that one parameter."""
    role = next((lo for lo in step.locators if lo.kind == "role"), None)
    match = PARAMETER.fullmatch(role.value) if role is not None else None
    return match.group(1) if match else None


def _collapse_lists(draft: Draft) -> None:
    """Runs of the same action on elements named by consecutive items of one enumeration in the task ("A, B and
    C") become one step repeated over a list parameter spanning the enumeration."""
    out: list[WorkflowStep] = []
    index = 0
    while index < len(draft.steps):
        step, run = draft.steps[index], [draft.steps[index]]
        name = _item_param(step)
        while name is not None and index + len(run) < len(draft.steps):
            nxt = draft.steps[index + len(run)]
            other = _item_param(nxt)
            if other is None or nxt.action != step.action or nxt.options != step.options:
                break
            between = draft.task[draft.slots[_item_param(run[-1]) or name].end:draft.slots[other].start]
            if not ITEM_SEPARATOR.fullmatch(between.strip("\"'“”‘’") or " "):
                break
            run.append(nxt)
        if len(run) > 1:
            names = [_item_param(s) or "" for s in run]
            first, last = draft.slots[names[0]], draft.slots[names[-1]]
            span = Span(draft.task[first.start:last.end], first.start, last.end, first.kind)
            for old in names:
                draft.slots.pop(old, None)
            draft.slots[names[0]] = span
            draft.items.add(names[0])
            merged = run[0].model_copy(deep=True)
            merged.locators = [lo for lo in merged.locators if lo.kind in ("role", "label")]
            merged.repeat = names[0]
            merged.checks = sorted({c for s in run for c in s.checks})
            merged.check_texts = list(dict.fromkeys(t for s in run for t in s.check_texts))
            out.append(merged)
        else:
            out.append(step)
        index += len(run)
    draft.steps = out


def rename_parameters(text: str | None, names: dict[str, str]) -> str | None:
    return None if text is None else PARAMETER.sub(lambda m: "{" + names.get(m.group(1), m.group(1)) + "}", text)


def rename_step(step: WorkflowStep, names: dict[str, str]) -> None:
    for locator in step.locators:
        locator.value = rename_parameters(locator.value, names) or ""
        locator.context = rename_parameters(locator.context, names)
    if step.value and step.value.parameter:
        step.value.parameter = names.get(step.value.parameter, step.value.parameter)
    step.repeat = names.get(step.repeat, step.repeat) if step.repeat else None


def renumber(draft: Draft) -> None:
    """Parameters named p1, p2, … in the order the steps first use them (so equal shapes use equal names)."""
    order: list[str] = []
    for step in draft.steps:
        used = [m for lo in step.locators for text in (lo.value, lo.context or "") for m in PARAMETER.findall(text)]
        used += [step.value.parameter] if step.value and step.value.parameter else []
        used += [step.repeat] if step.repeat else []
        order += [name for name in dict.fromkeys(used) if name not in order]
    names = {old: f"p{number}" for number, old in enumerate(order, start=1)}
    for step in draft.steps:
        rename_step(step, names)
    draft.slots = {names[old]: span for old, span in draft.slots.items() if old in names}
    draft.items = {names[old] for old in draft.items if old in names}
