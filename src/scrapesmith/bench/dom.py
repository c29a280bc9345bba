"""Parsing, cleaning and simplified-DOM benchmark on SWDE pages.

For every page: time ``parse_html``, ``clean_tree`` and ``simplify`` against bare ``lxml.html.fromstring``
on the same bytes in the same run; compare the simplified DOM's tokens with the raw HTML's (both with
:func:`estimate_tokens`); and check that every ground-truth value's text survives in the simplified DOM
text. SWDE values carry entities and stray separators (``: 9780316125581``), so values are unescaped,
stripped of leading separators and compared without whitespace, as SWDE evaluation does.
"""

from __future__ import annotations

import html
import re
import statistics
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html
from rich.progress import Progress

from scrapesmith.bench.frame import BenchResult
from scrapesmith.bench.swde import SwdeSite, discover_sites, load_groundtruth
from scrapesmith.dom import clean_tree, estimate_tokens, parse_html, simplify
from scrapesmith.errors import ScrapesmithError

_LEADING_SEPARATORS = re.compile(r"^[\s:;,|/\-–—•·]+")
_WHITESPACE = re.compile(r"\s+")

TokenCounter = Callable[[str], int]


def gguf_token_counter(path: Path) -> TokenCounter:
    """Real token counts from a GGUF model's vocabulary (llama-cpp-python, vocabulary only: fast, no weights).

    Lets anyone check :func:`estimate_tokens` against the tokenizer of the model they actually use, e.g.
    the embedded model's file.
    """
    if not path.is_file():
        raise ScrapesmithError(f"tokenizer model not found: {path}")
    try:
        import llama_cpp
    except ImportError as exc:
        raise ScrapesmithError("counting with a model's tokenizer needs llama-cpp-python (pip install 'scrapesmith[local]')") from exc
    vocabulary = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    return lambda text: len(vocabulary.tokenize(text.encode("utf-8"), add_bos=False, special=False))


@dataclass
class PageResult:
    page: str
    raw_tokens: int
    simplified_tokens: int
    bare_ms: float
    parse_ms: float
    clean_ms: float
    simplify_ms: float
    gt_values: int
    missing: list[str] = field(default_factory=list)
    real_raw_tokens: int | None = None
    real_simplified_tokens: int | None = None

    @property
    def real_token_ratio(self) -> float | None:
        if self.real_raw_tokens is None or self.real_simplified_tokens is None:
            return None
        return self.real_simplified_tokens / max(self.real_raw_tokens, 1)

    @property
    def token_ratio(self) -> float:
        return self.simplified_tokens / max(self.raw_tokens, 1)

    def row(self) -> dict:
        return {
            "page": self.page,
            "raw_tokens": self.raw_tokens,
            "simplified_tokens": self.simplified_tokens,
            "token_ratio": round(self.token_ratio, 4),
            "gt_kept": not self.missing,
            "missing": "; ".join(self.missing),
            "bare_ms": round(self.bare_ms, 3),
            "parse_ms": round(self.parse_ms, 3),
            "clean_ms": round(self.clean_ms, 3),
            "simplify_ms": round(self.simplify_ms, 3),
            **({"real_token_ratio": round(self.real_token_ratio, 4)} if self.real_token_ratio is not None else {}),
        }


def normalize_value(value: str) -> str:
    """SWDE value -> comparable form: entities unescaped, leading separators gone, no whitespace."""
    value = _LEADING_SEPARATORS.sub("", html.unescape(value))
    return _WHITESPACE.sub("", value).lower()


def compact(text: str) -> str:
    return _WHITESPACE.sub("", html.unescape(text)).lower()


def site_groundtruth(site: SwdeSite, groundtruth_dir: Path) -> dict[str, dict[str, list[str]]]:
    """``{page_id: {attribute: values}}`` from every ground-truth file of ``site``."""
    folder = groundtruth_dir / site.vertical
    files = sorted(folder.glob(f"{site.key}-*.txt"))
    truth: dict[str, dict[str, list[str]]] = {}
    for path in files:
        attribute = path.stem[len(site.key) + 1 :]
        for page_id, values in load_groundtruth(path).items():
            truth.setdefault(page_id, {})[attribute] = values
    return truth


