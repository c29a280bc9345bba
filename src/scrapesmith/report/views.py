"""What a report shows, as plain data: filled by ``load``, drawn by ``render``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scrapesmith.drift import ColumnProfile as OutputColumn


@dataclass
class ColumnProfile:
    """One dataset column: its value type, how full it is, how many distinct values, and why it is flagged."""

    name: str
    kind: str
    filled: int
    rows: int
    distinct: int
    provenance: bool = False
    flag: str = ""
    series: list[tuple[str, float]] = field(default_factory=list)
    """A numeric column of a dataset with a date column: (date, value) per row, in date order, to draw."""

    @property
    def fill_rate(self) -> float:
        return self.filled / self.rows if self.rows else 0.0


@dataclass
class StageBar:
    """Model use of one ledger stage (``collect.web``, ``lists.verify``, …), one bar of the chart."""

    stage: str
    calls: int
    input_tokens: int
    output_tokens: int
    cost: float

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class TrailStep:
    """One message between agents (or one step of a run), shown in order."""

    sender: str
    targets: list[str]
    kind: str
    text: str


@dataclass
class EpisodeStep:
    """One agent step as the viewer shows it: the page it saw, what it did and why, what went wrong."""

    number: int
    url: str
    screenshot: str | None
    action: str
    reason: str
    error: str | None
    path: str | None = None


@dataclass
class WorkflowCard:
    """One workflow compiled from the run's judged-successful episodes (a forged program): its id, family, the
    task template it binds, its steps as readable lines and the episodes it came from."""

    id: str
    family: str
    template: str
    steps: list[str]
    parameters: list[str]
    episodes: list[str]


@dataclass
class Episode:
    """One agent episode: the task, each step, and the judge's scores with its evidence."""

    site: str
    status: str
    task: str
    verdict: str
    scores: dict[str, float]
    evidence: str
    answer: str | None
    stop_reason: str
    error: str | None
    steps: list[EpisodeStep] = field(default_factory=list)
    refusal: str = ""


@dataclass
class DriftColumn:
    """One column of a program's output profile: as forged, as in this run, and what drifted. A list's
    items per start page is a row of its own, drawn from ``items_was`` and ``items_now``."""

    name: str
    was: OutputColumn | None
    now: OutputColumn | None
    evidence: list[str] = field(default_factory=list)
    items_was: list[int] = field(default_factory=list)
    items_now: list[int] = field(default_factory=list)


@dataclass
class Report:
    """Everything one report page shows. ``valid`` is ``None`` when the run has no validation step."""

    title: str
    kind: str
    source: str
    rows: list[dict[str, Any]]
    columns: list[ColumnProfile]
    valid: bool | None
    why: str
    seconds: float
    llm_calls: int
    tokens: int
    cost: float
    failures: int = 0
    stages: list[StageBar] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    trail: list[TrailStep] = field(default_factory=list)
    program_name: str = ""
    program_text: str = ""
    blueprint_text: str = ""
    steps: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dataset_name: str = ""
    episodes: list[Episode] = field(default_factory=list)
    workflows: list[WorkflowCard] = field(default_factory=list)
    total_rows: int | None = None  # when ``rows`` holds only the first rows of a large dataset
    drift_checked: bool | None = None  # None: the run checks no drift; False: its program has no profile
    drift: list[DriftColumn] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the run warned of (an empty column), shown on top

    @property
    def row_count(self) -> int:
        return len(self.rows) if self.total_rows is None else self.total_rows
