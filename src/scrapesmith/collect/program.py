"""Writing and running ``program.py``: the engineer fills a template from the blueprint's fields.

The small embedded model cannot be trusted to write a scraper from scratch, so the program is a fixed
template per access path (HTML list, HTML table, REST API) composing :mod:`scrapesmith.collect.runtime`;
the blueprint supplies the data (sources, list program, field map, filters). The same file reruns
later with ``scrapesmith run runs/<id>/program.py`` and zero LLM calls.
"""

from __future__ import annotations

import ast
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from pprint import pformat

from scrapesmith.collect.sandbox import SandboxLimits, SandboxResult, run_in_sandbox
from scrapesmith.collect.views import Blueprint, Rerun
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import read_rows, write_rows
from scrapesmith.report import write_report

TEMPLATES = ("html_list", "html_table", "rest")

_HEADER = '''"""Collection program written by scrapesmith collect (engineer agent, template {template}).

Instruction: {instruction}
Rerun with: scrapesmith run {name}
"""

from scrapesmith.collect.filters import matching
from scrapesmith.collect.runtime import Collection

PROGRAM_ID = {program_id!r}
ALLOW_HOSTS = {allow_hosts!r}
DELAY = {delay!r}
SOURCES = {sources}
FIELDS = {fields!r}
FIELD_MAP = {field_map!r}
LABEL_COLUMN = {label_column!r}
ROW_FILTER = {row_filter!r}
DATE_RANGE = {date_range!r}
SCHEMA = {schema!r}
JOIN = {join!r}
'''

_BODIES = {
    "html_list": '''LIST_PROGRAM = {list_program}


def collect(run: Collection) -> None:
    for source in SOURCES:
        rows = run.replay_list(LIST_PROGRAM, source["url"])
        constants = {{LABEL_COLUMN: source["label"]}} if LABEL_COLUMN else None
        run.write(keep_matching(rows), FIELD_MAP, constants, keep=FIELDS)
''',
    "html_table": '''

def collect(run: Collection) -> None:
    for source in SOURCES:
        keys = [key for key in FIELD_MAP.values() if key not in JOIN.values()] or FIELDS
        rows = keep_matching(run.read_table(source["url"], keys, links=bool(JOIN) or "detail_url" in keys))
        if JOIN:
            rows = run.join_pages(rows, JOIN)
        constants = {{LABEL_COLUMN: source["label"]}} if LABEL_COLUMN else None
        run.write(rows, FIELD_MAP, constants, keep=FIELDS)
''',
    "rest": '''API_PARAMS = {api_params!r}
RECORDS_KEY = {records_key!r}


def collect(run: Collection) -> None:
    for source in SOURCES:
        rows = run.rest_records(source["url"], API_PARAMS, RECORDS_KEY)
        run.write(keep_matching(rows), FIELD_MAP, None, keep=FIELDS)
''',
}

_FOOTER = '''

def keep_matching(rows: list[dict]) -> list[dict]:
    return matching(rows, ROW_FILTER, DATE_RANGE)


if __name__ == "__main__":
    with Collection(PROGRAM_ID, allow_hosts=ALLOW_HOSTS, delay=DELAY, schema=SCHEMA) as run:
        collect(run)
'''


