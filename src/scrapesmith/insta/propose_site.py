"""Phase 1 of the proposer on the pages read: a task whose answer the site shows, or N/A with its reason.

The seed's proposer sees a domain and writes a task; a small model then writes tasks no page answers ("Find
the analytics dashboard for your whole company"). Here the pipeline has read a few pages of the site
(:mod:`.explore`) and :mod:`.goals` has listed what they state — a value beside its label for a named record,
or a record's own page — so a task can be held to them:

1. *free form* (``free_form=True``, the seed's prompt): the model is shown the landing page and the facts of
   the pages read and writes a task; :func:`.goals.match_goal` finds the record and label it names. A task
   that names none is **vague**: it is rejected (``ProposedTask.rejected`` says why) and re-proposed by 2;
2. *choice*: the model chooses, under a JSON schema whose ``task`` is an enum of ids, among up to eight
   tasks the program wrote from the facts (:func:`.goals.goal_task`: the links to follow, then the question).

Either way the task carries its :class:`~.views.TaskGoal` (value, label, record, page), which the judge checks.
``N/A`` is accepted only from a site with nothing to ask (no fact, no page of its own), with that reason; an
N/A for a site with facts is rejected like a vague task. With no model, the program takes its first ranked
page goal, else its first goal. An unreadable choice falls back to the program's first, with the reason.

*Several tasks* (:meth:`SiteProposer.propose_tasks`, ``count`` > 1): the model lists ``count`` ids in one call
(prompt ``insta_propose_choose_many``; ``free_form`` is not asked); a repeat — the same id, the same page to
reach, the same label of the same record — is rejected ("duplicate: …" in the first task's ``rejected``) and
its place, like any place the reply left empty, goes to the program's next ranked goal.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from urllib.parse import urlsplit

from scrapesmith.insta.goals import goal_task, match_goal, ranked_goals
from scrapesmith.insta.propose import (
    LandingPage,
    Proposer,
    parse_proposal,
    phase_one_messages,
    proposer_examples,
)
from scrapesmith.insta.views import ProposedTask, TaskGoal
from scrapesmith.llm import ChatMessage, LLMError, LLMRequest, ask_json, render_prompt

STAGE = "insta.propose"
MANY_PROMPT = "insta_propose_choose_many"
CHOICES = 8
FACT_LINES = 10


@dataclass(frozen=True)
class SiteProposerConfig:
    free_form: bool = False
    choices: int = CHOICES
    reason_tokens: int = 96


def facts_text(goals: list[TaskGoal], limit: int = FACT_LINES) -> str:
    """The pages' facts as the free-form prompt shows them: one line per fact, value goals first."""
    lines = []
    for goal in goals[:limit]:
        path = urlsplit(goal.page).path
        lines.append(f'- "{goal.entity}" ({path}): {goal.label}: {goal.value}' if goal.label
                     else f'- "{goal.entity}" ({path}): a page of its own')
    return "\n".join(lines)


def choice_user_prompt(domain: str, landing: LandingPage | None, tasks: list[str]) -> str:
    title = f"\nLanding page title: {landing.title}" if landing and landing.title else ""
    listed = "\n".join(f"t{number}: {task}" for number, task in enumerate(tasks, start=1))
    return f"Website: '{domain}'{title}\n\n## Tasks\n\n{listed}"


def choice_schema(count: int) -> dict:
    return {"title": "TaskChoice", "type": "object",
            "properties": {"reason": {"type": "string"},
                           "task": {"type": "string", "enum": [f"t{n}" for n in range(1, count + 1)]}},
            "required": ["reason", "task"], "additionalProperties": False}


def many_schema(choices: int, count: int) -> dict:
    """``count`` task ids, each a field of its own under the enum (a grammar any converter handles)."""
    ids = {"type": "string", "enum": [f"t{n}" for n in range(1, choices + 1)]}
    fields = {f"task{number}": ids for number in range(1, count + 1)}
    return {"title": "TaskChoices", "type": "object", "properties": {"reason": {"type": "string"}, **fields},
            "required": ["reason", *fields], "additionalProperties": False}


