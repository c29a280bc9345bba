"""Every bad input a user can hand in is one line and the right exit status, found before any work.

Usage mistakes (a bad option value, an empty goal, an output format we do not write) exit 2; a bad file
(binary, UTF-16, nested past reason, the wrong kind of JSON, a regex that does not compile) or a bad
setting exits 1. Each case below is a finding of issue 19.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.cli import main


def run_cli(capsys, *args: str) -> tuple[int, str]:
    """``scrapesmith ARGS`` in this process (fast); returns the exit status and the one error line."""
    saved = sys.argv
    sys.argv = ["scrapesmith", *args]
    try:
        with pytest.raises(SystemExit) as ended:
            main()
    finally:
        sys.argv = saved
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ")
    return ended.value.code, lines[0]


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_text("<html><body><h1>Title</h1><p class='price'>12</p></body></html>", encoding="utf-8")
    return path


@pytest.mark.parametrize(("args", "says"), [
    (("fetch", "http://example.test/", "--timeout", "-1"), "'--timeout': -1.0 is not a finite number"),
    (("fetch", "http://example.test/", "--timeout", "nan"), "nan is not a finite number"),
    (("lists", "http://example.test/", "--goal", "g", "--columns", "a", "--delay", "inf"), "'--delay'"),
    (("insta", "export", ".", "-o", "x.jsonl", "--min-success", "2"), "'--min-success'"),
    (("induce", "page.html", "--field", "title="), "'title=': use NAME=INSTRUCTION"),
    (("lists", "http://example.test/", "--goal", "", "--columns", "a"), "'--goal': must not be empty"),
    (("lists", "http://example.test/", "--goal", "  ", "--columns", "a"), "must not be empty"),
    (("collect", ""), "must not be empty"),
    (("lists", "http://example.test/", "--goal", "g", "--columns", "a", "-o", "out.txt"), "has no table format"),
    (("run", "spec.json", "page.html", "-o", "out.txt"), "has no table format"),
    (("run", "spec.json"), "needs pages and -o OUTPUT"),
    (("induce", "page.html", "--field", "a", "--seeds", "0"), "'--seeds'"),
])
def test_usage_mistakes_exit_2_in_one_line(capsys, tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    status, line = run_cli(capsys, *args)
    assert status == 2
    assert says in line
    assert not list(tmp_path.iterdir())  # refused before any work: nothing written


SPECS = {
    "binary.json": b"\x00\x01\x02\xff",
    "utf16.json": json.dumps({"fields": []}).encode("utf-16"),
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "other.json": b'{"a": 1}',
    "bad-regex.json": json.dumps({"fields": [{"name": "x", "actions": ["//p"], "post": {"regex": "("}}]}).encode(),
    "wrong-kind.json": json.dumps({"kind": "list", "fields": []}).encode(),
}
SAYS = {
    "binary.json": "is not a text spec (binary or UTF-16)",
    "utf16.json": "is not a text spec (binary or UTF-16)",
    "deep.json": "nested too deeply",
    "other.json": "not a scraper spec (no 'fields' key",
    "bad-regex.json": "bad regex '('",
    "wrong-kind.json": "not a scraper spec (its kind is 'list'",
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_bad_spec_file_is_one_line_and_exit_1_before_any_page_is_read(capsys, tmp_path, page, name):
    spec = tmp_path / name
    spec.write_bytes(SPECS[name])
    output = tmp_path / "out.csv"
    status, line = run_cli(capsys, "run", str(spec), str(page), "-o", str(output))
    assert status == 1
    assert SAYS[name] in line
    assert not output.exists()


@pytest.mark.parametrize("name", ["binary.json", "utf16.json", "deep.json", "other.json"])
def test_a_bad_list_program_is_one_line_and_exit_1(capsys, tmp_path, name):
    program = tmp_path / name
    program.write_bytes(SPECS[name])
    status, line = run_cli(capsys, "replay", str(program), "-o", str(tmp_path / "rows.csv"))
    assert status == 1
    assert ("list program" in line or "not a text list program" in line), line


def test_a_spec_list_program_is_not_a_list_program(capsys, tmp_path):
    program = tmp_path / "spec.json"
    program.write_text(json.dumps({"kind": "scraper", "fields": []}))
    status, line = run_cli(capsys, "replay", str(program))
    assert status == 1
    assert "not a list program (its kind is 'scraper'" in line


def test_a_catastrophic_regex_is_bounded_in_time():
    """The issue's ``^(a+)+$`` the regex package already answers at once; ``^(a|aa)+$`` on 5,000 characters
    it does not, so the time bound has to stop it (its check is coarse on a loaded machine, hence 15 s)."""
    import time

    from scrapesmith.artifacts import RegexTimeout
    from scrapesmith.induce.execute import post_process
    from scrapesmith.induce.views import PostProcess

    assert post_process(["a" * 30 + "!"], PostProcess(regex=r"^(a+)+$")) == []
    started = time.monotonic()
    with pytest.raises(RegexTimeout, match="ran over 1 s"):
        post_process(["a" * 5000 + "!"], PostProcess(regex=r"^(a|aa)+$"))
    assert time.monotonic() - started < 15


def test_warc_on_a_full_disk_is_one_line_naming_the_file(capsys, page):
    status, line = run_cli(capsys, "fetch", str(page), "--warc", "/dev/full")
    assert status == 1
    assert "cannot write the WARC file /dev/full" in line


def test_allow_hosts_in_a_program_that_is_not_a_literal_list_is_one_line(capsys, tmp_path):
    program = tmp_path / "program.py"
    program.write_text("ALLOW_HOSTS = list(['127.0.0.1'])\n")
    status, line = run_cli(capsys, "run", str(program))
    assert status == 1
    assert "ALLOW_HOSTS must be a plain list of host strings" in line


def _subprocess(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_bad_setting_is_one_line_naming_the_variable(tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<p>x</p>")
    done = _subprocess({"SCRAPESMITH_POLITENESS_DELAY": "abc"}, "fetch", str(page))
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == [("error: bad setting SCRAPESMITH_POLITENESS_DELAY='abc': Input should be a valid number, "
                      "unable to parse string as a number")]


@pytest.mark.parametrize("value", ['["127.0.0.1", "10.0.0.1:8000"]', "127.0.0.1, 10.0.0.1:8000"])
def test_both_forms_of_allow_hosts_work(monkeypatch, value):
    from scrapesmith.config import read_settings

    monkeypatch.setenv("SCRAPESMITH_ALLOW_HOSTS", value)
    assert read_settings().allow_hosts == ["127.0.0.1", "10.0.0.1:8000"]


def test_a_missing_file_in_a_batch_is_an_error_row_and_the_batch_goes_on(tmp_path, page):
    from scrapesmith.induce.views import FieldSpec, ScraperSpec
    from scrapesmith.io import read_rows

    spec = ScraperSpec(fields=[FieldSpec(name="title", actions=["//h1/text()"])]).save(tmp_path / "spec.json")
    output = tmp_path / "out.csv"
    done = _subprocess({}, "run", str(spec), str(page), str(tmp_path / "missing.html"), str(page), "-o", str(output))
    assert done.returncode == 0, done.stderr
    rows = read_rows(output)
    assert [row["title"] for row in rows] == ["Title", "", "Title"]
    assert "no such file" in rows[1]["error"]
    assert "1 pages failed" in done.stderr


def test_a_batch_where_every_page_failed_exits_1_and_keeps_its_error_rows(tmp_path, page):
    from scrapesmith.induce.views import FieldSpec, ScraperSpec
    from scrapesmith.io import read_rows

    spec = ScraperSpec(fields=[FieldSpec(name="title", actions=["//h1/text()"])]).save(tmp_path / "spec.json")
    output = tmp_path / "out.csv"
    missing = [str(tmp_path / "gone-1.html"), str(tmp_path / "gone-2.html")]
    done = _subprocess({}, "run", str(spec), *missing, "-o", str(output))
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: all 2 pages failed (first: ")
    assert "no such file" in lines[0] and str(output) in done.stderr.replace("\n", "")
    rows = read_rows(output)
    assert [row["source_url"] for row in rows] == missing
    assert all("no such file" in row["error"] and row["title"] == "" for row in rows)
    assert (tmp_path / "out.report.html").exists() and (tmp_path / "out.run.json").exists()

    one_good = _subprocess({}, "run", str(spec), str(page), missing[0], "-o", str(output))
    assert one_good.returncode == 0, one_good.stderr
    assert "1 rows written" in one_good.stderr and "1 pages failed" in one_good.stderr
    assert [row["error"] != "" for row in read_rows(output)] == [False, True]
