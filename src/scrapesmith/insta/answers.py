"""Answers the page shows for a question: the values beside a label the question names, for the record it names.

A task that asks "What is the Sector of "ACMR quote"?" is answered by a value the current page states beside
the label *Sector* (``goals.labelled_values``: a definition list, a two-cell row, a table cell under its
column's header, a ``Label: value`` line). Each such value is an **answer candidate**: a stop whose answer is
that value, so the model chooses an answer among what the page shows (under the grammar's enum) instead of
writing one (a small model writes "stop" or "the value is displayed on the webpage"). A value is **named**
when its record — the table row's name, else a heading of the page — is what the question quotes (one
contains the other), or when it is the page's only value for the label and no table row names its record. The label must be named too: every word of it is a word of the question.

The program answers without the model when exactly one value is named best for the label (the record quoted
exactly beats a record containing the quote; no evidence disagrees);
with several, the model chooses among them and the free stop; with none, nothing is offered.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from scrapesmith.insta.evidence_judge import task_criteria
from scrapesmith.insta.goals import labelled_values
from scrapesmith.insta.views import Action, ActionCandidate

_WORD = re.compile(r"\w+")
_QUOTED = re.compile(r"[\"“”']([^\"“”']{2,120})[\"“”']")
_QUESTION = re.compile(r"\?\s*$|^\s*(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
#: At most this many answers are offered to the model.
MAX_ANSWERS = 6


@dataclass(frozen=True)
class PageAnswer:
    value: str
    label: str
    record: str
    named: int  # 2: the question quotes the record exactly; 1: one contains the other (or the page's one value)


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def asks_question(task: str) -> bool:
    """The task asks for information (a question mark at its end, or a question word first)."""
    return bool(_QUESTION.search(task.strip()))


def question_clause(task: str) -> str | None:
    """The clause of the task that asks (the last one that is a question), or None."""
    asking = [clause for clause in task_criteria(task) if asks_question(clause)]
    return asking[-1] if asking else None


def _names(question: str, record: str) -> int:
    """2: the question quotes the record exactly; 1: a quote contains it or it contains a quote (quoting nothing:
    the question writes its name); 0: neither."""
    name = _norm(record)
    if len(name) < 2:
        return 0
    quoted = [_norm(text) for text in _QUOTED.findall(question)] or [_norm(question)]
    if name in quoted:
        return 2
    return int(any(f" {name} " in f" {said} " or (len(said) >= 3 and f" {said} " in f" {name} ") for said in quoted))


def _page_tree(root: Any) -> Any:
    tree = copy.deepcopy(root)
    for junk in tree.xpath("//script|//style|//noscript|//template|//select|//form"):
        junk.drop_tree()
    return tree


def page_answers(task: str, root: Any) -> list[PageAnswer]:
    """The values the page shows beside a label the task's question names, named ones first (distinct values)."""
    question = question_clause(task)
    if question is None or root is None:
        return []
    words = set(_norm(question).split())
    tree = _page_tree(root)
    headings = [" ".join(node.text_content().split()) for node in tree.xpath("//h1|//h2|//h3")]
    heading = next((text for text in headings if _names(question, text)), headings[0] if headings else "")
    found: dict[str, PageAnswer] = {}
    asked = [(record, label, value) for record, label, value in labelled_values(tree)
             if set(_norm(label).split()) <= words]
    for record, label, value in asked:
        # a page's own value (no row names a record) is named when the question quotes the page's heading, or
        # when it is the page's one value for the label (the page the task's links lead to is the record's)
        named = _names(question, record) if record else max(_names(question, heading), int(len(asked) == 1))
        known = found.get(_norm(value))
        if known is None or named > known.named:
            found[_norm(value)] = PageAnswer(value=value, label=label, record=record or heading, named=named)
    return sorted(found.values(), key=lambda answer: -answer.named)


def answer_candidates(task: str, root: Any, first_id: int) -> list[ActionCandidate]:
    """The page's answers as stop candidates (ids from ``c{first_id}``), at most :data:`MAX_ANSWERS`."""
    candidates = []
    for number, answer in enumerate(page_answers(task, root)[:MAX_ANSWERS], start=first_id):
        whose = f' of "{answer.record}"' if answer.record else ""
        score = {2: 2.0, 1: 1.0}.get(answer.named, 0.5)
        candidates.append(ActionCandidate(
            id=f"c{number}", action=Action(action_key="stop", action_kwargs={"answer": answer.value}),
            text=f'stop, answering "{answer.value}" (the page\'s {answer.label}{whose})',
            score=score, grounded=[answer.label] + ([answer.record] if answer.named else [])))
    return candidates


def named_answer(answers: list[ActionCandidate]) -> ActionCandidate | None:
    """The one answer the page names best for the question's record (quoted exactly, else contained), when
    exactly one is named so."""
    best = max((answer.score for answer in answers), default=0.0)
    named = [answer for answer in answers if answer.score == best]
    return named[0] if best >= 1.0 and len(named) == 1 else None
