"""Judge a run's stored episodes again with the evidence judge and a model, with no browser: the trajectories are
all it reads. Episodes the first judge already verified are kept as they are; the others are judged again (the
model is asked only where the judge's program pass leaves criteria it may decide, ``insta.evidence_judge``). The result
is a new run directory whose shards ``scrapesmith insta compile`` reads. With the bench's JSON of the same run,
the judge's precision and recall against the page's reward are printed, before and after:

    scrapesmith bench miniwob --llm none --episodes 5 --seed 0 --run-dir runs/src --json src.json
    python research/insta_rejudge.py runs/src runs/src-judged --llm local --rewards src.json --json out.json
    scrapesmith insta compile runs/src-judged

Journal: docs/journal/benchmarks.md, "Issue 31 (2026-11-26): agent episodes compiled into workflows that run with no model".
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from scrapesmith.bench.miniwob import judge_scores
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.store import ResultStore
from scrapesmith.llm.client import resolve_llm
from scrapesmith.llm.ledger import Ledger, use_ledger


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--llm", default="local")
    parser.add_argument("--rewards", type=Path, help="the bench miniwob JSON of the run (judge precision/recall)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    judge = EvidenceJudge(resolve_llm(args.llm, cache=False))
    before, after = {}, {}
    started = time.monotonic()
    out = ResultStore(args.out_dir)
    with use_ledger(Ledger()) as ledger:
        for site, result in ResultStore(args.run_dir).latest().items():
            before[site] = bool(result.judgement and result.judgement.succeeded)
            if result.trajectory is not None and not before[site]:
                result.judgement = judge.judge(result.trajectory.task, result.trajectory)
            after[site] = bool(result.judgement and result.judgement.succeeded)
            out.append(result)
    summary = {"episodes": len(before), "verified_before": sum(before.values()), "verified_after": sum(after.values()),
               "model_calls": ledger.totals().calls, "seconds": round(time.monotonic() - started, 1)}
    if args.rewards:
        cases = json.loads(args.rewards.read_text())["cases"]
        reward = {f"{case['task']} seed {case['seed']}": case["reward"] > 0 for case in cases}
        sites = [site for site in before if site in reward]
        for name, said in (("before", before), ("after", after)):
            scores = judge_scores([said[s] for s in sites], [reward[s] for s in sites])
            summary[name] = {key: scores[key] for key in ("judge_precision", "judge_recall", "judge_tp", "judge_fp")}
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"params": vars(args) | {"run_dir": str(args.run_dir), "out_dir":
                                          str(args.out_dir), "rewards": str(args.rewards), "json": str(args.json)},
                                         "summary": summary}, indent=2) + "\n")


if __name__ == "__main__":
    main()
