"""The evidence judge: the task's criteria checked one by one, each with a quote that must really occur.

The seed's judge (``insta.judge``, ``--judge-kind paper``) writes free-form scores, and a small model then
calls nearly everything a success. This judge asks, for each criterion, ``{"evidence", "holds"}`` under a
JSON schema, against the final observation and the action log (what was done, and how each action ended).
The program then checks every quote: it must occur (whitespace and case aside) in the final page or the
log. A criterion is met only when the model says it holds *and* its quote is real, and the trajectory
succeeds only when every criterion is met and the episode ended by stopping (not by a cap or an error).

Criteria: those of a refined task when the caller has them (``RefinedTask.criteria``), else the task's own
clauses (``task_criteria``: the task split at ``and``/``then``/commas/sentences). A criterion that asks for an
action (it starts with a verb such as click, select, enter) is proven by the action log only: the page shows
the options, not that one was chosen. With no model, a criterion holds when every value it quotes (or,
without quotes, every content word) occurs in the action log (the answer included).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from scrapesmith.insta.candidates import STOPWORDS, Grounding, quoted_values
from scrapesmith.insta.verify import verify_criteria
from scrapesmith.insta.views import CriterionCheck, Judgement, Trajectory
from scrapesmith.llm import LLM, ChatMessage, ask_json
from scrapesmith.llm import render_prompt as render

JUDGE_KINDS = ("evidence", "paper")
MAX_CRITERIA = 6
CHARS_PER_TOKEN = 4
#: Clause boundaries: sentences, commas, "then", "and" before a word; and a click verb that starts a clause of
#: its own with no "and" ("... to the bottom of the text hit submit").
_CLAUSES = re.compile(r"(?:[.;!?]\s+|,\s*(?:and\s+|then\s+)?|\s+and\s+then\s+|\s+then\s+|\s+and\s+(?=[a-z]+\b)"
                      r"|(?<=\w)\s+(?=(?:hit|press|click|tap)\s))", re.IGNORECASE)
_WORD = re.compile(r"\w+", re.UNICODE)
_QUOTES = "\"'“”‘’`"


def task_criteria(task: str) -> list[str]:
    """The task's clauses as criteria (quoted values kept whole), at most :data:`MAX_CRITERIA`."""
    protected: list[str] = []

    def keep(match: re.Match[str]) -> str:
        protected.append(match.group(0))
        return f"\x00{len(protected) - 1}\x00"

    # a quote, a list "[3, 15, 7]" or a pair "(1,-2)" is one
    masked = re.sub(r"\"[^\"]*\"|“[^”]*”|\[[^\]]*\]|\([^()]*\)", keep, task.strip())
    clauses = []
    for part in _CLAUSES.split(masked):
        part = re.sub(r"\x00(\d+)\x00", lambda m: protected[int(m.group(1))], part).strip(" .;,")
        if len([w for w in _WORD.findall(part) if w.casefold() not in STOPWORDS]) or quoted_values(part):
            clauses.append(part)
    clauses = clauses or [task.strip()]
    if len(clauses) > MAX_CRITERIA:
        clauses = [*clauses[: MAX_CRITERIA - 1], "; ".join(clauses[MAX_CRITERIA - 1:])]
    return clauses


def _squash(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split()).casefold()


def quote_occurs(quote: str, *texts: str) -> bool:
    """``quote`` (outer quotes, case and whitespace aside) occurs in one of ``texts``; empty never does."""
    needle = _squash(quote.strip().strip(_QUOTES).strip())
    return bool(needle) and any(needle in _squash(text) for text in texts)


#: The state an element had *before* the action, as the candidate list shows it: in a log it would read as
#: the outcome ("check ... (unchecked)"), so the log leaves it out.
_PRE_STATE = re.compile(r' \((?:checked|unchecked|empty|now "[^"]*"|expanded|collapsed|focus it)\)')


