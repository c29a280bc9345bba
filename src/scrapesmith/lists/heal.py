"""Heal a list program whose site changed: record it again with the engine that recorded it, checked
against what it kept. No model.

A list program's selectors are CSS over one page's layout; its goal and columns are not. So the recorder
runs again on the start page as it is now (the heuristic path: list evidence, column actions, the detail
pass with the first item's kept values as examples, as ``--example`` pins them); each text column is then
pointed at the element in the list that holds one of the values it read before, and the new program is
accepted only when its replay looks like the old profile again (items per page, fill, kinds, lengths) —
and it says how many of the rows the program read when it was recorded are read again. The new version is
saved beside the old; the old one is never overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from scrapesmith.drift import DriftReport, cell_text, compare
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import kind_of, normalize_space
from scrapesmith.lists.dsl import Action, EnterList, SaveText, describe
from scrapesmith.lists.profile import items_per_page
from scrapesmith.lists.record import record_heuristic
from scrapesmith.lists.replay import replay
from scrapesmith.lists.runtime import RuntimeFactory
from scrapesmith.lists.selectors import field_selectors, select_in
from scrapesmith.lists.views import ListProgram


class ListHealError(ScrapesmithError):
    """A list program that cannot be healed (no profile)."""


@dataclass
class ListHeal:
    program: ListProgram
    validation: DriftReport
    rows_found_again: int
    rows_kept: int
    needed: bool = True  # False: the old program's replay still looks like its profile; nothing was recorded

    @property
    def healed(self) -> bool:
        return not self.validation.drifted

    def diff(self, old: ListProgram) -> list[str]:
        """The steps that changed, ``-`` old and ``+`` new."""
        before = [describe(step) for step in old.steps]
        after = [describe(step) for step in self.program.steps]
        return [*(f"- {s}" for s in before if s not in after), *(f"+ {s}" for s in after if s not in before)]


def _seed_rows(program: ListProgram) -> list[tuple[str, ...]]:
    """The rows the program read when it was recorded, from the values its profile kept."""
    columns = program.profile.columns if program.profile else []
    count = max((len(c.seed_values) for c in columns), default=0)
    return [tuple(c.seed_values[i][0] if i < len(c.seed_values) and c.seed_values[i] else "" for c in columns)
            for i in range(count)]


def heal_list_program(program: ListProgram, make_runtime: RuntimeFactory, start_url: str | None = None,
                      max_pages: int | None = None) -> ListHeal:
    """Record ``program`` again on its start page as it is now, when its own replay there drifted; replay the
    new version and check it against the old profile."""
    if program.profile is None:
        raise ListHealError("this list program has no output profile (saved before profiles): record it again "
                            "with `scrapesmith lists`")
    seeds = _seed_rows(program)
    names = [c.name for c in program.profile.columns]
    url = start_url or program.start_url
    with make_runtime() as runtime:
        current = replay(program, runtime, start_url=url, max_pages=max_pages)
    check = compare(program.profile, current.rows, kind_of, items_per_page=items_per_page(current))
    if not check.drifted:
        return ListHeal(program, check, _found_again(current.rows, names, seeds), len(seeds), needed=False)
    examples = {name: value for name, value in zip(names, seeds[0], strict=True) if value} if seeds else {}
    with make_runtime() as runtime:
        recording = record_heuristic(runtime, url, program.goal, list(program.columns), examples)
        steps = _pinned_columns(recording.program.steps, runtime.open(url), program)
    new = recording.program.model_copy(update={
        "steps": steps, "start_url": program.start_url, "column_types": dict(program.column_types),
        "profile": program.profile, "notes": [*recording.notes, f"healed from program {program.program_id}"]})
    with make_runtime() as runtime:
        result = replay(new, runtime, start_url=url, max_pages=max_pages)
    validation = compare(program.profile, result.rows, kind_of, items_per_page=items_per_page(result))
    return ListHeal(new, validation, _found_again(result.rows, names, seeds), len(seeds))


def _pinned_columns(steps: list[Action], tree: etree._Element, program: ListProgram) -> list[Action]:
    """The recorded steps with each text column pointed at the element that holds its kept values.

    The recorder chooses a column's element by what it looks like (a heading, a label, a class that reads
    "title"), which a redesign changes; the values the program read before do not change. So in the
    re-found list, a text column goes to the element whose text is one of the values it read, as
    ``--example`` pins a field, when such an element exists; otherwise the recorder's choice stays."""
    enter = next((step for step in steps if isinstance(step, EnterList)), None)
    first = enter.elements[0] if enter is not None and enter.elements else None
    items = select_in(tree, first) if isinstance(first, str) else []
    if not items or program.profile is None:
        return steps
    pinned = []
    for step in steps:
        column = program.profile.column(step.column) if isinstance(step, SaveText) else None
        values = {v[0] for v in column.seed_values if v} if column is not None else set()
        target = next(((item, element) for item in items for element in item.iter(etree.Element)
                       if values and normalize_space(element.text_content()) in values), None)
        selector = field_selectors(target[1], target[0], [i for i in items if i is not target[0]]) if target else ""
        pinned.append(step.model_copy(update={"element": selector}) if selector else step)
    return pinned


def _found_again(rows: list[dict], names: list[str], seeds: list[tuple[str, ...]]) -> int:
    read = {tuple(cell_text(row.get(name)) for name in names) for row in rows}
    return sum(row in read for row in seeds)
