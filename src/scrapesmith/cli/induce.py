"""``scrapesmith induce``, ``scrapesmith run`` and ``scrapesmith bench swde``: field scrapers end to end."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import Progress, TaskID
from rich.table import Table

from scrapesmith.cli import app, console
from scrapesmith.cli.options import (
    AllowHostOption,
    LLMOption,
    NoCacheOption,
    allowed_hosts,
    check_choice,
    examples_from_options,
    llm_from_options,
    progress_bar,
)
from scrapesmith.config import get_settings
from scrapesmith.induce import (
    METHODS,
    CompiledSpec,
    FetchProgress,
    FieldRequest,
    ScraperSpec,
    induce_from_sources,
    read_choice,
)
from scrapesmith.llm import LLM, Ledger, LedgerEntry, use_ledger

_SENT_TOKENS = re.compile(r"\(~([\d,]+) tokens\)")
Sources = Annotated[list[str], typer.Argument(help="Pages: files, directories, URLs or a .txt URL list.")]


def parse_field(text: str) -> FieldRequest:
    """``name=instruction`` (or just ``name``) from the command line; ``name=`` with nothing after is refused."""
    name, equals, instruction = text.partition("=")
    name = name.strip()
    if not name or not name.replace("_", "").replace("-", "").isalnum() or (equals and not instruction.strip()):
        raise typer.BadParameter(f"'{text}': use NAME=INSTRUCTION, e.g. isbn='the ISBN-13 of the book'",
                                 param_hint="'--field'")
    return FieldRequest(name, instruction.strip() or name.replace("_", " "))


def model_for_method(method: str, llm_spec: str | None, no_cache: bool) -> LLM | None:
    if method == "heuristic":
        return None
    return llm_from_options(llm_spec, no_cache)


def _fetch_display(progress: Progress, task: TaskID) -> FetchProgress:
    return lambda done, total: progress.update(task, completed=done, total=total)


@app.command("induce")
def induce_command(
    sources: Sources,
    field: Annotated[list[str], typer.Option("--field", "-f", help="NAME=INSTRUCTION (repeatable).")] = [],  # noqa: B006
    example: Annotated[list[str], typer.Option(
        "--example", "-e", help="NAME=VALUE seen on the first page: learn the field from its value "
        "(repeatable; no model).")] = [],  # noqa: B006
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the spec (JSON).")] = Path("spec.json"),
    method: Annotated[str, typer.Option(help="heuristic | choose | read | autoscraper | cot | reflexion | auto (heuristic, "
                                             "or read when a model is set: at most 4 calls a site, announced, "
                                             "with progress).")] = "auto",
    strict: Annotated[bool, typer.Option("--strict", help="Leave fields the engine is unsure of empty.")] = False,
    seeds: Annotated[int, typer.Option(min=1, help="Use at most this many seed pages.")] = 3,
    allow_host: AllowHostOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Induce a reusable field scraper from seed pages; print its XPaths and what they extract."""
    requests = [parse_field(f) for f in field]
    examples = examples_from_options(example)
    if not requests and not examples:
        raise typer.BadParameter("give at least one --field NAME=INSTRUCTION or --example NAME=VALUE")
    check_choice("--method", method, (*METHODS, "auto"))
    if method == "auto":
        method = default_method(llm or get_settings().llm)
    model = model_for_method(method, llm, no_cache)
    most = most_calls(method, len(requests), seeds)
    if model is not None:
        calls = most
        console.print(f"{method}: up to {calls} model calls for {len(requests)} field(s) on {model.name}; "
                      "progress per field and call below (--method heuristic answers in seconds)", highlight=False)
    with progress_bar() as progress:
        task = progress.add_task("fetching", total=None)
        watch = ModelWatch(progress, task, method, most, model_pace(model))
        with use_ledger(WatchedLedger(watch.call)):
            spec, trees = induce_from_sources(
                requests, sources, allow_hosts=allowed_hosts(allow_host), method=method, llm=model, seeds=seeds,
                fetch_progress=_fetch_display(progress, task), examples=examples, progress=watch.field)
    if strict:
        spec = spec.strict()
    spec.save(output)
    _print_spec(spec, trees)
    console.print(f"spec {spec.spec_id} written to {output}", highlight=False)


def default_method(llm_setting: str | None) -> str:
    """``--method auto``: the heuristic with no model, ``read`` with one — it measures best on the SWDE
    development sites (BENCHMARKS.md, issue 47: above the heuristic and ``choose`` wherever measured) and
    makes at most four calls a site, announced, with progress and the time left. The slow methods
    (autoscraper, cot, reflexion: minutes per field on a laptop CPU) run only when named."""
    return "read" if llm_setting not in (None, "", "none") else "heuristic"


