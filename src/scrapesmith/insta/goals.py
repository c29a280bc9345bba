"""What a proposed task must lead to: a value a page shows beside its label, on a page the site reaches.

``labelled_values`` reads the label/value pairs a page states — definition lists, two-cell table rows, a bold
``Label:`` before its value, ``Label: value`` lines, and tables with a header row — and names the record each
belongs to: the table row's first cell holding a letter (a name, a date with its month), else the page's own
heading (the first heading whose text is not shown on every page read: a logo is). A
:class:`~scrapesmith.insta.views.TaskGoal` is one such fact with the page it is on and the link texts that
lead there from the landing page, so the judge can check the task by the value and the page, and a task
with no goal (``match_goal`` finds none) is vague.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from scrapesmith.dom import parse_html
from scrapesmith.insta.explore import Exploration, SitePage
from scrapesmith.insta.views import TaskGoal

_KEY_VALUE = re.compile(r"^([A-Z][\w\- ]{1,28}?)\s*:\s+(\S.{0,60})$")
_WORD = re.compile(r"\w+")
_SPLIT_TITLE = re.compile(r"\s+[|\-—·:]\s+")
MAX_LABEL_WORDS = 4
MAX_VALUE_WORDS = 12


def _text(node: object) -> str:
    return " ".join(node.text_content().split())  # type: ignore[attr-defined]


def _clean_tree(site_page: SitePage) -> object:
    tree = parse_html(site_page.page.text, url=site_page.url)
    for junk in tree.xpath("//script|//style|//noscript|//template|//select|//form"):
        junk.drop_tree()
    return tree


def headings(site_page: SitePage) -> list[str]:
    tree = _clean_tree(site_page)
    return [text for node in tree.xpath("//h1|//h2|//h3") if (text := _text(node))]


def page_entity(site_page: SitePage, shared: set[str]) -> str:
    """The record a page is about: its first heading not shown on every page, else its title's first part."""
    for text in headings(site_page):
        if text not in shared and len(text.split()) <= 14:
            return text
    tree = _clean_tree(site_page)
    title = " ".join(tree.xpath("string(//title)").split())  # type: ignore[attr-defined]
    return _SPLIT_TITLE.split(title)[0] if title else ""


def _pair(label: str, value: str) -> tuple[str, str] | None:
    label, value = label.strip().rstrip(":").strip(), value.strip()
    if not label or not value or label.casefold() == value.casefold():
        return None
    if len(label.split()) > MAX_LABEL_WORDS or len(value.split()) > MAX_VALUE_WORDS or not _WORD.search(value):
        return None
    if not any(ch.isalpha() for ch in label):
        return None
    return label, value


def labelled_values(tree: object) -> list[tuple[str, str, str]]:
    """``(record, label, value)`` on a page; ``record`` is empty where the page's heading names the record."""
    found: list[tuple[str, str, str]] = []
    for term in tree.xpath("//dt"):  # type: ignore[attr-defined]
        value = term.getnext()
        if value is not None and value.tag == "dd" and (pair := _pair(_text(term), _text(value))):
            found.append(("", *pair))
    for table in tree.xpath("//table"):  # type: ignore[attr-defined]
        found += _table_values(table)
    for bold in tree.xpath("//b|//strong"):  # type: ignore[attr-defined]
        label, parent = _text(bold), bold.getparent()
        if label.endswith(":") and parent is not None and _text(parent).startswith(label) \
                and (pair := _pair(label, _text(parent)[len(label):])):
            found.append(("", *pair))
    for node in tree.xpath("//p[not(.//a)]|//li[not(.//a)]|//div[not(*)]|//span[not(*)]"):  # type: ignore[attr-defined]
        if node.xpath("ancestor::a"):
            continue
        match = _KEY_VALUE.match(_text(node))
        if match and (pair := _pair(match.group(1), match.group(2))):
            found.append(("", *pair))
    return list(dict.fromkeys(found))


def _table_values(table: object) -> list[tuple[str, str, str]]:
    rows = [row for row in table.xpath(".//tr") if row.xpath("./td|./th")]  # type: ignore[attr-defined]
    cells = [[_text(cell) for cell in row.xpath("./td|./th")] for row in rows]
    if all(len(row) == 2 for row in cells):
        return [("", *pair) for label, value in cells if (pair := _pair(label, value))]
    header = rows[0].xpath("./th") if rows else []
    if not header or len(cells[0]) < 2:
        return []
    names = cells[0]
    found = []
    keys = Counter(_row_key(row) for row in cells[1:] if len(row) == len(names))
    for row in cells[1:]:
        if len(row) != len(names):
            continue
        # the record's name: the row's first cell that holds a letter (a name, a date written with its month),
        # wherever the layout puts it; the other cells are its values under their column's header
        key = next((index for index, cell in enumerate(row) if any(ch.isalpha() for ch in cell)), None)
        if key is None or keys[row[key]] > 1:  # a name two rows share names no one record: a task could not say which
            continue
        found += [(row[key], *pair) for index, (name, value) in enumerate(zip(names, row, strict=True))
                  if index != key and (pair := _pair(name, value))]
    return found


