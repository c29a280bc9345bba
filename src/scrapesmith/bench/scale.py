"""Throughput, memory and resume cost of a spec run over many pages (``scrapesmith bench scale``).

A synthetic shop (:mod:`scrapesmith.sites.synthetic`, pages made on request, in a process of its own) serves
``site_pages`` item pages on 127.0.0.1. For each runner (``local``: this process for one worker, a process
pool for more; ``ray``: a local Ray), each worker count and each run size, the real command line runs a
three-field spec over the first N items from scratch: ``scrapesmith run spec.json urls.txt -o out.parquet``.
Measured per configuration, from outside the command: pages/s over the run (the run's own clock, in its
record), the peak resident memory of the driver, of the largest worker and of the whole process tree
(sampled every 0.2 s), the CPU time per page of the driver (start-up, batching, manifest, assembly,
report) and of every other process of the run (workers; for Ray also its own services), and the dataset
checked against the site's truth (rows lost, duplicated, wrong). The site's own CPU per page is read from
the site (it shares the cores with the run). Besides the whole run's pages/s, the *steady* rate after the
first finished batch leaves out the start-up of pool and Ray workers (processes spawned, modules imported),
a fixed cost that weighs on a 20,000-page run and not on a million-page one; both are reported.
``rounds`` repeats every throughput configuration, interleaved (the order reversed every other round), and
sums them up as median and range, each round's figure kept in the cases.

Then the resume: a run of ``resume_pages`` items with two local workers is killed (``kill -9`` on its
process group) once half its pages are committed, and run again with ``--resume``: the server counts how
many pages were fetched twice, and the dataset is checked as above.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import psutil

from scrapesmith.bench.frame import BenchResult
from scrapesmith.induce import FieldSpec, ScraperSpec
from scrapesmith.io import read_rows
from scrapesmith.sites import ITEM_FIELDS, item_truth, serve_in_process

SAMPLE_SECONDS = 0.2


@dataclass(frozen=True)
class ScaleSettings:
    sizes: tuple[int, ...] = (10_000, 200_000)
    workers: tuple[int, ...] = (1, 2)
    runners: tuple[str, ...] = ("local", "ray")
    throughput_pages: int = 20_000
    resume_pages: int = 20_000
    batch_size: int = 100
    delay: float = 0.0
    rounds: int = 1


class MemorySampler:
    """Peak resident memory of a process and its descendants, sampled from a thread; and the CPU time each
    used (the last sample of each process: a worker's time up to its last 0.2 s)."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.driver = 0
        self.worker = 0
        self.tree = 0
        self.cpu: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            try:
                driver = self.root.memory_info().rss
                descendants = self.root.children(recursive=True)
                children = [_rss(child) for child in descendants]
                for process in (self.root, *descendants):
                    self.cpu[process.pid] = _cpu(process, self.cpu.get(process.pid, 0.0))
            except psutil.Error:
                continue
            self.driver = max(self.driver, driver)
            self.worker = max(self.worker, *children, 0)
            self.tree = max(self.tree, driver + sum(children))


def _cpu(process: psutil.Process, known: float) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:
        return known
    return times.user + times.system


def _rss(process: psutil.Process) -> int:
    try:
        return process.memory_info().rss
    except psutil.Error:
        return 0


def _stats(host: str, reset: bool = False) -> dict[str, int]:
    with urllib.request.urlopen(f"http://{host}/__stats{'?reset' if reset else ''}", timeout=30) as answer:
        return json.loads(answer.read())


def _command(workdir: Path, urls: Path, output: str, workers: int, runner: str, settings: ScaleSettings,
             *extra: str) -> list[str]:
    args = [sys.executable, "-m", "scrapesmith", "run", "spec.json", str(urls), "-o", output,
            "--allow-host", "127.0.0.1", "--workers", str(workers), "--delay", str(settings.delay),
            "--batch-size", str(settings.batch_size), *extra]
    return args + (["--ray"] if runner == "ray" else [])


def _environment() -> dict[str, str]:
    source = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]),
            "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}


def check_dataset(path: Path, first: int, count: int) -> dict[str, int]:
    """Items ``first .. first+count-1`` against the site's truth: rows lost, duplicated, wrong, failed."""
    seen: dict[int, int] = {}
    wrong = failed = 0
    for row in read_rows(path):
        number = int(str(row["source_url"]).rsplit("/", 1)[1])
        seen[number] = seen.get(number, 0) + 1
        if row.get("error"):
            failed += 1
        elif {field: row[field] for field in ITEM_FIELDS} != item_truth(number):
            wrong += 1
    expected = range(first, first + count)
    return {"rows": sum(seen.values()), "lost": sum(1 for n in expected if n not in seen),
            "duplicated": sum(c - 1 for c in seen.values() if c > 1), "wrong": wrong, "failed": failed}


