"""What a collection knows of each column it forged: the field scraper behind it, its confidence and doubt.

A ``html_list`` program's detail pass is a :class:`~scrapesmith.induce.ScraperSpec` induced by the same
engine as ``induce`` (``lists.detail``), so each of its fields carries the same confidence and, when the
engine is unsure, the same doubt ("same text on every seed page"). They are read back from the program the
run wrote (its ``LIST_PROGRAM``, a plain literal) and kept in ``result.json`` under ``fields``, with each
column's name in the dataset (``FIELD_MAP``), so a doubted value is never shown as if it were known.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any


def _literals(program: Path) -> dict[str, Any]:
    """The program's top-level assignments that are plain literals (the rest are skipped)."""
    try:
        tree = ast.parse(program.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, RecursionError):
                continue
    return found


def _scraper_fields(step: Any) -> list[dict[str, Any]]:
    """The field specs of every ``ScrapeFields`` step in a list program's steps (nested loops included)."""
    found: list[dict[str, Any]] = []
    if isinstance(step, dict):
        if step.get("action") == "ScrapeFields" and isinstance(step.get("spec"), dict):
            found += [f for f in step["spec"].get("fields", []) if isinstance(f, dict)]
        for value in step.values():
            found += _scraper_fields(value)
    elif isinstance(step, list):
        for value in step:
            found += _scraper_fields(value)
    return found


def field_confidence(program: Path) -> list[dict[str, Any]]:
    """Per forged field of the run's program: its dataset column, confidence, doubt and selector."""
    literals = _literals(program)
    list_program = literals.get("LIST_PROGRAM")
    if not isinstance(list_program, dict):
        return []
    columns = {field: column for column, field in (literals.get("FIELD_MAP") or {}).items()}
    return [{"field": spec["name"], "column": columns.get(spec["name"], spec["name"]),
             "confidence": spec.get("confidence"), "doubt": spec.get("doubt"),
             "selector": " ; ".join(spec.get("actions") or [])}
            for spec in _scraper_fields(list_program.get("steps", [])) if spec.get("name")]


def unsure_lines(fields: list[dict[str, Any]]) -> list[str]:
    """``unsure: author: same text on every seed page (confidence 0.31)``, one per doubted field."""
    return [f"unsure: {f['column']}: {f['doubt']}"
            + (f" (confidence {f['confidence']:.2f})" if f.get("confidence") is not None else "")
            for f in fields if f.get("doubt")]
