"""A scraper spec's output profile: recorded on its seed pages when it is forged, checked after a run.

The profile (see :mod:`scrapesmith.drift`) keeps each field's value on each seed page, so ``heal`` can find
the same values again on the changed pages. Value kinds are induce's own (:func:`examples.kind_of`), so a
"price" means to drift what it means to the engine that found it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from lxml import etree

from scrapesmith.drift import DriftReport, compare, profile_rows
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.execute import CompiledSpec
from scrapesmith.induce.views import ScraperSpec
from scrapesmith.io import iter_rows


def seed_rows(spec: ScraperSpec, trees: Sequence[etree._Element]) -> list[dict]:
    compiled = CompiledSpec(spec)
    return [compiled.row_from(compiled.extract_tree(tree)) for tree in trees]


def with_profile(spec: ScraperSpec, trees: Sequence[etree._Element]) -> ScraperSpec:
    """``spec`` with the profile of its output on the seed ``trees`` (their values kept for ``heal``)."""
    profile = profile_rows(seed_rows(spec, trees), [f.name for f in spec.fields], kind_of, seed=True)
    return spec.model_copy(update={"profile": profile})


def check_rows(spec: ScraperSpec, rows: Iterable[dict]) -> DriftReport:
    """A run's rows against the spec's profile (unchecked when the spec has none)."""
    return compare(spec.profile, rows, kind_of)


def check_dataset(spec: ScraperSpec, dataset: Path) -> DriftReport:
    """The dataset a run wrote, against the spec's profile."""
    if spec.profile is None:
        return compare(None, [], kind_of)
    return check_rows(spec, iter_rows(Path(dataset)))
