"""Demo step 2: induce a book scraper on each demo book layout, then replay it with no LLM.

It fetches three seed detail pages per layout,
induces a spec (heuristic, so the step stays fast and offline), replays it on further detail pages with
no LLM, and prints the spec and the extracted table next to the site's ground truth.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from scrapesmith.demo.context import DemoContext
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper, parse_for_replay
from scrapesmith.io import write_rows

DEMO_FIELDS = (
    FieldRequest("title", "the title of the book"),
    FieldRequest("author", "the author(s) of the book"),
    FieldRequest("isbn_13", "the ISBN-13 of the book"),
    FieldRequest("publisher", "the publisher of the book"),
    FieldRequest("publication_date", "the publication date of the book"),
    FieldRequest("price", "the sale price of the book"),
)
LAYOUTS = ("bookshelf", "pagecraft")


def _expected(record: dict[str, Any], name: str) -> Any:
    return record["authors"] if name == "author" else record.get(name)


def induce_demo_layout(ctx: DemoContext, layout: str, seeds: int = 3, replay: int = 6) -> float:
    """Induce on ``seeds`` detail pages of ``layout``, replay on ``replay`` more; return the cell accuracy."""
    server, console, run_dir = ctx.server, ctx.console, ctx.run_dir
    paths = sorted(server.sites.urls(layout, "detail"))[: seeds + replay]
    pages = [ctx.fetcher.fetch(server.url(p)) for p in paths]
    spec = induce_scraper(DEMO_FIELDS, [parse_for_replay(p.text) for p in pages[:seeds]], site=layout,
                          seed_names=[p.url for p in pages[:seeds]])
    spec.save(run_dir / f"spec-{layout}.json")
    shown = Table(title=f"{layout}: induced spec {spec.spec_id} (heuristic, {seeds} seeds)")
    shown.add_column("field")
    shown.add_column("action sequence", overflow="fold")
    for field in spec.fields:
        shown.add_row(field.name, escape(" ⟶ ".join(field.actions)) or "(none)")
    console.print(shown)

    truth = {b["url"]: b for b in server.sites.truth(layout)["books"]}
    compiled = CompiledSpec(spec)
    rows, right, cells = [], 0, 0
    table = Table(title=f"{layout}: replayed on {replay} unseen pages, no LLM")
    for field in spec.fields:
        table.add_column(field.name, overflow="fold")
    for path, page in zip(paths[seeds:], pages[seeds:], strict=True):
        row = compiled.row(page.text)
        rows.append({"source_url": page.url, "fetched_at": page.fetched_at.isoformat(),
                     "program_id": spec.spec_id, **row})
        cells += len(spec.fields)
        right += sum(row[f.name] == _expected(truth[path], f.name) for f in spec.fields)
        table.add_row(*(escape(", ".join(v) if isinstance(v, list) else str(v)) for v in row.values()))
    console.print(table)
    write_rows(rows, run_dir / f"books-{layout}.csv")
    accuracy = right / cells if cells else 0.0
    console.print(f"{layout}: {right}/{cells} cells match the ground truth ({accuracy:.0%})", highlight=False)
    return accuracy


def induce_book_scrapers(ctx: DemoContext) -> dict[str, float]:
    """The whole demo step: both layouts; returns the per-layout cell accuracy."""
    return {layout: induce_demo_layout(ctx, layout) for layout in LAYOUTS}
