"""`scrapesmith run`: a scraper spec over pages (sharded, resumable), or a collection program.py rerun in the sandbox."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.drift import exit_on_drift, save_healed, show_drift
from scrapesmith.cli.options import (
    AllowHostOption,
    ConcurrencyOption,
    DatabaseChoice,
    DatabaseOption,
    DelayOption,
    KeyOption,
    NoRobotsOption,
    OpenOption,
    TableOption,
    UnsafeNoSandboxOption,
    allowed_hosts,
    send_to_database,
    show_report,
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
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import EvidenceHeal, HealError, ScraperSpec, SpecPages, check_dataset, heal_from_run
from scrapesmith.scale import DEFAULT_BATCH_SIZE, run_dir_for


@app.command("run")
def run_command(
    target: Annotated[Path, typer.Argument(help="A scraper spec (.json) from `scrapesmith induce`, or a "
                                                "collection program (program.py) from `scrapesmith collect`.")],
    sources: Annotated[list[str] | None, typer.Argument(help="Pages for a spec, or start pages for a program.py: "
                                                             "files, directories, URLs or a .txt URL list.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", callback=table_path,
                                                help="Output table: .csv, .jsonl or .parquet.")] = None,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    concurrency: ConcurrencyOption = 1,
    no_robots: NoRobotsOption = False,
    open_: OpenOption = False,
    unsafe_no_sandbox: UnsafeNoSandboxOption = False,
    allow_read: Annotated[list[str] | None, typer.Option(
        "--allow-read", metavar="PATH", help="Let a collection program read the local pages under PATH "
        "(read-only; repeatable): the READ_ROOTS it declares must lie inside these.")] = None,
    workers: WorkersOption = 1,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    resume: ResumeOption = False,
    since: SinceOption = None,
    batch_size: BatchSizeOption = DEFAULT_BATCH_SIZE,
    run_dir: RunDirOption = None,
    heal: Annotated[bool, typer.Option("--heal", help="When the output drifted, heal the spec on the pages "
                                                      "this run read, or a program.py's list from its dataset (a "
                                                      "new version beside it), and run that. Exit 0 when it no "
                                                      "longer drifts, 3 when it could not be healed or still "
                                                      "drifts.")] = False,
    to: DatabaseOption = None,
    key: KeyOption = None,
    table: TableOption = None,
) -> None:
    """Apply a scraper spec to pages, or rerun a collection program.py, with no LLM.

    A spec's run keeps its shards and a manifest in a run directory beside the output (OUTPUT.run), so a
    killed run continues with --resume and a later one fetches only new or changed pages with --since;
    --workers and --ray spread the batches. A program.py given start pages runs once per start page (in
    place of its SOURCES), in the sandbox, as such a run: resumable, incremental, spread out the same way.
    A program's rerun without start pages writes into RUN_DIR/reruns/<time>/ (and to
    -o when given), never over the original run, in the sandbox, reaching only the settings' hosts and
    --allow-host ones and reading only the local pages under --allow-read; --delay, --concurrency and
    --no-robots apply to a spec's pages and a program's start pages. A spec's output is checked against the profile it was forged with:
    on drift the run says what changed and exits with status 3; --heal then mends the spec on the pages
    this run read (kept in OUTPUT.run) as a new version (spec.v2.json) and runs that instead: exit status 0
    when the healed spec's output no longer drifts, 3 when it could not be healed or still drifts. A program's rerun is checked against the
    collection's dataset; --heal records its list again as program.v2.py and reruns that."""
    choices = ScaleChoices(workers, ray, ray_address, resume, since, batch_size, run_dir)
    database = DatabaseChoice(to, key, table)
    fetch = {"allow_host": allow_host, "delay": delay, "respect_robots": not no_robots, "concurrency": concurrency}
    if target.suffix.lower() == ".py":
        from scrapesmith.cli.collect import run_collection_on_pages, run_collection_program

        if not sources:
            run_collection_program(target, allow_host, output, unsafe_no_sandbox, allow_read, heal=heal, delay=delay,
                                   database=database)
            return
        if heal:
            raise usage_error("--heal reruns a program on its own sources: it does not go with start pages")
        if output is None:
            raise usage_error("running a program over start pages needs -o OUTPUT, e.g. run program.py "
                              "starts.txt -o out.parquet")
        run_collection_on_pages(target, sources, output, choices, fetch, unsafe_no_sandbox, allow_read, open_)
        send_to_database(database, output, output.stem)
        return
    if output is None or not sources:
        raise usage_error("running a scraper spec needs pages and -o OUTPUT, e.g. run spec.json page.html -o out.csv")
    if heal and (resume or since is not None):
        raise usage_error("--heal reruns the whole run with the healed spec: it does not go with --resume or --since")
    spec = load_runnable(target)
    drift, report_file = _run_spec(spec, target, sources, output, choices, fetch)
    if drift.drifted and heal:
        healed = _heal_on_run(spec, target, choices.run_dir or run_dir_for(output), allowed_hosts(allow_host))
        if healed is not None:
            console.print(f"running {healed} on the same pages", highlight=False)
            spec = ScraperSpec.load(healed)
            drift, report_file = _run_spec(spec, healed, sources, output, choices, fetch)
    send_to_database(database, output, output.stem, spec_schema(spec))
    show_report(report_file, open_)
    exit_on_drift(drift)


