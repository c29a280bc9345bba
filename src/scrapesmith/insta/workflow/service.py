"""Entry points: compile a run's judged-successful episodes into ``workflows/``, and replay one task in Chromium.

:func:`compile_run` reads an ``insta run`` (or ``bench miniwob --run-dir``) directory's shards and writes one JSON
file per workflow into its ``workflows/`` folder, beside the results, where ``report.html`` lists them.
:func:`replay_task` runs one task with workflows and no model (or with the agent as ``fallback``), in a browser
session the caller opens, and judges the episode with the evidence judge's program pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapesmith.insta.agent import Policy, run_episode
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import Judgement, Trajectory
from scrapesmith.insta.workflow.compile import CompileReport, compile_workflows
from scrapesmith.insta.workflow.replay import WorkflowPolicy
from scrapesmith.insta.workflow.views import Workflow

WORKFLOWS_DIR = "workflows"


def compile_run(run_dir: Path, out: Path | None = None, more: Sequence[Path] = (),
                rejudge: bool = False) -> tuple[CompileReport, list[Path]]:
    """Compile the episodes of ``run_dir`` and of the ``more`` runs (the latest result per site of each; the
    no-model agent's and the model agent's episodes of the same tasks, say) into ``out`` (default
    ``RUN_DIR/workflows``). ``rejudge``: an episode its run's judge did not verify is judged again by the
    evidence judge's program pass (a run judged by an older judge; no model is asked, so nothing the program
    cannot verify is added)."""
    sources = [(str(folder), result) for folder in (run_dir, *more) for result in ResultStore(folder).latest().values()]
    results = [result for _, result in sources]
    origin = {id(result): folder for folder, result in sources}
    if rejudge:
        judge = EvidenceJudge(None)
        for result in results:
            if result.trajectory is not None and not (result.judgement and result.judgement.succeeded):
                result.judgement = judge.judge(result.trajectory.task, result.trajectory)
    report = compile_workflows(results, run=lambda result: origin[id(result)])  # each episode's own run
    folder = Path(out) if out is not None else Path(run_dir) / WORKFLOWS_DIR
    return report, [workflow.save(folder) for workflow in report.workflows]


@dataclass
class ReplayResult:
    """One replayed task: the trajectory, the judge's verdict, and the policy's account of the workflow."""

    trajectory: Trajectory
    judgement: Judgement
    workflow: dict[str, Any] = field(default_factory=dict)

    @property
    def succeeded(self) -> bool:
        return self.workflow.get("broken_step") is None and self.judgement.succeeded


def replay_task(session: Any, workflows: list[Workflow], task: str, url: str, fallback: Policy | None = None,
                max_actions: int = 30) -> ReplayResult:
    """Replay ``task`` from ``url`` with ``workflows`` (the family's are picked by ``url``) in ``session``; named
    outright, a single workflow also binds a task its template does not fit by kind and ordinal."""
    env = BrowserEnv(session)
    policy = WorkflowPolicy(workflows, fallback=fallback, observe=env.observe, by_kind=len(workflows) == 1)
    trajectory = run_episode(env, policy, task, url, max_actions=max_actions)
    judgement = EvidenceJudge(None).judge(task, trajectory)
    return ReplayResult(trajectory=trajectory, judgement=judgement, workflow=policy.report())