def calls_per_field(method: str, seeds: int) -> int:
    """The most model calls one field may take: choose asks once at most; autoscraper's top-down and up to
    five step-backs per seed plus synthesis; cot one per seed plus synthesis; reflexion up to three per seed."""
    return {"heuristic": 0, "choose": 1, "autoscraper": seeds * 6 + 1, "cot": seeds + 1,
            "reflexion": seeds * 3 + 1}.get(method, 1)


def most_calls(method: str, fields: int, seeds: int) -> int:
    """The most model calls one ``induce`` may take: per field, or for ``read`` per site (all fields are read
    off a page in one call: the first two pages, each with one retry)."""
    if method == "read":
        from scrapesmith.induce import READ_CALLS_AT_MOST

        return min(READ_CALLS_AT_MOST, 2 * seeds) if fields else 0
    return fields * calls_per_field(method, seeds)


class WatchedLedger(Ledger):
    """The ledger of one command that also tells a display after each model call."""

    def __init__(self, on_call: Callable[[LedgerEntry], None]) -> None:
        super().__init__()
        self.on_call = on_call

    def record(self, llm_name, request, completion) -> LedgerEntry:
        entry = super().record(llm_name, request, completion)
        self.on_call(entry)
        return entry


def model_pace(model: LLM | None) -> float | None:
    """Seconds per prompt token of the model's recent answers in the response cache, if it keeps any."""
    cache = getattr(model, "cache", None) if model is not None else None
    return cache.pace(model.name) if cache is not None and hasattr(cache, "pace") else None


class ModelWatch:
    """The progress line of a model method: which field, how many calls so far of at most how many, their
    mean time and what is left at that pace. Before the first answer, a step that says how many tokens it
    sends ("reading seed page 1 (~1,480 tokens) …") is given a time at ``pace`` (seconds per prompt token of
    the model's recent answers on this machine), when that is known."""

    def __init__(self, progress: Progress, task: TaskID, method: str, most_calls: int,
                 pace: float | None = None) -> None:
        self.progress, self.task, self.method, self.most, self.pace = progress, task, method, most_calls, pace
        self.name, self.calls, self.started = "", 0, time.monotonic()

    def field(self, name: str) -> None:
        self.name = name
        self._show()

    def call(self, entry: LedgerEntry) -> None:
        self.calls += 1
        self._show()

    def _show(self) -> None:
        # a field name has no space; a step of a method that reads pages says what it reads ("read: reading …")
        text = f"{self.method}: {self.name}" if " " in self.name else f"inducing '{self.name}' with {self.method}"
        if self.calls:
            pace = (time.monotonic() - self.started) / self.calls
            left = max(0, self.most - self.calls) * pace
            text += f": call {self.calls} of at most {self.most}, {pace:.0f} s a call, at most ~{left:.0f} s left"
        elif self.pace and (sent := _SENT_TOKENS.search(self.name)):
            seconds = int(sent.group(1).replace(",", "")) * self.pace
            text += f": ~{seconds:.0f} s a call at this machine's recent pace, at most {self.most} calls"
        self.progress.update(self.task, description=text)


def _print_spec(spec: ScraperSpec, trees: list) -> None:
    table = Table(title=f"{spec.method} scraper")
    table.add_column("field")
    table.add_column("confidence", overflow="fold")
    table.add_column("action sequence", overflow="fold")
    compiled = CompiledSpec(spec)
    rows = [compiled.row_from(compiled.extract_tree(tree)) for tree in trees]
    for index in range(len(trees)):
        table.add_column(f"seed {index}", overflow="fold")
    for field_spec in spec.fields:
        shown = " ⟶ ".join(field_spec.actions) or "(none found)"  # XPath predicates look like rich markup
        table.add_row(field_spec.name, escape(confidence_text(field_spec)), escape(shown),
                      *(escape(str(row[field_spec.name])) for row in rows))
    console.print(table)
    for field_spec in spec.fields:
        if spec.method.startswith("read"):  # what the model read, and whether the name-only evidence agreed
            console.print(f"read: {field_spec.name}: {escape(read_choice(field_spec.evidence))}", highlight=False)
        if field_spec.doubt:
            left = " (left empty: --strict)" if not field_spec.actions else ""
            console.print(f"unsure: {field_spec.name}: {field_spec.doubt}{left}", highlight=False)




def confidence_text(field_spec) -> str:
    """"0.91", "0.31 unsure", "unsure" (no ranker), or "" when nothing was weighed."""
    number = f"{field_spec.confidence:.2f}" if field_spec.confidence is not None else ""
    return " ".join(p for p in (number, "unsure" if field_spec.doubt else "") if p)
