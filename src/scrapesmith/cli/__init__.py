"""The ``scrapesmith`` command line.

``app`` is the typer application; each module in this package registers one command group on it, so
capabilities add their commands without editing a shared file. User mistakes surface as one line and a
non-zero exit (see :func:`main`).
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from scrapesmith.errors import ScrapesmithError

app = typer.Typer(
    name="scrapesmith",
    help="Forge reusable scraping programs with an LLM, then run them without it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bench_app = typer.Typer(help="Run a benchmark; every benchmark takes --json OUT.", no_args_is_help=True)
llm_app = typer.Typer(help="Inspect and query the configured language model.", no_args_is_help=True)
insta_app = typer.Typer(help="InSTA agent-data pipeline: propose, run, judge, export.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(llm_app, name="llm")
app.add_typer(insta_app, name="insta")

console = Console(stderr=True, soft_wrap=True)

# Importing the command modules registers their commands on the apps above.
from scrapesmith.cli import commands  # noqa: F401


def main() -> None:
    """Entry point: run the app and turn user-facing errors into one line plus exit status 1."""
    try:
        app(standalone_mode=False)
    except ScrapesmithError as exc:
        console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        sys.exit(1)
    except (typer.Abort, KeyboardInterrupt):
        console.print("[yellow]aborted[/]")
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # click usage errors carry their own exit code
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
