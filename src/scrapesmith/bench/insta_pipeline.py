"""Throughput of the InSTA pipeline on the demo web (``scrapesmith bench insta-pipeline``).

Every demo site is one "site" of the pipeline, or, with ``virtual_sites=N``, N start pages of the demo web
taken round-robin over its sites (each start page is a site of its own: its own landing page, task,
episode and record); each configuration (1, 2, 4 local workers, and Ray) runs them from scratch into its
own output directory, with the same model, caps and politeness. Reported per configuration: sites/hour and
agent steps/s (wall clock, model time included), how the sites ended, how many the judge called a
success, and the second worker's efficiency: the throughput two workers add over one, as a fraction of
one worker's (1.0 = linear). With ``--llm none`` the stages take their heuristic paths (no model time).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scrapesmith.bench.frame import BenchResult
from scrapesmith.insta import PipelineConfig, ResultStore, run_pipeline
from scrapesmith.scale import LocalPoolRunner, RayRunner, Runner
from scrapesmith.sites import serve_sites

THREADS_VARIABLE = "SCRAPESMITH_LLM_THREADS"


@contextmanager
def _threads_per_worker(workers: int) -> Iterator[None]:
    """Share the cores among the workers' embedded models (unless SCRAPESMITH_LLM_THREADS is set already):
    N llama.cpp processes with 2 threads each on 2 cores would oversubscribe them."""
    if THREADS_VARIABLE in os.environ:
        yield
        return
    os.environ[THREADS_VARIABLE] = str(max(1, (os.cpu_count() or 1) // workers))
    try:
        yield
    finally:
        os.environ.pop(THREADS_VARIABLE, None)


def _cached_answers() -> int:
    """Answers in the response cache: the growth over a configuration is how many requests reached the
    model (the rest were replayed from earlier configurations)."""
    from scrapesmith.config import read_settings
    from scrapesmith.llm import CACHE_FILE_NAME, ResponseCache

    cache = ResponseCache(read_settings().cache_dir / CACHE_FILE_NAME)
    try:
        return len(cache)
    finally:
        cache.close()


def virtual_site_paths(paths_by_site: dict[str, list[str]], count: int) -> list[str]:
    """``count`` distinct HTML start pages, round-robin over the sites (landing pages first)."""
    pages = {site: [path for path in paths if not path.endswith((".js", ".json", ".pdf", ".xml", ".csv"))]
             for site, paths in paths_by_site.items()}
    chosen: list[str] = []
    for index in range(max((len(paths) for paths in pages.values()), default=0)):
        for paths in pages.values():
            if index < len(paths) and len(chosen) < count:
                chosen.append(paths[index])
    return chosen


def second_worker_efficiency(cases: list[dict[str, Any]]) -> None:
    """Add ``second_worker_efficiency`` to each 2-worker case that has a 1-worker case on the same backend."""
    for case in cases:
        if case["workers"] != 2:
            continue
        one = next((c for c in cases if c["backend"] == case["backend"] and c["workers"] == 1), None)
        if one and one["sites_per_hour"]:
            case["second_worker_efficiency"] = round(case["sites_per_hour"] / one["sites_per_hour"] - 1.0, 3)


def _runner(kind: str, workers: int) -> Runner:
    return RayRunner(num_cpus=workers) if kind == "ray" else LocalPoolRunner(workers)


def measure_throughput(
    llm_spec: str, worker_counts: list[int], backends: list[str], max_actions: int = 5,
    site_timeout: float = 300.0, limit: int | None = None, out_dir: Path | None = None, llm_cache: bool = True,
    reasoning_words: int = 50, virtual_sites: int | None = None, policy: str = "candidates",
    judge_kind: str = "evidence", port: int = 0,
) -> BenchResult:
    """Run every configuration on the demo sites (proposer sampling seeded, so every configuration sends the
    same requests). With ``llm_cache`` off every request reaches the model; with it on, the first
    configuration's answers are replayed by the later ones, which then measure the pipeline itself
    (browser, orchestration, storage) with model time near zero; ``model_calls`` says which is which."""
    cases: list[dict[str, Any]] = []
    root = Path(out_dir or tempfile.mkdtemp(prefix="insta-bench-"))
    with serve_sites(port=port) as server:
        if virtual_sites:
            paths = virtual_site_paths({name: server.sites.urls(name) for name in server.sites.site_names},
                                       virtual_sites)
            sites = [server.url(path) for path in paths][:limit]
        else:
            sites = [server.url(f"/{name}/") for name in server.sites.site_names][:limit]
        config = PipelineConfig(llm_spec=llm_spec, max_actions=max_actions, site_wall_time=site_timeout,
                                allow_hosts=("127.0.0.1",), politeness_delay=0.0,
                                reasoning_words=reasoning_words, llm_cache=llm_cache, seed=0,
                                policy=policy, judge_kind=judge_kind)
        no_model = llm_spec.strip().lower() == "none"
        for backend in backends:
            for workers in worker_counts:
                cached_before = _cached_answers() if llm_cache and not no_model else 0
                with _threads_per_worker(workers):
                    runner = _runner(backend, workers)
                    store = ResultStore(root / f"{backend}-{workers}")
                    try:
                        summary = run_pipeline(sites, store, runner, config)
                    finally:
                        runner.close()
                judged = sum(1 for result in store.latest().values()
                             if result.judgement is not None and result.judgement.succeeded)
                cases.append({"backend": backend, "workers": workers, "sites": len(sites), "ok": summary.ok,
                              "unsafe": summary.unsafe, "failed": summary.failed, "steps": summary.steps,
                              "seconds": round(summary.seconds, 1),
                              "sites_per_hour": round(summary.sites_per_hour, 2),
                              "steps_per_s": round(summary.steps_per_second, 4),
                              "judged_success": judged,
                              "model_calls": 0 if no_model else (_cached_answers() - cached_before if llm_cache
                                                                 else None)})
    second_worker_efficiency(cases)
    best = max(cases, key=lambda case: case["sites_per_hour"]) if cases else {}
    summary_row = {"configurations": len(cases), "sites": len(sites),
                   "best_sites_per_hour": best.get("sites_per_hour", 0.0),
                   "best_configuration": f"{best.get('backend')}x{best.get('workers')}" if best else ""}
    return BenchResult(name="insta-pipeline", summary=summary_row, cases=cases,
                       params={"llm": llm_spec, "max_actions": max_actions, "out": str(root),
                               "llm_cache": llm_cache, "reasoning_words": reasoning_words, "policy": policy,
                               "judge_kind": judge_kind, "virtual_sites": virtual_sites, "port": port})
