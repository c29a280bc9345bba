"""Progressive generation (AutoScraper Algorithm 1) and its CoT and Reflexion baselines, on one seed page.

*Top-down*: the model reads the current HTML and writes an XPath plus the value it expects; the XPath is
executed, and if the result matches the value the sequence is done. *Step-back*: otherwise climb from the
node the XPath found (``xpath/..``) until the subtree contains the expected value (confirmed by the model),
append that pruning XPath to the action sequence and repeat top-down on the smaller HTML, at most
``d_max`` times. CoT is one top-down call; Reflexion retries top-down with the history but never prunes.
The heuristic candidates are shown to the model as options, so a small model mostly chooses, not writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from lxml import etree
from pydantic import BaseModel, Field

from scrapesmith.dom import estimate_tokens
from scrapesmith.induce.execute import XPathSyntaxError, as_document, comparable, run_actions
from scrapesmith.induce.fragments import fragment_html, region_for, region_xpath, value_nodes
from scrapesmith.induce.joined import text_part
from scrapesmith.llm import LLM, LLMError, ask_structured, render_prompt

Method = Literal["autoscraper", "cot", "reflexion"]


class TopDownReply(BaseModel):
    """The paper's top-down answer, with the answer fields first: constrained decoding follows the schema's
    order, and a small model that starts with a free-text thought often runs out of budget before it
    commits to a value. ``candidate`` lets it pick a listed XPath by number instead of writing one."""

    candidate: int = Field(default=-1, description="number of the chosen candidate XPath, -1 if none")
    value: str = ""
    xpath: str = ""
    consistent: str = ""
    thought: str = Field(default="", max_length=160)


class StepBackReply(BaseModel):
    thought: str = Field(default="", max_length=200)
    judgement: str = ""


@dataclass
class Attempt:
    xpath: str
    value: str
    result: list[str] | None
    thought: str = ""

    def describe(self) -> str:
        shown = "invalid or failed XPath" if self.result is None else (self.result[:3] or "empty result")
        return f"thought: {self.thought}\nxpath: {self.xpath}\nexpected value: {self.value}\nresult: {shown}"


@dataclass
class GenerationResult:
    """One seed page's action sequence, the value the model recognised, and how it got there."""

    actions: list[str]
    value: str = ""
    ok: bool = False
    attempts: list[Attempt] = field(default_factory=list)
    error: str = ""


@dataclass
class GenerationSettings:
    method: Method = "autoscraper"
    d_max: int = 5
    max_tokens: int = 1200
    region_tokens: int = 300
    hints: int = 5
    judge_step_back: bool = True


def consistent(result: list[str] | None, value: str) -> bool:
    """Does what the XPath returned equal what the model said it should (separators and spaces aside)?"""
    if not result or not value.strip():
        return False
    expected = comparable(value)
    found = [comparable(r) for r in result]
    if expected == "".join(found) or set(found) == {expected}:
        return True
    # several values (authors, genres) that together make up what the model expected
    return len(found) > 1 and all(f and f in expected for f in found) and sum(map(len, found)) >= 0.6 * len(expected)


def _hints(current: etree._Element, hint_xpaths: list[str], limit: int) -> list[dict[str, str]]:
    shown = []
    for xpath in hint_xpaths:
        try:
            values = run_actions(current, [xpath])
        except XPathSyntaxError:
            continue
        if values:
            shown.append({"xpath": xpath, "extracts": str(values[:3])})
        if len(shown) >= limit:
            break
    return shown


def _top_down(llm: LLM, instruction: str, current: etree._Element, history: list[Attempt],
              hint_xpaths: list[str], settings: GenerationSettings) -> TopDownReply:
    shown = _hints(current, hint_xpaths, settings.hints)
    prompt = render_prompt(
        "induce_top_down", instruction=instruction,
        history="\n\n".join(a.describe() for a in history[-3:]),
        candidates=shown, html=fragment_html(current, settings.max_tokens),
    )
    reply = ask_structured(llm, prompt, TopDownReply, stage=f"induce.{settings.method}.top_down", max_tokens=200)
    if 0 <= reply.candidate < len(shown) and not reply.xpath.strip():
        reply.xpath = shown[reply.candidate]["xpath"]
    return reply


