"""Column-to-field mapping by name and by values, for tables, lists and JSON records; an unmapped column is
reported and never filled from a wrong field. Regression: "daily adjusted prices from DATE to DATE with
columns date, adj_open, adj_high, adj_low, adj_close and div_cash" scored F1 0.0."""

from __future__ import annotations

import json

from scrapesmith.collect.mapping import map_columns, name_score, plausible, words
from scrapesmith.collect.program import render_program, run_program_file
from scrapesmith.collect.service import collect
from scrapesmith.collect.views import Blueprint, SourceLink
from scrapesmith.io import read_rows

ADJUSTED = ["date", "adj_open", "adj_high", "adj_low", "adj_close", "div_cash"]


def test_one_name_however_it_is_spelt():
    assert words("adjClose") == words("Adj. Close") == words("adj_close") == words("adjusted close")
    keys = ["Date", "Open", "adjOpen", "Adj. Close", "divCash", "volume"]
    field_map, unmapped = map_columns(["date", "open", "adj_open", "adj_close", "div_cash", "adj_low"], keys)
    assert field_map == {"date": "Date", "open": "Open", "adj_open": "adjOpen", "adj_close": "Adj. Close",
                         "div_cash": "divCash"}
    assert unmapped == ["adj_low"]


def test_a_qualifier_is_another_quantity():
    assert name_score("open", "adj_open") == 0.0 and name_score("points", "opp_points") == 0.0
    assert name_score("points", "points_per_game") == 0.0
    assert 0 < name_score("title", "paper_title") < name_score("title", "title") == 1.0
    assert map_columns(["adj_open"], ["open", "high"]) == ({}, ["adj_open"])


def test_by_values_when_the_column_says_what_it_holds():
    rows = [{"when": "Jan 02, 2024", "name": "A", "page": "/a/1"}, {"when": "Jan 03, 2024", "name": "B",
                                                                    "page": "/a/2"}]
    assert map_columns(["date", "url", "price"], ["when", "name", "page"], rows) == (
        {"date": "when", "url": "page"}, ["price"])
    assert not plausible("date", ["Main", "Findings"]) and plausible("date", ["2024-01-02", ""])


def test_adjusted_prices_by_rest_on_the_heuristic_path(demo_web, allow, tmp_path):
    start, end = "2023-10-24", "2023-12-18"
    url = demo_web.url("/stocks/symbol/QNTM/")
    result = collect(f"Collect QNTM daily adjusted prices from {start} to {end} with columns "
                     f"{', '.join(ADJUSTED[:-1])} and div_cash. Start at {url}", llm=None, run_dir=tmp_path,
                     allow_hosts=allow, delay=0.0)
    truth = [{c: r[c] for c in ADJUSTED} for r in demo_web.sites.truth("stocks")["prices"]
             if r["symbol"] == "QNTM" and start <= r["date"] <= end]
    rows = read_rows(tmp_path / "dataset.jsonl")
    assert result.valid and [{c: r[c] for c in ADJUSTED} for r in rows] == truth
    assert "Access path: **rest**" in (tmp_path / "blueprint.md").read_text()


def test_an_html_table_without_the_fields_leaves_them_unmapped_and_empty(demo_web, allow, tmp_path):
    """The history table has Open and Adj Close but no adjusted open: adj_open stays empty, never Open."""
    from scrapesmith.collect.candidates import table_candidate
    from scrapesmith.web.fetch import HttpFetcher

    page = demo_web.url("/stocks/symbol/QNTM/history/2023-Q4/")
    with HttpFetcher(allow_hosts=allow, delay=0) as http:
        found = table_candidate(http, page, ADJUSTED)
    assert found is not None and found.field_map == {"date": "date", "adj_close": "adj_close"}
    assert found.unmapped(ADJUSTED) == ["adj_open", "adj_high", "adj_low", "div_cash"]
    blueprint = Blueprint(instruction="adjusted prices", access="html_table", sources=[SourceLink(url=page)],
                          fields=ADJUSTED, field_map=found.field_map, unmapped=found.unmapped(ADJUSTED))
    (tmp_path / "program.py").write_text(render_program(blueprint, allow, 0.0))
    assert run_program_file(tmp_path / "program.py").ok
    rows = read_rows(tmp_path / "dataset.jsonl")
    assert rows and all(r["adj_open"] is None and r["adj_close"] is not None for r in rows)
    from scrapesmith.collect.validate import validate_dataset

    checks = {c.name: c for c in validate_dataset(tmp_path, blueprint)}
    assert not checks["mapped"].ok and "adj_open" in checks["mapped"].detail
    assert "Unmapped (no field of the source fits; left empty): adj_open" in blueprint.to_markdown()
    assert json.loads(json.dumps(blueprint.model_dump()))["unmapped"][0] == "adj_open"
