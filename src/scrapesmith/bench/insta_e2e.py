"""``bench insta-e2e``: the agent-data pipeline end to end on the demo web, measured on the sites' own truth.

Every demo site's root is a site of the pipeline (site list -> safety filter -> a task from the pages read ->
the agent in Chromium -> the judge -> SFT export), run in this process with one model, once per ``--seed``
(the proposer's and the explorer's sampling). All demo sites are harmless and every answer is known
(:mod:`.insta_truth`), so the run is scored against the truth, per site and per seed:

* the filter: passed, or refused with its category, reason and the evidence it names;
* the task: checkable (it carries a goal: a value and its page, or a page) and feasible (the truth holds it);
* the episode: steps, how it ended (its own stop, a budget, an early stop), true success from the truth beside
  the judge's verdict — judge precision and recall of "success";
* verified trajectories (the judge's successes, over all of a site's tasks: ``--tasks-per-site``) and SFT
  records per site (``insta export``, PII scrubbing off); every task is a case of its own (``task_no``);
* sites per hour (wall clock, model time included) and model calls and tokens per stage (the ledger).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scrapesmith.bench.frame import BenchResult
from scrapesmith.bench.insta_truth import feasible, true_success
from scrapesmith.insta import (
    ExportConfig,
    PipelineConfig,
    ResultStore,
    export_run,
    reset_worker,
    run_pipeline,
)
from scrapesmith.llm import LLM, Ledger, use_ledger
from scrapesmith.scale import InlineRunner
from scrapesmith.sites import serve_sites

TARGETS = {"filter_passed": 7 / 8, "feasible_checkable": 0.80, "true_success": 0.50, "judge_precision": 0.95,
           "verified_per_site": 1.0, "sites_per_hour": 60.0}


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def site_cases(result: Any, truth: Any, seed: int, records: dict[str, int], served: set[str]) -> list[dict[str, Any]]:
    """One site of one run, one case per task (``task_no`` 1, 2, …), scored against its truth; the site's SFT
    records and model calls are on its first case, and every case's ``seconds`` is the site's (all its tasks)."""
    cases = [task_case(one, truth, seed, records, served) | {"task_no": number}
             for number, one in enumerate(result.per_task(), start=1)]
    for case in cases[1:]:
        case["sft_records"] = case["model_calls"] = 0
    return cases


def task_case(result: Any, truth: Any, seed: int, records: dict[str, int], served: set[str]) -> dict[str, Any]:
    """One task of a site of one run, scored against its truth."""
    safety, proposal, trajectory, judgement = result.safety, result.proposal, result.trajectory, result.judgement
    goal = proposal.goal if proposal is not None else None
    refused = safety is not None and safety.unsafe
    return {
        "seed": seed, "site": result.site.rstrip("/").rsplit("/", 1)[-1], "status": result.status,
        "filter": "refused" if refused else "passed",
        "refusal": f"{safety.category}: {safety.reason}" if refused else "",
        "overruled": (safety.overruled or "") if safety is not None else "",
        "task": (proposal.task or "") if proposal is not None else "",
        "no_task_reason": proposal.reason if proposal is not None and proposal.task is None else "",
        "rejected": len(proposal.rejected) if proposal is not None else 0,
        "goal_value": goal.value if goal is not None else "", "goal_page": goal.page if goal is not None else "",
        "checkable": goal is not None, "feasible": feasible(goal, truth, served),
        "goal_kind": ("value" if goal.label else "page") if goal is not None else "",
        "steps": len(trajectory.steps) if trajectory is not None else 0,
        "stop_reason": trajectory.stop_reason if trajectory is not None else "",
        "answer": (trajectory.answer or "") if trajectory is not None else "",
        "true_success": true_success(goal, trajectory, truth, served),
        "judged_success": bool(judgement is not None and judgement.succeeded),
        "sft_records": records.get(result.site, 0), "model_calls": result.llm_calls,
        "seconds": round(result.seconds, 1), "error": result.error or "",
    }


def _sft_counts(out: Path) -> dict[str, int]:
    """SFT records per site, as ``insta export`` writes them (every kind, PII scrubbing off)."""
    import json

    target = out / "sft.jsonl"
    export_run(out, target, ExportConfig(scrub_pii=False))
    counts: dict[str, int] = {}
    for line in target.read_text(encoding="utf-8").splitlines():
        site = json.loads(line)["site"]
        counts[site] = counts.get(site, 0) + 1
    return counts


def summarise(cases: list[dict[str, Any]], seconds: float, ledger: Ledger, runs: int) -> dict[str, Any]:
    """Site figures over the sites of every run (a site's first case), task figures over every task; verified
    trajectories per site count the judge's successes over all of a site's tasks."""
    episodes = [case for case in cases if case["steps"]]
    judged = [case for case in episodes if case["judged_success"]]
    truly = [case for case in episodes if case["true_success"]]
    both = [case for case in judged if case["true_success"]]
    tasks = [case for case in cases if case["task"]]
    firsts = [case for case in cases if case.get("task_no", 1) == 1]
    sites = len(firsts)
    summary: dict[str, Any] = {
        "runs": runs, "sites": sites,
        "filter_passed": _ratio(sum(case["filter"] == "passed" for case in firsts), sites),
        "refused": sum(case["filter"] == "refused" for case in firsts),
        "tasks": len(tasks), "feasible_checkable": _ratio(sum(c["feasible"] and c["checkable"] for c in tasks), len(tasks)),
        "episodes": len(episodes), "true_success": _ratio(len(truly), len(episodes)),
        "judged_success": _ratio(len(judged), len(episodes)),
        "judge_precision": _ratio(len(both), len(judged)), "judge_recall": _ratio(len(both), len(truly)),
        "budget_or_early_stops": sum(case["stop_reason"] not in ("stop", "") for case in episodes),
        "verified_per_site": round(len(judged) / sites, 3) if sites else 0.0,
        "sft_records_per_site": round(sum(case["sft_records"] for case in cases) / sites, 3) if sites else 0.0,
        "sites_per_hour": round(3600.0 * sites / seconds, 1) if seconds else 0.0,
        "seconds": round(seconds, 1),
    }
    totals = ledger.totals()
    summary.update(model_calls=totals.calls, tokens=totals.input_tokens + totals.output_tokens)
    for stage, figures in sorted(ledger.by_stage().items()):
        summary[f"calls {stage}"] = figures.calls
        summary[f"tokens {stage}"] = figures.input_tokens + figures.output_tokens
    summary["targets met"] = ", ".join(name for name, target in TARGETS.items() if summary[name] >= target)
    return summary


def measure_e2e(llm_factory: Callable[[], LLM | None], llm_name: str, seeds: list[int], sites: list[str] | None = None,
                max_actions: int = 10, wall_time: float = 120.0, site_seed: int = 7, layout: int = 0,
                free_form: bool = False, tasks_per_site: int = 1, out_dir: Path | None = None,
                on_case: Callable[[dict[str, Any]], None] | None = None) -> BenchResult:
    """Run the pipeline on the demo sites once per seed and score it against the truth (module docstring)."""
    root = Path(out_dir or tempfile.mkdtemp(prefix="insta-e2e-"))
    cases: list[dict[str, Any]] = []
    model = llm_factory()
    seconds = 0.0
    with serve_sites(port=0, seed=site_seed, layout=layout) as web, use_ledger(Ledger()) as ledger:
        names = [name for name in web.sites.site_names if not sites or name in sites]
        for seed in seeds:
            config = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=max_actions,
                                    site_wall_time=wall_time, seed=seed, refine=False, free_form=free_form,
                                    tasks_per_site=tasks_per_site)
            out = root / f"seed-{seed}"
            reset_worker()
            started = time.monotonic()
            try:
                run_pipeline([web.url(f"/{name}/") for name in names], ResultStore(out), InlineRunner(), config,
                             llm_factory=lambda: model)
            finally:
                reset_worker()
            seconds += time.monotonic() - started
            records = _sft_counts(out)
            for result in ResultStore(out).latest().values():
                name = result.site.rstrip("/").rsplit("/", 1)[-1]
                served = set(web.sites.urls(name))
                for case in site_cases(result, web.sites.truth(name), seed, records, served):
                    cases.append(case)
                    if on_case is not None:
                        on_case(case)
        summary = summarise(cases, seconds, ledger, len(seeds))
    return BenchResult(name="insta-e2e", summary=summary, cases=cases,
                       params={"llm": llm_name, "seeds": seeds, "sites": names, "max_actions": max_actions,
                               "wall_time": wall_time, "site_seed": site_seed, "layout": layout,
                               "free_form": free_form, "tasks_per_site": tasks_per_site, "refine": False, "out": str(root), "targets": TARGETS})
