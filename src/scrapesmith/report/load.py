"""Reading a run's files into a :class:`Report`.

Two kinds of run are understood:

* a **collect run directory** (``result.json``, ``dataset.csv``, ``validation.json``, ``ledger.json``,
  ``messages.jsonl``, ``blueprint.md``, ``program.py``, ``failures.json``);
* a **run record** ``<name>.run.json`` written next to a dataset by runs that have no directory of their
  own (``lists``, ``replay``): what ran, the dataset's file name, the program's steps, the ledger figures.

Only plain files are read, so a report can be drawn for any old run with ``scrapesmith report``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scrapesmith.drift import DriftReport, OutputProfile
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import count_rows, iter_rows, read_json_lines
from scrapesmith.report.profile import profile_columns
from scrapesmith.report.views import (
    Check,
    DriftColumn,
    Episode,
    EpisodeStep,
    Report,
    StageBar,
    TrailStep,
    WorkflowCard,
)

RUN_RECORD_SUFFIX = ".run.json"
TRAIL_TEXT = 240
PROFILED_ROWS = 10_000
PROFILED_CELLS = 500_000  # values read for the profile, whatever the columns


class ReportError(ScrapesmithError):
    """A path that holds no run a report can be drawn for."""


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: not readable JSON ({exc})") from exc


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def stage_bars(ledger: dict[str, Any]) -> list[StageBar]:
    """Bars from the ``by_stage`` part of a saved ledger, the busiest stage first."""
    bars = [StageBar(stage=stage, calls=int(t.get("calls", 0)), input_tokens=int(t.get("input_tokens", 0)),
                     output_tokens=int(t.get("output_tokens", 0)), cost=float(t.get("cost") or 0.0))
            for stage, t in (ledger.get("by_stage") or {}).items()]
    return sorted(bars, key=lambda bar: (-bar.tokens, -bar.calls, bar.stage))


def _trail(messages: Path) -> list[TrailStep]:
    steps = []
    for line in _text(messages).splitlines():
        if not line.strip():
            continue
        edge = json.loads(line)
        content = edge.get("content")
        text = edge.get("text") or json.dumps(content, ensure_ascii=False)
        if len(text) > TRAIL_TEXT:
            text = text[:TRAIL_TEXT] + "…"
        steps.append(TrailStep(sender=edge.get("sender", ""), targets=list(edge.get("targets") or []),
                               kind=edge.get("kind", ""), text=text))
    return steps


def _why(valid: bool | None, checks: list[Check], finished: bool) -> str:
    if valid is None:
        return "no validation.json: the run stopped before the validation agent" if not finished else (
            "not validated")
    failed = [check for check in checks if not check.ok]
    if not failed:
        return f"all {len(checks)} checks passed"
    return "; ".join(f"{check.name}: {check.detail}" for check in failed)


def load_collect_run(run_dir: Path) -> Report:
    result = _json(run_dir / "result.json")
    dataset = run_dir / "dataset.csv"
    rows, whole = _first_rows(dataset) if dataset.is_file() else ([], True)
    total = len(rows) if whole else count_rows(dataset)
    profiled = [] if whole else [f"columns profiled on the first {len(rows):,} of {total:,} rows"]
    validation = _json(run_dir / "validation.json") if (run_dir / "validation.json").is_file() else None
    checks = [Check(c["name"], bool(c["ok"]), c.get("detail", "")) for c in (validation or {}).get("checks", [])]
    valid = None if validation is None else bool(validation.get("ok"))
    ledger = _json(run_dir / "ledger.json") if (run_dir / "ledger.json").is_file() else {}
    failures = _json(run_dir / "failures.json") if (run_dir / "failures.json").is_file() else []
    instruction = _first_line_after(_text(run_dir / "blueprint.md"), "Instruction:") or run_dir.name
    return Report(
        title=instruction, kind="collect", source=str(run_dir), rows=rows, columns=profile_columns(rows),
        valid=valid, why=_why(valid, checks, bool(result.get("finished", True))),
        seconds=float(result.get("seconds", 0.0)), llm_calls=int(result.get("llm_calls", 0)),
        tokens=int(result.get("input_tokens", 0)) + int(result.get("output_tokens", 0)),
        cost=float(result.get("cost") or 0.0), failures=len(failures), stages=stage_bars(ledger), checks=checks,
        trail=_trail(run_dir / "messages.jsonl"), program_name="program.py",
        program_text=_text(run_dir / "program.py"), blueprint_text=_text(run_dir / "blueprint.md"),
        notes=([f"agents: {' → '.join(result.get('trail', []))}"] if result.get("trail") else []) + _seed_notes(result)
        + _unsure_notes(result) + profiled, dataset_name="dataset.csv" if dataset.is_file() else "", total_rows=total,
        warnings=list(result.get("warnings") or []))


def _unsure_notes(result: dict[str, Any]) -> list[str]:
    """``unsure: author: same text on every seed page (confidence 0.31)`` for each field the collection's program
    forged with a doubt (``result.json`` ``fields``; the same line ``collect`` prints)."""
    notes = []
    for field in result.get("fields") or []:
        if isinstance(field, dict) and field.get("doubt"):
            confidence = field.get("confidence")
            shown = f" (confidence {confidence:.2f})" if isinstance(confidence, (int, float)) else ""
            notes.append(f"unsure: {field.get('column') or field.get('field')}: {field['doubt']}{shown}")
    return notes


def _seed_notes(result: dict[str, Any]) -> list[str]:
    """What a collect run read of the local disk (``--seed`` roots) and which seed files it skipped."""
    notes = [f"local pages read (read-only): {', '.join(result['read_roots'])}"] if result.get("read_roots") else []
    skipped = result.get("skipped_files") or []
    return notes + ([f"{len(skipped)} files in seed directories skipped: {'; '.join(skipped)}"] if skipped else [])


def _first_line_after(text: str, prefix: str) -> str:
    for line in text.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return ""


def _pages_note(record: dict[str, Any]) -> str:
    return (f"{record.get('pages', 0)} list pages, {record.get('detail_pages', 0)} detail pages, "
            f"{record.get('duplicates', 0)} duplicate items skipped; stopped: {record.get('stop_reason') or 'done'}")


def _drift(record: dict[str, Any], program: Path | None) -> tuple[bool | None, list[DriftColumn]]:
    """The run's drift check beside the forged profile it was checked against, column by column; a list's
    items per start page as one more row. The forged profile is the one the check recorded (a collection
    program's is its dataset's, kept nowhere else), or else, for a record written before checks kept it,
    the program file's own."""
    found = record.get("drift")
    if not isinstance(found, dict):
        return None, []
    report = DriftReport.model_validate(found)
    forged = report.was or _program_profile(program)
    now = report.now
    names = [c.name for c in (forged.columns if forged else now.columns if now else [])]
    columns = [DriftColumn(name, forged.column(name) if forged else None, now.column(name) if now else None,
                           [d.evidence for d in report.drifts if d.column == name]) for name in names]
    whole_list = [d.evidence for d in report.drifts if not d.column]
    items_was = forged.items_per_page if forged else []
    items_now = now.items_per_page if now else []
    if whole_list or items_was:
        columns.append(DriftColumn("(items per page)", None, None, whole_list, items_was, items_now))
    return report.checked, columns


