"""Ground truth of the proceedings, stocks and sports sites equals what their pages show."""

from __future__ import annotations

from datetime import date

import pytest
from demo_web_helpers import follow, get, page, text, texts

from scrapesmith.sites import DemoServer


def test_paper_lists_paginate_through_exactly_the_listed_papers(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("proceedings")
    for listing in truth["listings"]:
        docs = follow(demo_web, listing["url"], '//nav[@class="pagination"]/a[@rel="next"]/@href')
        assert len(docs) == listing["pages"]
        shown = [
            (text(a), a.get("href"))
            for d in docs
            for a in d.xpath('//li[@class="paper-item"]/a[@class="paper-title"]')
        ]
        expected = [
            (p["title"], p["url"])
            for p in truth["papers"]
            if (p["conference"], p["year"], p["track"])
            == (listing["conference"], listing["year"], listing["track"])
        ]
        assert shown == expected and len(shown) == listing["paper_count"]


def test_paper_pages_show_title_authors_abstract_and_pdf(demo_web: DemoServer) -> None:
    for paper in demo_web.sites.truth("proceedings")["papers"]:
        doc = page(demo_web, paper["url"])
        assert texts(doc, '//h1[@class="paper-title"]') == [paper["title"]]
        assert texts(doc, '//ul[@class="authors"]/li') == paper["authors"]
        assert texts(doc, '//section[@class="abstract"]/p') == [paper["abstract"]]
        assert texts(doc, '//span[@class="track"]') == [paper["track"]]
        assert doc.xpath('//a[@class="pdf-link"]/@href') == [paper["pdf_url"]]
        assert doc.xpath('//meta[@name="citation_author"]/@content') == paper["authors"]


def test_pdf_links_serve_pdf_files(demo_web: DemoServer) -> None:
    paper = demo_web.sites.truth("proceedings")["papers"][0]
    response = get(demo_web, paper["pdf_url"])
    assert response.headers["content-type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-1.4") and response.content.rstrip().endswith(b"%%EOF")


def _row_value(cell: str) -> float:
    return float(cell.replace(",", ""))


def test_history_tables_show_the_truth_prices(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("stocks")
    for symbol in (s["symbol"] for s in truth["symbols"]):
        rows = [r for r in truth["prices"] if r["symbol"] == symbol]
        start = f"/stocks/symbol/{symbol}/history/{truth['quarters'][0]}/"
        docs = follow(demo_web, start, '//div[@class="pager"]/a[@rel="next"]/@href')
        assert len(docs) == len(truth["quarters"])
        shown = [
            [td.xpath("string(time/@datetime)") or text(td) for td in tr.xpath("td")]
            for d in docs
            for tr in d.xpath('//table[@class="hist"]/tbody/tr')
        ]
        assert [r[0] for r in shown] == [r["date"] for r in rows]
        for cells, row in zip(shown, rows, strict=True):
            values = [_row_value(c) for c in cells[1:]]
            assert values == [
                row["open"],
                row["high"],
                row["low"],
                row["close"],
                row["adj_close"],
                row["volume"],
            ]


def test_adjusted_prices_reflect_split_and_dividends(demo_web: DemoServer) -> None:
    prices = [r for r in demo_web.sites.truth("stocks")["prices"] if r["symbol"] == "QNTM"]
    split = next(i for i, r in enumerate(prices) if r["split_factor"] == 2.0)
    before, after = prices[split - 1], prices[split]
    assert before["close"] > 1.5 * after["close"]
    assert before["adj_close"] < 1.3 * after["adj_close"]
    assert before["adj_volume"] == 2 * before["volume"]
    assert prices[-1]["adj_close"] == prices[-1]["close"]


def test_price_api_answers_a_date_range(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("stocks")
    response = get(demo_web, "/stocks/api/prices?symbol=bltx&start=2024-02-01&end=2024-02-29")
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    data = response.json()
    expected = [
        {k: v for k, v in r.items() if k != "symbol"}
        for r in truth["prices"]
        if r["symbol"] == "BLTX" and "2024-02-01" <= r["date"] <= "2024-02-29"
    ]
    assert data["symbol"] == "BLTX" and data["count"] == len(expected) == 20
    assert data["prices"] == expected
    assert set(expected[0]) == set(truth["price_fields"])
    all_rows = get(demo_web, "/stocks/api/prices?symbol=ACMR").json()
    assert all_rows["start"] == truth["start_date"] and date.fromisoformat(all_rows["prices"][-1]["date"])


def test_symbols_api_lists_every_symbol(demo_web: DemoServer) -> None:
    assert (
        get(demo_web, "/stocks/api/symbols").json()["symbols"]
        == demo_web.sites.truth("stocks")["symbols"]
    )


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("", 400, "missing required parameter 'symbol'"),
        ("?symbol=ACMR&start=01/02/2024", 400, "must be a date YYYY-MM-DD"),
        ("?symbol=ACMR&end=2024-02-30", 400, "not a valid date"),
        ("?symbol=ACMR&start=2024-03-01&end=2024-02-01", 400, "must not be after"),
        ("?symbol=NOPE", 404, "unknown symbol 'NOPE'"),
    ],
)
def test_price_api_rejects_bad_parameters_with_json_errors(
    demo_web: DemoServer, query: str, status: int, message: str
) -> None:
    response = get(demo_web, f"/stocks/api/prices{query}")
    assert response.status_code == status
    assert message in response.json()["error"]


def _stat(value: str) -> float:
    return float(value)


def test_standings_show_team_seasons_and_a_non_team_average_row(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("sports")
    for year in truth["seasons"]:
        doc = page(demo_web, f"/sports/season/{year}/standings.html")
        shown = {}
        for tr in doc.xpath('//table[@id="standings"]/tbody/tr'):
            shown[text(tr.xpath('th[@data-stat="team"]')[0])] = {
                k: _stat(text(tr.xpath(f'td[@data-stat="{k}"]')[0])) for k in truth["team_stat_fields"]
            }
        expected = {
            r["team"]: {k: r[k] for k in truth["team_stat_fields"]}
            for r in truth["team_seasons"]
            if r["year"] == year
        }
        assert shown == expected
        assert texts(doc, '//table[@id="standings"]/tfoot//th') == ["League Average"]


def test_player_tables_paginate_through_every_player_season(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("sports")
    for year in truth["seasons"]:
        docs = follow(demo_web, f"/sports/season/{year}/players/", '//a[contains(@class, "next")]/@href')
        shown = [
            {
                "player": text(tr.xpath('th[@data-stat="player"]')[0]),
                "team": text(tr.xpath('td[@data-stat="team"]')[0]),
                **{k: _stat(text(tr.xpath(f'td[@data-stat="{k}"]')[0])) for k in truth["player_stat_fields"]},
            }
            for d in docs
            for tr in d.xpath('//table[@id="per_game"]/tbody/tr')
        ]
        expected = [
            {k: v for k, v in r.items() if k != "year"} for r in truth["player_seasons"] if r["year"] == year
        ]
        assert shown == expected


def test_roster_pages_list_the_team_players(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("sports")
    for team in truth["teams"]:
        year = truth["seasons"][-1]
        doc = page(demo_web, f"{team['url']}{year}/")
        expected = [
            r["player"]
            for r in truth["player_seasons"]
            if r["team"] == team["abbreviation"] and r["year"] == year
        ]
        assert texts(doc, '//table[@id="roster"]/tbody/tr/th') == expected
