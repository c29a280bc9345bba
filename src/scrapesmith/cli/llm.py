"""``scrapesmith llm …`` (info, ask, ledger, install) and ``scrapesmith bench llm``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.table import Table

from scrapesmith.bench.llm import measure_generation_speed, measure_prompt_speed
from scrapesmith.cli import console, llm_app
from scrapesmith.cli.options import LLMOption, NoCacheOption, llm_from_options
from scrapesmith.config import Settings, read_settings
from scrapesmith.llm import (
    DEFAULT_SIZE,
    EMBEDDED_MODELS,
    LLM,
    Ledger,
    LedgerTotals,
    LLMError,
    LLMSettings,
    LocalLLM,
    NoModelConfigured,
    ask_json,
    ask_text,
    build_provider,
    effective_spec,
    embedded_model,
    file_sha256,
    install_model,
    is_installed,
    model_path,
    parse_spec,
    use_ledger,
)

stdout = Console(soft_wrap=True)


def _setting_source(spec: str | None) -> str:
    if spec:
        return "--llm"
    return "SCRAPESMITH_LLM" if os.environ.get("SCRAPESMITH_LLM") else "default"


@llm_app.command("info")
def info_command(
    llm: LLMOption = None,
    probe: bool = typer.Option(True, "--probe/--no-probe", help="Measure tokens/s with a short call."),
) -> None:
    """Show the configured model: provider, model, file, sha256, context size and measured tokens/s."""
    settings = read_settings()
    spec = effective_spec(llm, settings)
    provider = build_provider(parse_spec(spec), settings, LLMSettings())
    table = Table(show_header=False, title="language model")
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    table.add_row("setting", f"{spec} (from {_setting_source(llm)})")
    if provider is None:
        table.add_row("provider", "none: capabilities take their heuristic paths")
        stdout.print(table)
        return
    for key, value in _describe(provider, settings).items():
        table.add_row(key, value)
    if probe:
        with console.status("measuring speed with two short calls…"):
            prompt_speed = measure_prompt_speed(provider, 300)
            generation_speed = measure_generation_speed(provider, 32, prompt_speed)
        table.add_row("prompt tokens/s", f"{prompt_speed:.1f} (300-token probe)")
        table.add_row("generation tokens/s", f"{generation_speed:.1f} (32-token probe)")
    stdout.print(table)


def _describe(provider: LLM, settings: Settings) -> dict[str, str]:
    if isinstance(provider, LocalLLM):
        return _describe_local(provider, settings)
    if type(provider).__name__ == "OpenAICompatibleLLM":
        llm_settings = LLMSettings()
        return {
            "provider": "openai (OpenAI-compatible chat completions)",
            "model": provider.model,
            "endpoint": str(provider._client.base_url),
            "API key": "set" if llm_settings.openai_api_key else "not set",
            "JSON mode": f"{llm_settings.json_mode} (now {provider.json_mode})",
            "timeout / retries / concurrency": (
                f"{provider.timeout:g}s / {provider.max_retries} / {llm_settings.concurrency}"
            ),
        }
    return {"provider": provider.name}


def _describe_local(provider: LocalLLM, settings: Settings) -> dict[str, str]:
    pinned = next(
        (m for m in EMBEDDED_MODELS.values() if model_path(m, settings.cache_dir) == provider.path), None
    )
    sha = f"{pinned.sha256} (pinned, verified at install)" if pinned else file_sha256(provider.path)
    return {
        "provider": "local (llama.cpp, CPU)",
        "model": pinned.title if pinned else provider.model_label,
        "file": f"{provider.path} ({provider.path.stat().st_size / 2**20:,.0f} MiB)",
        "sha256": sha,
        "context size": f"{provider.context_size} tokens",
        "threads": str(provider.n_threads),
    }


@llm_app.command("ask")
def ask_command(
    prompt: str = typer.Argument(..., help="The question or instruction."),
    schema: Annotated[
        Path | None, typer.Option("--schema", help="JSON schema file: reply with validated JSON.")
    ] = None,
    system: str | None = typer.Option(None, "--system", help="A system message."),
    max_tokens: int = typer.Option(512, "--max-tokens", min=1),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0),
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Ask the configured model; with --schema the reply is JSON valid against that schema."""
    model = llm_from_options(llm, no_cache)
    if model is None:
        raise NoModelConfigured("'llm ask' needs a model")
    ledger = Ledger()
    with use_ledger(ledger):
        if schema is None:
            sys.stdout.write(ask_text(model, prompt, stage="cli.ask", system=system, max_tokens=max_tokens,
                                      temperature=temperature) + "\n")
        else:
            value = ask_json(model, prompt, _read_schema(schema), stage="cli.ask", system=system,
                             max_tokens=max_tokens, temperature=temperature)
            sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    totals = ledger.totals()
    console.print(
        f"[dim]{model.name}: {totals.calls} call(s), {totals.input_tokens} in / {totals.output_tokens} out "
        f"tokens, {totals.latency:.2f}s, {totals.cache_hits} from cache, ${totals.cost:.6f}[/]"
    )


