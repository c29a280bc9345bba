"""Data models of the collect capability: roles, hyperedges, per-role message schemas, the blueprint.

Behaviour lives elsewhere (``ohcache/``, ``agents/``, ``service.py``); this module only says what the
agents exchange, so every schema the formatter enforces can be read in one place.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from scrapesmith.collect.filters import DateRange
from scrapesmith.collect.sandbox import SandboxResult


class Role(StrEnum):
    """The eight agents of AutoData plus the local cache node ``v_ics``."""

    MANAGER = "manager"
    PLAN = "plan"
    WEB = "web"
    TOOL = "tool"
    BLUEPRINT = "blueprint"
    ENGINEER = "engineer"
    TEST = "test"
    VALIDATION = "validation"
    CACHE = "cache"


AGENTS = tuple(role for role in Role if role is not Role.CACHE)
Ablation = Literal["full", "broadcast", "no-formatter", "no-cache"]
ABLATIONS: tuple[str, ...] = ("full", "broadcast", "no-formatter", "no-cache")


class Hyperedge(BaseModel):
    """One message m_j with its oriented hyperedge e_j = (S_j, T_j): one sender, a target set (Eq. 2)."""

    index: int
    sender: Role
    targets: list[Role]
    kind: str
    content: dict[str, Any]
    text: str = Field(description="the message as the receiving agents read it")


class PlanMessage(BaseModel):
    """Plan agent: the instruction split into steps, with the columns and start URL it names."""

    steps: list[str] = Field(min_length=1, max_length=8)
    columns: list[str] = Field(min_length=1)
    start_url: str | None = None
    keywords: list[str] = Field(default_factory=list)


class SourceLink(BaseModel):
    url: str
    label: str = ""


class WebMessage(BaseModel):
    """Web agent: where the data lives and how it is reached."""

    source_urls: list[SourceLink] = Field(min_length=1)
    access: Literal["html", "rest"]
    label_column: str | None = None
    page_refs: list[str] = Field(default_factory=list)
    notes: str = ""


class SourceCandidate(BaseModel):
    """One extraction method a tool proposes, with a cached sample of what it extracts."""

    candidate_id: str
    kind: Literal["list", "table", "rest"]
    source_url: str
    columns: list[str]
    filled: list[str] = Field(default_factory=list, description="columns the sample has values for")
    rows_on_page: int = 0
    sample_ref: str = ""
    program_ref: str = ""


class ToolMessage(BaseModel):
    candidates: list[SourceCandidate]
    search_hits: list[str] = Field(default_factory=list)


class ValidationRules(BaseModel):
    required: list[str] = Field(default_factory=list)
    unique: list[str] = Field(default_factory=list)
    numeric: list[str] = Field(default_factory=list)
    min_rows: int = 1


class Blueprint(BaseModel):
    """The development blueprint: sources, access path, fields, pagination, validation rules."""

    instruction: str
    access: Literal["html_list", "html_table", "rest"]
    sources: list[SourceLink] = Field(min_length=1)
    fields: list[str] = Field(min_length=1)
    field_map: dict[str, str] = Field(default_factory=dict, description="output column -> extracted column")
    unmapped: list[str] = Field(default_factory=list, description="requested columns no field of the source fills "
                                "(left empty, never filled from another field)")
    label_column: str | None = None
    pagination: str | None = None
    list_program: dict[str, Any] | None = None
    api_params: dict[str, str] = Field(default_factory=dict)
    api_records_key: str | None = None
    row_filter: dict[str, str] = Field(default_factory=dict, description="keep rows whose extracted field equals "
                                       "the value (the entity the instruction names)")
    date_range: DateRange | None = Field(default=None, description="keep rows whose date field is in the range")
    join: dict[str, str] = Field(default_factory=dict, description="column -> label on each row's own page "
                                 "(its link, the record's key), joined to the row")
    column_types: dict[str, str] = Field(default_factory=dict, description="output column -> type "
                                         "(scrapesmith.io.schema), declared in the program as SCHEMA")
    validation: ValidationRules = Field(default_factory=ValidationRules)

    def to_markdown(self) -> str:
        """The human-readable ``blueprint.md`` of a run."""
        lines = [f"# Development blueprint\n\nInstruction: {self.instruction}\n", f"Access path: **{self.access}**\n",
                 "## Sources\n", *[f"- {s.url}" + (f" ({s.label})" if s.label else "") for s in self.sources],
                 "\n## Fields\n", *[f"- `{f}` <- `{self.field_map.get(f, f)}`" + (
                     f" ({self.column_types[f]})" if f in self.column_types else "") for f in self.fields
                   if f not in self.unmapped and f != self.label_column]]
        if self.label_column:
            lines.append(f"- `{self.label_column}` <- the source's label")
        if self.join:
            lines.append("\nJoined on each row's link (the record's own page): " + ", ".join(
                f"`{c}` <- {k!r}" for c, k in self.join.items()))
        if self.unmapped:
            lines.append(f"\nUnmapped (no field of the source fits; left empty): {', '.join(self.unmapped)}")
        if self.row_filter:
            lines.append(f"\nOnly rows where {', '.join(f'{k} = {v!r}' for k, v in self.row_filter.items())}.")
        if self.date_range:
            lines.append(f"\nOnly rows whose `{self.date_range.key}` is from {self.date_range.start} to "
                         f"{self.date_range.end}.")
        if self.api_params:
            lines.append(f"\nREST parameters: {self.api_params}")
        lines += ["\n## Pagination\n", self.pagination or "none (or handled by the list program)",
                  "\n## Validation rules\n", f"- required: {', '.join(self.validation.required) or '-'}",
                  f"- unique together: {', '.join(self.validation.unique) or '-'}",
                  f"- numeric: {', '.join(self.validation.numeric) or '-'}", f"- at least {self.validation.min_rows} rows"]
        return "\n".join(lines) + "\n"


class BlueprintMessage(BaseModel):
    blueprint_ref: str
    access: str
    fields: list[str]
    sources: int
    alternatives: list[str] = Field(default_factory=list, description="refs of ranked fallback blueprints")


class EngineerMessage(BaseModel):
    program_ref: str
    blueprint_ref: str
    template: str
    revision: int = 0


class TestMessage(BaseModel):
    ok: bool
    exit_status: int | None
    rows: int = 0
    error: str | None = None
    stderr_tail: str = ""


class Check(BaseModel):
    name: str
    ok: bool
    detail: str = ""


class ValidationMessage(BaseModel):
    ok: bool
    checks: list[Check]


class ManagerMessage(BaseModel):
    next: Role
    instruction: str = ""
    refs: list[str] = Field(default_factory=list, description="artifacts the scheduled agent should use")


class CacheMessage(BaseModel):
    """Eq. 5: the cache node announces a stored artifact (id, kind, size) to every agent."""

    artifact_id: str
    kind: str
    size: int
    summary: str = ""


ROLE_SCHEMAS: dict[Role, type[BaseModel]] = {
    Role.MANAGER: ManagerMessage, Role.PLAN: PlanMessage, Role.WEB: WebMessage, Role.TOOL: ToolMessage,
    Role.BLUEPRINT: BlueprintMessage, Role.ENGINEER: EngineerMessage, Role.TEST: TestMessage,
    Role.VALIDATION: ValidationMessage, Role.CACHE: CacheMessage,
}


@dataclass
class Seeds:
    """The ``--from`` inputs resolved (:func:`scrapesmith.collect.seeds.resolve_seeds`)."""

    #: where the crawl starts, in order: URLs as given, local pages as ``file://`` URLs of their real paths
    urls: list[str] = field(default_factory=list)
    #: a crawled link must start with one of these (a URL seed; a local root's ``file://`` URL)
    scopes: list[str] = field(default_factory=list)
    #: the local files and directories named (real paths): all the run may read on this machine, read-only
    roots: list[str] = field(default_factory=list)
    #: files in seed directories that are not read, each with the reason
    skipped: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line on the local seeds (empty without any)."""
        if not self.roots:
            return ""
        local = sum(1 for url in self.urls if url.startswith("file:"))
        line = f"local seeds: {local} HTML pages under {', '.join(self.roots)} (read-only in the sandbox)"
        return line + (f"; {len(self.skipped)} other files skipped" if self.skipped else "")


