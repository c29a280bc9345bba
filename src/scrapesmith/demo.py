"""``scrapesmith demo``: the product end to end on the local demo web, offline, in a few minutes.

Orchestration only: every step calls a capability's public API and prints what it produced. The run
directory (``runs/demo-<time>/``) keeps every artefact so a user can open what the demo made.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from scrapesmith.bench.instruct2ds import SITE_OF
from scrapesmith.bench.sites import DemoServer, serve_sites
from scrapesmith.io import read_rows
from scrapesmith.web.archive import ArchivingFetcher, WarcWriter
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import FetchError

SAMPLE_PAGES_PER_SITE = 12


@dataclass
class DemoContext:
    """What every demo step receives: the running sites, a polite fetcher, the run directory, the console."""

    server: DemoServer
    fetcher: ArchivingFetcher
    run_dir: Path
    console: Console
    llm_spec: str | None = None
    llm_cache: bool = True
    notes: list[str] = field(default_factory=list)


DemoStep = Callable[[DemoContext], None]


def new_run_dir(root: Path = Path("runs")) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    run_dir = root / f"demo-{stamp}"
    run_dir.mkdir(parents=True, exist_ok=True)
    return run_dir


def _documents(sites, name: str) -> list[str]:
    """A site's HTML pages (not its files, API answers or ground truth)."""
    skip = {"file", "pdf", "api", "truth"}
    return [path for path in sites.urls(name) if not skip.intersection(sites.kinds(path))]


def survey_sites(ctx: DemoContext) -> None:
    """Step 1: fetch every site's entry page and a sample of its pages; summarise what is there."""
    sites = ctx.server.sites
    plan = {s.name: [s.entry_path, *_documents(sites, s.name)[:SAMPLE_PAGES_PER_SITE]] for s in sites.describe()}
    urls = [(name, ctx.server.url(path)) for name, paths in plan.items() for path in dict.fromkeys(paths)]
    fetched: dict[str, list[int]] = {name: [] for name in plan}
    failures: list[str] = []

    def fetch(item: tuple[str, str]) -> tuple[str, int | str]:
        name, url = item
        try:
            return name, len(ctx.fetcher.fetch(url).content)
        except FetchError as exc:
            return name, str(exc)

    with Progress(console=ctx.console, transient=True) as progress, ThreadPoolExecutor(4) as pool:
        task = progress.add_task("surveying the demo web", total=len(urls))
        for name, outcome in pool.map(fetch, urls):
            progress.advance(task)
            if isinstance(outcome, int):
                fetched[name].append(outcome)
            else:
                failures.append(outcome)

    table = Table(title=f"The demo web at {ctx.server.base_url}")
    for column in ("site", "kind", "markup", "pages", "sampled", "KiB", "records (ground truth)"):
        table.add_column(column)
    for summary in sites.describe():
        sizes = fetched[summary.name]
        records = ", ".join(f"{key} {count}" for key, count in summary.records.items())
        table.add_row(summary.name, summary.category, summary.markup, str(summary.page_count),
                      str(len(sizes)), f"{sum(sizes) / 1024:.0f}", records)
    ctx.console.print(table)
    for failure in failures:
        ctx.console.print(f"[yellow]failed:[/] {failure}")


def induce_book_scrapers(ctx: DemoContext) -> None:
    """Step 2: induce a field scraper per book layout from three seed pages, then run it with no LLM."""
    from scrapesmith.induce.demo_step import induction_step

    induction_step(ctx.server, ctx.fetcher, ctx.run_dir, ctx.console)


def record_job_list(ctx: DemoContext) -> None:
    """Step 3: record a list program on a careers page (filter + pagination), then replay it."""
    from scrapesmith.lists.demo import demo_list_step

    demo_list_step(ctx)


