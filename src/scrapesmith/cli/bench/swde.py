"""`scrapesmith bench swde`: field scrapers induced on SWDE seed pages, scored on its test pages."""

from __future__ import annotations

import fcntl
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.confidence import ROWS as CONFIDENCE_ROWS
from scrapesmith.bench.swde import default_swde_dir, run_benchmark
from scrapesmith.cli import bench_app
from scrapesmith.cli.induce import model_for_method
from scrapesmith.cli.options import (
    JsonOutOption,
    LLMOption,
    NoCacheOption,
    check_choice,
    names_and_seeds,
    progress_bar,
)
from scrapesmith.dom import TEMPLATE_MUTATIONS
from scrapesmith.induce import METHODS, use_gate, use_ranker
from scrapesmith.llm import LLM, Completion, LLMRequest


@bench_app.command("swde")
def bench_swde_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    groundtruth: Annotated[Path | None, typer.Option(help="SWDE ground truth DIR (default PAGES/groundtruth).")] = None,
    sites: Annotated[str | None, typer.Option(help="Comma-separated site names (default: all).")] = None,
    attributes: Annotated[str | None, typer.Option(help="Comma-separated attributes (default: all).")] = None,
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(min=0, help="Test pages per site (the next N).")] = 200,
    method: Annotated[str, typer.Option(help="heuristic | choose | read | autoscraper | cot | reflexion.")] = "heuristic",
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
    mutate: Annotated[str | None, typer.Option(help="Redraw every site's pages with these layout mutations "
                                                     f"({', '.join(TEMPLATE_MUTATIONS)}), comma-separated, and forge "
                                                     "from scratch on them; each kind reported apart.")] = None,
    mutation_seeds: Annotated[str, typer.Option("--mutation-seeds", help="Seeds of each mutation, "
                                                                         "comma-separated.")] = "0,1,2",
    loso: Annotated[bool, typer.Option("--loso", help="Leave one site out: rank each site's candidates with a "
                                                    "model fitted on the other sites only (in-sample beside it).")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Leave fields the engine is unsure of empty.")] = False,
    rows: Annotated[Path | None, typer.Option("--rows", help="With --loso: the ranker's training rows, read "
                                              "from this file when it exists, else described and written "
                                              "there (default: described afresh).")] = None,
    orders: Annotated[bool | None, typer.Option("--orders/--no-orders", help="With --loso: let every fitted "
                                                "ranker reorder candidates, or only weigh confidence (default: as "
                                                "each one's inner folds decide).")] = None,
    confidence_rows: Annotated[Path, typer.Option("--confidence-rows", help="With --loso: the field-confidence "
                                                  "rows each fold's confidence is fitted on, the scored site's "
                                                  "left out (`bench swde-confidence` writes them).")] = CONFIDENCE_ROWS,
    no_ranker: Annotated[bool, typer.Option("--no-ranker", help="Rank by the hand weights alone (no learned "
                                            "ranker, no confidence from it): the baseline.")] = False,
    examples: Annotated[int, typer.Option("--examples", min=0, help="Learn each field from its values on the "
                                          "first N seed pages (as `induce --example` does), not its instruction.")] = 0,
    model_lock: Annotated[Path | None, typer.Option("--model-lock", help="Hold this lock file (flock) only while "
                                                    "the model answers, not for the whole run (a machine whose "
                                                    "model is shared).")] = None,
    open_gates: Annotated[bool, typer.Option("--open-gates", help="With --method choose: ask the model on every "
                                             "path, the shipped gate aside (the run `bench swde-choose-gate` fits "
                                             "it from).")] = False,
    json_out: JsonOutOption = None,
) -> None:
    """Induce on SWDE seed pages and score on test pages with AutoScraper's executability metric, overall,
    per site and per vertical (model calls and tokens per site with a model)."""
    pages = pages or default_swde_dir()
    groundtruth = groundtruth or pages / "groundtruth"
    check_choice("--method", method, METHODS)
    refuse_unused(loso=loso, mutate=mutate is not None, no_ranker=no_ranker, examples=examples, strict=strict)
    drawn = names_and_seeds("--mutate", mutate, TEMPLATE_MUTATIONS, mutation_seeds) if mutate is not None else None
    model = model_for_method(method, llm, no_cache)
    if model is not None and model_lock is not None:
        model = locked(model, model_lock)
    with use_ranker(None) if no_ranker else nullcontext(), use_gate(None) if open_gates else nullcontext():
        if loso:
            from scrapesmith.bench.swde_loso import run_loso

            run_loso(pages, groundtruth, sites, attributes, seeds, test, method, model, json_out, progress_bar,
                     rows_cache=rows, strict=strict, orders=orders, confidence_rows=confidence_rows,
                     examples=examples)
        elif drawn is not None:
            from scrapesmith.bench import run_mutated

            kinds, numbers = drawn
            run_mutated(pages, groundtruth, sites, attributes, seeds, test, method, model, kinds, numbers,
                        json_out, progress_bar)
        else:
            run_benchmark(pages, groundtruth, sites, attributes, seeds, test, method, model, json_out,
                          progress_bar, strict=strict, examples=examples)


def refuse_unused(*, loso: bool, mutate: bool, no_ranker: bool, examples: int, strict: bool) -> None:
    """A usage error (exit 2) for an option the chosen run would otherwise ignore."""
    if loso and mutate:
        raise typer.BadParameter("--loso and --mutate are separate runs: give one of them", param_hint="--mutate")
    if loso and no_ranker:
        raise typer.BadParameter("fits nothing to leave a site out of: run it without --loso", param_hint="--no-ranker")
    if mutate and (examples or strict):
        raise typer.BadParameter("not taken with --mutate: run it without --mutate",
                                 param_hint="--examples" if examples else "--strict")


