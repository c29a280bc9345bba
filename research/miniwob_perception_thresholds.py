"""The perception's fixed thresholds, each swept alone on the visual list, and a leave-one-task-out reading of them.

Four numbers decide what the agent sees and were set by hand before any run, not fitted: ``appearance.SAME_COLOUR``
(how near a colour must be to the one a word names), ``perception.SIZE_RATIO`` (how much larger a peer must be for
two sizes to be told apart), ``appearance.ROW_TOLERANCE`` and ``COLUMN_TOLERANCE`` (how far axis labels may stray
from one row or column). Each is swept over a few values (the others at their shipped value) with the no-model
agent on ``VISUAL_TASKS``; for every task the value a sweep would choose on the *other* nine tasks (ties: the
shipped value) is then scored on that task — what fitting the threshold would give on a task it was not fitted on,
beside the shipped value's own score. Prints one table per threshold and writes JSON:

    python research/miniwob_perception_thresholds.py --seeds 5 --json bench/results/miniwob-issue42-thresholds.json

Journal: docs/journal/benchmarks.md, "Issue 42 (2026-12-06): agents that see the page — perception, counting, comparing, waiting".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scrapesmith.bench.miniwob import VISUAL_TASKS, evaluate_miniwob
from scrapesmith.insta import appearance, perception
from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.web.browser import BrowserOptions, BrowserPolicy, BrowserSession

SWEEPS = {
    ("appearance", "SAME_COLOUR"): (2.0, 20.0, 80.0),
    ("perception", "SIZE_RATIO"): (1.1, 1.4, 2.5),
    ("appearance", "ROW_TOLERANCE"): (2.0, 6.0, 12.0),
    ("appearance", "COLUMN_TOLERANCE"): (3.0, 8.0, 16.0),
}
MODULES = {"appearance": appearance, "perception": perception}


def successes(session: BrowserSession, seeds: int) -> dict[str, int]:
    result = evaluate_miniwob(session, lambda env: CandidatePolicy(None), list(VISUAL_TASKS), episodes=seeds, seed=0,
                              max_actions=8, screenshots=False)
    counts = dict.fromkeys(VISUAL_TASKS, 0)
    for case in result.cases:
        counts[case["task"]] += case["reward"] > 0
    return counts


def leave_one_task_out(by_value: dict[float, dict[str, int]], shipped: float) -> dict[str, dict[str, float]]:
    """Per task: the value best on the other tasks (ties to the shipped value) and its success on this task."""
    out = {}
    for task in VISUAL_TASKS:
        others = {value: sum(n for t, n in counts.items() if t != task) for value, counts in by_value.items()}
        best = max(others.values())
        chosen = shipped if others[shipped] == best else min(v for v, n in others.items() if n == best)
        out[task] = {"chosen": chosen, "held_out": by_value[chosen][task], "shipped": by_value[shipped][task]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="episodes per task (seeds 0..N-1)")
    parser.add_argument("--json", type=Path, help="write the sweeps and the leave-one-task-out view here")
    args = parser.parse_args()
    report = {}
    browser_policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    with BrowserSession(policy=browser_policy, options=BrowserOptions(idle_quiet=0.05)) as session:
        for (module_name, name), values in SWEEPS.items():
            module = MODULES[module_name]
            shipped = getattr(module, name)
            by_value = {}
            for value in values:
                setattr(module, name, value)
                try:
                    by_value[value] = successes(session, args.seeds)
                finally:
                    setattr(module, name, shipped)
            loto = leave_one_task_out(by_value, shipped)
            report[name] = {"shipped": shipped, "by_value": {str(v): c for v, c in by_value.items()}, "loto": loto}
            print(f"\n{name} (shipped {shipped:g}); successes of {args.seeds} per task")
            print("task".ljust(20) + "".join(f"{v:>8g}" for v in values) + "   held-out choice → success (shipped)")
            for task in VISUAL_TASKS:
                row = "".join(f"{by_value[v][task]:>8d}" for v in values)
                entry = loto[task]
                print(f"{task:20s}{row}   {entry['chosen']:g} → {entry['held_out']} ({entry['shipped']})")
            total_held, total_shipped = sum(e["held_out"] for e in loto.values()), sum(e["shipped"] for e in loto.values())
            print(f"{'total':20s}" + "".join(f"{sum(by_value[v].values()):>8d}" for v in values)
                  + f"   held out {total_held} / shipped {total_shipped} of {args.seeds * len(VISUAL_TASKS)}")
    if args.json:
        args.json.write_text(json.dumps({"seeds": args.seeds, "tasks": list(VISUAL_TASKS), "sweeps": report}, indent=1))


if __name__ == "__main__":
    main()
