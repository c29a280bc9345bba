"""The runtime API program.py files use: tables, REST calls, list replay, provenance, the WARC archive."""

from __future__ import annotations

import json

import pytest

from scrapesmith.collect.runtime import Collection, CollectionError
from scrapesmith.collect.search import LocalSearchIndex
from scrapesmith.collect.tables import best_table, table_rows
from scrapesmith.io import read_rows
from scrapesmith.web.archive import WarcReplayFetcher


def test_read_table_follows_pages_and_keys_cells_by_data_stat(demo_web, allow, tmp_path):
    with Collection("p1", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run:
        rows = run.read_table(demo_web.url("/sports/season/2022/players/"), ["player", "points_per_game"])
    truth = [r for r in demo_web.sites.truth("sports")["player_seasons"] if r["year"] == 2022]
    assert len(rows) == len(truth)
    assert {r["player"] for r in rows} == {r["player"] for r in truth}
    assert rows[0]["points_per_game"] == str(truth[0]["points_per_game"])


def test_table_reader_prefers_time_datetime_and_skips_footer_rows():
    source = ("<table><thead><tr><th>Date</th><th>Close</th></tr></thead><tbody>"
              "<tr><td><time datetime='2023-01-03'>Jan 03, 2023</time></td><td>1.50</td></tr>"
              "<tr><td><time datetime='2023-01-04'>Jan 04, 2023</time></td><td>1.60</td></tr></tbody>"
              "<tfoot><tr><td>Average</td><td>1.55</td></tr></tfoot></table>")
    rows = table_rows(best_table(source, ["date", "close"]))
    assert rows == [{"date": "2023-01-03", "close": "1.50"}, {"date": "2023-01-04", "close": "1.60"}]


def test_rest_records_call_the_api_with_parameters(demo_web, allow, tmp_path):
    with Collection("p2", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run:
        rows = run.rest_records(demo_web.url("/stocks/api/prices"),
                                {"symbol": "BLTX", "start": "2023-03-01", "end": "2023-03-10"}, "prices")
    truth = [r for r in demo_web.sites.truth("stocks")["prices"]
             if r["symbol"] == "BLTX" and "2023-03-01" <= r["date"] <= "2023-03-10"]
    assert [r["date"] for r in rows] == [r["date"] for r in truth]
    assert rows[0]["source_url"].endswith("symbol=BLTX&start=2023-03-01&end=2023-03-10")


def test_non_json_answer_to_a_rest_call_is_a_clear_error(demo_web, allow, tmp_path):
    with Collection("p3", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run, pytest.raises(CollectionError):
        run.get_json(demo_web.url("/stocks/"))


def test_written_rows_carry_provenance_and_pages_are_archived(demo_web, allow, tmp_path):
    url = demo_web.url("/sports/season/2021/standings.html")
    with Collection("prog42", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run:
        run.write(run.read_table(url, ["team", "wins"]), {"team": "team", "wins": "wins"}, {"season": 2021},
                  keep=["team", "wins"])
    rows = read_rows(tmp_path / "dataset.csv")
    assert len(rows) == 8
    assert set(rows[0]) == {"team", "wins", "season", "source_url", "fetched_at", "program_id"}
    assert rows[0]["program_id"] == "prog42" and rows[0]["source_url"] == url
    assert url in WarcReplayFetcher(tmp_path / "pages.warc.gz").urls
    assert json.loads((tmp_path / "dataset.jsonl").read_text().splitlines()[0])["team"] == rows[0]["team"]


def test_local_search_index_ranks_the_matching_page_first():
    index = LocalSearchIndex()
    index.add("http://x/clml/2023/", "<title>CLML 2023</title><h1>CLML 2023</h1><p>Main track papers</p>")
    index.add("http://x/stocks/", "<title>Markets</title><p>Listed symbols and prices</p>")
    hits = index.search("CLML 2023 papers")
    assert hits[0].url == "http://x/clml/2023/" and len(hits) == 1
    assert index.search("!!") == []


def test_local_search_index_knows_which_pages_link_to_a_page():
    index = LocalSearchIndex()
    index.add("http://x/season/2021/", "<a href='../../team/CRD/2021/#roster'>Cardinals</a><a href='/'>home</a>")
    index.add("http://x/players/", "<a href='http://x/team/CRD/2021/'>CRD</a>")
    index.add("http://x/team/CRD/2021/", "<a href='http://x/team/CRD/2021/'>this page</a>")
    assert index.referrers("http://x/team/CRD/2021/") == ["http://x/season/2021/", "http://x/players/"]
    index.add("http://x/players/", "<p>no links any more</p>")  # a page indexed again replaces its links
    assert index.referrers("http://x/team/CRD/2021/") == ["http://x/season/2021/"]


def test_sources_whose_next_links_chain_are_read_once(demo_web, allow, tmp_path):
    """Quarter pages link "next" to one another: reading every quarter as a source must not add the
    later quarters again (a program once wrote 6 x 28 rows, 140 of them duplicates)."""
    quarters = ["2023-Q3", "2023-Q4", "2024-Q1"]
    with Collection("p-chain", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run:
        rows = []
        for quarter in quarters:
            rows += run.read_table(demo_web.url(f"/stocks/symbol/BLTX/history/{quarter}/"), ["date", "close"])
        again = run.pages_read_again
    dates = [r["date"] for r in rows]
    assert len(dates) == len(set(dates))
    truth = {r["date"] for r in demo_web.sites.truth("stocks")["prices"]
             if r["symbol"] == "BLTX" and r["date"] >= "2023-07-01"}
    assert set(dates) == truth  # the chain from the first source reaches every later quarter once
    assert again == len(quarters) - 1


@pytest.mark.parametrize("order", [("page 1", "page 2"), ("page 2", "page 1")])
def test_list_pages_reached_through_pagination_are_read_once(demo_web, allow, tmp_path, order):
    """A list program that paginates itself (recorded on CLML 2022 Datasets and Benchmarks, two pages)
    replayed from both of the track's pages: every page its pagination read is registered, so the
    other source neither reads page 2 again nor adds its papers twice, whichever source comes first."""
    from scrapesmith.collect.candidates import list_candidate
    from scrapesmith.web.fetch import HttpFetcher

    first = demo_web.url("/proceedings/clml/2022/datasets-and-benchmarks/")
    pages = {"page 1": first, "page 2": first + "page/2/"}
    with HttpFetcher(allow_hosts=allow, delay=0.0) as http:
        program = list_candidate(http, first, ["title", "authors", "url"]).list_program
    assert any(step.get("pagination") for step in program["steps"])  # the program follows "next" itself
    with Collection("p-list-chain", allow_hosts=allow, delay=0.0, run_dir=tmp_path) as run:
        rows = [row for name in order for row in run.replay_list(program, pages[name])]
        again = run.pages_read_again
    truth = [demo_web.url(p["url"]) for p in demo_web.sites.truth("proceedings")["papers"]
             if (p["conference"], p["year"], p["track"]) == ("CLML", 2022, "Datasets and Benchmarks")]
    assert sorted(row["url"] for row in rows) == sorted(truth)  # each paper once
    assert again == 1