@bench_app.command("swde-ranker")
def bench_swde_ranker_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(min=1, help="Pages per site that label the candidates (the next N).")] = 7,
    rows: Annotated[Path, typer.Option(help="Where the training rows go (JSON lines, gzip).")] = Path(
        "bench/data/swde-ranker-rows.jsonl.gz"),
    output: Annotated[Path | None, typer.Option("-o", "--output", help="The model file (default: the one "
                                                                       "the package ships).")] = None,
    orders: Annotated[bool | None, typer.Option("--orders/--no-orders", help="Let the model reorder candidates "
                                                "(default: as its inner folds decide) or only weigh confidence.")] = None,
) -> None:
    """Retrain the learned ranker on every SWDE development site: describe each site's candidates, label each
    by its score on the site's test pages, fit, and write the model the package ships."""
    from scrapesmith.bench.swde_ranker import train_shipped

    pages = pages or default_swde_dir()
    train_shipped(pages, pages / "groundtruth", seeds, test, rows, output, progress_bar, orders=orders)


@bench_app.command("swde-confidence")
def bench_swde_confidence_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per window.")] = 3,
    test: Annotated[int, typer.Option(min=1, help="Pages after each window that label its fields.")] = 7,
    windows: Annotated[int, typer.Option(min=1, help="Seed windows per site (pages 0-2, 3-5, ...).")] = 3,
    rows: Annotated[Path, typer.Option(help="Where the rows go (JSON lines, gzip).")] = Path(
        "bench/data/swde-confidence-rows.jsonl.gz"),
    reuse: Annotated[bool, typer.Option(help="Reuse the rows file instead of inducing again.")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="The model file (default: the one "
                                                                       "the package ships).")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the figures and rows as JSON.")] = None,
) -> None:
    """Fit the field-confidence model on every SWDE development site and report its flags leave-one-site-out
    (wrong values flagged, right values flagged) beside in-sample; write the model the package ships."""
    from scrapesmith.bench.confidence import run

    pages = pages or default_swde_dir()
    run(pages, seeds, test, windows, rows, output, json_out, progress_bar, reuse=reuse)


@bench_app.command("swde-choose-gate")
def bench_swde_choose_gate_command(
    asked: Annotated[Path, typer.Option(help="`bench swde --method choose --open-gates --json` result.")],
    evidence: Annotated[Path, typer.Option(help="`bench swde --method heuristic --json` result on the same sites.")],
    write: Annotated[bool, typer.Option("--write", help="Write the gate fitted on every site as the one the "
                                        "package ships.")] = False,
    json_out: JsonOutOption = None,
) -> None:
    """Fit where `--method choose` may ask the model (the paths where its choices did more good than harm and
    that harmed no site when fitted without it) and score the gate left one site out and in-sample beside the
    evidence alone (no model run: it reads the two results)."""
    import json

    from scrapesmith.bench.swde_gate import evaluate, write_gate

    results = []
    for path in (asked, evidence):
        try:
            results.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise typer.BadParameter(f"{path}: not a bench swde JSON result ({exc})") from exc
    evaluation = evaluate(*results)
    print_gate(evaluation)
    if json_out:
        json_out.write_text(json.dumps(evaluation, indent=1) + "\n", encoding="utf-8")
    if write:
        write_gate(evaluation, f"scrapesmith bench swde-choose-gate --asked {asked} --evidence {evidence} --write")


def print_gate(evaluation: dict) -> None:
    from rich.table import Table

    from scrapesmith.cli import console

    table = Table(title="choose gate: Correct / F1 per site")
    for header in ("site", "evidence", "all paths open", "gate in-sample", "gate LOSO", "asked (LOSO)"):
        table.add_column(header)
    cell = lambda f: f"{f['correct_ratio']:.3f} / {f['f1']:.3f}"
    for row in [*evaluation["sites"], {"site": "overall", **evaluation["overall"], "asked": ""}]:
        table.add_row(row["site"], cell(row["evidence"]), cell(row["open"]), cell(row["in_sample"]),
                      cell(row["loso"]), str(row["asked"]))
    console.print(table)
    for path, gain in evaluation["gains"].items():
        state = ("open" if path in evaluation["open_paths"] else "closed: its help does not show left one site out"
                 if path in evaluation.get("majority_paths", ()) else "closed")
        console.print(f"{path}: {gain['fields']} asked, {gain['right']} made right, {gain['wrong']} made wrong, "
                      f"F1 {gain['f1']:+.2f} -> {state}", highlight=False)


def locked(model: LLM, lock: Path) -> LLM:
    """``model`` with its innermost provider behind ``lock``: answers from the response cache take no lock."""
    holder = model
    while hasattr(getattr(holder, "inner", None), "inner"):
        holder = holder.inner
    if getattr(holder, "inner", None) is None:
        return LockedLLM(model, lock)
    holder.inner = LockedLLM(holder.inner, lock)
    return model


class LockedLLM:
    """An LLM whose every call holds an exclusive ``flock`` on a file: runs that share one machine's model
    wait for each other's calls, not for each other's whole runs."""

    def __init__(self, inner: LLM, lock: Path) -> None:
        self.inner, self.lock, self.name = inner, lock, inner.name

    def complete(self, request: LLMRequest) -> Completion:
        with self.lock.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                return self.inner.complete(request)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def __getattr__(self, attribute: str):
        if attribute == "inner":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)
