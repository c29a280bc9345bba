"""``scrapesmith collect`` (instruction -> dataset) and ``scrapesmith bench instruct2ds``."""

from __future__ import annotations

import hashlib
import shlex
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.drift import exit_on_drift, heal_collection, show_drift
from scrapesmith.cli.options import (
    AllowHostOption,
    DatabaseChoice,
    DatabaseOption,
    DelayOption,
    KeyOption,
    LLMOption,
    NoCacheOption,
    OpenOption,
    StrictOption,
    TableOption,
    UnsafeNoSandboxOption,
    allowed_hosts,
    examples_from_options,
    llm_from_options,
    not_blank,
    send_to_database,
    show_report,
    show_warnings,
)
from scrapesmith.cli.scale import ScaleChoices, run_at_scale, write_run_record
from scrapesmith.collect import live_progress, unsure_lines
from scrapesmith.config import get_settings
from scrapesmith.errors import ScrapesmithError
from scrapesmith.llm import LLM

Ablation = Annotated[str, typer.Option(
    help="full | broadcast (A3: no OHCache) | no-formatter (A4) | no-cache (A5).")]
AlwaysAsk = Annotated[bool, typer.Option(
    "--always-ask", help="Consult the model at every agent step, as the paper does (default: only where the "
    "tools leave a choice).")]