def _read_schema(path: Path) -> dict[str, Any]:
    try:
        schema = json.loads(path.read_text())
    except OSError as exc:
        raise LLMError(f"cannot read the schema file {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise LLMError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(schema, dict):
        raise LLMError(f"{path} must hold a JSON schema object")
    return schema


@llm_app.command("ledger")
def ledger_command(
    run: Annotated[Path, typer.Argument(help="A run directory (holding ledger.json) or a ledger file.")],
    as_json: bool = typer.Option(False, "--json", help="Print the totals as JSON instead of tables."),
) -> None:
    """Print a run's LLM calls: totals per stage and per output row, tokens, latency, cost."""
    ledger = Ledger.load(run)
    stages, rows, totals = ledger.by_stage(), ledger.by_row(), ledger.totals()
    if as_json:
        document = {
            "totals": totals.model_dump(),
            "by_stage": {name: value.model_dump() for name, value in stages.items()},
            "by_row": {name: value.model_dump() for name, value in rows.items()},
        }
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
        return
    stdout.print(_totals_table("per stage", "stage", stages, totals))
    if rows:
        stdout.print(_totals_table("per output row", "row", rows, None))
        average = sum(value.cost for value in rows.values()) / len(rows)
        stdout.print(f"{len(rows)} attributed row(s), mean cost per row ${average:.6f}")


def _totals_table(title: str, key: str, groups: dict[str, LedgerTotals], total: LedgerTotals | None) -> Table:
    table = Table(title=title)
    for column in (key, "calls", "cache hits", "input tokens", "output tokens", "latency s", "cost $"):
        table.add_column(column, justify="left" if column == key else "right")

    def add(name: str, value: LedgerTotals, **style: Any) -> None:
        cost = f"{value.cost:.6f}" + (f" (+{value.unpriced_calls} unpriced)" if value.unpriced_calls else "")
        calls = str(value.calls) + (f" (+{value.errors} not asked)" if value.errors else "")
        table.add_row(name, calls, str(value.cache_hits), f"{value.input_tokens:,}",
                      f"{value.output_tokens:,}", f"{value.latency:.2f}", cost, **style)

    for name, value in sorted(groups.items()):
        add(name, value)
    if total is not None:
        add("total", total, style="bold")
    return table


@llm_app.command("install")
def install_command(
    size: str = typer.Option(DEFAULT_SIZE, "--size", help=f"Embedded size: {', '.join(EMBEDDED_MODELS)} or all."),
    force: bool = typer.Option(False, "--force", help="Hash the installed file again; re-download on mismatch."),
) -> None:
    """Download the embedded model's weights, assemble them in the cache directory and verify the sha256."""
    settings = read_settings()
    sizes = list(EMBEDDED_MODELS) if size == "all" else [embedded_model(size).size]
    for name in sizes:
        model = EMBEDDED_MODELS[name]
        if is_installed(model, settings.cache_dir) and not force:
            console.print(f"{model.title} is installed: {model_path(model, settings.cache_dir)}")
            continue
        with Progress(
            TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
            TimeRemainingColumn(), console=console, transient=True,
        ) as progress:
            task = progress.add_task(model.title, total=model.total_bytes)
            def show(what: str, done: int, task=task, size=model.size) -> None:
                progress.update(task, completed=done, description=f"{size} {what}")

            path = install_model(model, settings.cache_dir, progress=show, rehash=force)
        console.print(f"installed {model.title}: {path} (sha256 {model.sha256} verified)")


