"""``scrapesmith collect`` (instruction -> dataset) and ``scrapesmith bench instruct2ds``."""

from __future__ import annotations

import hashlib
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, bench_app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    DelayOption,
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    OpenOption,
    UnsafeNoSandboxOption,
    allowed_hosts,
    llm_from_options,
    not_blank,
    progress_bar,
    show_report,
    usage_error,
)
from scrapesmith.collect.progress import live_progress
from scrapesmith.config import get_settings
from scrapesmith.errors import ScrapesmithError
from scrapesmith.llm.types import LLM

Ablation = Annotated[str, typer.Option(
    help="full | broadcast (A3: no OHCache) | no-formatter (A4) | no-cache (A5).")]
AlwaysAsk = Annotated[bool, typer.Option(
    "--always-ask", help="Consult the model at every agent step, as the paper does (default: only where the "
    "tools leave a choice).")]


def default_run_dir(instruction: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{stamp}-{hashlib.sha256(instruction.encode()).hexdigest()[:6]}"


@app.command("collect")
def collect_command(
    instruction: Annotated[str, typer.Argument(callback=not_blank, help="One sentence naming the data and its columns.")],
    run_dir: Annotated[Path | None, typer.Option(help="Run directory (default runs/<time>-<hash>).")] = None,
    seed: Annotated[list[str], typer.Option(
        "--seed", help="Pages to crawl into the local search index when the instruction names no URL: an "
        "http(s) URL, a saved HTML page, a file:// URL or a directory of saved pages (its HTML files; the local "
        "ones are all the run may read of this disk, read-only in the sandbox). Repeatable.")] = [],  # noqa: B006
    allow_host: AllowHostOption = None,
    ablation: Ablation = "full",
    always_ask: AlwaysAsk = False,
    delay: DelayOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    open_: OpenOption = False,
    unsafe_no_sandbox: UnsafeNoSandboxOption = False,
    example: Annotated[list[str], typer.Option(
        "--example", "-e", help="COLUMN=VALUE seen on the first item's own page: learn that column from its "
        "value on the items' pages (repeatable; no model).")] = [],  # noqa: B006
) -> None:
    """Turn an instruction into a validated dataset: research, blueprint, program, sandboxed test, validation."""
    from scrapesmith.collect.sandbox import SandboxLimits
    from scrapesmith.collect.service import collect
    from scrapesmith.induce.examples import parse_example

    try:
        examples = {found.name: found.value for found in map(parse_example, example)}
    except ScrapesmithError as exc:
        raise usage_error(str(exc)) from exc

    model: LLM | None = llm_from_options(llm, no_cache)
    target = run_dir or default_run_dir(instruction)
    hosts = allowed_hosts(allow_host)
    with console.status("collecting…", spinner="dots") as status:
        result = collect(instruction, llm=model, run_dir=target, allow_hosts=hosts, seeds=seed, ablation=ablation,
                         delay=delay, progress=live_progress(console, status), always_ask=always_ask,
                         limits=SandboxLimits(unsafe_no_sandbox=unsafe_no_sandbox), examples=examples)
    if result.read_roots:
        console.print(f"local seeds read (read-only in the sandbox): {', '.join(result.read_roots)}", highlight=False)
    if result.skipped_files:
        shown = "; ".join(result.skipped_files[:3]) + (" …" if len(result.skipped_files) > 3 else "")
        console.print(f"{len(result.skipped_files)} files in seed directories skipped (listed in result.json): "
                      f"{shown}", highlight=False)
    verdict = "valid" if result.valid else "NOT valid (see validation.json)"
    console.print(f"{result.rows} rows -> {result.dataset} ({verdict}); {result.llm_calls} LLM calls, "
                  f"{result.tokens} tokens, {result.seconds:.1f}s", highlight=False)
    console.print(f"rerun without a model: {rerun_command(target / 'program.py')}", highlight=False)
    show_report(result.report, open_)
    if not result.rows:
        raise ScrapesmithError(f"no rows collected; see {target / 'messages.jsonl'}")


def run_collection_program(program: Path, allow_host: list[str] | None, output: Path | None = None,
                           unsafe_no_sandbox: bool = False, allow_read: list[str] | None = None) -> None:
    """``scrapesmith run runs/<id>/program.py [-o OUT]``: recollect in the sandbox with zero LLM calls."""
    from scrapesmith.collect.program import RerunInterrupted, rerun_program
    from scrapesmith.collect.runtime import PARTIAL_DATASET
    from scrapesmith.collect.sandbox import SandboxLimits

    where = "WITHOUT the sandbox (--unsafe-no-sandbox)" if unsafe_no_sandbox else "in the sandbox"
    try:
        with console.status(f"running {program} {where}", spinner="dots"):
            rerun = rerun_program(program, allowed_hosts(allow_host), output,
                                  SandboxLimits(unsafe_no_sandbox=unsafe_no_sandbox), allow_read=allow_read)
    except RerunInterrupted as stopped:
        console.print(f"interrupted: the sandbox was stopped; rows so far are in {stopped.rerun_dir / PARTIAL_DATASET} "
                      f"(partial; marked in {stopped.rerun_dir / 'rerun.run.json'})", highlight=False)
        raise
    for note in rerun.result.notes:  # what of the program's folder was not kept, and why
        console.print(note, highlight=False, markup=False)
    if rerun.dataset is None:
        console.print(f"{program} finished ({rerun.result.seconds:.1f}s) but wrote no dataset.csv", highlight=False)
    else:
        console.print(f"{rerun.rows} rows -> {rerun.dataset} ({rerun.result.seconds:.1f}s, 0 LLM calls)",
                      highlight=False)
    show_report(rerun.report)


def rerun_command(program: Path) -> str:
    """``scrapesmith run program.py`` with the ``--allow-host`` flags its hosts need beyond the settings', and
    the ``--allow-read`` flags for the local roots it reads."""
    from scrapesmith.collect.program import declared_hosts, declared_roots, undeclared_hosts

    try:
        needed = undeclared_hosts(declared_hosts(program), get_settings().allow_hosts)
        roots = declared_roots(program)
    except ScrapesmithError:
        needed, roots = [], []
    return " ".join(["scrapesmith run", shlex.quote(str(program)), *(f"--allow-host {h}" for h in needed),
                     *(f"--allow-read {shlex.quote(r)}" for r in roots)])


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
