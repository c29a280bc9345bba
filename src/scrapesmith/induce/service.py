"""``induce_scraper``: instruction + seed pages -> :class:`ScraperSpec`, by any of the four methods.

``heuristic`` needs no model. ``choose`` ranks the heuristic's candidates and lets the model choose among
the best ones only where the evidence disagrees (an enum of candidate numbers; see ``choose.py``).
``autoscraper`` runs progressive generation on each seed page and synthesis across them; ``cot`` and
``reflexion`` are the paper's baselines, run through the same synthesis. With a model, the heuristic
candidates are offered as options and join the synthesis pool, so the model chooses and names rather
than writes XPath from scratch; it writes its own only when no candidate fits.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.choose import choose_candidate
from scrapesmith.induce.choose_gate import induce_gate
from scrapesmith.induce.confidence import assessed
from scrapesmith.induce.examples import Example, induce_from_examples
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.field_evidence import FieldConcept, concepts_for
from scrapesmith.induce.heuristic import field_spec_from, induce_heuristic, rank_candidates, trusted
from scrapesmith.induce.profile import with_profile
from scrapesmith.induce.progressive import GenerationSettings, generate_on_page
from scrapesmith.induce.read import induce_by_reading
from scrapesmith.induce.scope import with_scope
from scrapesmith.induce.synthesis import SequenceCandidate, synthesize
from scrapesmith.induce.views import FieldRequest, FieldSpec, PostProcess, ScraperSpec
from scrapesmith.io import timestamp, write_rows
from scrapesmith.llm import LLM, require_llm
from scrapesmith.report import write_report
from scrapesmith.web import (
    FetchError,
    FileFetcher,
    HttpFetcher,
    Page,
    RoutingFetcher,
    expand_sources,
    text_problem,
)

InduceMethod = Literal["heuristic", "choose", "read", "autoscraper", "cot", "reflexion"]
METHODS: tuple[str, ...] = ("heuristic", "choose", "read", "autoscraper", "cot", "reflexion")
HEURISTIC_IN_POOL = 3
Progress = Callable[[str], None]
FetchProgress = Callable[[int, int], None]
"""Called after each page with (pages done, pages in all), so a display can show n/total."""
Fetched = list[tuple[str, Page | FetchError]]


class UnknownMethod(ScrapesmithError):
    """An induction method name that does not exist."""


class BadSeedPage(ScrapesmithError):
    """A seed page that cannot teach anything: missing, unreadable, empty, binary or not HTML."""


def check_seed_page(source: str, page: Page | FetchError) -> Page:
    """The page, if it is one induction can learn from; else :class:`BadSeedPage` naming it and why. A seed
    dropped or read as an empty page would give a spec of "(none found)" fields, or one fitted to the
    remaining pages, with nothing said."""
    if isinstance(page, FetchError):
        raise BadSeedPage(f"seed page {source}: {page.message}")
    problem = text_problem(page.text)
    if problem is not None:
        raise BadSeedPage(f"seed page {source} {problem}")
    if "html" not in page.content_type and "xml" not in page.content_type:
        raise BadSeedPage(f"seed page {source} is {page.content_type}, not an HTML page")
    if not re.search(r"<\s*[a-zA-Z][^>]*>", page.text[:65536]):
        raise BadSeedPage(f"seed page {source} holds no HTML markup")
    return page


def _induce_field(request: FieldRequest, concept: FieldConcept, seeds: Sequence[etree._Element], llm: LLM,
                  settings: GenerationSettings) -> FieldSpec:
    ranked = rank_candidates(concept, seeds)
    hints = [s.candidate.xpath for s in ranked if s.candidate.regex is None]
    pool: list[SequenceCandidate] = []
    recognised: list[str | None] = []
    notes = []
    for root in seeds:
        generated = generate_on_page(llm, request.instruction or request.name, root, hints, settings)
        recognised.append(generated.value or None)
        if generated.actions:
            pool.append(SequenceCandidate(generated.actions, f"{settings.method}"))
        notes.append("ok" if generated.ok else ("error" if generated.error else "inconsistent"))
    pool += [SequenceCandidate([s.candidate.xpath], f"heuristic:{s.candidate.evidence}", s.candidate.regex,
                               split=s.candidate.split)
             for s in ranked[:HEURISTIC_IN_POOL]]
    outcome = synthesize(pool, seeds, recognised, request.instruction or request.name, concept.multiple, llm)
    chosen = outcome.chosen
    evidence = f"{settings.method} seeds=[{', '.join(notes)}]; {outcome.reason}"
    if chosen is None:
        return FieldSpec(name=request.name, instruction=request.instruction, actions=[],
                         post=PostProcess(multiple=concept.multiple), evidence=evidence)
    return FieldSpec(name=request.name, instruction=request.instruction, actions=chosen.actions,
                     post=PostProcess(regex=chosen.regex, multiple=concept.multiple, split=chosen.split),
                     evidence=f"{evidence}; chose {chosen.origin}")


def induce_scraper(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], *,
                   method: str = "heuristic", llm: LLM | None = None, site: str = "",
                   seed_names: Sequence[str] = (), settings: GenerationSettings | None = None,
                   progress: Progress | None = None) -> ScraperSpec:
    """Induce one spec for all ``requests`` from the parsed ``seeds``."""
    if method not in METHODS:
        raise UnknownMethod(f"unknown induction method '{method}' (use {', '.join(METHODS)})")
    if not seeds:
        raise ScrapesmithError("induction needs at least one seed page")
    if method == "heuristic":
        return with_scope(induce_heuristic(requests, seeds, site=site, seed_names=seed_names), seeds)
    model = require_llm(llm, f"the {method} method")
    if method == "choose":
        with induce_gate():
            return with_scope(_induce_by_choice(requests, seeds, model, site, seed_names, progress), seeds)
    if method == "read":
        return with_scope(induce_by_reading(requests, seeds, model, site, seed_names, progress), seeds)
    settings = settings or GenerationSettings()
    settings.method = method  # type: ignore[assignment]
    fields = []
    for request, concept in zip(requests, concepts_for(requests), strict=True):
        if progress:
            progress(request.name)
        fields.append(_induce_field(request, concept, seeds, model, settings))
    return with_scope(ScraperSpec(site=site, method=method, seeds=list(seed_names), fields=fields), seeds)


def _induce_by_choice(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], llm: LLM, site: str,
                      seed_names: Sequence[str], progress: Progress | None) -> ScraperSpec:
    """``--method choose``: the heuristic ranking, the model choosing where the evidence disagrees."""
    fields = []
    for request, concept in zip(requests, concepts_for(requests), strict=True):
        if progress:
            progress(request.name)
        ranked = rank_candidates(concept, seeds, seed_names)
        choice = choose_candidate(llm, request, concept, ranked, seeds, seed_names)
        field = field_spec_from(request, concept, choice.chosen)
        evidence = [s for s in ranked if trusted(s, len(seeds))]
        if evidence and choice.chosen is evidence[0]:  # the evidence's own choice: judged as the heuristic's is
            field = assessed(field, evidence, concept)
        fields.append(field.model_copy(update={"evidence": f"{choice.reason}; {field.evidence}"}))
    return ScraperSpec(site=site, method="choose", seeds=list(seed_names), fields=fields)


def fetch_sources(sources: Sequence[str], allow_hosts: Sequence[str], progress: FetchProgress | None = None,
                  *, delay: float | None = None, respect_robots: bool = True, concurrency: int = 1) -> Fetched:
    """Every source (files, directories, URLs, ``.txt`` URL lists) fetched, returned in the order given.

    A page that fails is kept as its :class:`FetchError`, so one bad page never stops a batch; the caller
    decides whether it becomes an error row (``run``) or is skipped (``induce``). ``concurrency`` pages are
    fetched at once; the fetcher still keeps ``delay`` seconds between requests to one host.
    """
    items = expand_sources(list(sources))
    if not items:
        raise ScrapesmithError("no pages given")
    http = HttpFetcher(allow_hosts=list(allow_hosts), delay=delay, respect_robots=respect_robots)
    done, lock = 0, threading.Lock()

    def fetch_one(item: str) -> Page | FetchError:
        nonlocal done
        try:
            return router.fetch(item)
        except FetchError as exc:
            return exc
        finally:
            with lock:
                done += 1
                if progress:
                    progress(done, len(items))

    with RoutingFetcher(http=http, file=FileFetcher()) as router, \
            ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="fetch") as pool:
        return list(zip(items, pool.map(fetch_one, items), strict=True))


def induce_from_sources(requests: Sequence[FieldRequest], sources: Sequence[str], *, allow_hosts: Sequence[str],
                        method: str, llm: LLM | None, seeds: int, fetch_progress: FetchProgress | None = None,
                        progress: Progress | None = None,
                        examples: Sequence[Example] = ()) -> tuple[ScraperSpec, list[etree._Element]]:
    """``scrapesmith induce``: fetch the seed pages, keep the first ``seeds`` that load, induce a spec.

    ``examples`` (``NAME=VALUE`` seen on the first page) add fields learnt from their values, no model.
    Returns the spec, with the profile of its output on the seeds (for drift checks and ``heal``), and the
    parsed seed trees (so a caller can show what each field extracts on them).
    """
    if not requests and not examples:
        raise ScrapesmithError("give at least one field to induce (a request or an example value)")
    items = expand_sources(list(sources))[:seeds]
    fetched = [(source, check_seed_page(source, page))
               for source, page in fetch_sources(items, allow_hosts, fetch_progress)]
    trees = [parse_for_replay(page.text) for _, page in fetched]
    names = [s for s, _ in fetched]
    learnt = induce_from_examples(examples, trees, seed_names=names) if examples else None
    if not requests and learnt is not None:
        return with_profile(with_scope(learnt, trees), trees), trees
    spec = induce_scraper(requests, trees, method=method, llm=llm, seed_names=names, progress=progress)
    if learnt is not None:
        spec = with_scope(spec.model_copy(update={"fields": [*spec.fields, *learnt.fields],
                                                  "method": f"{spec.method}+examples"}), trees)
    return with_profile(spec, trees), trees


def run_spec(spec: ScraperSpec, sources: Sequence[str], allow_hosts: Sequence[str],
             progress: FetchProgress | None = None, *, delay: float | None = None, respect_robots: bool = True,
             concurrency: int = 1) -> list[dict[str, Any]]:
    """``scrapesmith run spec.json``: one row per page with its provenance; a failed page is an error row.

    Every row carries the fields, then ``source_url``, ``fetched_at``, ``program_id`` and ``error`` (the
    one provenance order of every dataset), so a table from many runs says where each value came from
    and what was lost.
    """
    compiled = CompiledSpec(spec)
    rows: list[dict[str, Any]] = []
    fetched = fetch_sources(sources, allow_hosts, progress, delay=delay, respect_robots=respect_robots,
                            concurrency=concurrency)
    for source, page in fetched:
        if isinstance(page, FetchError):
            rows.append({**{f.name: None for f in spec.fields}, "source_url": source, "fetched_at": None,
                         "program_id": spec.spec_id, "error": str(page)})
            continue
        provenance = {"source_url": page.url, "fetched_at": timestamp(page.fetched_at), "program_id": spec.spec_id}
        try:
            rows.append({**compiled.row(page.text), **provenance, "error": None})
        except ScrapesmithError as exc:  # e.g. a regex over its time bound on this page's values
            rows.append({**{f.name: None for f in spec.fields}, **provenance, "error": str(exc)})
    return rows


def unsure_fields(spec: ScraperSpec) -> list[dict[str, Any]]:
    """The fields the engine doubted when it induced them: name, confidence and why (``result.json``,
    ``run.json`` and the report list them, so a doubted value is never shown as if it were known)."""
    return [{"field": f.name, "confidence": f.confidence, "doubt": f.doubt, "left_empty": not f.actions}
            for f in spec.fields if f.doubt]


def unsure_note(entry: dict[str, Any]) -> str:
    """``unsure: title: same text on every seed page (confidence 0.31)`` — one line of a report."""
    confidence = f" (confidence {entry['confidence']:.2f})" if entry.get("confidence") is not None else ""
    left = "; left empty (--strict)" if entry.get("left_empty") else ""
    return f"unsure: {entry['field']}: {entry['doubt']}{confidence}{left}"


def save_spec_run(spec: ScraperSpec, spec_path: Path, rows: list[dict[str, Any]], output: Path,
                  seconds: float) -> Path:
    """Write the rows, a ``<name>.run.json`` record beside them and ``<name>.report.html``; return the report."""
    output = Path(output)
    write_rows(rows, output)
    record = {
        "kind": "run", "title": f"{spec.spec_id} ({spec.site or 'scraper spec'}) on {len(rows)} pages",
        "dataset": output.name, "program": str(Path(spec_path).resolve()), "seconds": seconds,
        "steps": [f"{field.name}: {field.actions!r}" for field in spec.fields],
        "failures": [{"url": row["source_url"], "item": "", "error": row["error"]} for row in rows if row.get("error")],
        "ledger": {"totals": {"calls": 0}, "by_stage": {}},
        "unsure": unsure_fields(spec),
        "notes": [unsure_note(entry) for entry in unsure_fields(spec)],
    }
    record_path = output.with_name(f"{output.stem}.run.json")
    record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return write_report(record_path)
