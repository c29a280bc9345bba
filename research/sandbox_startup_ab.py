"""Sandbox start-up per program run, two source trees against each other, alternating.

    python research/sandbox_startup_ab.py ROUNDS BASE_SRC BRANCH_SRC

Each round runs, for each tree in turn, a fresh Python that does one warm ``run_in_sandbox`` of a program
that only prints, then one timed; the medians go to stdout as JSON. Trees are ``git archive`` exports'
``src`` folders (issue 43: ``a8d56ea`` against the branch).

Journal: docs/journal/benchmarks.md, "Issue 43 (2026-12-06): sandbox start-up, two source trees alternating".
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import tempfile, time
from pathlib import Path
from scrapesmith.collect.sandbox import run_in_sandbox
folder = Path(tempfile.mkdtemp())
program = folder / "program.py"
program.write_text("print('ok')\\n")
run_in_sandbox(program, folder, [])
started = time.perf_counter()
result = run_in_sandbox(program, folder, [])
assert result.ok, result.stderr
print(time.perf_counter() - started)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="Sandbox start-up per program run, two source trees alternating.")
    parser.add_argument("rounds", type=int)
    parser.add_argument("base_src", help="the base tree's src folder")
    parser.add_argument("branch_src", help="the branch tree's src folder")
    args = parser.parse_args()
    rounds, trees = args.rounds, {"base": args.base_src, "branch": args.branch_src}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, src in trees.items():
            done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True,
                                  env={**os.environ, "PYTHONPATH": src})
            times[name].append(float(done.stdout.strip().splitlines()[-1]))
    print(json.dumps({name: {"median": round(statistics.median(values), 3), "all": [round(v, 3) for v in values]}
                      for name, values in times.items()}))


if __name__ == "__main__":
    main()
