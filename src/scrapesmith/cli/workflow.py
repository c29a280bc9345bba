"""``scrapesmith insta compile|replay``: agent episodes compiled into workflows, and workflows replayed with no model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import console, insta_app
from scrapesmith.cli.options import AllowHostOption, LLMOption, NoCacheOption, allowed_hosts, llm_from_options
from scrapesmith.errors import ScrapesmithError


@insta_app.command("compile")
def insta_compile(
    run_dirs: Annotated[list[Path], typer.Argument(
        help="Output directories of 'insta run' or 'bench miniwob --run-dir' (several: their episodes together; "
        "the workflows go into the first one's workflows/).")],
    out: Annotated[Path | None, typer.Option("--out", help="Where the workflows go (default RUN_DIR/workflows).")] = None,
    rejudge: Annotated[bool, typer.Option(
        "--rejudge", help="Judge the episodes a run's judge did not verify again with the evidence judge's program "
        "pass (runs judged by an older judge); no model is asked.")] = False,
) -> None:
    """Compile the episodes the judge verified into workflow programs (JSON, one per task family and shape);
    every task family left without a workflow is listed with why."""
    from scrapesmith.insta.workflow import compile_run

    for run_dir in run_dirs:
        if not (run_dir / "shards").is_dir():
            raise ScrapesmithError(f"{run_dir}: not an insta run (no shards/ folder)")
    report, paths = compile_run(run_dirs[0], out, more=run_dirs[1:], rejudge=rejudge)
    skipped = ", ".join(f"{count} {reason}" for reason, count in sorted(report.skipped.items())) or "none"
    console.print(f"{report.episodes} episodes: {report.compiled} compiled into {len(paths)} workflows; "
                  f"left out: {skipped}", highlight=False)
    for workflow, path in zip(report.workflows, paths, strict=True):
        console.print(f"[bold]{workflow.workflow_id}[/] {workflow.family} ({len(workflow.provenance)} episodes) "
                      f"-> {path}\n  {workflow.template}", highlight=False)
    uncovered = report.uncovered()
    if uncovered:
        console.print(f"{len(uncovered)} of {len(report.families)} task families have no workflow:", highlight=False)
    for family, reasons in uncovered.items():
        why = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
        console.print(f"  {family}: {why}", highlight=False)


@insta_app.command("replay")
def insta_replay(
    workflow: Annotated[Path, typer.Argument(help="A workflow file, or a folder of them (a run's workflows/).")],
    task: Annotated[str, typer.Option("--task", help="The task to do; the workflow's parameters are bound from it.")],
    url: Annotated[str | None, typer.Option(
        "--url", help="Start page (default: the workflow's own start page; needed for a folder of several).")] = None,
    fallback: Annotated[bool, typer.Option(
        "--fallback", help="Where a step breaks, hand the episode to the candidate policy (the model chooses "
        "where it would, with --llm).")] = False,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="Hard cap on actions.")] = 30,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    allow_host: AllowHostOption = None,
) -> None:
    """Run TASK with a compiled workflow in Chromium, with no model: bind, locate, act, check every step."""
    from scrapesmith.insta import make_policy
    from scrapesmith.insta.workflow import load_workflows, replay_task
    from scrapesmith.web.browser import BrowserPolicy, BrowserSession

    if not task.strip():
        raise typer.BadParameter("must not be empty", param_hint="--task")
    workflows = load_workflows(workflow)
    starts = {w.start_url for w in workflows}
    if url is None and len(starts) > 1:
        raise typer.BadParameter(f"{workflow} holds workflows of {len(starts)} start pages: say which with --url",
                                 param_hint="--url")
    start = url or starts.pop()
    agent = make_policy("candidates", llm_from_options(llm, no_cache)) if fallback else None
    policy = BrowserPolicy.from_settings(allow_hosts=allowed_hosts(allow_host))
    with BrowserSession(policy=policy) as session, console.status(f"replaying on {start}"):
        result = replay_task(session, workflows, task, start, fallback=agent, max_actions=max_actions)
    for number, step in enumerate(result.trajectory.steps, start=1):
        done = step.candidate or (step.action.action_key if step.action else "(none)")
        console.print(f"{number}. [{step.path}] {done}" + (f"  [red]{step.error}[/]" if step.error else ""),
                      highlight=False)
    info = result.workflow
    verdict = "success" if result.judgement.succeeded else "not verified"
    console.print(f"workflow {info.get('workflow')}: judge {verdict}; {len(result.trajectory.steps)} steps in "
                  f"{result.trajectory.seconds:.1f}s; final page {result.trajectory.final_url}", highlight=False)
    if info.get("broken_step") is not None:
        step = info["broken_step"]
        where = f"workflow step {step}" if step else "workflow"
        message = f"{where} broke: {info['broken_why']}"
        if info.get("fallback"):
            console.print(f"{message}; the agent took over from there", highlight=False)
        else:
            raise ScrapesmithError(message)
