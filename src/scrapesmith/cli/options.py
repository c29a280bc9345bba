"""Command-line options shared by several commands, and the one progress display.

Each shared option is defined once here and used as a parameter annotation, so every command spells
``--llm``, ``--allow-host``, ``--delay``, ``--runtime``, ``--json`` and the database sink's ``--to``, ``--key``,
``--table`` the same way::

    @app.command()
    def induce(..., allow_host: AllowHostOption = None, llm: LLMOption = None) -> None:
        hosts = allowed_hosts(allow_host)          # settings' hosts plus the flags
        model = llm_from_options(llm, no_cache)    # None means: take the heuristic path
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from typer._click.exceptions import UsageError

from scrapesmith.cli import console
from scrapesmith.config import get_settings
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import FORMATS, DatabaseSink, SinkError, is_database_url, load_dataset
from scrapesmith.lists import RUNTIMES
from scrapesmith.llm import LLM, SPEC_HELP, Ledger, resolve_llm

if TYPE_CHECKING:
    from scrapesmith.induce import Example


def bounded(low: float, high: float = math.inf, *, above: bool = False) -> Callable[[float | None], float | None]:
    """An option callback: the number must be finite and in ``[low, high]`` (``(low, high]`` with ``above``).

    click's ``FloatRange`` lets ``nan`` through (every comparison with it is false), so the check is here.
    """
    def check(value: float | None) -> float | None:
        if value is None:
            return value
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            shown = ("(" if above else "[") + f"{low:g}, " + ("∞)" if high == math.inf else f"{high:g}]")
            raise typer.BadParameter(f"{value} is not a finite number in {shown}")
        return value

    return check


def usage_error(message: str) -> UsageError:
    """A usage mistake found in a command's body: one line, exit status 2 (as a bad option is)."""
    return UsageError(message)


def examples_from_options(texts: Sequence[str]) -> list[Example]:
    """``--example NAME=VALUE`` options; a malformed one is a usage error that names the flag."""
    from scrapesmith.induce import parse_example  # lazily: ``collect`` starts without the induce package

    try:
        return [parse_example(text) for text in texts]
    except ScrapesmithError as exc:
        raise usage_error(f"--example: {exc}") from exc


def check_choice(option: str, value: str | None, allowed: Sequence[str]) -> None:
    """The one check of an option that takes one of a few words: anything else is a usage error (exit 2)."""
    if value is not None and value not in allowed:
        raise typer.BadParameter(f"{value!r}; use one of {', '.join(allowed)}", param_hint=option)


def choice(option: str, allowed: Sequence[str]) -> Callable[[str | None], str | None]:
    """An option callback doing :func:`check_choice` as click parses the option."""
    def check(value: str | None) -> str | None:
        check_choice(option, value, allowed)
        return value

    return check


def names_and_seeds(option: str, names: str, allowed: Sequence[str], seeds: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A comma-separated choice of ``allowed`` names for ``option`` and the --mutation-seeds numbers, or a
    one-line usage error (bench swde --mutate and bench drift --mutations read them alike)."""
    chosen = tuple(name.strip() for name in names.split(",") if name.strip())
    if not chosen or set(chosen) - set(allowed):
        raise usage_error(f"{option} takes {', '.join(allowed)}, not {names!r}")
    try:
        numbers = tuple(int(s) for s in seeds.split(",") if s.strip())
    except ValueError:
        raise usage_error(f"--mutation-seeds takes whole numbers separated by commas, not {seeds!r}") from None
    if not numbers:
        raise usage_error("--mutation-seeds needs at least one seed")
    return chosen, numbers


def not_blank(value: str | None) -> str | None:
    """An option callback: text that is empty or only spaces is a usage error, not an empty request."""
    if value is not None and not value.strip():
        raise typer.BadParameter("must not be empty")
    return value


def table_path(value: Path | None) -> Path | None:
    """An option callback: an output table's suffix must name a format we write, checked before any work."""
    if value is not None and value.suffix.lower() not in FORMATS:
        raise typer.BadParameter(f"'{value}' has no table format (use .csv, .jsonl or .parquet)")
    return value


def database_url(value: str | None) -> str | None:
    """An option callback: ``--to`` must name a database the sinks write, checked before any work."""
    if value is not None and not is_database_url(value):
        raise typer.BadParameter("use sqlite:///PATH, duckdb:///PATH or postgresql://USER@HOST/DB")
    return value


DatabaseOption = Annotated[
    str | None,
    typer.Option("--to", metavar="DATABASE_URL", callback=database_url,
                 help="Also write the rows into a database table: sqlite:///PATH, duckdb:///PATH or "
                 "postgresql://USER@HOST/DB (typed columns, first_seen/last_seen; one transaction per batch)."),
]

KeyOption = Annotated[
    str | None,
    typer.Option("--key", metavar="COLUMNS", help="With --to: comma-separated columns that identify a row; a row "
                 "whose key is in the table updates it in place (first_seen kept). Without it rows are appended."),
]

TableOption = Annotated[
    str | None,
    typer.Option("--table", metavar="NAME", help="With --to: the table to write (default: the output's name)."),
]


@dataclass(frozen=True)
class DatabaseChoice:
    """``--to``, ``--key`` and ``--table`` as one value a command passes on."""

    url: str | None = None
    key: str | None = None
    table: str | None = None

    def __post_init__(self) -> None:
        if self.url is None and (self.key or self.table):
            raise usage_error(f"{'--key' if self.key else '--table'} goes with --to DATABASE_URL")
        if self.key is not None and not self.columns:
            raise usage_error("--key needs at least one column name")

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(name.strip() for name in (self.key or "").split(",") if name.strip())

    def sink(self, default_table: str) -> DatabaseSink:
        name = self.table or re.sub(r"\W+", "_", default_table).strip("_") or "rows"
        try:
            return DatabaseSink(str(self.url), name, self.columns)
        except SinkError as exc:
            raise usage_error(f"--to: {exc}") from exc


def send_to_database(choice: DatabaseChoice, dataset: Path, default_table: str,
                     schema: Mapping[str, str] | None = None) -> None:
    """With ``--to``, the dataset just written goes into the database too (typed by ``schema``, else as its
    values read); the line printed says how many rows and how many the table holds."""
    if choice.url is None:
        return
    result = load_dataset(dataset, choice.sink(default_table), schema)
    console.print(result.summary(), highlight=False)


LLMOption = Annotated[
    str | None,
    typer.Option(
        "--llm",
        help=f"Model to use: {SPEC_HELP}. Default: SCRAPESMITH_LLM, else an OpenAI-compatible endpoint if "
        "OPENAI_BASE_URL/OPENAI_API_KEY is set, else the embedded model if installed, else none.",
        show_default=False,
        metavar="SPEC",
    ),
]

NoCacheOption = Annotated[
    bool,
    typer.Option("--no-cache", help="Bypass the LLM response cache (every request reaches the model)."),
]

AllowHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="HOST[:PORT]",
        help="Lift the private-address block for HOST or HOST:PORT (repeatable; adds to SCRAPESMITH_ALLOW_HOSTS).",
    ),
]