def default_run_dir(instruction: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"{stamp}-{hashlib.sha256(instruction.encode()).hexdigest()[:6]}"


@app.command("collect")
def collect_command(
    instruction: Annotated[str, typer.Argument(callback=not_blank, help="One sentence naming the data and its columns.")],
    run_dir: Annotated[Path | None, typer.Option(help="Run directory (default runs/<time>-<hash>).")] = None,
    start: Annotated[list[str], typer.Option(
        "--from", help="Pages to crawl into the local search index when the instruction names no URL: an "
        "http(s) URL, a saved HTML page, a file:// URL or a directory of saved pages (its HTML files; the local "
        "ones are all the run may read of this disk, read-only in the sandbox). Repeatable.")] = [],  # noqa: B006
    old_seed: Annotated[list[str], typer.Option(
        "--seed", hidden=True, help="The old spelling of --from (kept for one release).")] = [],  # noqa: B006
    allow_host: AllowHostOption = None,
    ablation: Ablation = "full",
    always_ask: AlwaysAsk = False,
    delay: DelayOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    open_: OpenOption = False,
    unsafe_no_sandbox: UnsafeNoSandboxOption = False,
    example: Annotated[list[str], typer.Option(
        "--example", "-e", help="COLUMN=VALUE seen on the first item's own page: learn that column from its "
        "value on the items' pages (repeatable; no model).")] = [],  # noqa: B006
    to: DatabaseOption = None,
    key: KeyOption = None,
    table: TableOption = None,
    strict: StrictOption = False,
) -> None:
    """Turn an instruction into a validated dataset: research, blueprint, program, sandboxed test, validation.

    A column empty in most rows is a warning (in result.json and report.html too), exit status 4 with --strict.

    With --to the dataset also goes into a database table (--key upserts, so a rerun updates rows in place)."""
    from scrapesmith.collect import SandboxLimits, collect

    database = DatabaseChoice(to, key, table)
    examples = {found.name: found.value for found in examples_from_options(example)}

    model: LLM | None = llm_from_options(llm, no_cache)
    target = run_dir or default_run_dir(instruction)
    hosts = allowed_hosts(allow_host)
    with console.status("collecting…", spinner="dots") as status:
        result = collect(instruction, llm=model, run_dir=target, allow_hosts=hosts, seeds=[*start, *old_seed], ablation=ablation,
                         delay=delay, progress=live_progress(console, status), always_ask=always_ask,
                         limits=SandboxLimits(unsafe_no_sandbox=unsafe_no_sandbox), examples=examples)
    if result.read_roots:
        console.print(f"local seeds read (read-only in the sandbox): {', '.join(result.read_roots)}", highlight=False)
    if result.skipped_files:
        shown = "; ".join(result.skipped_files[:3]) + (" …" if len(result.skipped_files) > 3 else "")
        console.print(f"{len(result.skipped_files)} files in --from directories skipped (listed in result.json): "
                      f"{shown}", highlight=False)
    verdict = "valid" if result.valid else "NOT valid (see validation.json)"
    console.print(f"{result.rows} rows -> {result.dataset} ({verdict}); {result.llm_calls} LLM calls, "
                  f"{result.tokens} tokens, {result.seconds:.1f}s", highlight=False)
    console.print(f"rerun without a model: {rerun_command(target / 'program.py')}", highlight=False)
    for line in unsure_lines(result.fields):
        console.print(line, highlight=False)
    show_report(result.report, open_)
    if not result.rows:
        raise ScrapesmithError(f"no rows collected; see {target / 'messages.jsonl'}")
    send_to_database(database, typed_dataset(result.dataset), target.name)
    show_warnings(result.warnings, strict)


def typed_dataset(dataset: Path) -> Path:
    """The collection's dataset as the sinks read it: the Parquet copy beside ``dataset.csv`` (typed by the
    program's SCHEMA) where there is one."""
    parquet = dataset.with_suffix(".parquet")
    return parquet if parquet.exists() else dataset


def run_collection_program(program: Path, allow_host: list[str] | None, output: Path | None = None,
                           unsafe_no_sandbox: bool = False, allow_read: list[str] | None = None, *,
                           heal: bool = False, delay: float | None = None,
                           database: DatabaseChoice | None = None) -> None:
    """``scrapesmith run runs/<id>/program.py [-o OUT] [--heal]``: recollect in the sandbox with zero LLM calls;
    with ``heal``, a drifted program's list is recorded again as ``program.v2.py``, which is then run."""
    from scrapesmith.collect import (
        PARTIAL_DATASET,
        RerunInterrupted,
        SandboxLimits,
        check_rerun,
        record_drift,
        rerun_program,
    )

    where = "WITHOUT the sandbox (--unsafe-no-sandbox)" if unsafe_no_sandbox else "in the sandbox"
    try:
        with console.status(f"running {program} {where}", spinner="dots"):
            rerun = rerun_program(program, allowed_hosts(allow_host), output,
                                  SandboxLimits(unsafe_no_sandbox=unsafe_no_sandbox), allow_read=allow_read)
    except RerunInterrupted as stopped:
        console.print(f"interrupted: the sandbox was stopped; rows so far are in {stopped.rerun_dir / PARTIAL_DATASET} "
                      f"(partial; marked in {stopped.rerun_dir / 'rerun.run.json'})", highlight=False)
        raise
    for note in rerun.result.notes:  # what of the program's folder was not kept, and why
        console.print(note, highlight=False, markup=False)
    if rerun.dataset is None:
        console.print(f"{program} finished ({rerun.result.seconds:.1f}s) but wrote no dataset.csv", highlight=False)
    else:
        console.print(f"{rerun.rows} rows -> {rerun.dataset} ({rerun.result.seconds:.1f}s, 0 LLM calls)",
                      highlight=False)
    drift = check_rerun(rerun)
    healing = drift is not None and drift.drifted and heal
    if rerun.dataset is not None and database is not None and not healing:
        typed = rerun.rerun_dir / "dataset.parquet"
        send_to_database(database, typed if typed.exists() else rerun.dataset, program.parent.name)
    show_report(record_drift(rerun, drift) if drift is not None else rerun.report)
    if drift is not None:
        show_drift(drift)
        if drift.drifted and heal and (healed := heal_collection(program, allow_host, delay)) is not None:
            console.print(f"running {healed}", highlight=False)
            run_collection_program(healed, allow_host, output, unsafe_no_sandbox, allow_read, database=database)
            return
        exit_on_drift(drift)


def run_collection_on_pages(program: Path, sources: list[str], output: Path, choices: ScaleChoices, fetch: dict,
                            unsafe_no_sandbox: bool = False, allow_read: list[str] | None = None,
                            open_: bool = False) -> None:
    """``scrapesmith run program.py starts.txt -o OUT``: the program once per start page, in the sandbox, as
    a sharded, resumable run (:class:`~scrapesmith.collect.pages.CollectionPages`)."""
    from scrapesmith.collect import CollectionPages, SandboxLimits

    started = time.monotonic()
    pages = CollectionPages(program, allowed_hosts(fetch["allow_host"]), list(allow_read or []),
                            SandboxLimits(unsafe_no_sandbox=unsafe_no_sandbox))
    run = run_at_scale(pages, sources, output, choices, **fetch)
    failed = run.counts.get("failed", 0)
    report = write_run_record(output, run, kind="run", title=f"{program} on {run.pages} start pages",
                              program=program, steps=[f"program {pages.program_id}, one sandboxed run per start page"],
                              seconds=time.monotonic() - started)
    console.print(f"{run.rows} rows from {run.pages} start pages written to {output}"
                  + (f"; {failed} start pages failed (see the error column)" if failed else ""), highlight=False)
    show_report(report, open_)
    if run.pages and failed == run.pages:
        raise ScrapesmithError(f"all {run.pages} start pages failed (first: {run.failures[0][1]}); the error rows "
                               f"are in {output}")


def rerun_command(program: Path) -> str:
    """``scrapesmith run program.py`` with the ``--allow-host`` flags its hosts need beyond the settings', and
    the ``--allow-read`` flags for the local roots it reads."""
    from scrapesmith.collect import declared_hosts, declared_roots, undeclared_hosts

    try:
        needed = undeclared_hosts(declared_hosts(program), get_settings().allow_hosts)
        roots = declared_roots(program)
    except ScrapesmithError:
        needed, roots = [], []
    return " ".join(["scrapesmith run", shlex.quote(str(program)), *(f"--allow-host {h}" for h in needed),
                     *(f"--allow-read {shlex.quote(r)}" for r in roots)])







