"""SWDE scraper-induction benchmark in the original SWDE layout, scored as AutoScraper scores it.

For every site and attribute: induce a scraper from the first ``seeds`` pages using only the instruction
(Table 18 of the paper, never the ground truth), run it on the next ``test`` pages, and score the case
with :mod:`scrapesmith.bench.metrics`. The same run also times ``execute.py`` against bare
``lxml.html.fromstring`` on the same pages, so the throughput ratio is measured, not assumed.
"""

from __future__ import annotations

import gc
import html as html_module
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import html
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from scrapesmith.bench.frame import BenchResult, report
from scrapesmith.bench.metrics import CaseScore, summarize
from scrapesmith.bench.swde_paths import model_path, path_counts
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import (
    CompiledSpec,
    Example,
    FieldRequest,
    FieldSpec,
    ScraperSpec,
    generalise,
    induce_scraper,
    normalize_space,
    parse_for_replay,
    post_process,
)
from scrapesmith.llm import LLM, Ledger, use_ledger

TASK_PROMPTS = {
    "auto": "Here's a webpage with detailed information about an auto.",
    "book": "Here's a webpage with detailed information about a book.",
    "camera": "Here's a webpage with detail information of camera.",
    "job": "Here's a webpage with detailed information about a job.",
    "movie": "Here's a webpage with detailed information about a movie.",
    "nbaplayer": "Here's a webpage with detailed information about an NBA player.",
    "restaurant": "Here's a webpage with detailed information about a restaurant.",
    "university": "Here's a webpage on detailed information about a university.",
}
ATTRIBUTE_PROMPTS = {
    "auto": {"model": "Please extract the model of the auto.", "price": "Please extract the price of the auto.",
             "engine": "Please extract the engine of the auto.",
             "fuel_economy": "Please extract the fuel efficiency of the auto."},
    "book": {"title": "Please extract the title of the book.", "author": "Please extract the author of the book.",
             "isbn_13": "Please extract the isbn number of the book.",
             "publisher": "Please extract the publisher of the book.",
             "publication_date": "Please extract the publication date of the book."},
    "camera": {"model": "Please extract the product name of the camera.",
               "price": "Please extract the sale price of the camera.",
               "manufacturer": "Please extract the manufacturer of the camera."},
    "job": {"title": "Please extract the title of the job.",
            "company": "Please extract the name of the company that offers the job.",
            "location": "Please extract the working location of the job.",
            "date_posted": "Please extract the date that post the job."},
    "movie": {"title": "Please extract the title of the movie.",
              "director": "Please extract the director of the movie.",
              "genre": "Please extract the genre of the movie.",
              "mpaa_rating": "Please extract the MPAA rating of the movie."},
    "nbaplayer": {"name": "Please extract the name of the player.",
                  "team": "Please extract the team of the player he plays now.",
                  "height": "Please extract the height of the player.",
                  "weight": "Please extract the weight of the player."},
    "restaurant": {"name": "Please extract the restaurant's name.",
                   "address": "Please extract the restaurant's address.",
                   "phone": "Please extract the restaurant's phone number.",
                   "cuisine": "Please extract the cuisine that the restaurant offers."},
    "university": {"name": "Please extract the name of the university.",
                   "phone": "Please extract the contact phone number of the university.",
                   "website": "Please extract the website url of the university.",
                   "type": "Please extract the type of the university."},
}

Inducer = Callable[[Sequence[FieldRequest], Sequence, str, Sequence[str]], ScraperSpec]


class SwdeDataError(ScrapesmithError):
    """The SWDE directories are missing or not in the original layout."""


class SwdeDataMissing(SwdeDataError):
    """No SWDE directory where the benchmarks look by default; the caller must say where it is."""


def default_swde_dir() -> Path:
    """``../shared/data/swde`` beside the working directory or the repository: the benchmarks' default."""
    repo = Path(__file__).resolve().parents[3]
    for candidate in (Path.cwd() / "../shared/data/swde", repo / "../shared/data/swde"):
        if candidate.is_dir():
            return candidate.resolve()
    raise SwdeDataMissing("SWDE data not found at ../shared/data/swde")


