"""The research squad: plan, web and tool agents (AutoData section 3.1); the blueprint agent is in ``blueprint``."""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import html
from lxml.html import HtmlElement
from pydantic import BaseModel, Field

from scrapesmith.collect.agents.base import Agent
from scrapesmith.collect.candidates import Found, PageTools, rest_candidates
from scrapesmith.collect.instruction import parse_instruction
from scrapesmith.collect.views import (
    PlanMessage,
    Role,
    SourceCandidate,
    SourceLink,
    ToolMessage,
    WebMessage,
)
from scrapesmith.dom import find_first_page, find_pagination
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web import FetchError, Page

CRAWL_LIMIT = 200
MAX_LINKS = 20
CRAWL_DEPTH = 3


class NoStartingPoint(ScrapesmithError):
    """Nothing to start from: no URL in the instruction and no pages to search."""


class PlanAgent(Agent):
    role = Role.PLAN
    prompt = "collect_plan"

    def run(self) -> None:
        guess = parse_instruction(self.team.instruction)
        # the instruction already says where to start and what to collect: nothing for the model to plan
        clear = guess.start_url and guess.columns and not self.team.always_ask
        reply = None if clear else self.decide(PlanMessage, guess=guess)
        steps = reply.steps if reply else [
            "find the page that lists the requested records", "inspect how the records and their pages are laid out",
            "choose an access path (list, table or REST API) and write the blueprint", "write, test and validate the program"]
        columns = guess.columns or (reply.columns if reply else [])
        if not columns:
            raise ScrapesmithError("the instruction names no columns: add e.g. 'with columns title, authors, url'")
        start_url = guess.start_url or (reply.start_url if reply and reply.start_url and reply.start_url in self.team.instruction else None)
        self.send("plan", PlanMessage(steps=steps, columns=columns, start_url=start_url,
                                      keywords=guess.keywords or (reply.keywords if reply else [])))
        self.report(f"{len(steps)} steps, columns {', '.join(columns)}")


def plan_of(agent: Agent) -> PlanMessage:
    edge = agent.received("plan")
    if edge is None:
        raise ScrapesmithError(f"{agent.role} ran before the plan agent")
    return PlanMessage.model_validate(edge.content)