def measure_page(
    path: Path, truth: dict[str, list[str]], max_tokens: int | None, tokenizer: TokenCounter | None = None
) -> PageResult:
    content = path.read_bytes()
    started = time.perf_counter()
    lxml.html.fromstring(content)
    bare = time.perf_counter()
    tree = parse_html(content)
    parsed = time.perf_counter()
    clean_tree(tree)
    cleaned = time.perf_counter()
    simplified = simplify(tree, max_tokens=max_tokens)
    done = time.perf_counter()
    text = compact(simplified.text)
    missing = [
        f"{attribute}={value}"
        for attribute, values in truth.items()
        for value in values
        if normalize_value(value) and normalize_value(value) not in text
    ]
    raw_text = content.decode("utf-8", errors="replace")
    return PageResult(
        page=path.stem,
        raw_tokens=estimate_tokens(raw_text),
        simplified_tokens=simplified.tokens,
        bare_ms=(bare - started) * 1000,
        parse_ms=(parsed - bare) * 1000,
        clean_ms=(cleaned - parsed) * 1000,
        simplify_ms=(done - cleaned) * 1000,
        gt_values=sum(len(values) for values in truth.values()),
        missing=missing,
        real_raw_tokens=tokenizer(raw_text) if tokenizer else None,
        real_simplified_tokens=tokenizer(simplified.text) if tokenizer else None,
    )


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summarize(results: list[PageResult]) -> dict[str, float | int]:
    pages = len(results)
    ratios = [r.token_ratio for r in results]
    mean = {name: statistics.fmean(getattr(r, name) for r in results) for name in
            ("bare_ms", "parse_ms", "clean_ms", "simplify_ms")}
    total = mean["parse_ms"] + mean["clean_ms"] + mean["simplify_ms"]
    summary: dict[str, float | int] = {
        "pages": pages,
        "ms_per_page": round(total, 3),
        "bare_ms_per_page": round(mean["bare_ms"], 3),
        "parse_ms_per_page": round(mean["parse_ms"], 3),
        "clean_ms_per_page": round(mean["clean_ms"], 3),
        "simplify_ms_per_page": round(mean["simplify_ms"], 3),
        "slowdown_vs_bare": round(total / max(mean["bare_ms"], 1e-9), 2),
        "token_ratio_median": round(statistics.median(ratios), 4),
        "token_ratio_p90": round(_percentile(ratios, 0.9), 4),
        "pages_within_one_fifth": round(sum(r <= 0.2 for r in ratios) / pages, 4),
        "raw_tokens_median": statistics.median(r.raw_tokens for r in results),
        "simplified_tokens_median": statistics.median(r.simplified_tokens for r in results),
        "gt_kept_ratio": round(sum(not r.missing for r in results) / pages, 4),
        "gt_values_missing": sum(len(r.missing) for r in results),
        "gt_values": sum(r.gt_values for r in results),
        "seconds": round(sum(r.bare_ms + r.parse_ms + r.clean_ms + r.simplify_ms for r in results) / 1000, 2),
    }
    real = [r.real_token_ratio for r in results if r.real_token_ratio is not None]
    if real:
        summary["real_token_ratio_median"] = round(statistics.median(real), 4)
        summary["real_token_ratio_p90"] = round(_percentile(real, 0.9), 4)
        summary["real_pages_within_one_fifth"] = round(sum(r <= 0.2 for r in real) / len(real), 4)
        for kind in ("raw", "simplified"):
            estimated = sum(getattr(r, f"{kind}_tokens") for r in results)
            counted = sum(getattr(r, f"real_{kind}_tokens") for r in results)
            summary[f"estimate_error_{kind}"] = round(estimated / max(counted, 1) - 1, 4)
    return summary


def run_dom_benchmark(
    pages_dir: Path,
    groundtruth_dir: Path,
    max_tokens: int | None = 4000,
    limit: int | None = None,
    progress: Callable[[], AbstractContextManager[Progress | None]] = nullcontext,
    tokenizer: TokenCounter | None = None,
) -> BenchResult:
    """Measure every SWDE page under ``pages_dir`` (``DIR/<vertical>/<vertical>-<site>/NNNN.htm``)."""
    results: list[PageResult] = []
    sites = discover_sites(pages_dir)
    truths = {site.key: site_groundtruth(site, groundtruth_dir) for site in sites}
    paths = [(site, path) for site in sites for path in site.page_paths()][:limit]
    with progress() as bar:
        task = bar.add_task("parse + clean + simplify", total=len(paths)) if bar else None
        for site, path in paths:
            results.append(measure_page(path, truths[site.key].get(path.stem, {}), max_tokens, tokenizer))
            if bar is not None:
                bar.advance(task)
    return BenchResult(
        name="dom",
        summary=summarize(results) if results else {"pages": 0},
        cases=[r.row() for r in results],
        params={"pages": str(pages_dir), "groundtruth": str(groundtruth_dir), "max_tokens": max_tokens,
                "sites": [site.key for site in sites]},
    )
