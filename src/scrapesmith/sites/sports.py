"""The sports statistics site (Instruct2DS "sports"): team standings and player season tables per year.

Markup in the style of reference-statistics sites: tables whose cells carry ``data-stat`` attributes,
abbreviated headers with ``<abbr title>``, a league-average ``<tfoot>`` row that is not a team, player
tables split over numbered pages, and per-team roster pages.
"""

from __future__ import annotations

import random

from scrapesmith.sites.html import chunk, document, esc, page_count
from scrapesmith.sites.views import SiteBuild
from scrapesmith.sites.words import FIRST_NAMES, LAST_NAMES

NAME = "sports"
ROOT = f"/{NAME}"
SEASONS = (2021, 2022, 2023, 2024)
GAMES = 82
PLAYERS_PER_PAGE = 20
TEAMS = (
    ("BAY", "Bayport", "Pelicans"),
    ("CRD", "Cedar Rapids", "Cardinals"),
    ("DUN", "Dunmore", "Comets"),
    ("FAL", "Fallbrook", "Falcons"),
    ("GRV", "Grover", "Giants"),
    ("LKS", "Lakeshore", "Herons"),
    ("MRT", "Marlton", "Mustangs"),
    ("RDG", "Ridgeway", "Rockets"),
)
TEAM_STATS = (
    ("games", "G", "Games played"),
    ("wins", "W", "Wins"),
    ("losses", "L", "Losses"),
    ("win_pct", "W%", "Win percentage"),
    ("points_per_game", "PTS", "Points per game"),
    ("opp_points_per_game", "OPP", "Opponent points per game"),
    ("rebounds_per_game", "REB", "Rebounds per game"),
    ("assists_per_game", "AST", "Assists per game"),
    ("fg_pct", "FG%", "Field goal percentage"),
)
PLAYER_STATS = (
    ("games", "G", "Games played"),
    ("minutes_per_game", "MIN", "Minutes per game"),
    ("points_per_game", "PTS", "Points per game"),
    ("rebounds_per_game", "REB", "Rebounds per game"),
    ("assists_per_game", "AST", "Assists per game"),
    ("fg_pct", "FG%", "Field goal percentage"),
)


def _team_seasons(rng: random.Random) -> list[dict]:
    rows = []
    for year in SEASONS:
        for abbr, city, nick in TEAMS:
            wins = rng.randrange(18, 65)
            rows.append(
                {
                    "team": f"{city} {nick}",
                    "abbreviation": abbr,
                    "year": year,
                    "games": GAMES,
                    "wins": wins,
                    "losses": GAMES - wins,
                    "win_pct": round(wins / GAMES, 3),
                    "points_per_game": round(rng.uniform(104, 121), 1),
                    "opp_points_per_game": round(rng.uniform(104, 121), 1),
                    "rebounds_per_game": round(rng.uniform(40, 49), 1),
                    "assists_per_game": round(rng.uniform(21, 30), 1),
                    "fg_pct": round(rng.uniform(0.43, 0.5), 3),
                }
            )
    return rows


def _player_seasons(rng: random.Random) -> list[dict]:
    names = list(dict.fromkeys(f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(80)))[:48]
    team_of = {name: TEAMS[i % len(TEAMS)][0] for i, name in enumerate(names)}
    rows = []
    for year in SEASONS:
        for name in names:
            if rng.random() < 0.15:
                team_of[name] = rng.choice(TEAMS)[0]
            rows.append(
                {
                    "player": name,
                    "team": team_of[name],
                    "year": year,
                    "games": rng.randrange(20, 83),
                    "minutes_per_game": round(rng.uniform(9, 37), 1),
                    "points_per_game": round(rng.uniform(2, 31), 1),
                    "rebounds_per_game": round(rng.uniform(1, 13), 1),
                    "assists_per_game": round(rng.uniform(0.3, 10), 1),
                    "fg_pct": round(rng.uniform(0.38, 0.6), 3),
                }
            )
    return sorted(rows, key=lambda r: (r["year"], -r["points_per_game"], r["player"]))


