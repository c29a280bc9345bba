"""The README's quick start on one's own saved pages runs as written (issue 44): each command of its block, in
a folder holding saved real pages — three SWDE book pages and the rest of the site in ``saved/``, later pages
of it after a real redesign (``labels``) in ``redesigned/``, a saved NEXT-EVAL list page as ``list.html`` —
exits as its comment says (``# exit 3``; else 0), and what it promises is there."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.bench.swde import load_groundtruth, read_page
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.io import read_rows

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "../shared/data"
SITE = DATA / "swde" / "book" / "book-amazon"
pytestmark = pytest.mark.skipif(not SITE.is_dir() or not (DATA / "next-eval").is_dir(),
                                reason="shared SWDE / NEXT-EVAL data not present")


def readme_commands() -> list[tuple[list[str], int]]:
    """The commands of the README's saved-pages block, continuation lines joined, with the exit each expects."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*Your own saved pages\*\*.*?```bash\n(.*?)```", text, re.DOTALL)
    assert block is not None, "the README has no saved-pages quick start"
    commands = []
    for line in block.group(1).replace("\\\n", " ").splitlines():
        command, _, comment = line.partition("#")
        expected = re.search(r"exit (\d)", comment)
        commands.append((shlex.split(command)[1:], int(expected.group(1)) if expected else 0))
    return commands


def test_the_readme_quick_start_on_saved_pages_runs_as_written(tmp_path):
    paths = sorted(SITE.glob("*.htm"))[:10]
    (tmp_path / "saved").mkdir()
    (tmp_path / "redesigned").mkdir()
    for path in paths:
        text = read_page(path)
        (tmp_path / "saved" / path.name).write_text(text, encoding="utf-8")
        if path not in paths[:3]:
            (tmp_path / "redesigned" / path.name).write_text(mutate_page(text, "labels", seed=3), encoding="utf-8")
    (tmp_path / "list.html").write_bytes((DATA / "next-eval" / "html" / "1.html").read_bytes())
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    commands = readme_commands()
    assert [args[0] for args, _ in commands] == ["induce", "run", "report", "lists", "run", "heal"]
    for args, expected in commands:
        done = subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == expected, (args, done.stderr)
        assert "Traceback" not in done.stderr and "cannot resolve host" not in done.stderr
    isbn = load_groundtruth(DATA / "swde" / "groundtruth" / "book" / "book-amazon-isbn_13.txt")
    for row in read_rows(tmp_path / "books.csv"):
        assert row["isbn_13"] in isbn[Path(row["source_url"]).stem]
    assert (tmp_path / "books.report.html").is_file() and (tmp_path / "spec.v2.json").is_file()
    assert len(read_rows(tmp_path / "list.csv")) == 25
