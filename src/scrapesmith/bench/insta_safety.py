"""``bench insta-safety``: the safety filter on the labelled development list, overall and per group."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrapesmith.bench.frame import BenchResult
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.safety import SafetyFilter, evaluate_safety_filter, groups, labelled_domains
from scrapesmith.llm import LLM


class UnknownGroup(ScrapesmithError):
    """A ``--group`` that the labelled list does not have."""


def measure_safety(llm: LLM | None, only: list[str] | None = None, per_label: int | None = None,
                   on_case: Callable[[dict[str, Any]], None] | None = None, ask: str = "describe") -> BenchResult:
    """Accuracy, precision and recall (unsafe = positive) overall and per group, recall per unsafe category
    of the list, and the model calls made; ``ask`` is the model's question (``describe`` or ``judge``)."""
    unknown = sorted(set(only or []) - set(groups()))
    if unknown:
        raise UnknownGroup(f"no such group {', '.join(unknown)} (groups: {', '.join(groups())})")
    labelled = labelled_domains(only, per_label)
    safety = evaluate_safety_filter(SafetyFilter(llm, ask=ask), labelled, on_case=on_case)
    summary: dict[str, float | int | str] = {
        "domains": safety.overall.domains, "accuracy": safety.overall.accuracy,
        "precision": safety.overall.precision, "recall": safety.overall.recall,
        "refused": safety.overall.refused, "llm_calls": safety.model_calls,
    }
    ledger = getattr(llm, "ledger", None)
    if ledger is not None:
        totals = ledger.totals()
        summary.update(cache_hits=totals.cache_hits, tokens=totals.input_tokens + totals.output_tokens,
                       model_seconds=totals.latency)
    for group, figures in safety.by_group.items():
        summary.update({f"{group} {key}": value for key, value in figures.model_dump().items()})
    summary.update({f"recall {category}": value for category, value in safety.recall_by_category.items()})
    if safety.model_calls and safety.if_doubt_refuses is not None:
        alternative = safety.if_doubt_refuses
        summary.update({"if doubt refuses: accuracy": alternative.accuracy,
                        "if doubt refuses: precision": alternative.precision,
                        "if doubt refuses: recall": alternative.recall})
    return BenchResult(name="insta-safety", cases=safety.cases, summary=summary,
                       params={"llm": getattr(llm, "name", "none") if llm else "none", "groups": only or groups(),
                               "ask": ask})