UnsafeNoSandboxOption = Annotated[
    bool,
    typer.Option(
        "--unsafe-no-sandbox",
        help="Run generated programs without bubblewrap isolation (only the audit hook, rlimits and the "
        "network proxy confine them). For machines that cannot install bubblewrap; never on one with secrets.",
    ),
]

DelayOption = Annotated[
    float | None,
    typer.Option("--delay", callback=bounded(0),
                 help="Seconds between requests to one host (default: SCRAPESMITH_POLITENESS_DELAY, 1.0)."),
]

NoRobotsOption = Annotated[bool, typer.Option("--no-robots", help="Do not consult robots.txt.")]

ConcurrencyOption = Annotated[
    int, typer.Option("--concurrency", min=1, help="Pages fetched at once (the delay per host still holds).")
]

WarcOption = Annotated[
    Path | None, typer.Option("--warc", help="Also archive every response in this WARC file (.warc.gz).")
]

RuntimeOption = Annotated[
    str | None,
    typer.Option(
        "--runtime",
        metavar="http|browser|auto",
        callback=choice("--runtime", RUNTIMES),
        help="http (plain requests), browser (Chromium: scripts, Load more) or auto (http, then Chromium when "
        "the page needs scripts). Default: http, or as recorded.",
    ),
]

EMPTY_COLUMN_EXIT = 4
"""The exit status of ``lists``/``collect --strict`` when a column came out empty in most rows."""

StrictOption = Annotated[bool, typer.Option(
    "--strict", help=f"Exit with status {EMPTY_COLUMN_EXIT} when a column is empty in most rows (the rows are "
    "still written; without --strict it is a warning).")]


def show_warnings(warnings: Sequence[str], strict: bool, *, printed: bool = False) -> None:
    """Print each dataset warning (an empty column) as one ``warning:`` line (unless already ``printed``); end
    with :data:`EMPTY_COLUMN_EXIT` under ``--strict`` when there is one."""
    for warning in [] if printed else warnings:
        console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
    if strict and warnings:
        console.print(f"--strict: exit status {EMPTY_COLUMN_EXIT} ({len(warnings)} warnings)", highlight=False)
        raise typer.Exit(EMPTY_COLUMN_EXIT)


JsonOutOption = Annotated[Path | None, typer.Option("--json", help="Write the full result as JSON here.")]

OpenOption = Annotated[bool, typer.Option("--open", help="Open the run's report.html in the default browser.")]


def llm_from_options(llm: str | None, no_cache: bool = False, ledger: Ledger | None = None) -> LLM | None:
    """The model the options select, cached unless ``--no-cache``; ``None`` for ``none``."""
    return resolve_llm(llm, cache=not no_cache, ledger=ledger)


def show_report(path: Path, open_in_browser: bool = False) -> None:
    """Every run ends with the path of its report; ``--open`` shows it where a default browser exists."""
    console.print(f"report: {path}", highlight=False)
    if open_in_browser:
        import webbrowser

        webbrowser.open(Path(path).resolve().as_uri())


def allowed_hosts(allow_host: list[str] | None) -> list[str]:
    """The hosts exempt from the private-address block: the settings' plus every ``--allow-host``."""
    return [*get_settings().allow_hosts, *(allow_host or [])]


def progress_bar(auto_refresh: bool = True) -> Progress:
    """The progress display every long command shows on stderr: description, bar, n/total, elapsed.

    Benchmarks that time a tight loop pass ``auto_refresh=False`` (and refresh on update), so no refresh
    thread competes with what they measure.
    """
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, auto_refresh=auto_refresh)
