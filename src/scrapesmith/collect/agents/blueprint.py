"""The research squad's last agent: it chooses among the tool's candidates and writes the blueprint
(AutoData section 3.1); the development squad builds the program from it."""

from __future__ import annotations

from pydantic import BaseModel, Field

from scrapesmith.collect.agents.base import Agent
from scrapesmith.collect.agents.research import plan_of
from scrapesmith.collect.filters import entity_filter, is_number, named_sources, range_filter
from scrapesmith.collect.mapping import plausible
from scrapesmith.collect.views import (
    Blueprint,
    BlueprintMessage,
    PlanMessage,
    Role,
    SourceCandidate,
    SourceLink,
    ToolMessage,
    ValidationRules,
    WebMessage,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import infer_type


class BlueprintChoice(BaseModel):
    choice: int
    field_map: dict[str, str] = Field(default_factory=dict)
    api_params: dict[str, str] = Field(default_factory=dict)
    row_filter: dict[str, str] = Field(default_factory=dict)


class BlueprintAgent(Agent):
    """Chooses among the tool's candidates and writes the development blueprint (plus ranked alternatives)."""

    role = Role.BLUEPRINT
    prompt = "collect_blueprint"

    def run(self) -> None:
        plan = plan_of(self)
        web = WebMessage.model_validate(self.received("web").content)
        tool = ToolMessage.model_validate(self.received("candidates").content)
        if not tool.candidates:
            raise ScrapesmithError(f"no list, table or REST API on {web.source_urls[0].url} fills "
                                   f"the columns {', '.join(plan.columns)}")
        found = [self.team.cache.get_json(c.program_ref) for c in tool.candidates]
        ranked = sorted(range(len(found)), key=lambda i: _rank(tool.candidates[i], web))
        clear = _clear_winner([tool.candidates[i] for i in ranked], plan.columns) and not self.team.always_ask
        reply = None if clear else self.decide(
            BlueprintChoice, columns=plan.columns, candidates=[
                {"index": i, "kind": c.kind, "url": c.source_url, "extracted": c.columns[:15], "filled": c.filled,
                 "rows": c.rows_on_page, "sample": self.team.cache.mention(c.sample_ref.removeprefix("cache://"))}
                for i, c in enumerate(tool.candidates)])
        if reply is not None and 0 <= reply.choice < len(found):
            ranked.remove(reply.choice)
            ranked.insert(0, reply.choice)
        blueprints = [self._blueprint(plan, web, found[i], tool.candidates[i], reply if n == 0 else None)
                      for n, i in enumerate(ranked)]
        refs = [self.store("blueprint", b.model_dump_json()) for b in blueprints]
        (self.team.run_dir / "blueprint.md").write_text(blueprints[0].to_markdown(), encoding="utf-8")
        self.send("blueprint", BlueprintMessage(blueprint_ref=f"cache://{refs[0]}", access=blueprints[0].access,
                                                fields=blueprints[0].fields, sources=len(blueprints[0].sources),
                                                alternatives=[f"cache://{r}" for r in refs[1:]]))
        self.report(f"{blueprints[0].access} over {len(blueprints[0].sources)} source(s)")

    def _blueprint(self, plan: PlanMessage, web: WebMessage, found: dict, candidate: SourceCandidate,
                   reply: BlueprintChoice | None) -> Blueprint:
        field_map = dict(found["field_map"])
        label_column = None
        if reply is not None:
            for column, key in reply.field_map.items():
                if column in plan.columns and key == "@label":
                    label_column = column
                elif (column in plan.columns and key in candidate.columns
                      and plausible(column, [r.get(key) for r in found["rows"]])):
                    field_map[column] = key
        missing = [c for c in plan.columns if c not in candidate.filled and c != label_column]
        if label_column is None and len(missing) == 1 and all(s.label for s in web.source_urls):
            label_column = missing[0]
        sources = (named_sources(self.team.instruction, web.source_urls) if found["kind"] != "rest"
                   else [SourceLink(url=found["url"])])
        access = {"list": "html_list", "table": "html_table", "rest": "rest"}[found["kind"]]
        model_filter = _sampled_filter(reply.row_filter if reply else {}, found["rows"], field_map, plan.columns)
        # what the instruction names wins over the model's reading of it
        row_filter = {**{field_map.get(c, c): v for c, v in model_filter.items()},
                      **entity_filter(self.team.instruction, found["rows"])}
        date_range = range_filter(self.team.instruction, found["rows"],
                                  preferred=[field_map.get(c, c) for c in plan.columns])
        filled = [c for c in plan.columns if c in candidate.filled]
        unmapped = [c for c in plan.columns if c not in field_map and c != label_column]
        return Blueprint(
            instruction=self.team.instruction, access=access, sources=sources, fields=plan.columns,
            field_map={c: field_map[c] for c in plan.columns if c in field_map and c != label_column},
            unmapped=unmapped, label_column=label_column,
            pagination="followed by the list program" if access == "html_list" else (
                "next-page links" if access == "html_table" else None),
            # the parameters the tool's sample really ran with beat the model's guess (a 400 ends the run)
            list_program=found["list_program"], api_params=(found["api_params"] or (
                reply.api_params if reply and access == "rest" else {})),
            api_records_key=found["records_key"], row_filter=row_filter, date_range=date_range,
            join={c: k for c, k in found.get("join", {}).items() if c in plan.columns and c != label_column},
            column_types=_column_types(found["rows"], field_map, plan.columns, label_column),
            validation=ValidationRules(required=filled, unique=[c for c in plan.columns],
                                       numeric=_numeric(found["rows"], field_map, filled)))


def _clear_winner(ranked: list[SourceCandidate], columns: list[str]) -> bool:
    """The best candidate fills every requested column and no other does: the model has nothing to choose."""
    fills_all = [c for c in ranked if len(c.filled) == len(columns)]
    return len(fills_all) == 1 and ranked[0] is fills_all[0]


def _rank(candidate: SourceCandidate, web: WebMessage) -> tuple:
    preference = {"rest": 0, "table": 1, "list": 2}[candidate.kind]
    return (-len(candidate.filled), preference, -candidate.rows_on_page)


def _numeric(rows: list[dict], field_map: dict[str, str], columns: list[str]) -> list[str]:
    numeric = []
    for column in columns:
        values = [str(r.get(field_map.get(column, column)) or "") for r in rows[:10]]
        if values and all(is_number(v) for v in values):
            numeric.append(column)
    return numeric


def _column_types(rows: list[dict], field_map: dict[str, str], columns: list[str],
                  label_column: str | None) -> dict[str, str]:
    """Each output column's type from the sampled values it maps to (the label column is text)."""
    return {column: "string" if column == label_column else infer_type(
        r.get(field_map.get(column, column)) for r in rows) for column in columns}


def _sampled_filter(row_filter: dict[str, str], rows: list[dict], field_map: dict[str, str],
                    columns: list[str]) -> dict[str, str]:
    """The model's row filter, kept only for values the candidate's sample really holds: a filter on a
    value no row has ("@label", a misspelt name) would empty the dataset."""
    return {column: value for column, value in row_filter.items() if column in columns and any(
        str(r.get(field_map.get(column, column)) or "").strip() == str(value).strip() for r in rows)}
