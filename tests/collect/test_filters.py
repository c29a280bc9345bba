"""Row filters from the instruction: a named entity and a date range bound the rows on every access path,
and validation checks them. Regression: "the 2021 season stats of the Cedar Rapids Cardinals" gave 4-6 rows
for a 1-row truth."""

from __future__ import annotations

import json
import re

import pyarrow.parquet as pq

from scrapesmith.collect.filters import entity_filter, instruction_range, matching, range_filter
from scrapesmith.collect.program import render_program, run_program_file
from scrapesmith.collect.service import collect
from scrapesmith.collect.views import Blueprint, SourceLink
from scrapesmith.io import read_rows
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest

COLUMNS = ["team", "wins", "losses", "win_pct", "points_per_game"]
SPORTS_T1 = ("Collect the 2021 season stats of the Cedar Rapids Cardinals with columns team, wins, losses, win_pct "
             "and points_per_game.")


def test_a_named_entity_and_a_year_among_years_filter_but_dates_and_constants_do_not():
    rows = [{"team": "Bayport Pelicans", "year": "2021", "track": "Main", "date": "2023-02-01"},
            {"team": "Grover Giants", "year": "2022", "track": "Main", "date": "2023-02-02"}]
    assert entity_filter("Collect the 2021 season stats of the Grover Giants with columns team", rows) == {
        "team": "Grover Giants", "year": "2021"}
    assert entity_filter("Collect GRV daily prices from 2023-02-01 to 2023-03-10 with columns date", rows) == {}
    assert entity_filter("papers of the Main track", rows) == {}  # every row is Main: nothing to filter
    assert instruction_range("prices from 2023-03-10 to 2023-02-01") == ("2023-02-01", "2023-03-10")
    bounds = range_filter("from 2023-02-02 to 2023-03-10", rows)
    assert bounds is not None and bounds.key == "date"
    assert matching(rows, {"team": "Grover Giants"}, bounds.model_dump()) == rows[1:]
    assert matching([{"date": "Feb 02, 2023"}, {"date": ""}], {}, bounds.model_dump()) == [{"date": "Feb 02, 2023"}]


def _truth(demo_web, team: str, year: int) -> list[dict]:
    return [{c: r[c] for c in COLUMNS} for r in demo_web.sites.truth("sports")["team_seasons"]
            if r["team"] == team and r["year"] == year]


def _same(rows: list[dict], truth: list[dict]) -> bool:
    return [{c: r[c] for c in COLUMNS} for r in rows] == truth


def test_one_team_out_of_the_standings_on_the_heuristic_path(demo_web, allow, tmp_path):
    url = demo_web.url("/sports/season/2021/standings.html")
    result = collect(f"{SPORTS_T1} Start at {url}", llm=None, run_dir=tmp_path, allow_hosts=allow, delay=0.0)
    rows = read_rows(tmp_path / "dataset.jsonl")
    assert result.valid and _same(rows, _truth(demo_web, "Cedar Rapids Cardinals", 2021))
    assert isinstance(rows[0]["wins"], int) and isinstance(rows[0]["win_pct"], float)
    checks = {c["name"]: c for c in json.loads((tmp_path / "validation.json").read_text())["checks"]}
    assert checks["filter:team"]["ok"]
    assert "Only rows where team = 'Cedar Rapids Cardinals'" in (tmp_path / "blueprint.md").read_text()
    # the program declares its schema once: a rerun writes the same types
    assert "SCHEMA = {'team': 'string', 'wins': 'integer'" in (tmp_path / "program.py").read_text()
    before = pq.read_schema(tmp_path / "dataset.parquet")
    assert str(before.field("wins").type) == "int64" and str(before.field("win_pct").type) == "double"
    assert run_program_file(tmp_path / "program.py", allow).ok
    assert pq.read_schema(tmp_path / "dataset.parquet").equals(before)


def _links(prompt: str) -> dict[str, int]:
    return {url: int(n) for n, _text, url in re.findall(r"^(\d+)\. (.*?) -> (\S+)$", prompt, re.MULTILINE)}


