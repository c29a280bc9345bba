"""Compile judged-successful episodes into workflows: one draft per episode, one workflow per family and shape.

Each episode becomes a draft (:mod:`.draft`: its steps with locators, value sources, options and the criteria
they prove). Drafts of one family (host and path of the start page) with the same shape —
the same actions on the same kinds of elements, named the same way — merge into one workflow: the tasks are aligned
word by word into a template, a parameter whose value was the same in every episode becomes part of it (a name to
click; a value to type stays a parameter), and the locators of every episode are kept as fallbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from scrapesmith.insta.evidence_judge import task_criteria
from scrapesmith.insta.views import SiteResult
from scrapesmith.insta.workflow.align import (
    merge_templates,
    ordinal_of,
    render_template,
    template_tokens,
)
from scrapesmith.insta.workflow.draft import (
    PARAMETER,
    Draft,
    draft_of,
    family_of,
    rename_parameters,
    rename_step,
)
from scrapesmith.insta.workflow.reveal import add_reveals
from scrapesmith.insta.workflow.views import Locator, Parameter, Provenance, ValueRef, Workflow, WorkflowStep

__all__ = ["CompileReport", "Draft", "RunOf", "compile_workflows", "draft_of", "family_of", "merge"]


def _constants(drafts: list[Draft]) -> dict[str, str]:
    """Parameters whose words were the same in every episode (two or more) and that name what to click or choose:
    part of the template, not a parameter. A value to type and a quoted phrase (quotes mark a value) stay
    parameters."""
    if len(drafts) < 2:
        return {}
    typed = {s.value.parameter for s in drafts[0].steps if s.action == "fill" and s.value and s.value.parameter}
    out = {}
    for name, span in drafts[0].slots.items():
        values = {d.slots[name].text.casefold() for d in drafts if name in d.slots}
        if len(values) == 1 and name not in typed and name not in drafts[0].items and span.kind != "quoted" and \
                all(name in d.slots for d in drafts):
            out[name] = span.text
    return out


def _fix(step: WorkflowStep, constants: dict[str, str]) -> None:
    def sub(text: str) -> str:
        return PARAMETER.sub(lambda m: constants.get(m.group(1), m.group(0)), text)

    for locator in step.locators:
        locator.value = sub(locator.value)
        locator.context = sub(locator.context) if locator.context else None
    if step.value and step.value.parameter in constants:
        step.value = ValueRef(source="constant", constant=constants[step.value.parameter], example=step.value.example)


#: The run an episode came from: one name for all, or a function of the episode (several runs compiled together).
RunOf = str | Callable[[SiteResult], str]


def merge(drafts: list[Draft], run: RunOf = "") -> Workflow:
    """One workflow from drafts of one family and shape (see the module docstring)."""
    first = drafts[0]
    constants = _constants(drafts)
    tokens = merge_templates(_tokens(d, constants) for d in drafts)
    steps = [step.model_copy(deep=True) for step in first.steps]
    criteria = {len(task_criteria(d.task)) for d in drafts}
    for number, step in enumerate(steps):
        _fix(step, constants)
        for other in drafts[1:]:
            extra = [lo for lo in other.steps[number].locators if lo.kind not in ("role", "label", "source")]
            step.locators += [lo for lo in extra if lo not in step.locators]
            step.repeat = step.repeat or other.steps[number].repeat
            kept = [c for c in step.checks if c in other.steps[number].checks]
            step.check_texts = [t for c, t in zip(step.checks, step.check_texts, strict=True) if c in kept]
            step.checks = kept
        if len(criteria) > 1:
            step.checks, step.check_texts = [], []
        step.locators.sort(key=_locator_rank)
    parameters = [Parameter(name=name, kind=span.kind, ordinal=ordinal_of(span, first.task),  # type: ignore[arg-type]
                            items=name in first.items or any(name in d.items for d in drafts),
                            examples=list(dict.fromkeys(d.slots[name].text for d in drafts if name in d.slots)))
                  for name, span in sorted(first.slots.items(), key=lambda item: int(item[0][1:]))
                  if name not in constants]
    for step in steps:
        if step.repeat and any(p.name == step.repeat for p in parameters):
            next(p for p in parameters if p.name == step.repeat).items = True
    names = {p.name: f"p{number}" for number, p in enumerate(parameters, start=1)}  # p1, p2, … once more
    for parameter in parameters:
        parameter.name = names[parameter.name]
    for step in steps:
        rename_step(step, names)
    tokens = [rename_parameters(token, names) or "" for token in tokens]
    trajectory = first.result.trajectory
    assert trajectory is not None
    return Workflow(family=first.family, start_url=trajectory.start_url, template=render_template(tokens),
                    parameters=parameters, steps=steps, criteria=criteria.pop() if len(criteria) == 1 else 0,
                    provenance=[_provenance(d, run) for d in drafts])


def _locator_rank(locator: Locator) -> int:
    from scrapesmith.insta.workflow.views import LOCATOR_ORDER

    return LOCATOR_ORDER.index(locator.kind)


def _tokens(draft: Draft, constants: dict[str, str]) -> list[str]:
    slots = {name: span for name, span in draft.slots.items() if name not in constants}
    return template_tokens(draft.task, slots)


def _provenance(draft: Draft, run: RunOf) -> Provenance:
    judgement = draft.result.judgement
    return Provenance(site=draft.result.site, url=draft.result.url, task=draft.task,
                      judge=judgement.kind if judgement else "", success=judgement.success if judgement else 0.0,
                      run=run(draft.result) if callable(run) else run)


@dataclass
class CompileReport:
    """What a compile made of a run's episodes: the workflows, and how many episodes each reason left out."""

    workflows: list[Workflow]
    episodes: int = 0
    compiled: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    #: per task family (a MiniWoB task, a site's page): episodes seen, compiled, and each reason left out
    families: dict[str, dict[str, int]] = field(default_factory=dict)

    def uncovered(self) -> dict[str, dict[str, int]]:
        """The families no workflow was compiled for, with why: how many episodes each reason left out."""
        covered = {workflow.family for workflow in self.workflows}
        return {family: {k: v for k, v in counts.items() if k not in ("episodes", "compiled")}
                for family, counts in sorted(self.families.items()) if family not in covered}


