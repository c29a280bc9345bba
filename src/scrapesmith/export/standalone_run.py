"""How a forged program runs, page after page, in lxml alone: joined to :mod:`.standalone` by the export.

A list program split into its phases (:class:`ListSteps`: setup, the list's items and pagination, the detail
pages, after) and run from a start page (:func:`run_list`); a scraper spec run over pages (:func:`run_spec`).
The Scrapy spider does what these do with callbacks. Like :mod:`.standalone` this imports nothing of
scrapesmith but :mod:`.standalone` itself, and the export joins the two into one module (``forged/extract.py``,
or the plain script) with that one import left out (:func:`scrapesmith.export.service.standalone_source`), so
the code a user takes away runs where scrapesmith is not installed.
"""

from __future__ import annotations

import sys
from typing import Any

from lxml import etree

from scrapesmith.export.standalone import (
    click_url,
    extract,
    first_in,
    form_url,
    identities,
    link_of,
    next_page,
    option_value,
    parse_for_fields,
    parse_for_lists,
    select_in,
    spec_row,
)

# -- a list program's phases ----------------------------------------------------------------------------


class ListSteps:
    """A list program split as replay splits it: setup, the list (items, pagination), detail, after."""

    def __init__(self, program: dict[str, Any]) -> None:
        self.program = program
        self.setup: list[dict[str, Any]] = []
        self.enter: dict[str, Any] | None = None
        self.item: list[dict[str, Any]] = []
        self.detail_link: dict[str, Any] | None = None
        self.detail: list[dict[str, Any]] = []
        self.after: list[dict[str, Any]] = []
        phase = "setup"
        for step in program["steps"]:
            action = step["action"]
            if action in ("Fail", "Finish"):
                break
            if action == "EnterList":
                self.enter, phase = step, "item"
            elif action == "ExitList":
                phase = "after"
            elif phase == "item" and action == "Click":
                self.detail_link, phase = step, "detail"
            elif phase == "detail" and action == "GoBack":
                phase = "item"
            else:
                {"setup": self.setup, "item": self.item, "detail": self.detail, "after": self.after}[phase].append(step)

    @property
    def item_selector(self) -> str:
        return str(self.enter["elements"][0]) if self.enter and self.enter.get("elements") else ""

    @property
    def pagination(self) -> str | None:
        value = self.enter.get("pagination") if self.enter else None
        return None if value is None else str(value)

    def setup_step(self, root: etree._Element, index: int, page_url: str, values: dict[str, Any],
                   typed: dict[str, str]) -> str | None:
        """Run setup step ``index`` on the open page: values go into ``values``; a click or a submitted form
        returns the URL to open next (None: stay on this page)."""
        step = self.setup[index]
        action = step["action"]
        if action == "Click":
            element = first_in(root, step["element"])
            target = click_url(element, page_url, typed) if element is not None else None
            if target is None:
                raise ValueError(f"cannot follow {step['element']!r} on {page_url} over HTTP")
            return target
        if action == "TypeInput":
            element = first_in(root, step["element"])
            form = next(element.iterancestors("form"), None) if element is not None else None
            if element is None or form is None or not element.get("name"):
                raise ValueError(f"cannot fill {step['element']!r} on {page_url} over HTTP")
            chosen = option_value(element, step["value"]) if element.tag == "select" else step["value"]
            typed[element.get("name")] = chosen or ""
            if step.get("enter") or element.tag == "select" and form.find(".//button") is None:
                target = form_url(form, page_url, typed)
                if target is None:
                    raise ValueError(f"the form of {step['element']!r} on {page_url} is not a GET form")
                return target
            return None
        values.update(extract(root, [step], page_url))
        return None

    def finish(self, row: dict[str, Any], list_values: dict[str, Any], source_url: str, detail_url: str | None,
               fetched_at: str, program_id: str) -> dict[str, Any]:
        """A row as replay writes it: the program's columns in order, other values, then provenance."""
        ordered = {column: row.get(column, list_values.get(column, "")) for column in self.program["columns"]}
        ordered.update({k: v for k, v in {**list_values, **row}.items() if k not in ordered})
        ordered["source_url"] = source_url
        if self.detail_link is not None or detail_url:
            ordered["detail_url"] = detail_url or ""
        ordered.update(fetched_at=fetched_at, program_id=program_id)
        return ordered


# -- one run, page after page (the plain script; the Scrapy spider does the same with callbacks) ----------


def run_spec(spec: dict[str, Any], program_id: str, fetch: Any, urls: list[str], now: Any) -> list[dict[str, Any]]:
    """A spec over ``urls``: one row per page, ``fetch(url) -> (final_url, text)``; a page that fails is a row
    with its ``error``."""
    rows = []
    for url in urls:
        try:
            final, text = fetch(url)
        except Exception as exc:  # noqa: BLE001 - a failed page is a row, and the run goes on
            rows.append({**{f["name"]: None for f in spec["fields"]}, "source_url": url, "fetched_at": now(),
                         "program_id": program_id, "error": str(exc)})
            continue
        rows.append({**spec_row(spec, parse_for_fields(text)), "source_url": final, "fetched_at": now(),
                     "program_id": program_id, "error": None})
    return rows


def run_list(program: dict[str, Any], program_id: str, fetch: Any, start_url: str, max_pages: int,
             now: Any) -> list[dict[str, Any]]:
    """A list program from ``start_url``: setup, every list page, the detail pages, rows in column order."""
    steps = ListSteps(program)
    url, text = fetch(start_url)
    root = parse_for_lists(text)
    values: dict[str, Any] = {}
    typed: dict[str, str] = {}
    for index in range(len(steps.setup)):
        target = steps.setup_step(root, index, url, values, typed)
        if target is not None:
            url, text = fetch(target)
            root, typed = parse_for_lists(text), {}
    if steps.enter is None:
        return []
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    visited: set[str] = set()
    for page in range(max_pages):
        if page:
            url, text = fetch(target)
            root = parse_for_lists(text)
        visited.add(url)
        new = 0
        items = select_in(root, steps.item_selector)
        for item, key in zip(items, identities(items, url), strict=True):
            if key in seen:
                continue
            seen.add(key)
            row = extract(item, steps.item, url)
            if steps.detail_link is not None:
                row["_detail"] = link_of(item, steps.detail_link["element"], url)
            row["source_url"] = url
            rows.append(row)
            new += 1
        target = next_page(root, steps.pagination, url, visited) if new else None
        if target is None:
            break
    values.update(extract(root, steps.after, url))
    finished = []
    for row in rows:
        detail, detail_url = row.pop("_detail", ""), None
        if detail:
            detail_url = detail
            try:
                detail_url, text = fetch(detail)
                row.update(extract(parse_for_lists(text), steps.detail, detail_url))
            except Exception as exc:  # noqa: BLE001 - a detail page that fails leaves its row without detail values
                print(f"detail page {detail}: {exc} (its row keeps the list page's values only)", file=sys.stderr)
        finished.append(steps.finish(row, values, row.pop("source_url"), detail_url, now(), program_id))
    return finished
