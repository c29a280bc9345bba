"""Where the program decides and where the model must: the pick, the task's checklist, a calibrated confidence.

The program's pick (:func:`heuristic_choice`) is the best grounded candidate not acted on yet. The task's
clauses are an ordered **checklist** — the evidence judge's criteria (``evidence.task_criteria``), checked by
the judge's own program pass (``verify.verify_criteria``) against the steps so far: the first clause not yet
verified is the one the next step serves (candidates grounding it come first), and when every clause is
verified the episode stops. The pick gets a **confidence** (:func:`confidence`): the success rate, on the
development list, of picks with the same evidence — it grounds a task phrase, it serves the current clause,
the last step changed the page without an error. The model is asked (:func:`decide`) on
a tie, for a value no element holds, for an answer — and, when the caller sets ``ask_below`` (e.g.
:data:`ASK_BELOW`), whenever the confidence is below it; every step records which path it took (``Step.path``) so a run can report each path's
success.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrapesmith.insta.answers import asks_question, named_answer
from scrapesmith.insta.candidates import Grounding, action_signature, mentions
from scrapesmith.insta.evidence_judge import task_criteria
from scrapesmith.insta.verify import verify_criteria
from scrapesmith.insta.views import ActionCandidate, Step, Trajectory


def heuristic_choice(candidates: list[ActionCandidate], history: list[Step], page: str,
                     task: str = "", checklist: Checklist | None = None) -> tuple[ActionCandidate, str, str | None]:
    """The best grounded candidate not tried yet whose task phrases were not acted on — those serving the
    checklist's current clause first; while no grounded action was tried, the best-scored candidate not tried
    (a task that names nothing on the page: "Click the button."); else stop, with the page's first heading as
    the answer. Every clause verified: stop. A task that types its value into several fields ("into both text
    fields") fills each field once with it."""
    every_field = Grounding(task=task).every_field
    stop = next(candidate for candidate in candidates if candidate.action.is_stop)
    if checklist is not None and checklist.done and history:
        return stop, "every clause of the task is verified (program)", None
    tried = {action_signature(previous.action) for previous in history if previous.action}
    acted = {phrase for previous in history if previous.action and not previous.error
             and previous.action.action_key != "wait" for phrase in previous.grounded or []}  # waiting acts on nothing
    fresh = [c for c in candidates if not c.free and action_signature(c.action) not in tried]
    if checklist is not None and checklist.current is not None:
        fresh.sort(key=lambda c: not checklist.serves(c))  # stable: by score within each group
    filled = {previous.action.target_element_id for previous in history
              if previous.action and previous.action.action_key == "fill" and not previous.error}
    for candidate in fresh:
        if candidate.grounded and not set(candidate.grounded) <= acted:
            return candidate, "best grounded candidate (program)", None
        if every_field and candidate.grounded and candidate.action.action_key == "fill" \
                and candidate.action.target_element_id not in filled:
            return candidate, "the task's value again, in another field it names (program)", None
    if not any(previous.grounded for previous in history) and fresh and fresh[0].score > 0 \
            and fresh[0].action.action_key != "scroll":
        return fresh[0], "best candidate, nothing grounded (program)", None
    last = history[-1] if history and history[-1].action and not history[-1].error else None
    submit = next((c for c in candidates if c.element is not None and c.action.action_key == "click"
                   and SUBMIT_WORDS & set(_WORDS.findall(f"{c.element.name} {c.element.hint}".casefold()))), None)
    chose = last is not None and any(phrase.startswith("(suggestion)") for phrase in last.grounded or [])
    if last is not None and (last.action.action_key == "fill" or chose) and submit is not None \
            and (checklist is None or not checklist.done):
        return submit, "a field was filled: its form's submit control, again if need be (program)", None
    return stop, "no grounded candidate left (program)", _first_heading(page)


#: Two candidates whose grounding scores differ by no more than this are a tie the grounding cannot break.
TIE_MARGIN = 0.15
#: At most this many candidates are offered to the model on a tie.
MAX_OFFERED = 6
#: A free "fill with text you write" candidate scoring above this comes from a typing verb in the task
#: (``Grounding.typing``); below it, the task asks for no typing and the program never offers one.
TYPING_SCORE = 1.0


@dataclass
class Decision:
    """The program's pick (``chosen``, ``reason``, ``value``: what is taken with no model, or when the model's
    reply is unreadable) and, when the grounding leaves a real choice, the candidates the model chooses among
    (``offer``; empty: no model call; on a tie the pick is among them) and why (``tie``, ``value``,
    ``answer``)."""

    chosen: ActionCandidate
    reason: str
    value: str | None = None
    offer: list[ActionCandidate] = field(default_factory=list)
    why: str = ""
    confidence: float = 1.0
    clause: str | None = None


@dataclass
class Checklist:
    """The task's clauses in order and how far the steps so far got: ``current`` is the first clause the
    judge's program pass does not verify (a clause that only finds something counts as done once its target
    was acted on), unless it opens with a preposition ("For @bob": it qualifies the next one, which comes
    first), else the first open one; None: all are done."""

    clauses: list[str]
    current: str | None

    @property
    def done(self) -> bool:
        return self.current is None

    def serves(self, candidate: ActionCandidate) -> bool:
        """The candidate grounds a phrase of the current clause (quoted or named in it)."""
        return self.serves_phrases(candidate.grounded)

    def serves_phrases(self, grounded: list[str]) -> bool:
        clause = self.current or ""
        return any(phrase.casefold() in clause.casefold() or mentions(clause, phrase) for phrase in grounded)


def checklist(task: str, history: list[Step], page: str) -> Checklist:
    """The checklist of ``task`` after ``history`` (``page``: what the page shows now)."""
    clauses = task_criteria(task)
    so_far = Trajectory(task=task, policy="candidates", start_url="", steps=list(history), final_observation=page)
    verdicts = verify_criteria(task, clauses, so_far)
    # a clause that only finds something, whose action the program found with a qualifier it cannot check ("Find
    # the *email* by X"), is done; one that asks for an effect ("Delete the email X sent") is not
    open_ = [v.criterion for v in verdicts if v.status == "refuted" or (v.status == "unsure" and not (
        v.matched and _WORDS.findall(v.criterion.casefold())[:1] and _WORDS.findall(v.criterion.casefold())[0]
        in FIND_VERBS))]
    current = next((clause for clause in open_ if not _QUALIFIER.match(clause)), open_[0] if open_ else None)
    return Checklist(clauses=clauses, current=current)


#: Verbs of a clause that only finds or reaches something (its target clicked, it is done).
FIND_VERBS = frozenset({"find", "locate", "open", "go", "visit", "view", "navigate", "search", "show", "switch", "look"})
_WORDS = re.compile(r"\w+")
#: Words that name the control that submits a form ("Submit", a "send" icon, "OK").
SUBMIT_WORDS = frozenset({"submit", "send", "save", "ok", "done", "go", "post", "apply", "confirm"})
_QUALIFIER = re.compile(r"\s*(?:for|in|on|with|from|by|at|of|about|under|inside)\b", re.IGNORECASE)
#: Below this confidence the program's pick goes to the model, with the best other candidates (``unsure``), when
#: the caller asks for it (``decide(ask_below=…)``, ``--ask-below``). Off by default: on ``WIDGET_TASKS`` the
#: embedded model made the episodes of this path worse than the program's own pick (BENCHMARKS.md, issue 35).
ASK_BELOW = 0.5
#: How often an episode succeeded when the program's pick had this evidence, (steps, successes) per
#: (grounds a task phrase, serves the checklist's current clause, the last step changed the page without an
#: error). Fit on the development list only (45 tasks x seeds 0 and 1, no model:
#: ``python research/miniwob_calibrate.py``); the figures on the other lists are in BENCHMARKS.md (issue 35).
CALIBRATION: dict[tuple[bool, bool, bool], tuple[int, int]] = {
    (False, False, False): (1, 1), (False, False, True): (23, 20), (True, False, False): (6, 4),
    (True, False, True): (21, 4), (True, True, False): (6, 4), (True, True, True): (116, 86),
}


def evidence_of(grounded: list[str], clause: str | None, previous: Step | None, page: str) -> tuple[bool, bool, bool]:
    """What the evidence says of a pick: it grounds a task phrase; it serves ``clause`` (the checklist's current
    one); the step before changed the page (``page``, now) without an error — true on the first step."""
    serves = bool(clause) and Checklist([], clause).serves_phrases(grounded)
    expected = previous is None or (not previous.error and previous.observation != page)
    return bool(grounded), serves, expected


def confidence(evidence: tuple[bool, bool, bool]) -> float:
    """The calibrated chance that an episode with such a pick succeeds: the smoothed success rate of picks with
    the same evidence on the development list (:data:`CALIBRATION`; (successes + 1) / (steps + 2))."""
    steps, successes = CALIBRATION.get(evidence, (0, 0))
    return round((successes + 1) / (steps + 2), 3)


def _phrases(candidate: ActionCandidate) -> set[str]:
    return {phrase.casefold() for phrase in candidate.grounded}


def decide(task: str, candidates: list[ActionCandidate], history: list[Step], page: str, ask_below: float = 0.0,
           answers: list[ActionCandidate] | None = None) -> Decision:
    """Where the grounding decides, and where the model must.

    The program's pick is :func:`heuristic_choice`. The model is asked only when (1) *a value no element
    holds* is needed: a "fill with text you write" candidate the task's typing verb ranks at least as high as
    the pick (offered: those free candidates only); (2) *a tie*: other untried candidates within
    :data:`TIE_MARGIN` of the pick that ground the same task phrase, or, when the pick grounds nothing,
    that ground nothing either (offered: the pick and those rivals, best first; a click on a field an earlier
    step filled is no rival: the fill has done what it could); (3) *an answer*: the
    program stops and the task asks a question (offered: stop, with a value). Otherwise the pick is taken
    without a call — unless (4) *unsure*: the pick's :func:`confidence` is below ``ask_below`` (offered: the
    pick and the best other untried candidates).

    ``answers`` (``insta.answers``): stops answering with a value the page shows beside the label the question
    names. Only once the checklist's current clause is the question (the clauses before it, "open X", are done)
    is a stop offered at all; then the one answer named for the question's record is taken without a call (one
    named loosely only when the pick does not follow a link the question names), and several are offered to the model beside the free stop (on a tie or for an answer)."""
    answers = answers or []
    plan = checklist(task, history, page)
    chosen, reason, value = heuristic_choice(candidates, history, page, task, plan)
    tried = {action_signature(previous.action) for previous in history if previous.action}
    untried = [c for c in candidates if action_signature(c.action) not in tried]
    evidence = evidence_of(chosen.grounded, plan.current, history[-1] if history else None, page)
    decision = Decision(chosen=chosen, reason=reason, value=value, clause=plan.current,
                        confidence=1.0 if chosen.action.is_stop else confidence(evidence))
    question = asks_question(task)
    asking_now = question and (plan.current is None or asks_question(plan.current))
    stop = next(c for c in candidates if c.action.is_stop)
    one = named_answer(answers) if asking_now else None
    # a value named only loosely (the quote contains the heading, or the page's one value for the label) waits
    # while the pick follows a link the question names: the record's own page is one click away
    if one is not None and (one.score >= 2.0 or chosen.action.is_stop or not plan.serves(chosen)):
        return Decision(chosen=one, reason="the page shows one value beside the label the question names, for "
                        "the record it names (program)", clause=plan.current)
    free = [c for c in untried if c.free and not c.action.is_stop and c.score > TYPING_SCORE]
    floor = chosen.score if not chosen.action.is_stop else 0.0
    if free and free[0].score >= floor - TIE_MARGIN:
        best = free[0].score
        decision.offer = [c for c in free if c.score >= best - TIE_MARGIN][:MAX_OFFERED]
        decision.why = "value"  # the pick stays the program's: what is taken with no model, or no answer
        return decision
    if chosen.action.is_stop:
        if question:
            decision.offer, decision.why = [*answers, stop], "answer"
            named = [answer for answer in answers if answer.score >= 1.0]
            if named:  # with no model (or an unreadable reply): the named answer the page shows first
                decision.chosen, decision.value = named[0], None
        return decision
    filled = {previous.action.target_element_id for previous in history
              if previous.action is not None and previous.action.action_key == "fill"}
    rivals = [c for c in untried if c is not chosen and not c.free and c.action.target_element_id is not None
              and not (c.action.action_key == "click" and c.action.target_element_id in filled)
              and abs(c.score - chosen.score) <= TIE_MARGIN
              and (_phrases(c) & _phrases(chosen) if chosen.grounded else not c.grounded)]
    if rivals:
        decision.offer = sorted([chosen, *rivals], key=lambda c: -c.score)[:MAX_OFFERED]
        if chosen not in decision.offer:
            decision.offer[-1] = chosen
        if asking_now:  # an answer only once the clauses before the question are done
            decision.offer += [*answers, stop]
        decision.why = "tie"
    elif decision.confidence < ask_below:
        others = [c for c in untried if c is not chosen and not c.free and c.action.target_element_id is not None]
        decision.offer = [chosen, *sorted(others, key=lambda c: -c.score)[: MAX_OFFERED - 1]]
        decision.why = "unsure"
    return decision


def _first_heading(markdown: str) -> str | None:
    for line in markdown.splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip() or None
    return None


