"""``scrapesmith induce``, ``scrapesmith run`` and ``scrapesmith bench swde``: field scrapers end to end."""

from __future__ import annotations

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
)
from scrapesmith.llm import LLM

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
    method: Annotated[str, typer.Option(help="heuristic | choose | autoscraper | cot | reflexion | auto.")] = "auto",
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
        method = "autoscraper" if (llm or get_settings().llm) not in (None, "", "none") else "heuristic"
    model = model_for_method(method, llm, no_cache)
    with progress_bar() as progress:
        task = progress.add_task("fetching", total=None)
        spec, trees = induce_from_sources(
            requests, sources, allow_hosts=allowed_hosts(allow_host), method=method, llm=model, seeds=seeds,
            fetch_progress=_fetch_display(progress, task), examples=examples,
            progress=lambda name: progress.update(task, description=f"inducing '{name}' with {method}"))
    spec.save(output)
    _print_spec(spec, trees)
    console.print(f"spec {spec.spec_id} written to {output}", highlight=False)


def _print_spec(spec: ScraperSpec, trees: list) -> None:
    table = Table(title=f"{spec.method} scraper")
    table.add_column("field")
    table.add_column("action sequence", overflow="fold")
    compiled = CompiledSpec(spec)
    rows = [compiled.row_from(compiled.extract_tree(tree)) for tree in trees]
    for index in range(len(trees)):
        table.add_column(f"seed {index}", overflow="fold")
    for field_spec in spec.fields:
        shown = " ⟶ ".join(field_spec.actions) or "(none found)"  # XPath predicates look like rich markup
        table.add_row(field_spec.name, escape(shown), *(escape(str(row[field_spec.name])) for row in rows))
    console.print(table)






