"""The synthetic shop's own CPU per page, alone: what ``bench scale``'s site takes of the cores it shares.

The site of :mod:`scrapesmith.sites.synthetic` runs in a process of its own; ``--connections`` keep-alive
clients (threads here) fetch ``--pages`` item pages between them, and the site's CPU time, read from its
``/__stats`` before and after, is divided by the pages. ``--rounds`` repeats it. Give another checkout's
``src/`` with ``--source`` to measure that one's site (e.g. before a change). Run from the repository root:

    python bench/scale_site_cpu.py --pages 10000 --connections 2 --rounds 3 --json bench/results/x.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
_MEASURE = """
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


def measure(source: Path, pages: int, connections: int) -> float:
    """The site's CPU milliseconds per page in one fresh process of the checkout at ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source), "SCRAPESMITH_LLM": "none"}
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(pages), str(connections)], env=env,
                          capture_output=True, text=True, check=False, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"the site measurement failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])["cpu_ms"] / pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=HERE / "src", help="src/ of the checkout whose site to run")
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    load = [round(value, 2) for value in os.getloadavg()]
    rounds = [round(measure(args.source.resolve(), args.pages, args.connections), 4) for _ in range(args.rounds)]
    result = {"source": str(args.source), "pages": args.pages, "connections": args.connections,
              "site_cpu_ms_per_page": rounds, "median": round(statistics.median(rounds), 4), "load_before": load,
              "load_after": round(os.getloadavg()[0], 2)}
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
