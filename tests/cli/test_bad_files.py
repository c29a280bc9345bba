"""A folder, an empty file, a binary file and a missing file, handed to any command that reads pages or
specs, is one ``error:`` line saying which of the four it is (issue 44): through the real command line.

The page positions take a folder of pages on purpose, so there the folder is one with no pages in it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from scrapesmith.cli import main

SAYS = {"folder": ("folder", "no page files"), "empty": ("is empty",), "binary": ("binary",),
        "missing": ("no such file", "not found")}


def run_cli(capsys, *args: str) -> tuple[int, list[str]]:
    saved = sys.argv
    sys.argv = ["scrapesmith", *args]
    try:
        with pytest.raises(SystemExit) as ended:
            main()
    finally:
        sys.argv = saved
    return ended.value.code, [line for line in capsys.readouterr().err.splitlines() if line.strip()]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "saved"
    folder.mkdir()
    (tmp_path / "empty.html").write_bytes(b"")
    (tmp_path / "binary.html").write_bytes(bytes(range(256)) * 16)
    page = tmp_path / "page.html"
    page.write_text("<html><body><h1>Title</h1><ul>" + "".join(
        f"<li><a href='item{i}.html'>Item {i}</a> <span>{i} EUR</span></li>" for i in range(6))
        + "</ul></body></html>", encoding="utf-8")
    spec = {"kind": "scraper", "fields": [{"name": "title", "actions": ["//h1/text()"]}]}
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    return {"folder": folder, "empty": tmp_path / "empty.html", "binary": tmp_path / "binary.html",
            "missing": tmp_path / "gone.html", "page": page, "spec": tmp_path / "spec.json", "out": tmp_path / "o.csv"}


def _as_spec(files: dict[str, Path], bad: str) -> str:
    """The bad input in a position that takes a spec or program file: a folder, or the file renamed .json."""
    path = files[bad]
    if bad in ("empty", "binary"):
        renamed = path.with_suffix(".json")
        path.rename(renamed)
        return str(renamed)
    return str(path) if bad == "folder" else str(path.with_suffix(".json"))


COMMANDS = {
    "induce seed": lambda f, bad: ["induce", str(f[bad]), "--field", "title=the title", "-o", str(f["out"].with_suffix(".json"))],
    "run spec": lambda f, bad: ["run", _as_spec(f, bad), str(f["page"]), "-o", str(f["out"])],
    "run page": lambda f, bad: ["run", str(f["spec"]), str(f[bad]), "-o", str(f["out"])],
    "lists start page": lambda f, bad: ["lists", str(f[bad]), "--goal", "items", "--columns", "Item",
                                        "--llm", "none", "-o", str(f["out"])],
    "replay program": lambda f, bad: ["replay", _as_spec(f, bad), "-o", str(f["out"])],
    "heal spec": lambda f, bad: ["heal", _as_spec(f, bad)],
    "heal page": lambda f, bad: ["heal", str(f["spec"]), str(f[bad])],
    "report run": lambda f, bad: ["report", str(f[bad])],
    "fetch page": lambda f, bad: ["fetch", str(f[bad])],
    "export program": lambda f, bad: ["export", _as_spec(f, bad), "--to", "python", str(f["out"].with_suffix(".py"))],
    "crawl start page": lambda f, bad: ["crawl", str(f[bad]), "--follow", "a", "-o", str(f["out"].with_suffix(".txt"))],
    "collect from": lambda f, bad: ["collect", "All items with columns title and url", "--from", str(f[bad]),
                                    "--llm", "none", "--run-dir", str(f["out"].with_suffix(".run"))],
}


@pytest.mark.parametrize("bad", sorted(SAYS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_file_is_one_error_line_saying_what_is_wrong(capsys, files, command, bad):
    status, lines = run_cli(capsys, *COMMANDS[command](files, bad))
    assert status != 0, lines
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, lines
    assert any(word in errors[0] for word in SAYS[bad]), errors[0]
    assert "Traceback" not in "\n".join(lines)
