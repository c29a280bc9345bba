"""The validation agent's checks: schema, non-empty required columns, uniqueness, numbers, row count,
the instruction's row filter (every row is the named entity, the dates fill the range), and a sample of
rows compared with the pages they came from (read back from the run's WARC archive).

Each sampled value is compared with the page it came from: a column the list program's detail pass
fills is looked for on the row's ``detail_url``, every other column on its ``source_url``."""

from __future__ import annotations

import html
import io
import json
import os
import re
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

from pydantic import ValidationError

from scrapesmith.collect.filters import covers, parse_date, row_matches
from scrapesmith.collect.outputs import UnsafeOutput, open_regular
from scrapesmith.collect.views import Blueprint, Check
from scrapesmith.io import is_empty
from scrapesmith.lists import MULTI_SEPARATOR, ListProgram, ScrapeFields
from scrapesmith.web import FetchError, Page, WarcReplayFetcher, parse_page

# what validation reads back of the program's dataset.jsonl (the rerun's dataset.csv limits, in records)
DATASET_BYTES = 64 * 2**20
MAX_ROWS = 2_000_000
MAX_VALUES = 5_000_000

SAMPLE_ROWS = 3


def _number(text: object) -> float | None:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def validate_dataset(run_dir: Path, blueprint: Blueprint) -> list[Check]:
    rows, unreadable = _dataset_rows(run_dir / "dataset.jsonl")
    fields = blueprint.fields
    rules = blueprint.validation
    missing = [f for f in fields if rows and f not in rows[0]]
    checks = [Check(name="rows", ok=len(rows) >= rules.min_rows and not unreadable,
                    detail=unreadable or f"{len(rows)} rows (need {rules.min_rows})"),
              Check(name="schema", ok=not missing, detail=f"missing columns: {', '.join(missing)}" if missing else
                    f"columns {', '.join(fields)}")]
    for column in rules.required:
        empty = sum(1 for r in rows if is_empty(r.get(column)))
        checks.append(Check(name=f"non-empty:{column}", ok=empty == 0, detail=f"{empty} empty values"))
    if rules.unique:
        keys = [tuple(str(r.get(c)) for c in rules.unique) for r in rows]
        duplicates = len(keys) - len(set(keys))
        checks.append(Check(name="unique", ok=duplicates == 0, detail=f"{duplicates} duplicate rows"))
    for column in rules.numeric:
        bad = [r.get(column) for r in rows if _number(r.get(column)) is None]
        checks.append(Check(name=f"numeric:{column}", ok=not bad, detail=f"{len(bad)} non-numeric values"))
    if blueprint.unmapped:
        checks.append(Check(name="mapped", ok=False, detail="no field of the source fits "
                            + ", ".join(blueprint.unmapped)))
    checks += filter_checks(rows, blueprint)
    checks.append(_sample_check(run_dir, rows, rules.required, detail_columns(blueprint)))
    return checks


def _dataset_rows(path: Path) -> tuple[list[dict], str]:
    """The program's rows, or none and one line when its dataset is not valid UTF-8 JSON lines, or is past
    the read-back limits (:data:`DATASET_BYTES`, :data:`MAX_ROWS` records, :data:`MAX_VALUES` values):
    read line by line, never followed through a link (:func:`open_regular`)."""
    if not os.path.lexists(path):
        return [], ""
    rows: list[dict] = []
    values = 0
    try:
        with open_regular(path) as raw:
            if os.fstat(raw.fileno()).st_size > DATASET_BYTES:
                return [], f"{path.name} is not readable (larger than {DATASET_BYTES:,} bytes)"
            for line in io.TextIOWrapper(raw, encoding="utf-8"):
                if not line.strip():
                    continue
                row = json.loads(line)
                if not isinstance(row, dict):
                    return [], f"{path.name} is not readable (a line is not a record)"
                rows.append(row)
                values += len(row)
                if len(rows) > MAX_ROWS or values > MAX_VALUES:
                    return [], (f"{path.name} is not readable (more than {MAX_ROWS:,} records or "
                                f"{MAX_VALUES:,} values)")
    except UnsafeOutput as exc:
        return [], str(exc)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return [], f"{path.name} is not readable ({exc})"
    return rows, ""


def _output_column(blueprint: Blueprint, key: str) -> str | None:
    return next((c for c in blueprint.fields if blueprint.field_map.get(c, c) == key), None)