def _write_urls(workdir: Path, host: str, first: int, count: int) -> Path:
    path = workdir / f"urls-{first}-{count}.txt"
    if not path.exists():
        with path.open("w", encoding="utf-8") as handle:
            handle.writelines(f"http://{host}/item/{n}\n" for n in range(first, first + count))
    return path


def measure_run(workdir: Path, host: str, runner: str, workers: int, pages: int,
                settings: ScaleSettings, round_: int = 0) -> dict[str, Any]:
    """One configuration from scratch, through the command line, watched from outside; the site's own CPU
    read from it before and after."""
    urls = _write_urls(workdir, host, 0, pages)
    output = f"out-{runner}-{workers}-{pages}-r{round_}.parquet"
    server_before = _stats(host)["cpu_ms"]
    started = time.monotonic()
    process = subprocess.Popen(_command(workdir, urls, output, workers, runner, settings), cwd=workdir,
                               env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with MemorySampler(process.pid) as memory:
        _out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"{runner} x{workers} on {pages} pages failed: {err.strip().splitlines()[-1:]}")
    server_ms = _stats(host)["cpu_ms"] - server_before
    record = json.loads((workdir / output).with_suffix(".run.json").read_text(encoding="utf-8"))["scale"]
    driver_ms = 1000 * memory.cpu.get(process.pid, 0.0)
    others_ms = 1000 * sum(t for pid, t in memory.cpu.items() if pid != process.pid)
    case = {"round": round_, "runner": runner, "workers": workers, "pages": pages,
            "pages_per_s": round(record["pages_per_second"], 1),
            "steady_pages_per_s": round(record["steady_pages_per_second"], 1),
            "first_batch_seconds": round(record["first_batch_seconds"] or 0.0, 2),
            "run_seconds": round(record["seconds"], 2), "command_seconds": round(time.monotonic() - started, 2),
            # the whole command, from starting Python to the report: what a user waits for
            "command_pages_per_s": round(pages / (time.monotonic() - started), 1),
            "driver_peak_mb": round(memory.driver / 2**20, 1), "worker_peak_mb": round(memory.worker / 2**20, 1),
            "driver_cpu_ms_per_page": round(driver_ms / pages, 3), "others_cpu_ms_per_page": round(others_ms / pages, 3),
            "run_cpu_ms_per_page": round((driver_ms + others_ms) / pages, 3),
            "server_cpu_ms_per_page": round(server_ms / pages, 3),
            # what the machine's cores could give at these CPU costs per page (run and site together)
            "cpu_ceiling_pages_per_s": round((os.cpu_count() or 1) * 1000 * pages / (driver_ms + others_ms + server_ms), 1),
            "tree_peak_mb": round(memory.tree / 2**20, 1), **check_dataset(workdir / output, 0, pages)}
    (workdir / output).unlink()
    return case


