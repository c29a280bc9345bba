"""The drift view of report.html draws the forged profile beside the new one for every kind of program: a
list program's items per start page as a row of its own, and a collection program, whose forged profile is
kept only in the check (its dataset's), not in ``program.py``."""

from __future__ import annotations

import json

from lxml import html

from scrapesmith.drift import compare, profile_rows
from scrapesmith.induce import kind_of
from scrapesmith.io import write_rows
from scrapesmith.report import write_report

FORGED = [{"title": f"Job {i}", "salary": f"${50 + i},000"} for i in range(24)]


def _report(tmp_path, rows, record_extra, items_per_page=()):
    forged = profile_rows(FORGED, ["title", "salary"], kind_of, seed=True, items_per_page=[24, 24])
    write_rows(rows, tmp_path / "out.csv")
    check = compare(forged, rows, kind_of, items_per_page=items_per_page)
    record = {"kind": "replay", "title": "jobs", "dataset": "out.csv", **record_extra,
              "drift": check.model_dump(mode="json")}
    (tmp_path / "out.run.json").write_text(json.dumps(record), encoding="utf-8")
    return html.fromstring(write_report(tmp_path / "out.run.json").read_text(encoding="utf-8"))


def test_a_list_run_draws_items_per_page_forged_beside_now(tmp_path):
    rows = [{"title": f"Job {i}", "salary": ""} for i in range(3)]
    page = _report(tmp_path, rows, {}, items_per_page=[3])
    [items] = page.xpath('//table[@id="profile"]//tr[@data-column="(items per page)"]')
    assert "items per page 3, was 24±0" in items.text_content()
    [chart] = items.xpath('.//svg[@class="histogram"]')
    assert "items per page 3–24" in chart.get("aria-label")
    [salary] = page.xpath('//table[@id="profile"]//tr[@data-column="salary"]')
    assert salary.xpath('.//svg[@class="fill"]/rect/title/text()') == ["forged: 24 of 24 filled",
                                                                         "this run: 0 of 3 filled"]


def test_a_collection_rerun_draws_the_forged_profile_its_program_file_lacks(tmp_path):
    (tmp_path / "program.py").write_text("LIST_PROGRAM = None\n", encoding="utf-8")
    page = _report(tmp_path, FORGED[:8], {"program": "program.py"})
    for name in ("title", "salary"):
        [row] = page.xpath(f'//table[@id="profile"]//tr[@data-column="{name}"]')
        assert row.xpath('.//svg[@class="fill"]/rect/title/text()') == ["forged: 24 of 24 filled",
                                                                      "this run: 8 of 8 filled"]
        assert len(row.xpath('.//svg[@class="histogram"]')) >= 1
    assert "No drift" in page.xpath('//p[@id="drift"]')[0].text_content()
