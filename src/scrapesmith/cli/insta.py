"""``scrapesmith insta run|export`` and ``scrapesmith bench miniwob|insta-safety``: the InSTA pipeline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.frame import report
from scrapesmith.cli import bench_app, console, insta_app
from scrapesmith.cli.options import (
    AllowHostOption,
    DelayOption,
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    NoRobotsOption,
    OpenOption,
    allowed_hosts,
    bounded,
    check_choice,
    llm_from_options,
    progress_bar,
    show_report,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.llm.client import effective_spec, parse_spec
from scrapesmith.llm.types import NoModelConfigured


def _split(values: str | None) -> list[str]:
    return [part.strip() for part in (values or "").split(",") if part.strip()]


PolicyOption = Annotated[str, typer.Option(
    "--policy", help="candidates: the model picks among grounded candidate actions (default); "
    "paper: the seed's free-form JSON action.")]
JudgeKindOption = Annotated[str, typer.Option(
    "--judge-kind", help="evidence: criteria checked one by one with verified quotes (default); "
    "paper: the seed's free-form scores.")]


def _paper_needs_model(has_model: bool, policy: str, judge_kind: str | None) -> None:
    """The one check that the seed's own policy and judge (``paper``) get the model they cannot run without."""
    if not has_model and "paper" in (policy, judge_kind):
        raise NoModelConfigured("--policy paper and --judge-kind paper need a language model: pass --llm")


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
    open_: OpenOption = False,
) -> None:
    """Propose a task for every site, run the agent on it, judge the trajectory and refine the task.

    With ``--llm none`` (candidate policy and evidence judge only) every stage takes its heuristic path."""
    from scrapesmith.insta.chooser import POLICIES
    from scrapesmith.insta.evidence import JUDGE_KINDS
    from scrapesmith.insta.pipeline import PipelineConfig, read_sites, run_pipeline
    from scrapesmith.insta.store import ResultStore
    from scrapesmith.scale.runner import make_runner

    check_choice("--policy", policy, POLICIES)
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    if not sites.is_file():
        raise ScrapesmithError(f"sites file not found: {sites}")
    spec = effective_spec(llm)
    _paper_needs_model(parse_spec(spec).provider != "none", policy, judge_kind)
    site_list = read_sites(sites.read_text(encoding="utf-8").splitlines())
    config = PipelineConfig(
        llm_spec=spec, max_actions=max_actions, site_wall_time=site_timeout, reasoning_words=reasoning_words,
        refine=not no_refine, allow_hosts=tuple(allowed_hosts(allow_host)),
        respect_robots=not no_robots, politeness_delay=delay, seed=seed,
        screenshots_dir=None if no_screenshots else str(out / "screenshots"), policy=policy, judge_kind=judge_kind,
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
    from scrapesmith.insta.export import ExportConfig, export_run

    config = ExportConfig(min_success=min_success, min_confidence=min_confidence, kinds=tuple(_split(kinds)),
                          scrub_pii=scrub_pii)
    result = export_run(run_dir, output, config)
    shown = ", ".join(f"{count} {kind}" for kind, count in result.counts.items())
    torn = f"; {result.torn_lines} torn store lines skipped" if result.torn_lines else ""
    console.print(f"wrote {sum(result.counts.values())} records ({shown}) -> {output}{torn}", highlight=False)


@bench_app.command("miniwob")
def bench_miniwob(
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task names, or 'all' "
                                     "(default: 45 tasks our action set can solve)."),
    episodes: Annotated[int, typer.Option("--episodes", min=1, help="Episodes per task.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first episode (then seed+1, ...).")] = 0,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="Action cap per episode.")] = 10,
    reasoning_words: Annotated[
        int, typer.Option("--reasoning-words", min=1, help="Length of the agent's plan per step.")
    ] = 50,
    judge: Annotated[
        bool, typer.Option("--judge/--no-judge", help="Also judge each episode (judge accuracy).")
    ] = True,
    policy: PolicyOption = "candidates",
    judge_kind: JudgeKindOption = "evidence",
    ask_below: Annotated[float, typer.Option(
        "--ask-below", min=0.0, max=1.0, help="Candidate policy with a model: the model also chooses when the "
        "program's pick has a calibrated confidence below this (0: only on ties, values and answers; 0.5: the "
        "issue-35 measurement).")] = 0.0,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    json_out: JsonOutOption = None,
    run_dir: Annotated[Path | None, typer.Option(
        "--run-dir", help="Where episodes, screenshots and report.html go (default runs/miniwob-<time>).")] = None,
    no_screenshots: Annotated[
        bool, typer.Option("--no-screenshots", help="Do not save a PNG of the page at every agent step.")
    ] = False,
    open_: OpenOption = False,
) -> None:
    """Run the InSTA agent on MiniWoB++ task pages: reward, success, invalid actions, judge precision/recall.

    With ``--llm none`` the candidate policy takes its best grounded candidate and the evidence judge checks
    the criteria's own words: the no-model baseline."""
    from scrapesmith.bench.miniwob import evaluate_miniwob, resolve_tasks
    from scrapesmith.insta.chooser import POLICIES, make_policy
    from scrapesmith.insta.evidence import JUDGE_KINDS, make_judge
    from scrapesmith.insta.judge import JudgeConfig
    from scrapesmith.llm.ledger import Ledger, use_ledger
    from scrapesmith.web.browser.policy import BrowserPolicy
    from scrapesmith.web.browser.session import BrowserSession

    check_choice("--policy", policy, POLICIES)
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    task_list = resolve_tasks(_split(tasks))
    model = llm_from_options(llm, no_cache)
    _paper_needs_model(model is not None, policy, judge_kind if judge else None)
    target = run_dir or Path("runs") / f"miniwob-{time.strftime('%Y%m%d-%H%M%S')}"
    agent = make_policy(policy, model, reasoning_words=reasoning_words, max_tokens=256, ask_below=ask_below)
    judge_model = make_judge(judge_kind, model, JudgeConfig(reasoning_words=100, max_tokens=384)) if judge else None
    browser_policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    with use_ledger(Ledger()) as ledger, BrowserSession(policy=browser_policy) as session, \
            progress_bar() as progress:
        bar = progress.add_task("episodes", total=len(task_list) * episodes)

        def advance(case: dict) -> None:
            progress.advance(bar)
            console.print(f"{case['task']} seed {case['seed']}: reward {case['reward']:+.2f} "
                          f"in {case.get('steps', 0)} steps, {case['seconds']:.0f}s", highlight=False)

        result = evaluate_miniwob(session, lambda env: agent, task_list, episodes=episodes, seed=seed,
                                  max_actions=max_actions, judge=judge_model, on_case=advance,
                                  partial_json=json_out, run_dir=target, screenshots=not no_screenshots)
    totals = ledger.totals()
    result.summary.update(model_calls=totals.calls, cache_hits=totals.cache_hits, input_tokens=totals.input_tokens,
                          output_tokens=totals.output_tokens,
                          seconds_per_episode=round(result.summary["seconds"] / max(1, result.summary["episodes"]), 1))
    result.params.update(llm=getattr(model, "name", "none"), reasoning_words=reasoning_words, policy=policy,
                         ask_below=ask_below,
                         judge_kind=judge_kind if judge else None)
    report(result, json_out, case_columns=["task", "seed", "reward", "steps", "invalid_steps", "judge_success",
                                           "seconds"])
    show_report(target / "report.html", open_)


