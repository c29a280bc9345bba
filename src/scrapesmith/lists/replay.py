"""Replay a :class:`ListProgram` without a model: setup, the list over all its pages, the detail pass.

The flow (BardeenAgent paper, section 3.2, "Replaying Recorded Actions"):

1. open the start URL and run the setup actions (filters; list-level values such as the page URL);
2. on each page, select the list items and run the per-item actions on each (``:scope`` = the item);
   an item already seen (the same item URL, or the same node on the same page) is skipped, so the list
   ends when a page brings nothing new. Identity is never the extracted values: two distinct jobs with
   the same title are two rows. Every skipped item is counted with its reason in :attr:`ReplayResult.dropped`;
3. follow the pagination control until it is missing, points to a page already visited, reads like
   "Previous", or the page cap is reached;
4. visit every collected item URL once (the detail pass) and run the detail actions there;
5. attach list-level values and provenance to every row: ``source_url`` (the list page the item was on),
   ``detail_url`` (the item's own page, when the program has a detail pass), time and program id.

``AnswerQuestion`` is the only action that calls a model, once per distinct (question, text), cached.
Item-level failures are recorded in :attr:`ReplayResult.failures` and the run goes on. A requested
column that comes back empty in most rows is named in :attr:`ReplayResult.warnings`
(:mod:`scrapesmith.lists.replay_result`: what a run gives back and how it is accounted for).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from lxml import etree
from pydantic import BaseModel

from scrapesmith.artifacts import regex_search
from scrapesmith.dom import PREVIOUS_WORDS, element_text, node_text
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import CompiledSpec
from scrapesmith.io import timestamp
from scrapesmith.lists.columns import main_link
from scrapesmith.lists.detail import scrape_row
from scrapesmith.lists.dsl import (
    Action,
    AnswerQuestion,
    Click,
    SaveCurrentURL,
    SaveLink,
    SaveText,
    ScrapeFields,
    TypeInput,
)
from scrapesmith.lists.replay_result import REPEATED_NODE, REPEATED_URL, ReplayResult, empty_column_warnings
from scrapesmith.lists.runtime import PageRuntime, ReplayError
from scrapesmith.lists.selectors import first_in, select_in
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm import LLM, render_prompt
from scrapesmith.web import LeavesSavedPages

DETAIL_KEY = "_detail_url"
DETAIL_URL = "detail_url"
EXTRACTION_FAILED = "extraction failed"

__all__ = [
    "DETAIL_KEY", "DETAIL_URL", "EXTRACTION_FAILED", "REPEATED_NODE", "REPEATED_URL", "Answer", "ReplayResult",
    "Replayer", "apply_regex", "empty_column_warnings", "replay",
]


class Answer(BaseModel):
    answer: str


class Replayer:
    """Runs one program on one runtime; holds the per-run answer cache and counters.

    ``already_read(url)``: whether a list page was read before by the caller (another run of the program in
    the same job); pagination stops before such a page instead of reading it, and its items, again.
    """

    def __init__(
        self,
        program: ListProgram,
        runtime: PageRuntime,
        llm: LLM | None = None,
        on_page: Callable[[str, int], None] | None = None,
        already_read: Callable[[str], bool] | None = None,
    ) -> None:
        self.program = program
        self.runtime = runtime
        self.llm = llm
        self.on_page = on_page
        self.already_read = already_read
        self.plan = program.plan()
        self.result = ReplayResult()
        self._answers: dict[tuple[str, str], str] = {}
        self._scrapers: dict[str, CompiledSpec] = {}

    def run(self, start_url: str | None = None, max_pages: int | None = None) -> ReplayResult:
        started = time.perf_counter()
        if self.plan.failure is not None:
            raise ReplayError(f"the recorded program ends in Fail: {self.plan.failure.error_message}")
        self.runtime.open(start_url or self.program.start_url)
        list_values = self._run_page_actions(self.plan.setup)
        if self.plan.enter is not None:
            self._collect_list(max_pages or self.program.max_pages)
            self._detail_pass()
        list_values.update(self._run_page_actions(self.plan.after))
        self._finish_rows(list_values)
        self.result.seconds = time.perf_counter() - started
        return self.result

    def _run_page_actions(self, actions: list[Action]) -> dict[str, Any]:
        """Setup/after actions: navigation on the page, or values that apply to every row."""
        values: dict[str, Any] = {}
        for action in actions:
            if isinstance(action, Click):
                self.runtime.click(str(action.element))
            elif isinstance(action, TypeInput):
                self.runtime.type_input(str(action.element), action.value, action.enter)
            else:
                values.update(self._extract(self.runtime.tree(), [action], self.runtime.url))
        return values

    def _collect_list(self, max_pages: int) -> None:
        enter = self.plan.enter
        item_selector = str(enter.elements[0]) if enter and enter.elements else ""
        seen: set[str] = set()
        visited: set[str] = set()
        for page_index in range(max_pages):
            if page_index and self.already_read and self.runtime.url not in visited \
                    and self.already_read(self.runtime.url):  # reached without a link to check first
                self.result.stop_reason = "next page already read in this job"
                return
            visited.add(self.runtime.url)
            self.result.pages += 1
            self.result.page_urls.append(self.runtime.url)
            new = self._collect_items(select_in(self.runtime.tree(), item_selector), seen)
            if self.on_page:
                self.on_page(self.runtime.url, new)
            if new == 0:
                self.result.stop_reason = "no new items"
                return
            if not self._next_page(enter.pagination if enter else None, visited):
                return
        self.result.stop_reason = f"page cap ({max_pages})"

    def _collect_items(self, items: list[etree._Element], seen: set[str]) -> int:
        new = 0
        for item, (key, reason) in zip(items, self._identities(items), strict=True):
            self.result.items_seen += 1
            if key in seen:
                self.result.dropped[reason] += 1
                continue
            seen.add(key)
            try:
                row = self._extract(item, self.plan.item, self.runtime.url)
                if self.plan.detail_link is not None:
                    row[DETAIL_KEY] = self._link(item, str(self.plan.detail_link.element), self.runtime.url)
            except (ReplayError, ScrapesmithError) as exc:
                self.result.failures.append(
                    {"url": self.runtime.url, "item": element_text(item)[:80], "error": str(exc)}
                )
                self.result.dropped[EXTRACTION_FAILED] += 1
                continue
            row["source_url"] = self.runtime.url
            self.result.rows.append(row)
            new += 1
        return new

    def _identities(self, items: list[etree._Element]) -> list[tuple[str, str]]:
        """Each item's identity: its own URL when the page's items mostly have their own URLs, else its node.

        A URL names the item across pages and sections (pagination that repeats an item, a "Load more"
        that re-shows earlier ones, a featured post listed again); a URL most items share (an "Apply"
        link) names none of them.
        """
        urls = [_item_url(item, self.runtime.url) for item in items]
        if all(urls) and len(set(urls)) > len(urls) / 2:
            return [(f"url:{url}", REPEATED_URL) for url in urls]
        return [
            (f"node:{self.runtime.url}:{item.getroottree().getpath(item)}", REPEATED_NODE) for item in items
        ]

    def _next_page(self, pagination: str | int | None, visited: set[str]) -> bool:
        """Move to the next page: the first matched control that is not "Previous" and not a visited page."""
        if pagination is None:
            self.result.stop_reason = "no pagination"
            return False
        controls = [c for c in select_in(self.runtime.tree(), str(pagination)) if not _inactive(c)]
        if not controls:
            self.result.stop_reason = "pagination control gone"
            return False
        forward = [c for c in controls if _says_next(c) or not PREVIOUS_WORDS.search(element_text(c))]
        if not forward:
            self.result.stop_reason = "next turned into previous"
            return False
        fresh = [
            c for c in forward if not c.get("href") or urljoin(self.runtime.url, c.get("href")) not in visited
        ]
        if not fresh:
            self.result.stop_reason = "next repeats a visited page"
            return False
        following = urljoin(self.runtime.url, fresh[0].get("href")) if fresh[0].get("href") else ""
        if following and self.already_read and self.already_read(following):
            self.result.stop_reason = "next page already read in this job"
            return False
        try:
            self.runtime.click_element(fresh[0])
        except LeavesSavedPages as exc:
            self._not_followed("pagination step", exc)
            self.result.stop_reason = "pagination stays in the saved pages"
            return False
        except ScrapesmithError as exc:
            self.result.failures.append({"url": self.runtime.url, "item": "pagination", "error": str(exc)})
            self.result.stop_reason = "pagination failed"
            return False
        return True

    def _detail_pass(self) -> None:
        if self.plan.detail_link is None:
            return
        for row in self.result.rows:
            url = row.pop(DETAIL_KEY, None)
            if not url:
                continue
            row["detail_url"] = url
            try:
                tree = self.runtime.open(url)
                self.result.detail_pages += 1
                row[DETAIL_URL] = self.runtime.url
                row.update(self._extract(tree, self.plan.detail, self.runtime.url))
            except LeavesSavedPages as exc:
                self._not_followed("detail links", exc)
            except ScrapesmithError as exc:
                self.result.failures.append({"url": url, "item": "detail page", "error": str(exc)})

    def _not_followed(self, what: str, exc: LeavesSavedPages) -> None:
        """Count a link of a saved page that was not followed; said once per kind and reason, not per link."""
        self.result.not_followed[(what, exc.message)] += 1
        self.result.not_followed_example.setdefault((what, exc.message), exc.url)

    def _extract(self, scope: etree._Element, actions: list[Action], page_url: str) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for action in actions:
            if isinstance(action, SaveCurrentURL):
                values[action.column] = page_url
            elif isinstance(action, SaveText):
                values[action.column] = apply_regex(self._text(scope, str(action.element)), action.regex)
            elif isinstance(action, SaveLink):
                values[action.column] = self._link(scope, str(action.element), page_url)
            elif isinstance(action, AnswerQuestion):
                values[action.column] = self._answer(action, self._text(scope, str(action.element)))
            elif isinstance(action, ScrapeFields):
                values.update(scrape_row(self._scraper(action), scope))
        return values

    def _scraper(self, action: ScrapeFields) -> CompiledSpec:
        key = action.spec.spec_id
        if key not in self._scrapers:
            self._scrapers[key] = CompiledSpec(action.spec)
        return self._scrapers[key]

    def _text(self, scope: etree._Element, selector: str) -> str:
        element = first_in(scope, selector)
        return node_text(element) if element is not None else ""

    def _link(self, scope: etree._Element, selector: str, page_url: str) -> str:
        element = first_in(scope, selector)
        if element is None:
            return ""
        link = element if element.get("href") else element.find(".//a[@href]")
        if link is None:
            link = next((a for a in element.iterancestors("a") if a.get("href")), None)
        return urljoin(page_url, link.get("href").strip()) if link is not None else ""

    def _answer(self, action: AnswerQuestion, text: str) -> str:
        if not text:
            return ""
        key = (action.question, text)
        if key not in self._answers:
            if self.llm is None:
                raise ReplayError(f"column {action.column!r} needs a model (AnswerQuestion), and this replay has none")
            from scrapesmith.llm import ask_structured

            prompt = render_prompt(
                "lists_answer_question", column=action.column, question=action.question, text=text[:4000]
            )
            self.result.llm_calls += 1
            self._answers[key] = ask_structured(
                self.llm, prompt, Answer, stage="lists.answer_question"
            ).answer
        return self._answers[key]

    def _finish_rows(self, list_values: dict[str, Any]) -> None:
        """Columns in program order (list-level values fill the gaps), extra values, then provenance."""
        fetched_at = timestamp()
        program_id = self.program.program_id
        finished = []
        for row in self.result.rows:
            source = row.pop("source_url", "")
            detail = row.pop(DETAIL_URL, "")
            row.pop(DETAIL_KEY, None)
            ordered = {
                column: row.get(column, list_values.get(column, "")) for column in self.program.columns
            }
            ordered.update({k: v for k, v in {**list_values, **row}.items() if k not in ordered})
            ordered["source_url"] = source
            if self.plan.detail_link is not None or detail:
                ordered[DETAIL_URL] = detail
            ordered.update(fetched_at=fetched_at, program_id=program_id)
            finished.append(ordered)
        self.result.rows = finished
        self.result.columns = list(self.program.columns)
        self.result.warnings.extend(empty_column_warnings(finished, self.program.columns))


def _item_url(item: etree._Element, page_url: str) -> str:
    link = main_link(item)
    return urljoin(page_url, link.get("href").strip()).split("#", 1)[0] if link is not None else ""


def _inactive(control: etree._Element) -> bool:
    """Hidden or disabled controls (a spent "Load more" button) end the list."""
    style = (control.get("style") or "").replace(" ", "").lower()
    return (
        control.get("hidden") is not None
        or control.get("disabled") is not None
        or control.get("aria-disabled") == "true"
        or "display:none" in style
    )


def _says_next(control: etree._Element) -> bool:
    return bool(re.search(r"next|more|older|›|»", element_text(control), re.IGNORECASE))


def apply_regex(text: str, regex: str | None) -> str:
    """The regex match in ``text`` (its first group when it has one); the whole text without a regex."""
    if not regex or not text:
        return text
    match = regex_search(regex, text)
    if match is None:
        return ""
    return match.group(1) if match.groups() else match.group(0)


def replay(
    program: ListProgram,
    runtime: PageRuntime,
    llm: LLM | None = None,
    start_url: str | None = None,
    max_pages: int | None = None,
    on_page: Callable[[str, int], None] | None = None,
    already_read: Callable[[str], bool] | None = None,
) -> ReplayResult:
    """Run ``program`` on ``runtime`` and return its rows (in column order, then provenance) and the list
    pages it read (``page_urls``); pagination stops before a page ``already_read`` says was read."""
    return Replayer(program, runtime, llm, on_page, already_read).run(start_url, max_pages)
