"""`scrapesmith bench scale`: runs over many pages on a local pool or Ray (throughput, memory, resume)."""

from __future__ import annotations

from typing import Annotated

import typer

from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import JsonOutOption, bounded, usage_error
from scrapesmith.cli.scale import BatchSizeOption
from scrapesmith.scale import DEFAULT_BATCH_SIZE


@bench_app.command("scale")
def bench_scale_command(
    sizes: Annotated[str, typer.Option("--sizes", help="Run sizes (pages) for the memory figures, "
                                                       "comma-separated.")] = "10000,200000",
    workers: Annotated[str, typer.Option("--workers", help="Worker counts, comma-separated.")] = "1,2",
    runners: Annotated[str, typer.Option("--runners", help="local and/or ray, comma-separated.")] = "local,ray",
    throughput_pages: Annotated[int, typer.Option("--throughput-pages", min=1,
                                                  help="Pages per throughput run.")] = 20_000,
    resume_pages: Annotated[int, typer.Option("--resume-pages", min=2, help="Pages of the run killed at "
                                                                            "half way and resumed.")] = 20_000,
    batch_size: BatchSizeOption = DEFAULT_BATCH_SIZE,
    delay: Annotated[float, typer.Option("--delay", callback=bounded(0), help="Politeness delay per host "
                                                                               "(0: off).")] = 0.0,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Throughput runs per configuration, "
                                                            "interleaved; figures as median and range.")] = 1,
    json_out: JsonOutOption = None,
) -> None:
    """A spec over a synthetic shop on 127.0.0.1: pages/s and peak memory for each runner and worker count,
    memory against run size, and the cost of a resume after kill -9 at half way. --rounds N runs each
    throughput configuration N times, interleaved, and gives the median and range of every figure."""
    from scrapesmith.bench.frame import report
    from scrapesmith.bench.scale import ScaleSettings, run_benchmark

    def numbers(option: str, text: str) -> tuple[int, ...]:
        try:
            values = tuple(int(part) for part in text.split(",") if part.strip())
        except ValueError:
            raise usage_error(f"{option} takes whole numbers separated by commas, not {text!r}") from None
        if not values or min(values) < 1:
            raise usage_error(f"{option} takes positive whole numbers, not {text!r}")
        return values

    kinds = tuple(part.strip() for part in runners.split(",") if part.strip())
    if not kinds or set(kinds) - {"local", "ray"}:
        raise usage_error(f"--runners takes local and/or ray, not {runners!r}")
    settings = ScaleSettings(numbers("--sizes", sizes), numbers("--workers", workers), kinds, throughput_pages,
                             resume_pages, batch_size, delay, rounds)
    result = run_benchmark(settings, progress=lambda line: console.print(line, highlight=False))
    report(result, json_out, case_columns=["round", "runner", "workers", "pages", "pages_per_s",
                                           "steady_pages_per_s", "first_batch_seconds", "server_cpu_ms_per_page",
                                           "driver_peak_mb", "worker_peak_mb", "lost", "duplicated", "wrong",
                                           "failed"])

