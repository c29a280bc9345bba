"""``scrapesmith bench sandbox``: what the bubblewrap sandbox costs.

Two figures, each measured with the sandbox and without it (``unsafe_no_sandbox``, the audit hook and
rlimits only), alternating so both see the same machine load:

* **start-up**: a program that only prints, run ``rounds`` times — the fixed cost per program run
  (bwrap, namespaces, seccomp, the guard proxy, Python's start inside);
* **collect step**: the demo's collect step on the heuristic path (``--llm none``: the instructions with
  a listing page to start from), which runs each program once in the sandbox, and a rerun of each
  program (``scrapesmith run``).
"""

from __future__ import annotations

import shutil
import statistics
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
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary: dict[str, float | int | str] = {"rounds": rounds}
    for mode in MODES:
        summary[f"startup_s_{mode}"] = round(statistics.median(startup[mode]), 3)
        summary[f"collect_s_{mode}"] = round(statistics.median(collect_times[mode]), 3)
        summary[f"rerun_s_{mode}"] = round(statistics.median(rerun_times[mode]), 3)
    for figure in ("startup", "collect", "rerun"):
        summary[f"{figure}_overhead_s"] = round(summary[f"{figure}_s_sandbox"] - summary[f"{figure}_s_no-sandbox"], 3)
    return BenchResult(name="sandbox", summary=summary, cases=cases, params={"rounds": rounds})


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
