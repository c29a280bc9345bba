"""The calibration table of the candidate policy's confidence (``insta.decide.CALIBRATION``), from a MiniWoB run.

For every step the program decided (no stop), the evidence of its pick (``insta.decide.evidence_of``: grounds a
task phrase, serves the checklist's current clause, the last step changed the page without an error) and
whether the episode succeeded. Prints steps and successes per evidence, the calibrated confidence, and the
table in the form ``CALIBRATION`` takes. Fit it on the development list only, then read the other lists' tables
as held-out checks:

    scrapesmith bench miniwob --llm none --episodes 2 --seed 0 --max-actions 8 --no-screenshots \\
        --run-dir runs/dev --json dev.json
    python research/miniwob_calibrate.py runs/dev dev.json

Journal: docs/journal/benchmarks.md, "Issue 35 (2026-11-26): agents on tasks they were never tuned on — widgets, read-then-act, a checklist, asking when unsure".
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from scrapesmith.insta.decide import confidence, evidence_of
from scrapesmith.insta.store import ResultStore


def table(run_dir: Path, result_json: Path) -> dict[tuple[bool, bool, bool], tuple[int, int]]:
    cases = json.loads(result_json.read_text())["cases"]
    succeeded = {f"{case['task']} seed {case['seed']}" for case in cases if case["reward"] > 0}
    steps: Counter[tuple[bool, bool, bool]] = Counter()
    successes: Counter[tuple[bool, bool, bool]] = Counter()
    for site, result in ResultStore(run_dir).latest().items():
        trajectory = result.trajectory.steps if result.trajectory else []
        for index, step in enumerate(trajectory):
            if step.path is None or step.action is None or step.action.is_stop:
                continue
            evidence = evidence_of(step.grounded or [], step.clause, trajectory[index - 1] if index else None,
                                   step.observation)
            steps[evidence] += 1
            successes[evidence] += site in succeeded
    return {evidence: (steps[evidence], successes[evidence]) for evidence in sorted(steps)}


def main(run_dir: str, result_json: str) -> None:
    fitted = table(Path(run_dir), Path(result_json))
    print("grounds serves expected   steps  successes  rate   confidence")
    for evidence, (steps, successes) in fitted.items():
        flags = "  ".join(f"{flag!s:7}" for flag in evidence)
        print(f"{flags}  {steps:5d}  {successes:9d}  {successes / steps:.2f}   {confidence(evidence):.3f}")
    print("CALIBRATION =", fitted)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="the --run-dir of a bench miniwob run")
    parser.add_argument("result_json", help="the --json of the same run")
    arguments = parser.parse_args()
    main(arguments.run_dir, arguments.result_json)