@dataclass
class SwdeSite:
    vertical: str
    site: str
    pages_dir: Path

    @property
    def key(self) -> str:
        return f"{self.vertical}-{self.site}"

    def page_paths(self) -> list[Path]:
        return sorted(self.pages_dir.glob("*.htm"))


def discover_sites(pages_dir: Path, only: Sequence[str] = ()) -> list[SwdeSite]:
    """Sites under ``DIR/<vertical>/<vertical>-<site>/``, optionally only those named in ``only``."""
    if not pages_dir.is_dir():
        raise SwdeDataError(f"SWDE pages directory not found: {pages_dir}")
    sites = []
    for vertical_dir in sorted(p for p in pages_dir.iterdir() if p.is_dir()):
        for site_dir in sorted(p for p in vertical_dir.iterdir() if p.is_dir()):
            prefix = vertical_dir.name + "-"
            if site_dir.name.startswith(prefix):
                sites.append(SwdeSite(vertical_dir.name, site_dir.name[len(prefix):], site_dir))
    if only:
        sites = [s for s in sites if s.site in only or s.key in only]
    if not sites:
        raise SwdeDataError(f"no SWDE sites found under {pages_dir}" + (f" matching {','.join(only)}" if only else ""))
    return sites


def load_groundtruth(path: Path) -> dict[str, list[str]]:
    """``PAGEID<TAB>N<TAB>value…`` lines after two header lines; ``<NULL>`` means no value."""
    if not path.is_file():
        raise SwdeDataError(f"ground truth file not found: {path}")
    truth: dict[str, list[str]] = {}
    for index, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines()):
        if index <= 1 or not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        count = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        truth[parts[0]] = [v for v in parts[2 : 2 + count] if v != "<NULL>"]
    return truth


