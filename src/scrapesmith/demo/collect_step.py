"""Demo step 4: one Instruct2DS-style instruction per domain turned into a dataset, scored against the truth."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from scrapesmith.bench.instruct2ds import SITE_OF, demo_instructions, score_task, site_truths
from scrapesmith.bench.instruct2ds_runner import single_page_start
from scrapesmith.collect import CollectResult, collect, live_progress
from scrapesmith.demo.context import DemoContext
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import read_rows
from scrapesmith.llm import LLM, resolve_llm


def collect_per_domain(ctx: DemoContext) -> None:
    """Step 4: one Instruct2DS-style instruction per domain -> validated dataset, scored against the truth.

    Uses the default model (``SCRAPESMITH_LLM``, else the embedded one, else none). Academic and sports
    instructions name their listing page; the finance one does not, so the agents research the stock
    site and its REST API themselves (without a model its seed, the stock site, is searched by the
    instruction's keywords). The ground truth is built from the sites' own data, never from pages.
    """
    truths = site_truths(ctx.server.sites)
    llm = resolve_llm(ctx.llm_spec, cache=ctx.llm_cache)
    ctx.console.print(f"Model: {getattr(llm, 'name', 'none (heuristic path)') if llm else 'none (heuristic path)'}")
    table = Table("domain", "rows", "F1", "P", "R", "s", "LLM calls", "tokens", "dataset")
    for task in demo_instructions(truths):
        domain = task.template.domain
        start = single_page_start(task)
        instruction = task.instruction + (f" Start at {ctx.server.url(start)}" if start else "")
        ctx.console.print(f"[bold]{domain}[/]: {instruction}", highlight=False)
        result = _collect_with_status(ctx, instruction, llm, ctx.run_dir / f"collect-{domain}",
                                      [ctx.server.url(f"/{SITE_OF[domain]}/")])
        if isinstance(result, str):
            ctx.console.print(f"  [yellow]not collected[/]: {result}", highlight=False)
            table.add_row(domain, "0", "-", "-", "-", "-", "0", "0", result[:60])
            continue
        rows = read_rows(result.dataset) if result.dataset.is_file() else []
        scores = score_task(rows, task.template.truth(truths[domain], task.values), task.template.columns)
        ctx.console.print(
            f"  {result.rows} rows, valid={result.valid}; F1 {scores['f1']:.4f} against the ground truth; "
            f"{result.seconds:.0f} s, {result.llm_calls} LLM calls, {result.tokens} tokens. "
            f"Rerun without a model: scrapesmith run {result.run_dir / 'program.py'} --allow-host 127.0.0.1; "
            f"report: {result.report}",
            highlight=False)
        table.add_row(domain, str(result.rows), f"{scores['f1']:.4f}", f"{scores['precision']:.4f}",
                      f"{scores['recall']:.4f}", f"{result.seconds:.0f}", str(result.llm_calls), str(result.tokens),
                      str(result.dataset))
    ctx.console.print(table)


def _collect_with_status(ctx: DemoContext, instruction: str, llm: LLM | None, run_dir: Path,
                         seeds: list[str]) -> CollectResult | str:
    """Run ``collect`` with a live status line; a user-facing failure comes back as its message."""
    with ctx.console.status("collecting…", spinner="dots") as status:
        try:
            return collect(instruction, llm=llm, run_dir=run_dir, allow_hosts=["127.0.0.1"],
                           progress=live_progress(ctx.console, status), delay=0.0, seeds=seeds)
        except ScrapesmithError as exc:
            return str(exc).splitlines()[0]
