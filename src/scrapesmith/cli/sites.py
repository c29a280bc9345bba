"""``scrapesmith serve-sites``: serve the deterministic demo web on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

import signal
import threading

import typer
from rich.console import Console
from rich.table import Table

from scrapesmith.cli import app
from scrapesmith.dom import LAYOUT_VERSIONS
from scrapesmith.sites import DemoServer, SiteCollection, build_sites

DEFAULT_PORT = 8765


def sites_table(sites: SiteCollection) -> Table:
    """The site list as a rich table (also useful to the demo command)."""
    table = Table(title=f"demo sites (seed {sites.seed})")
    for column in ("path", "site", "kind", "pages", "records"):
        table.add_column(column, overflow="fold")
    for site in sites.describe():
        records = ", ".join(f"{count} {name}" for name, count in site.records.items())
        table.add_row(site.entry_path, site.title, site.category, str(site.page_count), records)
    return table


def _raise_interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


@app.command("serve-sites")
def serve_sites_command(
    port: int = typer.Option(DEFAULT_PORT, "--port", "-p", help="Port on 127.0.0.1 (0 picks a free one)."),
    seed: int = typer.Option(7, "--seed", help="Seed of the generated sites; same seed, same bytes."),
    layout: int = typer.Option(0, "--layout", min=0, max=len(LAYOUT_VERSIONS), help="Layout version: the same "
                               "records drawn differently (0: original; 1-5: classes obfuscated, wrappers, "
                               "blocks reordered, labels renamed, all four), to see drift and heal."),
) -> None:
    """Serve the demo websites (proceedings, stocks, sports, company and book sites) on 127.0.0.1."""
    # Ctrl-C must stop the server even when the shell started us with SIGINT ignored (background jobs);
    # handlers go in before the URL is printed, so anyone who saw the URL can stop us.
    previous = {sig: signal.signal(sig, _raise_interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server = DemoServer(build_sites(seed, layout), port=port).start()
        try:
            print(f"Serving the demo web at {server.base_url}/ (Ctrl-C to stop)", flush=True)
            Console(soft_wrap=True).print(sites_table(server.sites))
            threading.Event().wait()
        except KeyboardInterrupt:
            print("stopped", flush=True)
        finally:
            server.stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
