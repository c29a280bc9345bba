"""What every AutoData agent shares: its profile (role + prompt), the team's OHCache, and a step budget.

Eq. 1, m_i^t = LLM(M_i^t, P_i, F_i): an agent's prompt is its profile template P_i rendered with only
the messages addressed to it (M_i^t, from the hypergraph), its tools F_i are plain methods, and what
it says goes back through the formatter into the hypergraph. Agents never call each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from scrapesmith.collect.candidates import PageTools
from scrapesmith.collect.ohcache import ArtifactCache, HyperedgeFormatter, MessageHypergraph
from scrapesmith.collect.sandbox import SandboxLimits
from scrapesmith.collect.search import LocalSearchIndex
from scrapesmith.collect.views import Hyperedge, Role, Seeds
from scrapesmith.llm import LLM, ChatMessage, LLMOutputError, render_prompt
from scrapesmith.web import Fetcher

T = TypeVar("T", bound=BaseModel)
_REF = re.compile(r"cache://([0-9a-f]{12})")
Progress = Callable[[str, str, int], None]


@dataclass
class Team:
    """The shared environment: the model, OHCache, the research fetcher and search index, run settings."""

    instruction: str
    llm: LLM | None
    graph: MessageHypergraph
    cache: ArtifactCache
    formatter: HyperedgeFormatter
    fetcher: Fetcher
    search: LocalSearchIndex
    run_dir: Path
    allow_hosts: list[str]
    delay: float | None
    #: the ``--from`` inputs resolved: crawl starts and scopes, and the local roots the run may read
    seeds: Seeds = field(default_factory=Seeds)
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    #: ask the model at every agent step, as the paper does, even where the tools' evidence leaves no choice
    always_ask: bool = False
    progress: Progress = lambda agent, step, rows: None
    rows: int = 0
    done: bool = False
    #: the hosts the sandboxed program may reach: the run's allowed hosts plus the sources research chose
    program_hosts: list[str] = field(default_factory=list)
    #: the local roots (from the seeds) the sandboxed program may read, mounted read-only
    program_roots: list[str] = field(default_factory=list)
    #: columns of the items' own pages given by a value seen on the first one (``--example``)
    examples: dict[str, str] = field(default_factory=dict)
    #: the list and table tools over ``fetcher``, remembering what they found on each page
    tools: PageTools = field(init=False)

    def __post_init__(self) -> None:
        self.tools = PageTools(self.fetcher, self.examples)


class Agent:
    """A profile (role, prompt name, step budget) acting on a :class:`Team`."""

    role: Role
    prompt: str | None = None
    budget: int = 1

    def __init__(self, team: Team) -> None:
        self.team = team

    def run(self) -> None:
        """One turn of the agent, scheduled by the manager."""
        raise LLMOutputError(f"{type(self).__name__} has no behaviour")

    def context(self) -> str:
        return self.team.graph.render_context(self.role)

    def received(self, kind: str) -> Hyperedge | None:
        return self.team.graph.latest(self.role, kind)

    def decide(self, reply_model: type[T], **variables) -> T | None:
        """Ask the model (through the formatter) for a decision; ``None`` without a model or on bad replies."""
        if self.team.llm is None or self.prompt is None:
            return None
        prompt = render_prompt(self.prompt, context=self.context(), instruction=self.team.instruction, **variables)
        try:
            return self.team.formatter.ask(self.team.llm, [ChatMessage(role="user", content=prompt)], reply_model,
                                           stage=f"collect.{self.role}")
        except LLMOutputError:
            return None

    def send(self, kind: str, content: BaseModel, targets: set[Role] | None = None) -> Hyperedge:
        data, text = self.team.formatter.format(self.role, content)
        if self.team.cache.inline:
            text = _REF.sub(lambda match: self.team.cache.mention(match.group(1)), text)
        return self.team.graph.post(self.role, kind, data, text, targets)

    def store(self, kind: str, content: str) -> str:
        """Put an artifact in the local cache; the cache node announces it to every agent (Eq. 5)."""
        from scrapesmith.collect.views import CacheMessage

        artifact_id = self.team.cache.put(kind, content)
        if self.team.cache.inline:
            return artifact_id
        data, _text = self.team.formatter.format(Role.CACHE, CacheMessage(
            artifact_id=artifact_id, kind=kind, size=len(content), summary=f"{kind} from {self.role}"))
        self.team.graph.post(Role.CACHE, "artifact", data, f"{kind} stored as {self.team.cache.mention(artifact_id)}")
        return artifact_id

    def report(self, step: str) -> None:
        self.team.progress(str(self.role), step, self.team.rows)
