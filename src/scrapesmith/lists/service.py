"""The list-extraction job in one call: record a program (with a model or without), then replay it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext

from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.record import Recording, record_heuristic
from scrapesmith.lists.replay import ReplayResult, replay
from scrapesmith.lists.runtime import HttpRuntime, PageRuntime
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm.types import LLM
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import Fetcher

RuntimeFactory = Callable[[], AbstractContextManager[PageRuntime]]
RUNTIMES = ("http", "browser")


def record_program(
    runtime: PageRuntime, start_url: str, goal: str, columns: list[str], llm: LLM | None = None
) -> Recording:
    """Record with the BardeenAgent loop when a model is given, else heuristically."""
    if llm is None:
        return record_heuristic(runtime, start_url, goal, columns)
    from scrapesmith.lists.agent import record_with_llm

    return record_with_llm(runtime, start_url, goal, columns, llm)


def http_runtimes(fetcher: Fetcher) -> RuntimeFactory:
    """Fresh HTTP runtimes over one shared fetcher (so politeness and robots state carry over)."""
    return lambda: nullcontext(HttpRuntime(fetcher))


@contextmanager
def make_runtimes(kind: str, allow_hosts: Sequence[str], delay: float | None = None) -> Iterator[RuntimeFactory]:
    """A factory of fresh runtimes of ``kind`` sharing one polite fetcher (or one browser), closed after."""
    if kind not in RUNTIMES:
        raise ScrapesmithError(f"unknown --runtime {kind!r} (use http or browser)")
    if kind == "browser":
        from scrapesmith.lists.browser import BrowserRuntimes

        with BrowserRuntimes(list(allow_hosts), delay) as factory:
            yield factory
        return
    with HttpFetcher(allow_hosts=list(allow_hosts), delay=delay) as fetcher:
        yield http_runtimes(fetcher)


def extract_list(
    make_runtime: RuntimeFactory,
    start_url: str,
    goal: str,
    columns: list[str],
    llm: LLM | None = None,
    max_pages: int | None = None,
) -> tuple[Recording, ReplayResult]:
    """Record on one runtime, replay on a fresh one: the replay sees the site as a new visitor does.

    What the first replay dropped or left empty goes into the program's notes, so a saved program says
    how it behaved when it was made.
    """
    with make_runtime() as runtime:
        recording = record_program(runtime, start_url, goal, columns, llm)
    with make_runtime() as runtime:
        result = replay(recording.program, runtime, llm=llm, max_pages=max_pages)
    first_run = [f"first run: {line}" for line in result.accounting()]
    recording.program.notes.extend(first_run)
    if recording.notes is not recording.program.notes:
        recording.notes.extend(first_run)
    return recording, result


def replay_program(
    make_runtime: RuntimeFactory,
    program: ListProgram,
    llm: LLM | None = None,
    start_url: str | None = None,
    max_pages: int | None = None,
) -> ReplayResult:
    with make_runtime() as runtime:
        return replay(program, runtime, llm=llm, start_url=start_url, max_pages=max_pages)