def render_program(blueprint: Blueprint, allow_hosts: list[str], delay: float | None) -> str:
    """The program text for ``blueprint`` (its id is a hash of the blueprint, so reruns are traceable)."""
    template = blueprint.access
    if template not in TEMPLATES:
        raise ScrapesmithError(f"no program template for access path '{template}'")
    program_id = hashlib.sha256(blueprint.model_dump_json().encode()).hexdigest()[:12]
    fields = [f for f in blueprint.fields if f != blueprint.label_column]
    text = _HEADER.format(
        template=template, instruction=blueprint.instruction.replace('"""', "'''"), name="program.py",
        program_id=program_id, allow_hosts=list(allow_hosts), delay=delay,
        sources=json.dumps([s.model_dump() for s in blueprint.sources], indent=4),
        fields=fields, field_map={f: blueprint.field_map.get(f, f) for f in fields if f not in blueprint.unmapped},
        label_column=blueprint.label_column, row_filter=blueprint.row_filter,
        date_range=blueprint.date_range.model_dump() if blueprint.date_range else None,
        schema={f: blueprint.column_types[f] for f in blueprint.fields if f in blueprint.column_types},
        join=blueprint.join)
    text += _BODIES[template].format(
        list_program=pformat(blueprint.list_program, width=110, sort_dicts=False),
        api_params=blueprint.api_params, records_key=blueprint.api_records_key)
    compile(text, "program.py", "exec")
    return text + _FOOTER


def declared_hosts(program: Path) -> list[str]:
    """The ``ALLOW_HOSTS`` a program declares (read without running it)."""
    try:
        tree = ast.parse(Path(program).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ScrapesmithError(f"{program}: not a readable Python program ({exc})") from exc
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "ALLOW_HOSTS" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                value = None
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ScrapesmithError(f"{program}: ALLOW_HOSTS must be a plain list of host strings, "
                                       f"e.g. ['127.0.0.1:8000'] (line {node.lineno})")
            return list(value)
    return []


def run_program_file(program: Path, allow_hosts: list[str] | None = None,
                     limits: SandboxLimits | None = None, out_dir: Path | None = None) -> SandboxResult:
    """Run a collection program in the sandbox, writing into ``out_dir`` (default: beside the program)."""
    program = Path(program)
    if not program.is_file():
        raise ScrapesmithError(f"{program}: no such program")
    hosts = [*declared_hosts(program), *(allow_hosts or [])]
    return run_in_sandbox(program, out_dir or program.parent, hosts, limits)


def rerun_program(program: Path, allow_hosts: list[str] | None = None, output: Path | None = None) -> Rerun:
    """``scrapesmith run runs/X/program.py [-o OUT]``: recollect with no model, never over the original run.

    The rerun writes into ``runs/X/reruns/<time>/`` (its dataset, failures and report), so the collection's
    own ``dataset.csv`` is kept; with ``output`` the rows are also written there, in its format.
    """
    program = Path(program)
    rerun_dir = program.parent / "reruns" / datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    rerun_dir.mkdir(parents=True)
    result = run_program_file(program, allow_hosts, out_dir=rerun_dir)
    if not result.ok:
        raise ScrapesmithError(f"{program}: {result.summary()}")
    produced = rerun_dir / "dataset.csv"
    rows = read_rows(produced) if produced.is_file() else []
    dataset = produced if produced.is_file() else None
    if dataset is not None and output is not None:
        dataset = write_rows(rows, output)
    return Rerun(result, rerun_dir, dataset, len(rows), save_rerun(program, result, rerun_dir))


def save_rerun(program: Path, result: SandboxResult, rerun_dir: Path | None = None) -> Path:
    """Record a rerun (``rerun.run.json`` in ``rerun_dir``, default beside the program) and draw its report.

    The run directory's ``report.html`` stays the report of the original collection; a rerun's figures
    (rows now, time, per-item failures; never a model call) go to ``rerun.report.html``.
    """
    program = Path(program)
    rerun_dir = Path(rerun_dir or program.parent)
    failures_file = rerun_dir / "failures.json"
    record = {
        "kind": "run", "title": f"rerun of {program}", "dataset": "dataset.csv", "program": str(program.resolve()),
        "seconds": result.seconds, "notes": [f"sandbox: {result.reason}, exit status {result.exit_status}"],
        "failures": json.loads(failures_file.read_text()) if failures_file.is_file() else [],
        "ledger": {"totals": {"calls": 0}, "by_stage": {}},
    }
    path = rerun_dir / "rerun.run.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return write_report(path)
