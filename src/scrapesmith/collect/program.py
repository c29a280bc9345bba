"""Writing and running ``program.py``: the engineer fills a template from the blueprint's fields.

The small embedded model cannot be trusted to write a scraper from scratch, so the program is a fixed
template per access path (HTML list, HTML table, REST API) composing :mod:`scrapesmith.collect.runtime`;
the blueprint supplies the data (sources, list program, field map, filters). The same file reruns
later with ``scrapesmith run runs/<id>/program.py`` and zero LLM calls. Before a program runs, what it
declares (hosts, folders to read) is checked against what the caller allows; what it wrote is read back
by :mod:`scrapesmith.collect.readback`.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from pprint import pformat
from typing import Any

from scrapesmith.collect.outputs import UnsafeOutput, count_lines
from scrapesmith.collect.readback import dataset_chunks, read_failures, read_failures_bounded, scan_dataset
from scrapesmith.collect.runtime import FAILURES_FILE, PARTIAL_DATASET
from scrapesmith.collect.sandbox import SandboxLimits, SandboxResult, run_in_sandbox
from scrapesmith.collect.views import Blueprint, Rerun
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import write_row_chunks
from scrapesmith.report import write_report
from scrapesmith.web import is_within

TEMPLATES = ("html_list", "html_table", "rest")

_HEADER = '''"""Collection program written by scrapesmith collect (engineer agent, template {template}).

Instruction: {instruction}
Rerun with: scrapesmith run {name}
"""

from scrapesmith.collect.filters import matching
from scrapesmith.collect.runtime import Collection

PROGRAM_ID = {program_id!r}
ALLOW_HOSTS = {allow_hosts!r}
READ_ROOTS = {read_roots!r}
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
    with Collection(PROGRAM_ID, allow_hosts=ALLOW_HOSTS, delay=DELAY, schema=SCHEMA, read_roots=READ_ROOTS) as run:
        collect(run)
'''


def render_program(blueprint: Blueprint, allow_hosts: list[str], delay: float | None,
                   read_roots: list[str] | None = None) -> str:
    """The program text for ``blueprint`` (its id is a hash of the blueprint, so reruns are traceable);
    ``read_roots`` are the local files and directories it reads pages from (``READ_ROOTS``)."""
    template = blueprint.access
    if template not in TEMPLATES:
        raise ScrapesmithError(f"no program template for access path '{template}'")
    program_id = hashlib.sha256(blueprint.model_dump_json().encode()).hexdigest()[:12]
    fields = [f for f in blueprint.fields if f != blueprint.label_column]
    text = _HEADER.format(
        template=template, instruction=blueprint.instruction.replace('"""', "'''"), name="program.py",
        program_id=program_id, allow_hosts=list(allow_hosts), read_roots=list(read_roots or []), delay=delay,
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
    return _declared_strings(program, "ALLOW_HOSTS", "host strings, e.g. ['127.0.0.1:8000']")


def declared_roots(program: Path) -> list[str]:
    """The ``READ_ROOTS`` a program declares (read without running it): local paths it reads pages from."""
    return _declared_strings(program, "READ_ROOTS", "absolute paths, e.g. ['/data/saved-site']")