def _program_profile(program: Path | None) -> OutputProfile | None:
    if program is None or not program.is_file() or program.suffix != ".json":
        return None
    try:
        data = json.loads(program.read_text(encoding="utf-8"))
        return OutputProfile.model_validate(data["profile"]) if data.get("profile") else None
    except (ValueError, KeyError, ValidationError):
        return None  # a program edited since the run: its profile is not drawn, the run's check still is


def _first_rows(dataset: Path) -> tuple[list[dict[str, Any]], bool]:
    """The first rows of ``dataset``: at most :data:`PROFILED_ROWS`, and :data:`PROFILED_CELLS` values (a
    row of a hundred thousand columns is a hundred thousand values); and whether that is all of it."""
    rows: list[dict[str, Any]] = []
    cells = 0
    for row in iter_rows(dataset):
        if len(rows) == PROFILED_ROWS or cells + len(row) > PROFILED_CELLS:
            return rows, False
        rows.append(row)
        cells += len(row)
    return rows, True


def load_run_record(record_path: Path) -> Report:
    """A ``run``/``replay`` record; of a large dataset only the first :data:`PROFILED_ROWS` rows are read
    (the report says so), so drawing the report of a million-page run takes little memory."""
    record = _json(record_path)
    dataset = record_path.parent / record.get("dataset", "")
    rows, whole = _first_rows(dataset) if dataset.is_file() else ([], True)
    total = len(rows) if whole else count_rows(dataset)
    profiled = [f"columns profiled on the first {len(rows):,} of {total:,} rows"] if total > len(rows) else []
    ledger = record.get("ledger") or {}
    totals = ledger.get("totals") or {}
    failures = record.get("failures") or []
    program = record_path.parent / record["program"] if record.get("program") else None
    drift_checked, drift = _drift(record, program)
    return Report(
        title=record.get("title", record_path.stem), kind=record.get("kind", "run"), source=str(record_path),
        rows=rows, columns=profile_columns(rows), valid=None,
        why=f"{record.get('kind', 'this')} runs have no validation step; {len(failures)} per-item failures",
        seconds=float(record.get("seconds", 0.0)), llm_calls=int(totals.get("calls", 0)),
        tokens=int(totals.get("input_tokens", 0)) + int(totals.get("output_tokens", 0)),
        cost=float(totals.get("cost") or 0.0), failures=len(failures), stages=stage_bars(ledger),
        trail=[TrailStep(sender="replay", targets=[], kind="failure", text=f"{f.get('url')} {f.get('item', '')}: "
                         f"{f.get('error')}") for f in failures],
        program_name=program.name if program else "", program_text=_text(program) if program else "",
        steps=list(record.get("steps") or []),
        notes=[*([_pages_note(record)] if "pages" in record else []), *(record.get("notes") or []), *profiled],
        dataset_name=dataset.name if dataset.is_file() else "", total_rows=total,
        drift_checked=drift_checked, drift=drift, warnings=list(record.get("warnings") or []))


