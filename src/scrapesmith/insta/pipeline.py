"""The InSTA pipeline for one site and for a list of sites: filter -> propose -> run -> judge -> refine.

The safety filter (:mod:`scrapesmith.insta.safety`) reads the domain and the landing page before the
proposer sees the site; a refused site is recorded ``unsafe`` with the filter's verdict and reason, and
no agent is sent. The summary counts refusals per category.

``process_site`` runs inside a worker (a pool process or a Ray task) and never raises: every failure
(unreachable site, robots refusal, browser crash, unreadable model output) becomes a ``failed``
:class:`SiteResult` with its reason, so one bad site never stops a run. Each worker keeps one model and
one browser for all the sites it handles. ``run_pipeline`` is the thin orchestration: skip the sites
already recorded, fan the rest out through a :class:`Runner`, append each result to the sharded store
as it arrives, and summarise.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapesmith.dom import parse_html
from scrapesmith.insta.agent import MAX_ACTIONS
from scrapesmith.insta.chooser import make_policy
from scrapesmith.insta.env import OBSERVATION_TOKENS, BrowserEnv
from scrapesmith.insta.episode import EpisodeBudget, run_within_budget
from scrapesmith.insta.evidence_judge import make_judge
from scrapesmith.insta.explore import EXPLORE_PAGES, Exploration, explore
from scrapesmith.insta.goal_judge import GoalJudge
from scrapesmith.insta.goals import site_goals
from scrapesmith.insta.propose import LandingPage, Proposer
from scrapesmith.insta.propose_site import SiteProposer, SiteProposerConfig
from scrapesmith.insta.safety import (
    LandingSnapshot,
    SafetyFilter,
    corroborate,
    snapshot_failure,
    snapshot_page,
)
from scrapesmith.insta.safety.classifier import calls_so_far
from scrapesmith.insta.safety.landing import is_evidence_failure
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import SiteResult, SiteTask
from scrapesmith.llm import LLM
from scrapesmith.report import write_report
from scrapesmith.scale import Runner, WorkerDied
from scrapesmith.web import FetchError

LLMFactory = Callable[[], LLM]


@dataclass(frozen=True)
class PipelineConfig:
    """Caps and politeness for every site; picklable, so it travels to pool and Ray workers."""

    llm_spec: str | None = None
    llm_cache: bool = True
    max_actions: int = MAX_ACTIONS
    site_wall_time: float = 600.0
    observation_tokens: int = OBSERVATION_TOKENS
    reasoning_words: int = 200
    refine: bool = True
    allow_hosts: tuple[str, ...] = ()
    respect_robots: bool = True
    politeness_delay: float | None = None
    seed: int | None = None
    screenshots_dir: str | None = None
    policy: str = "candidates"
    judge_kind: str = "evidence"
    explore_pages: int = EXPLORE_PAGES
    free_form: bool = False
    tasks_per_site: int = 1

    @property
    def needs_model(self) -> bool:
        """The seed's agent and judge need a model; the candidate policy and the evidence judge do not."""
        return self.policy == "paper" or self.judge_kind == "paper"


@dataclass(frozen=True)
class SiteJob:
    url: str
    config: PipelineConfig
    llm_factory: LLMFactory | None = None


def normalise_site(line: str) -> str:
    site = line.strip()
    return site if "://" in site else f"https://{site}"


def site_label(url: str) -> str:
    """What the proposer is told: the domain, plus the path when a site lives under one (demo web)."""
    parts = urlsplit(url)
    return (parts.netloc + parts.path).rstrip("/")


def read_sites(lines: Iterable[str]) -> list[str]:
    """Site URLs from a sites.txt (one per line, ``#`` comments), normalised and de-duplicated in order."""
    seen: dict[str, None] = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            seen.setdefault(normalise_site(line), None)
    return list(seen)


# -- inside a worker ---------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def reset_worker() -> None:
    """Forget this process's model, fetcher and browser (an in-process run that follows another, e.g. a
    benchmark's next seed, starts afresh)."""
    runtime = _WORKER.pop("runtime", None)
    if runtime is not None:
        runtime.close()
    http = _WORKER.pop("http", None)
    if http is not None and hasattr(http, "close"):
        http.close()
    _WORKER.clear()