def _declared_strings(program: Path, name: str, example: str) -> list[str]:
    try:
        tree = ast.parse(Path(program).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ScrapesmithError(f"{program}: not a readable Python program ({exc})") from exc
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == name for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                value = None
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ScrapesmithError(f"{program}: {name} must be a plain list of {example} (line {node.lineno})")
            return list(value)
    return []


class HostsNotAllowed(ScrapesmithError):
    """A program declares hosts the run does not allow; only the caller can allow them, never the program."""

    def __init__(self, hosts: list[str], message: str) -> None:
        super().__init__(message)
        self.hosts = hosts

    def __reduce__(self) -> tuple:
        return type(self), (self.hosts, str(self))


class ReadRootsNotGranted(ScrapesmithError):
    """A program declares folders to read that the caller did not grant; only the caller can grant them."""

    def __init__(self, roots: list[str], message: str) -> None:
        super().__init__(message)
        self.roots = roots

    def __reduce__(self) -> tuple:
        return type(self), (self.roots, str(self))


def undeclared_hosts(declared: list[str], allow_hosts: list[str]) -> list[str]:
    """The hosts a program declares that the run does not allow (``host`` allows every port of it)."""
    allowed = {h.strip().lower() for h in allow_hosts}
    return [h for h in declared if h.lower() not in allowed and h.lower().rpartition(":")[0] not in allowed]


def ungranted_roots(declared: list[str], allow_read: list[str]) -> list[str]:
    """The roots a program declares that lie inside none of the paths the user lets it read."""
    granted = [os.path.realpath(os.path.expanduser(p)) for p in allow_read]
    return [r for r in declared if not any(is_within(os.path.realpath(r), g) for g in granted)]


def check_runnable(program: Path, allow_hosts: list[str], allow_read: list[str] | None = None) -> list[str]:
    """Refuse a missing program, or one declaring ``ALLOW_HOSTS`` the run does not allow or ``READ_ROOTS``
    the user did not let it read, or roots gone from the disk (one line each). Returns the roots to mount."""
    if not Path(program).is_file():
        raise ScrapesmithError(f"{program}: no such program")
    missing = undeclared_hosts(declared_hosts(program), allow_hosts)
    if missing:
        raise HostsNotAllowed(missing, f"{program} declares ALLOW_HOSTS {', '.join(missing)}, which this run does "
                              "not allow; a program cannot allow itself hosts")
    roots = declared_roots(program)
    if not all(os.path.isabs(root) for root in roots):
        raise ScrapesmithError(f"{program}: READ_ROOTS must be absolute paths")
    ungranted = ungranted_roots(roots, allow_read or [])
    if ungranted:
        raise ReadRootsNotGranted(ungranted, f"{program} declares READ_ROOTS {', '.join(ungranted)}, which this run "
                                  "may not read; a program cannot grant itself files")
    gone = [root for root in roots if not os.path.exists(root)]
    if gone:
        raise ScrapesmithError(f"{program} reads pages from {', '.join(gone)}, which no longer exists")
    return roots


def run_program_file(program: Path, allow_hosts: list[str] | None = None,
                     limits: SandboxLimits | None = None, out_dir: Path | None = None,
                     allow_read: list[str] | None = None) -> SandboxResult:
    """Run a collection program in the sandbox, writing into ``out_dir`` (default: beside the program).

    The program reaches exactly ``allow_hosts`` (the caller's ``--allow-host`` and settings). The hosts it
    declares in ``ALLOW_HOSTS`` are only checked against those: a program cannot allow itself a host.
    Likewise the local roots it declares in ``READ_ROOTS`` are mounted read-only only when they lie inside
    ``allow_read`` (the caller's ``--allow-read``); a program cannot grant itself files.
    Interrupted (Ctrl-C, SIGTERM), the sandbox is killed, the interruption is recorded in ``out_dir``
    (``rerun.run.json``; rows so far stay in ``dataset.partial.jsonl``) and the interrupt goes on.
    """
    program = Path(program)
    hosts = list(allow_hosts or [])
    roots = check_runnable(program, hosts, allow_read)
    run_dir = Path(out_dir or program.parent)
    started = time.monotonic()
    try:
        return run_in_sandbox(program, run_dir, hosts, limits, read_roots=roots)
    except KeyboardInterrupt:
        save_interrupted(program, time.monotonic() - started, run_dir)
        raise


def save_interrupted(program: Path, seconds: float, run_dir: Path | None = None) -> Path:
    """Record an interrupted rerun (``rerun.run.json`` in ``run_dir``, marked ``interrupted``) and its report."""
    program = Path(program)
    run_dir = Path(run_dir or program.parent)
    partial = run_dir / PARTIAL_DATASET
    try:
        rows, note = count_lines(partial), ""
    except UnsafeOutput as exc:
        rows, note = 0, str(exc)
    kept = partial.is_file() and not note
    record = {
        "kind": "run", "title": f"rerun of {program} (INTERRUPTED)", "dataset": PARTIAL_DATASET if kept else "",
        "program": str(program.resolve()), "seconds": seconds, "interrupted": True, "partial_rows": rows,
        "notes": [f"interrupted: the sandbox was stopped; {rows} rows so far in {PARTIAL_DATASET} (partial)",
                  *([note] if note else [])],
        "failures": [], "ledger": {"totals": {"calls": 0}, "by_stage": {}},
    }
    return _write_record(run_dir, record)


class RerunInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a rerun: the sandbox is stopped and the rerun directory marked interrupted."""

    def __init__(self, rerun_dir: Path) -> None:
        super().__init__(str(rerun_dir))
        self.rerun_dir = rerun_dir


def rerun_program(program: Path, allow_hosts: list[str] | None = None, output: Path | None = None,
                  limits: SandboxLimits | None = None, allow_read: list[str] | None = None) -> Rerun:
    """``scrapesmith run runs/X/program.py [-o OUT]``: recollect with no model, never over the original run.

    The rerun writes into ``runs/X/reruns/<time>/`` (its dataset, failures and report), so the collection's
    own ``dataset.csv`` is kept; with ``output`` the rows are also written there, in its format. A run that
    fails — the program's error or a limit, or a dataset the parent cannot read (not a regular file, too
    large, not UTF-8, a broken CSV) — is recorded marked failed, then raised as one line.
    """
    program = Path(program)
    limits = limits or SandboxLimits()
    check_runnable(program, list(allow_hosts or []), allow_read)  # before any directory is made
    rerun_dir = program.parent / "reruns" / datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    rerun_dir.mkdir(parents=True)
    try:
        result = run_program_file(program, allow_hosts, limits, out_dir=rerun_dir, allow_read=allow_read)
    except KeyboardInterrupt:
        raise RerunInterrupted(rerun_dir) from None
    produced = rerun_dir / "dataset.csv"
    failure = None if result.ok else f"{program}: {result.summary()}"
    rows = 0
    limit = limits.dataset_mb * 2**20
    if failure is None and os.path.lexists(produced):
        try:
            rows = scan_dataset(produced, limit)  # streamed: past a limit, one line
        except UnsafeOutput as exc:
            failure = f"{program}: {exc}"
    failures = read_failures_bounded(rerun_dir / FAILURES_FILE)
    if failure is None and failures[2]:
        failure = f"{program}: {failures[1][0]}"
    report = save_rerun(program, result, rerun_dir, failure, failures[:2])
    if failure is not None:
        raise ScrapesmithError(f"{failure} (marked failed in {rerun_dir / 'rerun.run.json'})")
    dataset = produced if produced.is_file() else None
    if dataset is not None and output is not None:
        dataset, rows = write_row_chunks(lambda: dataset_chunks(produced, limit), output)
    return Rerun(result, rerun_dir, dataset, rows, report)


def save_rerun(program: Path, result: SandboxResult, rerun_dir: Path | None = None,
               failure: str | None = None,
               failures_read: tuple[list[dict[str, Any]], list[str]] | None = None) -> Path:
    """Record a rerun (``rerun.run.json`` in ``rerun_dir``, default beside the program) and draw its report.

    The run directory's ``report.html`` stays the report of the original collection; a rerun's figures
    (rows now, time, per-item failures; never a model call) go to ``rerun.report.html``. A ``failure``
    (one line) marks the record failed, and its dataset is left out of it.
    """
    program = Path(program)
    rerun_dir = Path(rerun_dir or program.parent)
    failures, unread = failures_read or read_failures(rerun_dir / FAILURES_FILE)
    dataset = "dataset.csv" if failure is None and (rerun_dir / "dataset.csv").is_file() else ""
    record = {
        "kind": "run", "title": f"rerun of {program}" + (" (FAILED)" if failure else ""), "dataset": dataset,
        "program": str(program.resolve()), "seconds": result.seconds, "failed": failure is not None,
        "notes": [f"sandbox: {result.reason}, exit status {result.exit_status}", *([failure] if failure else []),
                  *result.notes, *unread],
        "failures": failures, "ledger": {"totals": {"calls": 0}, "by_stage": {}},
    }
    return _write_record(rerun_dir, record)


def _write_record(run_dir: Path, record: dict[str, Any]) -> Path:
    """``rerun.run.json`` and its report, in ``run_dir``: the parent's folder, which the program never wrote."""
    path = run_dir / "rerun.run.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return write_report(path)
