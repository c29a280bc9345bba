"""The judge of section 5.1: scores ``success``, ``efficiency`` and ``self_correction`` of a trajectory.

The judge sees the task, the last five steps (page and action) and the final page, writes an analysis,
then the scores as JSON in the first fenced block. ``Judgement.confidence`` is ``2*|r - 0.5|``, which
the seed finds tracks the judge's accuracy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scrapesmith.insta.agent import HISTORY_STEPS, action_json
from scrapesmith.insta.parsing import first_fenced_json, parse_with_one_retry
from scrapesmith.insta.views import Judgement, Trajectory
from scrapesmith.llm import LLM, ChatMessage, LLMOutputError, LLMRequest
from scrapesmith.llm import render_prompt as render

SCORE_KEYS = ("success", "efficiency", "self_correction")
CHARS_PER_TOKEN = 4


def clip(text: str, max_tokens: int) -> str:
    """Cut ``text`` to about ``max_tokens`` tokens, saying so, to keep the judge prompt bounded."""
    limit = max_tokens * CHARS_PER_TOKEN
    return text if len(text) <= limit else text[:limit].rstrip() + "\n[... page cut ...]"


def _score(payload: dict, key: str, raw: str) -> float:
    value = payload.get(key)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise LLMOutputError(f"score '{key}' missing or not a number (got {value!r})", raw=raw) from None
    if math.isnan(number):
        raise LLMOutputError(f"score '{key}' is not a number", raw=raw)
    return min(1.0, max(0.0, number))


def parse_judgement(text: str) -> Judgement:
    """The seed's ``f^{text->val}``: three scores from the first fenced JSON block, clamped to [0, 1]."""
    payload = first_fenced_json(text)
    scores = {key: _score(payload, key, text) for key in SCORE_KEYS}
    return Judgement(**scores, response=text)


@dataclass(frozen=True)
class JudgeConfig:
    reasoning_words: int = 300
    history_steps: int = HISTORY_STEPS
    page_tokens: int = 384
    final_page_tokens: int = 1024
    max_tokens: int = 768
    temperature: float = 0.0


def judge_user_prompt(task: str, trajectory: Trajectory, config: JudgeConfig) -> str:
    """The task, the last steps (page and action) and the final page, each page clipped."""
    steps = trajectory.steps[-config.history_steps:]
    first = len(trajectory.steps) - len(steps) + 1
    parts = [f"## Task\n\n{task}", f"## Trajectory (last {len(steps)} of {len(trajectory.steps)} steps)"]
    for number, step in enumerate(steps, start=first):
        feedback = f"\n\nError: {step.error}" if step.error else ""
        parts.append(f"### Step {number}: {step.url}\n\n{clip(step.observation, config.page_tokens)}"
                     f"\n\nAction: {action_json(step.action)}{feedback}")
    if trajectory.final_observation:
        parts.append(f"### Final Webpage: {trajectory.final_url}\n\n"
                     f"{clip(trajectory.final_observation, config.final_page_tokens)}")
    parts.append(f"## Stop Reason\n\n{trajectory.stop_reason}; answer: {trajectory.answer or '(none)'}")
    return "\n\n".join(parts)


def judge_system_prompt(config: JudgeConfig) -> str:
    return render("insta_judge", reasoning_words=config.reasoning_words)


class Judge:
    def __init__(self, llm: LLM, config: JudgeConfig | None = None) -> None:
        self.llm = llm
        self.config = config or JudgeConfig()

    def user_prompt(self, task: str, trajectory: Trajectory) -> str:
        return judge_user_prompt(task, trajectory, self.config)

    def judge(self, task: str, trajectory: Trajectory, criteria: list[str] | None = None) -> Judgement:
        """Score ``trajectory``; one retry when the scores do not parse, then :class:`LLMOutputError`.

        ``criteria`` is accepted for the evidence judge's signature and not used: this judge writes its own."""
        messages = [
            ChatMessage(role="system", content=judge_system_prompt(self.config)),
            ChatMessage(role="user", content=self.user_prompt(task, trajectory)),
        ]
        return parse_with_one_retry(self._complete, messages, parse_judgement, "scores")

    def _complete(self, messages: list[ChatMessage]) -> str:
        request = LLMRequest(messages=messages, temperature=self.config.temperature,
                             max_tokens=self.config.max_tokens, stage="insta.judge")
        return self.llm.complete(request).text