def measure_resume(workdir: Path, host: str, settings: ScaleSettings) -> dict[str, Any]:
    """Kill a two-worker run at half way with ``kill -9``, resume it, count what was fetched twice."""
    first, count = max(settings.sizes), settings.resume_pages
    urls = _write_urls(workdir, host, first, count)
    _stats(host, reset=True)
    command = _command(workdir, urls, "resumed.parquet", 2, "local", settings)
    process = subprocess.Popen(command, cwd=workdir, env=_environment(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    manifest = workdir / "resumed.run" / "manifest.sqlite"
    done = 0
    while done < count // 2:
        if process.poll() is not None:
            raise RuntimeError("the run to be killed ended before half way")
        time.sleep(0.1)
        done = _committed_pages(manifest)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    at_kill = _committed_pages(manifest)
    started = time.monotonic()
    resumed = subprocess.run([*command, "--resume"], cwd=workdir, env=_environment(), capture_output=True,
                             text=True, check=False)
    if resumed.returncode != 0:
        raise RuntimeError(f"the resumed run failed: {resumed.stderr.strip().splitlines()[-1:]}")
    stats = _stats(host)
    return {"pages": count, "committed_at_kill": at_kill, "resume_seconds": round(time.monotonic() - started, 2),
            "fetched_twice": stats["fetched_twice"], "items_fetched": stats["items_fetched"],
            **check_dataset(workdir / "resumed.parquet", first, count)}


def _committed_pages(manifest: Path) -> int:
    if not manifest.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{manifest}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT COALESCE(SUM(ok + failed + unchanged + kept), 0) FROM batches").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def run_benchmark(settings: ScaleSettings, progress: Any = print) -> BenchResult:
    cases = []
    load_before = [round(load, 2) for load in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder, \
            serve_in_process(max(settings.sizes) + settings.resume_pages) as host:
        workdir = Path(folder)
        ScraperSpec(fields=[FieldSpec(name=name, actions=[xpath]) for name, xpath in ITEM_FIELDS.items()]).save(
            workdir / "spec.json")
        for round_, (runner, workers) in throughput_plan(settings):
            progress(f"round {round_ + 1}/{settings.rounds}: {runner} x{workers}: {settings.throughput_pages} pages")
            cases.append(measure_run(workdir, host, runner, workers, settings.throughput_pages, settings, round_))
        for size in settings.sizes:
            if size != settings.throughput_pages or "local" not in settings.runners:
                progress(f"local x{max(settings.workers)}: {size} pages")
                cases.append(measure_run(workdir, host, "local", max(settings.workers), size, settings))
        progress(f"resume after kill -9 at 50 % of {settings.resume_pages} pages")
        resume = measure_resume(workdir, host, settings)
    return BenchResult(name="scale", summary=summarise(cases, resume, settings), cases=cases,
                       params={**settings.__dict__, "resume": resume, "load_before": load_before})


def throughput_plan(settings: ScaleSettings) -> list[tuple[int, tuple[str, int]]]:
    """Every runner and worker count once per round, interleaved, the order reversed every other round: a
    load that comes and goes on the machine falls on each configuration alike, not on one."""
    configurations = [(runner, workers) for runner in settings.runners for workers in settings.workers]
    return [(round_, configuration) for round_ in range(settings.rounds)
            for configuration in (configurations if round_ % 2 == 0 else configurations[::-1])]


def spread(summary: dict[str, Any], key: str, values: list[float]) -> None:
    """``key``: the median of the rounds' figures; ``key_range``: the least and the greatest (every round's
    figure is in the cases)."""
    if values:
        summary[key] = round(statistics.median(values), 3)
        summary[f"{key}_range"] = [round(min(values), 3), round(max(values), 3)]


def summarise(cases: list[dict[str, Any]], resume: dict[str, Any], settings: ScaleSettings) -> dict[str, Any]:
    summary: dict[str, Any] = {"rounds": settings.rounds, "cores": os.cpu_count()}
    throughput = [c for c in cases if c["pages"] == settings.throughput_pages]
    for runner in settings.runners:
        runs = {(c["round"], c["workers"]): c for c in throughput if c["runner"] == runner}
        for workers in settings.workers:
            mine = [c for (_, w), c in sorted(runs.items()) if w == workers]
            for figure in ("pages_per_s", "steady_pages_per_s", "command_pages_per_s", "cpu_ceiling_pages_per_s",
                           "run_cpu_ms_per_page", "server_cpu_ms_per_page"):
                spread(summary, f"{runner}_x{workers}_{figure}", [c[figure] for c in mine])
        for rate, name in (("pages_per_s", "second_worker_adds"), ("steady_pages_per_s", "second_worker_adds_steady"),
                           ("command_pages_per_s", "second_worker_adds_command")):
            added = [(runs[r, 2][rate] - runs[r, 1][rate]) / runs[r, 1][rate] for r in range(settings.rounds)
                     if (r, 1) in runs and (r, 2) in runs and runs[r, 1][rate]]
            if added:
                spread(summary, f"{runner}_{name}", added)
                summary[f"{runner}_{name}_each_round"] = [round(a, 3) for a in added]
        # a projection, not a measured rate: two workers each on a core of its own, at the CPU per page the
        # run spent with one worker and with two (start-up, driver, pickling included; the site apart)
        free = [2 * runs[r, 1]["run_cpu_ms_per_page"] / runs[r, 2]["run_cpu_ms_per_page"] - 1
                for r in range(settings.rounds) if (r, 1) in runs and (r, 2) in runs and runs[r, 2]["run_cpu_ms_per_page"]]
        spread(summary, f"{runner}_second_worker_adds_on_free_cores", free)
    by_size = {c["pages"]: c for c in cases if c["runner"] == "local" and c["workers"] == max(settings.workers)}
    for size in sorted(by_size):
        summary[f"driver_peak_mb_{size}"] = by_size[size]["driver_peak_mb"]
        summary[f"worker_peak_mb_{size}"] = by_size[size]["worker_peak_mb"]
    summary["lost"] = sum(c["lost"] for c in cases) + resume["lost"]
    summary["duplicated"] = sum(c["duplicated"] for c in cases) + resume["duplicated"]
    summary["wrong"] = sum(c["wrong"] for c in cases) + resume["wrong"]
    summary["resume_fetched_twice"] = resume["fetched_twice"]
    summary["resume_committed_at_kill"] = resume["committed_at_kill"]
    summary["load_after"] = round(os.getloadavg()[0], 2)
    return summary