class ToolAgent(Agent):
    """Search (a local FTS index of crawled pages), page inspection and extraction tools."""

    role = Role.TOOL

    def run(self) -> None:
        plan = plan_of(self)
        web = self.received("web")
        if web is None:
            self._search(plan)
        else:
            self._propose(plan, WebMessage.model_validate(web.content))

    def _search(self, plan: PlanMessage) -> None:
        seeds = self.team.seeds
        crawled, unread = self._crawl(seeds.urls, seeds.scopes)
        hits = self.team.search.search(" ".join(plan.keywords), limit=5)
        self.send("search", ToolMessage(candidates=[], search_hits=[hit.url for hit in hits]))
        if seeds.summary():
            self.report(seeds.summary())
        if seeds.skipped:  # every one is listed in result.json
            self.report(f"skipped {len(seeds.skipped)} files in seed directories: {_first_few(seeds.skipped)}")
        self.report(f"indexed {crawled} pages, {len(hits)} hits"
                    + (f"; {len(unread)} seed pages not indexed ({_first_few(unread)})" if unread else ""))

    def _crawl(self, seeds: list[str], scopes: list[str]) -> tuple[int, list[str]]:
        """Breadth-first from the seeds over the pages in their scopes (a URL seed: under its path; a
        local seed: inside its file or directory), a few levels deep. Returns the count of pages indexed
        and the seed pages not indexed, each with why (unreadable, not HTML, over the crawl limit)."""
        queue, seen, count = deque((seed, 0) for seed in seeds), set(seeds), 0
        unread: list[str] = []
        while queue and count < CRAWL_LIMIT:
            url, depth = queue.popleft()
            page, why = _fetch_why(self, url)
            if page is not None and not page.is_html:
                why = f"not HTML ({page.content_type})"
            if why:
                if depth == 0:
                    unread.append(f"{url}: {why}")
                continue
            count += 1
            self.team.search.add(page.url, page.text)
            if depth >= CRAWL_DEPTH:
                continue
            for link in page_links(page):
                if link.url not in seen and any(link.url.startswith(scope) for scope in scopes):
                    seen.add(link.url)
                    queue.append((link.url, depth + 1))
        unread += [f"{url}: over the crawl limit of {CRAWL_LIMIT} pages" for url, depth in queue if depth == 0]
        return count, unread

    def _propose(self, plan: PlanMessage, web: WebMessage) -> None:
        url = web.source_urls[0].url
        self._index_api_docs([u for u in dict.fromkeys([plan.start_url, url]) if u])
        found = self.team.tools.found(url, plan.columns)
        docs = [(hit.url, self.team.search.text_of(hit.url)) for hit in self.team.search.search("API GET", limit=3)]
        found += rest_candidates(self.team.fetcher, docs, plan.columns, self.team.instruction,
                                 parse_instruction(self.team.instruction).dates)
        candidates = []
        for index, item in enumerate(found):
            sample_ref = self.store("sample", json.dumps(item.rows[:3], ensure_ascii=False))
            program_ref = self.store("candidate", json.dumps(_found_json(item), ensure_ascii=False))
            candidates.append(SourceCandidate(candidate_id=f"c{index}", kind=item.kind, source_url=item.url,
                                        columns=item.keys, filled=item.filled(plan.columns),
                                        rows_on_page=len(item.rows), sample_ref=f"cache://{sample_ref}",
                                        program_ref=f"cache://{program_ref}"))
        self.send("candidates", ToolMessage(candidates=candidates))
        self.report(f"{len(candidates)} candidate access paths")


    def _index_api_docs(self, urls: list[str]) -> None:
        """Pages these pages link to as their API documentation ("API", "Developers") go into the search
        index, so the REST tool finds the endpoints they document without a crawl."""
        for url in urls:
            page = fetch_or_none(self, url)
            if page is None or not page.is_html:
                continue
            for link in [link for link in page_links(page) if _API_LINK.search(f"{link.label} {link.url}")][:2]:
                if not self.team.search.text_of(link.url) and (doc := fetch_or_none(self, link.url)):
                    self.team.search.add(doc.url, doc.text)


_API_LINK = re.compile(r"\b(?:api|developers?|rest)\b", re.IGNORECASE)


def _found_json(item: Found) -> dict:
    return {"kind": item.kind, "url": item.url, "field_map": item.field_map, "list_program": item.list_program,
            "api_params": item.api_params, "records_key": item.records_key, "join": item.join,
            "rows": item.rows[:20]}


def fetch_or_none(agent: Agent, url: str) -> Page | None:
    return _fetch_why(agent, url)[0]


def _fetch_why(agent: Agent, url: str) -> tuple[Page | None, str]:
    """The page, or ``None`` and why it could not be fetched."""
    try:
        return agent.team.fetcher.fetch(url), ""
    except FetchError as exc:
        return None, str(exc).removeprefix(f"{url}: ")


def _first_few(unread: list[str], shown: int = 3) -> str:
    return "; ".join(unread[:shown]) + (f"; and {len(unread) - shown} more" if len(unread) > shown else "")


def page_anchors(page: Page) -> Iterator[tuple[str, HtmlElement]]:
    """Every link of ``page`` as (absolute URL without its fragment, the anchor element), in page order."""
    for anchor in html.fromstring(page.text).xpath("//a[@href]"):
        yield urldefrag(urljoin(page.url, anchor.get("href")))[0], anchor


def page_links(page: Page) -> list[SourceLink]:
    links, seen = [], set()
    host = urlsplit(page.url).netloc
    for url, anchor in page_anchors(page):
        if urlsplit(url).netloc == host and url not in seen and url != page.url:
            seen.add(url)
            links.append(SourceLink(url=url, label=" ".join(anchor.text_content().split())))
    return links


def listing_pages(page: Page) -> frozenset[str]:
    """The listing's next page, when ``page`` has one: the list program follows it, it is no source of its own."""
    control = find_pagination(html.fromstring(page.text), page.url)
    return frozenset({urldefrag(control.url)[0]}) if control else frozenset()


