"""Which way a model method went for each field of ``bench swde`` (issue 47): ``read`` agreed with the
name-only evidence, kept it, or took the model's span; ``choose`` asked the model or not, and why. Counted
per site beside Correct and F1, so a figure shows how often each path was taken."""

from __future__ import annotations

from collections import Counter

from scrapesmith.induce import ScraperSpec, choose_path, read_path


def model_path(method: str, evidence: str) -> str | None:
    """The path a field took under ``method``; None for the methods without a model gate."""
    if method == "read":
        return read_path(evidence)
    if method == "choose":
        return choose_path(evidence)
    return None


def path_counts(spec: ScraperSpec) -> dict[str, int]:
    """How many of the spec's fields took each path."""
    return dict(Counter(p for p in (model_path(spec.method, f.evidence) for f in spec.fields) if p))
