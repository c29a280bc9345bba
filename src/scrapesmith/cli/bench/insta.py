"""`scrapesmith bench miniwob`, `bench insta-safety`, `bench insta-pipeline` and `bench insta-e2e`: the InSTA agents,
judges, safety filter and the pipeline end to end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.frame import report
from scrapesmith.cli import bench_app, console
from scrapesmith.cli.insta import JudgeKindOption, PolicyOption, paper_needs_model, split_list
from scrapesmith.cli.options import (
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    OpenOption,
    check_choice,
    llm_from_options,
    progress_bar,
    show_report,
)
from scrapesmith.llm import effective_spec, parse_spec


@bench_app.command("miniwob")
def bench_miniwob(
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task names or lists: "
                                     "default, widget, check, visual, all-dev (every development list), or 'all' "
                                     "(default: the 45 tasks of DEFAULT_TASKS)."),
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
    workflows: Annotated[Path | None, typer.Option(
        "--workflows", help="--policy workflow: a workflow file or a folder of them (a run's workflows/).")] = None,
    fallback: Annotated[bool, typer.Option(
        "--fallback", help="--policy workflow: where a step breaks, hand the episode to the candidate policy "
        "(with --llm, the model chooses where it would).")] = False,
    judge_kind: JudgeKindOption = "evidence",
    ask_below: Annotated[float, typer.Option(
        "--ask-below", min=0.0, max=1.0, help="Candidate policy with a model: the model also chooses when the "
        "program's pick has a calibrated confidence below this (0: only on ties, values and answers; 0.5: the "
        "issue-35 measurement).")] = 0.0,
    ask_ties: Annotated[bool, typer.Option(
        "--ask-ties/--no-ask-ties", help="Candidate policy with a model: the model also breaks ties between "
        "grounded candidates (off: on every development list its tie-breaks did worse than the program's pick; "
        "BENCHMARKS.md, MiniWoB).")] = False,
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
    the criteria's own words: the no-model baseline. Episodes the judge verifies are compiled into
    ``RUN_DIR/workflows/``; ``--policy workflow --workflows DIR`` replays such workflows with no model."""
    from scrapesmith.bench.miniwob import IDLE_QUIET, evaluate_miniwob, resolve_tasks
    from scrapesmith.insta import JUDGE_KINDS, POLICIES, JudgeConfig, make_judge, make_policy
    from scrapesmith.insta.workflow import load_workflows
    from scrapesmith.llm import Ledger, use_ledger
    from scrapesmith.web.browser import BrowserOptions, BrowserPolicy, BrowserSession

    check_choice("--policy", policy, (*POLICIES, "workflow"))
    if policy == "workflow" and workflows is None:
        raise typer.BadParameter("--policy workflow needs --workflows (a workflow file or folder)",
                                 param_hint="--workflows")
    if (workflows is not None or fallback) and policy != "workflow":
        raise typer.BadParameter("--workflows and --fallback go with --policy workflow", param_hint="--policy")
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    task_list = resolve_tasks(split_list(tasks))
    model = llm_from_options(llm, no_cache)
    paper_needs_model(model is not None, policy, judge_kind if judge else None)
    target = run_dir or Path("runs") / f"miniwob-{time.strftime('%Y%m%d-%H%M%S')}"
    agent = make_policy("candidates" if policy == "workflow" else policy, model, reasoning_words=reasoning_words,
                        max_tokens=256, ask_below=ask_below, ask_ties=ask_ties)
    policy_factory = (lambda env: agent) if policy != "workflow" else \
        workflow_factory(load_workflows(workflows), agent if fallback else None)
    judge_model = make_judge(judge_kind, model, JudgeConfig(reasoning_words=100, max_tokens=384)) if judge else None
    browser_policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    options = BrowserOptions(idle_quiet=IDLE_QUIET)
    with use_ledger(Ledger()) as ledger, BrowserSession(policy=browser_policy, options=options) as session, \
            progress_bar() as progress:
        bar = progress.add_task("episodes", total=len(task_list) * episodes)

        def advance(case: dict) -> None:
            progress.advance(bar)
            console.print(f"{case['task']} seed {case['seed']}: reward {case['reward']:+.2f} "
                          f"in {case.get('steps', 0)} steps, {case['seconds']:.0f}s", highlight=False)

        result = evaluate_miniwob(session, policy_factory, task_list, episodes=episodes, seed=seed,
                                  max_actions=max_actions, judge=judge_model, on_case=advance,
                                  partial_json=json_out, run_dir=target, screenshots=not no_screenshots,
                                  compile_workflows=judge and policy != "workflow")
    totals = ledger.totals()
    result.summary.update(model_calls=totals.calls, cache_hits=totals.cache_hits, input_tokens=totals.input_tokens,
                          output_tokens=totals.output_tokens,
                          seconds_per_episode=round(result.summary["seconds"] / max(1, result.summary["episodes"]), 1))
    result.params.update(llm=getattr(model, "name", "none"), reasoning_words=reasoning_words, policy=policy,
                         ask_below=ask_below, ask_ties=ask_ties, workflow_source=str(workflows) if workflows else None,
                         fallback=fallback, judge_kind=judge_kind if judge else None)
    report(result, json_out, case_columns=["task", "seed", "reward", "steps", "invalid_steps", "judge_success",
                                           "seconds"])
    show_report(target / "report.html", open_)


