"""A scraper spec's output profile: recorded on its seed pages when it is forged, checked after a run.

The profile (see :mod:`scrapesmith.drift`) keeps each field's value on each seed page, so ``heal`` can find
the same values again on the changed pages. Value kinds are induce's own (:func:`examples.kind_of`), so a
"price" means to drift what it means to the engine that found it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from lxml import etree

from scrapesmith.drift import DriftReport, compare, profile_rows
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.execute import CompiledSpec, FieldResult, normalize_space
from scrapesmith.induce.views import ScraperSpec
from scrapesmith.io import iter_rows


def seed_rows(spec: ScraperSpec, trees: Sequence[etree._Element]) -> list[dict]:
    compiled = CompiledSpec(spec)
    return [compiled.row_from(compiled.extract_tree(tree)) for tree in trees]


def with_profile(spec: ScraperSpec, trees: Sequence[etree._Element]) -> ScraperSpec:
    """``spec`` with the profile of its output on the seed ``trees`` (their values kept for ``heal``, and the
    words its regexes cut away beside them on every seed: :func:`cut_words`)."""
    compiled = CompiledSpec(spec)
    results = [compiled.extract_tree(tree) for tree in trees]
    profile = profile_rows([compiled.row_from(r) for r in results], [f.name for f in spec.fields], kind_of, seed=True)
    for column, spec_field in zip(profile.columns, spec.fields, strict=True):
        if spec_field.post.regex and not spec_field.post.multiple:
            column.cut = cut_words([r[spec_field.name] for r in results])
    return spec.model_copy(update={"profile": profile})


_EDGES = re.compile(r"^\W+|\W+$")
MIN_CUT_LETTERS = 4
"""Words cut away count when they hold this many letters: a word, not a separator or a lone "by"."""


def cut_words(results: Sequence[FieldResult]) -> list[str]:
    """What a single-valued field's regex took off beside its value on every filled seed page alike — the
    template's words ("See All Contributors" after an author), a label — when at least two seeds were filled.
    Text cut away that differs from seed to seed (the year beside a publisher) is data, not kept."""
    shared: set[str] | None = None
    filled = 0
    for result in results:
        if not result.values:
            continue
        value = result.values[0]
        raw = next((normalize_space(r) for r in result.raw if value in normalize_space(r)), None)
        if raw is None:
            return []
        parts = {_EDGES.sub("", part) for part in raw.split(value)}
        parts = {p for p in parts if sum(ch.isalpha() for ch in p) >= MIN_CUT_LETTERS}
        shared = parts if shared is None else shared & parts
        filled += 1
    return sorted(shared) if shared and filled >= 2 else []


def check_rows(spec: ScraperSpec, rows: Iterable[dict]) -> DriftReport:
    """A run's rows against the spec's profile (unchecked when the spec has none)."""
    return compare(spec.profile, rows, kind_of)


def check_dataset(spec: ScraperSpec, dataset: Path) -> DriftReport:
    """The dataset a run wrote, against the spec's profile."""
    if spec.profile is None:
        return compare(None, [], kind_of)
    return check_rows(spec, iter_rows(Path(dataset)))
