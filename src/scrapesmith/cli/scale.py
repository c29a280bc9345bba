"""Options and glue for runs over many pages (``run`` with a spec, ``replay`` over many start pages):
resumable, incremental, on a local pool or Ray (:mod:`scrapesmith.scale`); and ``bench scale``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from scrapesmith.cli import console
from scrapesmith.cli.options import allowed_hosts, progress_bar, usage_error
from scrapesmith.drift import DriftReport
from scrapesmith.report import write_report
from scrapesmith.scale import (
    DEFAULT_BATCH_SIZE,
    FetchOptions,
    InlineRunner,
    LocalPoolRunner,
    PageProgram,
    Runner,
    RunPlan,
    RunSummary,
    assemble,
    make_runner,
    run_dir_for,
    run_pages,
)
from scrapesmith.web import iter_sources

WorkersOption = Annotated[int, typer.Option("--workers", min=1, help="Worker processes (local pool, or Ray tasks "
                                                                      "at once). 1 runs in this process.")]
RayOption = Annotated[bool, typer.Option("--ray", help="Run the batches as Ray tasks (a local Ray when no "
                                                       "--ray-address or RAY_ADDRESS).")]
RayAddressOption = Annotated[str | None, typer.Option("--ray-address", metavar="ADDRESS",
                                                      help="Connect to this Ray cluster (implies --ray).")]
ResumeOption = Annotated[bool, typer.Option("--resume", help="Continue the run recorded beside the output "
                                                             "(after a crash, kill or Ctrl-C).")]
SinceOption = Annotated[Path | None, typer.Option(
    "--since", metavar="RUN_DIR", help="Incremental: fetch only pages not done in that run (its .run directory "
    "or its dataset), or changed since (ETag/Last-Modified), and append to it.")]
BatchSizeOption = Annotated[int, typer.Option("--batch-size", min=1, help="Pages per batch (per shard).")]
RunDirOption = Annotated[Path | None, typer.Option(
    "--run-dir", help="Where the run keeps its shards and manifest (default: the output with suffix .run).")]


FAILURES_KEPT = 1000


@dataclass(frozen=True)
class ScaledRun:
    """A finished run: this session's summary, the dataset's rows, and every page of the run by outcome
    (resumed batches included) with the first failures."""

    summary: RunSummary
    rows: int
    counts: dict[str, int]
    failures: list[tuple[str, str]]

    @property
    def pages(self) -> int:
        return sum(self.counts.values())

    def describe(self) -> dict[str, Any]:
        """How the run went, for its record: the runner, this session's pages and time, what was resumed."""
        summary = self.summary
        return {"runner": summary.runner, "workers": summary.workers, "seconds": summary.seconds,
                "pages_fetched": summary.fetched, "pages_per_second": summary.pages_per_second,
                "first_batch_seconds": summary.first_batch_seconds,
                "steady_pages_per_second": summary.steady_pages_per_second,
                "batches": summary.batches, "batches_resumed": summary.batches_resumed,
                "pages_resumed": summary.pages_resumed, "unchanged": summary.unchanged, "kept": summary.kept,
                "counts": self.counts, "rows": self.rows}


@dataclass(frozen=True)
class ScaleChoices:
    """How a run spreads and where it picks up: the options every many-page command shares."""

    workers: int = 1
    ray: bool = False
    ray_address: str | None = None
    resume: bool = False
    since: Path | None = None
    batch_size: int = DEFAULT_BATCH_SIZE
    run_dir: Path | None = None

    def check(self) -> None:
        if self.resume and self.since is not None:
            raise usage_error("--resume continues an unfinished run and --since starts a new one: give one")

    def runner(self, program: PageProgram | None = None) -> Runner:
        """The runner the options ask for; a local pool's workers start at once, importing the worker and
        ``program``'s module while the driver opens the run."""
        if self.ray or self.ray_address:
            return make_runner(self.workers, use_ray=True, ray_address=self.ray_address)
        if self.workers == 1:
            return InlineRunner()
        preload = ("scrapesmith.scale.worker", *([type(program).__module__] if program is not None else []))
        return LocalPoolRunner(self.workers, in_flight=2 * self.workers, preload=preload).start()


def write_run_record(output: Path, run: ScaledRun, *, kind: str, title: str, program: Path, steps: list[str],
                     seconds: float, drift: DriftReport | None = None) -> Path:
    """A ``<name>.run.json`` record beside the dataset (what ``report`` draws), and the report; return it.

    ``drift`` (the output checked against the program's profile) is kept under ``"drift"``."""
    output = Path(output)
    record = {
        "kind": kind, "title": title, "dataset": output.name, "program": str(Path(program).resolve()),
        "seconds": seconds, "steps": steps,
        "failures": [{"url": url, "item": "", "error": error} for url, error in run.failures],
        "ledger": {"totals": {"calls": 0}, "by_stage": {}}, "scale": run.describe(),
    }
    if drift is not None:
        record["drift"] = drift.model_dump(mode="json")
    record_path = output.with_name(f"{output.stem}.run.json")
    record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return write_report(record_path)


def run_at_scale(program: PageProgram, sources: list[str], output: Path, choices: ScaleChoices, *,
                 allow_host: list[str] | None, delay: float | None, respect_robots: bool,
                 concurrency: int) -> ScaledRun:
    """Run ``program`` over ``sources`` into ``output`` (via its run directory). Ctrl-C stops it with a hint
    to ``--resume``."""
    choices.check()
    run_dir = choices.run_dir or run_dir_for(output)
    plan = RunPlan(run_dir, choices.batch_size, choices.resume, choices.since)
    options = FetchOptions(tuple(allowed_hosts(allow_host)), delay, respect_robots, concurrency)
    runner = choices.runner(program)  # a pool's workers start while the sources are counted
    try:
        total = sum(1 for _ in iter_sources(sources))
        with progress_bar() as progress:
            task = progress.add_task(f"pages ({runner.name} x{runner.workers})", total=total)
            summary, state, generation = run_pages(
                iter_sources(sources), program, plan, runner, options,
                on_batch=lambda done: progress.update(task, completed=done.pages + done.pages_resumed))
    except KeyboardInterrupt:
        console.print(f"[yellow]interrupted[/]: what was done is kept in {run_dir}; rerun with --resume to "
                      "finish", highlight=False)
        raise
    finally:
        runner.close()
    try:
        _path, rows, torn = assemble(state, output, program.schema)
        counts = state.counts(generation)
        failures = state.failures(generation, FAILURES_KEPT)
    finally:
        state.close()
    if torn:
        console.print(f"[yellow]{torn} unreadable lines in the shards of {run_dir} were skipped[/]", highlight=False)
    if summary.pages_resumed or summary.unchanged or summary.kept:
        console.print(f"{summary.pages_resumed} pages done before this run; {summary.unchanged} unchanged (304), "
                      f"{summary.kept} kept without fetching", highlight=False)
    return ScaledRun(summary, rows, counts, failures)


