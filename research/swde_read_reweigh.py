"""Re-weigh recorded ``bench swde --method read`` answers with today's forging and weighing, no model.

A ``--method read`` result keeps, in each field's evidence, the span the model read and the page it read it
on ("read 'Boston Celtics' on seed 1 …"), or why none ("no read span (…)"). This script takes those spans
as the model's answers (the model is not run), forges and weighs them again with the code of the tree it
runs in (``induce.read.forge_and_weigh``: the read XPath must hold on most seed pages, agreement kept as the
evidence, a disagreement settled by the evidence's sureness and, for a field naming the record, the pages'
titles), scores each site as ``bench swde`` does, and prints per site Correct and F1 beside the recorded
run's calls, tokens and seconds. It is how the 8 sites read without the response cache (2026-12-06 04:13–04:34)
are weighed again without holding the model for another half hour.

    python research/swde_read_reweigh.py bench/results/swde-issue47-read-local.json --test 7 \\
        --json bench/results/swde-issue47-read-reweighed.json
    python research/swde_read_reweigh.py … --loso bench/data/swde-ranker-rows.jsonl.gz   # held out

Held out (``--loso``), each site is weighed with a ranker *and* a field confidence fitted without it (the
confidence's rows: ``bench/data/swde-confidence-rows.jsonl.gz``), as ``bench swde --loso`` does.

Journal: docs/journal/benchmarks.md, "Issue 47 (2026-12-06): read on the 16 sites, weighed on every seed page; the choose gate".
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections import Counter
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path

from scrapesmith.bench.confidence import ROWS as CONFIDENCE_ROWS
from scrapesmith.bench.confidence import fitted_without
from scrapesmith.bench.confidence import load_rows as load_judged
from scrapesmith.bench.metrics import summarize
from scrapesmith.bench.swde import default_swde_dir, discover_sites, run_site
from scrapesmith.bench.swde_ranker import fitted, load_rows
from scrapesmith.induce import read_path, use_confidence, use_ranker
from scrapesmith.induce.heuristic import induce_heuristic
from scrapesmith.induce.read import ReadOutcome, forge_and_weigh

SPAN = re.compile(r"""^read ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*") on seed (\d+)""")


def recorded_outcome(evidence: str) -> ReadOutcome:
    """The model's answer for one field as its evidence recorded it."""
    found = SPAN.match(evidence)
    if found:
        return ReadOutcome(ast.literal_eval(found.group(1)), int(found.group(2)) - 1)
    return ReadOutcome(None, 0, [evidence.split(". Evidence: ")[0].split("; name-only kept")[0]])


def recorded_sites(paths: Sequence[Path]) -> dict[str, dict]:
    """Per site, its recorded ``bench swde`` result (one file per site, or several under ``sites``)."""
    sites: dict[str, dict] = {}
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for result in (data["sites"].values() if "sites" in data else [data]):
            for key, spec in result["params"]["specs"].items():
                usage = next(row for row in result["params"]["per_site"] if row.get("site", row.get("group")) == key)
                sites[key] = {"spec": spec, "usage": usage, "seeds": result["params"]["seeds"]}
    return sites


def fold_without(site: str, rows_file: Path):
    """The ranker fitted on every development site's training rows but ``site``'s, weighing confidence only
    (the shipped ranker's recipe: it reorders nothing)."""
    rows = [r for r in load_rows(rows_file) if r.site != site]
    model, _ = fitted(rows)
    model.data["orders"] = False
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recorded", type=Path, nargs="+", help="bench swde --method read --json results")
    parser.add_argument("--test", type=int, default=7, help="test pages per site (the pages after the seeds)")
    parser.add_argument("--pages", type=Path, default=None, help="SWDE pages (default ../shared/data/swde)")
    parser.add_argument("--json", type=Path, default=None, help="write the per-site figures here")
    parser.add_argument("--loso", type=Path, default=None, metavar="ROWS",
                        help="weigh each site with a ranker fitted without it on these training rows "
                             "(bench/data/swde-ranker-rows.jsonl.gz), the shipped recipe (no reordering)")
    args = parser.parse_args(argv)
    pages = args.pages or default_swde_dir()
    judged = load_judged(CONFIDENCE_ROWS) if args.loso else []
    rows, cases = [], []
    print("| site | Correct | F1 | calls | tokens | induce s (recorded) | paths |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for key, recorded in recorded_sites(args.recorded).items():
        outcomes = {f["name"]: recorded_outcome(f["evidence"]) for f in recorded["spec"]["fields"]}

        def inducer(requests, trees, site_key, names, outcomes=outcomes):
            named = induce_heuristic(requests, trees, site=site_key, seed_names=names)
            return forge_and_weigh(requests, trees, named, outcomes)

        site = discover_sites(pages, [key])[0]
        held = (use_ranker(fold_without(key, rows_file=args.loso)),
                use_confidence(fitted_without(judged, key))) if args.loso else (nullcontext(), nullcontext())
        with held[0], held[1]:
            run = run_site(site, pages / "groundtruth", inducer, (), recorded["seeds"], args.test)
        figures = summarize(list(run.strict.values()))
        paths = Counter(read_path(f.evidence) for f in run.spec.fields)
        usage = recorded["usage"]
        rows.append({"site": key, "correct_ratio": figures["correct_ratio"], "f1": figures["f1"],
                     "llm_calls": usage["llm_calls"], "tokens": usage["tokens"], "seconds": usage["seconds"],
                     "paths": dict(paths),
                     "cases": [{"attribute": n, "category": c.category, "f1": round(c.f1, 4),
                                "xpath": " ; ".join(run.spec.field(n).actions), "path": read_path(run.spec.field(n).evidence)}
                               for n, c in run.strict.items()]})
        cases += list(run.strict.values())
        print(f"| {key} | {figures['correct_ratio']:.3f} | {figures['f1']:.3f} | {usage['llm_calls']} | "
              f"{usage['tokens']:,} | {usage['seconds']:.0f} | {', '.join(f'{p} {n}' for p, n in paths.items())} |")
    overall = summarize(cases)
    print(f"| **{len(rows)} sites, {overall['cases']} cases** | **{overall['correct_ratio']:.3f}** | "
          f"{overall['f1']:.3f} | {sum(r['llm_calls'] for r in rows)} | {sum(r['tokens'] for r in rows):,} | "
          f"{sum(r['seconds'] for r in rows):.0f} | |")
    if args.json:
        args.json.write_text(json.dumps({"recorded": [str(p) for p in args.recorded], "test": args.test,
                                         "summary": {k: overall[k] for k in ("cases", "correct_ratio", "f1")},
                                         "sites": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
