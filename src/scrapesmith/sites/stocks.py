"""The stock-market site (Instruct2DS "finance"): quarterly HTML price tables and a JSON REST API.

Prices are a seeded random walk over real trading days (weekends and exchange holidays skipped), with
quarterly dividends and one 2:1 split so the adjusted fields (``adj_*``) differ from the raw ones, as in
the Tiingo-style data Instruct2DS uses. The API validates its parameters and answers 400 with a JSON
error on bad input, 404 for an unknown symbol.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

from scrapesmith.sites.html import document, esc, query_path
from scrapesmith.sites.views import QueryRoute, Response, SiteBuild, json_response

NAME = "stocks"
ROOT = f"/{NAME}"
START, END = date(2023, 1, 1), date(2024, 6, 30)
HOLIDAYS = frozenset(
    date.fromisoformat(d)
    for d in [
        "2023-01-02",
        "2023-01-16",
        "2023-02-20",
        "2023-04-07",
        "2023-05-29",
        "2023-06-19",
        "2023-07-04",
        "2023-09-04",
        "2023-11-23",
        "2023-12-25",
        "2024-01-01",
        "2024-01-15",
        "2024-02-19",
        "2024-03-29",
        "2024-05-27",
        "2024-06-19",
    ]
)
SYMBOLS = (
    ("ACMR", "Acmera Robotics Inc.", "Industrials", 84.0, 0.0),
    ("BLTX", "Boltex Energy Corp.", "Energy", 42.0, 0.41),
    ("CRVN", "Caravan Foods Co.", "Consumer Staples", 57.0, 0.35),
    ("DLPH", "Delphinus Biotech plc", "Health Care", 121.0, 0.0),
    ("QNTM", "Quantum Ledger Software", "Information Technology", 230.0, 0.18),
)
SPLITS = {"QNTM": (date(2023, 9, 15), 2.0)}
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
PRICE_FIELDS = (
    "date",
    "open",
    "high",
    "low",
    "close",
    "volume",
    "adj_open",
    "adj_high",
    "adj_low",
    "adj_close",
    "adj_volume",
    "div_cash",
    "split_factor",
)


def trading_days() -> list[date]:
    days, day = [], START
    while day <= END:
        if day.weekday() < 5 and day not in HOLIDAYS:
            days.append(day)
        day += timedelta(days=1)
    return days


def quarter_of(day: date) -> str:
    return f"{day.year}-Q{(day.month - 1) // 3 + 1}"


def _raw_series(
    rng: random.Random, symbol: str, price: float, dividend: float, days: list[date]
) -> list[dict]:
    split_day, ratio = SPLITS.get(symbol, (None, 1.0))
    rows, close = [], price
    for i, day in enumerate(days):
        split = ratio if day == split_day else 1.0
        prev = close / split
        close = max(1.0, prev * (1 + rng.gauss(0.0004, 0.018)))
        open_ = prev * (1 + rng.gauss(0, 0.006))
        high = max(open_, close) * (1 + abs(rng.gauss(0, 0.007)))
        low = min(open_, close) * (1 - abs(rng.gauss(0, 0.007)))
        paid = dividend if dividend and i % 63 == 40 else 0.0
        rows.append(
            {
                "date": day.isoformat(),
                "open": round(open_, 2),
                "high": round(high, 2),
                "low": round(low, 2),
                "close": round(close, 2),
                "volume": int(rng.lognormvariate(14.2, 0.45)),
                "div_cash": paid,
                "split_factor": split,
            }
        )
    return rows


def _adjust(rows: list[dict]) -> None:
    """Back-adjust for splits and dividends: each event scales every earlier row (the usual convention)."""
    price_factor, volume_factor = 1.0, 1.0
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        for key in ("open", "high", "low", "close"):
            row[f"adj_{key}"] = round(row[key] * price_factor, 4)
        row["adj_volume"] = round(row["volume"] * volume_factor)
        if row["split_factor"] != 1.0:
            price_factor /= row["split_factor"]
            volume_factor *= row["split_factor"]
        if row["div_cash"] and i > 0:
            price_factor *= 1 - row["div_cash"] / rows[i - 1]["close"]


def price_table(seed: int) -> dict[str, list[dict]]:
    rng = random.Random(f"{seed}:{NAME}")
    days = trading_days()
    table = {}
    for symbol, _name, _sector, price, dividend in SYMBOLS:
        rows = _raw_series(rng, symbol, price, dividend, days)
        _adjust(rows)
        table[symbol] = [{key: row[key] for key in PRICE_FIELDS} for row in rows]
    return table


def _layout(title: str, body: str) -> str:
    nav = "".join(f'<a href="{ROOT}/symbol/{s}/">{s}</a>' for s, *_ in SYMBOLS)
    return document(
        f"{title} - MarketBoard",
        (
            f'<div id="top"><a id="logo" href="{ROOT}/">MarketBoard</a><div id="tickers">{nav}</div>'
            f'<a href="{ROOT}/api/">API</a></div>\n<div id="page">\n{body}\n</div>\n'
            '<div id="bottom">Quotes delayed. Data for demonstration only. &copy; MarketBoard</div>'
        ),
    )


def _event_row(row: dict) -> str:
    if row["div_cash"]:
        return f"<tr><td>{row['date']}</td><td>Dividend</td><td>{row['div_cash']:.2f}</td></tr>"
    return f"<tr><td>{row['date']}</td><td>Split</td><td>{row['split_factor']:g}:1</td></tr>"


def _history_page(symbol: str, name: str, quarter: str, rows: list[dict], quarters: list[str]) -> str:
    body_rows = "".join(
        f'<tr><td><time datetime="{r["date"]}">{date.fromisoformat(r["date"]).strftime("%b %d, %Y")}</time></td>'
        f"<td>{r['open']:.2f}</td><td>{r['high']:.2f}</td><td>{r['low']:.2f}</td><td>{r['close']:.2f}</td>"
        f"<td>{r['adj_close']:.4f}</td><td>{r['volume']:,}</td></tr>\n"
        for r in rows
    )
    events = "".join(_event_row(r) for r in rows if r["div_cash"] or r["split_factor"] != 1.0)
    at = quarters.index(quarter)
    links = []
    if at > 0:
        links.append(
            f'<a rel="prev" href="{ROOT}/symbol/{symbol}/history/{quarters[at - 1]}/">&lsaquo; {quarters[at - 1]}</a>'
        )
    if at < len(quarters) - 1:
        links.append(
            f'<a rel="next" href="{ROOT}/symbol/{symbol}/history/{quarters[at + 1]}/">{quarters[at + 1]} &rsaquo;</a>'
        )
    return _layout(
        f"{symbol} historical prices {quarter}",
        (
            f"<h1>{esc(name)} ({symbol})</h1><h2>Historical prices, {quarter}</h2>\n"
            '<table class="hist" data-symbol="'
            + symbol
            + '"><thead><tr><th>Date</th><th>Open</th><th>High</th>'
            "<th>Low</th><th>Close</th><th>Adj Close</th><th>Volume</th></tr></thead>\n"
            f"<tbody>\n{body_rows}</tbody></table>\n"
            '<p class="note">Adj Close is adjusted for splits and dividends.</p>\n'
            f'<table class="actions"><caption>Corporate actions</caption><tbody>{events}</tbody></table>\n'
            f'<div class="pager">{" ".join(links)}</div>'
        ),
    )


def _api_prices(prices: dict[str, list[dict]], params: dict[str, str]) -> Response:
    symbol = params.get("symbol", "").strip().upper()
    if not symbol:
        return json_response({"error": "missing required parameter 'symbol'"}, 400)
    if symbol not in prices:
        return json_response({"error": f"unknown symbol '{symbol}'"}, 404)
    bounds = {}
    for key, default in (("start", START), ("end", END)):
        raw = params.get(key, "").strip()
        if raw and not ISO_DATE.fullmatch(raw):
            return json_response({"error": f"parameter '{key}' must be a date YYYY-MM-DD, got '{raw}'"}, 400)
        try:
            bounds[key] = date.fromisoformat(raw) if raw else default
        except ValueError:
            return json_response({"error": f"parameter '{key}' is not a valid date: '{raw}'"}, 400)
    if bounds["start"] > bounds["end"]:
        return json_response({"error": "'start' must not be after 'end'"}, 400)
    start, end = bounds["start"].isoformat(), bounds["end"].isoformat()
    rows = [row for row in prices[symbol] if start <= row["date"] <= end]
    return json_response({"symbol": symbol, "start": start, "end": end, "count": len(rows), "prices": rows})


def _api_docs() -> str:
    return _layout(
        "API",
        (
            "<h1>MarketBoard REST API</h1>\n<dl>\n"
            f"<dt><code>GET {ROOT}/api/symbols</code></dt><dd>All listed symbols with name, sector and exchange."
            f"</dd>\n<dt><code>GET {ROOT}/api/prices?symbol=SYM&amp;start=YYYY-MM-DD&amp;end=YYYY-MM-DD</code></dt>"
            "<dd>Daily OHLCV with split- and dividend-adjusted fields (adj_open, adj_high, adj_low, adj_close, "
            "adj_volume), div_cash and split_factor. <code>start</code> and <code>end</code> are optional and "
            'inclusive. Bad parameters answer 400 with <code>{"error": ...}</code>.</dd>\n</dl>'
        ),
    )


def build(seed: int) -> SiteBuild:
    prices = price_table(seed)
    site = SiteBuild(
        NAME,
        "MarketBoard",
        "finance",
        "Daily stock prices: quarterly HTML history tables per symbol and a JSON REST API "
        "with adjusted fields",
        "id-based layout, data tables, JSON API",
    )
    symbols = [
        {"symbol": s, "name": n, "sector": sec, "exchange": "XDEM", "url": f"{ROOT}/symbol/{s}/"}
        for s, n, sec, _p, _d in SYMBOLS
    ]
    quarters = sorted({quarter_of(d) for d in trading_days()})
    for symbol, name, sector, _p, _d in SYMBOLS:
        rows = prices[symbol]
        for quarter in quarters:
            selected = [r for r in rows if quarter_of(date.fromisoformat(r["date"])) == quarter]
            site.add_html(
                f"{ROOT}/symbol/{symbol}/history/{quarter}/",
                _history_page(symbol, name, quarter, selected, quarters),
                "table",
                "list",
            )
        last = rows[-1]
        links = "".join(f'<li><a href="{ROOT}/symbol/{symbol}/history/{q}/">{q}</a></li>' for q in quarters)
        site.add_html(
            f"{ROOT}/symbol/{symbol}/",
            _layout(
                f"{symbol} quote",
                (
                    f'<h1>{esc(name)} ({symbol})</h1><p class="quote">Last close <b>{last["close"]:.2f}</b> on '
                    f"{last['date']}</p><p>Sector: {esc(sector)}</p><h2>Price history</h2><ul>{links}</ul>"
                ),
            ),
            "home",
        )
    listing = "".join(
        f'<tr><td><a href="{s["url"]}">{s["symbol"]}</a></td><td>{esc(s["name"])}</td>'
        f"<td>{esc(s['sector'])}</td></tr>"
        for s in symbols
    )
    site.add_html(
        f"{ROOT}/",
        _layout("Markets", f'<h1>Listed symbols</h1><table class="symbols"><tbody>{listing}</tbody></table>'),
        "home",
    )
    site.add_html(f"{ROOT}/api/", _api_docs(), "about")
    site.add(f"{ROOT}/api/symbols", json_response({"symbols": symbols}), "api")
    route = QueryRoute(("symbol", "start", "end"), lambda params: _api_prices(prices, params))
    site.routes[f"{ROOT}/api/prices"] = route
    for symbol in prices:
        site.add(
            query_path(f"{ROOT}/api/prices", {"symbol": symbol}), route.render({"symbol": symbol}), "api"
        )
    site.truth = {
        "site": NAME,
        "start_date": START.isoformat(),
        "end_date": END.isoformat(),
        "quarters": quarters,
        "symbols": symbols,
        "price_fields": list(PRICE_FIELDS),
        "prices": [{"symbol": s, **row} for s in prices for row in prices[s]],
    }
    return site
