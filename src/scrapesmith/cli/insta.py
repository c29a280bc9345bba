"""``scrapesmith insta run|export`` and ``scrapesmith bench miniwob|insta-safety``: the InSTA pipeline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import console, insta_app
from scrapesmith.cli.options import (
    AllowHostOption,
    DelayOption,
    LLMOption,
    NoRobotsOption,
    OpenOption,
    allowed_hosts,
    bounded,
    check_choice,
    progress_bar,
    show_report,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.llm import NoModelConfigured, effective_spec, parse_spec


def split_list(values: str | None) -> list[str]:
    return [part.strip() for part in (values or "").split(",") if part.strip()]


PolicyOption = Annotated[str, typer.Option(
    "--policy", help="candidates: the model picks among grounded candidate actions (default); "
    "paper: the seed's free-form JSON action; bench miniwob only: workflow, the workflows of --workflows "
    "replayed with no model.")]
JudgeKindOption = Annotated[str, typer.Option(
    "--judge-kind", help="evidence: criteria checked one by one with verified quotes (default); "
    "paper: the seed's free-form scores.")]


def paper_needs_model(has_model: bool, policy: str, judge_kind: str | None) -> None:
    """The one check that the seed's own policy and judge (``paper``) get the model they cannot run without."""
    if not has_model and "paper" in (policy, judge_kind):
        raise NoModelConfigured("--policy paper and --judge-kind paper need a language model")


@insta_app.command("run")
def insta_run(
    sites: Annotated[Path, typer.Option("--sites", help="Text file of site URLs or domains, one per line.")],
    out: Annotated[
        Path, typer.Option("--out", help="Output directory (shards/, results.parquet); rerun to resume.")
    ],
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Local worker processes (or Ray CPUs).")
    ] = 1,
    ray: Annotated[bool, typer.Option("--ray", help="Run on Ray (local instance, or RAY_ADDRESS).")] = False,
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Connect to this Ray cluster.")
    ] = None,
    llm: LLMOption = None,
    max_actions: Annotated[
        int, typer.Option("--max-actions", min=1, help="Hard cap on agent actions per site.")
    ] = 30,
    site_timeout: Annotated[
        float, typer.Option("--site-timeout", callback=bounded(0, above=True), help="Hard cap on agent wall time per site (s).")
    ] = 600.0,
    reasoning_words: Annotated[
        int, typer.Option("--reasoning-words", min=1, help="Length of the agent's plan per step.")
    ] = 200,
    allow_host: AllowHostOption = None,
    no_robots: NoRobotsOption = False,
    delay: DelayOption = None,
    retry_failed: Annotated[
        bool, typer.Option("--retry-failed", help="Also rerun sites recorded as failed.")
    ] = False,
    no_refine: Annotated[bool, typer.Option("--no-refine", help="Skip phase 2 of the proposer.")] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for sampling the proposer's examples.")
    ] = None,
    no_screenshots: Annotated[
        bool, typer.Option("--no-screenshots", help="Do not save a PNG of the page at every agent step.")
    ] = False,
    policy: PolicyOption = "candidates",
    judge_kind: JudgeKindOption = "evidence",
    tasks_per_site: Annotated[int, typer.Option("--tasks-per-site", min=1, help="Distinct tasks proposed from the "
                                                "pages read, each run and judged (one proposer call).")] = 3,
    open_: OpenOption = False,
) -> None:
    """Propose a task for every site, run the agent on it, judge the trajectory and refine the task.

    With ``--llm none`` (candidate policy and evidence judge only) every stage takes its heuristic path."""
    from scrapesmith.insta import JUDGE_KINDS, POLICIES, PipelineConfig, ResultStore, read_sites, run_pipeline
    from scrapesmith.scale import make_runner

    check_choice("--policy", policy, POLICIES)
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    if not sites.is_file():
        raise ScrapesmithError(f"sites file not found: {sites}")
    spec = effective_spec(llm)
    paper_needs_model(parse_spec(spec).provider != "none", policy, judge_kind)
    site_list = read_sites(sites.read_text(encoding="utf-8").splitlines())
    config = PipelineConfig(
        llm_spec=spec, max_actions=max_actions, site_wall_time=site_timeout, reasoning_words=reasoning_words,
        refine=not no_refine, allow_hosts=tuple(allowed_hosts(allow_host)),
        respect_robots=not no_robots, politeness_delay=delay, seed=seed,
        screenshots_dir=None if no_screenshots else str(out / "screenshots"), policy=policy, judge_kind=judge_kind,
        tasks_per_site=tasks_per_site,
    )
    store = ResultStore(out)
    runner = make_runner(workers, use_ray=ray, ray_address=ray_address)
    try:
        with progress_bar() as progress:
            task = progress.add_task("sites", total=len(site_list) - len(store.finished(retry_failed)))
            summary = run_pipeline(site_list, store, runner, config, retry_failed=retry_failed,
                                   on_result=lambda result: progress.advance(task))
    finally:
        runner.close()
    console.print(
        f"{summary.sites} sites ({summary.skipped} already done): {summary.ok} ok, {summary.unsafe} unsafe, "
        f"{summary.failed} failed; {summary.steps} steps in {summary.seconds:.1f}s on {summary.runner} "
        f"x{summary.workers} ({summary.sites_per_hour:.1f} sites/h, {summary.steps_per_second:.3f} steps/s) "
        f"-> {out}", highlight=False)
    if summary.refused:
        by_category = ", ".join(f"{category} {count}" for category, count in sorted(summary.refused.items()))
        console.print(f"refused by the safety filter: {sum(summary.refused.values())} ({by_category})",
                      highlight=False)
    for site, error in list(summary.errors.items())[:10]:
        console.print(f"[yellow]{site}[/]: {error}", highlight=False)
    show_report(out / "report.html", open_)


@insta_app.command("export")
def insta_export(
    run_dir: Annotated[Path, typer.Argument(help="Output directory of 'insta run'.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="SFT JSONL file to write.")],
    min_success: Annotated[
        float, typer.Option("--min-success", callback=bounded(0, 1), help="Keep agent data whose judge success >= this.")
    ] = 1.0,
    min_confidence: Annotated[
        float, typer.Option("--min-confidence", callback=bounded(0, 1), help="Keep judge data with confidence >= this.")
    ] = 0.0,
    kinds: Annotated[
        str, typer.Option("--kinds", help="Comma-separated record kinds.")
    ] = "agent,judge,proposer",
    scrub_pii: Annotated[
        bool, typer.Option("--scrub-pii/--no-scrub-pii", help="Scrub PII with scrubadub.")
    ] = True,
) -> None:
    """Export chat-format SFT records (agent, judge, proposer), filtered by the judge, PII scrubbed."""
    from scrapesmith.insta import ExportConfig, export_run

    config = ExportConfig(min_success=min_success, min_confidence=min_confidence, kinds=tuple(split_list(kinds)),
                          scrub_pii=scrub_pii)
    result = export_run(run_dir, output, config)
    shown = ", ".join(f"{count} {kind}" for kind, count in result.counts.items())
    torn = f"; {result.torn_lines} torn store lines skipped" if result.torn_lines else ""
    console.print(f"wrote {sum(result.counts.values())} records ({shown}) -> {output}{torn}", highlight=False)






