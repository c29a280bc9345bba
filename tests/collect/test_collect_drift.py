"""A collection program's rerun is checked against the dataset it was made with: quiet when the site is as it
was or only redrawn (demo layout versions), the evidence when a column empties; kept in rerun.run.json."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from lxml import html

from scrapesmith.collect import collect
from scrapesmith.collect.drift import check_rerun, record_drift
from scrapesmith.collect.program import rerun_program
from scrapesmith.collect.sandbox import SandboxLimits
from scrapesmith.sites import serve_sites


@pytest.fixture(scope="module")
def standings(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("drift") / "standings"
    with serve_sites(port=0) as web:
        url = web.url("/sports/season/2024/standings.html")
        result = collect(f"Standings at {url} with columns team, wins and losses", llm=None, run_dir=run_dir,
                         allow_hosts=["127.0.0.1"], delay=0)
        assert result.valid
        unchanged = rerun_program(run_dir / "program.py", ["127.0.0.1"], None, SandboxLimits())
    with serve_sites(port=web.port, layout=5):
        redrawn = rerun_program(run_dir / "program.py", ["127.0.0.1"], None, SandboxLimits())
    return unchanged, redrawn


def test_unchanged_and_redrawn_reruns_raise_no_alarm(standings):
    for rerun in standings:
        report = check_rerun(rerun)
        assert report is not None and report.checked and not report.drifted and report.pages == rerun.rows == 8


def test_an_emptied_column_is_drift_and_goes_into_the_record(standings):
    rerun = standings[0]
    produced = rerun.rerun_dir / "dataset.csv"
    with produced.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with produced.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({**row, "wins": ""} for row in rows)
    report = check_rerun(rerun)
    assert [d.evidence for d in report.drifts] == ["wins: 0 of 8 filled, was 8 of 8"]
    page = record_drift(rerun, report)
    record = json.loads((rerun.rerun_dir / "rerun.run.json").read_text())
    assert record["drift"]["drifts"][0]["column"] == "wins" and Path(page).is_file()
    profile = html.fromstring(Path(page).read_text(encoding="utf-8")).xpath('//table[@id="profile"]')[0]
    [wins] = profile.xpath('.//tr[@data-column="wins"]')
    assert wins.xpath('.//svg[@class="fill"]/rect/title/text()') == ["forged: 8 of 8 filled",
                                                                   "this run: 0 of 8 filled"]
