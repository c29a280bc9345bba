"""``scrapesmith bench dom``: parsing, cleaning and simplified-DOM figures on SWDE pages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.dom import gguf_token_counter, run_dom_benchmark
from scrapesmith.bench.frame import report
from scrapesmith.bench.swde import SwdeDataError, default_swde_dir
from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import JsonOutOption, progress_bar


@bench_app.command("dom")
def bench_dom_command(
    pages: Annotated[
        Path | None, typer.Option("--pages", help="SWDE pages DIR/<vertical>/<vertical>-<site>/NNNN.htm.")
    ] = None,
    groundtruth: Annotated[
        Path | None, typer.Option("--groundtruth", help="SWDE ground truth DIR (default PAGES/groundtruth).")
    ] = None,
    max_tokens: Annotated[
        int, typer.Option("--max-tokens", help="Token budget of the simplified DOM (0: none).")
    ] = 4000,
    limit: Annotated[int, typer.Option("--limit", help="Measure only the first N pages (0: all).")] = 0,
    tokenizer: Annotated[
        Path | None,
        typer.Option("--tokenizer", help="A GGUF model whose vocabulary also counts real tokens (needs llama-cpp)."),
    ] = None,
    json_out: JsonOutOption = None,
) -> None:
    """Time parse/clean/simplify against bare lxml and check that ground-truth values survive simplification."""
    pages = pages or default_swde_dir()
    groundtruth = groundtruth or pages / "groundtruth"
    if not groundtruth.is_dir():
        raise SwdeDataError(f"SWDE ground truth directory not found: {groundtruth}")
    counter = gguf_token_counter(tokenizer) if tokenizer else None
    result = run_dom_benchmark(pages, groundtruth, max_tokens or None, limit or None, progress_bar, counter)
    report(result, json_out)
    if result.cases:
        shown = sorted(result.cases, key=lambda case: -case["token_ratio"])[:5]
        largest = ", ".join(f"{case['page']}={case['token_ratio']}" for case in shown)
        console.print(f"largest token ratios: {largest}")
    missing = [case for case in result.cases if not case["gt_kept"]]
    for case in missing[:10]:
        console.print(f"[yellow]{case['page']}[/]: lost {case['missing']}", highlight=False)