def filter_checks(rows: list[dict], blueprint: Blueprint) -> list[Check]:
    """Every row matches the entity the instruction names, and the dates fill the range they ask for."""
    checks = []
    for key, value in blueprint.row_filter.items():
        column = _output_column(blueprint, key)
        if column is None:
            checks.append(Check(name=f"filter:{key}", ok=True, detail=f"applied to the source field {key!r} "
                                "(not an output column)"))
            continue
        wrong = sum(1 for r in rows if not row_matches(r, {column: value}, None))
        checks.append(Check(name=f"filter:{column}", ok=wrong == 0, detail=f"{wrong} rows other than {value!r}"))
    if blueprint.date_range is not None:
        bounds = blueprint.date_range
        column = _output_column(blueprint, bounds.key)
        if column is not None:
            days = [parse_date(r.get(column)) for r in rows]
            outside = sum(1 for day in days if day is None or not bounds.start <= day.isoformat() <= bounds.end)
            found = [day for day in days if day is not None]
            span = f"{min(found)} to {max(found)}" if found else "no dates"
            checks.append(Check(name=f"range:{column}", ok=outside == 0 and covers(found, bounds.start, bounds.end),
                                detail=f"{outside} rows outside {bounds.start}..{bounds.end}; rows span {span}"))
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
    try:
        replay = WarcReplayFetcher(archive)
    except FetchError as exc:  # a bomb, or not an archive: refused before it is read
        return Check(name="sample-against-pages", ok=False, detail=str(exc))
    step = max(1, len(rows) // SAMPLE_ROWS)
    misses = []
    texts: dict[str, PageText | None] = {}
    for row in rows[::step][:SAMPLE_ROWS]:
        for column in columns:
            url = str(row.get("detail_url") if column in from_detail and row.get("detail_url")
                      else row.get("source_url"))
            for candidate in {url, str(row.get("detail_url") or url)}:  # a joined row: its own page too
                if candidate not in texts:
                    texts[candidate] = _archived_text(replay, candidate)
            if texts[url] is None:
                misses.append(f"{url} not archived")
                continue
            pages = [page for page in (texts[url], texts.get(str(row.get("detail_url") or url))) if page]
            for value in _cell_values(row.get(column)):
                if not any(_on_page(value, page.source, page.body_text) for page in pages):
                    misses.append(f"{column}={value[:40]!r} not on {url}")
    misses = list(dict.fromkeys(misses))
    return Check(name="sample-against-pages", ok=not misses, detail="; ".join(misses[:3]) or
                 f"{min(SAMPLE_ROWS, len(rows))} sampled rows found on the pages they came from")


def _cell_values(cell: object) -> list[str]:
    """A typed cell as the strings to look for: each item of a list, a number as written, nothing for empty."""
    if isinstance(cell, list):
        return [str(v) for v in cell if not is_empty(v)]
    return [] if is_empty(cell) else [str(cell)]


class PageText(NamedTuple):
    """An archived page as the check reads it: its source (entities decoded, spaces collapsed) and, for
    HTML, the text of its body with no whitespace at all (a value read from several elements, such as a
    card's whole text, is joined with spaces the page's source does not hold between its tags)."""

    source: str
    body_text: str = ""


def _archived_text(replay: WarcReplayFetcher, url: str) -> PageText | None:
    try:
        page: Page = replay.fetch(url)
    except FetchError:
        return None
    if not page.is_html:
        return PageText(_WS.sub(" ", json.dumps(json.loads(page.text))))
    body_text = _WS.sub("", parse_page(page).xpath("string(//body)") or "")
    return PageText(_WS.sub(" ", html.unescape(page.text)), body_text)


_WS = re.compile(r"\s+")


def _on_page(value: str, text: str, body_text: str = "") -> bool:
    """Found as written (spaces collapsed), as a link's path (pages link relatively), in the page's
    body text whitespace aside, as a number in another format, or, for a multi-valued cell
    (``"A; B"``), each of its values."""
    value = _WS.sub(" ", value).strip()
    if value in text or (value.startswith("http") and urlsplit(value).path in text):
        return True
    if body_text and _WS.sub("", value) in body_text:
        return True
    parts = [p for p in value.split(MULTI_SEPARATOR) if p.strip()]
    if len(parts) > 1 and all(_on_page(p, text, body_text) for p in parts):
        return True
    return _number_on_page(value, text)


def _number_on_page(value: str, text: str) -> bool:
    number = _number(value)
    if number is None:
        return False
    forms = [f"{number:,}", f"{number:g}", f"{number:.1f}", f"{number:.2f}", f"{number:.3f}", f"{number:.4f}"]
    if number.is_integer():  # 1087116 as pages print it: "1087116" or "1,087,116"
        forms += [str(int(number)), f"{int(number):,}"]
    if 0 < abs(number) < 1:  # ".415" as sports sites print percentages
        forms += [form.replace("0.", ".", 1) for form in forms if form.lstrip("-").startswith("0.")]
    return any(form in text for form in forms)
