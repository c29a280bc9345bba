"""Record a list program from a goal, a start URL and columns.

Two recorders produce the same :class:`ListProgram`:

* :func:`record_heuristic` (no model): apply a filter the goal names (a filter link or a ``<select>``),
  detect the main repeating region (:mod:`scrapesmith.dom.lists`), widen it to look-alike groups
  elsewhere on the page (one block per team), map columns to item parts by name and value type
  (:mod:`scrapesmith.lists.columns`), find the columns the item lacks on the items' own pages with
  induce (:mod:`scrapesmith.lists.detail`), and detect pagination;
* :func:`scrapesmith.lists.agent.record_with_llm`: the same steps with a model choosing among the
  candidates (list, item parts), the selector model for irregular lists and a verifier (BardeenAgent paper, 3.1/3.3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree

from scrapesmith.dom import (
    PageLayout,
    RecordRegion,
    content_children,
    find_pagination,
    fingerprint,
    normalize_text,
    page_number,
    rank_lists,
    similarity,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.columns import URL_WORDS, column_actions, column_words, main_link
from scrapesmith.lists.detail import record_detail_pass
from scrapesmith.lists.dsl import (
    Action,
    Click,
    EnterList,
    ExitList,
    Finish,
    SaveText,
    TypeInput,
    join_alternatives,
)
from scrapesmith.lists.runtime import PageRuntime, page_layout
from scrapesmith.lists.selectors import element_selector, list_item_selectors
from scrapesmith.lists.views import ListProgram

CANDIDATE_REGIONS = 8
COUSIN_SIMILARITY = 0.6
LOAD_MORE = re.compile(r"^\s*(load|show|see|view)\s+more\b", re.IGNORECASE)
FILTER_STOPWORDS = frozenset({"all", "any", "everything", "filter", "search"})


class RecordingError(ScrapesmithError):
    """No list program could be recorded on the page."""


class NoListFound(RecordingError):
    """The page has no repeating list; ``drawn_by_scripts`` when the page looks like one a browser would fill."""

    def __init__(self, message: str, *, drawn_by_scripts: bool = False) -> None:
        super().__init__(message)
        self.drawn_by_scripts = drawn_by_scripts


SCRIPTED_TEXT = 200
"""A page with scripts and fewer characters of text than this is likely drawn by its scripts."""


def no_list_found(runtime: PageRuntime, tree: etree._Element) -> NoListFound:
    """Why no list was found on the open page, as it is: an empty page is empty, and only a page with scripts
    and little text (read over plain HTTP) is said to need a browser."""
    text = normalize_text(" ".join(t for t in tree.xpath("//body//text()[not(ancestor::script)]")))
    if runtime.name == "http" and len(text) < SCRIPTED_TEXT and tree.xpath("//script"):
        return NoListFound(f"no repeating list found on {runtime.url}: it has scripts and only {len(text)} "
                           "characters of text, so its list may be drawn by the scripts", drawn_by_scripts=True)
    if not text:
        return NoListFound(f"no list on {runtime.url}: the page has no text")
    return NoListFound(f"no repeating list found on {runtime.url}: no group of similar elements "
                       f"in its {len(text)} characters of text")


@dataclass
class Recording:
    """A recorded program and what the recorder noticed (shown by ``scrapesmith lists``)."""

    program: ListProgram
    notes: list[str] = field(default_factory=list)
    llm_calls: int = 0


def parse_columns(text: str) -> list[str]:
    columns = [column.strip() for column in text.split(",") if column.strip()]
    if not columns:
        raise RecordingError("give at least one column, e.g. 'Job Title,Job URL'")
    if len(set(columns)) != len(columns):
        raise RecordingError(f"duplicate column names in {text!r}")
    return columns


def record_heuristic(runtime: PageRuntime, start_url: str, goal: str, columns: list[str],
                     examples: Mapping[str, str] | None = None) -> Recording:
    """Record a program without a model (see the module docstring for the steps); ``examples`` are values
    of detail-page columns seen on the first item's page."""
    notes: list[str] = []
    tree = runtime.open(start_url)
    setup = apply_goal_filter(runtime, tree, goal, notes)
    layout = page_layout(runtime)  # first: a runtime that measures the page reads its tree again
    tree = runtime.tree()
    notes.append(f"list evidence: {layout.note}")
    region = choose_region(tree, columns, layout)
    if region is None:
        raise no_list_found(runtime, tree)
    items = widen_to_cousins(tree, region)
    notes.append(
        f"list: {len(items)} items under <{region.parent.tag}> ({len(region.items)} in the main group)"
    )
    item_selector = list_item_selectors(items)
    actions, missing = column_actions(columns, items[0], items[1:])
    weak = link_text_columns(items, actions)
    detail = record_detail_pass(runtime, items, [*missing, *weak], notes, examples=examples)
    actions = [a for a in actions if getattr(a, "column", None) not in detail.found]
    missing = [c for c in detail.missing if c not in weak]
    pagination = pagination_selector(tree, runtime.url, notes)
    steps: list[Action] = [
        *setup,
        EnterList(elements=[item_selector], description=goal, pagination=pagination),
        *actions,
        *detail.actions,
        ExitList(),
        Finish(),
    ]
    if missing:
        notes.append(f"columns not found (left empty): {', '.join(missing)}")
    program = ListProgram(
        goal=goal,
        start_url=start_url,
        columns=columns,
        steps=steps,
        runtime="browser" if runtime.name == "browser" else "http",
        notes=notes,
    )
    return Recording(program=program, notes=notes)