@bench_app.command("insta-safety")
def bench_insta_safety(
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    limit: Annotated[
        int, typer.Option("--limit", help="Only the first N labelled domains of each class (0: all).")
    ] = 0,
    group: Annotated[
        list[str] | None,
        typer.Option("--group", help="Only this group of the labelled list (repeatable): issue-100, hard-benign."),
    ] = None,
    ask: Annotated[
        str, typer.Option("--ask", help="What the model is asked: describe (what the site is; the rules decide) "
                                        "or judge (a verdict over the evidence).")
    ] = "describe",
    json_out: JsonOutOption = None,
) -> None:
    """Accuracy, precision and recall of the safety filter on the labelled domains, overall and per group."""
    if ask not in ("describe", "judge"):
        raise typer.BadParameter(f"must be describe or judge, not {ask!r}", param_hint="--ask")
    from scrapesmith.bench.insta_safety import UnknownGroup, measure_safety
    from scrapesmith.llm.ledger import Ledger

    model = llm_from_options(llm, no_cache, ledger=Ledger())
    try:
        with progress_bar() as progress:
            bar = progress.add_task("domains", total=None)
            result = measure_safety(model, group or None, limit or None, on_case=lambda case: progress.advance(bar),
                                    ask=ask)
    except UnknownGroup as exc:
        raise typer.BadParameter(str(exc), param_hint="--group") from None
    report(result, json_out, case_columns=["domain", "label", "group", "evidence_status", "flagged", "verdict_category",
                                           "decided_by"])