def scripted_sports(request: LLMRequest) -> str:
    """A model that finds the standings but never applies the filter itself (row_filter left empty)."""
    prompt = request.messages[-1].content
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["find the 2021 standings", "keep the team's row"], "columns": COLUMNS,
                           "start_url": None, "keywords": ["2021", "standings"]})
    if request.stage == "collect.web":
        here = re.search(r"^Current page: (\S+)", prompt, re.MULTILINE).group(1)
        if here.endswith("/season/2021/standings.html"):
            return json.dumps({"thought": "the standings list every team", "action": "use_page", "choice": []})
        target = next(n for url, n in _links(prompt).items() if url.endswith("/season/2021/standings.html"))
        return json.dumps({"thought": "open the 2021 standings", "action": "open", "choice": [target]})
    if request.stage == "collect.blueprint":
        return json.dumps({"choice": 0, "field_map": {}, "row_filter": {}})
    return json.dumps({"choice": 0})


def test_one_team_out_of_the_standings_on_the_model_path(demo_web, allow, tmp_path):
    result = collect(SPORTS_T1, llm=ScriptedLLM(scripted_sports), run_dir=tmp_path, allow_hosts=allow, delay=0.0,
                     seeds=[demo_web.url("/sports/")])
    assert result.valid and _same(read_rows(tmp_path / "dataset.jsonl"), _truth(demo_web, "Cedar Rapids Cardinals",
                                                                              2021))


def scripted_team_keywords(request: LLMRequest) -> str:
    """A model that searches for the team by name (its own page ranks first) and uses whatever page it is
    shown: the start page must be chosen by evidence, not by the search rank."""
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["find the team's stats"], "columns": COLUMNS, "start_url": None,
                           "keywords": ["2021", "season", "stats", "Cedar", "Rapids", "Cardinals"]})
    if request.stage == "collect.web":
        return json.dumps({"thought": "this page has the stats", "action": "use_page", "choice": []})
    if request.stage == "collect.blueprint":
        return json.dumps({"choice": 0, "field_map": {}, "row_filter": {}})
    return json.dumps({"choice": 0})


def test_the_table_a_team_is_one_row_of_beats_the_team_page_search_ranks_first(demo_web, allow, tmp_path):
    result = collect(SPORTS_T1, llm=ScriptedLLM(scripted_team_keywords), run_dir=tmp_path, allow_hosts=allow,
                     delay=0.0, seeds=[demo_web.url("/sports/")])
    assert "/season/2021/standings.html" in (tmp_path / "blueprint.md").read_text()
    assert result.valid and _same(read_rows(tmp_path / "dataset.jsonl"), _truth(demo_web, "Cedar Rapids Cardinals",
                                                                              2021))


def scripted_symbol_keywords(request: LLMRequest) -> str:
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["find the prices"], "columns": ["date", "open", "high", "low", "close", "volume"],
                           "start_url": None, "keywords": ["BLTX", "daily", "prices"]})
    if request.stage == "collect.web":
        return json.dumps({"thought": "this page", "action": "use_page", "choice": []})
    return json.dumps({"choice": 0, "field_map": {}, "row_filter": {}})


def test_a_page_linking_to_the_first_hit_only_from_its_navigation_is_no_start(demo_web, allow, tmp_path):
    """Every symbol's history page links to every quote page from its ticker bar and fills all the price
    columns: it must not replace the named symbol's own page as the start (a run collected ACMR for BLTX)."""
    llm = ScriptedLLM(scripted_symbol_keywords)
    collect("Collect BLTX daily prices from 2024-04-19 to 2024-05-29 with columns date, open, high, low, close "
            "and volume.", llm=llm, run_dir=tmp_path, allow_hosts=allow, delay=0.0, seeds=[demo_web.url("/stocks/")])
    first = next(r.messages[-1].content for r in llm.requests if r.stage == "collect.web")
    start = re.search(r"^Current page: (\S+)", first, re.MULTILINE).group(1)
    assert "/symbol/BLTX/" in start