def listing_start(page: Page) -> str:
    """Where the listing ``page`` belongs to starts: page 1 when ``page`` is a later page of it."""
    return find_first_page(html.fromstring(page.text), page.url) or page.url


def ranked_links(page: Page) -> list[SourceLink]:
    """Links below the current page first (where records usually are), then the rest, in page order;
    a short list keeps the small model's prompt short."""
    links = [link for link in page_links(page) if link.label]
    return ([link for link in links if _is_below(link.url, page.url)]
            + [link for link in links if not _is_below(link.url, page.url)])


class WebStep(BaseModel):
    thought: str = ""
    action: Literal["use_page", "use_links", "open"]
    choice: list[int] = Field(default_factory=list)


class WebAgent(Agent):
    """Navigates from the start URL (or the best search hit) to the page(s) holding the records."""

    role = Role.WEB
    prompt = "collect_web"
    budget = 4

    def run(self) -> None:
        plan = plan_of(self)
        url = plan.start_url or self._first_hit(plan)
        for step in range(1, self.budget + 1):
            page, why = _fetch_why(self, url)
            if page is None:
                raise ScrapesmithError(f"the web agent could not open {url}: {why}")
            self.team.search.add(page.url, page.text)
            page_ref = self.store("page", page.text)
            links = ranked_links(page)[:MAX_LINKS]
            decision = self._decide(page, plan, links, step)
            chosen = [links[i - 1] for i in decision.choice if 1 <= i <= len(links)]
            if decision.action == "open" and chosen and step < self.budget:
                url = chosen[0].url
                self.report(f"step {step}: open {url}")
                continue
            sources = chosen if decision.action == "use_links" and chosen else [SourceLink(url=listing_start(page))]
            self.send("web", WebMessage(source_urls=sources, access="html", page_refs=[f"cache://{page_ref}"],
                                        notes=decision.thought[:300]))
            self.report(f"step {step}: {len(sources)} source page(s)")
            return

    def _first_hit(self, plan: PlanMessage) -> str:
        search = self.received("search")
        hits = search.content.get("search_hits", []) if search else []
        if hits:
            return self._best_start(hits, plan.columns)
        if self.team.seeds.urls:
            return self.team.seeds.urls[0]
        raise NoStartingPoint("no start URL: name one in the instruction (e.g. 'from http://host/list/') "
                              "or give start pages to search")

    def _best_start(self, hits: list[str], columns: list[str]) -> str:
        """The search hit to start from: the best-ranked one, unless it fills fewer of the columns than
        another page fills them all — another hit, or a page with a record row linking to the first hit (an
        entity's own page ranks first, while the table holding its requested row — the standings a team is
        one row of — links to it from that row). Pages below the first hit are the navigation's to weigh
        (it probes them and may overrule). No model."""
        first = _coverage(self.team.tools, hits[0], columns)
        if first is not None and len(first.filled) == len(columns):
            return hits[0]
        referrers = [url for url in self.team.search.referrers(hits[0], limit=START_OPTIONS)
                     if (page := fetch_or_none(self, url)) is not None and _row_links_to(page, hits[0])]
        for url in dict.fromkeys([*hits[1:], *referrers]):
            if _is_below(url, hits[0]) or url == hits[0]:
                continue
            found = _coverage(self.team.tools, url, columns)
            if found is not None and len(found.filled) == len(columns):
                self.report(f"start at {url} (fills all {len(columns)} columns; the first hit "
                            f"{len(first.filled) if first else 0})")
                return url
        return hits[0]

    def _decide(self, page: Page, plan: PlanMessage, links: list[SourceLink], step: int) -> WebStep:
        evidence = Evidence.gather(self.team.tools, page.url, plan.columns, links, listing_pages(page))
        if evidence.page_is_enough(plan.columns) and not self.team.always_ask:
            return WebStep(thought=f"no choice to make: {evidence.text}", action="use_page")
        tree = html.fromstring(page.text)
        reply = self.decide(WebStep, columns=plan.columns, step=step, budget=self.budget, url=page.url,
                            title=" ".join(tree.xpath("string(//title)").split()),
                            headings=[" ".join(h.text_content().split()) for h in tree.xpath("//h1|//h2")][:6],
                            data=evidence.text, links=[{"index": i, "text": link.label[:60], "url": link.url}
                                                       for i, link in enumerate(links, start=1)])
        decision = reply or WebStep(thought="no decision from the model: use the current page", action="use_page")
        return _checked(decision, evidence, links, plan.columns)