def _contains_value(llm: LLM, instruction: str, node: etree._Element, value: str,
                    settings: GenerationSettings) -> bool:
    """Step-back stop test: the value's text is in the subtree, and (as in the paper) the model agrees."""
    if comparable(value) not in comparable(" ".join(node.itertext())):
        return False
    if not settings.judge_step_back:
        return True
    prompt = render_prompt("induce_step_back", instruction=instruction, value=value,
                           html=fragment_html(node, settings.max_tokens))
    reply = ask_structured(llm, prompt, StepBackReply, stage="induce.autoscraper.step_back", max_tokens=160)
    return reply.judgement.strip().lower().startswith("y")


def _step_back(llm: LLM, instruction: str, current: etree._Element, xpath: str, value: str,
               settings: GenerationSettings) -> tuple[str, etree._Element] | None:
    """Climb from the failed XPath's node until the subtree holds the value: (pruning XPath, new root). A
    joined text (``concat(…)``, a string, no node) climbs from the text node it starts with."""
    xpath = text_part(xpath) or xpath
    nodes = value_nodes(current, xpath)
    if not nodes:
        return None
    node, ups = nodes[0], 0
    while node is not None:
        if ups and _contains_value(llm, instruction, node, value, settings):
            break
        node, ups = node.getparent(), ups + 1
    if node is None or node.getparent() is None:
        return None
    # a text or attribute result is one step below the element value_nodes() started from
    first = etree.XPath(xpath)(current)[0]
    climbed = xpath + "/.." * (ups + (0 if isinstance(first, etree._Element) else 1))
    if value_nodes(current, climbed) != [node]:  # the failed XPath matched several nodes: name this one
        climbed = region_xpath(current, node) or f"({climbed})[1]"
    return climbed, as_document(node)


def generate_on_page(llm: LLM, instruction: str, root: etree._Element, hint_xpaths: list[str],
                     settings: GenerationSettings | None = None) -> GenerationResult:
    """Algorithm 1 on one page (or a baseline, per ``settings.method``)."""
    settings = settings or GenerationSettings()
    actions: list[str] = []
    current = root
    if estimate_tokens(fragment_html(root, 10**9)) > settings.max_tokens:
        region = region_for(root, hint_xpaths[:3], settings.region_tokens)
        prune = region_xpath(root, region)
        if prune:
            actions.append(prune)
            current = as_document(region)
    result = GenerationResult(actions=list(actions))
    rounds = 1 if settings.method == "cot" else settings.d_max + 1
    for _ in range(rounds):
        try:
            reply = _top_down(llm, instruction, current, result.attempts, hint_xpaths, settings)
        except LLMError as exc:  # unparseable reply, prompt over the context window, endpoint error
            result.error = str(exc)
            continue
        xpath = reply.xpath.strip()
        try:
            extracted = run_actions(current, [xpath]) if xpath else None
        except XPathSyntaxError:
            extracted = None
        result.attempts.append(Attempt(xpath, reply.value, extracted, reply.thought))
        result.value = reply.value or result.value
        if xpath and consistent(extracted, reply.value):
            result.actions = [*actions, xpath]
            result.ok = True
            return result
        if xpath and extracted:
            result.actions = [*actions, xpath]
        if settings.method != "autoscraper" or not xpath or not reply.value:
            continue
        try:
            stepped = _step_back(llm, instruction, current, xpath, reply.value, settings)
        except LLMError as exc:
            result.error = str(exc)
            stepped = None
        if stepped is not None:
            actions.append(stepped[0])
            current = stepped[1]
    return result
