"""Which workflow a task runs: the one of the page's family whose template the task fits, and its binding.

:class:`~scrapesmith.insta.workflow.replay.WorkflowPolicy` asks on its first turn; a task no workflow fits is the
reason its episode stops (or is handed to the agent).
"""

from __future__ import annotations

from scrapesmith.insta.workflow.align import Binding, bind_by_kind, bind_template, template_regex
from scrapesmith.insta.workflow.draft import family_of
from scrapesmith.insta.workflow.views import Workflow


def pick_workflow(workflows: list[Workflow], task: str, url: str | None = None,
                  by_kind: bool = False) -> tuple[Workflow | None, Binding, str]:
    """The workflow for ``task`` on ``url``'s family, its binding, and why none fits (empty when one does).

    Among the workflows whose template the task matches, the most specific (most fixed words), then the one
    compiled from most episodes. With no match and ``by_kind`` (the caller named the workflow to run), a family
    with a single workflow binds by kind and ordinal; without it, a task the template does not fit is no task of
    the workflow's (another clause, another field). Workflows all of one family are used on any page (the caller
    chose them: a page that moved)."""
    family = family_of(url) if url else None
    pool = [w for w in workflows if family is None or w.family == family]
    if not pool and len({w.family for w in workflows}) == 1:
        pool = list(workflows)
    if not pool:
        return None, {}, f"no workflow for {family or 'this page'} ({len(workflows)} workflows of other pages)"
    matched = []
    for workflow in pool:
        binding = bind_template(workflow.template, workflow.parameters, task)
        if binding is not None:
            fixed = len(template_regex(workflow.template).pattern) - 20 * len(workflow.parameters)
            matched.append((fixed, len(workflow.provenance), workflow, binding))
    if matched:
        _, _, workflow, binding = max(matched, key=lambda entry: (entry[0], entry[1]))
        return workflow, binding, ""
    if len(pool) == 1 and by_kind:
        binding_by_kind, why = bind_by_kind(pool[0].parameters, task)
        if binding_by_kind is not None:
            return pool[0], binding_by_kind, ""
        return None, {}, f"the task does not match {pool[0].workflow_id}'s template and {why}"
    return None, {}, f"the task matches none of the {len(pool)} workflow templates for {pool[0].family}"