@dataclass
class CollectResult:
    run_dir: Path
    rows: int
    valid: bool
    finished: bool
    steps: int
    llm_calls: int
    input_tokens: int
    output_tokens: int
    cost: float
    seconds: float
    messages: int
    format_rejections: int
    ablation: str
    trail: list[str] = field(default_factory=list)
    #: the local roots (``--from`` files and directories) the run read, mounted read-only for the program
    read_roots: list[str] = field(default_factory=list)
    #: files in ``--from`` directories that were not read, each with the reason
    skipped_files: list[str] = field(default_factory=list)
    #: what is wrong with the dataset though it was written: a column empty in most rows
    warnings: list[str] = field(default_factory=list)
    #: each field the program forged: its dataset column, the engine's confidence, its doubt, its selector
    fields: list[dict] = field(default_factory=list)

    @property
    def dataset(self) -> Path:
        return self.run_dir / "dataset.csv"

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def report(self) -> Path:
        return self.run_dir / "report.html"

    def to_json(self) -> dict:
        return {**asdict(self), "run_dir": str(self.run_dir), "dataset": str(self.dataset)}


@dataclass
class Rerun:
    """A rerun of ``program.py``: where its files went, and the dataset the user asked for."""

    result: SandboxResult
    rerun_dir: Path
    dataset: Path | None
    rows: int
    report: Path
