"""Real pages through ``scrapesmith run``: one checkout's one-process run against another's sharded run.

The 400 SWDE ``book-booksamillion`` pages are served by ``python -m http.server`` on 127.0.0.1. A spec is
induced heuristically on the first three (title, ISBN-13, author, publisher); then ``run`` over all 400 with
the baseline checkout (e.g. main before issue 33) and with this one in one process and with two workers.
It checks that the three datasets are identical (``fetched_at`` aside) and reports the time of each
command and, where the run records it, its run phase. Run from the repository root:

    python research/scale_real_pages.py --baseline /path/to/other/checkout/src --json bench/results/x.json

Journal: docs/journal/benchmarks.md, "Real pages through `run`: identical datasets (SWDE `book-booksamillion`, 400 pages)".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
SITE = "book/book-booksamillion"
FIELDS = ("title=the title of the book", "isbn_13=the ISBN-13 of the book", "author=the author",
          "publisher=the publisher")


def scrapesmith(source: Path, *args: str, cwd: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(source), "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"scrapesmith {' '.join(args[:2])} failed: {done.stderr.strip()[-500:]}")
    return time.monotonic() - started


def measure(source: Path, name: str, workdir: Path, *extra: str) -> dict[str, Any]:
    seconds = scrapesmith(source, "run", "spec.json", "urls.txt", "-o", f"{name}.jsonl", "--allow-host",
                          "127.0.0.1", "--delay", "0", *extra, cwd=workdir)
    rows = [json.loads(line) for line in (workdir / f"{name}.jsonl").read_text().splitlines()]
    record = json.loads((workdir / f"{name}.run.json").read_text())
    return {"command_seconds": round(seconds, 2), "rows": len(rows), "errors": sum(1 for r in rows if r.get("error")),
            "filled": {f.split("=")[0]: sum(1 for r in rows if r.get(f.split("=")[0])) for f in FIELDS},
            "run": record.get("scale"), "_rows": [{k: v for k, v in r.items() if k != "fetched_at"} for r in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="src/ of the checkout to compare against")
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--swde", type=Path, default=HERE / "../shared/data/swde", help="the SWDE data directory")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    here = HERE / "src"
    with tempfile.TemporaryDirectory(prefix="scale-real-") as folder:
        workdir = Path(folder)
        server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                                   str((args.swde / SITE).resolve())], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = int((server.stdout.readline() if server.stdout else "").split("port ")[1].split()[0])
            urls = [f"http://127.0.0.1:{port}/{n:04d}.htm" for n in range(args.pages)]
            (workdir / "urls.txt").write_text("\n".join(urls) + "\n", encoding="utf-8")
            fields = [part for field in FIELDS for part in ("--field", field)]
            scrapesmith(here, "induce", *urls[:3], *fields, "--method", "heuristic", "--allow-host", "127.0.0.1",
                        "-o", "spec.json", cwd=workdir)
            runs = {"baseline": measure(args.baseline, "baseline", workdir),
                    "x1": measure(here, "x1", workdir),
                    "x2": measure(here, "x2", workdir, "--workers", "2")}
        finally:
            server.terminate()
    rows = {name: run.pop("_rows") for name, run in runs.items()}
    identical = {name: rows[name] == rows["baseline"] for name in runs}
    report = {"pages": args.pages, "site": "SWDE book-booksamillion, served by python -m http.server",
              "baseline": str(args.baseline), "identical_to_baseline": identical, "runs": runs,
              "load": os.getloadavg()}
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
