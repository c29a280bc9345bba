"""``bench drift``: scraper specs forged on real SWDE sites, replayed on the same sites after a layout change.

For every site: forge a spec on the first ``seeds`` pages with the heuristic (no model) and record its
output profile; its output on the next pages, as they are, is the *reference*. Then, for every mutation
operator (:mod:`scrapesmith.dom.mutate`, generic and seeded) and every mutation seed, change all pages
of the site the same way and measure:

* **detection** — a program is *drifted* when some field's output on the changed test pages differs from
  the reference (F1 against it under 0.95); the drift check (:mod:`scrapesmith.drift`, no model, fixed
  thresholds) should flag exactly those: recall over drifted programs, and alarms on programs whose output
  did not change;
* **false alarms on unchanged pages** — the check on the reference run itself, one per site;
* **heal** — ``heal_spec`` on the changed seed pages (no model), then the healed spec on the changed test
  pages: healed when every field is back to F1 >= 0.95 against the reference; seconds per heal.

The reference is the forged program's own output, not SWDE's ground truth: heal must give back what the
program did, right or wrong. The operators keep every value on the page, so no model is needed; the model
calls are counted (always 0 here) so the figure stays honest when that changes. With ``demo``, specs forged
on the demo web's book sites meet its layout versions (:func:`scrapesmith.sites.build_sites` with
``layout``): the same records drawn differently, so every case has a known answer. With ``list_pages``, list
programs on NEXT-EVAL pages go through the same mutations (:mod:`scrapesmith.bench.drift_lists`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapesmith.bench.drift_lists import run_lists
from scrapesmith.bench.frame import BenchResult, report
from scrapesmith.bench.swde import SwdeSite, discover_sites, parse_list, read_page, requests_for
from scrapesmith.dom import LAYOUT_VERSIONS, MUTATIONS, VALUE_MUTATIONS, mutate_page, reformat_text
from scrapesmith.drift import compare
from scrapesmith.induce import (
    CompiledSpec,
    EvidenceHeal,
    FieldRequest,
    ScraperSpec,
    heal_spec,
    induce_scraper,
    kind_of,
    parse_for_replay,
    with_profile,
)
from scrapesmith.llm import Ledger, use_ledger
from scrapesmith.sites import build_sites

HEALED_F1 = 0.95
Progress = Callable[[str], None]


@dataclass(frozen=True)
class DriftSettings:
    pages: Path
    sites: str | None = None
    mutations: tuple[str, ...] = tuple(MUTATIONS)
    mutation_seeds: tuple[int, ...] = (0, 1, 2)
    seeds: int = 3
    test: int = 200
    list_pages: tuple[Path, ...] = ()
    demo: bool = False
    windows: int = 1
    evidence: EvidenceHeal | None = None
    """Heal fields whose seed values are gone by the evidence (and its model, if any); None: they are lost."""


def _cell(value: Any) -> tuple[str, ...]:
    """A cell as comparable values: a list in any order (a redesign may list genres the other way round)."""
    if value is None:
        return ()
    return tuple(sorted(value)) if isinstance(value, list) else (value,)


def agreement_f1(rows: Sequence[dict], reference: Sequence[dict], name: str) -> float | None:
    """F1 of a field's values against the reference, page by page (None when the reference never has one)."""
    got = [_cell(r[name]) for r in rows]
    want = [_cell(r[name]) for r in reference]
    if not any(want):
        return None
    correct = sum(1 for g, w in zip(got, want, strict=True) if g and g == w)
    precision = correct / max(1, sum(1 for g in got if g))
    recall = correct / sum(1 for w in want if w)
    return 0.0 if not correct else 2 * precision * recall / (precision + recall)


def rows_of(spec: ScraperSpec, texts: Sequence[str]) -> list[dict]:
    compiled = CompiledSpec(spec)
    return [compiled.row(text) for text in texts]


def _field_f1(spec: ScraperSpec, rows: Sequence[dict], reference: Sequence[dict]) -> dict[str, float | None]:
    return {f.name: agreement_f1(rows, reference, f.name) for f in spec.fields}


def _worst(scores: dict[str, float | None]) -> float:
    known = [s for s in scores.values() if s is not None]
    return min(known) if known else 1.0


def forge_on(requests: Sequence[FieldRequest], seed_texts: Sequence[str], site: str) -> ScraperSpec:
    """A heuristic spec (no model) with its profile, as ``scrapesmith induce`` forges it."""
    trees = [parse_for_replay(t) for t in seed_texts]
    return with_profile(induce_scraper(requests, trees, method="heuristic", site=site), trees)


