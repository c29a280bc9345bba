"""The candidate policy: the program lists grounded actions (``insta.candidates``), the model picks one.

Each turn the model sees the task, the last steps, the page (markdown, live state) and the numbered
candidates, and answers ``{"reason", "candidate", "value"}`` under a JSON schema whose ``candidate`` is an
enum of the ids offered — on the embedded model a llama.cpp grammar, so it cannot name an element that is
not there; any other provider's answer is validated against the same schema (one retry, then the step
counts as invalid). ``value`` is used only for ``free`` candidates (the stop answer, a value no element
holds). With no model (``llm=None``) the best-scored candidate not done before is taken, and the episode
stops when no grounded candidate is left. The chosen candidate, its reason and the candidates offered are
recorded in the :class:`~scrapesmith.insta.views.Step`; the seed's free-form agent stays as ``--policy paper``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from scrapesmith.insta.agent import HISTORY_STEPS
from scrapesmith.insta.answers import answer_candidates
from scrapesmith.insta.appearance import appearance_candidates
from scrapesmith.insta.candidates import Grounding, candidate_actions, ground_task, renumber
from scrapesmith.insta.compare import compare_candidates
from scrapesmith.insta.decide import Decision, decide
from scrapesmith.insta.elements import pointer_targets, suggestion_targets, text_targets, with_context
from scrapesmith.insta.evidence_judge import without_task
from scrapesmith.insta.ordinals import ordinal_candidates
from scrapesmith.insta.reading import read_candidate, read_values
from scrapesmith.insta.timing import wait_candidates, wait_for_candidates
from scrapesmith.insta.views import Action, ActionCandidate, Observation, Step
from scrapesmith.llm import LLM, ChatMessage, LLMOutputError, ask_json, with_schema_instruction
from scrapesmith.llm import render_prompt as render

POLICIES = ("candidates", "paper")
PAGE_TOKENS = 1024
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class ChooserConfig:
    reasoning_words: int = 30
    history_steps: int = HISTORY_STEPS
    page_tokens: int = PAGE_TOKENS
    max_candidates: int = 30
    max_tokens: int = 256  # a reason of ~30 words, then the id (a reply cut short is retried once)
    temperature: float = 0.0
    ask_below: float = 0.0  # the model also chooses when the pick's confidence is below this (decide.ASK_BELOW)
    # ties go to the model only on request: on every MiniWoB development list (2026-12-06, BENCHMARKS) the
    # model's tie-breaks won 19 of 31 episodes where the program's pick won 23; its values won 6 of 8 (0 without)
    ask_ties: bool = False


def chooser_system_prompt(config: ChooserConfig) -> str:
    return render("insta_choose", reasoning_words=config.reasoning_words)


def choice_schema(candidates: list[ActionCandidate]) -> dict[str, Any]:
    """``reason`` first (a short thought), then ``candidate`` from the enum of offered ids, ``value`` optional.

    No ``maxLength``: llama.cpp turns it into one nested grammar rule per character, which slows sampling;
    the prompt asks for a short reason and ``max_tokens`` bounds it."""
    properties: dict[str, Any] = {
        "reason": {"type": "string"},
        "candidate": {"type": "string", "enum": [candidate.id for candidate in candidates]},
    }
    if any(candidate.free for candidate in candidates):
        properties["value"] = {"type": "string"}
    return {"title": "Choice", "type": "object", "properties": properties, "required": ["reason", "candidate"],
            "additionalProperties": False}


def _history(steps: list[Step], limit: int) -> str:
    if not steps:
        return "(no previous steps)"
    first = max(0, len(steps) - limit)
    lines = []
    for number, step in enumerate(steps[first:], start=first + 1):
        done = step.candidate or (json.dumps(step.action.model_dump(), ensure_ascii=False) if step.action else "(none)")
        lines.append(f"{number}. {done} -> {'error: ' + step.error if step.error else 'ok'}")
    return "\n".join(lines)


def chooser_user_prompt(task: str, history: list[Step], observation: Observation, candidate_lines: list[str],
                        config: ChooserConfig) -> str:
    """The prompt the model reads; the exporter rebuilds it from a step's recorded ``candidates``."""
    page = observation.markdown
    limit = config.page_tokens * CHARS_PER_TOKEN
    if len(page) > limit:
        page = page[:limit].rstrip() + "\n[... page cut ...]"
    return (f"## Task\n\n{task}\n\n## Previous Steps\n\n{_history(history, config.history_steps)}\n\n"
            f"## Current Webpage: {observation.url}\n\n{page}\n\n## Candidate Actions\n\n"
            + "\n".join(candidate_lines))


def schema_of_lines(candidate_lines: list[str]) -> dict[str, Any]:
    """The choice schema of a recorded step, rebuilt from the candidate lines it was offered."""
    offered = [ActionCandidate(id=line.split(":", 1)[0], action=Action(action_key="stop"), text=line,
                         free='"value"' in line) for line in candidate_lines]
    return choice_schema(offered)


