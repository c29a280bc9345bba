"""Demo step 1: fetch every demo site's entry page and a sample of its pages, and summarise the web."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from rich.progress import Progress
from rich.table import Table

from scrapesmith.demo.context import DemoContext
from scrapesmith.sites import SiteCollection
from scrapesmith.web import FetchError

SAMPLE_PAGES_PER_SITE = 12


def _documents(sites: SiteCollection, name: str) -> list[str]:
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
