"""``collect --from`` takes local HTML files, ``file://`` URLs and directories of saved pages (issue 14 item 4).

Real files in ``tmp_path``, the real command line and the real bubblewrap sandbox: the local roots are the
only files the agents and the program read, mounted read-only, recorded in ``program.py`` (``READ_ROOTS``)
and in ``result.json``; a rerun reads them only when the user grants them (``--allow-read``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.collect.seeds import resolve_seeds
from scrapesmith.io import read_rows

TEAMS = [("Cardinals", 12, 3), ("Herons", 11, 4), ("Otters", 9, 6), ("Lynx", 8, 7), ("Bison", 7, 8),
         ("Falcons", 5, 10), ("Moose", 4, 11), ("Wolves", 2, 13)]
INSTRUCTION = "Standings of the 2024 season with columns team, wins and losses"


def _page(title: str, body: str) -> str:
    return (f"<html><head><title>{title}</title></head><body><nav><a href='index.html'>Home</a> "
            f"<a href='about.html'>About</a></nav><main><h1>{title}</h1>{body}</main></body></html>")


def _table(rows) -> str:
    cells = "".join(f"<tr><td><a href='team-{t.lower()}.html'>{t}</a></td><td>{w}</td><td>{lost}</td></tr>"
                    for t, w, lost in rows)
    return f"<table><thead><tr><th>Team</th><th>Wins</th><th>Losses</th></tr></thead><tbody>{cells}</tbody></table>"


def saved_site(root: Path, name: str = "saved") -> Path:
    """Pages saved from a league site: standings over two pages, an index, an about page, an older recap in
    a subdirectory, and two files that are not pages. A secret sits next to the directory, outside it."""
    saved = root / name
    (saved / "archive").mkdir(parents=True)
    (saved / "index.html").write_text(_page("Saved league pages", "<ul><li><a href='standings.html'>Standings</a></li></ul>"))
    (saved / "about.html").write_text(_page("About the league", "<p>A small league of eight teams.</p>"))
    (saved / "standings.html").write_text(_page("2024 season standings", _table(TEAMS[:5]) + (
        "<nav class='pagination'><span class='current'>1</span> <a href='standings-2.html'>2</a> "
        "<a rel='next' class='next' href='standings-2.html'>Next</a></nav>")))
    (saved / "standings-2.html").write_text(_page("2024 season standings, page 2", _table(TEAMS[5:]) + (
        "<nav class='pagination'><a rel='prev' href='standings.html'>Previous</a> <a href='standings.html'>1</a> "
        "<span class='current'>2</span></nav>")))
    (saved / "archive" / "2023.htm").write_text(_page("2023 season recap", "<p>Last year the Herons won.</p>"))
    (saved / "notes.txt").write_text("saved by hand\n")
    (saved / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "secret.txt").write_text("outside the saved pages")
    return saved


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], capture_output=True, text=True, check=False,
                          cwd=cwd, timeout=300)


def _standings(rows: list[dict]) -> list[tuple[str, int, int]]:
    return [(r["team"], int(r["wins"]), int(r["losses"])) for r in rows]


def test_a_directory_seed_is_its_html_files_in_path_order_and_the_rest_is_listed(tmp_path):
    saved = saved_site(tmp_path)
    seeds = resolve_seeds([str(saved)])
    names = ["about.html", "archive/2023.htm", "index.html", "standings-2.html", "standings.html"]
    assert seeds.urls == [(saved / name).as_uri() for name in names]
    assert seeds.roots == [str(saved)] and seeds.scopes == [saved.as_uri() + "/"]
    assert seeds.skipped == [f"{saved / 'logo.png'} (not an HTML page)", f"{saved / 'notes.txt'} (not an HTML page)"]
    assert seeds.summary() == f"local seeds: 5 HTML pages under {saved} (read-only in the sandbox); 2 other files skipped"
    assert resolve_seeds([saved.as_uri()]) == seeds  # a file:// URL of the directory is the directory


def test_a_file_seed_is_that_file_alone_and_links_are_resolved_to_real_paths(tmp_path):
    saved = saved_site(tmp_path)
    (tmp_path / "alias").symlink_to(saved)
    (saved / "escape.html").symlink_to(tmp_path / "secret.txt")
    page = saved / "standings.html"
    for seed in (str(page), page.as_uri(), str(tmp_path / "alias" / "standings.html")):
        resolved = resolve_seeds([seed])
        assert (resolved.urls, resolved.roots) == ([page.as_uri()], [str(page)])
    through_alias = resolve_seeds([str(tmp_path / "alias"), str(page), "http://127.0.0.1:9/list/"])
    assert through_alias.roots == [str(saved)]  # the file is inside the directory: one root
    assert through_alias.urls[-1] == "http://127.0.0.1:9/list/" and through_alias.scopes[-1] == "http://127.0.0.1:9/list/"
    assert f"{saved / 'escape.html'} (links outside the directory)" in through_alias.skipped


@pytest.mark.parametrize(("seed", "message"), [
    ("missing.html", "no such file or directory"),
    ("saved/notes.txt", "not an HTML page"),
    ("ftp://example.org/list/", "unsupported URL scheme 'ftp'"),
    ("empty", "no HTML pages"),
    ("/", "the whole file system is not a seed"),
    ("run/saved", "is inside the run directory"),
])
def test_a_bad_seed_is_one_line_and_nothing_is_written(tmp_path, seed, message):
    saved_site(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "a.txt").write_text("x")
    if seed.startswith("run/"):
        saved_site(tmp_path / "run")
    done = scrapesmith("collect", INSTRUCTION, "--from", seed, "--llm", "none", "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 1 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "run").exists() or {p.name for p in (tmp_path / "run").iterdir()} == {"saved", "secret.txt"}


def test_collect_from_a_directory_of_saved_pages_then_rerun_reading_the_same_place(tmp_path):
    """No model, no start URL: the agents search the directory's pages, the program reads the standings and
    their second page in the sandbox (the directory read-only), and a rerun reads the same directory once
    the user grants it."""
    saved = saved_site(tmp_path)
    done = scrapesmith("collect", INSTRUCTION, "--from", "saved", "--llm", "none", "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = read_rows(tmp_path / "run" / "dataset.csv")
    assert _standings(rows) == TEAMS
    assert {r["source_url"] for r in rows} == {(saved / "standings.html").as_uri(), (saved / "standings-2.html").as_uri()}
    assert "2 files in --from directories skipped" in done.stderr and "logo.png (not an HTML page)" in done.stderr
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["valid"] and result["llm_calls"] == 0 and result["read_roots"] == [str(saved)]
    assert result["skipped_files"] == [f"{saved / 'logo.png'} (not an HTML page)",
                                       f"{saved / 'notes.txt'} (not an HTML page)"]
    assert f"READ_ROOTS = {[str(saved)]!r}" in (tmp_path / "run" / "program.py").read_text()
    assert f"scrapesmith run run/program.py --allow-read {saved}" in done.stderr
    assert f"local pages read (read-only): {saved}" in (tmp_path / "run" / "report.html").read_text()

    refused = scrapesmith("run", "run/program.py", cwd=tmp_path)
    assert refused.returncode == 1 and f"pass --allow-read {saved}" in refused.stderr
    assert not (tmp_path / "run" / "reruns").exists()
    rerun = scrapesmith("run", "run/program.py", "--allow-read", str(tmp_path), "-o", "again.csv", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert _standings(read_rows(tmp_path / "again.csv")) == TEAMS


def test_a_single_file_seed_lets_the_program_read_that_file_only(tmp_path):
    """The root is the file named: its "next" page beside it is not in the sandbox, and saying so is a
    failure of the run (failures.json), not rows silently missing. (A path with a space and an accent; the
    option's old spelling, ``--seed``, hidden from --help, still works.)"""
    saved = saved_site(tmp_path, "saved pages é")
    done = scrapesmith("collect", INSTRUCTION, "--seed", (saved / "standings.html").as_uri(), "--llm", "none",
                       "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [r["team"] for r in read_rows(tmp_path / "run" / "dataset.csv")] == [t for t, _w, _l in TEAMS[:5]]
    [failure] = json.loads((tmp_path / "run" / "failures.json").read_text())
    assert failure["url"] == (saved / "standings-2.html").as_uri() and "outside the local roots" in failure["error"]
    assert json.loads((tmp_path / "run" / "result.json").read_text())["read_roots"] == [str(saved / "standings.html")]
    assert f"--allow-read '{saved / 'standings.html'}'" in done.stderr  # quoted: the path has a space
    rerun = scrapesmith("run", "run/program.py", "--allow-read", str(saved / "standings.html"), "-o", "again.csv",
                        cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert len(read_rows(tmp_path / "again.csv")) == 5


def test_web_seeds_still_need_no_local_root(demo_web, allow, tmp_path):
    done = scrapesmith("collect", "Standings of the 2024 season with columns team, wins and losses",
                       "--from", demo_web.url("/sports/"), "--llm", "none", "--allow-host", allow[0],
                       "--delay", "0", "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "READ_ROOTS = []" in (tmp_path / "run" / "program.py").read_text()
    assert json.loads((tmp_path / "run" / "result.json").read_text())["read_roots"] == []
    assert os.path.getsize(tmp_path / "run" / "dataset.csv") > 0