def chooser_messages(task: str, history: list[Step], observation: Observation, candidate_lines: list[str],
                     config: ChooserConfig) -> list[ChatMessage]:
    """System and user message exactly as the model receives them (schema instruction included)."""
    chat = [ChatMessage(role="system", content=chooser_system_prompt(config)),
            ChatMessage(role="user", content=chooser_user_prompt(task, history, observation, candidate_lines, config))]
    return with_schema_instruction(chat, schema_of_lines(candidate_lines), reasoning=False)


def candidates_for(task: str, history: list[Step], observation: Observation, limit: int) -> list[ActionCandidate]:
    """The grounded candidates of this turn: the observation's elements plus visible text the task names."""
    elements = [element.model_copy() for element in observation.elements]
    if observation.tree is not None:
        grounding = ground_task(task, elements)
        known = {element.id for element in elements}
        pointers = pointer_targets(observation.tree, known)
        elements += pointers
        # text inside a script-made container is still a target of its own ("Reply" and "Forward" in one box),
        # unless it is all the container says (then the container is the target)
        said = {pointer.name.casefold() for pointer in pointers}
        elements += [text for text in text_targets(observation.tree, lambda text: grounding.match(text) > 0,
                                                   known | {element.id for element in elements if element not in pointers},
                                                   skip_within=grounding.restates)
                     if text.name.casefold() not in said]
        elements += suggestion_targets(observation.tree, grounding.quoted, {element.id for element in elements})
        elements = with_context(elements, observation.tree)
    candidates = candidate_actions(task, elements, can_go_back=any(step.action is not None for step in history),
                                   truncated=observation.truncated, limit=limit, read=read_values(history),
                                   page=without_task(observation.markdown, task),
                                   seen=[step.observation for step in history])
    seen = seen_candidates(task, observation, elements)
    seen += wait_for_candidates([*seen, *candidates], {p.id for p in observation.percepts if p.disabled})
    if seen:
        stop = candidates[-1]
        candidates = sorted([*seen, *candidates[:-1]], key=lambda c: -c.score)[: max(1, limit - 1)] + [stop]
    read = read_candidate(task, observation.tree, history, Grounding(task=task).restates)
    return renumber(candidates) if read is None else renumber([read, *candidates][:limit])


def seen_candidates(task: str, observation: Observation, elements: list) -> list[ActionCandidate]:
    """What looking decides (``insta.appearance``: the thing described, how many, the point), what comparing
    decides (``insta.compare``: the record with the greatest value), the N-th control of a kind
    (``insta.ordinals``) and the waits the task names (``insta.timing``)."""
    copy = task_copy_ids(observation.tree, Grounding(task=task).restates)
    return [*appearance_candidates(task, observation.percepts, elements, restates=copy.__contains__),
            *compare_candidates(task, observation.tree, elements), *wait_candidates(task),
            *ordinal_candidates(task, elements, observation.tree)]


def task_copy_ids(root: Any, restates: Any) -> set[int]:
    """The ids inside the smallest element that restates the task (the page's own copy of the instruction)."""
    if root is None:
        return set()
    from scrapesmith.dom import node_text

    copies = [e for e in root.iter() if isinstance(e.tag, str) and e.tag not in ("html", "body", "head")
              and len(node_text(e)) <= 320 and restates(node_text(e))]
    innermost = [e for e in copies if not any(o is not e and any(a is e for a in o.iterancestors()) for o in copies)]
    return {int(n.get("data-ss-id")) for e in innermost for n in e.iter()
            if isinstance(n.tag, str) and (n.get("data-ss-id") or "").isdigit()}


def one_destination(offer: list[ActionCandidate], observation: Observation) -> bool:
    """Every candidate offered is a click on a link to the same address (a menu's "Careers" and the footer's):
    the tie is no choice, whichever is clicked."""
    if len(offer) < 2 or observation.tree is None:
        return False
    targets = set()
    for candidate in offer:
        if candidate.action.action_key != "click" or candidate.action.target_element_id is None:
            return False
        nodes = observation.tree.xpath(f'//*[@data-ss-id="{candidate.action.target_element_id}"]')
        link = next((node for node in (nodes[0], *nodes[0].iterancestors()) if node.tag == "a"), None) \
            if nodes else None
        href = (link.get("href") or "").strip() if link is not None else ""
        if not href or href.startswith(("#", "javascript:")):
            return False
        targets.add(urljoin(observation.url, href).split("#", 1)[0].rstrip("/"))
    return len(targets) == 1


