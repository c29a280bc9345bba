"""Which episodes the workflows of a folder came from: per task family, its workflows and their source episodes
counted by run (the no-model agent's, the model agent's), from each workflow's provenance:

    python research/insta_workflow_sources.py runs/wf-default --json bench/results/OUT.json

Journal: docs/journal/benchmarks.md, "Issue 31 (2026-11-27): more source episodes, one page per task, folders opened by kind, a handle the judge misread".
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from scrapesmith.insta.workflow import load_workflows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workflows", type=Path, help="a folder of workflows (insta compile --out)")
    parser.add_argument("--json", type=Path, help="write the table here")
    args = parser.parse_args()
    families: dict[str, dict] = {}
    for workflow in load_workflows(args.workflows):
        family = families.setdefault(workflow.family, {"workflows": 0, "episodes": Counter()})
        family["workflows"] += 1
        family["episodes"].update(source.run or "?" for source in workflow.provenance)
    runs = Counter()
    for name, family in sorted(families.items()):
        runs.update({run: 1 for run in family["episodes"]})
        print(f"{name}: {family['workflows']} workflows; episodes " +
              ", ".join(f"{count} from {run}" for run, count in family["episodes"].most_common()))
    print(f"{len(families)} task families; families with an episode from each run: " +
          ", ".join(f"{run} {count}" for run, count in runs.most_common()))
    if args.json:
        table = {name: {"workflows": f["workflows"], "episodes": dict(f["episodes"])} for name, f in families.items()}
        args.json.write_text(json.dumps({"workflows": str(args.workflows), "families": table,
                                         "families_per_run": dict(runs)}, indent=2) + "\n")


if __name__ == "__main__":
    main()
