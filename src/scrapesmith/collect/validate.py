"""The validation agent's checks: schema, non-empty required columns, uniqueness, numbers, row count,
the instruction's row filter (every row is the named entity, the dates fill the range), and a sample of rows compared with the pages they came from (read back from the run's WARC archive)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from urllib.parse import urlsplit

from scrapesmith.collect.filters import covers, parse_date, row_matches
from scrapesmith.collect.views import Blueprint, Check
from scrapesmith.io import read_rows
from scrapesmith.io.schema import is_empty
from scrapesmith.web.archive import WarcReplayFetcher
from scrapesmith.web.page import FetchError

SAMPLE_ROWS = 3


def _number(text: object) -> float | None:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    try:
        return float(str(text).replace(",", ""))
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
    checks.append(_sample_check(run_dir, rows, rules.required))
    return checks


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


def _sample_check(run_dir: Path, rows: list[dict], columns: list[str]) -> Check:
    """Each sampled value must appear in the archived page its row names as source (or its own page)."""
    archive = run_dir / "pages.warc.gz"
    if not archive.is_file() or not rows:
        return Check(name="sample-against-pages", ok=False, detail="no archived pages to compare with")
    replay = WarcReplayFetcher(archive)
    step = max(1, len(rows) // SAMPLE_ROWS)
    misses = []
    for row in rows[::step][:SAMPLE_ROWS]:
        try:
            page = replay.fetch(str(row.get("source_url")))
        except FetchError:
            misses.append(f"{row.get('source_url')} not archived")
            continue
        text = html.unescape(page.text) if page.is_html else json.dumps(json.loads(page.text))
        if row.get("detail_url"):  # a joined row's other values are on its own page
            try:
                text += "\n" + html.unescape(replay.fetch(str(row["detail_url"])).text)
            except FetchError:
                pass
        for column in columns:
            cell = row.get(column)
            values = [str(v) for v in cell] if isinstance(cell, list) else [str(cell if cell is not None else "")]
            for value in values:
                if value and not _on_page(value, text):
                    misses.append(f"{column}={value[:40]!r} not on {row.get('source_url')}")
    return Check(name="sample-against-pages", ok=not misses, detail="; ".join(misses[:3]) or
                 f"{min(SAMPLE_ROWS, len(rows))} sampled rows found on their pages")


def _on_page(value: str, text: str) -> bool:
    """Found as written, as a link's path (pages link relatively), or as a number in another format."""
    if value in text or (value.startswith("http") and urlsplit(value).path in text):
        return True
    return _number_on_page(value, text)


def _number_on_page(value: str, text: str) -> bool:
    number = _number(value)
    if number is None:
        return False
    forms = [f"{number:,}", f"{number:g}", f"{number:.1f}", f"{number:.2f}", f"{number:.3f}", f"{number:.4f}"]
    if number.is_integer():
        forms.append(str(int(number)))
    if 0 < abs(number) < 1:  # ".415" as sports sites print percentages
        forms += [form.replace("0.", ".", 1) for form in forms if form.lstrip("-").startswith("0.")]
    return any(form in text for form in forms)