def action_log(trajectory: Trajectory) -> str:
    """One line per step: what was done (the candidate's words without the element's state before it,
    else the JSON action) and how it ended."""
    lines = []
    for number, step in enumerate(trajectory.steps, start=1):
        if step.action is None:
            did = "(no valid action)"
        elif step.candidate:
            did = _PRE_STATE.sub("", step.candidate)
        else:
            did = json.dumps(step.action.model_dump(), ensure_ascii=False)
        lines.append(f"{number}. {did} -> {'error: ' + step.error if step.error else 'ok'}")
    stop = f"stopped: {trajectory.stop_reason}"
    if trajectory.answer:
        stop += f"; answer: {trajectory.answer}"
    return "\n".join([*lines, stop])


@dataclass(frozen=True)
class EvidenceConfig:
    final_page_tokens: int = 1024
    max_tokens: int = 384
    temperature: float = 0.0


def check_system_prompt() -> str:
    return render("insta_check")


def check_user_prompt(task: str, trajectory: Trajectory, criteria: list[str], config: EvidenceConfig) -> str:
    page = trajectory.final_observation
    limit = config.final_page_tokens * CHARS_PER_TOKEN
    if len(page) > limit:
        page = page[:limit].rstrip() + "\n[... page cut ...]"
    numbered = "\n".join(f"c{number}: {criterion}" for number, criterion in enumerate(criteria, start=1))
    return (f"## Task\n\n{task}\n\n## Action Log\n\n{action_log(trajectory)}\n\n"
            f"## Final Webpage: {trajectory.final_url}\n\n{page}\n\n## Criteria\n\n{numbered}")


def check_schema(criteria: list[str]) -> dict[str, Any]:
    one = {"type": "object", "properties": {"evidence": {"type": "string"},
                                            "holds": {"type": "boolean"}},
           "required": ["evidence", "holds"], "additionalProperties": False}
    keys = [f"c{number}" for number in range(1, len(criteria) + 1)]
    return {"title": "Checks", "type": "object", "properties": dict.fromkeys(keys, one), "required": keys,
            "additionalProperties": False}


#: A criterion that starts with one of these asks for an action: only the action log can prove it (the page
#: shows the options it could have chosen, not that it chose one).
ACTION_VERBS = frozenset({
    "click", "select", "enter", "type", "fill", "check", "uncheck", "choose", "press", "submit", "open",
    "go", "navigate", "search", "tick", "pick", "focus", "hover", "scroll", "expand", "use", "set",
    "sort", "filter",
})


def asks_for_action(criterion: str) -> bool:
    words = _WORD.findall(criterion.casefold())
    return bool(words) and words[0] in ACTION_VERBS


