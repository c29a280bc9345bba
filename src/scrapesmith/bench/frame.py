"""The benchmark frame: every benchmark returns a :class:`BenchResult`; :func:`report` prints and saves it.

``summary`` holds headline figures under shared snake_case names (``correct_ratio``, ``f1``, ``precision``,
``recall``, ``mean_reward``, ``pages_per_s``, ``rows_per_s``, ``llm_calls``, ``tokens``, ``seconds``), so
results from different benchmarks and runs can be compared by the same keys.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table


def machine_description() -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
    }


@dataclass
class BenchResult:
    name: str
    summary: dict[str, float | int | str]
    cases: list[dict[str, Any]] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=machine_description)
    date: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    command: str = field(default_factory=lambda: " ".join(["scrapesmith", *sys.argv[1:]]))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _fmt(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "; ".join(_fmt(v) for v in value)
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 1000 else f"{value:,.1f}"
    return str(value)


def print_result(result: BenchResult, console: Console | None = None, case_columns: list[str] | None = None) -> None:
    console = console or Console()
    if result.cases and case_columns:
        cases = Table(title=f"{result.name}: cases")
        for column in case_columns:
            cases.add_column(column)
        for case in result.cases:
            cases.add_row(*(_fmt(case.get(column, "")) for column in case_columns))
        console.print(cases)
    summary = Table(title=f"{result.name}: summary")
    summary.add_column("figure")
    summary.add_column("value", justify="right")
    for key, value in result.summary.items():
        summary.add_row(key, _fmt(value))
    console.print(summary)


def report(
    result: BenchResult, json_out: Path | None = None, case_columns: list[str] | None = None
) -> None:
    """Print ``result`` as tables and, when ``json_out`` is given, write it as JSON."""
    print_result(result, case_columns=case_columns)
    if json_out is not None:
        save_json(result, json_out)


def save_json(result: BenchResult, path: Path) -> None:
    """Write ``result`` as indented JSON, creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result.to_json(), indent=2, default=str) + "\n")