@bench_app.command("insta-pipeline")
def bench_insta_pipeline(
    llm: LLMOption = None,
    workers: Annotated[str, typer.Option("--workers", help="Comma-separated worker counts.")] = "1,2,4",
    ray: Annotated[bool, typer.Option("--ray/--no-ray", help="Also measure the Ray backend.")] = True,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="Agent action cap per site.")] = 5,
    limit: Annotated[int, typer.Option("--limit", help="Only the first N demo sites (0: all).")] = 0,
    reasoning_words: Annotated[int, typer.Option("--reasoning-words", min=1, help="Length of the agent's plan per step.")] = 50,
    sites: Annotated[int, typer.Option("--sites", min=0, help="Virtual sites: this many start pages of the demo "
                                       "web, round-robin over its sites (0: one per demo site).")] = 0,
    policy: PolicyOption = "candidates",
    judge_kind: JudgeKindOption = "evidence",
    no_cache: NoCacheOption = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Serve the demo web on this port (0: any "
                                      "free port). Prompts name the sites' URLs, so a later run replays the "
                                      "response cache of an earlier one only on the same port.")] = 0,
    json_out: JsonOutOption = None,
) -> None:
    """Pipeline throughput (sites/hour, steps/s, second-worker efficiency) on the demo web, local pool vs Ray.

    ``--llm none`` measures the pipeline itself (browser, orchestration, storage) on its heuristic path; with
    a model, the first configuration warms the response cache and the later ones replay its answers (a later
    run too, given the same ``--port``)."""
    from scrapesmith.bench.insta_pipeline import measure_throughput
    from scrapesmith.insta.chooser import POLICIES
    from scrapesmith.insta.evidence import JUDGE_KINDS

    check_choice("--policy", policy, POLICIES)
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    spec = effective_spec(llm)
    _paper_needs_model(parse_spec(spec).provider != "none", policy, judge_kind)
    counts = [int(part) for part in _split(workers)]
    backends = ["local", "ray"] if ray else ["local"]
    with console.status(f"running the pipeline on the demo web ({len(counts) * len(backends)} configurations)"):
        result = measure_throughput(spec, counts, backends, max_actions=max_actions, limit=limit or None,
                                    llm_cache=not no_cache, reasoning_words=reasoning_words,
                                    virtual_sites=sites or None, policy=policy, judge_kind=judge_kind, port=port)
    report(result, json_out, case_columns=["backend", "workers", "sites", "ok", "unsafe", "failed", "steps",
                                           "seconds", "sites_per_hour", "steps_per_s", "second_worker_efficiency",
                                           "judged_success", "model_calls"])
