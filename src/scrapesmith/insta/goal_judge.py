"""The judge of a proposed task with a goal: the program checks the value and the page, no model needed.

A task from :mod:`.propose_site` carries its :class:`~.views.TaskGoal`: the value the page shows beside a
label for a record, and the page. The trajectory succeeds when the episode ended by stopping (not by a budget
or an early stop) and

* a value goal: the answer holds the value (:func:`answer_holds`: the value's words in order, case and
  spacing aside, thousands separators dropped; or the same number; or the same date written another way:
  ISO, "5 March 2019", "March 5, 2019");
* a page goal: the episode ended on the goal's page (path and query; a trailing slash aside).

Each is one :class:`~.views.CriterionCheck` decided by the program, with the quote it rests on; "reached the
page" is reported for a value goal too, but an answer read off a listing row is as good as one read off the
record's page. The evidence judge (:mod:`.evidence_judge`) still judges tasks without a goal.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from urllib.parse import urlsplit

from scrapesmith.insta.values import same_date_or_value
from scrapesmith.insta.views import CriterionCheck, Judgement, TaskGoal, Trajectory

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_MONTHS = {name: number for number, names in enumerate(
    ("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
     "sep sept september", "oct october", "nov november", "dec december"), start=1) for name in names.split()}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATES = (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
          re.compile(rf"\b(\d{{1,2}})\s+{_MONTH}\s+(\d{{4}})\b", re.IGNORECASE),
          re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}),?\s+(\d{{4}})\b", re.IGNORECASE))
_WORD = re.compile(r"[\w.$%/-]+")


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(_THOUSANDS.sub("", text.casefold()))).strip(" .")


def dates_in(text: str) -> set[dt.date]:
    """The dates a text writes as ISO, "5 March 2019" or "March 5, 2019" (month names in English)."""
    found = set()
    for number, pattern in enumerate(_DATES):
        for match in pattern.finditer(text):
            groups = match.groups()
            try:
                if number == 0:
                    found.add(dt.date(int(groups[0]), int(groups[1]), int(groups[2])))
                elif number == 1:
                    found.add(dt.date(int(groups[2]), _MONTHS[groups[1].casefold()], int(groups[0])))
                else:
                    found.add(dt.date(int(groups[2]), _MONTHS[groups[0].casefold()], int(groups[1])))
            except ValueError:
                continue
    return found


def answer_holds(answer: str | None, value: str) -> bool:
    """The answer states the value (see the module docstring); an empty answer states nothing."""
    if not answer or not value.strip():
        return False
    said, wanted = f" {_norm(answer)} ", _norm(value)
    if wanted and f" {wanted} " in said.replace(" .", " ").replace(". ", " ") or f" {wanted} " in said:
        return True
    if (wanted_dates := dates_in(value)) and wanted_dates <= dates_in(answer):
        return True
    parts = [part.strip(" .,;:") for part in re.split(r"[,;]\s*|\s+(?:and|is|was|of|:)\s+", answer)]
    return any(part and same_date_or_value(part, value) for part in parts)


def same_page(left: str, right: str) -> bool:
    a, b = urlsplit(left), urlsplit(right)
    return (a.netloc, a.path.rstrip("/"), a.query) == (b.netloc, b.path.rstrip("/"), b.query)


class GoalJudge:
    """Checks a trajectory against its task's goal (module docstring); no model call."""

    kind = "evidence"

    def judge(self, task: str, trajectory: Trajectory, goal: TaskGoal) -> Judgement:
        visited = [step.url for step in trajectory.steps] + [trajectory.final_url]
        ended = same_page(trajectory.final_url, goal.page)
        reached = CriterionCheck(
            criterion=f"reach {goal.page}", holds=ended or any(same_page(url, goal.page) for url in visited),
            evidence=trajectory.final_url, decided_by="program")
        reached.verified = reached.holds
        reached.status = "verified" if reached.holds else "refuted"
        checks = [reached]
        if goal.label:
            holds = answer_holds(trajectory.answer, goal.value)
            checks.append(CriterionCheck(
                criterion=f'answer the {goal.label} of "{goal.entity}": {goal.value}', holds=holds, verified=holds,
                evidence=trajectory.answer or "", status="verified" if holds else "refuted", decided_by="program",
                why="" if holds else ("no answer" if not trajectory.answer else "the answer does not state the value")))
            met = holds
        else:
            met = ended
            if not ended:
                reached.why = "the episode did not end on the page"
        stopped = trajectory.stop_reason == "stop"
        steps = len(trajectory.steps)
        return Judgement(success=1.0 if met and stopped else 0.0,
                         efficiency=(steps - trajectory.invalid_steps) / steps if steps else 0.0,
                         self_correction=0.0, kind="evidence", criteria=checks,
                         response=json.dumps({f"c{number}": {"evidence": check.evidence, "holds": check.holds}
                                              for number, check in enumerate(checks, start=1)}, ensure_ascii=False))
