"""The evidence judge's program pass (no model) on every stored episode of runs, against MiniWoB's own reward.

Rerun it with two versions of the code (``PYTHONPATH=<src>``) to see what a judge change does to precision and
recall on saved episodes, with no browser and no model:

    python research/insta_program_judge.py runs/src-default=bench/results/src.json [RUN=JSON ...] --json out.json

Journal: docs/journal/benchmarks.md, "Issue 31 (2026-11-27, morning): actions waited for only when they load; values the page gives, "all" items, suggestions, "press login"".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scrapesmith.bench.miniwob import judge_scores
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.store import ResultStore


def judged(run_dir: Path, rewards: Path) -> tuple[list[bool], list[bool], list[str]]:
    """The program pass's verdict and the page's reward of each episode of ``run_dir`` found in ``rewards``."""
    cases = json.loads(rewards.read_text())["cases"]
    reward = {f"{case['task']} seed {case['seed']}": case["reward"] > 0 for case in cases}
    judge = EvidenceJudge(None)
    said, truth, sites = [], [], []
    for site, result in sorted(ResultStore(run_dir).latest().items()):
        if site not in reward or result.trajectory is None:
            continue
        said.append(judge.judge(result.trajectory.task, result.trajectory).succeeded)
        truth.append(reward[site])
        sites.append(site)
    return said, truth, sites


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="RUN_DIR=BENCH_JSON (the bench miniwob JSON of that run)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    summary: dict[str, dict] = {}
    all_said: list[bool] = []
    all_truth: list[bool] = []
    for pair in args.runs:
        run_dir, rewards = pair.split("=", 1)
        said, truth, sites = judged(Path(run_dir), Path(rewards))
        scores = judge_scores(said, truth)
        summary[run_dir] = {key: scores[key] for key in ("judge_precision", "judge_recall", "judge_tp", "judge_fp")}
        summary[run_dir]["episodes"] = len(sites)
        summary[run_dir]["false_positives"] = [s for s, a, t in zip(sites, said, truth, strict=True) if a and not t]
        all_said += said
        all_truth += truth
    scores = judge_scores(all_said, all_truth)
    summary["all"] = {key: scores[key] for key in ("judge_precision", "judge_recall", "judge_tp", "judge_fp")}
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"runs": args.runs, "summary": summary}, indent=2) + "\n")


if __name__ == "__main__":
    main()
