"""A collection ``program.py`` as a program of a scaled run (:mod:`scrapesmith.scale`): every start page one
sandboxed run.

A collection program reads the pages its ``SOURCES`` list names. To run it over many start pages, each
start page gets a copy of the program whose ``SOURCES`` is that page alone (the parent rewrites that one
assignment; nothing else of the program changes), run in the sandbox exactly as ``scrapesmith run
program.py`` runs it, with the same hosts, local roots and limits. So resume, ``--since``, workers and Ray
are the scaled run's, and the sandbox stays what it is.

The run fetches each start page first (robots.txt, validators for ``--since``, a failure recorded before any
sandbox starts); the program then reads it again itself, inside the sandbox, with the rest of what it reads
(later listing pages, detail pages) at its own ``DELAY``: the run's per-host limit covers the start pages.
A start page whose program fails, or whose dataset cannot be read back, is one error row; an item the
program recorded as failed (``failures.json``) is an error row too, so the dataset shows every loss.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapesmith.collect.outputs import UnsafeOutput
from scrapesmith.collect.program import check_runnable
from scrapesmith.collect.readback import dataset_rows, read_failures
from scrapesmith.collect.runtime import FAILURES_FILE
from scrapesmith.collect.sandbox import SandboxLimits, run_in_sandbox
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web import Fetcher, Page


class NotRunnableOnPages(ScrapesmithError):
    """A program that cannot be run over other start pages (it has no plain ``SOURCES`` list)."""


@dataclass(frozen=True)
class _Declared:
    """What the program declares, read without running it."""

    program_id: str
    columns: list[str]
    schema: dict[str, str] | None
    labels: dict[str, str]
    sources: tuple[int, int]  # the lines (1-based, inclusive) of the SOURCES assignment


def _declared(path: Path, text: str) -> _Declared:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        raise ScrapesmithError(f"{path}: not a readable Python program ({exc})") from exc
    values: dict[str, Any] = {}
    lines: dict[str, tuple[int, int]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            try:
                values[name] = ast.literal_eval(node.value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                continue
            lines[name] = (node.lineno, node.end_lineno or node.lineno)
    sources = values.get("SOURCES")
    if "SOURCES" not in lines or not isinstance(sources, list) \
            or not all(isinstance(s, dict) and isinstance(s.get("url"), str) for s in sources):
        raise NotRunnableOnPages(f"{path} has no plain SOURCES list of {{'url': ...}} entries, so it cannot be run "
                                 "over other start pages; run it as it is, without pages")
    label = values.get("LABEL_COLUMN")
    fields = [f for f in values.get("FIELDS") or [] if isinstance(f, str)]
    schema = values.get("SCHEMA") if isinstance(values.get("SCHEMA"), dict) else None
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return _Declared(program_id=f"{values.get('PROGRAM_ID') or 'program'}@{digest}",
                     columns=[*fields, *([label] if isinstance(label, str) else [])], schema=schema or None,
                     labels={s["url"]: str(s.get("label") or "") for s in sources}, sources=lines["SOURCES"])


@dataclass
class CollectionPages:
    """``program`` run in the sandbox once per start page (picklable: it travels to pool and Ray workers).

    ``allow_hosts``, ``allow_read`` and ``limits`` are what ``scrapesmith run program.py`` would give it;
    the program's declared hosts and roots are checked against them once, here, before any work.
    """

    program: Path
    allow_hosts: list[str]
    allow_read: list[str] = field(default_factory=list)
    limits: SandboxLimits = field(default_factory=SandboxLimits)

    def __post_init__(self) -> None:
        self.program = Path(self.program).resolve()
        self.roots = check_runnable(self.program, self.allow_hosts, self.allow_read)
        self.text = self.program.read_text(encoding="utf-8")
        self.declared = _declared(self.program, self.text)

    @property
    def program_id(self) -> str:
        return self.declared.program_id

    @property
    def columns(self) -> list[str]:
        return list(self.declared.columns)

    @property
    def schema(self) -> dict[str, str] | None:
        return self.declared.schema

    def program_for(self, start_url: str) -> str:
        """The program's text with ``SOURCES`` naming ``start_url`` alone (its label if it was a source)."""
        first, last = self.declared.sources
        lines = self.text.splitlines(keepends=True)
        sources = [{"url": start_url, "label": self.declared.labels.get(start_url, "")}]
        return "".join([*lines[:first - 1], f"SOURCES = {json.dumps(sources)}\n", *lines[last:]])

    def rows(self, page: Page, fetcher: Fetcher) -> list[dict[str, Any]]:
        """The rows the program collects from ``page``'s URL, run in the sandbox in a folder of its own."""
        start_url = page.requested_url or page.url
        scratch = Path(tempfile.mkdtemp(prefix="scrapesmith-start-page-"))
        try:
            copy = scratch / self.program.name
            copy.write_text(self.program_for(start_url), encoding="utf-8")
            out = scratch / "out"
            out.mkdir()
            result = run_in_sandbox(copy, out, self.allow_hosts, self.limits, read_roots=self.roots)
            if not result.ok:
                raise ScrapesmithError(f"the program failed on this start page: {result.summary()}")
            produced = out / "dataset.csv"
            try:
                rows = dataset_rows(produced, self.limits.dataset_mb * 2**20) if produced.exists() else []
            except UnsafeOutput as exc:
                raise ScrapesmithError(str(exc).replace(str(scratch), "<start page run>")) from None
            failures, unread = read_failures(out / FAILURES_FILE)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        lost = [{**dict.fromkeys(self.columns), "source_url": failure.get("url") or start_url,
                 "program_id": self.program_id, "error": str(failure.get("error") or "failed")}
                for failure in failures]
        lost += [{**dict.fromkeys(self.columns), "source_url": start_url, "program_id": self.program_id,
                  "error": note} for note in unread]
        return [*({column: value or None for column, value in row.items()} | {"error": None} for row in rows), *lost]
