"""The task proposer of section 4.1 and Appendix E.

Phase 1 maps a site (its domain, plus the landing page's title and opening text when we have them) to a
realistic, passive task, or to ``N/A`` (the seed's own skip rule). The pipeline runs the safety filter
(:mod:`scrapesmith.insta.safety`) before phase 1, so the proposer only sees sites the filter let through. Each call shows 16 in-context examples sampled from a list of 100, which the seed does to
keep tasks diverse. Phase 2 reads the agent's trajectory and judgement and refines the task into a
harder, grounded ``{proposed_task, steps, criteria}``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from scrapesmith.insta.agent import action_json
from scrapesmith.insta.judge import clip
from scrapesmith.insta.parsing import first_fenced_json, parse_with_one_retry
from scrapesmith.insta.views import Judgement, ProposedTask, RefinedTask, Trajectory
from scrapesmith.llm import LLM, ChatMessage, LLMOutputError, LLMRequest
from scrapesmith.llm import render_prompt as render

IN_CONTEXT_EXAMPLES = 16
_NOT_APPLICABLE = re.compile(r"^\W*n\s*/\s*a\b", re.IGNORECASE)
_DOMAIN_PREFIX = re.compile(r"^\s*[*\-]?\s*['\"]?[\w.\-]+['\"]?\s*:\s*")


@cache
def _data(name: str) -> tuple[dict[str, Any], ...]:
    text = resources.files("scrapesmith.insta").joinpath("data", name).read_text(encoding="utf-8")
    return tuple(json.loads(text))


def proposer_examples() -> list[dict[str, str]]:
    """The 100 hand-picked ``{domain, task}`` examples (the seed's list, completed to 100)."""
    return [dict(row) for row in _data("proposer_examples.json")]


def parse_proposal(domain: str, text: str) -> ProposedTask:
    """Read a phase-1 answer: ``N/A`` marks the site unsafe; otherwise the first line is the task."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise LLMOutputError("the proposer returned an empty answer", raw=text)
    answer = _DOMAIN_PREFIX.sub("", lines[0], count=1) if domain.lower() in lines[0].lower() else lines[0]
    answer = answer.strip().strip("'\"` ").strip()
    if _NOT_APPLICABLE.match(answer) or _NOT_APPLICABLE.match(lines[0].strip("'\"` *")):
        return ProposedTask(domain=domain, task=None, response=text)
    if not answer:
        raise LLMOutputError("the proposer's answer holds no task", raw=text)
    return ProposedTask(domain=domain, task=answer, response=text)


def parse_refined(text: str) -> RefinedTask:
    payload = first_fenced_json(text)
    try:
        return RefinedTask(**{key: payload[key] for key in ("proposed_task", "steps", "criteria") if key in payload},
                           response=text)
    except ValidationError as exc:
        raise LLMOutputError(f"refined task does not match {{proposed_task, steps, criteria}}: "
                             f"{exc.errors()[0]['msg']}", raw=text) from None


@dataclass(frozen=True)
class LandingPage:
    """What phase 1 may see of a site besides its domain."""

    title: str = ""
    text: str = ""
    links: tuple[str, ...] = ()


def phase_one_messages(domain: str, examples: list[dict[str, str]], landing: LandingPage | None = None,
                       landing_words: int = 60) -> list[ChatMessage]:
    user = f"'{domain}'"
    if landing and (landing.title or landing.text):
        words = " ".join(landing.text.split()[:landing_words])
        user += f"\n\nLanding page title: {landing.title}\nLanding page text: {words}"
    return [
        ChatMessage(role="system", content=render("insta_propose", examples=examples)),
        ChatMessage(role="user", content=user),
    ]


def examples_by_domain(domains: list[str]) -> list[dict[str, str]]:
    """The in-context examples a recorded proposal was shown, in the order shown."""
    index = {row["domain"]: row for row in proposer_examples()}
    return [index[domain] for domain in domains if domain in index]


@dataclass(frozen=True)
class ProposerConfig:
    examples: int = IN_CONTEXT_EXAMPLES
    temperature: float = 0.5
    max_tokens: int = 64
    refine_words: int = 500
    refine_max_tokens: int = 1024
    page_tokens: int = 256
    landing_words: int = 60


def refine_prompt(domain: str, task: str, trajectory: Trajectory, judgement: Judgement | None,
              config: ProposerConfig) -> str:
    """Phase-2 input: the site, the initial task, the last pages and actions, and the judge's review."""
    parts = [f"## Website\n\n{domain}", f"## Initial Task\n\n{task}"]
    for number, step in enumerate(trajectory.steps[-5:], start=max(1, len(trajectory.steps) - 4)):
        parts.append(f"### Webpage {number}: {step.url}\n\n{clip(step.observation, config.page_tokens)}"
                     f"\n\nAction: {action_json(step.action)}")
    if trajectory.final_observation:
        parts.append(f"### Final Webpage: {trajectory.final_url}\n\n"
                     f"{clip(trajectory.final_observation, config.page_tokens * 2)}")
    if judgement is not None:
        parts.append(f"## Performance Review\n\nsuccess {judgement.success:.2f}, efficiency "
                     f"{judgement.efficiency:.2f}, self_correction {judgement.self_correction:.2f}")
    return "\n\n".join(parts)


def refine_system_prompt(config: ProposerConfig) -> str:
    return render("insta_refine", reasoning_words=config.refine_words)


def heuristic_task(landing: LandingPage | None, rng: random.Random) -> str | None:
    """No model: open one of the landing page's links (two words or more, chosen by ``rng``); the pipeline's
    safety filter (evidence alone without a model) has decided before. It exists so the pipeline runs, and
    is measured, with ``--llm none``."""
    links = [link for link in (landing.links if landing else ()) if len(link.split()) >= 2 and len(link) <= 60]
    return f'Open the "{rng.choice(links)}" page.' if links else None


class Proposer:
    def __init__(self, llm: LLM | None, config: ProposerConfig | None = None, seed: int | None = None) -> None:
        self.llm = llm
        self.config = config or ProposerConfig()
        self.rng = random.Random(seed)

    def propose(self, domain: str, landing: LandingPage | None = None) -> ProposedTask:
        """Phase 1: a task for ``domain`` or ``task=None`` when the safety filter answers N/A (with no model,
        :func:`heuristic_task`; a page without a link to name is recorded as having no task)."""
        if self.llm is None:
            task = heuristic_task(landing, self.rng)
            return ProposedTask(domain=domain, task=task)  # no response: nothing for the exporter to train on
        examples = self.rng.sample(proposer_examples(), self.config.examples)
        messages = phase_one_messages(domain, examples, landing, self.config.landing_words)
        request = LLMRequest(messages=messages, stage="insta.propose",
                             temperature=self.config.temperature, max_tokens=self.config.max_tokens)
        proposal = parse_proposal(domain, self.llm.complete(request).text)
        proposal.prompt, proposal.examples = messages[1].content, [row["domain"] for row in examples]
        return proposal

    def refine_prompt(self, domain: str, task: str, trajectory: Trajectory, judgement: Judgement | None) -> str:
        return refine_prompt(domain, task, trajectory, judgement, self.config)

    def refine(self, domain: str, task: str, trajectory: Trajectory, judgement: Judgement | None) -> RefinedTask:
        """Phase 2: a harder task grounded in the pages the agent saw; one retry on unparsable output."""
        messages = [
            ChatMessage(role="system", content=refine_system_prompt(self.config)),
            ChatMessage(role="user", content=self.refine_prompt(domain, task, trajectory, judgement)),
        ]
        return parse_with_one_retry(self._complete, messages, parse_refined, "task")

    def _complete(self, messages: list[ChatMessage]) -> str:
        request = LLMRequest(messages=messages, temperature=self.config.temperature,
                             max_tokens=self.config.refine_max_tokens, stage="insta.refine")
        return self.llm.complete(request).text