def _checked(decision: WebStep, evidence: Evidence, links: list[SourceLink], columns: list[str]) -> WebStep:
    """Overrule "use this page" when the tools show it cannot hold the records: the page fills fewer
    columns than the pages below it, which fill them all. The records are then taken from every link
    below the page at the depth of the probed ones (the tracks of a year, say)."""
    here = len(evidence.here.filled) if evidence.here else 0
    full = [i for i, _label, found in evidence.below if len(found.filled) == len(columns) > here]
    if decision.action != "use_page" or not full:
        return decision
    depth = _depth(links[full[0] - 1].url)
    siblings = [i for i in evidence.below_links if _depth(links[i - 1].url) == depth]
    return WebStep(thought=f"overruled use_page: {evidence.text}", action="use_links", choice=siblings)


def _row_links_to(page: Page, target: str) -> bool:
    """Whether a record row of ``page`` (a table row, or a list item outside the page's navigation)
    links to ``target``."""
    if not page.is_html or not page.text:
        return False
    for url, anchor in page_anchors(page):
        if url == target and anchor.xpath(
                "ancestor::tr or (ancestor::li and not(ancestor::nav or ancestor::header or ancestor::footer"
                " or ancestor::aside))"):
            return True
    return False


def _depth(url: str) -> int:
    return len([part for part in urlsplit(url).path.split("/") if part])


PROBED_LINKS = 2
#: pages linking to the first search hit that are weighed as start pages
START_OPTIONS = 8


@dataclass(frozen=True)
class Evidence:
    """What the extraction tools find on a page and on the first pages linked below it.

    The small model cannot tell a navigation list from the records; it can compare "a list of 4 rows
    filling title, url" here with "link 1 (Main) holds a list of 5 rows filling title, authors, track, url".
    """

    here: Coverage | None
    below: tuple[tuple[int, str, Coverage], ...]
    below_links: tuple[int, ...] = ()

    @classmethod
    def gather(cls, tools: PageTools, url: str, columns: list[str], links: list[SourceLink],
               skip: frozenset[str] = frozenset()) -> Evidence:
        """``skip``: the listing's own other pages (its pagination), which are not records of their own."""
        below = [i for i, link in enumerate(links, start=1) if _is_below(link.url, url) and link.url not in skip]
        probes = [(i, links[i - 1].label[:40], _coverage(tools, links[i - 1].url, columns))
                  for i in below[:PROBED_LINKS]]
        return cls(_coverage(tools, url, columns), tuple(p for p in probes if p[2] is not None), tuple(below))

    @property
    def text(self) -> str:
        lines = [f"this page: {self.here.text if self.here else 'no list or table of records'}"]
        return "; ".join(lines + [f"link {i} ({label}) holds {found.text}" for i, label, found in self.below])

    def page_is_enough(self, columns: list[str]) -> bool:
        """This page fills every column and no page below it does as well: nothing to choose."""
        return (self.here is not None and len(self.here.filled) == len(columns)
                and all(len(found.filled) < len(columns) for _i, _label, found in self.below))


@dataclass(frozen=True)
class Coverage:
    kind: str
    rows: int
    filled: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"a {self.kind} of {self.rows} rows filling {', '.join(self.filled) or 'none of the columns'}"


def _coverage(tools: PageTools, url: str, columns: list[str]) -> Coverage | None:
    """The better of the list and table tools on ``url``: how many rows, which requested columns filled."""
    found = tools.found(url, columns)
    if not found:
        return None
    coverages = [Coverage(item.kind, len(item.rows), tuple(item.filled(columns))) for item in found]
    return max(coverages, key=lambda coverage: (len(coverage.filled), coverage.rows))


def _is_below(link: str, url: str) -> bool:
    base = url if url.endswith("/") else url.rsplit("/", 1)[0] + "/"
    return link.startswith(base) and link != url