def read_page(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff")


def requests_for(site: SwdeSite, attributes: Sequence[str] = ()) -> list[FieldRequest]:
    prompts = ATTRIBUTE_PROMPTS.get(site.vertical)
    if prompts is None:
        raise SwdeDataError(f"unknown SWDE vertical '{site.vertical}'")
    names = list(attributes) or list(prompts)
    unknown = [n for n in names if n not in prompts]
    if unknown:
        raise SwdeDataError(f"unknown attribute(s) for {site.vertical}: {', '.join(unknown)}")
    return [FieldRequest(n, f"{TASK_PROMPTS[site.vertical]} {prompts[n]}") for n in names]


@dataclass
class SiteRun:
    site: SwdeSite
    spec: ScraperSpec
    strict: dict[str, CaseScore] = field(default_factory=dict)
    lenient: dict[str, CaseScore] = field(default_factory=dict)
    induce_seconds: float = 0.0
    execute_pages_per_s: float = 0.0
    lxml_pages_per_s: float = 0.0


def measure_throughput(spec: ScraperSpec, texts: Sequence[str], repeat: int = 7) -> tuple[float, float]:
    """Pages per CPU-second of executing ``spec`` (parse + XPaths + post-processing) and of bare lxml
    parsing, timed alternately, best of ``repeat``. CPU time, not wall time: on a shared machine wall time
    mostly measures how often the process was descheduled, which swamps a 10-20% difference."""
    compiled = CompiledSpec(spec)
    bare, full = float("inf"), float("inf")
    gc.collect()
    gc.disable()  # both loops run without the cyclic collector, which otherwise charges whichever loop
    try:          # happens to allocate when a full collection of the whole process falls due
        for _ in range(repeat):
            start = time.process_time()
            for text in texts:
                html.fromstring(text)
            bare = min(bare, time.process_time() - start)
            start = time.process_time()
            for text in texts:
                compiled.extract(text)
            full = min(full, time.process_time() - start)
    finally:
        gc.enable()
    return len(texts) / full, len(texts) / bare


def score_site(spec: ScraperSpec, texts: Sequence[str], page_ids: Sequence[str],
               truth: dict[str, dict[str, list[str]]], run: SiteRun) -> None:
    """Strict scores use the spec's values before separator stripping (what the XPath returned, as in the
    paper); lenient scores use the final values and strip separators from the ground truth too."""
    compiled = CompiledSpec(spec)
    for name in truth:
        run.strict[name], run.lenient[name] = CaseScore(), CaseScore()
    for text, page_id in zip(texts, page_ids, strict=True):
        results = compiled.extract_tree(parse_for_replay(text))
        for name, gold in truth.items():
            field_spec = spec.field(name)
            raw = post_process(results[name].raw, field_spec.post.model_copy(update={"strip_separators": False}))
            run.strict[name].add_page(raw, gold.get(page_id, []))
            run.lenient[name].add_page(results[name].values, gold.get(page_id, []), lenient=True)


def run_site(site: SwdeSite, gt_dir: Path, inducer: Inducer, attributes: Sequence[str] = (),
             seeds: int = 3, test: int = 200, reader: Callable[[Path], str] = read_page) -> SiteRun:
    """Induce on the site's first ``seeds`` pages and score the next ``test``; ``reader`` gives a page's text
    (``bench swde --mutate`` passes one that redraws every page of the site in another template)."""
    requests = requests_for(site, attributes)
    paths = site.page_paths()
    if len(paths) <= seeds:
        raise SwdeDataError(f"{site.key}: only {len(paths)} pages, need more than {seeds} seeds")
    seed_paths, test_paths = paths[:seeds], paths[seeds : seeds + test]
    truth = {r.name: load_groundtruth(gt_dir / site.vertical / f"{site.key}-{r.name}.txt") for r in requests}
    start = time.perf_counter()
    seed_trees = [parse_for_replay(reader(p)) for p in seed_paths]
    spec = inducer(requests, seed_trees, site.key, [p.name for p in seed_paths])
    run = SiteRun(site, spec, induce_seconds=time.perf_counter() - start)
    texts = [reader(p) for p in test_paths]
    score_site(spec, texts, [p.stem for p in test_paths], truth, run)
    run.execute_pages_per_s, run.lxml_pages_per_s = measure_throughput(spec, texts)
    return run


def case_rows(runs: Sequence[SiteRun]) -> list[dict]:
    rows = []
    for run in runs:
        for name, strict in run.strict.items():
            lenient = run.lenient[name]
            field_spec = run.spec.field(name)
            rows.append({"site": run.site.key, "attribute": name, **strict.as_dict(),
                         "lenient_f1": round(lenient.f1, 4), "lenient_category": lenient.category,
                         "xpath": " ; ".join(field_spec.actions), "confidence": field_spec.confidence,
                         "doubt": field_spec.doubt, "path": model_path(run.spec.method, field_spec.evidence)})
    return rows


def flag_rates(runs: Sequence[SiteRun]) -> dict[str, float | int]:
    """How well the fields' doubts tell wrong values from right ones: the share of wrong non-empty values
    (a case not Correct whose spec extracted something) that carry a doubt, and the share of right ones."""
    wrong = right = wrong_flagged = right_flagged = 0
    for run in runs:
        for name, case in run.strict.items():
            unsure = run.spec.field(name).unsure
            if case.category == "correct":
                right, right_flagged = right + 1, right_flagged + unsure
            elif case.tp + case.fp > 0:
                wrong, wrong_flagged = wrong + 1, wrong_flagged + unsure
    return {"wrong_values": wrong, "wrong_flagged": round(wrong_flagged / wrong, 3) if wrong else 0.0,
            "right_values": right, "right_flagged": round(right_flagged / right, 3) if right else 0.0}


def summary_of(runs: Sequence[SiteRun]) -> dict[str, float | int]:
    strict = summarize([c for r in runs for c in r.strict.values()])
    lenient = summarize([c for r in runs for c in r.lenient.values()])
    execute = sum(r.execute_pages_per_s for r in runs) / len(runs)
    bare = sum(r.lxml_pages_per_s for r in runs) / len(runs)
    return {
        "correct_ratio": strict["correct_ratio"], **{k: v for k, v in strict.items() if k != "correct_ratio"},
        **{f"lenient_{k}": v for k, v in lenient.items() if k in ("correct_ratio", "precision", "recall", "f1")},
        "pages_per_s": round(execute, 1), "lxml_pages_per_s": round(bare, 1),
        "throughput_ratio": round(execute / bare, 3) if bare else 0.0,
        "induce_seconds": round(sum(r.induce_seconds for r in runs), 2),
        "induce_seconds_max_site": round(max(r.induce_seconds for r in runs), 2),
        **flag_rates(runs),
    }


def group_rows(runs: Sequence[SiteRun], calls: Sequence[dict], key: Callable[[SiteRun], str]) -> list[dict]:
    """Correct ratio, macro F1, model use and induction seconds per group of sites (a vertical, or one site)."""
    rows = []
    for group in dict.fromkeys(key(r) for r in runs):
        members = [r for r in runs if key(r) == group]
        strict = summarize([c for r in members for c in r.strict.values()])
        used = [c for c in calls if c["site"] in {r.site.key for r in members}]
        rows.append({"group": group, "sites": len(members), "cases": strict["cases"],
                     "correct_ratio": strict["correct_ratio"], "precision": strict["precision"],
                     "recall": strict["recall"], "f1": strict["f1"],
                     "llm_calls": sum(c["llm_calls"] for c in used),
                     "tokens": sum(c["input_tokens"] + c["output_tokens"] for c in used),
                     "seconds": round(sum(r.induce_seconds for r in members), 1)})
    return rows


def print_groups(title: str, rows: Sequence[dict]) -> None:
    table = Table(title=title)
    columns = {"group": "", "sites": "sites", "cases": "cases", "correct_ratio": "correct", "f1": "F1",
               "precision": "P", "recall": "R", "llm_calls": "calls", "tokens": "tokens", "seconds": "induce s"}
    columns = {c: h for c, h in columns.items() if rows and c in rows[0]}
    for column, header in columns.items():
        table.add_column(header, justify="left" if column == "group" else "right", no_wrap=column == "group")
    for row in rows:
        table.add_row(*(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in columns))
    Console().print(table)


def run_sites(chosen: Sequence[SwdeSite], groundtruth: Path, attributes: str | None, seeds: int, test: int,
              method: str, llm: LLM | None, progress: Progress,
              reader: Callable[[Path], str] = read_page, strict: bool = False,
              examples: int = 0) -> tuple[list[SiteRun], list[dict]]:
    """Every chosen site induced and scored, one ledger per site: the runs and each site's model use.
    With ``examples`` N, each field is learnt from the values the ground truth gives on the first N seed pages
    instead (the user who types the values they see: ``induce --example``), no instruction, no model."""
    runs, calls = [], []
    task = progress.add_task("sites", total=len(chosen))
    for site in chosen:
        progress.update(task, description=f"{method} on {site.key}")

        def inducer(requests, trees, key, names, site=site):
            if examples:
                return example_spec(site, groundtruth, requests, trees, names, examples)
            spec = induce_scraper(requests, trees, method=method, llm=llm, site=key, seed_names=names)
            return spec.strict() if strict else spec

        with use_ledger(Ledger()) as ledger:
            run = run_site(site, groundtruth, inducer, parse_list(attributes), seeds, test, reader)
            induce_calls = len(ledger)
            CompiledSpec(run.spec).extract(reader(site.page_paths()[-1]))
            totals = ledger.totals()
        calls.append({"site": site.key, "llm_calls": totals.calls, "input_tokens": totals.input_tokens,
                      "output_tokens": totals.output_tokens, "cache_hits": totals.cache_hits,
                      "execute_llm_calls": totals.calls - induce_calls, "paths": path_counts(run.spec)})
        runs.append(run)
        progress.advance(task)
    progress.remove_task(task)
    return runs, calls


EDGE_SEPARATORS = " \t:;,|/-–—•·*>»"


def example_spec(site: SwdeSite, groundtruth: Path, requests: Sequence[FieldRequest], trees: Sequence,
                 names: Sequence[str], count: int) -> ScraperSpec:
    """``bench swde --examples N``: every field learnt from its first value on seed page 1 (as printed; the
    ground truth's text; all its values there when it has several) and checked against its values on seed
    pages 2..N. A field whose first seed has no
    value, or whose value the page does not show, stays empty (the user could not have given it)."""
    fields = []
    for request in requests:
        truth = load_groundtruth(groundtruth / site.vertical / f"{site.key}-{request.name}.txt")
        wanted = [[normalize_space(html_module.unescape(v)) for v in truth.get(Path(n).stem, [])] for n in names[:count]]
        wanted = [[v.strip(EDGE_SEPARATORS) for v in page] for page in wanted]  # SWDE keeps ": (702) 214-3500";
        wanted = [[v for v in page if v] for page in wanted]  # a user types what reads as the value
        try:
            if not wanted or not wanted[0]:
                raise ScrapesmithError("no value on the first seed page")
            field_spec = generalise(Example(request.name, wanted[0][0]), trees, wanted[1:], together=wanted[0])
        except ScrapesmithError as exc:
            field_spec = FieldSpec(name=request.name, instruction=request.instruction, actions=[], evidence=str(exc))
        fields.append(field_spec)
    return ScraperSpec(site=site.key, method="examples", seeds=list(names), fields=fields)


def run_benchmark(pages: Path, groundtruth: Path, sites: str | None, attributes: str | None, seeds: int,
                  test: int, method: str, llm: LLM | None, json_out: Path | None,
                  progress_factory: Callable[[], Progress], strict: bool = False, examples: int = 0) -> BenchResult:
    """The whole ``bench swde`` run: every site, one ledger per site, one report."""
    chosen = discover_sites(pages, parse_list(sites))
    with progress_factory() as progress:
        runs, calls = run_sites(chosen, groundtruth, attributes, seeds, test, method, llm, progress, strict=strict,
                                examples=examples)
    summary = summary_of(runs)
    summary["llm_calls"] = sum(c["llm_calls"] for c in calls)
    summary["tokens"] = sum(c["input_tokens"] + c["output_tokens"] for c in calls)
    summary["execute_llm_calls"] = sum(c["execute_llm_calls"] for c in calls)
    paths = sum((Counter(c["paths"]) for c in calls), Counter())
    verticals = group_rows(runs, calls, lambda r: r.site.vertical)
    per_site = group_rows(runs, calls, lambda r: r.site.key)
    result = BenchResult(
        name=f"swde (examples on {examples} seed pages)" if examples else f"swde ({method})", summary=summary,
        cases=case_rows(runs),
        params={"pages": str(pages), "groundtruth": str(groundtruth), "seeds": seeds, "test": test,
                "method": method, "llm": getattr(llm, "name", "none"), "strict": strict, "examples": examples,
                "per_site": [{**c, **figures} for c, figures in zip(calls, per_site, strict=True)],
                "per_vertical": verticals, "model_paths": dict(paths),
                "specs": {r.site.key: r.spec.model_dump() for r in runs}},
    )
    report(result, json_out, case_columns=["site", "attribute", "category", "precision", "recall", "f1",
                                            "lenient_category", "lenient_f1", "xpath"])
    print_groups(f"{result.name}: per site", per_site)
    print_groups(f"{result.name}: per vertical", verticals)
    if paths:
        Console().print("model paths: " + ", ".join(f"{p} {n}" for p, n in paths.most_common()), highlight=False)
    return result


def parse_list(value: str | None) -> list[str]:
    return [v.strip() for v in re.split(r"[,\s]+", value or "") if v.strip()]