def collect_per_domain(ctx: DemoContext) -> None:
    """Step 4: one Instruct2DS-style instruction per domain -> validated dataset, scored against the truth.

    Uses the default model (``SCRAPESMITH_LLM``, else the embedded one, else none). Academic and sports
    instructions name their listing page; the finance one does not, so the agents research the stock
    site and its REST API themselves (without a model it is reported as needing a start URL). The
    ground truth is built from the sites' own data, never from pages.
    """
    from scrapesmith.bench.instruct2ds import demo_instructions, score_task, site_truths
    from scrapesmith.bench.instruct2ds_runner import single_page_start
    from scrapesmith.llm import resolve_llm

    truths = site_truths(ctx.server.sites)
    llm = resolve_llm(ctx.llm_spec, cache=ctx.llm_cache)
    ctx.console.print(f"Model: {getattr(llm, 'name', 'none (heuristic path)') if llm else 'none (heuristic path)'}")
    table = Table("domain", "rows", "F1", "P", "R", "s", "LLM calls", "tokens", "dataset")
    for task in demo_instructions(truths):
        domain = task.template.domain
        start = single_page_start(task)
        instruction = task.instruction + (f" Start at {ctx.server.url(start)}" if start else "")
        ctx.console.print(f"[bold]{domain}[/]: {instruction}", highlight=False)
        result = _collect_with_status(ctx, instruction, llm, ctx.run_dir / f"collect-{domain}",
                                      [ctx.server.url(f"/{SITE_OF[domain]}/")])
        if isinstance(result, str):
            ctx.console.print(f"  [yellow]not collected[/]: {result}", highlight=False)
            table.add_row(domain, "0", "-", "-", "-", "-", "0", "0", result[:60])
            continue
        rows = read_rows(result.dataset) if result.dataset.is_file() else []
        scores = score_task(rows, task.template.truth(truths[domain], task.values), task.template.columns)
        ctx.console.print(
            f"  {result.rows} rows, valid={result.valid}; F1 {scores['f1']:.4f} against the ground truth; "
            f"{result.seconds:.0f} s, {result.llm_calls} LLM calls, {result.tokens} tokens. "
            f"Rerun without a model: scrapesmith run {result.run_dir / 'program.py'}", highlight=False)
        table.add_row(domain, str(result.rows), f"{scores['f1']:.4f}", f"{scores['precision']:.4f}",
                      f"{scores['recall']:.4f}", f"{result.seconds:.0f}", str(result.llm_calls), str(result.tokens),
                      str(result.dataset))
    ctx.console.print(table)


def _collect_with_status(ctx: DemoContext, instruction: str, llm, run_dir: Path, seeds: list[str]):
    """Run ``collect`` with a live status line; a user-facing failure comes back as its message."""
    from scrapesmith.collect.progress import live_progress
    from scrapesmith.collect.workflow import collect
    from scrapesmith.errors import ScrapesmithError

    with ctx.console.status("collecting…", spinner="dots") as status:
        try:
            return collect(instruction, llm=llm, run_dir=run_dir, allow_hosts=["127.0.0.1"],
                           progress=live_progress(ctx.console, status), delay=0.0, seeds=seeds)
        except ScrapesmithError as exc:
            return str(exc).splitlines()[0]


STEPS: list[tuple[str, DemoStep]] = [
    ("Survey the local demo web", survey_sites),
    ("Forge field scrapers for two book layouts (induce)", induce_book_scrapers),
    ("Record and replay a job list (lists)", record_job_list),
    ("Turn one instruction per domain into a dataset (collect)", collect_per_domain),
]


def run_demo(console: Console, run_root: Path = Path("runs"), llm_spec: str | None = None,
             llm_cache: bool = True) -> Path:
    """Serve the demo web, run every step against it, and return the run directory."""
    run_dir = new_run_dir(run_root)
    with serve_sites() as server, WarcWriter(run_dir / "pages.warc.gz") as warc:
        http = HttpFetcher(allow_hosts=["127.0.0.1"], delay=0.0, max_per_host=4)
        ctx = DemoContext(server, ArchivingFetcher(http, warc), run_dir, console, llm_spec, llm_cache)
        try:
            for number, (title, step) in enumerate(STEPS, start=1):
                console.rule(f"[bold]{number}. {title}")
                step(ctx)
        finally:
            http.close()
    console.rule("[bold]done")
    console.print(f"Everything the demo made is in [bold]{run_dir}[/] (pages archived in pages.warc.gz).")
    return run_dir
