"""``collect``: one instruction in, a validated dataset and its run directory out.

The data flow, step by step:

1. the manager posts the instruction; the plan agent splits it into steps and columns;
2. without a start URL, the tool agent crawls the seed pages into the local search index and searches;
3. the web agent navigates to the page(s) holding the records;
4. the tool agent tries list, table and REST extraction there and caches samples;
5. the blueprint agent picks an access path and writes ``blueprint.md`` (with ranked alternatives);
6. the engineer fills ``program.py``; the test agent runs it in the sandbox (repairs switch blueprints);
7. the validation agent checks the data; ``dataset.csv``/``.parquet``, ``ledger.json``,
   ``messages.jsonl``, ``result.json`` and ``report.html`` (what a person opens) are written.

This module only orchestrates; the agents, OHCache and the sandbox do the work.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from scrapesmith.collect.agents import AGENT_TYPES, FINISH, ManagerAgent, NoStartingPoint, Team
from scrapesmith.collect.agents.base import Progress
from scrapesmith.collect.fields import field_confidence
from scrapesmith.collect.instruction import parse_instruction
from scrapesmith.collect.ohcache import ArtifactCache, HyperedgeFormatter, MessageHypergraph
from scrapesmith.collect.runtime import PARTIAL_DATASET
from scrapesmith.collect.sandbox import SandboxLimits
from scrapesmith.collect.search import LocalSearchIndex
from scrapesmith.collect.seeds import resolve_seeds
from scrapesmith.collect.views import ABLATIONS, CollectResult, Seeds
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import PROVENANCE_COLUMNS, read_rows
from scrapesmith.lists import empty_column_warnings
from scrapesmith.llm import LLM, Ledger, LedgeredLLM, use_ledger
from scrapesmith.report import write_report
from scrapesmith.web import (
    ArchivingFetcher,
    FileFetcher,
    HttpFetcher,
    RememberingFetcher,
    RoutingFetcher,
    WarcWriter,
    is_within,
)

MAX_STEPS = 20


def collect(instruction: str, *, llm: LLM | None, run_dir: Path, allow_hosts: list[str],
            progress: Progress | None = None, seeds: list[str] | None = None, ablation: str = "full",
            delay: float | None = None, limits: SandboxLimits | None = None,
            always_ask: bool = False, examples: dict[str, str] | None = None) -> CollectResult:
    """Run the AutoData workflow for ``instruction``; everything lands in ``run_dir``.

    The agents consult the model where the tools leave a choice (which page, which access path, which
    repair); ``always_ask`` consults it at every step, as the paper does (the ablations use it).
    ``seeds`` are URLs, local HTML files, ``file://`` URLs or directories of saved pages
    (:mod:`scrapesmith.collect.seeds`): the local ones are the only files the agents and the program read.
    ``examples`` (column -> a value seen on the first item's own page) pin those columns of the items' pages
    as ``induce --example`` does.
    """
    if ablation not in ABLATIONS:
        raise ScrapesmithError(f"unknown ablation '{ablation}' (use {', '.join(ABLATIONS)})")
    parsed = parse_instruction(instruction)
    if llm is None and parsed.start_url is None and not seeds:
        raise NoStartingPoint("without a model the instruction must name a start URL and columns, "
                              "e.g. 'papers from http://host/list/ with columns title, authors, url', "
                              "or start pages must be given to search")
    resolved = resolve_seeds(list(seeds or []))  # a bad seed is one line, before anything is written
    run_dir = Path(run_dir)
    inside = [root for root in resolved.roots if is_within(root, os.path.realpath(run_dir))]
    if inside:
        raise ScrapesmithError(f"start page {inside[0]} is inside the run directory {run_dir}, where the program's "
                               "outputs land; use a run directory outside the saved pages")
    run_dir.mkdir(parents=True, exist_ok=True)
    ledger = Ledger()
    model = llm if llm is None or isinstance(llm, LedgeredLLM) else LedgeredLLM(llm)
    started = time.monotonic()
    # local pages through fetch's file route, confined to the roots the seeds name (the sandbox's view)
    files = FileFetcher(confine_to=resolved.roots)
    with (use_ledger(ledger), WarcWriter(run_dir / "research.warc.gz") as warc,
          RoutingFetcher(http=HttpFetcher(allow_hosts=allow_hosts, delay=delay), file=files) as router):
        # the agents and their tools weigh the same pages several times: each is fetched (and archived) once
        fetcher = RememberingFetcher(ArchivingFetcher(router, warc))
        team = _team(instruction, model, run_dir, allow_hosts, ablation, fetcher,
                     resolved, delay, limits, progress, always_ask, examples)
        try:
            trail, finished = _orchestrate(team)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the sandbox is already stopped; say so in result.json
            _mark_interrupted(run_dir, time.monotonic() - started)
            raise
    return _finish(team, ledger, trail, finished, ablation, time.monotonic() - started)


def _mark_interrupted(run_dir: Path, seconds: float) -> None:
    partial = run_dir / PARTIAL_DATASET
    # dataset.csv exists only if program.py ran to its end; rows of a stopped program are in the partial file
    record = {"interrupted": True, "finished": False, "seconds": seconds,
              "partial_dataset": PARTIAL_DATASET if partial.is_file() else None}
    (run_dir / "result.json").write_text(json.dumps(record, indent=2) + "\n")


def _team(instruction: str, llm: LLM | None, run_dir: Path, allow_hosts: list[str], ablation: str, fetcher,
          seeds: Seeds, delay: float | None, limits: SandboxLimits | None, progress: Progress | None,
          always_ask: bool = False, examples: dict[str, str] | None = None) -> Team:
    whole_off = ablation == "broadcast"  # A3 removes the entire OHCache
    team = Team(
        instruction=instruction, llm=llm, graph=MessageHypergraph(broadcast=whole_off),
        cache=ArtifactCache(run_dir / "cache", inline=whole_off or ablation == "no-cache"),
        formatter=HyperedgeFormatter(enabled=not (whole_off or ablation == "no-formatter")),
        fetcher=fetcher, search=LocalSearchIndex(), run_dir=run_dir, allow_hosts=list(allow_hosts),
        delay=delay, seeds=seeds, limits=limits or SandboxLimits(), always_ask=always_ask,
        examples=dict(examples or {}))
    if progress is not None:
        team.progress = progress
    return team


def _orchestrate(team: Team) -> tuple[list[str], bool]:
    manager = ManagerAgent(team)
    agents = {name: kind(team) for name, kind in AGENT_TYPES.items()}
    manager.start()
    trail: list[str] = []
    for _step in range(MAX_STEPS):
        chosen = manager.next_agent()
        trail.append(chosen)
        if chosen == FINISH:
            return trail, True
        team.progress("manager", f"-> {chosen}", team.rows)
        agents[chosen].run()
    return trail, False


def dataset_warnings(dataset: Path) -> list[str]:
    """A warning for each column of the dataset that is empty in most rows: written, but not silently."""
    if not dataset.is_file():
        return []
    rows = read_rows(dataset)
    columns = [column for column in (rows[0] if rows else {}) if column not in PROVENANCE_COLUMNS]
    return empty_column_warnings(rows, columns)


def _finish(team: Team, ledger: Ledger, trail: list[str], finished: bool, ablation: str,
            seconds: float) -> CollectResult:
    run_dir = team.run_dir
    team.graph.save_jsonl(run_dir / "messages.jsonl")
    ledger.save(run_dir / "ledger.json")
    validation = run_dir / "validation.json"
    valid = validation.is_file() and json.loads(validation.read_text())["ok"]
    totals = ledger.totals()
    result = CollectResult(
        run_dir=run_dir, rows=team.rows, valid=valid, finished=finished, steps=len(trail), llm_calls=totals.calls,
        input_tokens=totals.input_tokens, output_tokens=totals.output_tokens, cost=totals.cost, seconds=seconds,
        messages=len(team.graph.edges), format_rejections=team.formatter.rejections, ablation=ablation, trail=trail,
        read_roots=list(team.seeds.roots), skipped_files=list(team.seeds.skipped),
        warnings=dataset_warnings(run_dir / "dataset.csv"), fields=field_confidence(run_dir / "program.py"))
    (run_dir / "result.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
    write_report(run_dir)
    team.search.close()
    return result