def forge(site: SwdeSite, texts: Sequence[str], seeds: int) -> ScraperSpec:
    return forge_on(requests_for(site), texts[:seeds], site.key)


def reformatted(rows: Sequence[dict]) -> list[dict]:
    """The reference rows as a ``formats`` page writes them (its values' amounts in the new format)."""
    def cell(value: Any) -> Any:
        if isinstance(value, list):
            return [reformat_text(v) for v in value]
        return reformat_text(value) if isinstance(value, str) else value
    return [{name: cell(value) for name, value in row.items()} for row in rows]


def run_case(site: str, spec: ScraperSpec, changed: Sequence[str], reference: Sequence[dict],
             mutation: str, seed: int, seeds: int, evidence: EvidenceHeal | None = None) -> dict[str, Any]:
    """One site's ``changed`` pages (seed pages first): detection, heal and what each field reads afterwards."""
    rows = rows_of(spec, changed[seeds:])
    before = _field_f1(spec, rows, reference)
    check = compare(spec.profile, rows, kind_of)
    drifted = _worst(before) < HEALED_F1
    started = time.perf_counter()
    with use_ledger(Ledger()) as ledger:
        healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:seeds]], evidence)
    heal_seconds = time.perf_counter() - started
    after = _field_f1(healed.spec, rows_of(healed.spec, changed[seeds:]), reference)
    broken = [name for name, f1 in before.items() if f1 is not None and f1 < HEALED_F1]
    return {"site": site, "mutation": mutation, "seed": seed, "drifted": drifted, "detected": check.drifted,
            "broken_fields": broken, "flagged_fields": check.columns,
            "evidence": [d.evidence for d in check.drifts], "f1_before": round(_worst(before), 4),
            "f1_after_heal": round(_worst(after), 4), "healed": drifted and _worst(after) >= HEALED_F1,
            "healed_fields": healed.healed, "lost_fields": healed.lost, "heal_seconds": round(heal_seconds, 3),
            "model_calls": len(ledger), "model_tokens": ledger.totals().input_tokens + ledger.totals().output_tokens,
            "heal_details": {f.name: f.detail for f in healed.fields if f.outcome != "kept"},
            "fields_before": before, "fields_after": after}


DEMO_SITES = ("bookshelf", "pagecraft")
DEMO_FIELDS = [FieldRequest("title", "the title of the book"), FieldRequest("author", "the author(s) of the book"),
          FieldRequest("isbn_13", "the ISBN-13 of the book"), FieldRequest("publisher", "the publisher"),
          FieldRequest("price", "the sale price")]


