"""``scrapesmith induce``, ``scrapesmith run`` and ``scrapesmith bench swde``: field scrapers end to end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import Progress, TaskID
from rich.table import Table

from scrapesmith.bench.swde import default_swde_dir, run_benchmark
from scrapesmith.cli import app, bench_app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    ConcurrencyOption,
    DelayOption,
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    NoRobotsOption,
    OpenOption,
    UnsafeNoSandboxOption,
    allowed_hosts,
    check_choice,
    llm_from_options,
    progress_bar,
    show_report,
    table_path,
    usage_error,
)
from scrapesmith.cli.scale import (
    BatchSizeOption,
    RayAddressOption,
    RayOption,
    ResumeOption,
    RunDirOption,
    ScaleChoices,
    SinceOption,
    WorkersOption,
    run_at_scale,
    write_run_record,
)
from scrapesmith.config import get_settings
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.examples import parse_example
from scrapesmith.induce.execute import CompiledSpec
from scrapesmith.induce.pages import SpecPages
from scrapesmith.induce.service import METHODS, FetchProgress, induce_from_sources
from scrapesmith.induce.views import FieldRequest, ScraperSpec
from scrapesmith.llm.types import LLM
from scrapesmith.scale.service import DEFAULT_BATCH_SIZE

Sources = Annotated[list[str], typer.Argument(help="Pages: files, directories, URLs or a .txt URL list.")]


def parse_field(text: str) -> FieldRequest:
    """``name=instruction`` (or just ``name``) from the command line; ``name=`` with nothing after is refused."""
    name, equals, instruction = text.partition("=")
    name = name.strip()
    if not name or not name.replace("_", "").replace("-", "").isalnum() or (equals and not instruction.strip()):
        raise typer.BadParameter(f"'{text}': use NAME=INSTRUCTION, e.g. isbn='the ISBN-13 of the book'",
                                 param_hint="'--field'")
    return FieldRequest(name, instruction.strip() or name.replace("_", " "))


def _choose_llm(method: str, llm_spec: str | None, no_cache: bool) -> LLM | None:
    if method == "heuristic":
        return None
    return llm_from_options(llm_spec, no_cache)


def _fetch_display(progress: Progress, task: TaskID) -> FetchProgress:
    return lambda done, total: progress.update(task, completed=done, total=total)


@app.command("induce")
def induce_command(
    sources: Sources,
    field: Annotated[list[str], typer.Option("--field", "-f", help="NAME=INSTRUCTION (repeatable).")] = [],  # noqa: B006
    example: Annotated[list[str], typer.Option(
        "--example", "-e", help="NAME=VALUE seen on the first page: learn the field from its value "
        "(repeatable; no model).")] = [],  # noqa: B006
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the spec (JSON).")] = Path("spec.json"),
    method: Annotated[str, typer.Option(help="heuristic | choose | autoscraper | cot | reflexion | auto.")] = "auto",
    seeds: Annotated[int, typer.Option(min=1, help="Use at most this many seed pages.")] = 3,
    allow_host: AllowHostOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Induce a reusable field scraper from seed pages; print its XPaths and what they extract."""
    requests = [parse_field(f) for f in field]
    examples = [parse_example(e) for e in example]
    if not requests and not examples:
        raise typer.BadParameter("give at least one --field NAME=INSTRUCTION or --example NAME=VALUE")
    check_choice("--method", method, (*METHODS, "auto"))
    if method == "auto":
        method = "autoscraper" if (llm or get_settings().llm) not in (None, "", "none") else "heuristic"
    model = _choose_llm(method, llm, no_cache)
    with progress_bar() as progress:
        task = progress.add_task("fetching", total=None)
        spec, trees = induce_from_sources(
            requests, sources, allow_hosts=allowed_hosts(allow_host), method=method, llm=model, seeds=seeds,
            fetch_progress=_fetch_display(progress, task), examples=examples,
            progress=lambda name: progress.update(task, description=f"inducing '{name}' with {method}"))
    spec.save(output)
    _print_spec(spec, trees)
    console.print(f"spec {spec.spec_id} written to {output}", highlight=False)


def _print_spec(spec: ScraperSpec, trees: list) -> None:
    table = Table(title=f"{spec.method} scraper")
    table.add_column("field")
    table.add_column("action sequence", overflow="fold")
    compiled = CompiledSpec(spec)
    rows = [compiled.row_from(compiled.extract_tree(tree)) for tree in trees]
    for index in range(len(trees)):
        table.add_column(f"seed {index}", overflow="fold")
    for field_spec in spec.fields:
        shown = " ⟶ ".join(field_spec.actions) or "(none found)"  # XPath predicates look like rich markup
        table.add_row(field_spec.name, escape(shown), *(escape(str(row[field_spec.name])) for row in rows))
    console.print(table)


