"""The list-extraction job in one call: record a program (with a model or without), then replay it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

from scrapesmith.drift import DriftReport
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import infer_schema, write_rows
from scrapesmith.lists.dsl import describe
from scrapesmith.lists.profile import profile_of
from scrapesmith.lists.record import Recording, record_heuristic
from scrapesmith.lists.replay import ReplayResult, replay
from scrapesmith.lists.runtime import HttpRuntime, PageRuntime, RuntimeFactory
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm import LLM, Ledger
from scrapesmith.report import write_report
from scrapesmith.web import (
    Fetcher,
    FileFetcher,
    HttpFetcher,
    RoutingFetcher,
    SavedPages,
    expand_sources,
    is_web_url,
)

RUNTIMES = ("http", "browser", "auto")


def record_program(
    runtime: PageRuntime, start_url: str, goal: str, columns: list[str], llm: LLM | None = None,
    examples: Mapping[str, str] | None = None,
) -> Recording:
    """Record with the BardeenAgent loop when a model is given, else heuristically; ``examples`` (column ->
    a value seen on the first item's own page) pin detail-page columns as ``induce --example`` does."""
    if llm is None:
        return record_heuristic(runtime, start_url, goal, columns, examples)
    from scrapesmith.lists.agent import record_with_llm

    return record_with_llm(runtime, start_url, goal, columns, llm, examples)


def http_runtimes(fetcher: Fetcher) -> RuntimeFactory:
    """Fresh HTTP runtimes over one shared fetcher (so politeness and robots state carry over)."""
    return lambda: nullcontext(HttpRuntime(fetcher))


@contextmanager
def make_runtimes(
    kind: str, allow_hosts: Sequence[str], delay: float | None = None, *, saved: Path | None = None,
    base_url: str | None = None,
) -> Iterator[RuntimeFactory]:
    """A factory of fresh runtimes of ``kind`` sharing one polite fetcher (or one browser), closed after.

    The HTTP side reads local files and ``file://`` URLs too; ``auto`` starts on HTTP and moves to a
    browser (started only then) when the first page needs scripts (:mod:`scrapesmith.lists.auto`). With
    ``saved`` (the folder of saved pages a program runs on) it reads only files there, and links under
    ``base_url`` from their saved copies: a program on files never reaches the network
    (:class:`~scrapesmith.web.SavedPages`).
    """
    if kind not in RUNTIMES:
        raise ScrapesmithError(f"unknown runtime {kind!r} (use {', '.join(RUNTIMES)})")
    if saved is not None:
        with RoutingFetcher(file=FileFetcher()) as files:
            yield http_runtimes(SavedPages(files, saved, base_url))
        return
    if kind == "browser":
        from scrapesmith.lists.browser import BrowserRuntimes

        with BrowserRuntimes(list(allow_hosts), delay) as factory:
            yield factory
        return
    http = HttpFetcher(allow_hosts=list(allow_hosts), delay=delay)
    with RoutingFetcher(http=http, file=FileFetcher()) as fetcher:
        if kind == "http":
            yield http_runtimes(fetcher)
            return
        from scrapesmith.lists.auto import auto_runtimes
        from scrapesmith.lists.browser import BrowserRuntimes

        with BrowserRuntimes(list(allow_hosts), delay) as browser:
            yield auto_runtimes(http_runtimes(fetcher), browser)


def list_sources(source: str) -> list[str]:
    """One URL as given; a file, ``file://`` URL, directory or ``.txt`` source list expanded to its pages (in order)."""
    if is_web_url(source):
        return [source]
    sources = expand_sources([source])
    if not sources:
        raise ScrapesmithError(f"no pages in {source}")
    return sources


def extract_list(
    make_runtime: RuntimeFactory,
    start_url: str,
    goal: str,
    columns: list[str],
    llm: LLM | None = None,
    max_pages: int | None = None,
    examples: Mapping[str, str] | None = None,
) -> tuple[Recording, ReplayResult]:
    """Record on one runtime, replay on a fresh one: the replay sees the site as a new visitor does.

    What the first replay dropped or left empty goes into the program's notes, so a saved program says
    how it behaved when it was made.
    """
    with make_runtime() as runtime:
        recording = record_program(runtime, start_url, goal, columns, llm, examples)
        if getattr(runtime, "choice", ""):
            _note(recording, [f"runtime auto: {runtime.choice}"])
    with make_runtime() as runtime:
        result = replay(recording.program, runtime, llm=llm, max_pages=max_pages)
    _note(recording, [f"first run: {line}" for line in result.accounting()])
    recording.program.column_types = infer_schema(result.rows, recording.program.columns)
    recording.program.profile = profile_of(result, recording.program.columns)
    return recording, result


def extract_from_sources(
    make_runtime: RuntimeFactory,
    sources: list[str],
    goal: str,
    columns: list[str],
    llm: LLM | None = None,
    max_pages: int | None = None,
    examples: Mapping[str, str] | None = None,
) -> tuple[Recording, ReplayResult]:
    """Record on the first source, then run the program on every other one (a directory of saved pages)."""
    recording, result = extract_list(make_runtime, sources[0], goal, columns, llm, max_pages, examples)
    for source in sources[1:]:
        with make_runtime() as runtime:
            result.merge(replay(recording.program, runtime, llm=llm, start_url=source, max_pages=max_pages))
    return recording, result


def _note(recording: Recording, lines: list[str]) -> None:
    """Add to the notes shown now and to the notes the saved program keeps."""
    recording.program.notes.extend(lines)
    if recording.notes is not recording.program.notes:
        recording.notes.extend(lines)


def replay_program(
    make_runtime: RuntimeFactory,
    program: ListProgram,
    llm: LLM | None = None,
    start_url: str | None = None,
    max_pages: int | None = None,
) -> ReplayResult:
    with make_runtime() as runtime:
        return replay(program, runtime, llm=llm, start_url=start_url, max_pages=max_pages)


def save_run(
    kind: str,
    program: ListProgram,
    result: ReplayResult,
    output: Path,
    ledger: Ledger,
    program_path: Path | None = None,
    drift: DriftReport | None = None,
) -> Path:
    """Write the rows to ``output``, a ``<name>.run.json`` record beside them, and the report; return its path.

    A list run has no directory of its own, so its record and ``<name>.report.html`` sit next to the
    dataset (``scrapesmith report jobs.run.json`` redraws the report later).
    """
    output = Path(output)
    write_rows(result.rows, output, program.column_types)
    record = {
        "kind": kind,
        "title": f"{program.goal} ({program.start_url})",
        "dataset": output.name,
        "program": str(Path(program_path).resolve()) if program_path else None,
        "program_id": program.program_id,
        "steps": [describe(step) for step in program.steps],
        "notes": list(program.notes),
        **result.run_record(),
        "duplicates": result.duplicates,
        **({"drift": drift.model_dump(mode="json")} if drift is not None else {}),
        "ledger": {
            "totals": ledger.totals().model_dump(),
            "by_stage": {stage: totals.model_dump() for stage, totals in ledger.by_stage().items()},
        },
    }
    record_path = output.with_name(f"{output.stem}.run.json")
    record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return write_report(record_path)
