"""``scrapesmith fetch`` (get one page the way every capability does) and ``scrapesmith bench fetch``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    NoRobotsOption,
    WarcOption,
    allowed_hosts,
    bounded,
)
from scrapesmith.web import (
    ArchivingFetcher,
    FileFetcher,
    HttpFetcher,
    Page,
    RoutingFetcher,
    WarcWriter,
    redact_url,
)


def page_summary(page: Page) -> str:
    """One line: status, final URL, content type, size, encoding and how the page was fetched."""
    return (
        f"{page.status} {page.url} {page.content_type} {len(page.content):,} bytes "
        f"{page.encoding} via {page.via}"
    )


@app.command("fetch")
def fetch_command(
    url: Annotated[str, typer.Argument(help="An http(s) URL, a file:// URL or a local file path.", metavar="URL")],
    allow_host: AllowHostOption = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the page text here instead of stdout.")
    ] = None,
    warc: WarcOption = None,
    no_robots: NoRobotsOption = False,
    user_agent: Annotated[str | None, typer.Option("--user-agent", help="User-Agent header to send.")] = None,
    timeout: Annotated[float | None, typer.Option("--timeout", callback=bounded(0, above=True), help="Seconds to wait for the server.")] = None,
) -> None:
    """Fetch one page (robots.txt, politeness, size and type limits apply) and print its text."""
    http = HttpFetcher(
        user_agent=user_agent,
        allow_hosts=allowed_hosts(allow_host),
        respect_robots=not no_robots,
        timeout=timeout,
    )
    with RoutingFetcher(http=http, file=FileFetcher()) as router:
        if warc is None:
            page = _fetch_with_status(router, url)
        else:
            with WarcWriter(warc) as writer:
                page = _fetch_with_status(ArchivingFetcher(router, writer), url)
    console.print(page_summary(page), markup=False, highlight=False)
    if output is None:
        sys.stdout.write(page.text)
        sys.stdout.flush()
    else:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(page.text, encoding="utf-8")


def _fetch_with_status(fetcher: RoutingFetcher | ArchivingFetcher, url: str) -> Page:
    with console.status(f"fetching {redact_url(url)}", spinner="dots"):
        return fetcher.fetch(url)