@app.command("run")
def run_command(
    target: Annotated[Path, typer.Argument(help="A scraper spec (.json) from `scrapesmith induce`, or a "
                                                "collection program (program.py) from `scrapesmith collect`.")],
    sources: Annotated[list[str] | None, typer.Argument(help="Pages for a spec: files, directories, URLs or a "
                                                             ".txt URL list.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", callback=table_path,
                                                help="Output table: .csv, .jsonl or .parquet.")] = None,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    concurrency: ConcurrencyOption = 1,
    no_robots: NoRobotsOption = False,
    open_: OpenOption = False,
    unsafe_no_sandbox: UnsafeNoSandboxOption = False,
    allow_read: Annotated[list[str] | None, typer.Option(
        "--allow-read", metavar="PATH", help="Let a collection program read the local pages under PATH "
        "(read-only; repeatable): the READ_ROOTS it declares must lie inside these.")] = None,
    workers: WorkersOption = 1,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    resume: ResumeOption = False,
    since: SinceOption = None,
    batch_size: BatchSizeOption = DEFAULT_BATCH_SIZE,
    run_dir: RunDirOption = None,
) -> None:
    """Apply a scraper spec to pages, or rerun a collection program.py, with no LLM.

    A spec's run keeps its shards and a manifest in a run directory beside the output (OUTPUT.run), so a
    killed run continues with --resume and a later one fetches only new or changed pages with --since;
    --workers and --ray spread the batches. A program's rerun writes into RUN_DIR/reruns/<time>/ (and to
    -o when given), never over the original run, in the sandbox, reaching only the settings' hosts and
    --allow-host ones and reading only the local pages under --allow-read; --delay, --concurrency and
    --no-robots apply to a spec's pages."""
    if target.suffix.lower() == ".py":
        from scrapesmith.cli.collect import run_collection_program

        run_collection_program(target, allow_host, output, unsafe_no_sandbox, allow_read)
        return
    if output is None or not sources:
        raise usage_error("running a scraper spec needs pages and -o OUTPUT, e.g. run spec.json page.html -o out.csv")
    spec = load_runnable(target)
    started = time.monotonic()
    choices = ScaleChoices(workers, ray, ray_address, resume, since, batch_size, run_dir)
    run = run_at_scale(SpecPages(spec), sources, output, choices, allow_host=allow_host, delay=delay,
                       respect_robots=not no_robots, concurrency=concurrency)
    failed = run.counts.get("failed", 0)
    report_file = write_run_record(
        output, run, kind="run", title=f"{spec.spec_id} ({spec.site or 'scraper spec'}) on {run.pages} pages",
        program=target, steps=[f"{field.name}: {field.actions!r}" for field in spec.fields],
        seconds=time.monotonic() - started)
    if run.pages and failed == run.pages:  # nothing scraped is a failed run; the error rows stay written
        raise ScrapesmithError(f"all {run.pages} pages failed (first: {run.failures[0][1]}); "
                               f"the error rows are in {output}, the report in {report_file}")
    console.print(f"{run.rows - failed} rows written to {output}"
                  + (f"; {failed} pages failed (see the error column)" if failed else ""), highlight=False)
    show_report(report_file, open_)


def load_runnable(target: Path) -> ScraperSpec:
    """The scraper spec ``run`` was given (``run_command`` has already sent ``.py`` programs to collect)."""
    if target.suffix.lower() == ".json":
        return ScraperSpec.load(target)
    raise ScrapesmithError(f"{target}: `run` takes a scraper spec (.json); got a '{target.suffix or 'no'}' file")


@bench_app.command("swde")
def bench_swde_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    groundtruth: Annotated[Path | None, typer.Option(help="SWDE ground truth DIR (default PAGES/groundtruth).")] = None,
    sites: Annotated[str | None, typer.Option(help="Comma-separated site names (default: all).")] = None,
    attributes: Annotated[str | None, typer.Option(help="Comma-separated attributes (default: all).")] = None,
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(min=0, help="Test pages per site (the next N).")] = 200,
    method: Annotated[str, typer.Option(help="heuristic | choose | autoscraper | cot | reflexion.")] = "heuristic",
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    json_out: JsonOutOption = None,
) -> None:
    """Induce on SWDE seed pages and score on test pages with AutoScraper's executability metric, overall,
    per site and per vertical (model calls and tokens per site with a model)."""
    pages = pages or default_swde_dir()
    groundtruth = groundtruth or pages / "groundtruth"
    check_choice("--method", method, METHODS)
    model = _choose_llm(method, llm, no_cache)
    run_benchmark(pages, groundtruth, sites, attributes, seeds, test, method, model, json_out, progress_bar)