def _latest_results(shard_dir: Path) -> list[dict[str, Any]]:
    """Each site's last record in the shards (a rerun appends), torn last lines skipped as the store does."""
    latest: dict[str, dict[str, Any]] = {}
    for shard in sorted(shard_dir.glob("part-*.jsonl")):
        for record in read_json_lines(shard)[0]:
            if "site" in record:
                latest[record["site"]] = record
    return list(latest.values())


def _verdict(judgement: dict[str, Any] | None) -> str:
    if not judgement:
        return "unjudged"
    return "success" if judgement["success"] > 0.5 else "failure"


def _safety_line(safety: dict[str, Any] | None) -> str:
    """Why the safety filter refused a site, for the viewer's task line."""
    if not safety or not safety.get("unsafe"):
        return ""
    return f"refused by the safety filter ({safety.get('decided_by')}), {safety.get('category')}: {safety.get('reason')}"


def _episode(result: dict[str, Any]) -> Episode:
    trajectory = result.get("trajectory") or {}
    judgement = result.get("judgement")
    steps = [EpisodeStep(number=index, url=step["url"], screenshot=step.get("screenshot"),
                         action=json.dumps(step["action"], ensure_ascii=False) if step.get("action") else "(none)",
                         reason=step.get("response") or step.get("reason") or "", error=step.get("error"),
                         path=step.get("path"))
             for index, step in enumerate(trajectory.get("steps") or [], start=1)]
    scores = {key: judgement[key] for key in ("success", "efficiency", "self_correction")} if judgement else {}
    return Episode(site=result["site"], status=result["status"], task=trajectory.get("task") or (
        (result.get("proposal") or {}).get("task") or ""), verdict=_verdict(judgement), scores=scores,
        evidence=(judgement or {}).get("response", ""), answer=trajectory.get("answer"),
        stop_reason=trajectory.get("stop_reason", ""), error=result.get("error"), steps=steps,
        refusal=_safety_line(result.get("safety")))


def _workflows(folder: Path) -> list[WorkflowCard]:
    """The workflows compiled into ``folder`` (``insta.workflow``); a file that is not one is left out."""
    cards = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = _json(path)
        except ReportError:
            continue
        if not isinstance(data, dict) or data.get("kind") != "workflow":
            continue
        cards.append(WorkflowCard(
            id=str(data.get("id", path.stem)), family=str(data.get("family", "")), template=str(data.get("template", "")),
            steps=[str(line) for line in data.get("readable") or []],
            parameters=[f"{{{p.get('name')}}}: {p.get('kind')}, e.g. {', '.join(map(repr, p.get('examples') or []))}"
                        for p in data.get("parameters") or []],
            episodes=[str(source.get("site", "")) for source in data.get("provenance") or []]))
    return cards


def load_insta_run(out_dir: Path) -> Report:
    results = _latest_results(out_dir / "shards")
    # a site with several tasks (``more_tasks``) shows one episode per task; counts are per site
    per_task = [one for result in results
                for one in [result, *({**result, **task, "more_tasks": []} for task in result.get("more_tasks") or [])]]
    episodes = [_episode(one) for one in per_task]
    rows = [{"site": e.site, "status": e.status, "safety": (result.get("safety") or {}).get("category", ""),
             "task": e.task, "verdict": e.verdict,
             **e.scores, "steps": len(e.steps), "stop_reason": e.stop_reason, "error": e.error or "",
             "source_url": result["url"]} for e, result in zip(episodes, per_task, strict=True)]
    counts = {status: sum(1 for r in results if r["status"] == status) for status in ("ok", "unsafe", "failed")}
    succeeded = sum(1 for e in episodes if e.verdict == "success")
    return Report(
        title=f"InSTA run: {len(results)} sites", kind="insta", source=str(out_dir), rows=rows,
        columns=profile_columns(rows), valid=None,
        why=(f"{counts['ok']} ok, {counts['unsafe']} unsafe, {counts['failed']} failed; the judge calls "
             f"{succeeded} trajectories successful; tokens are not recorded per site"),
        seconds=sum(float(r.get("seconds", 0.0)) for r in results),
        llm_calls=sum(int(r.get("llm_calls", 0)) for r in results), tokens=0, cost=0.0,
        failures=counts["failed"], episodes=episodes, dataset_name="shards/*.jsonl",
        workflows=_workflows(out_dir / "workflows"))


def load_run(path: Path) -> Report:
    """The report data of a collect run directory, an ``insta run`` directory or a ``*.run.json`` record."""
    path = Path(path)
    if path.is_dir() and (path / "result.json").is_file():
        return load_collect_run(path)
    if path.is_dir() and (path / "shards").is_dir():
        return load_insta_run(path)
    if path.is_file() and path.name.endswith(RUN_RECORD_SUFFIX):
        return load_run_record(path)
    raise ReportError(f"{path}: not a run (expected a collect run directory with result.json, an insta run "
                      f"directory with shards/, or a *{RUN_RECORD_SUFFIX} record)")
