"""The DSL and ``ListProgram`` JSON: round trip, versioning, phases, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.lists.dsl import (
    AnswerQuestion,
    Click,
    EnterList,
    ExitList,
    Finish,
    GoBack,
    SaveLink,
    SaveText,
    TypeInput,
    describe,
)
from scrapesmith.lists.views import ListProgram, ProgramError


def sample_program() -> ListProgram:
    return ListProgram(
        goal="all Design jobs",
        start_url="http://127.0.0.1:1/jobs/",
        columns=["Title", "URL", "Summary", "Team"],
        steps=[
            TypeInput(element="select#team", value="Design"),
            EnterList(elements=["ul.jobs > li"], description="a job", pagination="a[rel=next]"),
            SaveText(element=":scope h3", column="Title", regex=r"^(.*?)\s*\(new\)$"),
            SaveLink(element=":scope a", column="URL"),
            Click(element=":scope a"),
            AnswerQuestion(element="main", column="Summary", question="One-line summary?"),
            GoBack(),
            ExitList(),
            SaveText(element="h1", column="Team"),
            Finish(),
        ],
    )


def test_program_json_round_trip(tmp_path: Path) -> None:
    program = sample_program()
    path = program.save(tmp_path / "prog.json")
    loaded = ListProgram.load(path)
    assert loaded == program
    assert loaded.program_id == program.program_id


def test_program_id_ignores_when_it_was_recorded() -> None:
    program = sample_program()
    later = program.model_copy(update={"recorded_at": "2030-01-01T00:00:00+00:00"})
    assert later.program_id == program.program_id


def test_plan_splits_setup_list_detail_and_after() -> None:
    plan = sample_program().plan()
    assert [type(a).__name__ for a in plan.setup] == ["TypeInput"]
    assert plan.enter is not None and plan.enter.pagination == "a[rel=next]"
    assert [a.column for a in plan.item] == ["Title", "URL"]
    assert plan.detail_link is not None
    assert [a.column for a in plan.detail] == ["Summary"]
    assert [a.column for a in plan.after] == ["Team"]


def test_invalid_programs_give_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProgramError, match="invalid JSON"):
        ListProgram.from_json("{nope")
    with pytest.raises(ProgramError, match="version"):
        ListProgram.from_json('{"version": 9}')
    with pytest.raises(ProgramError, match="steps"):
        ListProgram.from_json(
            '{"goal": "g", "start_url": "u", "columns": ["a"], "steps": [{"action": "Jump"}]}'
        )
    with pytest.raises(ProgramError, match="not found"):
        ListProgram.load(tmp_path / "missing.json")


def test_actions_print_in_the_papers_notation() -> None:
    assert (
        describe(SaveText(element=":scope .title > a", column="Title"))
        == "SaveText(':scope .title > a', 'Title')"
    )
