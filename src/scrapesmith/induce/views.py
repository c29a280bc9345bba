"""induce's data: what a user asks for (``FieldRequest``) and the ``ScraperSpec`` it forges.

The ``ScraperSpec`` is a versioned JSON artefact that replays a field scraper with no LLM.

Each field is an AutoScraper action sequence ``[XPath_1 … XPath_n]`` (paper section 4.1): every XPath but
the last prunes the page to the nodes it selects, the last one extracts values from what is left. Values
then pass through a small, declarative post-processing step (whitespace and separator normalisation, an
optional regex, single or multiple values), so the same spec gives the same table on every machine.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from scrapesmith.artifacts import (
    check_kind,
    check_regex,
    read_artifact_text,
    read_json_object,
    validate_artifact,
)
from scrapesmith.drift import OutputProfile
from scrapesmith.errors import ScrapesmithError

SPEC_VERSION = 1


@dataclass(frozen=True)
class FieldRequest:
    """What the user asked for: a field name and a natural-language instruction."""

    name: str
    instruction: str = ""


class SpecError(ScrapesmithError):
    """A spec file is missing, unreadable or not a valid ScraperSpec."""


class PostProcess(BaseModel):
    """How raw XPath results become clean values (applied after extraction, never by the LLM)."""

    strip_separators: bool = Field(default=True, description="drop leading/trailing ':', '-', '|', '/', ','")
    regex: str | None = Field(default=None, description="keep group 1 (or the whole match) of this pattern")
    multiple: bool = Field(default=False, description="keep every value, not only the first")
    split: str | None = Field(default=None, description="with multiple: split each value on this pattern "
                                                         "('A, B and C' -> three values)")

    _regex_compiles = field_validator("regex")(check_regex)


class FieldSpec(BaseModel):
    """One field: its instruction, its action sequence and its post-processing."""

    name: str
    instruction: str = ""
    actions: list[str] = Field(default_factory=list, description="XPaths; all but the last prune the page")
    post: PostProcess = Field(default_factory=PostProcess)
    evidence: str = Field(default="", description="why these XPaths were chosen (for humans)")
    confidence: float | None = Field(default=None, description="how likely the values are the field's (0-1), "
                                     "from the learned ranker; absent in specs made without it")
    doubt: str | None = Field(default=None, description="why the value is unsure, when it is "
                              "(\"same text on every seed page\"); a strict run leaves such a field empty")

    @property
    def unsure(self) -> bool:
        return self.doubt is not None

    @property
    def extractor(self) -> str | None:
        return self.actions[-1] if self.actions else None


class ScraperSpec(BaseModel):
    """A whole scraper: fields plus enough metadata to trace where its rows came from."""

    version: Literal[1] = SPEC_VERSION
    kind: Literal["scraper"] = "scraper"
    site: str = ""
    method: str = "heuristic"
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    seeds: list[str] = Field(default_factory=list)
    scope: str | None = Field(default=None, description="id()-anchored element holding every field (speed only)")
    fields: list[FieldSpec] = Field(default_factory=list)
    profile: OutputProfile | None = Field(default=None, description="its output on the seed pages, for drift "
                                          "checks and heal; absent in specs saved before profiles")
    healed_from: str | None = Field(default=None, description="the id of the spec this version was healed from")

    @property
    def spec_id(self) -> str:
        """A content hash of the fields, so two specs that extract the same way share an id."""
        fields = [f.model_dump(exclude={"evidence": True, "confidence": True, "doubt": True, "post": {"split"}}
                               if f.post.split is None else {"evidence", "confidence", "doubt"}) for f in self.fields]
        payload = json.dumps([fields, self.scope] if self.scope else fields, sort_keys=True)
        return "spec-" + hashlib.sha256(payload.encode()).hexdigest()[:12]

    def strict(self) -> ScraperSpec:
        """The spec with every unsure field left empty (no actions; its doubt kept in ``evidence``): a value
        the engine doubts is not written as if it were known (``induce --strict``)."""
        fields = [f.model_copy(update={"actions": [], "evidence": f"left empty (--strict): {f.doubt}; {f.evidence}"})
                  if f.unsure and f.actions else f for f in self.fields]
        return self.model_copy(update={"fields": fields})

    def field(self, name: str) -> FieldSpec:
        for field in self.fields:
            if field.name == name:
                return field
        raise SpecError(f"spec has no field '{name}'")

    def to_json(self) -> str:
        data = self.model_dump()
        data["id"] = self.spec_id
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    def save(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def from_json(cls, text: str) -> ScraperSpec:
        data = read_json_object(text, "spec", SpecError)
        check_kind(data, "scraper spec", "scraper", "fields", SpecError)
        return validate_artifact(cls, data, "spec", SpecError)

    @classmethod
    def load(cls, path: Path) -> ScraperSpec:
        return cls.from_json(read_artifact_text(path, "spec", SpecError))
