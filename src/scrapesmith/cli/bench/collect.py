"""`scrapesmith bench instruct2ds`, `bench collect-pages` and `bench sandbox`: the collect workflow and its sandbox."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import bench_app, console
from scrapesmith.cli.collect import Ablation, AlwaysAsk
from scrapesmith.cli.options import (
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    llm_from_options,
    progress_bar,
)
from scrapesmith.collect import live_progress
from scrapesmith.errors import ScrapesmithError


@bench_app.command("instruct2ds")
def bench_instruct2ds_command(
    domains: Annotated[str, typer.Option(help="Comma-separated: academic,finance,sports.")] = "academic,finance,sports",
    tasks: Annotated[int, typer.Option(help="Tasks per template.")] = 1,
    template: Annotated[list[str], typer.Option(
        "--template", help="Only these templates, e.g. sports-T2 (repeatable; default: all).")] = [],  # noqa: B006
    json_out: JsonOutOption = None,
    out_dir: Annotated[Path, typer.Option(help="Where the task run directories go.")] = Path("runs/instruct2ds"),
    ablation: Ablation = "full",
    always_ask: AlwaysAsk = False,
    start_urls: Annotated[bool, typer.Option(
        help="Name the listing URL in each instruction that has one page to start from (heuristic-only runs).")] = False,
    seed: Annotated[int, typer.Option(help="Random seed for the task sample.")] = 0,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Instruct2DS-style benchmark on the local demo web: P/R/F1 per attribute unit, time and tokens per task."""
    from scrapesmith.bench.frame import report
    from scrapesmith.bench.instruct2ds import DOMAINS, make_tasks, run_instruct2ds, site_truths
    from scrapesmith.bench.instruct2ds_runner import task_runner
    from scrapesmith.sites import serve_sites

    chosen = [d.strip() for d in domains.split(",") if d.strip()]
    unknown = [d for d in chosen if d not in DOMAINS]
    if unknown:
        raise ScrapesmithError(f"unknown domain(s) {', '.join(unknown)} (use {', '.join(DOMAINS)})")
    model = llm_from_options(llm, no_cache)
    with serve_sites() as server:
        truths = site_truths(server.sites)
        selected = [t for t in make_tasks(truths, chosen, tasks, seed) if not template or t.template.name in template]
        with progress_bar() as progress:
            bar = progress.add_task("instruct2ds", total=len(selected))
            result = run_instruct2ds(
                selected, truths, task_runner(server, model, ablation, start_urls, always_ask=always_ask), out_dir,
                on_task=lambda task: progress.advance(bar),
                params={"domains": chosen, "templates": template or "all", "tasks_per_template": tasks, "ablation": ablation,
                        "always_ask": always_ask, "llm": getattr(model, "name", "none"), "start_urls": start_urls, "seed": seed})
    report(result, json_out, case_columns=["task", "rows", "truth_rows", "precision", "recall", "f1", "seconds",
                                           "tokens", "failures"])


@bench_app.command("collect-pages")
def bench_collect_pages_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/book/book-<site>/NNNN.htm.")] = None,
    groundtruth: Annotated[Path | None, typer.Option(help="SWDE ground truth DIR (default PAGES/groundtruth).")] = None,
    site: Annotated[str | None, typer.Option(help="Book site name (default: the book site with the most pages).")] = None,
    count: Annotated[int, typer.Option(help="Detail pages in the catalog.")] = 40,
    offset: Annotated[int, typer.Option(help="Skip this many pages first.")] = 0,
    run_dir: Annotated[Path | None, typer.Option(help="Run directory (default runs/collect-pages-<time>).")] = None,
    json_out: JsonOutOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """collect over a paginated links-only catalog of real SWDE book pages: row recall and cell accuracy."""
    from scrapesmith.bench.collect_pages import run_collect_pages
    from scrapesmith.bench.swde import default_swde_dir

    if count < 1 or offset < 0:
        raise typer.BadParameter("--count must be at least 1 and --offset at least 0")
    pages = pages or default_swde_dir()
    model = llm_from_options(llm, no_cache)
    target = run_dir or Path("runs") / f"collect-pages-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"
    with console.status("collecting…", spinner="dots") as status:
        run_collect_pages(pages, groundtruth or pages / "groundtruth", site, count, offset, model, target, json_out,
                          progress=live_progress(console, status))


@bench_app.command("sandbox")
def bench_sandbox_command(
    rounds: Annotated[int, typer.Option(help="Start-up runs per mode (the collect step runs rounds // 2 times).")] = 5,
    json_out: JsonOutOption = None,
) -> None:
    """What the bubblewrap sandbox costs: start-up per program run, and on the demo's collect step (--llm none)."""
    from scrapesmith.bench.frame import report
    from scrapesmith.bench.sandbox import bench_sandbox

    with console.status("sandbox benchmark", spinner="dots") as status:
        result = bench_sandbox(rounds, on_step=lambda label: status.update(f"sandbox benchmark: {label}"))
    report(result, json_out, case_columns=["mode", "round", "domain", "rows", "collect_s", "rerun_s", "rerun_ok"])