def test_a_year_among_a_team_pages_seasons_is_a_filter_too(demo_web, allow, tmp_path):
    url = demo_web.url("/sports/team/CRD/")
    result = collect(f"Collect the 2022 season of the Cedar Rapids Cardinals from {url} with columns year, wins "
                     "and losses", llm=None, run_dir=tmp_path, allow_hosts=allow, delay=0.0)
    rows = read_rows(tmp_path / "dataset.jsonl")
    truth = _truth(demo_web, "Cedar Rapids Cardinals", 2022)[0]
    assert result.valid and [(r["year"], r["wins"], r["losses"]) for r in rows] == [(2022, truth["wins"],
                                                                                    truth["losses"])]


def test_a_date_range_bounds_an_html_table_read_over_many_pages(demo_web, allow, tmp_path):
    """The HTML path follows "next" over every quarter of a symbol; the range keeps the instruction's days."""
    start, end = "2023-03-20", "2023-04-12"
    blueprint = Blueprint(
        instruction=f"Collect BLTX daily prices from {start} to {end} with columns date and close",
        access="html_table", sources=[SourceLink(url=demo_web.url("/stocks/symbol/BLTX/history/2023-Q1/"))],
        fields=["date", "close"], date_range={"key": "date", "start": start, "end": end})
    (tmp_path / "program.py").write_text(render_program(blueprint, allow, 0.0))
    assert run_program_file(tmp_path / "program.py", allow).ok
    truth = [r for r in demo_web.sites.truth("stocks")["prices"] if r["symbol"] == "BLTX" and start <= r["date"] <= end]
    rows = read_rows(tmp_path / "dataset.jsonl")
    assert [r["date"] for r in rows] == [r["date"] for r in truth] and len(truth) > 10
    assert [r["close"] for r in rows] == [r["close"] for r in truth]


def scripted_all_tracks(request: LLMRequest) -> str:
    """A model that takes every track of VISC 2023 when the instruction asks for one."""
    prompt = request.messages[-1].content
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["find VISC 2023", "collect the track"], "columns": ["title", "authors", "url"],
                           "start_url": None, "keywords": ["VISC", "2023", "Workshops"]})
    if request.stage == "collect.web":
        links = _links(prompt)
        tracks = [n for url, n in links.items() if re.search(r"/visc/2023/[a-z-]+/$", url)]
        if tracks:
            return json.dumps({"thought": "the tracks list the papers", "action": "use_links", "choice": tracks})
        year = next(n for url, n in links.items() if url.endswith(("/visc/2023/", "/visc/")))
        return json.dumps({"thought": "open VISC", "action": "open", "choice": [year]})
    if request.stage == "collect.blueprint":
        lists = re.search(r"^(\d+)\. list at", prompt, re.MULTILINE)
        return json.dumps({"choice": int(lists.group(1)) if lists else 0, "field_map": {}})
    return json.dumps({"choice": 0})


def test_of_several_source_pages_only_the_one_the_instruction_names_is_read(demo_web, allow, tmp_path):
    collect("Collect all papers of the Workshops track of VISC 2023 with columns title, authors and url.",
            llm=ScriptedLLM(scripted_all_tracks), run_dir=tmp_path, allow_hosts=allow, delay=0.0,
            seeds=[demo_web.url("/proceedings/visc/")])
    truth = [p for p in demo_web.sites.truth("proceedings")["papers"]
             if (p["conference"], p["year"], p["track"]) == ("VISC", 2023, "Workshops")]
    assert sorted(r["url"] for r in read_rows(tmp_path / "dataset.jsonl")) == sorted(demo_web.url(p["url"])
                                                                                  for p in truth)
    sources = (tmp_path / "blueprint.md").read_text().split("## Sources")[1].split("##")[0]
    assert "workshops/" in sources and "main/" not in sources


def test_named_sources_keep_the_one_named():
    from scrapesmith.collect.filters import named_sources
    from scrapesmith.collect.views import SourceLink

    sources = [SourceLink(url="/a/main/", label="Main"), SourceLink(url="/a/ws/", label="Workshops")]
    assert named_sources("papers of the Workshops track", sources) == sources[1:]
    assert named_sources("all papers of VISC 2023", sources) == sources