class CandidatePolicy:
    """Chooses the next action among grounded candidates; see the module docstring."""

    name = "candidates"

    def __init__(self, llm: LLM | None, config: ChooserConfig | None = None) -> None:
        self.llm = llm
        self.config = config or ChooserConfig()

    def act(self, task: str, history: list[Step], observation: Observation) -> Step:
        candidates = candidates_for(task, history, observation, self.config.max_candidates)
        answers = answer_candidates(task, observation.tree, len(candidates) + 1)
        lines = [f"{candidate.id}: {candidate.text}" for candidate in [*candidates, *answers]]
        step = Step(url=observation.url, observation=observation.markdown, candidates=lines, asked=False)
        decision = decide(task, candidates, history, observation.markdown, self.config.ask_below, answers)
        if decision.why == "tie" and not self.config.ask_ties:
            decision.offer = []  # the program's pick, recorded as such below
            step.path = "program:tie"
        elif decision.why == "tie" and one_destination(decision.offer, observation):
            decision.offer, decision.reason = [], f"{decision.reason}; the tied links lead to one page"
            step.path = "program:tie"
        if observation.perception_error:  # chosen without what the page looks like: said, not lost
            decision.reason += f" (the page's looks could not be read: {observation.perception_error})"
        step.confidence, step.clause = decision.confidence, decision.clause
        if not step.path:
            step.path = "program" if not decision.offer else \
                f"{'program' if self.llm is None else 'model'}:{decision.why}"
        if self.llm is None or not decision.offer:
            reason = decision.reason
            if self.llm is None and decision.offer:
                reason += f" (with a model, the model would choose here: {decision.why})"
            reply = {"reason": reason, "candidate": decision.chosen.id} | (
                {"value": decision.value} if decision.value else {})
            step.response = json.dumps(reply, ensure_ascii=False)
            return self._take(step, decision.chosen, reason, decision.value)
        return self._ask(task, history, observation, step, decision)

    def _ask(self, task: str, history: list[Step], observation: Observation, step: Step, decision: Decision) -> Step:
        """The model chooses among ``decision.offer`` only (the prompt and the enum list nothing else); the step
        records the lines it was shown. An unreadable reply falls back to the program's pick where it has one."""
        assert self.llm is not None
        offered = decision.offer
        lines = [f"{candidate.id}: {candidate.text}" for candidate in offered]
        step.candidates, step.asked = lines, True
        messages = [ChatMessage(role="system", content=chooser_system_prompt(self.config)),
                    ChatMessage(role="user", content=chooser_user_prompt(task, history, observation, lines,
                                                                         self.config))]
        try:
            reply = ask_json(self.llm, messages, choice_schema(offered), stage="insta.choose",
                             max_tokens=self.config.max_tokens, temperature=self.config.temperature)
        except LLMOutputError as error:
            step.response = error.raw or ""
            return self._take(step, decision.chosen, f"{decision.reason}; the model's reply was unreadable", None)
        step.response = json.dumps(reply, ensure_ascii=False)
        chosen = next(candidate for candidate in offered if candidate.id == reply["candidate"])
        if chosen.free and chosen.action.action_key == "fill" and not str(reply.get("value") or "").strip():
            # a field to fill with nothing to type: the same prompt would get the same answer next turn
            return self._take(step, decision.chosen, f"{decision.reason}; the model wrote no value", None)
        return self._take(step, chosen, str(reply.get("reason", "")), reply.get("value"))

    def _take(self, step: Step, chosen: ActionCandidate, reason: str, value: Any) -> Step:
        action = chosen.action.model_copy(deep=True)
        if chosen.free:
            text = "" if value is None else str(value).strip()
            if action.action_key == "fill":
                if not text:
                    step.error = f"candidate {chosen.id} needs a value to type"
                    step.reason, step.candidate = reason, chosen.text
                    return step
                action.action_kwargs["value"] = text
            elif action.action_key == "stop":
                action.action_kwargs = {"answer": text} if text else {}
        step.action, step.reason, step.grounded = action, reason, list(chosen.grounded) or None
        step.target = chosen.element
        step.candidate = chosen.text if not chosen.free or not value else f"{chosen.text.split(' (')[0]}: {value}"
        return step


def make_policy(kind: str, llm: LLM | None, reasoning_words: int = 30, max_tokens: int = 256,
                ask_below: float = 0.0, ask_ties: bool = False) -> Any:
    """``candidates`` (default; ``ask_below``, ``ask_ties``: see :class:`ChooserConfig`) or ``paper`` (the
    seed's free-form agent, which needs a model)."""
    from scrapesmith.errors import ScrapesmithError
    from scrapesmith.insta.agent import Agent, AgentConfig

    if kind == "candidates":
        return CandidatePolicy(llm, ChooserConfig(reasoning_words=reasoning_words, ask_below=ask_below,
                                                  ask_ties=ask_ties))
    if kind == "paper":
        if llm is None:
            raise ScrapesmithError("the paper policy needs a language model")
        return Agent(llm, AgentConfig(reasoning_words=reasoning_words, max_tokens=max_tokens))
    raise ScrapesmithError(f"unknown policy {kind!r}; use one of {', '.join(POLICIES)}")


__all__ = ["POLICIES", "CandidatePolicy", "ChooserConfig", "choice_schema", "make_policy"]
