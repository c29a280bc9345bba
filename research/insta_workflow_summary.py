"""Workflows against the agent on the same MiniWoB episodes: success, time per episode, model calls.

Reads the JSON of ``bench miniwob`` runs (the agent with and without the model, ``--policy workflow`` with and
without ``--fallback``) and compares them on the (task, seed) episodes every run has, so that a run made on a
subset of seeds (the model's, which is slow) is compared on that subset only. Also splits the workflow run's
failures into "no workflow for the task" (nothing verified to compile from) and "a step broke". Time is given
twice: the whole episode (page load, policy, judge) and the policy's steps alone (``policy_seconds``; for a run
made before the bench recorded it, ``NAME=JSON@RUN_DIR`` reads it from the run's stored trajectories; runs on
different tasks join as ``NAME=A.json+B.json``):

    python research/insta_workflow_summary.py agent-local=bench/results/miniwob-issue31-agent-default-local-100.json \
        workflow=bench/results/miniwob-issue31-workflow-default-100.json --ratio-to agent-local --json OUT

``--ratio-to NAME`` adds each run's success rate and seconds per episode as a ratio to run NAME's. ``--unpaired``
compares runs made on different seeds (the model agent's standard run on seeds 0-1 against workflows on seeds
100-119): every run's episodes of the tasks all runs have, whatever their seeds; the rates then compare different
problem instances of the same tasks.

Journal: docs/journal/benchmarks.md, "Issue 31 (2026-11-26): agent episodes compiled into workflows that run with no model".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from statistics import mean, median
from typing import Any

from scrapesmith.insta.store import ResultStore


def load(path: Path, run_dir: Path | None) -> dict[tuple[str, int], dict[str, Any]]:
    """The run's episodes by (task, seed); a case without a reward (an error) counts as a failure."""
    data = json.loads(path.read_text())
    cases = {(case["task"], int(case["seed"])): case for case in data["cases"]}
    if run_dir is not None:
        for site, result in ResultStore(run_dir).latest().items():
            task, _, seed = site.partition(" seed ")
            case = cases.get((task, int(seed or -1)))
            if case is not None and result.trajectory is not None and "policy_seconds" not in case:
                case["policy_seconds"] = round(result.trajectory.seconds, 2)
    return cases


def _model_calls(paths: list[Path]) -> int | None:
    """The runs' model calls (None when a run stopped before it counted them: a partial run's file)."""
    counts = [json.loads(path.read_text())["summary"].get("model_calls") for path in paths]
    return None if None in counts else sum(counts)


def describe(cases: list[dict[str, Any]], model_calls: int | None) -> dict[str, Any]:
    """Success (reward > 0), time per episode, and for workflow runs what broke and why."""
    seconds = [float(case.get("seconds") or 0.0) for case in cases]
    policy = [float(case["policy_seconds"]) for case in cases if "policy_seconds" in case]
    row: dict[str, Any] = {
        "episodes": len(cases),
        "successes": sum(1 for case in cases if (case.get("reward") or 0) > 0),
        "seconds_mean": round(mean(seconds), 2) if seconds else None,
        "seconds_median": round(median(seconds), 2) if seconds else None,
        "policy_seconds_mean": round(mean(policy), 3) if len(policy) == len(cases) and policy else None,
        "model_calls_whole_run": model_calls,
    }
    row["success_rate"] = round(row["successes"] / max(1, len(cases)), 3)
    if any("workflow" in case for case in cases):
        row["no_workflow"] = sum(1 for case in cases if not case.get("workflow"))
        row["broken"] = sum(1 for case in cases if case.get("workflow") and case.get("broken_step") is not None)
        row["fallbacks"] = sum(1 for case in cases if case.get("fallback"))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="NAME=PATH of a bench miniwob JSON")
    parser.add_argument("--json", type=Path, help="write the table here")
    parser.add_argument("--covered-by", metavar="NAME", help="only the tasks that run NAME had a workflow for")
    parser.add_argument("--ratio-to", metavar="NAME", help="success rate and seconds as ratios to run NAME's")
    parser.add_argument("--unpaired", action="store_true", help="the shared tasks on each run's own seeds")
    args = parser.parse_args()
    specs = {name: [part.partition("@") for part in spec.split("+")]
             for name, spec in (item.split("=", 1) for item in args.runs)}
    runs = {name: [Path(path) for path, _, _ in parts] for name, parts in specs.items()}
    cases = {name: {key: case for path, _, run_dir in parts
                    for key, case in load(Path(path), Path(run_dir) if run_dir else None).items()}
             for name, parts in specs.items()}
    calls = {name: _model_calls(paths) for name, paths in runs.items()}
    if args.unpaired:
        shared_tasks = set.intersection(*({task for task, _ in by_key} for by_key in cases.values()))
        if args.covered_by:
            shared_tasks &= {task for (task, _), case in cases[args.covered_by].items() if case.get("workflow")}
        chosen = {name: sorted(key for key in by_key if key[0] in shared_tasks) for name, by_key in cases.items()}
    else:
        shared = sorted(set.intersection(*(set(by_key) for by_key in cases.values())))
        if args.covered_by:
            covered = {task for (task, _), case in cases[args.covered_by].items() if case.get("workflow")}
            shared = [key for key in shared if key[0] in covered]
        chosen = {name: shared for name in cases}
    table = {name: describe([by_key[key] for key in chosen[name]], calls[name]) for name, by_key in cases.items()}
    if args.ratio_to:
        base = table[args.ratio_to]
        for row in table.values():
            row["success_ratio"] = round(row["success_rate"] / base["success_rate"], 3) if base["success_rate"] else None
            row["speedup"] = round(base["seconds_mean"] / row["seconds_mean"], 1) if row["seconds_mean"] else None
            if base["policy_seconds_mean"] and row["policy_seconds_mean"]:
                row["policy_speedup"] = round(base["policy_seconds_mean"] / row["policy_seconds_mean"], 1)
    keys = sorted({key for keys in chosen.values() for key in keys})
    tasks = sorted({task for task, _ in keys})
    seeds = sorted({seed for _, seed in keys})
    print(f"{'unpaired' if args.unpaired else 'shared'} episodes: {len(tasks)} tasks, seeds {seeds[0]}-{seeds[-1]}"
          if keys else "no shared episodes")
    for name, row in table.items():
        print(f"{name:>24}: " + ", ".join(f"{key} {value}" for key, value in row.items()))
    if args.json:
        args.json.write_text(json.dumps({"runs": {name: [str(p) for p in paths] for name, paths in runs.items()},
                                         "tasks": tasks, "seeds": seeds, "unpaired": args.unpaired, "table": table}, indent=2) + "\n")


if __name__ == "__main__":
    main()
