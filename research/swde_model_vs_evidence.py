"""The model against the evidence alone: two ``bench swde --mutate … --json`` files (``--method heuristic``
and ``--method choose``) side by side, per mutation kind and site.

For each kind and site: Correct (strict) of the heuristic and of the chooser, and the chooser's model calls
and tokens; then every site-attribute where the chooser's F1 is below the heuristic's, with both XPaths, so
"never below the no-model figure on any site" reads off one table and each loss can be traced.

    python research/swde_model_vs_evidence.py bench/results/swde-issue28h-heuristic-mut0.json \\
        bench/results/swde-issue28h-choose-mut0-before.json

Journal: docs/journal/benchmarks.md, "Issue 28 (2026-11-27): round 8 — the model under other templates, and its gate".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path


def correct(cases: Sequence[dict]) -> float:
    return sum(c["category"] == "correct" for c in cases) / len(cases) if cases else 0.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("heuristic", type=Path)
    parser.add_argument("choose", type=Path)
    args = parser.parse_args(argv)
    evidence, model = (json.loads(path.read_text()) for path in (args.heuristic, args.choose))
    use = {row["group"]: row for row in model["params"].get("per_kind_site", [])}
    keyed = [{(c["mutation"], c["mutation_seed"], c["site"], c["attribute"]): c for c in run["cases"]}
             for run in (evidence, model)]
    print("| kind | site | heuristic Correct | choose Correct | calls | tokens |")
    print("|---|---|---:|---:|---:|---:|")
    lower = 0
    for kind, site in dict.fromkeys((k[0], k[2]) for k in keyed[1]):
        pair = [[c for k, c in cases.items() if k[0] == kind and k[2] == site] for cases in keyed]
        row = use.get(f"{kind} {site}", {})
        a, b = correct(pair[0]), correct(pair[1])
        lower += b < a
        mark = " **lower**" if b < a else ""
        print(f"| {kind} | {site} | {a:.3f} | {b:.3f}{mark} | {row.get('llm_calls', '-')} | {row.get('tokens', '-')} |")
    print(f"\nsite-kinds where the model is lower: {lower}\n")
    for key, chosen in keyed[1].items():
        alone = keyed[0].get(key)
        if alone and chosen["f1"] < alone["f1"]:
            print(f"- {' '.join(map(str, key))}: heuristic {alone['category']} F1 {alone['f1']} `{alone['xpath']}`"
                  f" -> choose {chosen['category']} F1 {chosen['f1']} `{chosen['xpath']}`")


if __name__ == "__main__":
    main()
