"""Browser commands: ``scrapesmith render`` and ``scrapesmith bench browser``, plus the ``--render`` option.

Commands that fetch pages add rendering in two lines::

    @app.command()
    def crawl(..., render: RenderOption = "auto") -> None:
        fetcher = render_fetcher(render, HttpFetcher(...))   # close it when done
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    NoRobotsOption,
    allowed_hosts,
    check_choice,
    usage_error,
)
from scrapesmith.web import FileFetcher, HttpFetcher, Page, RoutingFetcher, is_web_url
from scrapesmith.web.browser import RENDER_MODES, AutoFetcher, BrowserOptions, assess, make_fetcher

RenderOption = Annotated[
    str,
    typer.Option(
        "--render",
        help="auto: render in Chromium only pages whose HTML lacks its content; always: render every "
        "page; never: plain HTTP.",
        metavar="auto|never|always",
    ),
]
VIEWS = ("markdown", "simplified", "html")


def render_fetcher(
    render: str, http: HttpFetcher, options: BrowserOptions | None = None
) -> HttpFetcher | AutoFetcher:
    """The fetcher for a ``--render`` value; an unknown value is a one-line user error."""
    _check_render(render)
    return make_fetcher(render, http, options)  # type: ignore[arg-type]


def _check_render(render: str) -> None:
    check_choice("--render", render, RENDER_MODES)


@app.command("render")
def render_command(
    url: Annotated[str, typer.Argument(
        help="The page to load: an http(s) URL, or a local file / file:// URL (shown as saved).", metavar="URL")],
    render: RenderOption = "always",
    view: Annotated[
        str, typer.Option("--view", help="What to print: markdown, simplified (numeric ids) or html.")
    ] = "markdown",
    screenshot: Annotated[Path | None, typer.Option("--screenshot", help="Also save a PNG here.")] = None,
    allow_host: AllowHostOption = None,
    no_robots: NoRobotsOption = False,
) -> None:
    """Load a page the way --render would (Chromium when needed) and print a view of it.

    A local file or file:// URL is read the way ``fetch`` reads it and shown as saved: Chromium here loads
    http(s) pages only, so the line says so (and names any sign that the saved page needed scripts)."""
    check_choice("--view", view, VIEWS)
    _check_render(render)
    if screenshot is not None and render == "never":
        raise usage_error("--screenshot needs the browser (use --render always or auto)")
    if not is_web_url(url):
        if screenshot is not None:
            raise usage_error("--screenshot needs the browser, which loads http(s) pages only; "
                                   f"serve {url} over HTTP to screenshot it")
        _print_view(*_local_page(url), view)
        return
    hosts = allowed_hosts(allow_host)
    fetcher = render_fetcher(render, HttpFetcher(allow_hosts=hosts, respect_robots=not no_robots))
    try:
        with console.status(f"loading {url}", spinner="dots"):
            page = fetcher.fetch(url)
            if screenshot is not None:
                _screenshot(fetcher, url, screenshot)
    finally:
        fetcher.close()
    reason = fetcher.decisions[-1].reason if isinstance(fetcher, AutoFetcher) else "render=never"
    _print_view(page, reason, view)


def _local_page(source: str) -> tuple[Page, str]:
    """A local file or file:// URL through ``fetch``'s route (other schemes refused in one line), and why
    it is shown as saved."""
    with RoutingFetcher(file=FileFetcher()) as router:
        page = router.fetch(source)
    signals = assess(page).signals
    reason = "a local file, shown as saved; Chromium loads http(s) pages only"
    return page, reason + (f"; the saved page may need scripts: {', '.join(signals)}" if signals else "")


def _print_view(page: Page, reason: str, view: str) -> None:
    from scrapesmith.dom import simplify, to_markdown
    from scrapesmith.web import parse_page

    console.print(f"{page.status} {page.url} via {page.via} ({reason})", markup=False, highlight=False)
    if view == "html":
        sys.stdout.write(page.text)
    elif view == "simplified":
        sys.stdout.write(simplify(parse_page(page)).text + "\n")
    else:
        sys.stdout.write(to_markdown(parse_page(page)).text + "\n")
    sys.stdout.flush()


def _screenshot(fetcher: HttpFetcher | AutoFetcher, url: str, path: Path) -> None:
    from scrapesmith.web.browser import BrowserFetcher, BrowserSession

    assert isinstance(fetcher, AutoFetcher) and isinstance(fetcher.browser, BrowserFetcher)
    with BrowserSession(fetcher.browser.runtime) as session:
        session.goto(url)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(session.screenshot(full_page=True))