def workflow_factory(workflows: list, fallback: object | None):
    """A policy factory for ``evaluate_miniwob``: workflows replayed on the episode's environment."""
    from scrapesmith.insta.workflow import WorkflowPolicy

    return lambda env: WorkflowPolicy(workflows, fallback=fallback, observe=env.observe)


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
    from scrapesmith.llm import Ledger

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
    from scrapesmith.insta import JUDGE_KINDS, POLICIES

    check_choice("--policy", policy, POLICIES)
    check_choice("--judge-kind", judge_kind, JUDGE_KINDS)
    spec = effective_spec(llm)
    paper_needs_model(parse_spec(spec).provider != "none", policy, judge_kind)
    counts = [int(part) for part in split_list(workers)]
    backends = ["local", "ray"] if ray else ["local"]
    with console.status(f"running the pipeline on the demo web ({len(counts) * len(backends)} configurations)"):
        result = measure_throughput(spec, counts, backends, max_actions=max_actions, limit=limit or None,
                                    llm_cache=not no_cache, reasoning_words=reasoning_words,
                                    virtual_sites=sites or None, policy=policy, judge_kind=judge_kind, port=port)
    report(result, json_out, case_columns=["backend", "workers", "sites", "ok", "unsafe", "failed", "steps",
                                           "seconds", "sites_per_hour", "steps_per_s", "second_worker_efficiency",
                                           "judged_success", "model_calls"])



@bench_app.command("insta-e2e")
def bench_insta_e2e(
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    seeds: Annotated[str, typer.Option("--seeds", help="Comma-separated seeds: one run of every site per seed "
                                       "(the proposer's and explorer's sampling).")] = "0",
    sites: Annotated[str | None, typer.Option("--sites", help="Comma-separated demo sites (default: all 8).")] = None,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="Step budget per episode.")] = 10,
    wall_time: Annotated[float, typer.Option("--wall-time", min=1.0, help="Time budget per episode, seconds.")] = 120.0,
    free_form: Annotated[bool, typer.Option("--free-form/--choose", help="The proposer writes a task first (the "
                                            "seed's prompt), checked and re-proposed as a choice if vague; "
                                            "default: it chooses among the program's tasks.")] = False,
    tasks_per_site: Annotated[int, typer.Option("--tasks-per-site", min=1, help="Distinct tasks per site, each "
                                                "run and judged.")] = 3,
    site_seed: Annotated[int, typer.Option("--site-seed", help="The demo web's data seed.")] = 7,
    layout: Annotated[int, typer.Option("--layout", min=0, max=5, help="The demo web's layout version "
                                        "(0: as developed; 1-5: redrawn pages, the same truth).")] = 0,
    json_out: JsonOutOption = None,
) -> None:
    """The agent-data pipeline end to end on the demo web, against the site generator's truth: filter passes,
    feasible and checkable tasks, true success beside the judge (precision/recall), verified trajectories
    and SFT records per site, sites per hour, model calls and tokens per stage."""
    from scrapesmith.bench.insta_e2e import measure_e2e

    model = llm_from_options(llm, no_cache)
    chosen = split_list(sites) if sites else None
    with progress_bar() as progress:
        bar = progress.add_task("sites", total=None)

        def advance(case: dict) -> None:
            progress.advance(bar)
            console.print(f"seed {case['seed']} {case['site']} #{case['task_no']}: {case['filter']}, task {case['task'][:70]!r}, "
                          f"{case['steps']} steps ({case['stop_reason'] or '-'}), true {case['true_success']}, "
                          f"judged {case['judged_success']}, {case['seconds']:.0f}s", highlight=False)

        result = measure_e2e(lambda: model, getattr(model, "name", "none"), [int(s) for s in split_list(seeds)],
                             chosen, max_actions=max_actions, wall_time=wall_time, site_seed=site_seed,
                             layout=layout, free_form=free_form, tasks_per_site=tasks_per_site, on_case=advance)
    report(result, json_out, case_columns=["seed", "site", "task_no", "filter", "task", "feasible", "steps",
                                           "stop_reason",
                                           "true_success", "judged_success", "sft_records", "seconds"])