def _fmt(key: str, value: object) -> str:
    if isinstance(value, float) and key.endswith("pct"):
        return f"{value:.3f}".removeprefix("0")
    return str(value)


def _layout(title: str, body: str) -> str:
    seasons = "".join(f'<li><a href="{ROOT}/season/{y}/standings.html">{y}</a></li>' for y in SEASONS)
    teams = "".join(f'<li><a href="{ROOT}/team/{a}/">{esc(c)}</a></li>' for a, c, _n in TEAMS)
    return document(
        f"{title} | Hoops Reference",
        (
            f'<div id="wrap"><div id="header"><a href="{ROOT}/" class="logo">Hoops Reference</a>'
            f'<ul class="menu seasons">{seasons}</ul><ul class="menu teams">{teams}</ul></div>\n'
            f'<div id="content" role="main">\n{body}\n</div>\n<div id="footer">Statistics are for '
            "regular seasons only. Hoops Reference &mdash; a fan-made archive.</div></div>"
        ),
    )


def _header(columns: tuple, *leading: tuple[str, str]) -> str:
    lead = "".join(f'<th data-stat="{key}" scope="col">{label}</th>' for key, label in leading)
    cells = "".join(
        f'<th data-stat="{k}" scope="col"><abbr title="{t}">{esc(a)}</abbr></th>' for k, a, t in columns
    )
    return f"<thead><tr>{lead}{cells}</tr></thead>"


def _cells(row: dict, columns: tuple) -> str:
    return "".join(f'<td data-stat="{k}">{_fmt(k, row[k])}</td>' for k, _a, _t in columns)


def _standings(year: int, rows: list[dict]) -> str:
    rows = sorted(rows, key=lambda r: (-r["wins"], r["team"]))
    body = "".join(
        f'<tr><th scope="row" data-stat="team"><a href="{ROOT}/team/{r["abbreviation"]}/{year}/">'
        f"{esc(r['team'])}</a></th>{_cells(r, TEAM_STATS)}</tr>\n"
        for r in rows
    )
    average = {
        k: round(sum(r[k] for r in rows) / len(rows), 3 if k.endswith("pct") else 1)
        for k, _a, _t in TEAM_STATS
    }
    return _layout(
        f"{year} standings",
        (
            f'<h1>{year} Season Standings</h1><div class="table_wrapper"><table id="standings" class="stats_table">'
            f'{_header(TEAM_STATS, ("team", "Team"))}<tbody>\n{body}</tbody><tfoot><tr class="league-average">'
            f'<th scope="row">League Average</th>{_cells(average, TEAM_STATS)}</tr></tfoot></table></div>'
            f'<p><a href="{ROOT}/season/{year}/players/">{year} player stats</a></p>'
        ),
    )


def _player_page(year: int, rows: list[dict], page: int, pages: int, teams: dict[str, str]) -> str:
    base = f"{ROOT}/season/{year}/players/"
    body = "".join(
        f'<tr><td data-stat="rank">{(page - 1) * PLAYERS_PER_PAGE + i}</td>'
        f'<th scope="row" data-stat="player">{esc(r["player"])}</th>'
        f'<td data-stat="team"><a href="{ROOT}/team/{r["team"]}/{year}/" title="{esc(teams[r["team"]])}">'
        f"{r['team']}</a></td>{_cells(r, PLAYER_STATS)}</tr>\n"
        for i, r in enumerate(chunk(rows, PLAYERS_PER_PAGE, page), start=1)
    )
    pager = " ".join(
        f"<strong>{n}</strong>" if n == page else f'<a href="{base if n == 1 else f"{base}{n}/"}">{n}</a>'
        for n in range(1, pages + 1)
    )
    if page < pages:
        pager += f' <a class="button next" href="{base}{page + 1}/">Next page</a>'
    return _layout(
        f"{year} player stats",
        (
            f"<h1>{year} Player Per-Game Stats</h1><p>Sorted by points per game. Page {page} of {pages}.</p>"
            f'<table id="per_game" class="stats_table">'
            f"{_header(PLAYER_STATS, ('rank', 'Rk'), ('player', 'Player'), ('team', 'Tm'))}"
            f'<tbody>\n{body}</tbody></table><div class="pager">{pager}</div>'
        ),
    )


