"""The labelled development list and the filter's accuracy, precision and recall (unsafe = positive).

The list holds the issue's 100 domains (group ``issue-100``: the seed's 50 safe sites and 50 unsafe ones
by category) and hard benign sites whose names hold risky words (group ``hard-benign``), so precision
is measured, not only recall. Figures are given overall and per group.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, Field

from scrapesmith.insta.safety.classifier import SafetyFilter


@cache
def _rows() -> tuple[dict[str, str], ...]:
    text = resources.files("scrapesmith.insta").joinpath("data", "safety_domains.json").read_text(encoding="utf-8")
    return tuple(json.loads(text))


def groups() -> list[str]:
    return list(dict.fromkeys(row["group"] for row in _rows()))


def labelled_domains(only: list[str] | None = None, per_label: int | None = None) -> list[dict[str, str]]:
    """Labelled domains, optionally of some groups only; ``per_label`` keeps the first N of each label
    (unsafe ones taken round-robin over their categories, so a short run still sees every category)."""
    rows = [dict(row) for row in _rows() if not only or row["group"] in only]
    if per_label is None:
        return rows
    safe = [row for row in rows if row["label"] == "safe"][:per_label]
    unsafe = [row for row in rows if row["label"] == "unsafe"]
    rank = {id(row): [r for r in unsafe if r["category"] == row["category"]].index(row) for row in unsafe}
    return safe + sorted(unsafe, key=lambda row: rank[id(row)])[:per_label]


class Scores(BaseModel):
    domains: int
    accuracy: float
    precision: float
    recall: float
    refused: int


class SafetyReport(BaseModel):
    overall: Scores
    by_group: dict[str, Scores] = Field(default_factory=dict)
    recall_by_category: dict[str, float] = Field(default_factory=dict, description="unsafe categories of the list")
    if_doubt_refuses: Scores | None = Field(default=None, description="the same run had doubt refused sites")
    model_calls: int = 0
    cases: list[dict[str, Any]] = Field(default_factory=list)


def scores(cases: list[dict[str, Any]]) -> Scores:
    """Accuracy, precision and recall with ``unsafe`` as the positive class (the seed's Table 1)."""
    positives = [case for case in cases if case["label"] == "unsafe"]
    flagged = [case for case in cases if case["flagged"]]
    true_positives = sum(1 for case in flagged if case["label"] == "unsafe")
    return Scores(
        domains=len(cases),
        accuracy=sum(case["correct"] for case in cases) / len(cases) if cases else 0.0,
        precision=true_positives / len(flagged) if flagged else 0.0,
        recall=true_positives / len(positives) if positives else 0.0,
        refused=len(flagged),
    )


def evaluate_safety_filter(
    safety: SafetyFilter, labelled: list[dict[str, str]], on_case: Callable[[dict[str, Any]], None] | None = None
) -> SafetyReport:
    """Classify each labelled domain by its name alone (the seed's benchmark shows no page)."""
    cases = []
    for row in labelled:
        verdict = safety.classify(row["domain"])
        cases.append({**row, "flagged": verdict.unsafe, "verdict_category": verdict.category,
                      "decided_by": verdict.decided_by, "evidence_status": verdict.evidence_status,
                      "model_unsafe": None if verdict.model is None and verdict.description is None else verdict.unsafe,
                      "model_kind": None if verdict.description is None else verdict.description.kind,
                      "model_what": None if verdict.description is None else verdict.description.what,
                      "reason": verdict.reason, "model_calls": verdict.model_calls,
                      "error": verdict.error, "correct": verdict.unsafe == (row["label"] == "unsafe")})
        if on_case is not None:
            on_case(cases[-1])
    by_group = {group: scores([case for case in cases if case["group"] == group])
                for group in dict.fromkeys(case["group"] for case in cases)}
    unsafe = [case for case in cases if case["label"] == "unsafe"]
    recall = {category: sum(case["flagged"] for case in unsafe if case["category"] == category)
              / sum(1 for case in unsafe if case["category"] == category)
              for category in dict.fromkeys(case["category"] for case in unsafe)}
    return SafetyReport(overall=scores(cases), by_group=by_group, recall_by_category=recall,
                        if_doubt_refuses=scores([doubt_refuses(case) for case in cases]),
                        model_calls=sum(case["model_calls"] for case in cases), cases=cases)


def doubt_refuses(case: dict[str, Any]) -> dict[str, Any]:
    """The case as ``SafetyFilter(settle_doubt=False)`` would have decided it: doubtful sites refused
    whatever the model said; so one run with the model gives the figures of both policies."""
    flagged = case["flagged"] or case["evidence_status"] == "doubtful"
    return {**case, "flagged": flagged, "correct": flagged == (case["label"] == "unsafe")}