def same_goal(left: TaskGoal, right: TaskGoal) -> bool:
    """Two goals ask the same thing: the same page to reach, or the same label of the same record."""
    if not left.label or not right.label:
        return not left.label and not right.label and left.page.rstrip("/") == right.page.rstrip("/")
    return (left.entity.casefold(), left.label.casefold()) == (right.entity.casefold(), right.label.casefold())


class SiteProposer:
    """Phase 1 held to the pages read (module docstring); ``proposer`` keeps the seed's prompt and phase 2."""

    def __init__(self, proposer: Proposer, config: SiteProposerConfig | None = None) -> None:
        self.proposer = proposer
        self.config = config or SiteProposerConfig()
        self.rng: random.Random = proposer.rng

    def propose(self, domain: str, landing: LandingPage | None, goals: list[TaskGoal],
                pages_read: list[str]) -> ProposedTask:
        ranked = ranked_goals(goals, self.rng, self.config.choices)
        if not ranked:
            return ProposedTask(domain=domain, task=None, pages_read=pages_read,
                                reason=f"N/A: empty site: the {len(pages_read)} pages read state no value beside "
                                       "a label and no record has a page of its own")
        llm = self.proposer.llm
        if llm is None:  # no model will read an answer off the page: a page to reach, where the pages give one
            pages = [goal for goal in ranked_goals(goals, self.rng, len(goals)) if not goal.label]
            return self._take(domain, (pages or ranked)[0], pages_read,
                              "no model: the program's first goal" + (" that is a page to reach" if pages else ""))
        rejected: list[str] = []
        if self.config.free_form:
            found = self._free_form(domain, landing, goals, ranked, rejected)
            if found is not None:
                found.pages_read = pages_read
                return found
        return self._choose(domain, landing, ranked, pages_read, rejected)

    def _free_form(self, domain: str, landing: LandingPage | None, goals: list[TaskGoal], ranked: list[TaskGoal],
                   rejected: list[str]) -> ProposedTask | None:
        """The seed's prompt with the pages' facts; the task must name a record and its label, else rejected."""
        examples = self.rng.sample(proposer_examples(), self.proposer.config.examples)
        messages = phase_one_messages(domain, examples, landing, self.proposer.config.landing_words)
        messages[1] = ChatMessage(role="user", content=messages[1].content + "\n\nWhat the pages of this website "
                                  "show:\n" + facts_text(ranked) + "\n\nAsk for one value of one item above, "
                                  "naming the item in quotes.")
        request = LLMRequest(messages=messages, stage=STAGE, temperature=self.proposer.config.temperature,
                             max_tokens=self.proposer.config.max_tokens)
        text = self.proposer.llm.complete(request).text  # type: ignore[union-attr]
        try:
            proposal = parse_proposal(domain, text)
        except LLMError as exc:
            rejected.append(f"unreadable: {str(exc).splitlines()[0]}")
            return None
        if proposal.task is None:
            rejected.append(f"N/A for a site whose pages hold {len(goals)} facts: {text.strip()[:120]!r}")
            return None
        goal = match_goal(proposal.task, goals)
        if goal is None:
            rejected.append(f"vague: {proposal.task!r} names no record of the pages read with its label")
            return None
        proposal.task, proposal.goal = goal_task(goal), goal
        proposal.prompt, proposal.examples, proposal.system = messages[1].content, [e["domain"] for e in examples], \
            "insta_propose"
        proposal.reason = f"the model's task {text.strip()[:120]!r} names {goal.entity!r} and {goal.label or 'its page'!r}"
        return proposal

    def _choose(self, domain: str, landing: LandingPage | None, ranked: list[TaskGoal], pages_read: list[str],
                rejected: list[str]) -> ProposedTask:
        tasks = [goal_task(goal) for goal in ranked]
        user = choice_user_prompt(domain, landing, tasks)
        messages = [ChatMessage(role="system", content=render_prompt("insta_propose_choose")),
                    ChatMessage(role="user", content=user)]
        try:
            reply = ask_json(self.proposer.llm, messages, choice_schema(len(tasks)), stage=STAGE,
                             max_tokens=self.config.reason_tokens, temperature=self.proposer.config.temperature)
        except LLMError as exc:
            found = self._take(domain, ranked[0], pages_read, f"the program's first goal; the model's choice was "
                               f"unreadable ({str(exc).splitlines()[0]})")
            found.rejected = rejected
            return found
        index = int(str(reply["task"])[1:]) - 1
        found = self._take(domain, ranked[index], pages_read, f"chosen by the model: {reply.get('reason', '')}")
        found.prompt, found.response, found.system, found.rejected = user, json.dumps(reply), "insta_propose_choose", \
            rejected
        return found

    def propose_tasks(self, domain: str, landing: LandingPage | None, goals: list[TaskGoal], pages_read: list[str],
                      count: int = 1) -> list[ProposedTask]:
        """Up to ``count`` distinct tasks (module docstring, *several tasks*); the first is :meth:`propose`'s
        when ``count`` is 1, and the list is ``[N/A]`` for a site with nothing to ask."""
        if count <= 1 or self.proposer.llm is None:  # the first task is the one a single task would be
            first = self.propose(domain, landing, goals, pages_read)
            if count <= 1 or first.goal is None:
                return [first]
            pool = ranked_goals(goals, self.rng, len(goals))  # no model: pages to reach first, as the first task
            return [first] + self._fill([first], [g for g in pool if not g.label] + [g for g in pool if g.label],
                                        pages_read, count)
        ranked = ranked_goals(goals, self.rng, max(self.config.choices, count))
        if not ranked:
            return [self.propose(domain, landing, goals, pages_read)]
        return self._choose_many(domain, landing, ranked, pages_read, count)

    def _choose_many(self, domain: str, landing: LandingPage | None, ranked: list[TaskGoal], pages_read: list[str],
                     count: int) -> list[ProposedTask]:
        """One call: the model lists ``count`` task ids; a repeat (the same id, or the same goal) is rejected and
        its place goes to the program's next ranked goal."""
        tasks = [goal_task(goal) for goal in ranked]
        user = choice_user_prompt(domain, landing, tasks) + f"\n\nChoose {count} different tasks."
        messages = [ChatMessage(role="system", content=render_prompt(MANY_PROMPT)),
                    ChatMessage(role="user", content=user)]
        rejected: list[str] = []
        chosen: list[ProposedTask] = []
        try:
            reply = ask_json(self.proposer.llm, messages, many_schema(len(tasks), count), stage=STAGE,  # type: ignore[arg-type]
                             max_tokens=self.config.reason_tokens + 8 * count,
                             temperature=self.proposer.config.temperature)
        except LLMError as exc:
            reply, why = {}, f"the model's choice was unreadable ({str(exc).splitlines()[0]})"
            rejected.append(why)
        for key in (f"task{number}" for number in range(1, count + 1)):
            if key not in reply:
                continue
            goal = ranked[int(str(reply[key])[1:]) - 1]
            if any(same_goal(goal, earlier.goal) for earlier in chosen if earlier.goal is not None):
                rejected.append(f"duplicate: {reply[key]} repeats a task chosen before")
                continue
            chosen.append(self._take(domain, goal, pages_read, f"chosen by the model: {reply.get('reason', '')}"))
        if chosen:
            chosen[0].prompt, chosen[0].response, chosen[0].system = user, json.dumps(reply), MANY_PROMPT
        found = chosen + self._fill(chosen, ranked, pages_read, count)
        found[0].rejected = rejected
        return found

    def _fill(self, chosen: list[ProposedTask], ranked: list[TaskGoal], pages_read: list[str],
              count: int) -> list[ProposedTask]:
        """The program's next ranked goals, distinct from those chosen, up to ``count`` tasks in all."""
        taken = [task.goal for task in chosen if task.goal is not None]
        more: list[ProposedTask] = []
        for goal in ranked:
            if len(chosen) + len(more) >= count:
                break
            if not any(same_goal(goal, other) for other in taken):
                taken.append(goal)
                more.append(self._take(chosen[0].domain if chosen else "", goal, pages_read,
                                       f"the program's next goal (task {len(chosen) + len(more) + 1} of {count})"))
        return more

    @staticmethod
    def _take(domain: str, goal: TaskGoal, pages_read: list[str], reason: str) -> ProposedTask:
        return ProposedTask(domain=domain, task=goal_task(goal), goal=goal, reason=reason, pages_read=pages_read)