def _heal_on_run(spec: ScraperSpec, target: Path, run_dir: Path, hosts: list[str]) -> Path | None:
    """Heal ``spec`` on the pages the drifted run kept (not its seeds, which may not have changed); the new
    version's path, or None when nothing was healed (said, and the drift stands)."""
    try:
        result = heal_from_run(spec, [run_dir], EvidenceHeal(), hosts)
    except HealError as exc:
        console.print(f"not healed: {exc}", highlight=False)
        return None
    return save_healed(result, target)


def _run_spec(spec: ScraperSpec, target: Path, sources: list[str], output: Path, choices: ScaleChoices,
              fetch: dict) -> tuple[DriftReport, Path]:
    """One spec over the pages: the dataset, its check against the spec's profile, the run record."""
    started = time.monotonic()
    run = run_at_scale(SpecPages(spec), sources, output, choices, **fetch)
    failed = run.counts.get("failed", 0)
    drift = check_dataset(spec, output)
    report_file = write_run_record(
        output, run, kind="run", title=f"{spec.spec_id} ({spec.site or 'scraper spec'}) on {run.pages} pages",
        program=target, steps=[f"{field.name}: {field.actions!r}" for field in spec.fields],
        seconds=time.monotonic() - started, drift=drift)
    if run.pages and failed == run.pages:  # nothing scraped is a failed run; the error rows stay written
        every = "the one page" if run.pages == 1 else f"all {run.pages} pages"
        raise ScrapesmithError(f"{every} failed (first: {run.failures[0][1]}); "
                               f"the error rows are in {output}, the report in {report_file}")
    console.print(f"{run.rows - failed} rows written to {output}"
                  + (f"; {failed} pages failed (see the error column)" if failed else ""), highlight=False)
    show_drift(drift, run.pages, f"`scrapesmith heal {target} {choices.run_dir or run_dir_for(output)}` or --heal")
    return drift, report_file


def spec_schema(spec: ScraperSpec) -> dict[str, str]:
    """What a spec declares of its columns' types: a field that keeps every value is a list."""
    return {field.name: "list" for field in spec.fields if field.post.multiple}


def load_runnable(target: Path) -> ScraperSpec:
    """The scraper spec ``run`` was given (``run_command`` has already sent ``.py`` programs to collect)."""
    if target.suffix.lower() == ".json" or not target.is_file():  # a folder or a missing file: said as such
        return ScraperSpec.load(target)
    raise ScrapesmithError(f"{target}: `run` takes a scraper spec (.json) or a collection's program.py; "
                           f"got a '{target.suffix or 'no'}' file")