def compile_workflows(results: Iterable[SiteResult], run: RunOf = "") -> CompileReport:
    """Workflows from the episodes the judge called successful; every other episode is counted by reason, in
    all and per task family (a family with no workflow says why). ``run`` names each episode's run in the
    workflows' provenance."""
    report = CompileReport(workflows=[])
    groups: dict[tuple, list[Draft]] = {}
    for result in results:
        report.episodes += 1
        start = result.trajectory.start_url if result.trajectory else result.url
        counts = report.families.setdefault(family_of(start), {"episodes": 0, "compiled": 0})
        counts["episodes"] += 1
        reason = _unusable(result)
        draft = None if reason else draft_of(result)
        if reason or draft is None:
            reason = reason or "a step's element has no locator"
            report.skipped[reason] = report.skipped.get(reason, 0) + 1
            counts[reason] = counts.get(reason, 0) + 1
            continue
        report.compiled += 1
        counts["compiled"] += 1
        groups.setdefault((draft.family, draft.signature()), []).append(draft)
    report.workflows = [merge(drafts, run) for drafts in groups.values()]
    add_reveals(report.workflows)
    return report


def _unusable(result: SiteResult) -> str | None:
    if result.status != "ok" or result.trajectory is None:
        return f"status {result.status}"
    if result.judgement is None:
        return "not judged"
    if not result.judgement.succeeded:
        return "judged unsuccessful"
    if not any(step.action is not None and not step.error for step in result.trajectory.steps):
        return "no action"
    return None