def run_demo(seeds: int, progress: Callable[[str], None]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Cases (site × layout version) and the unchanged checks, one per site."""
    original = build_sites(7)
    layouts = {version: build_sites(7, version) for version in range(1, len(LAYOUT_VERSIONS) + 1)}
    cases, unchanged = [], []
    for name in DEMO_SITES:
        paths = original.urls(name, kind="detail")
        texts = [original.respond(p).body.decode("utf-8") for p in paths]
        spec = forge_on(DEMO_FIELDS, texts[:seeds], f"demo-{name}")
        reference = rows_of(spec, texts[seeds:])
        check = compare(spec.profile, reference, kind_of)
        unchanged.append({"site": f"demo-{name}", "pages": len(reference),
                          "evidence": [d.evidence for d in check.drifts]})
        for version, drawn in layouts.items():
            changed = [drawn.respond(p).body.decode("utf-8") for p in paths]
            cases.append(run_case(f"demo-{name}", spec, changed, reference, f"layout {version} "
                                  f"({LAYOUT_VERSIONS[version - 1]})", version, seeds))
        progress(f"demo-{name}: {sum(c['drifted'] for c in cases[-len(layouts):])} of {len(layouts)} layouts "
                 "drifted")
    return cases, unchanged


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 1.0


def summarise(cases: Sequence[dict], unchanged: Sequence[dict]) -> dict[str, float | int]:
    drifted = [c for c in cases if c["drifted"]]
    harmless = [c for c in cases if not c["drifted"]]
    broken = sum(len(c["broken_fields"]) for c in drifted)
    flagged = sum(len(set(c["broken_fields"]) & set(c["flagged_fields"])) for c in drifted)
    return {
        "programs": len(cases), "drifted": len(drifted),
        "detection_recall": _share(sum(c["detected"] for c in drifted), len(drifted)),
        "field_detection_recall": _share(flagged, broken),
        "false_alarms_unchanged": sum(bool(u["evidence"]) for u in unchanged), "unchanged_runs": len(unchanged),
        "alarms_on_harmless_changes": sum(c["detected"] for c in harmless), "harmless_changes": len(harmless),
        "healed_share": _share(sum(c["healed"] for c in drifted), len(drifted)),
        "healed_detected_share": _share(sum(c["healed"] and c["detected"] for c in drifted), len(drifted)),
        "model_calls": sum(c["model_calls"] for c in cases),
        "model_tokens": sum(c.get("model_tokens", 0) for c in cases),
        "seconds_per_heal": round(sum(c["heal_seconds"] for c in cases) / max(1, len(cases)), 3),
    }


def group(cases: Sequence[dict], key: str) -> list[dict]:
    rows = []
    for value in dict.fromkeys(c[key] for c in cases):
        members = [c for c in cases if c[key] == value]
        drifted = [c for c in members if c["drifted"]]
        rows.append({key: value, "programs": len(members), "drifted": len(drifted),
                     "detected": sum(c["detected"] for c in drifted),
                     "healed": sum(c["healed"] for c in drifted),
                     "harmless_alarms": sum(c["detected"] for c in members if not c["drifted"])})
    return rows


def other_windows(site: SwdeSite, texts: Sequence[str], seeds: int, windows: int) -> list[dict[str, Any]]:
    """Unchanged reruns of specs forged on other seed pages (pages ``w*seeds`` on), run on all the others:
    false alarms from seeds the thresholds never saw."""
    found = []
    for window in range(1, windows):
        start = window * seeds
        if start + seeds >= len(texts):
            break
        spec = forge(site, texts[start:start + seeds], seeds)
        rest = [*texts[:start], *texts[start + seeds:]]
        check = compare(spec.profile, rows_of(spec, rest), kind_of)
        found.append({"site": f"{site.key} (seeds {start}-{start + seeds - 1})", "pages": len(rest),
                      "evidence": [d.evidence for d in check.drifts]})
    return found


def run_benchmark(settings: DriftSettings, json_out: Path | None, progress: Progress) -> BenchResult:
    sites = discover_sites(settings.pages, parse_list(settings.sites))
    cases, unchanged = [], []
    for site in sites:
        paths = site.page_paths()[: settings.seeds + settings.test]
        texts = [read_page(p) for p in paths]
        spec = forge(site, texts, settings.seeds)
        reference = rows_of(spec, texts[settings.seeds:])
        check = compare(spec.profile, reference, kind_of)
        unchanged.append({"site": site.key, "pages": len(reference), "evidence": [d.evidence for d in check.drifts]})
        unchanged += other_windows(site, texts, settings.seeds, settings.windows)
        for mutation in settings.mutations:
            for seed in settings.mutation_seeds:
                changed = [mutate_page(t, mutation, seed) for t in texts]
                expected = reformatted(reference) if mutation in VALUE_MUTATIONS else reference
                cases.append(run_case(site.key, spec, changed, expected, mutation, seed, settings.seeds,
                                      settings.evidence))
        done = [c for c in cases if c["site"] == site.key]
        progress(f"{site.key}: {sum(c['drifted'] for c in done)} of {len(done)} drifted, "
                 f"{sum(c['detected'] for c in done if c['drifted'])} detected, "
                 f"{sum(c['healed'] for c in done)} healed; unchanged alarms: {len(unchanged[-1]['evidence'])}")
    if settings.demo:
        demo_cases, demo_unchanged = run_demo(settings.seeds, progress)
        cases += demo_cases
        unchanged += demo_unchanged
    summary: dict[str, Any] = dict(summarise(cases, unchanged))
    lists: dict[str, Any] = {}
    if settings.list_pages:
        list_cases, lists = run_lists(settings.list_pages, settings.mutations, settings.mutation_seeds, progress)
        summary.update(lists["summary"])
        lists["cases"] = list_cases
    result = BenchResult(
        name="drift (SWDE specs" + (", NEXT-EVAL lists)" if lists else ")"), summary=summary, cases=cases,
        params={"pages": str(settings.pages), "sites": [s.key for s in sites], "mutations": list(settings.mutations),
                "mutation_seeds": list(settings.mutation_seeds), "seeds": settings.seeds, "test": settings.test,
                "unchanged": unchanged, "per_mutation": group(cases, "mutation"), "per_site": group(cases, "site"),
                "lists": lists})
    report(result, json_out, case_columns=["site", "mutation", "seed", "drifted", "detected", "f1_before",
                                            "f1_after_heal", "healed", "broken_fields", "lost_fields"])
    return result
