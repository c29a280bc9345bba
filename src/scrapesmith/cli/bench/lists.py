"""`scrapesmith bench nexteval` and `bench weblists`: list extraction on NEXT-EVAL's real pages and the demo web's lists."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from lxml import etree

from scrapesmith.bench.frame import report, save_json
from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import (
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    RuntimeOption,
    llm_from_options,
    names_and_seeds,
    progress_bar,
    usage_error,
)
from scrapesmith.dom import TEMPLATE_MUTATIONS, PageLayout
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists import make_runtimes
from scrapesmith.llm import Ledger, use_ledger

HTML_OPTION = typer.Option(Path("../shared/data/next-eval/html"), "--html", help="Directory of N.html pages.")


GROUNDTRUTH_OPTION = typer.Option(
    Path("../shared/data/next-eval/groundtruth"),
    "--groundtruth",
    help="Directory of N.json record lists.",
)


FIT_OPTION = typer.Option(
    False, "--fit", help="Refit the list-evidence weights on these pages and print them (no scoring run)."
)


RENDER_OPTION = typer.Option(
    False,
    "--render",
    help="Draw each page once in Chromium (its own markup only, nothing fetched) and use its layout as evidence.",
)


LAYOUT_CACHE_OPTION = typer.Option(
    True,
    "--layout-cache/--no-layout-cache",
    help="With --render, keep each drawn page's boxes in the user cache and reuse them on later runs.",
)


SITE_OPTION = typer.Option([], "--site", help="Only these demo sites (acme, globex, northwind); repeatable.")


LIMIT_OPTION = typer.Option(None, "--limit", help="Only the first N pages.")


PAGES_OPTION = typer.Option(None, "--pages", help="Only these page ids, comma-separated (e.g. 5,22,54).")


MUTATE_OPTION = typer.Option(
    None,
    "--mutate",
    help=f"Redraw every page with these template mutations ({', '.join(TEMPLATE_MUTATIONS)}), comma-separated, "
    "and score the shipped detector on them beside the pages as they are; each kind reported apart.",
)


MUTATION_SEEDS_OPTION = typer.Option("0,1,2", "--mutation-seeds", help="Seeds of each mutation, comma-separated.")


USE_CASE_OPTION = typer.Option(
    [], "--use-case", help="Only these use cases (jobs, category, blog, testimonials); repeatable."
)


@bench_app.command("nexteval")
def bench_nexteval_command(
    html: Path = HTML_OPTION,
    groundtruth: Path = GROUNDTRUTH_OPTION,
    json_out: JsonOutOption = None,
    limit: int | None = LIMIT_OPTION,
    pages: str | None = PAGES_OPTION,
    fit: bool = FIT_OPTION,
    render: bool = RENDER_OPTION,
    layout_cache: bool = LAYOUT_CACHE_OPTION,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    mutate: str | None = MUTATE_OPTION,
    mutation_seeds: str = MUTATION_SEEDS_OPTION,
) -> None:
    """Record detection on NEXT-EVAL pages, scored with NEXT-EVAL's own metric.

    Without --llm (or with --llm none) the evidence alone decides; with a model, it chooses the main
    list where the evidence's best two options are close, and calls and tokens are reported per page.
    With --render each page is drawn once in Chromium (its own markup only, nothing fetched) and the
    layout joins the DOM evidence; seconds per page are reported beside F1. Drawn pages are kept in the
    user cache (--no-layout-cache draws every page again), so reruns and --fit --render take seconds.
    With --mutate each page is also redrawn in other templates (DOM evidence, shipped weights, no model).
    """
    if mutate is not None:
        if fit or render or (llm or "none") != "none":
            raise usage_error("--mutate scores the DOM evidence alone: leave out --fit, --render and --llm")
        kinds, seeds = names_and_seeds("--mutate", mutate, TEMPLATE_MUTATIONS, mutation_seeds)
        _bench_mutated(html, groundtruth, kinds, seeds, limit, pages, json_out)
        return
    from scrapesmith.bench.nexteval import (
        RenderingDetector,
        detect_records,
        model_detector,
        page_ids,
        run_nexteval,
    )

    with _renderer(render, layout_cache) as draw:
        if fit:
            _fit_evidence(html, groundtruth, limit, draw)
            _say_layout_origin(draw)
            return
        ledger = Ledger()
        model = llm_from_options(llm or "none", no_cache, ledger=ledger)
        only = [page.strip() for page in pages.split(",") if page.strip()] if pages else None
        total = len(page_ids(html, groundtruth, only)[:limit])
        detector = RenderingDetector(draw) if draw is not None else detect_records
        with progress_bar() as progress, use_ledger(ledger):
            task = progress.add_task("nexteval", total=total)
            result = run_nexteval(
                html,
                groundtruth,
                limit,
                detector=model_detector(model, draw) if model is not None else detector,
                only=only,
                progress=lambda _page: progress.advance(task),
                ledger=ledger if model is not None else None,
            )
    result.params["llm"] = getattr(model, "name", "none")
    result.params["render"] = render
    report(result, json_out)
    _say_layout_origin(draw)
    fallbacks = [case for case in result.cases if case.get("rendered") is False]
    if fallbacks:
        console.print(
            f"{len(fallbacks)} of {len(result.cases)} pages were not rendered and used the DOM evidence alone "
            f"(page {fallbacks[0]['page']}: {fallbacks[0].get('layout_note', '')})",
            markup=False,
        )


def _bench_mutated(
    html: Path,
    groundtruth: Path,
    kinds: tuple[str, ...],
    seeds: tuple[int, ...],
    limit: int | None,
    pages: str | None,
    json_out: Path | None,
) -> None:
    """The detector on the pages as they are and under every (kind, seed) draw, one row per kind."""
    from scrapesmith.bench.nexteval import page_ids
    from scrapesmith.bench.nexteval_mutated import UNMUTATED, run_mutated_nexteval

    only = [page.strip() for page in pages.split(",") if page.strip()] if pages else None
    total = len(page_ids(html, groundtruth, only)[:limit]) * (1 + len(kinds) * len(seeds))
    with progress_bar() as progress:
        task = progress.add_task("nexteval --mutate", total=total)
        result = run_mutated_nexteval(
            html, groundtruth, kinds, seeds, limit, only, progress=lambda _draw: progress.advance(task)
        )
    if json_out is not None:
        save_json(result, json_out)
    summary = result.summary
    for kind in (UNMUTATED, *kinds):
        console.print(
            f"{kind:>9}: F1 {summary[f'{kind}_f1']:.4f}  P {summary[f'{kind}_precision']:.4f}  "
            f"R {summary[f'{kind}_recall']:.4f}  pages under 0.5: {summary[f'{kind}_pages_low']} of "
            f"{summary[f'{kind}_pages']}  true paths lost: {summary[f'{kind}_truth_paths_lost']}",
            markup=False,
            highlight=False,
        )


def _say_layout_origin(draw: Callable[[etree._Element], PageLayout] | None) -> None:
    """How many pages were drawn and how many layouts came from the cache (and where it is)."""
    from scrapesmith.bench.layout_cache import LayoutCache

    if isinstance(draw, LayoutCache):
        console.print(
            f"layouts: {draw.drawn} pages drawn, {draw.hits} read from the cache ({draw.directory})",
            markup=False,
            highlight=False,
        )


@contextmanager
def _renderer(render: bool, cached: bool = True) -> Iterator[Callable[[etree._Element], PageLayout] | None]:
    """With --render, one Chromium for the run, drawing each page from its own markup (read from the
    layout cache when it was drawn before, and stored there when ``cached``); otherwise none."""
    if not render:
        yield None
        return
    from scrapesmith.bench.layout_cache import LayoutCache
    from scrapesmith.config import read_settings
    from scrapesmith.web.browser import BrowserRuntime, render_layout

    runtime = BrowserRuntime()  # started by the first page drawn: a browser that cannot start leaves every
    try:  # page to the DOM evidence, each one counted with the reason, instead of ending the run

        def draw(root: etree._Element) -> PageLayout:
            return render_layout(root, runtime)

        yield LayoutCache(read_settings().cache_dir / "layouts", draw) if cached else draw
    finally:
        runtime.close()


def _fit_evidence(
    html: Path, groundtruth: Path, limit: int | None, draw: Callable[[etree._Element], PageLayout] | None
) -> None:
    """Refit the list-evidence weights and say how they do on pages they were not fitted on."""
    from scrapesmith.bench.nexteval_fit import (
        LOW_F1,
        choose_c,
        fit_models,
        held_out_report,
        load_pages,
        page_scores,
    )

    with console.status("measuring every candidate list…"):
        pages = load_pages(html, groundtruth, limit, draw)
    with console.status("choosing the penalty on two halves of the pages…"):
        c = choose_c(pages)
    fitted = fit_models(pages, c)
    console.print(f"# L2 penalty C = {c} (chosen on two halves of these pages)", highlight=False)
    console.print(fitted.as_python(), markup=False, highlight=False)
    scores = page_scores(pages, fitted)
    low = sum(1 for score in scores if score < LOW_F1)
    console.print(
        f"F1 on the fitted pages {sum(scores) / max(len(scores), 1):.4f}, {low} of {len(scores)} under {LOW_F1}",
        highlight=False,
    )
    with console.status("refitting on held-out splits…"):
        lines = held_out_report(pages, c)
    for line in lines:
        console.print(line, highlight=False)


@bench_app.command("weblists")
def bench_weblists_command(
    json_out: JsonOutOption = None,
    runtime: RuntimeOption = None,
    use_case: list[str] = USE_CASE_OPTION,
    site: list[str] = SITE_OPTION,
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """WebLists-style precision/recall of list extraction on the demo company sites (served locally)."""
    from scrapesmith.bench.weblists import COMPANY_SITES, USE_CASES, run_weblists
    from scrapesmith.sites import serve_sites

    chosen = tuple(use_case) or USE_CASES
    sites = tuple(site) or COMPANY_SITES
    unknown = [name for name in (*chosen, *sites) if name not in (*USE_CASES, *COMPANY_SITES)]
    if unknown:
        raise ScrapesmithError(f"unknown use case or site: {', '.join(unknown)}")
    model = llm_from_options(llm, no_cache)
    runtime = runtime or "http"
    with serve_sites() as server, progress_bar() as progress:
        task = progress.add_task("weblists", total=len(sites) * len(chosen))
        truths = {name: server.sites.truth(name) for name in sites}
        with make_runtimes(runtime, [f"{server.host}:{server.port}"], delay=0.0) as runtimes:
            result = run_weblists(
                server.base_url,
                truths,
                runtimes,
                model,
                sites=sites,
                use_cases=chosen,
                progress=lambda _name: progress.advance(task),
            )
    result.params["runtime"] = runtime
    report(
        result,
        json_out,
        case_columns=[
            "site",
            "use_case",
            "rows",
            "truth_rows",
            "precision",
            "recall",
            "text_precision",
            "text_recall",
            "pages",
            "llm_calls",
        ],
    )

