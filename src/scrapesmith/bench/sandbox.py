"""``scrapesmith bench sandbox``: what the bubblewrap sandbox costs.

Two figures, each measured with the sandbox and without it (``unsafe_no_sandbox``, the audit hook and
rlimits only), alternating so both see the same machine load:

* **start-up**: a program that only prints, run ``rounds`` times — the fixed cost per program run
  (bwrap, namespaces, seccomp, the guard proxy, Python's start inside);
* **collect step**: the demo's collect step on the heuristic path (``--llm none``: the instructions with
  a listing page to start from), which runs each program once in the sandbox, and a rerun of each
  program (``scrapesmith run``);
* **take-over memory** (sandbox only): the peak memory of a process that reruns a program writing a
  64 MB ``dataset.csv`` (the largest a rerun reads back) — the parent takes it over, reads it back and
  draws the report — once with ten columns a row, once with one-character rows (many small rows are
  what cost memory when a file is read back whole).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from scrapesmith.bench.frame import BenchResult
from scrapesmith.bench.instruct2ds import demo_instructions, site_truths
from scrapesmith.bench.instruct2ds_runner import single_page_start
from scrapesmith.collect import SandboxLimits, collect, run_in_sandbox, run_program_file
from scrapesmith.errors import ScrapesmithError
from scrapesmith.sites import serve_sites

MODES = {"sandbox": SandboxLimits(), "no-sandbox": SandboxLimits(unsafe_no_sandbox=True)}


def bench_sandbox(rounds: int = 5, on_step: Callable[[str], None] | None = None) -> BenchResult:
    step = on_step or (lambda label: None)
    work = Path(tempfile.mkdtemp(prefix="scrapesmith-bench-sandbox-"))
    try:
        startup = _startup(work, rounds, step)
        cases, collect_times, rerun_times = _collect_step(work, rounds, step)
        takeover = {shape: _takeover_peak(work, shape, step) for shape in TAKEOVER_SHAPES}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary: dict[str, float | int | str] = {"rounds": rounds}
    for mode in MODES:
        summary[f"startup_s_{mode}"] = round(statistics.median(startup[mode]), 3)
        summary[f"collect_s_{mode}"] = round(statistics.median(collect_times[mode]), 3)
        summary[f"rerun_s_{mode}"] = round(statistics.median(rerun_times[mode]), 3)
    for figure in ("startup", "collect", "rerun"):
        summary[f"{figure}_overhead_s"] = round(summary[f"{figure}_s_sandbox"] - summary[f"{figure}_s_no-sandbox"], 3)
    for shape, (peak_mb, rows, seconds) in takeover.items():
        summary[f"takeover_peak_mb_{shape}"] = peak_mb
        summary[f"takeover_rows_{shape}"] = rows
        summary[f"takeover_s_{shape}"] = seconds
    return BenchResult(name="sandbox", summary=summary, cases=cases, params={"rounds": rounds})


# A 64 MB dataset.csv (SandboxLimits.dataset_mb): ten 5-character columns a row, or one-character rows.
TAKEOVER_SHAPES = {
    "10_columns": 'row = ",".join(["abcde"] * 10) + "\\n"\nheader = ",".join(f"c{i}" for i in range(10)) + "\\n"',
    "1_char_rows": 'row = "a\\n"\nheader = "c\\n"',
}
_TAKEOVER_PROGRAM = """{shape}
count = (64 * 2**20 - len(header)) // len(row)
with open("dataset.csv", "w") as out:
    out.write(header)
    block = row * 10_000
    for _ in range(count // 10_000):
        out.write(block)
"""
_TAKEOVER_CHILD = """
import json, resource, sys, time
from scrapesmith.collect.program import rerun_program
from scrapesmith.errors import ScrapesmithError
started = time.monotonic()
try:
    rows = rerun_program(sys.argv[1], []).rows
except ScrapesmithError as exc:
    rows = str(exc)
print(json.dumps({"rows": rows, "seconds": round(time.monotonic() - started, 2),
                  "peak_mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) // 1024}))
"""


def _takeover_peak(work: Path, shape: str, step: Callable[[str], None]) -> tuple[int, int | str, float]:
    """Peak memory (MB) of a process rerunning a program that writes a 64 MB dataset of ``shape``; the rows
    it read back (or its one-line error) and its seconds."""
    step(f"take-over memory, 64 MB dataset, {shape}")
    run_dir = work / f"takeover-{shape}"
    run_dir.mkdir()
    program = run_dir / "program.py"
    program.write_text(_TAKEOVER_PROGRAM.format(shape=TAKEOVER_SHAPES[shape]))
    package = str(Path(__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-c", _TAKEOVER_CHILD, str(program)], capture_output=True, text=True,
                          check=False, timeout=900, env={**os.environ, "PYTHONPATH": package})
    if done.returncode != 0:
        raise ScrapesmithError(f"the take-over measure failed: {done.stderr.strip().splitlines()[-1:]}")
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    return measured["peak_mb"], measured["rows"], measured["seconds"]


def _startup(work: Path, rounds: int, step: Callable[[str], None]) -> dict[str, list[float]]:
    run_dir = work / "startup"
    run_dir.mkdir()
    program = run_dir / "program.py"
    program.write_text("print('ok')\n")
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for index in range(rounds):
        for mode, limits in MODES.items():
            step(f"start-up {mode} {index + 1}/{rounds}")
            started = time.perf_counter()
            result = run_in_sandbox(program, run_dir, [], limits)
            times[mode].append(time.perf_counter() - started)
            if not result.ok:
                raise ScrapesmithError(f"the start-up program failed ({mode}): {result.summary()}")
    return times


def _collect_step(work: Path, rounds: int, step: Callable[[str], None],
                  ) -> tuple[list[dict], dict[str, list[float]], dict[str, list[float]]]:
    cases: list[dict] = []
    collect_times: dict[str, list[float]] = {mode: [] for mode in MODES}
    rerun_times: dict[str, list[float]] = {mode: [] for mode in MODES}
    with serve_sites() as server:
        tasks = [t for t in demo_instructions(site_truths(server.sites)) if single_page_start(t)]
        hosts = [f"{server.host}:{server.port}"]
        for index in range(max(1, rounds // 2)):
            for mode, limits in MODES.items():
                total_collect = total_rerun = 0.0
                for task in tasks:
                    step(f"collect {mode} {task.template.domain} {index + 1}")
                    run_dir = work / f"collect-{mode}-{index}-{task.template.domain}"
                    instruction = f"{task.instruction} Start at {server.url(single_page_start(task))}"
                    started = time.perf_counter()
                    result = collect(instruction, llm=None, run_dir=run_dir, allow_hosts=hosts, delay=0.0,
                                     limits=limits)
                    seconds = time.perf_counter() - started
                    started = time.perf_counter()
                    rerun = run_program_file(run_dir / "program.py", hosts, limits)
                    rerun_seconds = time.perf_counter() - started
                    total_collect += seconds
                    total_rerun += rerun_seconds
                    cases.append({"mode": mode, "round": index + 1, "domain": task.template.domain,
                                  "rows": result.rows, "collect_s": round(seconds, 3),
                                  "rerun_s": round(rerun_seconds, 3), "rerun_ok": rerun.ok})
                collect_times[mode].append(total_collect)
                rerun_times[mode].append(total_rerun)
    return cases, collect_times, rerun_times
