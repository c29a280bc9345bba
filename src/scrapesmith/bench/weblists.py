"""WebLists-style benchmark (BardeenAgent paper, section 2) on the demo company sites.

Four use cases per company site — jobs, jobs of one category (a filter must be applied), blog posts,
testimonials — each a goal, a start URL and a schema with a URL column and a text column. The agent's
table is scored as the paper does: rows are matched to ground truth on the URL column with query
parameters (and fragments, scheme and host) dropped; precision = matched predicted rows / predicted rows,
recall = matched truth rows / truth rows. A second table requires the text column to match exactly
(whitespace normalised) as well. Cost per correct row comes from the LLM ledger.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from scrapesmith.bench.frame import BenchResult
from scrapesmith.dom import normalize_text
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists import RuntimeFactory, extract_list
from scrapesmith.llm import LLM, Ledger, use_ledger

COMPANY_SITES = ("acme", "globex", "northwind")
USE_CASES = ("jobs", "category", "blog", "testimonials")


@dataclass(frozen=True)
class ListTask:
    site: str
    use_case: str
    start_path: str
    goal: str
    url_column: str
    text_column: str
    truth: list[dict[str, str]]

    @property
    def columns(self) -> list[str]:
        return [self.text_column, self.url_column]


def tasks_for(site: str, truth: dict[str, Any]) -> list[ListTask]:
    """The four use cases of one company site, with their ground-truth rows (text, url)."""
    jobs = [{"text": j["title"], "url": j["url"]} for j in truth["jobs"]]
    category = _busiest_category(truth)
    in_category = [{"text": j["title"], "url": j["url"]} for j in truth["jobs"] if j["category"] == category]
    posts = [{"text": p["title"], "url": p["url"]} for p in truth["posts"]]
    people = [{"text": t["name"], "url": t["url"]} for t in truth["testimonials"]]
    careers = truth["careers"]["url"]
    return [
        ListTask(site, "jobs", careers, "Extract all open job postings", "Job URL", "Job Title", jobs),
        ListTask(
            site,
            "category",
            careers,
            f"Extract all open {category} job postings",
            "Job URL",
            "Job Title",
            in_category,
        ),
        ListTask(
            site, "blog", truth["blog"]["url"], "Extract all blog posts", "Post URL", "Post Title", posts
        ),
        ListTask(
            site,
            "testimonials",
            truth["testimonials_url"],
            "Extract all customer testimonials",
            "Story URL",
            "Customer Name",
            people,
        ),
    ]


def _busiest_category(truth: dict[str, Any]) -> str:
    counts = {c: sum(1 for j in truth["jobs"] if j["category"] == c) for c in truth["categories"]}
    return max(sorted(counts), key=lambda c: counts[c])


def url_key(url: str) -> str:
    """What two URLs must share to be the same row: the path, without scheme, host, query or fragment."""
    path = urlsplit((url or "").strip()).path
    return path.rstrip("/") or "/"


def score_rows(predicted: list[dict[str, str]], truth: list[dict[str, str]]) -> dict[str, float]:
    """URL-matched and URL+text-matched precision/recall, as in the paper's two tables."""
    truth_urls = {url_key(row["url"]): normalize_text(row["text"]) for row in truth}
    predicted_urls = [url_key(row.get("url", "")) for row in predicted]
    url_hits = [key in truth_urls for key in predicted_urls]
    text_hits = [
        hit and normalize_text(row.get("text", "")) == truth_urls[key]
        for hit, key, row in zip(url_hits, predicted_urls, predicted)
    ]
    found = {key for key, hit in zip(predicted_urls, url_hits) if hit}
    found_text = {key for key, hit in zip(predicted_urls, text_hits) if hit}

    def ratio(part: float, whole: int) -> float:
        return part / whole if whole else (1.0 if not truth else 0.0)

    return {
        "precision": ratio(sum(url_hits), len(predicted)),
        "recall": ratio(len(found), len(truth_urls)),
        "text_precision": ratio(sum(text_hits), len(predicted)),
        "text_recall": ratio(len(found_text), len(truth_urls)),
        "correct_rows": len(found),
    }


def run_task(task: ListTask, base_url: str, make_runtime: RuntimeFactory, llm: LLM | None) -> dict[str, Any]:
    """Record and replay one task; a failure scores zero and is kept in the case's ``error``."""
    ledger = Ledger()
    case: dict[str, Any] = {"site": task.site, "use_case": task.use_case, "truth_rows": len(task.truth)}
    started = time.perf_counter()
    try:
        with use_ledger(ledger):
            recording, result = extract_list(
                make_runtime, base_url + task.start_path, task.goal, task.columns, llm
            )
        predicted = [
            {"text": row.get(task.text_column, ""), "url": row.get(task.url_column, "")}
            for row in result.rows
        ]
        case.update(
            score_rows(predicted, task.truth),
            rows=len(predicted),
            pages=result.pages,
            replay_seconds=result.seconds,
            rows_per_s=result.rows_per_s,
            program=recording.program.program_id,
        )
    except ScrapesmithError as exc:
        case.update(
            score_rows([], task.truth),
            rows=0,
            pages=0,
            replay_seconds=0.0,
            rows_per_s=0.0,
            error=str(exc)[:200],
        )
    totals = ledger.totals()
    case.update(
        seconds=time.perf_counter() - started,
        llm_calls=totals.calls,
        tokens=totals.input_tokens + totals.output_tokens,
        cost=totals.cost,
        cost_per_correct_row=totals.cost / case["correct_rows"] if case["correct_rows"] else 0.0,
    )
    return case


def run_weblists(
    base_url: str,
    truths: dict[str, dict[str, Any]],
    make_runtime: RuntimeFactory,
    llm: LLM | None = None,
    sites: tuple[str, ...] = COMPANY_SITES,
    use_cases: tuple[str, ...] = USE_CASES,
    progress: Callable[[str], None] | None = None,
) -> BenchResult:
    cases = []
    for site in sites:
        for task in tasks_for(site, truths[site]):
            if task.use_case in use_cases:
                cases.append(run_task(task, base_url, make_runtime, llm))
                if progress:
                    progress(f"{site}/{task.use_case}")
    return BenchResult(
        name="weblists",
        summary=summarize(cases),
        cases=cases,
        params={"llm": getattr(llm, "name", "none"), "sites": list(sites)},
    )


def summarize(cases: list[dict[str, Any]]) -> dict[str, float | int | str]:
    def mean(key: str, rows: list[dict[str, Any]]) -> float:
        return sum(float(row[key]) for row in rows) / len(rows) if rows else 0.0

    summary: dict[str, float | int | str] = {}
    for use_case in USE_CASES:
        rows = [case for case in cases if case["use_case"] == use_case]
        if rows:
            summary[f"{use_case}_precision"] = mean("precision", rows)
            summary[f"{use_case}_recall"] = mean("recall", rows)
    replayed = [case for case in cases if case.get("rows")]
    summary.update(
        precision=mean("precision", cases),
        recall=mean("recall", cases),
        text_precision=mean("text_precision", cases),
        text_recall=mean("text_recall", cases),
        rows_per_s=sum(c["rows"] for c in replayed) / max(sum(c["replay_seconds"] for c in replayed), 1e-9),
        llm_calls=sum(int(case["llm_calls"]) for case in cases),
        llm_calls_per_list=mean("llm_calls", cases),
        cost=sum(float(case["cost"]) for case in cases),
        errors=sum(1 for case in cases if "error" in case),
    )
    correct = sum(int(case["correct_rows"]) for case in cases)
    summary["cost_per_correct_row"] = float(summary["cost"]) / correct if correct else 0.0
    return summary
