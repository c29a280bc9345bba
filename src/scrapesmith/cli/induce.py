"""``scrapesmith induce``, ``scrapesmith run`` and ``scrapesmith bench swde``: field scrapers end to end."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from scrapesmith.bench.swde import run_benchmark
from scrapesmith.cli import app, bench_app, console
from scrapesmith.cli.options import LLMOption, NoCacheOption
from scrapesmith.config import get_settings
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.service import METHODS, induce_scraper
from scrapesmith.induce.views import FieldRequest, ScraperSpec
from scrapesmith.io import write_rows
from scrapesmith.llm.client import resolve_llm
from scrapesmith.llm.types import LLM
from scrapesmith.web.fetch import FileFetcher, HttpFetcher, RoutingFetcher, expand_sources
from scrapesmith.web.page import FetchError, Page

AllowHost = Annotated[list[str], typer.Option(
    "--allow-host", help="Lift the private-address block for HOST or HOST:PORT (repeatable).")]
Sources = Annotated[list[str], typer.Argument(help="Pages: files, directories, URLs or a .txt URL list.")]


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True)


def parse_field(text: str) -> FieldRequest:
    """``name=instruction`` (or just ``name``) from the command line."""
    name, _, instruction = text.partition("=")
    name = name.strip()
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ScrapesmithError(f"bad --field '{text}': use NAME=INSTRUCTION, e.g. isbn='the ISBN-13 of the book'")
    return FieldRequest(name, instruction.strip() or name.replace("_", " "))


def _router(allow_host: list[str]) -> RoutingFetcher:
    settings = get_settings()
    return RoutingFetcher(http=HttpFetcher(allow_hosts=[*settings.allow_hosts, *allow_host]), file=FileFetcher())


def fetch_all(sources: list[str], allow_host: list[str]) -> list[tuple[str, Page | FetchError]]:
    """Every source fetched in order; a failure is kept as the error, so the run goes on."""
    items = expand_sources(sources)
    if not items:
        raise ScrapesmithError("no pages given")
    fetched: list[tuple[str, Page | FetchError]] = []
    with _router(allow_host) as router, _progress() as progress:
        task = progress.add_task("fetching", total=len(items))
        for item in items:
            try:
                fetched.append((item, router.fetch(item)))
            except FetchError as exc:
                fetched.append((item, exc))
            progress.advance(task)
    return fetched


def _choose_llm(method: str, llm_spec: str | None, no_cache: bool) -> LLM | None:
    if method == "heuristic":
        return None
    return resolve_llm(llm_spec, cache=not no_cache)


@app.command("induce")
def induce_command(
    sources: Sources,
    field: Annotated[list[str], typer.Option("--field", "-f", help="NAME=INSTRUCTION (repeatable).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the spec (JSON).")] = Path("spec.json"),
    method: Annotated[str, typer.Option(help="heuristic | autoscraper | cot | reflexion | auto.")] = "auto",
    seeds: Annotated[int, typer.Option(help="Use at most this many seed pages.")] = 3,
    allow_host: AllowHost = [],  # noqa: B006 (typer reads, never mutates, the default)
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Induce a reusable field scraper from seed pages; print its XPaths and what they extract."""
    requests = [parse_field(f) for f in field]
    if method == "auto":
        method = "autoscraper" if (llm or get_settings().llm) not in (None, "", "none") else "heuristic"
    if method not in METHODS:
        raise ScrapesmithError(f"unknown --method '{method}' (use {', '.join(METHODS)} or auto)")
    fetched = [(s, p) for s, p in fetch_all(sources, allow_host) if isinstance(p, Page)][:seeds]
    if not fetched:
        raise ScrapesmithError("none of the seed pages could be fetched")
    trees = [parse_for_replay(page.text) for _, page in fetched]
    model = _choose_llm(method, llm, no_cache)
    with console.status(f"inducing with {method}", spinner="dots") as status:
        spec = induce_scraper(requests, trees, method=method, llm=model, seed_names=[s for s, _ in fetched],
                              progress=lambda name: status.update(f"inducing '{name}' with {method}"))
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
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Output table: .csv, .jsonl or .parquet.")] = None,
    allow_host: AllowHost = [],  # noqa: B006 (typer reads, never mutates, the default)
) -> None:
    """Apply a scraper spec to pages, or rerun a collection program.py, with no LLM."""
    if target.suffix.lower() == ".py":
        from scrapesmith.cli.collect import run_collection_program

        run_collection_program(target, allow_host)
        return
    if output is None or not sources:
        raise ScrapesmithError("running a scraper spec needs pages and -o OUTPUT, e.g. run spec.json page.html -o out.csv")
    spec = load_runnable(target)
    compiled = CompiledSpec(spec)
    rows = []
    failures = 0
    for source, page in fetch_all(sources, allow_host):
        provenance = {"source_url": source, "fetched_at": None, "program_id": spec.spec_id}
        if isinstance(page, FetchError):
            failures += 1
            rows.append({**provenance, **{f.name: None for f in spec.fields}, "error": str(page)})
            continue
        provenance.update(source_url=page.url, fetched_at=page.fetched_at.astimezone(UTC).isoformat())
        rows.append({**provenance, **compiled.row(page.text), "error": None})
    write_rows(rows, output)
    console.print(f"{len(rows) - failures} rows written to {output}"
                  + (f"; {failures} pages failed (see the error column)" if failures else ""), highlight=False)


def load_runnable(target: Path) -> ScraperSpec:
    """The scraper spec ``run`` was given (``run_command`` has already sent ``.py`` programs to collect)."""
    if target.suffix.lower() == ".json":
        return ScraperSpec.load(target)
    raise ScrapesmithError(f"{target}: `run` takes a scraper spec (.json); got a '{target.suffix or 'no'}' file")


def _default_swde() -> Path:
    here = Path(__file__).resolve()
    for candidate in (Path.cwd() / "../shared/data/swde", here.parents[3] / "../shared/data/swde"):
        if candidate.is_dir():
            return candidate.resolve()
    return Path("../shared/data/swde")


@bench_app.command("swde")
def bench_swde_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    groundtruth: Annotated[Path | None, typer.Option(help="SWDE ground truth DIR (default PAGES/groundtruth).")] = None,
    sites: Annotated[str | None, typer.Option(help="Comma-separated site names (default: all).")] = None,
    attributes: Annotated[str | None, typer.Option(help="Comma-separated attributes (default: all).")] = None,
    seeds: Annotated[int, typer.Option(help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(help="Test pages per site (the next N).")] = 200,
    method: Annotated[str, typer.Option(help="autoscraper | cot | reflexion | heuristic.")] = "heuristic",
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the full result as JSON here.")] = None,
) -> None:
    """Induce on SWDE seed pages and score on test pages with AutoScraper's executability metric."""
    pages = pages or _default_swde()
    groundtruth = groundtruth or pages / "groundtruth"
    if method not in METHODS:
        raise ScrapesmithError(f"unknown --method '{method}' (use {', '.join(METHODS)})")
    model = _choose_llm(method, llm, no_cache)
    run_benchmark(pages, groundtruth, sites, attributes, seeds, test, method, model, json_out, _progress)
