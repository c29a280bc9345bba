"""The validation agent's checks: schema, non-empty required columns, uniqueness, numbers, row count,
and a sample of rows compared with the pages they came from (read back from the run's WARC archive).

Each sampled value is compared with the page it came from: a column the list program's detail pass
fills is looked for on the row's ``detail_url``, every other column on its ``source_url``."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationError

from scrapesmith.collect.views import Blueprint, Check
from scrapesmith.io import read_rows
from scrapesmith.lists.detail import MULTI_SEPARATOR
from scrapesmith.lists.dsl import ScrapeFields
from scrapesmith.lists.views import ListProgram
from scrapesmith.web.archive import WarcReplayFetcher
from scrapesmith.web.page import FetchError, Page

SAMPLE_ROWS = 3


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def validate_dataset(run_dir: Path, blueprint: Blueprint) -> list[Check]:
    path = run_dir / "dataset.jsonl"
    rows = read_rows(path) if path.is_file() else []
    fields = blueprint.fields
    rules = blueprint.validation
    missing = [f for f in fields if rows and f not in rows[0]]
    checks = [Check(name="rows", ok=len(rows) >= rules.min_rows, detail=f"{len(rows)} rows (need {rules.min_rows})"),
              Check(name="schema", ok=not missing, detail=f"missing columns: {', '.join(missing)}" if missing else
                    f"columns {', '.join(fields)}")]
    for column in rules.required:
        empty = sum(1 for r in rows if not str(r.get(column) or "").strip())
        checks.append(Check(name=f"non-empty:{column}", ok=empty == 0, detail=f"{empty} empty values"))
    if rules.unique:
        keys = [tuple(str(r.get(c)) for c in rules.unique) for r in rows]
        duplicates = len(keys) - len(set(keys))
        checks.append(Check(name="unique", ok=duplicates == 0, detail=f"{duplicates} duplicate rows"))
    for column in rules.numeric:
        bad = [r.get(column) for r in rows if _number(str(r.get(column) or "")) is None]
        checks.append(Check(name=f"numeric:{column}", ok=not bad, detail=f"{len(bad)} non-numeric values"))
    checks.append(_sample_check(run_dir, rows, rules.required, detail_columns(blueprint)))
    return checks


def detail_columns(blueprint: Blueprint) -> set[str]:
    """The output columns the list program's detail pass fills (their values come from ``detail_url``)."""
    if not blueprint.list_program:
        return set()
    try:
        plan = ListProgram.model_validate(blueprint.list_program).plan()
    except ValidationError:
        return set()
    extracted = {c for a in plan.detail for c in (a.columns if isinstance(a, ScrapeFields) else
                                                   [getattr(a, "column", "")])}
    return {c for c in blueprint.fields if blueprint.field_map.get(c, c) in extracted}


def _sample_check(run_dir: Path, rows: list[dict], columns: list[str], from_detail: set[str]) -> Check:
    """Each sampled value must appear in the archived page it came from (its row's detail or source page)."""
    archive = run_dir / "pages.warc.gz"
    if not archive.is_file() or not rows:
        return Check(name="sample-against-pages", ok=False, detail="no archived pages to compare with")
    replay = WarcReplayFetcher(archive)
    step = max(1, len(rows) // SAMPLE_ROWS)
    misses = []
    texts: dict[str, str | None] = {}
    for row in rows[::step][:SAMPLE_ROWS]:
        for column in columns:
            value = str(row.get(column) or "")
            url = str(row.get("detail_url") if column in from_detail and row.get("detail_url")
                      else row.get("source_url"))
            if url not in texts:
                texts[url] = _archived_text(replay, url)
            if texts[url] is None:
                misses.append(f"{url} not archived")
            elif value and not _on_page(value, texts[url] or ""):
                misses.append(f"{column}={value[:40]!r} not on {url}")
    misses = list(dict.fromkeys(misses))
    return Check(name="sample-against-pages", ok=not misses, detail="; ".join(misses[:3]) or
                 f"{min(SAMPLE_ROWS, len(rows))} sampled rows found on the pages they came from")


def _archived_text(replay: WarcReplayFetcher, url: str) -> str | None:
    try:
        page: Page = replay.fetch(url)
    except FetchError:
        return None
    text = html.unescape(page.text) if page.is_html else json.dumps(json.loads(page.text))
    return _WS.sub(" ", text)


_WS = re.compile(r"\s+")


def _on_page(value: str, text: str) -> bool:
    """Found as written (spaces collapsed), as a link's path (pages link relatively), as a number in
    another format, or, for a multi-valued cell (``"A; B"``), each of its values."""
    value = _WS.sub(" ", value).strip()
    if value in text or (value.startswith("http") and urlsplit(value).path in text):
        return True
    parts = [p for p in value.split(MULTI_SEPARATOR) if p.strip()]
    if len(parts) > 1 and all(_on_page(p, text) for p in parts):
        return True
    return _number_on_page(value, text)


def _number_on_page(value: str, text: str) -> bool:
    number = _number(value)
    if number is None:
        return False
    return any(form in text for form in (f"{number:,}", f"{number:g}", f"{number:.2f}", f"{number:.4f}"))
