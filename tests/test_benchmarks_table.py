"""BENCHMARKS.md's "Current figures" table is read at a glance (issue 49): one line per benchmark with six
short cells — the headline figure, the target, met or not, the date and the command; detail stays in the
benchmark's section."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ["benchmark", "headline", "target", "met", "date", "command"]
MAX_WORDS = 40  # per cell: a headline, not a paragraph (the cells of several hundred words were the issue)


def table_problems(text: str) -> list[str]:
    """What keeps the current-figures table of ``text`` from being one short line per benchmark."""
    if "\n## Current figures\n" not in text:
        return ["no '## Current figures' section"]
    section = text.split("\n## Current figures\n", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split(" | ")]
            for line in section.splitlines() if line.startswith("|")]
    if not rows or rows[0] != COLUMNS:
        return [f"the header is not {' | '.join(COLUMNS)}"]
    problems, seen = [], set()
    for row in rows[2:]:
        name = row[0]
        if len(row) != len(COLUMNS):
            problems.append(f"{name}: {len(row)} cells, not {len(COLUMNS)}")
        if name in seen:
            problems.append(f"{name}: more than one line")
        seen.add(name)
        problems += [f"{name}: the {column} cell has {len(cell.split())} words (at most {MAX_WORDS})"
                     for column, cell in zip(COLUMNS, row, strict=False) if len(cell.split()) > MAX_WORDS]
    if len(rows) < 3:
        problems.append("no benchmark line")
    return problems


def test_the_current_figures_table_is_one_short_line_per_benchmark() -> None:
    text = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert table_problems(text) == []
    assert text.count("\n| [") >= 10  # the table itself was read: a line for each benchmark


def test_a_paragraph_in_a_cell_or_a_second_line_is_caught() -> None:
    header = "## Current figures\n\n| " + " | ".join(COLUMNS) + " |\n|---|---|---|---|---|---|\n"
    short = "| swde | Correct 0.72 | 0.85 | no | 2026-12-06 | `scrapesmith bench swde` |\n"
    long = "| swde | " + "word " * 300 + "| 0.85 | no | 2026-12-06 | `scrapesmith bench swde` |\n"
    assert table_problems("# B\n" + header + short + "\n## Next\n") == []
    assert table_problems("# B\n" + header + long) == ["swde: the headline cell has 300 words (at most 40)"]
    assert table_problems("# B\n" + header + short + short) == ["swde: more than one line"]
