"""``scrapesmith lists``, ``scrapesmith replay``, ``bench nexteval`` and ``bench weblists``."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from scrapesmith.cli import app, console
from scrapesmith.cli.drift import exit_on_drift, heal_list, show_drift
from scrapesmith.cli.options import (
    AllowHostOption,
    DatabaseChoice,
    DatabaseOption,
    DelayOption,
    KeyOption,
    LLMOption,
    NoCacheOption,
    OpenOption,
    RuntimeOption,
    StrictOption,
    TableOption,
    allowed_hosts,
    examples_from_options,
    llm_from_options,
    not_blank,
    progress_bar,
    send_to_database,
    show_report,
    show_warnings,
    table_path,
    usage_error,
)
from scrapesmith.cli.scale import (
    BatchSizeOption,
    RayAddressOption,
    RayOption,
    ResumeOption,
    RunDirOption,
    ScaleChoices,
    SinceOption,
    WorkersOption,
    run_at_scale,
    write_run_record,
)
from scrapesmith.drift import DriftReport
from scrapesmith.lists import (
    ListPages,
    ListProgram,
    RecordingError,
    ReplayResult,
    check_dataset,
    check_replay,
    describe,
    extract_from_sources,
    list_sources,
    make_runtimes,
    parse_columns,
    replay_program,
    save_run,
)
from scrapesmith.llm import Ledger, use_ledger
from scrapesmith.scale import DEFAULT_BATCH_SIZE
from scrapesmith.web import iter_sources, saved_root

URL_OPTION = typer.Argument(
    ...,
    help="The page where the list starts: an http(s) URL, a local file, a file:// URL, a directory "
    "of saved pages or a .txt list of URLs/files, e.g. from `scrapesmith crawl` (recorded on the first, run on each).",
)
GOAL_OPTION = typer.Option(..., "--goal", callback=not_blank, help="What to extract, e.g. 'all open Engineering jobs'.")
COLUMNS_OPTION = typer.Option(
    ..., "--columns", callback=not_blank, help="Comma-separated output columns, e.g. 'Job Title,Job URL'."
)
OUTPUT_OPTION = typer.Option(Path("list.csv"), "-o", "--output", callback=table_path, help="Rows out (.csv, .jsonl, .parquet).")
EXAMPLE_OPTION = typer.Option(
    None, "--example", "-e", help="COLUMN=VALUE seen on the first item's own page: learn that detail-page column "
    "from its value (repeatable; no model).")
PROGRAM_OUT_OPTION = typer.Option(None, "--program", help="Save the recorded program (JSON) here.")
PROGRAM_PATH_OPTION = typer.Argument(..., help="A program saved by 'scrapesmith lists --program'.")
START_URL_OPTION = typer.Option(None, "--start-url", help="Run on this URL instead of the recorded one.")
START_URLS_OPTION = typer.Option(
    None, "--start-urls", help="Run from every start page these sources list (a .txt URL list, e.g. from "
    "`scrapesmith crawl`, a directory, URLs): a resumable run over all of them (repeatable).")
BASE_URL_OPTION = typer.Option(
    None, "--base-url", metavar="URL", help="On saved pages: the address they were saved from; their links "
    "under it are read from the saved copies beside them (others are not followed, and counted).")
MAX_PAGES = typer.Option(
    None, "--max-pages", min=1, help="Stop after this many list pages (default: the program's, 20)."
)


def _print_program(program: ListProgram) -> None:
    console.print(
        f"[bold]program {program.program_id}[/] ({program.recorded_with}, runtime {program.runtime})"
    )
    for step in program.steps:
        console.print(f"  {describe(step)}", markup=False, highlight=False)
    for note in program.notes:
        console.print(f"  [dim]# {note}[/]")


def _print_accounting(result: ReplayResult) -> None:
    """Dropped items (with reasons) and empty-column warnings; the run record beside the rows keeps them too."""
    for line in result.accounting():
        console.print(f"[yellow]warning:[/] {escape(line)}", markup=True, highlight=False)
    if result.not_followed:
        console.print("[dim]--base-url URL (the address the pages were saved from) reads links under it from the "
                      "saved copies beside the pages[/]", highlight=False)


def _print_rows(result: ReplayResult, columns: list[str], limit: int = 10) -> None:
    table = Table(
        title=f"{len(result.rows)} rows from {result.pages} page(s) ({result.stop_reason or 'done'})"
    )
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in result.rows[:limit]:
        table.add_row(*(str(row.get(column, "")) for column in columns))
    console.print(table)
    for failure in result.failures[:5]:
        console.print(
            f"[yellow]failed:[/] {failure['url']} {failure['item']}: {failure['error']}", markup=True
        )


def column_examples(texts: list[str], columns: list[str]) -> dict[str, str]:
    """``--example COLUMN=VALUE`` options as a mapping; a malformed one or an unknown column is a usage error."""
    examples = {}
    for text, found in zip(texts, examples_from_options(texts), strict=True):
        if found.name not in columns:
            raise usage_error(f"--example '{text}': '{found.name}' is not one of the --columns ({', '.join(columns)})")
        examples[found.name] = found.value
    return examples


@app.command("lists")
def lists_command(
    url: str = URL_OPTION,
    goal: str = GOAL_OPTION,
    columns: str = COLUMNS_OPTION,
    output: Path = OUTPUT_OPTION,
    program_out: Path | None = PROGRAM_OUT_OPTION,
    runtime: RuntimeOption = None,
    max_pages: int | None = MAX_PAGES,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    open_: OpenOption = False,
    example: list[str] | None = EXAMPLE_OPTION,
    to: DatabaseOption = None,
    key: KeyOption = None,
    table: TableOption = None,
    base_url: str | None = BASE_URL_OPTION,
    strict: StrictOption = False,
) -> None:
    """Record a list program on URL (with the model, or heuristically with --llm none), then replay it.

    On saved pages (files, a folder) the program stays in the folder of the pages given: it follows a link
    only to a saved page there (or, with --base-url, to the saved copy of a page under that address); every
    link and pagination step it does not follow is counted and said once, with the reason. A column is matched
    by its words, else by meaning; one empty in most rows is a warning (in the run record and report too),
    and exit status 4 with --strict.

    With --to the rows also go into a database table (--key upserts, so a rerun updates rows in place)."""
    database = DatabaseChoice(to, key, table)
    try:
        wanted = parse_columns(columns)
    except RecordingError as exc:
        raise usage_error(f"--columns: {exc}") from exc
    examples = column_examples(example or [], wanted)
    ledger = Ledger()
    model = llm_from_options(llm, no_cache, ledger=ledger)
    sources = list_sources(url)
    saved = saved_root(sources)
    if saved is not None and runtime in ("browser", "auto"):
        console.print(f"[dim]saved pages are read as saved: --runtime {runtime} loads web pages only[/]",
                      highlight=False)
    with (
        use_ledger(ledger),
        console.status("recording and replaying the list…"),
        make_runtimes(runtime or "http", allowed_hosts(allow_host), delay, saved=saved, base_url=base_url) as runtimes,
    ):
        recording, result = extract_from_sources(
            runtimes, sources, goal, wanted, model, max_pages, examples
        )
    recording.program.base_url = base_url if saved is not None else None
    _print_program(recording.program)
    if program_out is not None:
        recording.program.save(program_out)
        console.print(f"program saved to {program_out}")
    _print_rows(result, recording.program.columns)
    _print_accounting(result)
    report_file = save_run("lists", recording.program, result, output, ledger, program_out)
    totals = ledger.totals()
    console.print(
        f"wrote {len(result.rows)} rows to {output}; {totals.calls} LLM calls, "
        f"{result.rows_per_s:.1f} rows/s replay"
    )
    send_to_database(database, output, output.stem, recording.program.column_types)
    show_report(report_file, open_)
    show_warnings(result.warnings, strict, printed=True)


@app.command("replay")
def replay_command(
    program_path: Path = PROGRAM_PATH_OPTION,
    start_url: str | None = START_URL_OPTION,
    output: Path = OUTPUT_OPTION,
    runtime: RuntimeOption = None,
    max_pages: int | None = MAX_PAGES,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    open_: OpenOption = False,
    start_urls: list[str] | None = START_URLS_OPTION,
    workers: WorkersOption = 1,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    resume: ResumeOption = False,
    since: SinceOption = None,
    batch_size: BatchSizeOption = DEFAULT_BATCH_SIZE,
    run_dir: RunDirOption = None,
    heal: bool = typer.Option(False, "--heal", help="When the replay drifted, record the list again (a new "
                                                    "version beside the program) and replay that."),
    to: DatabaseOption = None,
    key: KeyOption = None,
    table: TableOption = None,
    base_url: str | None = BASE_URL_OPTION,
) -> None:
    """Replay a list program: no model calls unless the program has AnswerQuestion columns.

    With --start-urls, the program runs from every start page listed, as a resumable run (--resume,
    --since, --workers, --ray; see `scrapesmith run`). Its output is checked against the program's profile:
    on drift it exits with status 3, and --heal records the list again as NAME.v2.json (on the first start
    page listed, with --start-urls) and replays that. With --to the rows also go into a database table (--key
    upserts)."""
    database = DatabaseChoice(to, key, table)
    program = ListProgram.load(program_path)
    if heal and start_urls and (resume or since is not None):
        raise usage_error("--heal replays every start page again with the healed program: it does not go with "
                          "--resume or --since")
    if start_urls:
        choices = ScaleChoices(workers, ray, ray_address, resume, since, batch_size, run_dir)
        many = (program_path, start_urls, output, choices, allow_host, delay, max_pages)
        drift, report_file = _replay_many(program, *many)
        if heal and drift.drifted:
            first = next(iter_sources(start_urls), None)
            healed = heal_list(program, program_path, first, runtime or program.runtime, allow_host, delay)
            if healed is not None:
                console.print(f"replaying {healed} from every start page", highlight=False)
                program = ListProgram.load(healed)
                drift, report_file = _replay_many(program, healed, *many[1:])
        send_to_database(database, output, output.stem, program.column_types)
        show_report(report_file, open_)
        exit_on_drift(drift)
        return
    options = (start_url, output, runtime, max_pages, allow_host, delay, llm, no_cache, base_url)
    drift, report_file = _replay_once(program, program_path, *options)
    if heal and drift.drifted:
        healed = heal_list(program, program_path, start_url, runtime or program.runtime, allow_host, delay)
        if healed is not None:
            console.print(f"replaying {healed}", highlight=False)
            program = ListProgram.load(healed)
            drift, report_file = _replay_once(program, healed, *options)
    send_to_database(database, output, output.stem, program.column_types)
    show_report(report_file, open_)
    exit_on_drift(drift)


def _replay_once(program: ListProgram, program_path: Path, start_url: str | None, output: Path,
                 runtime: str | None, max_pages: int | None, allow_host: list[str] | None, delay: float | None,
                 llm: str | None, no_cache: bool, base_url: str | None) -> tuple[DriftReport, Path]:
    needs_model = any(step.action == "AnswerQuestion" for step in program.steps)
    ledger = Ledger()
    model = llm_from_options(llm, no_cache, ledger=ledger) if needs_model else None
    saved = saved_root([start_url or program.start_url])
    with (
        progress_bar() as progress,
        use_ledger(ledger),
        make_runtimes(runtime or program.runtime, allowed_hosts(allow_host), delay, saved=saved,
                      base_url=base_url or program.base_url) as runtimes,
    ):
        task = progress.add_task("replaying", total=None)
        result = replay_program(runtimes, program, model, start_url, max_pages)
        progress.update(task, completed=result.pages, total=result.pages)
    _print_rows(result, program.columns)
    _print_accounting(result)
    drift = check_replay(program, result)
    report_file = save_run("replay", program, result, output, ledger, program_path, drift)
    console.print(
        f"wrote {len(result.rows)} rows to {output} ({result.pages} page{'' if result.pages == 1 else 's'}, "
        f"{result.rows_per_s:.1f} rows/s, {ledger.totals().calls} LLM calls)"
    )
    show_drift(drift, result.pages)
    return drift, report_file


def _replay_many(program: ListProgram, program_path: Path, start_urls: list[str], output: Path,
                 choices: ScaleChoices, allow_host: list[str] | None, delay: float | None,
                 max_pages: int | None) -> tuple[DriftReport, Path]:
    started = time.monotonic()
    run = run_at_scale(ListPages(program, max_pages), start_urls, output, choices, allow_host=allow_host,
                       delay=delay, respect_robots=True, concurrency=1)
    drift = check_dataset(program, output)
    report_file = write_run_record(output, run, kind="replay", title=f"{program.goal} ({run.pages} start pages)",
                                   program=program_path, steps=[describe(step) for step in program.steps],
                                   seconds=time.monotonic() - started, drift=drift)
    failed = run.counts.get("failed", 0)
    console.print(f"wrote {run.rows} rows to {output} from {run.pages} start pages"
                  + (f"; {failed} failed (see the error column)" if failed else ""), highlight=False)
    show_drift(drift, run.pages)
    return drift, report_file