class EvidenceJudge:
    """See the module docstring; ``llm=None`` keeps the program's verdicts and fails what it cannot verify."""

    kind = "evidence"

    def __init__(self, llm: LLM | None, config: EvidenceConfig | None = None) -> None:
        self.llm = llm
        self.config = config or EvidenceConfig()

    def judge(self, task: str, trajectory: Trajectory, criteria: list[str] | None = None) -> Judgement:
        criteria = [c for c in (criteria or []) if c.strip()][:MAX_CRITERIA] or task_criteria(task)
        verdicts = verify_criteria(task, criteria, trajectory)
        checks = [CriterionCheck(criterion=v.criterion, holds=v.status == "verified", evidence=v.evidence,
                                 verified=v.status == "verified", status=v.status, decided_by="program", why=v.why)
                  for v in verdicts]
        unsure = [(check, verdict.matched) for check, verdict in zip(checks, verdicts, strict=True)
                  if verdict.status == "unsure"]
        stopped = trajectory.stop_reason == "stop"
        # the model is asked only when its answers can decide: the episode stopped, nothing is refuted, and
        # every unsure criterion is unsure only for words beside a match the program found
        if self.llm is not None and unsure and stopped and all(v.status != "refuted" for v in verdicts) \
                and all(v.askable for v in verdicts if v.status == "unsure"):
            response = self._ask(task, trajectory, unsure)
        else:
            response = json.dumps({f"c{n}": {"evidence": c.evidence, "holds": c.holds}
                                   for n, c in enumerate(checks, start=1)}, ensure_ascii=False)
        success = 1.0 if checks and all(check.met for check in checks) and stopped else 0.0
        steps = len(trajectory.steps)
        valid = (steps - trajectory.invalid_steps) / steps if steps else 0.0
        return Judgement(success=success, efficiency=valid, self_correction=0.0, response=response,
                         kind="evidence", criteria=checks)

    def _ask(self, task: str, trajectory: Trajectory, unsure: list[tuple[CriterionCheck, bool]]) -> str:
        """The model answers ``{"evidence", "holds"}`` for the criteria the program could not verify; a "holds"
        counts only with a quote found in the action log (an action criterion) or in the final page without
        the lines that restate the task (MiniWoB and many forms print their own instruction) — and, where the
        program found the action and only a qualifier is left, a quote that is more than the criterion's own
        words (the value alone does not show it was upper case)."""
        assert self.llm is not None
        criteria = [check.criterion for check, _ in unsure]
        messages = [ChatMessage(role="system", content=check_system_prompt()),
                    ChatMessage(role="user", content=check_user_prompt(task, trajectory, criteria, self.config))]
        reply = ask_json(self.llm, messages, check_schema(criteria), stage="insta.check",
                         max_tokens=self.config.max_tokens, temperature=self.config.temperature)
        log = action_log(trajectory)
        page = without_task(trajectory.final_observation, task)
        targeted = all(step.target is not None for step in trajectory.steps
                       if step.action is not None and step.action.target_element_id is not None)
        for number, (check, matched) in enumerate(unsure, start=1):
            answer = reply[f"c{number}"]
            evidence = str(answer.get("evidence", ""))
            check.holds, check.evidence, check.decided_by = bool(answer.get("holds")), evidence, "model"
            if matched:  # the action is in the log; the quote must show more than the criterion's own words
                where = (log,) if asks_for_action(check.criterion) else (log, page)
                check.verified = quote_occurs(evidence, *where) and not _restates(evidence, check.criterion)
            elif targeted:  # nothing acted on names it: the final page must show what the criterion names
                check.verified = quote_occurs(evidence, page) and _shares_a_word(evidence, check.criterion)
            else:  # the steps did not record their elements (the seed's agent): the quote is all there is
                where = (log,) if asks_for_action(check.criterion) else (log, page)
                check.verified = quote_occurs(evidence, *where)
        return json.dumps(reply, ensure_ascii=False)


def without_task(page: str, task: str) -> str:
    """``page`` without its lines that restate ``task`` (a quote from them proves nothing)."""
    grounding = Grounding(task=task)
    return "\n".join(line for line in page.splitlines() if not grounding.restates(line))


def _shares_a_word(evidence: str, criterion: str) -> bool:
    """The quote holds a content word of the criterion (the page shows the thing it asks for)."""
    words = {w for w in _WORD.findall(criterion.casefold()) if w not in STOPWORDS and len(w) > 2}
    return bool(words & set(_WORD.findall(evidence.casefold())))


def _restates(evidence: str, criterion: str) -> bool:
    """The quote is the criterion's own words (a model copying the question is not evidence)."""
    words = set(_WORD.findall(evidence.casefold())) - STOPWORDS
    return bool(words) and words <= set(_WORD.findall(criterion.casefold()))


def make_judge(kind: str, llm: LLM | None, paper_config: Any = None) -> Any:
    """``evidence`` (default) or ``paper`` (the seed's free-form scores, which need a model;
    ``paper_config`` is its :class:`~scrapesmith.insta.judge.JudgeConfig`)."""
    from scrapesmith.errors import ScrapesmithError
    from scrapesmith.insta.judge import Judge

    if kind == "evidence":
        return EvidenceJudge(llm)
    if kind == "paper":
        if llm is None:
            raise ScrapesmithError("the paper judge needs a language model")
        return Judge(llm, paper_config)
    raise ScrapesmithError(f"unknown judge kind {kind!r}; use one of {', '.join(JUDGE_KINDS)}")