def _worker_llm(job: SiteJob) -> LLM | None:
    """The worker's model; ``None`` (``--llm none``) only where every stage has a heuristic path."""
    if "llm" not in _WORKER:
        if job.llm_factory is not None:
            _WORKER["llm"] = job.llm_factory()
        else:
            from scrapesmith.llm import require_llm, resolve_llm

            llm = resolve_llm(job.config.llm_spec, cache=job.config.llm_cache)
            _WORKER["llm"] = require_llm(llm, "the paper policy or judge") \
                if job.config.needs_model else llm
    return _WORKER["llm"]


def _worker_http(config: PipelineConfig) -> Any:
    """One HTTP fetcher per worker: robots.txt cache and per-host politeness shared by all its sites."""
    if "http" not in _WORKER:
        from scrapesmith.web import HttpFetcher

        _WORKER["http"] = HttpFetcher(allow_hosts=list(config.allow_hosts), respect_robots=config.respect_robots,
                                      delay=config.politeness_delay)
    return _WORKER["http"]


def _worker_runtime(config: PipelineConfig) -> Any:
    """One browser per worker, started on the first safe site, under the fetcher's rules."""
    if "runtime" not in _WORKER:
        from scrapesmith.web.browser import BrowserPolicy, BrowserRuntime

        _WORKER["runtime"] = BrowserRuntime(policy=BrowserPolicy.from_http(_worker_http(config))).start()
    return _WORKER["runtime"]


def landing_snapshot(http: Any, url: str) -> tuple[LandingSnapshot, FetchError | None, Any]:
    """The landing page as the filter reads it, and the page itself (the explorer starts there); a failure
    that says something about the host (a type that is not a document, an HTTP error) becomes evidence, any
    other failure is raised."""
    try:
        page = http.fetch(url)
    except FetchError as exc:
        if not is_evidence_failure(exc):
            raise
        return snapshot_failure(url, exc), exc, None
    return snapshot_page(page), None, page


def landing_links(page: Any) -> tuple[str, ...]:
    if page is None or not page.is_html:
        return ()
    tree = parse_html(page.text, url=page.url)
    texts = (" ".join(a.text_content().split()) for a in tree.iter("a") if a.get("href"))
    return tuple(text for text in dict.fromkeys(texts) if text)


def read_site(job: SiteJob, llm: LLM | None, result: SiteResult) -> tuple[Any, Exploration | None]:
    """The landing page, the filter's verdict, and — unless the evidence alone refused the site — a few pages
    reached from it, against which a refusal is checked (``safety.corroborate``)."""
    config = job.config
    landing, failure, page = landing_snapshot(_worker_http(config), job.url)
    result.safety = SafetyFilter(llm).classify(site_label(job.url), landing)
    exploration = None
    if page is not None and page.is_html and result.safety.decided_by != "evidence":
        exploration = explore(_worker_http(config), page, max_pages=config.explore_pages,
                              rng=random.Random(config.seed))
    pages = [landing] + [snapshot_page(read.page) for read in (exploration.pages if exploration else [])]
    result.safety = corroborate(result.safety, pages)
    if failure is not None and not result.safety.unsafe:
        raise failure
    return page, exploration


def process_site(job: SiteJob) -> SiteResult:
    """Propose, run, judge and refine for one site; failures come back as a ``failed`` result."""
    started = time.monotonic()
    result = SiteResult(site=job.url, url=job.url, status="failed", worker=f"{os.uname().nodename}:{os.getpid()}")
    llm = None
    calls_before = 0
    try:
        llm = _worker_llm(job)
        calls_before = calls_so_far(llm)
        _run_stages(job, llm, result)
    except Exception as exc:  # noqa: BLE001 - a site's failure is recorded, the run goes on
        result.status = "failed"
        result.error = f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    result.seconds = time.monotonic() - started
    result.llm_calls = calls_so_far(llm) - calls_before if llm is not None else 0
    return result


