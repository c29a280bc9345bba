"""The research folder (``research/``: what we tried, outside the package and the wheel) stays runnable and
stays apart from the product: each script imports what it uses from the package as it is today, explains
itself with ``--help`` and names the journal entry that cites it; nothing under ``src/`` imports it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "research").glob("*.py"))
JOURNAL = ROOT / "docs" / "journal" / "benchmarks.md"
CITED = re.compile(r'^Journal: docs/journal/benchmarks\.md, "(.*)"\.$', re.MULTILINE)


#: a script still in ``bench/`` while its work is under way on another branch (it moves to research/ with the
#: journal entry that cites it)
UNDER_WAY: set[str] = set()


def test_the_research_folder_holds_the_scripts_and_the_root_bench_folder_none() -> None:
    assert len(SCRIPTS) >= 5
    stray = sorted(path.name for path in (ROOT / "bench").glob("*.py"))
    assert stray == [], "scripts go in research/ (with --help and a Journal: line); bench/ keeps results and data"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_research_script_starts_and_explains_itself(script: Path) -> None:
    src = str(ROOT / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_research_script_names_the_journal_entry_that_cites_it(script: Path) -> None:
    cited = CITED.search(script.read_text(encoding="utf-8"))
    assert cited, f"{script.name}: no 'Journal: docs/journal/benchmarks.md, \"<heading>\".' line"
    heading = " ".join(cited.group(1).split())
    headings = {" ".join(line.lstrip("#").split()) for line in JOURNAL.read_text(encoding="utf-8").splitlines()
                if line.startswith("#")}
    assert heading in headings, f"{script.name} cites a journal heading that is not there: {heading}"


def test_nothing_in_the_package_imports_the_research_folder() -> None:
    importers = [path.relative_to(ROOT) for path in (ROOT / "src").rglob("*.py")
                 if re.search(r"^\s*(from|import) (analysis|research)\b", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert importers == []
