"""How often collect's research runs the list and table tools (the demo's three instructions, no model).

Each tool run records and replays a list program or reads a table, so a page weighed twice costs twice.
This counts the runs per instruction and prints the rows and validity of each dataset. Run from the
repository root (on an older checkout too, to compare):

    python research/collect_tool_runs.py

Journal: docs/journal/benchmarks.md, "Issue 14, session 2026-11-25 night: the model on all 100 pages, what it can decide, one more comparison".
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from scrapesmith.bench.instruct2ds import SITE_OF, demo_instructions, site_truths
from scrapesmith.collect import candidates
from scrapesmith.collect.agents import research
from scrapesmith.collect.service import collect
from scrapesmith.demo.collect_step import single_page_start
from scrapesmith.sites import serve_sites

RUNS = {"list": 0, "table": 0}


def counted(kind: str, tool):
    def run(*args, **kwargs):
        RUNS[kind] += 1
        return tool(*args, **kwargs)
    return run


def main() -> None:
    candidates.list_candidate = counted("list", candidates.list_candidate)
    candidates.table_candidate = counted("table", candidates.table_candidate)
    for name in ("list_candidate", "table_candidate"):  # older checkouts imported them into research
        if hasattr(research, name):
            setattr(research, name, getattr(candidates, name))
    with serve_sites(port=0, seed=7) as server:
        for task in demo_instructions(site_truths(server.sites)):
            domain = task.template.domain
            start = single_page_start(task)
            instruction = task.instruction + (f" Start at {server.url(start)}" if start else "")
            RUNS.update(list=0, table=0)
            with tempfile.TemporaryDirectory() as run_dir:
                result = collect(instruction, llm=None, run_dir=Path(run_dir), allow_hosts=["127.0.0.1"],
                                 delay=0.0, seeds=[server.url(f"/{SITE_OF[domain]}/")])
            print(f"{domain}: list tool {RUNS['list']}, table tool {RUNS['table']}; "
                  f"{result.rows} rows, valid {result.valid}", flush=True)


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    main()