def _row_key(row: list[str]) -> str | None:
    return next((cell for cell in row if any(ch.isalpha() for ch in cell)), None)


def site_goals(exploration: Exploration) -> list[TaskGoal]:
    """Every fact of the pages read (the landing page's too) as a goal — value, label, record, page, route —
    and, for each page reached from the landing page under a heading of its own, the page itself (a goal
    with no label: open the page). Facts on deeper pages first (records rather than listings)."""
    pages = exploration.all_pages
    counts = Counter(text for page in pages for text in set(headings(page)))
    shared = {text for text, count in counts.items() if count > 1 and len(pages) > 1}
    goals: list[TaskGoal] = []
    for page in sorted(pages, key=lambda page: -page.depth):
        if page.ambiguous:  # "Read more" on every card: the task could not say which link to follow
            continue
        entity = page_entity(page, shared)
        values = labelled_values(_clean_tree(page))
        repeated = Counter(label for record, label, _ in values if not record)
        for record, label, value in values:
            name = record or entity
            if not name or (not record and repeated[label] > 1):  # a label the page repeats names no one value
                continue
            if f" {_norm(label)} " in f" {_norm(name)} " and _norm(value) in _norm(name):
                continue  # the record's name is the "Label: value" line itself (a title with a colon)
            goals.append(TaskGoal(page=page.url, entity=name, label=label, value=value, route=list(page.route),
                                  heading=entity))
        if page.depth and entity and entity not in shared:
            goals.append(TaskGoal(page=page.url, entity=entity, label="", value="", route=list(page.route),
                                  heading=entity))
    # a record and label the pages give two different values for (two jobs of one title) asks an ambiguous question
    said: dict[tuple[str, str], set[str]] = {}
    for goal in goals:
        if goal.label:
            said.setdefault((_norm(goal.entity), _norm(goal.label)), set()).add(_norm(goal.value))
    return [goal for goal in goals if not goal.label or len(said[(_norm(goal.entity), _norm(goal.label))]) == 1]


def ranked_goals(goals: list[TaskGoal], rng: random.Random | None = None, limit: int = 8) -> list[TaskGoal]:
    """A short, varied list to propose from: value goals before page goals, labels that are words (not
    ``W%``), labels shown for more than one record with more than one value first, at most two per page, the
    record's own page before a listing's row, shorter routes first among value goals (each link is a step
    that can go wrong), deeper pages first among page goals; shuffled within a rank by ``rng``."""
    # a label several records show with different values (a template's field) before one a single record shows
    # (a title split at its colon, a one-off line) or one whose value never changes (guessed without going to
    # the record): variation across the pages read, not the label's words, says it is a field worth asking
    records_of: dict[str, set[str]] = {}
    values_of: dict[str, set[str]] = {}
    for goal in goals:
        records_of.setdefault(_norm(goal.label), set()).add(_norm(goal.entity))
        values_of.setdefault(_norm(goal.label), set()).add(_norm(goal.value))

    def rank(goal: TaskGoal) -> tuple[int, int, int, int]:
        worded = any(len(word) >= 3 for word in _WORD.findall(goal.label))
        return (0 if goal.label and worded else 1 if goal.label else 2,
                0 if not goal.label or min(len(records_of[_norm(goal.label)]), len(values_of[_norm(goal.label)])) > 1
                else 1,
                0 if goal.entity == goal.heading else 1, len(goal.route) if goal.label else -len(goal.route))

    pool = list(goals)
    if rng is not None:
        rng.shuffle(pool)
    chosen: list[TaskGoal] = []
    per_page: Counter[str] = Counter()
    for goal in sorted(pool, key=rank):
        if per_page[goal.page] < 2 and len(chosen) < limit:
            chosen.append(goal)
            per_page[goal.page] += 1
    return chosen


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def match_goal(task: str, goals: list[TaskGoal]) -> TaskGoal | None:
    """The goal a task leads to: the longest record name the task names whose label's words it names too; a
    task that names no record of the pages read has no goal (it is vague)."""
    said = f" {_norm(task)} "
    words = set(said.split())
    best: TaskGoal | None = None
    for goal in goals:
        if f" {_norm(goal.entity)} " not in said or not set(_norm(goal.label).split()) <= words:
            continue
        if best is None or len(goal.entity) > len(best.entity):
            best = goal
    return best


def goal_task(goal: TaskGoal) -> str:
    """The task in the program's words: the links to follow from the landing page, then the question (a page
    goal: the links alone). The question names the record and the label only: the page's own heading in it
    would send an agent that grounds task words to the links that repeat them."""
    route = [text for text in goal.route if _norm(text) != _norm(goal.entity) or not goal.label]
    steps = ", then ".join(f'open "{text}"' for text in route)
    if not goal.label:
        return f"{steps[:1].upper()}{steps[1:]}."
    question = f'What is the {goal.label} of "{goal.entity}"?'
    return f"{steps[:1].upper()}{steps[1:]}. {question}" if steps else question
