"""A numeric column of a dataset with a date column is drawn as a line over time in report.html: its values
in date order, the highest at the top; columns without a date column (or not numeric) get none."""

from __future__ import annotations

import json

from lxml import html

from scrapesmith.io import write_rows
from scrapesmith.report import write_report
from scrapesmith.report.profile import profile_columns

ROWS = [{"day": f"2026-03-{d:02d}", "close": f"{100 + (d % 5) * 3 - (20 if d > 20 else 0)}.50", "ticker": "ACME"}
        for d in (9, 1, 28, 14, 3, 22, 17)]


def test_numeric_columns_get_their_values_in_date_order():
    columns = {c.name: c for c in profile_columns(ROWS)}
    assert columns["close"].series[0] == ("2026-03-01", 103.5) and columns["close"].series[-1][0] == "2026-03-28"
    assert [d for d, _ in columns["close"].series] == sorted(r["day"] for r in ROWS)
    assert columns["ticker"].series == [] and columns["day"].series == []
    assert all(c.series == [] for c in profile_columns([{k: v for k, v in r.items() if k != "day"} for r in ROWS]))


def test_report_draws_the_line_with_the_highest_value_at_the_top(tmp_path):
    write_rows(ROWS, tmp_path / "out.csv")
    (tmp_path / "out.run.json").write_text(json.dumps({"kind": "run", "title": "prices", "dataset": "out.csv"}))
    page = html.fromstring(write_report(tmp_path / "out.run.json").read_text(encoding="utf-8"))
    [line] = page.xpath("//table[@id='columns']//tr[@data-column='close']//svg[@class='timeline']/polyline")
    points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    assert len(points) == len(ROWS) and [x for x, _ in points] == sorted(x for x, _ in points)
    ordered = sorted(ROWS, key=lambda r: r["day"])
    top = min(range(len(points)), key=lambda i: points[i][1])
    assert float(ordered[top]["close"]) == max(float(r["close"]) for r in ROWS)
    assert not page.xpath("//tr[@data-column='ticker']//svg")
