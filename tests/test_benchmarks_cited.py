"""Every result file BENCHMARKS.md cites is in ``bench/results/``, and that folder keeps nothing else but the
files the docs cite and its README (issue 49: the journal keeps the figures of the runs that went)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
NAME = r"[a-z0-9][a-z0-9_.{},*/-]*"
#: ``bench/results/NAME`` or a bare result name (lower case with a hyphen: ``swde-session37-heuristic.json``);
#: placeholders (``OUT.json``, ``after-N.json``, ``ablation-{…}``) are not names of files
CITATION = re.compile(rf"(?<![\w.-])bench/results/({NAME})(?![\w-]|\.\w)"
                      rf"|(?<![\w.-])({NAME}-{NAME}\.(?:json|jsonl|txt|csv))(?![\w]|\.gz)")
FILE = re.compile(r"\.(?:json|jsonl|txt|csv|md)$")


def expand(name: str) -> list[str]:
    """``a-{b,c}.json`` -> ``a-b.json``, ``a-c.json`` (nested and repeated braces too)."""
    brace = re.search(r"\{([^{}]*)\}", name)
    if brace is None:
        return [name]
    return [full for choice in brace.group(1).split(",")
            for full in expand(name[:brace.start()] + choice + name[brace.end():])]


def result_files() -> list[str]:
    return sorted(str(path.relative_to(RESULTS)) for path in RESULTS.rglob("*") if path.is_file())


def cited(text: str, files: list[str]) -> dict[str, list[str]]:
    """Each name ``text`` cites, with the result files it stands for (a bare name may sit in a sub-folder;
    a folder stands for everything in it)."""
    found: dict[str, list[str]] = {}
    for match in CITATION.finditer(text):
        for name in expand(match.group(1) or match.group(2)):
            if not FILE.search(name):  # a folder: ``bench/results/workflows-issue31d/default``
                found[name] = [f for f in files if f.startswith(name.rstrip("/") + "/")]
            else:
                found[name] = [f for f in files if fnmatch.fnmatch(f, name) or fnmatch.fnmatch(f, "*/" + name)]
    return found


def citing_texts() -> list[Path]:
    return [ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_result_file_benchmarks_md_cites_is_there() -> None:
    files = result_files()
    names = cited((ROOT / "BENCHMARKS.md").read_text(encoding="utf-8"), files)
    assert len(names) > 50
    assert sorted(name for name, matching in names.items() if not matching) == []


def test_a_missing_file_is_caught() -> None:
    files = result_files()
    text = "rerun: `--json bench/results/swde-issue99-gone.json`; before `nexteval-{gone,dom}-x.json`"
    assert cited(text, files) == {"swde-issue99-gone.json": [], "nexteval-gone-x.json": [],
                                  "nexteval-dom-x.json": []}


def test_results_keeps_only_what_the_docs_cite() -> None:
    files = result_files()
    kept = {"README.md"}
    for path in citing_texts():
        for matching in cited(path.read_text(encoding="utf-8"), files).values():
            kept.update(matching)
    assert sorted(set(files) - kept) == []
