"""``heal``: mend a scraper spec whose site changed, from the seed values its profile kept. No model.

A spec forged with a profile remembers what each field read on each seed page. On the seed pages as they
are now, a field is *broken* when its seed value is still on a page but the old selector no longer gives
it. Each broken field is found again by the same engine that learns a field from an example
(:func:`examples.example_candidates`: the value's element, its label, its stable classes), with every seed
value as an example on its own page, plus what a redesign leaves of the old selector: its conditions on its
nodes, its label spellings, a label now after its value, a field's several values as like siblings. The
candidate that gives back the seed values on the most pages, with the strongest anchor and the shortest path,
wins. A field whose seed values are no longer on any page is
left as it was and said so (the evidence is gone; a model would have to guess).

The result is a new version of the spec (the old one is never overwritten) with a diff of its selectors
and a validation: the new spec's output on the pages checked against the old profile.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from lxml import etree

from scrapesmith.drift import ColumnProfile, DriftReport, compare
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.execute import (
    XPathSyntaxError,
    normalize_space,
    parse_for_replay,
    post_process,
    run_actions,
)
from scrapesmith.induce.heal_candidates import heal_candidates, label_step
from scrapesmith.induce.heal_evidence import relocate_by_evidence
from scrapesmith.induce.profile import seed_rows
from scrapesmith.induce.scope import with_scope
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec
from scrapesmith.llm import LLM
from scrapesmith.web import FetchError, Page

_VERSION = re.compile(r"\.v(\d+)$")
SEVERAL = 0.7
"""A selector that reads several values where the field had one is worth this much of one that reads one."""
MAX_PARTS = 4
"""A multi-valued field is re-found one value at a time only when it had at most this many values a page."""


class HealError(ScrapesmithError):
    """A spec that cannot be healed (no profile, no pages)."""


@dataclass(frozen=True)
class EvidenceHeal:
    """Heal fields whose seed values are gone by the evidence (``llm`` None: the evidence's best alone)."""

    llm: LLM | None = None


@dataclass
class FieldHeal:
    """What happened to one field: kept (still reads its seed values), healed (new selector), or not."""

    name: str
    outcome: Literal["kept", "healed", "lost"]
    before: list[str]
    after: list[str]
    detail: str = ""


@dataclass
class HealResult:
    spec: ScraperSpec
    fields: list[FieldHeal] = field(default_factory=list)
    validation: DriftReport | None = None
    pages: str = "the pages given"
    """Which pages it healed on, for what is printed: a run's archive, pages named, or the seeds again."""
    drifted: bool = True
    """Whether the old spec's output on those pages drifted from its profile (else they need no healing)."""
    from_seeds: bool = False
    """Healed on the spec's own seeds, read again, as no changed pages were named."""

    @property
    def healed(self) -> list[str]:
        return [f.name for f in self.fields if f.outcome == "healed"]

    @property
    def lost(self) -> list[str]:
        return [f.name for f in self.fields if f.outcome == "lost"]

    def diff(self) -> list[str]:
        """The selector changes, one readable line each (``-`` old, ``+`` new)."""
        lines = []
        for heal in self.fields:
            if heal.outcome == "healed":
                lines += [f"{heal.name}: ({heal.detail})" if heal.detail else f"{heal.name}:",
                          f"- {' ⟶ '.join(heal.before)}", f"+ {' ⟶ '.join(heal.after)}"]
            elif heal.outcome == "lost":
                lines.append(f"{heal.name}: not healed ({heal.detail})")
        return lines


SeedValues = Sequence[Sequence[str]]
"""Per seed page, the values a field read there (one for a single-valued field, none when it read nothing)."""


def _values(root: etree._Element, actions: list[str], post: PostProcess) -> list[str]:
    try:
        return post_process(run_actions(root, actions), post)
    except XPathSyntaxError:
        return []


def _gives(spec_field: FieldSpec, got: list[str], want: Sequence[str]) -> bool:
    """A field's values on a page are its seed values there: the first one for a single-valued field, all of
    them in any order for a multi-valued one (a redesign may list a movie's genres the other way round)."""
    return sorted(got) == sorted(want) if spec_field.post.multiple else got[:1] == list(want[:1])


def _present(root: etree._Element, values: Sequence[str]) -> bool:
    text = normalize_space(" ".join(root.itertext()))
    return bool(values) and all(value in text for value in values)


def _pairs(pages: Sequence[etree._Element], seeds: SeedValues) -> list[tuple[etree._Element, Sequence[str]]]:
    """The pages on which the field's seed values still are, each with those values."""
    return [(root, values) for root, values in zip(pages, seeds, strict=False) if _present(root, values)]


def _relocate(spec_field: FieldSpec, seeds: SeedValues, pages: Sequence[etree._Element]) -> tuple[FieldSpec, int] | None:
    """The field with the selector that gives back its seed values on most pages, one value each where it
    had one, with the strongest anchor and the shortest path (as :func:`examples.generalise` ranks); and on
    how many pages it did."""
    pairs = _pairs(pages, seeds)
    scored = []
    for candidate, weight in heal_candidates(spec_field, pairs):
        post = spec_field.post.model_copy(update={"regex": candidate.regex})
        results = [_values(root, [candidate.xpath], post) for root, _ in pairs]
        hits = sum(_gives(spec_field, got, want) for got, (_, want) in zip(results, pairs, strict=True))
        if hits:
            single = 1.0 if spec_field.post.multiple or all(len(got) <= 1 for got in results) else SEVERAL
            score = round(hits / len(pairs) * candidate.prior * single * weight, 6)
            scored.append((-score, len(candidate.xpath), candidate.xpath, str(candidate.regex), candidate, hits))
    if not scored:
        return None
    *_, best, hits = min(scored)
    post = spec_field.post.model_copy(update={"regex": best.regex})
    return spec_field.model_copy(update={
        "actions": [best.xpath], "post": post,
        "evidence": f"healed: seed values found again on {hits} of {len(pairs)} pages via {best.evidence}"}), hits


def _relocate_parts(spec_field: FieldSpec, pairs: Sequence[tuple[etree._Element, Sequence[str]]],
                    ) -> tuple[FieldSpec, int] | None:
    """A multi-valued field whose values sit in separate places (a car's city mileage in one row, its highway
    mileage in another: the forged selector was a union), re-found one value at a time: per position, the
    candidate that gives exactly that value on most pages; the field is their union. Only where every seed
    page had the same number of values, so that a position means the same thing on each."""
    counts = {len(values) for _, values in pairs}
    if not spec_field.post.multiple or len(counts) != 1 or not 1 < (count := counts.pop()) <= MAX_PARTS:
        return None
    single = spec_field.post.model_copy(update={"multiple": False})
    parts = []
    for position in range(count):
        part = spec_field.model_copy(update={"post": single})
        found = _relocate(part, [[values[position]] for _, values in pairs], [root for root, _ in pairs])
        if found is None or found[0].post.regex != spec_field.post.regex:
            return None
        parts.append(found[0].actions[0])
    union = " | ".join(dict.fromkeys(parts))
    hits = sum(_gives(spec_field, _values(root, [union], spec_field.post), want) for root, want in pairs)
    return spec_field.model_copy(update={
        "actions": [union], "evidence": f"healed: seed values found again on {hits} of {len(pairs)} pages, "
                                        f"one value at a time"}), hits


def _anchored(xpath: str) -> bool:
    """A selector tied to something on the page beyond tags and positions: a label, an attribute, a text."""
    return "@" in xpath or "normalize-space(" in xpath or "contains(" in xpath or "starts-with(" in xpath


def _reanchored(spec_field: FieldSpec, seeds: SeedValues, pages: Sequence[etree._Element],
                seed_pages: int) -> tuple[FieldSpec, FieldHeal]:
    """A field that still reads its seed values is kept — unless its selector has no anchor (``//b``: the
    first bold text) and a label now gives every seed value back. A redesign that moved blocks can leave such
    a selector right on the seed pages and wrong wherever another node of its tag now comes first; its label
    moves with the value."""
    kept = spec_field, FieldHeal(spec_field.name, "kept", spec_field.actions, spec_field.actions)
    if any(_anchored(action) for action in spec_field.actions):
        return kept
    found = _relocate(spec_field, seeds, pages)
    if found is None or found[1] < seed_pages or label_step(found[0].actions[-1]) is None:
        return kept
    healed = found[0]
    return healed, FieldHeal(spec_field.name, "healed", spec_field.actions, healed.actions,
                             "re-anchored on its label: the old selector still read the seed values, by tag alone")


def _heal_field(spec_field: FieldSpec, column: ColumnProfile | None, pages: Sequence[etree._Element],
                evidence: EvidenceHeal | None, drifted: bool, seed_pages: int,
                any_drift: bool = True) -> tuple[FieldSpec, FieldHeal]:
    """One field healed on ``pages``, of which the first ``seed_pages`` are its seed pages (in seed order);
    ``drifted``: this field's output on the pages drifted, ``any_drift``: some field's did."""
    seeds = column.seed_values if column is not None else []
    everywhere, pages = pages, pages[:seed_pages]
    pairs = _pairs(pages, seeds)
    if not pairs and not drifted:  # other pages than the seeds, on which the field reads as it did
        return spec_field, FieldHeal(spec_field.name, "kept", spec_field.actions, spec_field.actions,
                                     "its output on these pages looks as when forged")
    if not pairs and column is not None and any(seeds) and evidence is not None:
        found_by_evidence, how = relocate_by_evidence(spec_field, column, everywhere, evidence.llm)
        if found_by_evidence is not None:
            return found_by_evidence, FieldHeal(spec_field.name, "healed", spec_field.actions,
                                                found_by_evidence.actions, how)
        return spec_field, FieldHeal(spec_field.name, "lost", spec_field.actions, spec_field.actions, how)
    if not pairs:
        return spec_field, FieldHeal(spec_field.name, "lost" if any(seeds) else "kept", spec_field.actions,
                                     spec_field.actions, "its seed values are not on the pages")
    if all(_gives(spec_field, _values(root, spec_field.actions, spec_field.post), want) for root, want in pairs):
        if not any_drift:  # pages on which the spec reads as forged: nothing to mend, however it is anchored
            return spec_field, FieldHeal(spec_field.name, "kept", spec_field.actions, spec_field.actions)
        return _reanchored(spec_field, seeds, pages, len(pairs))
    found = _relocate(spec_field, seeds, pages)
    if found is None or found[1] < len(pairs):
        parts = _relocate_parts(spec_field, pairs)
        found = parts if parts is not None and parts[1] > (found[1] if found else 0) else found
    if found is None:
        return spec_field, FieldHeal(spec_field.name, "lost", spec_field.actions, spec_field.actions,
                                     "no selector gives its seed values back")
    healed, hits = found
    return healed, FieldHeal(spec_field.name, "healed", spec_field.actions, healed.actions,
                             f"{hits} of {len(pairs)} seed pages")


def heal_spec(spec: ScraperSpec, pages: Sequence[etree._Element], evidence: EvidenceHeal | None = None,
              seed_pages: int | None = None) -> HealResult:
    """A new version of ``spec`` for ``pages``: the seed pages as they are now, in the spec's seed order (the
    first ``seed_pages`` of them, when other pages follow: a drifted run's). A field whose seed values are
    not on its seed pages and whose output on the pages looks as forged is kept. With ``evidence``, a field whose seed values are gone is looked for by the forging engine's evidence
    (:mod:`scrapesmith.induce.heal_evidence`), the model choosing where it is split; without, it is lost."""
    if spec.profile is None:
        raise HealError("this spec has no output profile (saved before profiles), so it keeps no seed values "
                        "to heal from: induce it again")
    if not pages:
        raise HealError("heal needs the seed pages as they are now")
    before = compare(spec.profile, seed_rows(spec, pages), kind_of)
    fields, heals = [], []
    for spec_field in spec.fields:
        healed, heal = _heal_field(spec_field, spec.profile.column(spec_field.name), pages, evidence,
                                   spec_field.name in before.columns, len(pages) if seed_pages is None else seed_pages,
                                   before.drifted)
        if heal.outcome == "healed" and healed.actions == spec_field.actions and healed.post == spec_field.post:
            healed, heal = spec_field, FieldHeal(spec_field.name, "kept", spec_field.actions, spec_field.actions,
                                                 f"found again where it was ({heal.detail})")
        fields.append(healed)
        heals.append(heal)
    new = spec.model_copy(update={"fields": fields, "method": spec.method if not any(
        h.outcome == "healed" for h in heals) else f"{spec.method}+healed", "scope": None})
    new = with_scope(new, pages).model_copy(update={"healed_from": spec.spec_id})
    validation = compare(spec.profile, seed_rows(new, pages), kind_of)
    return HealResult(new, heals, validation, drifted=before.drifted)


def next_version_path(path: Path) -> Path:
    """``spec.json`` -> ``spec.v2.json``, ``spec.v2.json`` -> ``spec.v3.json``: never the file itself."""
    path = Path(path)
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    match = _VERSION.search(stem)
    version = int(match.group(1)) + 1 if match else 2
    base = stem[: match.start()] if match else stem
    candidate = path.with_name(f"{base}.v{version}{path.suffix}")
    while candidate.exists():
        version += 1
        candidate = path.with_name(f"{base}.v{version}{path.suffix}")
    return candidate


def heal_from_sources(spec: ScraperSpec, sources: Sequence[str], allow_hosts: Sequence[str],
                      evidence: EvidenceHeal | None = None) -> HealResult:
    """``scrapesmith heal``: heal on ``sources`` — pages, or a run directory whose archived pages are the
    ones that drifted — or, with none, on the spec's own seeds as they are now (a site that changed)."""
    from scrapesmith.induce.service import fetch_sources

    runs = [run for run in (_run_of(source) for source in sources) if run is not None]
    if runs:
        if len(runs) != len(sources):
            raise HealError("give either a run directory or pages to heal on, not both")
        return heal_from_run(spec, runs, evidence, allow_hosts)
    named = bool(sources)
    sources = list(sources) or list(spec.seeds)
    if not sources:
        raise HealError("this spec names no seed pages: give the pages to heal on, or the run directory "
                        "(OUTPUT.run) of the run that drifted")
    fetched = fetch_sources(sources, allow_hosts)
    failed = [(source, page) for source, page in fetched if isinstance(page, FetchError)]
    if len(failed) == len(fetched):
        raise HealError(f"none of the {len(fetched)} pages could be fetched (first: {failed[0][1]})")
    pages = [(page.url, parse_for_replay(page.text)) for _, page in fetched if isinstance(page, Page)]
    trees, seed_pages = aligned(spec, pages)
    result = heal_spec(spec, trees, evidence, seed_pages)
    result.pages = (f"the {len(pages)} pages given" if named
                    else f"the spec's {len(pages)} seed pages as they are now")
    result.from_seeds = not named
    return result


def is_run_dir(path: Path) -> bool:
    """A run directory (``OUTPUT.run``) of ``scrapesmith run``: its manifest is there."""
    return path.is_dir() and (path / "manifest.sqlite").is_file()


def _run_of(source: str) -> Path | None:
    """The run directory ``source`` names: itself, or the one beside a run's dataset (``out.csv`` -> ``out.run``)."""
    path = Path(source)
    if is_run_dir(path):
        return path
    beside = path.with_suffix(".run")
    return beside if path.suffix.lower() in (".csv", ".jsonl", ".parquet") and is_run_dir(beside) else None


def heal_from_run(spec: ScraperSpec, run_dirs: Sequence[Path], evidence: EvidenceHeal | None = None,
                  allow_hosts: Sequence[str] = ()) -> HealResult:
    """Heal on the pages a run kept as it read them (:func:`scrapesmith.scale.archived_pages`): the pages on
    which its output drifted. When the spec's seeds, read again, changed too (a site redesigned at the same
    addresses), they go first: on them each field's seed values are found exactly; seeds that did not change
    (saved files) would only say every field still works, so then the run's pages alone are used."""
    from scrapesmith.scale import archived_pages

    pages = [(page.url, parse_for_replay(page.text)) for run_dir in run_dirs for page in archived_pages(run_dir)]
    if not pages:
        raise HealError(f"{', '.join(map(str, run_dirs))} kept no pages to heal on (a run made before runs kept "
                        "their pages, or one whose pages all failed): give the changed pages")
    trees, seed_pages = aligned(spec, pages)
    seeds = _seeds_now(spec, allow_hosts) if not seed_pages else []
    result = heal_spec(spec, seeds + trees, evidence, len(seeds) or seed_pages)
    result.pages = f"the {len(pages)} pages the run kept" + (f" and the {len(seeds)} seed pages" if seeds else "")
    return result


def _seeds_now(spec: ScraperSpec, allow_hosts: Sequence[str]) -> list[etree._Element]:
    """The spec's seed pages as they are now, when every one can be read and some field no longer reads its
    seed value there; else none."""
    from scrapesmith.induce.service import fetch_sources

    if not spec.seeds or spec.profile is None:
        return []
    fetched = fetch_sources(list(spec.seeds), allow_hosts)
    if any(isinstance(page, FetchError) for _, page in fetched):
        return []
    trees = [parse_for_replay(page.text) for _, page in fetched if isinstance(page, Page)]
    for spec_field in spec.fields:
        column = spec.profile.column(spec_field.name)
        for tree, want in zip(trees, column.seed_values if column else [], strict=False):
            if want and not _gives(spec_field, _values(tree, spec_field.actions, spec_field.post), want):
                return trees
    return []


def aligned(spec: ScraperSpec, pages: Sequence[tuple[str, etree._Element]]) -> tuple[list[etree._Element], int]:
    """``pages`` with the spec's seed pages first, in seed order, so each seed's values meet its page; and
    how many seed pages were found (:func:`heal_spec`'s ``seed_pages``).

    A page is a seed's when it has the seed's file name (a saved copy, a redesigned page at its old address),
    else when it holds every one of that seed's values; the other pages follow in their order. Pages that are
    none of the seeds (a run over other pages) are all "other": their fields are checked by their output, so
    a seed value that a list on another page happens to show is not mistaken for its field."""
    seed_values = [[value for column in (spec.profile.columns if spec.profile else [])
                    for value in (column.seed_values[i] if i < len(column.seed_values) else [])]
                   for i in range(len(spec.seeds))]
    left = list(pages)
    ordered: list[etree._Element] = []
    for seed, values in zip(spec.seeds, seed_values, strict=True):
        match = _seed_page(seed, values, left)
        if match is None:
            break
        left.remove(match)
        ordered.append(match[1])
    return ordered + [tree for _, tree in left], len(ordered)


def _seed_page(seed: str, values: Sequence[str], pages: Sequence[tuple[str, etree._Element]],
               ) -> tuple[str, etree._Element] | None:
    name = _file_name(seed)
    same = [page for page in pages if name and _file_name(page[0]) == name]
    if same:
        return same[0]
    found = [(sum(_present(tree, [value]) for value in values), index) for index, (_, tree) in enumerate(pages)]
    best = max(found, default=(0, 0))
    return pages[best[1]] if values and best[0] == len(values) else None


def _file_name(address: str) -> str:
    return urlsplit(address).path.rstrip("/").rsplit("/", 1)[-1] if "://" in address else Path(address).name
