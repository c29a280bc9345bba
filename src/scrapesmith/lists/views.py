"""lists' data: the ``ListProgram``, a recorded list extraction saved as JSON and replayed without a model.

The program keeps the recorded DSL actions with element ids replaced by CSS selectors (BardeenAgent paper,
figure 2). :meth:`ListProgram.plan` splits them into the phases replay runs: setup actions on the start
page (filters, global values), the list (item selector, pagination, per-item actions), the detail pass
(actions recorded after a ``Click`` inside the list, run on every collected item URL), and list-level
actions after ``ExitList``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from scrapesmith.artifacts import check_kind, read_artifact_text, read_json_object, validate_artifact
from scrapesmith.drift import OutputProfile
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.dsl import (
    Action,
    AnyAction,
    Click,
    EnterList,
    ExitList,
    Fail,
    Finish,
    GoBack,
)

PROGRAM_VERSION = 1
DEFAULT_MAX_PAGES = 20


class ProgramError(ScrapesmithError):
    """A list program file is missing, unreadable, or not a valid program."""


class ListProgram(BaseModel):
    """A replayable list extraction. ``steps`` hold selectors, never numeric ids."""

    version: Literal[1] = PROGRAM_VERSION
    goal: str
    start_url: str
    columns: list[str]
    steps: list[AnyAction]
    runtime: Literal["http", "browser"] = "http"
    max_pages: int = DEFAULT_MAX_PAGES
    recorded_with: str = "heuristic"
    recorded_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    notes: list[str] = Field(default_factory=list)
    column_types: dict[str, str] = Field(default_factory=dict, description="column -> type (scrapesmith.io.schema), "
                                         "recorded from the first run so every replay writes the same types")
    profile: OutputProfile | None = Field(default=None, description="the first run's output (columns, items per "
                                          "page), for drift checks; absent in programs saved before profiles")
    base_url: str | None = Field(default=None, description="recorded on saved pages: the address they were saved "
                                 "from, whose links are read from the saved copies")

    @property
    def program_id(self) -> str:
        """A content hash of what replay depends on (not when or how it was recorded)."""
        payload = self.model_dump(
            mode="json", include={"version", "start_url", "columns", "steps", "runtime"}
        )
        for step in payload["steps"]:  # an induced scraper's own creation time is no part of replay
            if isinstance(step.get("spec"), dict):
                step["spec"].pop("created_at", None)
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]

    def to_json(self) -> str:
        return json.dumps(
            {"id": self.program_id, **self.model_dump(mode="json")}, indent=2, ensure_ascii=False
        )

    def save(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_json(cls, text: str) -> ListProgram:
        data = read_json_object(text, "list program", ProgramError)
        check_kind(data, "list program", "list_program", "steps", ProgramError)
        if data.get("version", PROGRAM_VERSION) != PROGRAM_VERSION:
            raise ProgramError(f"unsupported list program version {data.get('version')!r} (expected 1)")
        return validate_artifact(cls, data, "list program", ProgramError)

    @classmethod
    def load(cls, path: Path) -> ListProgram:
        return cls.from_json(read_artifact_text(path, "list program", ProgramError))

    def plan(self) -> ProgramPlan:
        return plan_steps(self.steps)


@dataclass
class ProgramPlan:
    """The recorded steps split into the phases replay runs, in order."""

    setup: list[Action] = field(default_factory=list)
    enter: EnterList | None = None
    item: list[Action] = field(default_factory=list)
    detail_link: Click | None = None
    detail: list[Action] = field(default_factory=list)
    after: list[Action] = field(default_factory=list)
    failure: Fail | None = None


def plan_steps(steps: list[Action]) -> ProgramPlan:
    """Split steps at ``EnterList``/``ExitList``; inside the list, a ``Click`` opens the detail pass."""
    plan = ProgramPlan()
    phase = "setup"
    for step in steps:
        if isinstance(step, Fail):
            plan.failure = step
            break
        if isinstance(step, Finish):
            break
        if isinstance(step, EnterList):
            plan.enter, phase = step, "item"
        elif isinstance(step, ExitList):
            phase = "after"
        elif phase == "item" and isinstance(step, Click):
            plan.detail_link, phase = step, "detail"
        elif phase == "detail" and isinstance(step, GoBack):
            phase = "item"
        else:
            {"setup": plan.setup, "item": plan.item, "detail": plan.detail, "after": plan.after}[
                phase
            ].append(step)
    return plan
