"""What the synthetic shop and the driver of a run take of the cores: the parts of ``bench scale``'s CPU
per page that are neither the workers' nor start-up.

``--part site``: the shop of :mod:`scrapesmith.sites.synthetic` in a process of its own; ``--connections``
keep-alive clients (threads) fetch ``--pages`` item pages between them; the site's CPU time, read from its
``/__stats`` before and after, divided by the pages.
``--part driver``: the shop as above, a local pool of ``--workers`` started and warmed, then
:func:`scrapesmith.scale.run_pages` over ``--pages`` item pages with a three-field spec; the driver's CPU
time (planning batches, the pool's pickling and futures, committing to the manifest) read around that call
only, committing and planning timed apart.
Each round runs in a fresh process of the checkout at ``--source`` (e.g. one before a change). Run from the
repository root:

    python research/scale_cpu.py --part site --pages 10000 --rounds 3 --json bench/results/x.json

Journal: docs/journal/benchmarks.md, "Issue 33 (2026-11-27): the driver and the site off the second worker's cores".
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
_SITE = """
import http.client, json, sys, threading
from scrapesmith.sites import serve_in_process

pages, connections = int(sys.argv[1]), int(sys.argv[2])
with serve_in_process(pages) as host:
    name, port = host.split(":")

    def getter():
        connection = http.client.HTTPConnection(name, int(port), timeout=30)

        def get(path):
            connection.request("GET", path)
            return connection.getresponse().read()
        return get

    stats = getter()
    before = json.loads(stats("/__stats"))["cpu_ms"]

    def client(first):
        get = getter()
        for number in range(first, pages, connections):
            get(f"/item/{number}")

    threads = [threading.Thread(target=client, args=(first,)) for first in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"cpu_ms": json.loads(stats("/__stats"))["cpu_ms"] - before}))
"""
_DRIVER = """
import json, sys, tempfile, time
from pathlib import Path

from scrapesmith.induce.pages import SpecPages
from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.scale import FetchOptions, LocalPoolRunner, RunPlan, manifest, run_pages, service
from scrapesmith.sites import ITEM_FIELDS, serve_in_process

pages, workers = int(sys.argv[1]), int(sys.argv[2])
spent = {"commit": 0.0, "plan": 0.0}
commit, jobs = manifest.RunState.commit, service._BatchPlanner.jobs


def timed_commit(self, *args):
    started = time.process_time()
    commit(self, *args)
    spent["commit"] += time.process_time() - started


def timed_jobs(self, sources):
    planned = jobs(self, sources)
    while True:
        started = time.process_time()
        job = next(planned, None)
        spent["plan"] += time.process_time() - started
        if job is None:
            return
        yield job


manifest.RunState.commit, service._BatchPlanner.jobs = timed_commit, timed_jobs
spec = SpecPages(ScraperSpec(fields=[FieldSpec(name=name, actions=[xpath]) for name, xpath in ITEM_FIELDS.items()]))
if __name__ == "__main__":
    with serve_in_process(pages) as host, tempfile.TemporaryDirectory() as folder:
        urls = [f"http://{host}/item/{number}" for number in range(pages)]
        runner = LocalPoolRunner(workers, in_flight=2 * workers,
                                 preload=("scrapesmith.scale.worker", "scrapesmith.induce.pages")).start()
        time.sleep(3)
        started = time.process_time()
        summary, state, _generation = run_pages(urls, spec, RunPlan(Path(folder) / "r.run", batch_size=100), runner,
                                                FetchOptions(("127.0.0.1",), 0))
        driver = time.process_time() - started
        state.close()
        runner.close()
        print(json.dumps({"driver_ms": 1000 * driver, "commit_ms": 1000 * spent["commit"],
                          "plan_ms": 1000 * spent["plan"], "pages_per_s": summary.pages_per_second,
                          "ok": summary.ok}))
"""


def measure(source: Path, part: str, pages: int, clients: int) -> dict[str, Any]:
    """One round of ``part`` in a fresh process of the checkout at ``source``: CPU milliseconds per page."""
    env = {**os.environ, "PYTHONPATH": str(source), "SCRAPESMITH_LLM": "none"}
    done = subprocess.run([sys.executable, "-c", _SITE if part == "site" else _DRIVER, str(pages), str(clients)],
                          env=env, capture_output=True, text=True, check=False, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"the {part} measurement failed: {done.stderr.strip()[-500:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if part == "site":
        return {"cpu_ms_per_page": round(figures["cpu_ms"] / pages, 4)}
    if figures["ok"] != pages:
        raise SystemExit(f"only {figures['ok']} of {pages} pages came back ok")
    return {"cpu_ms_per_page": round(figures["driver_ms"] / pages, 4),
            "commit_ms_per_page": round(figures["commit_ms"] / pages, 4),
            "plan_ms_per_page": round(figures["plan_ms"] / pages, 4), "pages_per_s": round(figures["pages_per_s"], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("site", "driver"), required=True)
    parser.add_argument("--source", type=Path, default=HERE / "src", help="src/ of the checkout to measure")
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=2, help="site: keep-alive clients")
    parser.add_argument("--workers", type=int, default=2, help="driver: pool workers")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    clients = args.connections if args.part == "site" else args.workers
    load = [round(value, 2) for value in os.getloadavg()]
    rounds = [measure(args.source.resolve(), args.part, args.pages, clients) for _ in range(args.rounds)]
    result = {"part": args.part, "source": str(args.source), "pages": args.pages, "clients": clients,
              "rounds": rounds, "median_cpu_ms_per_page": round(statistics.median(r["cpu_ms_per_page"] for r in rounds), 4),
              "load_before": load, "load_after": round(os.getloadavg()[0], 2)}
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