def link_text_columns(items: list[etree._Element], actions: list[Action]) -> list[str]:
    """Text columns read from a links-only list (each item is one link and nothing else).

    Such an item's text only names the page it points to; the record is on that page, so these columns
    are looked for there first and the link text is kept only for those the detail pass cannot find.
    """
    links = [main_link(item) for item in items]
    links_only = sum(
        1 for item, link in zip(items, links, strict=True)
        if link is not None and normalize_text(link.text_content()) == normalize_text(item.text_content())
    )
    if links_only < 0.8 * len(items):
        return []
    return [a.column for a in actions if isinstance(a, SaveText)]


def choose_region(
    tree: etree._Element, columns: list[str], layout: PageLayout | None = None
) -> RecordRegion | None:
    """The likeliest data list whose items can serve the columns (links when a URL column is asked),
    ranked with the page's rendered ``layout`` when there is one."""
    wants_link = any(column_words(column) & URL_WORDS for column in columns)
    candidates = [candidate.region for candidate in rank_lists(tree, layout=layout)[:CANDIDATE_REGIONS]]
    for region in candidates:
        if (
            not wants_link
            or sum(1 for item in region.items if main_link(item) is not None) >= 0.8 * region.size
        ):
            return region
    return candidates[0] if candidates else None


def widen_to_cousins(tree: etree._Element, region: RecordRegion) -> list[etree._Element]:
    """The region's items plus look-alike items in sibling groups (same tag, class and structure)."""
    model = region.items[0]
    prints = fingerprint(model)
    grandparent = region.parent.getparent()
    if grandparent is None:
        return region.items
    found = list(region.items)
    for group in content_children(grandparent):
        if group is region.parent or group.tag != region.parent.tag:
            continue
        for child in content_children(group):
            if (
                child.tag == model.tag
                and child.get("class") == model.get("class")
                and similarity(prints, fingerprint(child)) >= COUSIN_SIMILARITY
            ):
                found.append(child)
    order = {id(node): index for index, node in enumerate(tree.iter())}
    return sorted(found, key=lambda node: order[id(node)])


def apply_goal_filter(
    runtime: PageRuntime, tree: etree._Element, goal: str, notes: list[str]
) -> list[Action]:
    """If the goal names a filter value offered on the page, apply it and return the recorded actions."""
    link = _filter_link(tree, runtime.url, goal)
    if link is not None:
        query = urlsplit(link.get("href", "")).query
        selector = join_alternatives([f'a[href$="?{query}"]', element_selector(link)])
        runtime.click(selector)
        notes.append(f"filter: followed the link {normalize_text(link.text_content())!r}")
        return [Click(element=selector)]
    choice = _filter_option(tree, goal)
    if choice is not None:
        select, label = choice
        selector = element_selector(select)
        button = next(
            iter(select.xpath("ancestor::form[1]//button | ancestor::form[1]//input[@type='submit']")), None
        )
        try:
            runtime.type_input(selector, label, enter=button is None)
        except ScrapesmithError as exc:
            notes.append(f"filter {label!r} could not be applied here: {exc}")
            return []
        actions: list[Action] = [TypeInput(element=selector, value=label, enter=button is None)]
        if button is not None:
            actions.append(Click(element=element_selector(button)))
            runtime.click(str(actions[-1].element))
        notes.append(f"filter: chose {label!r} in {select.get('name') or select.get('id')!r}")
        return actions
    return []


def _label_in_goal(label: str, goal: str) -> bool:
    label = re.sub(r"\(\d+\)", "", normalize_text(label)).strip().lower()
    if not label or label in FILTER_STOPWORDS or len(label) < 3:
        return False
    return re.search(rf"\b{re.escape(label)}\b", goal.lower()) is not None


def _filter_link(tree: etree._Element, page_url: str, goal: str) -> etree._Element | None:
    """A link to this same page with query parameters (a filter chip) whose label the goal mentions."""
    here = urlsplit(page_url)
    best = None
    for link in tree.iter("a"):
        href = (link.get("href") or "").strip()
        target = urlsplit(urljoin(page_url, href))
        if not href or target.path != here.path or not target.query or page_number(urljoin(page_url, href)):
            continue
        label = link.text_content()
        if _label_in_goal(label, goal) and (best is None or len(label) > len(best.text_content())):
            best = link
    return best


def _filter_option(tree: etree._Element, goal: str) -> tuple[etree._Element, str] | None:
    for select in tree.iter("select"):
        for option in select.iter("option"):
            label = normalize_text(option.text_content())
            if option.get("value") and _label_in_goal(label, goal):
                return select, label
    return None


def pagination_selector(tree: etree._Element, page_url: str, notes: list[str]) -> str | None:
    """A selector for the next-page control, or a "Load more" button for script-driven lists."""
    control = find_pagination(tree, page_url)
    if control is not None:
        selector = (
            element_selector(control.element, first=False)
            if control.element is not None
            else "link[rel=next]"
        )
        notes.append(f"pagination: {control.kind} ({selector})")
        return selector
    for button in tree.iter("button", "a"):
        if LOAD_MORE.match(normalize_text(button.text_content())):
            selector = element_selector(button, first=False)
            notes.append(f"pagination: load-more button ({selector})")
            return selector
    return None
