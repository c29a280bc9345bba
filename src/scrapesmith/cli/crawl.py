"""``scrapesmith crawl``: follow links from a listing and write the URL list ``run``/``induce``/``lists`` read."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    DatabaseChoice,
    DatabaseOption,
    DelayOption,
    KeyOption,
    NoRobotsOption,
    TableOption,
    WarcOption,
    allowed_hosts,
    progress_bar,
    usage_error,
)
from scrapesmith.cli.scale import ResumeOption
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import timestamp, write_database
from scrapesmith.scale import run_dir_for
from scrapesmith.web import (
    ArchivingFetcher,
    CrawlJournal,
    CrawlRuleError,
    FileFetcher,
    FollowRule,
    HttpFetcher,
    RoutingFetcher,
    WarcWriter,
    crawl,
)


@app.command("crawl")
def crawl_command(
    url: Annotated[str, typer.Argument(help="Where to start: an http(s) URL, a file:// URL or a local page.")],
    follow: Annotated[str, typer.Option(
        "--follow", help="Links to follow: a CSS selector (e.g. 'a.product', 'li.item') or a regex their URL "
        "must match (e.g. '/book/\\d+'); prefix 'css:' or 're:' to force one.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The URL list to write (.txt).")] = Path("urls.txt"),
    max_pages: Annotated[int, typer.Option("--max-pages", min=1, help="Fetch at most this many pages.")] = 100,
    max_depth: Annotated[int, typer.Option("--max-depth", min=1, help="Follow at most this many links deep.")] = 3,
    warc: WarcOption = None,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    no_robots: NoRobotsOption = False,
    resume: ResumeOption = False,
    to: DatabaseOption = None,
    key: KeyOption = None,
    table: TableOption = None,
) -> None:
    """Follow links from URL (politely, robots.txt respected, same site) and write the pages reached, one per
    line, for `scrapesmith run spec.json urls.txt`, `induce` or `lists`.

    Every page fetched goes to a journal (OUTPUT.run/crawl.jsonl) as it is read, so a stopped crawl goes on
    with --resume without fetching a page twice; the journal is removed once the crawl ends. With --to the pages
    reached also go into a database table, one row each (url; source_url: where the crawl started; fetched_at;
    program_id: the --follow rule); --key url upserts them."""
    database = DatabaseChoice(to, key, table)
    if output.suffix.lower() != ".txt":
        raise usage_error(f"crawl writes a URL list: -o must end in .txt (got '{output}')")
    try:
        rule = FollowRule.parse(follow)
    except CrawlRuleError as exc:
        raise usage_error(f"--follow: {exc}") from exc
    journal = CrawlJournal(run_dir_for(output) / "crawl.jsonl")
    if journal.path.exists() and not resume:
        raise ScrapesmithError(f"{journal.path} holds an unfinished crawl: pass --resume to continue it, or "
                               "remove it to start over")
    writer = WarcWriter(warc) if warc is not None else None
    http = HttpFetcher(allow_hosts=allowed_hosts(allow_host), respect_robots=not no_robots, delay=delay)
    try:
        with RoutingFetcher(http=http, file=FileFetcher()) as router, progress_bar() as progress:
            fetcher = router if writer is None else ArchivingFetcher(router, writer)
            task = progress.add_task("crawling", total=max_pages)
            result = crawl(url, rule, fetcher, max_pages=max_pages, max_depth=max_depth, journal=journal,
                           progress=lambda done, page: progress.update(task, completed=done, description=page[-60:]))
    finally:
        if writer is not None:
            writer.close()
    shutil.rmtree(journal.path.parent, ignore_errors=True)  # the crawl ended: its result is final
    if not result.urls and len(result.failures) == 1 and result.fetched <= 1:  # the start page itself: one line
        raise ScrapesmithError(str(next(iter(result.failures.values()))))
    for failed, error in list(result.failures.items())[:5]:
        console.print(f"[yellow]failed:[/] {str(error).removeprefix(f'{failed}: ')}", highlight=False)
    if not result.urls:
        raise ScrapesmithError(f"no page reached by --follow {follow!r} from {url} "
                               f"({result.fetched} fetched, {len(result.failures)} failed)")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("".join(f"{line}\n" for line in result.urls), encoding="utf-8")
    if database.url is not None:
        moment = timestamp()
        rows = [{"url": reached, "source_url": url, "fetched_at": moment, "program_id": f"crawl --follow {follow}"}
                for reached in result.urls]
        console.print(write_database(lambda: [rows], database.sink(output.stem)).summary(), highlight=False)
    console.print(f"{len(result.urls)} pages -> {output} ({result.fetched} fetched, {len(result.failures)} failed; "
                  f"{result.stop_reason})" + (f"; archived in {warc}" if warc else ""), highlight=False)