def _run_stages(job: SiteJob, llm: LLM | None, result: SiteResult) -> None:
    config = job.config
    label = site_label(job.url)
    page, exploration = read_site(job, llm, result)
    if result.safety.unsafe:
        result.status = "unsafe"
        return
    landing = snapshot_page(page)
    proposer = Proposer(llm, seed=config.seed)
    pages_read = [read.url for read in exploration.all_pages] if exploration else [page.url]
    proposals = SiteProposer(proposer, SiteProposerConfig(free_form=config.free_form)).propose_tasks(
        label, LandingPage(title=landing.title, text=landing.text, links=landing_links(page)),
        site_goals(exploration) if exploration else [], pages_read, count=config.tasks_per_site)
    result.proposal = proposals[0]
    if not result.proposal.is_safe:
        result.status = "unsafe"
        return
    agent = make_policy(config.policy, llm, reasoning_words=config.reasoning_words)
    for number, proposal in enumerate(proposals):
        started = time.monotonic()
        task = SiteTask(proposal=proposal)
        task.trajectory, task.judgement = _episode(job, llm, agent, proposal, label if not number
                                                   else f"{label}-task{number + 1}")
        if config.refine and llm is not None:
            task.refined = proposer.refine(label, task.trajectory.task, task.trajectory, task.judgement)
        task.seconds = time.monotonic() - started
        if number == 0:
            result.trajectory, result.judgement, result.refined = task.trajectory, task.judgement, task.refined
        else:
            result.more_tasks.append(task)
    result.status = "ok"


def _episode(job: SiteJob, llm: LLM | None, agent: Any, proposal: Any, folder: str) -> tuple[Any, Any]:
    """One task's episode from the site's landing page within the budget, and the judge's verdict on it."""
    from scrapesmith.web.browser import BrowserSession

    config = job.config
    budget = EpisodeBudget(max_actions=config.max_actions, wall_time=config.site_wall_time)
    with BrowserSession(_worker_runtime(config)) as session:
        shots = Path(config.screenshots_dir) if config.screenshots_dir else None
        env = BrowserEnv(session, max_tokens=config.observation_tokens,
                         screenshots=shots / _folder_name(folder) if shots else None,
                         relative_to=shots.parent if shots else None)
        trajectory = run_within_budget(env, agent, proposal.task or "", job.url, budget)
    goal = proposal.goal
    judgement = GoalJudge().judge(trajectory.task, trajectory, goal) \
        if goal is not None and config.judge_kind == "evidence" else \
        make_judge(config.judge_kind, llm).judge(trajectory.task, trajectory)
    return trajectory, judgement


def _folder_name(label: str) -> str:
    return re.sub(r"[^\w.-]+", "_", label).strip("_") or "site"


# -- orchestration -----------------------------------------------------------------------------------------


@dataclass
class RunSummary:
    sites: int = 0
    skipped: int = 0
    ok: int = 0
    unsafe: int = 0
    failed: int = 0
    steps: int = 0
    seconds: float = 0.0
    runner: str = ""
    workers: int = 0
    errors: dict[str, str] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)

    @property
    def sites_per_hour(self) -> float:
        return 3600.0 * (self.ok + self.unsafe + self.failed) / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def run_pipeline(
    sites: list[str],
    store: ResultStore,
    runner: Runner,
    config: PipelineConfig,
    llm_factory: LLMFactory | None = None,
    retry_failed: bool = False,
    on_result: Callable[[SiteResult], None] | None = None,
) -> RunSummary:
    """Process every site not yet recorded in ``store``; resumable after a crash at any point."""
    done = store.finished(retry_failed=retry_failed)
    todo = [site for site in sites if site not in done]
    summary = RunSummary(sites=len(sites), skipped=len(sites) - len(todo), runner=runner.name,
                         workers=runner.workers)
    started = time.monotonic()
    jobs = [SiteJob(url=site, config=config, llm_factory=llm_factory) for site in todo]
    for job, outcome in runner.map_unordered(process_site, jobs):
        result = outcome if isinstance(outcome, SiteResult) else SiteResult(
            site=job.url, url=job.url, status="failed", error=_died(outcome))
        store.append(result)
        _count(summary, result)
        if on_result is not None:
            on_result(result)
    summary.seconds = time.monotonic() - started
    store.write_parquet()
    write_report(store.out_dir)
    return summary


def _died(outcome: object) -> str:
    return outcome.detail if isinstance(outcome, WorkerDied) else f"unexpected worker result {outcome!r}"


def _count(summary: RunSummary, result: SiteResult) -> None:
    setattr(summary, result.status, getattr(summary, result.status) + 1)
    summary.steps += sum(len(one.trajectory.steps) for one in result.per_task() if one.trajectory is not None)
    if result.error:
        summary.errors[result.site] = result.error
    if result.safety is not None and result.safety.unsafe:
        summary.refused[result.safety.category] = summary.refused.get(result.safety.category, 0) + 1
