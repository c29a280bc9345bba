"""The detail pass: columns a list item does not hold are found on the items' own pages, by induce.

There is one field-finding engine (induce). The recorder opens the pages of the first
:data:`DETAIL_SEEDS` items, induces a field scraper over them with induce's heuristic (label anchoring,
value types, chrome rejection, main-record scoping, cross-page agreement), and keeps only the fields
whose XPaths extract a value on every one of those pages: a selector that works on one detail page by
luck does not survive three. The program then says ``Click(item link)``, ``ScrapeFields(spec)``,
``GoBack``; replay runs the spec on every item's page with no model and records the page as the row's
``detail_url``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import (
    CompiledSpec,
    Example,
    FieldRequest,
    FieldSpec,
    ScraperSpec,
    generalise,
    induce_scraper,
)
from scrapesmith.lists.columns import main_link
from scrapesmith.lists.dsl import Action, Click, GoBack, ScrapeFields
from scrapesmith.lists.runtime import PageRuntime
from scrapesmith.lists.selectors import field_selectors
from scrapesmith.web import LeavesSavedPages

DETAIL_SEEDS = 3
MULTI_SEPARATOR = "; "


@dataclass
class DetailPass:
    """What the detail pass recorded: its actions, the columns it fills and those it could not find."""

    actions: list[Action] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def field_request(column: str) -> FieldRequest:
    """A column as induce's field request: the instruction names the column's words ("the publication date")."""
    return FieldRequest(column, f"the {column.replace('_', ' ').strip().lower()}")


def detail_urls(items: Sequence[etree._Element], page_url: str, limit: int) -> list[tuple[int, str]]:
    """(item index, absolute URL) of the first ``limit`` items with their own distinct page."""
    found: list[tuple[int, str]] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        link = main_link(item)
        if link is None:
            continue
        url = urljoin(page_url, link.get("href", "").strip()).split("#", 1)[0]
        if url and url != page_url and url not in seen:
            seen.add(url)
            found.append((index, url))
        if len(found) >= limit:
            break
    return found


def agreeing_fields(spec: ScraperSpec, trees: Sequence[etree._Element]) -> ScraperSpec:
    """``spec`` with only the fields that extract a value on every detail page."""
    compiled = CompiledSpec(spec)
    results = [compiled.extract_tree(tree) for tree in trees]
    kept = [f for f in spec.fields if f.actions and all(r[f.name].values for r in results)]
    return spec.model_copy(update={"fields": kept})


def learnt_fields(examples: Mapping[str, str], columns: Sequence[str], trees: Sequence[etree._Element],
                  notes: list[str]) -> dict[str, FieldSpec]:
    """The columns given by an example value (``--example NAME=VALUE``, seen on the first item's page), each
    learnt from its value as ``induce --example`` learns it; one whose value is not there is noted and left
    to the evidence."""
    learnt = {}
    for column in columns:
        if column in examples:
            try:
                learnt[column] = generalise(Example(column, examples[column]), trees)
            except ScrapesmithError as exc:
                notes.append(f"{exc}; '{column}' is found by evidence instead")
    return learnt


def record_detail_pass(runtime: PageRuntime, items: Sequence[etree._Element], columns: Sequence[str],
                       notes: list[str], seeds: int = DETAIL_SEEDS,
                       examples: Mapping[str, str] | None = None) -> DetailPass:
    """Induce the ``columns`` over the first ``seeds`` items' pages (a column with an example value learnt
    from it); return to the list page afterwards."""
    outcome = DetailPass(missing=list(columns))
    if not columns or not items:
        return outcome
    list_url = runtime.url
    targets = detail_urls(items, list_url, seeds)
    if not targets:
        return outcome
    trees, urls = [], []
    not_followed: dict[str, list[str]] = {}
    for _index, url in targets:
        try:
            trees.append(runtime.open(url))
            urls.append(runtime.url)
        except LeavesSavedPages as exc:  # every such link has the same reason: said once
            not_followed.setdefault(exc.message, []).append(url)
        except ScrapesmithError as exc:
            notes.append(f"detail page could not be opened: {exc}")
    notes.extend(f"{len(links)} detail links not followed: {why} (e.g. {links[0]})" for why, links in not_followed.items())
    runtime.open(list_url)
    if not trees:
        return outcome
    learnt = learnt_fields(examples or {}, columns, trees, notes)
    asked = [field_request(c) for c in columns if c not in learnt]
    spec = induce_scraper(asked, trees, method="heuristic", seed_names=urls) if asked else ScraperSpec(
        method="examples", seeds=urls)
    if learnt:
        by_name = {f.name: f for f in spec.fields} | learnt
        spec = spec.model_copy(update={"fields": [by_name[c] for c in columns if c in by_name]})
    spec = agreeing_fields(spec, trees)
    outcome.found = [f.name for f in spec.fields]
    outcome.missing = [c for c in columns if c not in outcome.found]
    if not spec.fields:
        return outcome
    first = targets[0][0]
    link_selector = field_selectors(main_link(items[first]), items[first], [i for i in items if i is not items[first]])
    outcome.actions = [Click(element=link_selector), ScrapeFields(spec=spec), GoBack()]
    notes.append(f"detail pass over {len(trees)} item pages (induce, fields agreeing on all): "
                 + ", ".join(outcome.found))
    return outcome


def scrape_row(compiled: CompiledSpec, tree: etree._Element) -> dict[str, str]:
    """One detail page's values, a multi-valued field joined with :data:`MULTI_SEPARATOR`."""
    row = compiled.row_from(compiled.extract_tree(tree))
    return {name: MULTI_SEPARATOR.join(value) if isinstance(value, list) else (value or "")
            for name, value in row.items()}