def _team_pages(site: SiteBuild, team_rows: list[dict], player_rows: list[dict]) -> None:
    for abbr, city, nick in TEAMS:
        own = [r for r in team_rows if r["abbreviation"] == abbr]
        body = "".join(
            f'<tr><th scope="row" data-stat="year"><a href="{ROOT}/team/{abbr}/{r["year"]}/">'
            f"{r['year']}</a></th>{_cells(r, TEAM_STATS)}</tr>"
            for r in own
        )
        site.add_html(
            f"{ROOT}/team/{abbr}/",
            _layout(
                f"{city} {nick}",
                (
                    f'<h1>{esc(city)} {esc(nick)}</h1><table id="team_seasons" class="stats_table">'
                    f"{_header(TEAM_STATS, ('year', 'Season'))}<tbody>{body}</tbody></table>"
                ),
            ),
            "table",
        )
        for year in SEASONS:
            roster = [r for r in player_rows if r["team"] == abbr and r["year"] == year]
            rows = "".join(
                f'<tr><th scope="row" data-stat="player">{esc(r["player"])}</th>'
                f"{_cells(r, PLAYER_STATS)}</tr>"
                for r in roster
            )
            site.add_html(
                f"{ROOT}/team/{abbr}/{year}/",
                _layout(
                    f"{city} {nick} {year}",
                    (
                        f'<h1>{year} {esc(city)} {esc(nick)} Roster and Stats</h1><table id="roster" class="stats_table">'
                        f"{_header(PLAYER_STATS, ('player', 'Player'))}<tbody>{rows}</tbody></table>"
                    ),
                ),
                "table",
            )


def build(seed: int) -> SiteBuild:
    rng = random.Random(f"{seed}:{NAME}")
    team_rows, player_rows = _team_seasons(rng), _player_seasons(rng)
    teams = {abbr: f"{city} {nick}" for abbr, city, nick in TEAMS}
    site = SiteBuild(
        NAME,
        "Hoops Reference",
        "sports",
        "Basketball statistics: season standings, paginated player per-game tables, team "
        "histories and rosters",
        "stats tables with data-stat attributes",
    )
    for year in SEASONS:
        site.add_html(
            f"{ROOT}/season/{year}/standings.html",
            _standings(year, [r for r in team_rows if r["year"] == year]),
            "table",
        )
        season_players = [r for r in player_rows if r["year"] == year]
        pages = page_count(len(season_players), PLAYERS_PER_PAGE)
        for page in range(1, pages + 1):
            path = f"{ROOT}/season/{year}/players/" + ("" if page == 1 else f"{page}/")
            site.add_html(path, _player_page(year, season_players, page, pages, teams), "table", "list")
    _team_pages(site, team_rows, player_rows)
    links = "".join(
        f'<li><a href="{ROOT}/season/{y}/standings.html">{y} standings</a> &middot; '
        f'<a href="{ROOT}/season/{y}/players/">{y} players</a></li>'
        for y in SEASONS
    )
    site.add_html(f"{ROOT}/", _layout("Home", f"<h1>Hoops Reference</h1><ul>{links}</ul>"), "home")
    site.truth = {
        "site": NAME,
        "league": "Demo Basketball League",
        "seasons": list(SEASONS),
        "teams": [
            {"abbreviation": a, "name": f"{c} {n}", "city": c, "url": f"{ROOT}/team/{a}/"}
            for a, c, n in TEAMS
        ],
        "team_stat_fields": [k for k, _a, _t in TEAM_STATS],
        "player_stat_fields": [k for k, _a, _t in PLAYER_STATS],
        "team_seasons": team_rows,
        "player_seasons": player_rows,
    }
    return site
