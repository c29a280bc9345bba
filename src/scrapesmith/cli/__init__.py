"""The ``scrapesmith`` command line.

``app`` is the typer application; each module in this package registers one command group on it, so
capabilities add their commands without editing a shared file. Every command parses its options, calls
one service function of a capability and prints. Errors follow click's convention (see :func:`main`):
a user's mistake on the command line is one line and exit status 2, a runtime failure
(:class:`~scrapesmith.errors.ScrapesmithError`) one line and exit status 1 (with the flag that answers it,
``cli/hints.py``: services never name flags), Ctrl-C exit status 130. A run
that finished but whose output drifted from its program's profile exits 3 (``cli/drift.py``); ``lists`` and
``collect`` with ``--strict`` exit 4 when a column came out empty in most rows (``cli/options.py``).
"""

from __future__ import annotations

import inspect
import re
import signal
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

from scrapesmith import __version__
from scrapesmith.errors import ScrapesmithError

__all__ = ["app", "main"]

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


def _print_version(value: bool) -> None:
    if value:
        print(f"scrapesmith {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Forge reusable scraping programs with an LLM, then run them without it."""


def reflow(text: str) -> str:
    """A docstring as ``--help`` should show it: each paragraph one line, which the terminal wraps.

    Docstrings are wrapped at the source's width, and typer keeps their line breaks, so ``--help`` showed
    lines broken twice. A paragraph that is a list or indented (a code example) keeps its lines."""
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines = paragraph.splitlines()
        kept = any(line[:1].isspace() or line.lstrip().startswith(("- ", "* ", "$ ")) for line in lines)
        paragraphs.append(paragraph if kept else " ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def _reflow_help(typer_app: typer.Typer) -> None:
    for info in typer_app.registered_commands:
        if info.help is None and info.callback is not None:
            info.help = reflow(inspect.getdoc(info.callback) or "")
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _reflow_help(group.typer_instance)


# Importing the command modules registers their commands on the apps above.
from scrapesmith.cli import commands  # noqa: F401

_reflow_help(app)


def _error(message: str) -> None:
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)


def _terminated(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Entry point: run the app; every way it ends becomes one exit status (and at most one line)."""
    signal.signal(signal.SIGTERM, _terminated)  # a kill ends like Ctrl-C: sandboxes stopped, exit 130
    try:
        status = app(standalone_mode=False)
    except ScrapesmithError as exc:
        from scrapesmith.cli.hints import explain  # only on an error: it imports every service's errors

        _error(explain(exc))
        sys.exit(1)
    except NoArgsIsHelpError as exc:  # bare ``scrapesmith`` or ``scrapesmith bench``: the help is the answer
        exc.show()
        sys.exit(exc.exit_code)
    except UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        _error(exc.format_message().replace("\n", " ") + hint)
        sys.exit(exc.exit_code)
    except ClickException as exc:
        _error(exc.format_message())
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        console.print("[yellow]aborted[/]")
        sys.exit(130)
    sys.exit(status if isinstance(status, int) else 0)
