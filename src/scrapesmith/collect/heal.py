"""Heal a collection program (``program.py`` from ``collect``) whose site changed, as a new version beside it.

A collection program is a template filled with data; what a redesign breaks is its extraction — for the
``html_list`` template, the list program in ``LIST_PROGRAM`` (CSS selectors over one layout). Its sources,
field map, filters and schema do not change with the layout. So heal records only that list program again
(:func:`scrapesmith.lists.heal.heal_list_program`: the same heuristic recorder, each column pinned to the
element holding a value it read before), with the collection's own dataset as the kept output: its rows,
mapped back to the list's columns, are the profile the new list is checked against and the values that pin
its columns. The new program is ``program.v2.py`` in the same run directory (its rerun is checked against the
same dataset); ``program.py`` is never touched. No model.

Table and REST programs find their table by its headers and their records by a key on every run, so they
have no recorded selectors to mend: heal says so in one line.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from pprint import pformat
from typing import Any

from scrapesmith.collect.runtime import DATASET_FILES
from scrapesmith.drift import profile_rows
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import kind_of
from scrapesmith.io import read_rows
from scrapesmith.lists import ListHeal, ListProgram, RuntimeFactory, heal_list_program

KEPT_ROWS = 200
"""Rows of the collection's dataset kept as the list's seed values (the profile samples as many)."""


class CollectionHealError(ScrapesmithError):
    """A collection program that cannot be healed (no list program in it, no dataset beside it)."""


@dataclass
class CollectionHeal:
    """The list program healed inside a collection program, and the new program's text."""

    heal: ListHeal
    old: ListProgram
    text: str

    @property
    def healed(self) -> bool:
        return self.heal.needed and self.heal.healed


def _assignments(tree: ast.Module) -> dict[str, ast.Assign]:
    return {node.targets[0].id: node for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)}


def _literal(node: ast.Assign | None, name: str, program: Path) -> Any:
    if node is None:
        raise CollectionHealError(f"{program}: no {name} in it")
    try:
        return ast.literal_eval(node.value)
    except ValueError:
        raise CollectionHealError(f"{program}: its {name} is not a plain value; was it edited by hand?") from None


def kept_rows(program: Path, field_map: dict[str, str]) -> list[dict[str, Any]]:
    """The collection's own dataset (the program's forged output), its columns renamed back to the list's."""
    dataset = next((program.parent / name for name in DATASET_FILES if (program.parent / name).is_file()), None)
    if dataset is None:
        raise CollectionHealError(f"{program}: no dataset beside it, so no values to heal from")
    return [{column: row.get(field) for field, column in field_map.items()}
            for row in read_rows(dataset, limit=KEPT_ROWS)]


def heal_collection_program(program: Path, make_runtime: RuntimeFactory) -> CollectionHeal:
    """Record the list program inside ``program`` again on its first source as it is now, when its replay
    there drifted from the collection's dataset; return the new program text (written by the caller)."""
    text = Path(program).read_text(encoding="utf-8")
    nodes = _assignments(ast.parse(text))
    if "LIST_PROGRAM" not in nodes:
        raise CollectionHealError(f"{program}: not a list program (template html_table or rest): it finds its "
                                  "table or records afresh on every run, so there are no selectors to mend")
    field_map: dict[str, str] = _literal(nodes.get("FIELD_MAP"), "FIELD_MAP", program)
    sources: list[dict[str, str]] = _literal(nodes.get("SOURCES"), "SOURCES", program)
    old = ListProgram.model_validate(_literal(nodes["LIST_PROGRAM"], "LIST_PROGRAM", program))
    columns = [c for c in old.columns if c in field_map.values()]
    profile = profile_rows(kept_rows(program, field_map), columns, kind_of, seed=True)
    result = heal_list_program(old.model_copy(update={"profile": profile}), make_runtime,
                               start_url=sources[0]["url"] if sources else None)
    new = result.program.model_copy(update={"profile": None})
    node = nodes["LIST_PROGRAM"]
    lines = text.splitlines(keepends=True)
    replaced = (f"# healed from {Path(program).name}: LIST_PROGRAM recorded again by `scrapesmith heal`\n"
                f"LIST_PROGRAM = {pformat(json.loads(new.to_json()), width=110, sort_dicts=False)}\n")
    new_text = "".join([*lines[: node.lineno - 1], replaced, *lines[node.end_lineno or node.lineno:]])
    compile(new_text, "program.py", "exec")
    return CollectionHeal(result, old, new_text)
