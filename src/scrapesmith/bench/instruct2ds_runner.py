"""How the Instruct2DS benchmark runs one task with ``collect`` on the demo web."""

from __future__ import annotations

from pathlib import Path

from scrapesmith.bench.instruct2ds import SITE_OF, Task
from scrapesmith.collect import CollectResult, collect
from scrapesmith.llm import LLM


def start_page(task: Task) -> str | None:
    """The page a task's records are reached from, for ``--start-urls`` runs: the listing of
    :func:`single_page_start`, else a year's proceedings (its tracks below it) or a symbol's quote page
    (its history pages below it, its API documentation linked)."""
    values, name = task.values, task.template.name
    if name == "academic-T1":
        return f"/proceedings/{values['conference'].lower()}/{values['year']}/"
    if name in ("finance-T1", "finance-T2"):
        return f"/stocks/symbol/{values['symbol']}/"
    return single_page_start(task)


def single_page_start(task: Task) -> str | None:
    """The one listing page a task's records start on, when there is one (for heuristic-only runs)."""
    values, name = task.values, task.template.name
    if name == "academic-T2":
        slug = values["track"].lower().replace(" ", "-")
        return f"/proceedings/{values['conference'].lower()}/{values['year']}/{slug}/"
    if name in ("sports-T1", "sports-T2"):
        return f"/sports/season/{values['year']}/standings.html"
    if name == "sports-T3":
        return f"/sports/season/{values['year']}/players/"
    return None


def task_runner(server, llm: LLM | None, ablation: str, start_urls: bool, delay: float = 0.0,
                always_ask: bool = False):
    """A ``run_task(task, run_dir)`` for :func:`run_instruct2ds` (the demo web is local, so no delay)."""
    allow = [f"{server.host}:{server.port}"]

    def run(task: Task, run_dir: Path) -> CollectResult:
        instruction = task.instruction
        start = start_page(task) if start_urls else None
        if start is not None:
            instruction = f"{instruction} Start at {server.url(start)}"
        return collect(instruction, llm=llm, run_dir=run_dir, allow_hosts=allow, ablation=ablation, delay=delay,
                       always_ask=always_ask, seeds=[server.url(f"/{SITE_OF[task.template.domain]}/")])

    return run
