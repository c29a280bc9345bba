"""Instruct2DS-style benchmark on the demo web (AutoData paper, section 4 and Appendix A).

Templates per domain are instantiated with placeholder values P drawn from the sites' own data; the
ground truth GT-DS = g(T, P, D) is computed from the sites' database D (their truth JSON), never from
pages. Scoring follows Appendix D.2: every attribute (column) is a unit, scored by precision, recall
and F1 between the multisets of its values in DS and GT-DS, then averaged over attributes; numbers are
rounded to four decimals before comparison, links compare by path. Time and LLM cost are per task.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from scrapesmith.bench.frame import BenchResult
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import is_empty, read_rows

DOMAINS = ("academic", "finance", "sports")
SITE_OF = {"academic": "proceedings", "finance": "stocks", "sports": "sports"}
Truth = Callable[[dict, dict], list[dict]]


@dataclass(frozen=True)
class Template:
    name: str
    domain: str
    text: str
    columns: tuple[str, ...]
    truth: Truth


@dataclass(frozen=True)
class Task:
    template: Template
    values: dict

    @property
    def instruction(self) -> str:
        return self.template.text.format(**self.values)

    @property
    def task_id(self) -> str:
        return f"{self.template.name}:" + ",".join(str(v) for v in self.values.values())


def failure_reasons(rows: list[dict], truth: list[dict], columns: tuple[str, ...], run_dir: Path,
                    error: str = "") -> list[str]:
    """Why a task lost points, read from its run: ``error``, ``no rows``, ``wrong page`` (no key value of the
    truth among the rows), ``filter not applied`` (the truth's rows plus others), ``rows missing``,
    ``column unmapped: c``
    (a column empty in every row, or all wrong while the key is right) and ``validation failed: checks``."""
    reasons = [f"error: {error}"] if error else []
    if not rows:
        return reasons or ["no rows"]
    key = columns[0]
    got = {normalize(r.get(key)) for r in rows}
    want = {normalize(r.get(key)) for r in truth}
    if not got & want:
        reasons.append("wrong page")
    elif len(rows) > len(truth) and want <= got:
        reasons.append("filter not applied")
    elif len(rows) < len(truth):
        reasons.append(f"rows missing: {len(rows)} of {len(truth)}")
    scores = attribute_scores(rows, truth, columns)
    for column in columns:
        empty = all(is_empty(r.get(column)) for r in rows)
        if empty or (scores[column]["f1"] == 0.0 and scores[key]["f1"] > 0):
            reasons.append(f"column unmapped: {column}")
    validation = run_dir / "validation.json"
    if validation.is_file():
        report = json.loads(validation.read_text(encoding="utf-8"))
        if not report.get("ok"):
            failed = [c["name"] for c in report.get("checks", []) if not c.get("ok")]
            reasons.append("validation failed: " + ", ".join(failed))
    return reasons


def _papers(d: dict, p: dict) -> list[dict]:
    return [{"title": x["title"], "authors": ", ".join(x["authors"]), "track": x["track"], "url": x["url"]}
            for x in d["papers"] if x["conference"] == p["conference"] and x["year"] == p["year"]
            and ("track" not in p or x["track"] == p["track"])]


def _prices(d: dict, p: dict) -> list[dict]:
    return [row for row in d["prices"] if row["symbol"] == p["symbol"] and p["start"] <= row["date"] <= p["end"]]


def _team_row(d: dict, p: dict) -> list[dict]:
    return [r for r in d["teams"] if r["year"] == p["year"] and r["team"] == p["team"]]


def _standings(d: dict, p: dict) -> list[dict]:
    return [r for r in d["teams"] if r["year"] == p["year"]]


def _players(d: dict, p: dict) -> list[dict]:
    return [r for r in d["players"] if r["year"] == p["year"]]


TEMPLATES = (
    Template("academic-T1", "academic", "Collect all papers of {conference} {year} with columns title, authors, "
             "track and url.", ("title", "authors", "track", "url"), _papers),
    Template("academic-T2", "academic", "Collect all papers of the {track} track of {conference} {year} with "
             "columns title, authors and url.", ("title", "authors", "url"), _papers),
    Template("finance-T1", "finance", "Collect {symbol} daily prices from {start} to {end} with columns date, "
             "open, high, low, close and volume.", ("date", "open", "high", "low", "close", "volume"), _prices),
    Template("finance-T2", "finance", "Collect {symbol} daily adjusted prices from {start} to {end} with columns "
             "date, adj_open, adj_high, adj_low, adj_close and div_cash.",
             ("date", "adj_open", "adj_high", "adj_low", "adj_close", "div_cash"), _prices),
    Template("sports-T1", "sports", "Collect the {year} season stats of the {team} with columns team, wins, "
             "losses, win_pct and points_per_game.", ("team", "wins", "losses", "win_pct", "points_per_game"),
             _team_row),
    Template("sports-T2", "sports", "Collect the {year} standings of all teams with columns team, games, wins, "
             "losses and win_pct.", ("team", "games", "wins", "losses", "win_pct"), _standings),
    Template("sports-T3", "sports", "Collect the {year} per-game stats of all players with columns player, team, "
             "games, points_per_game and assists_per_game.",
             ("player", "team", "games", "points_per_game", "assists_per_game"), _players),
)


def _instances(template: Template, truth: dict, rng: random.Random) -> list[dict]:
    """Every distinct placeholder assignment of a template (only the placeholders its text uses), or, for
    finance whose date windows are too many to list, a large random sample of them."""
    if template.domain == "academic":
        keys = ("conference", "year", "track") if "{track}" in template.text else ("conference", "year")
        values = [{k: listing[k] for k in keys} for listing in truth["listings"]]
    elif template.domain == "finance":
        days = sorted({row["date"] for row in truth["prices"]})
        symbols = [s["symbol"] for s in truth["symbols"]]
        values = []
        for _ in range(200):
            start = rng.randrange(0, len(days) - 40)
            values.append({"symbol": rng.choice(symbols), "start": days[start],
                           "end": days[start + rng.randrange(10, 40)]})
    elif "{team}" in template.text:
        values = [{"year": r["year"], "team": r["team"]} for r in truth["teams"]]
    else:
        values = [{"year": year} for year in sorted({r["year"] for r in truth["teams"]})]
    distinct = {Task(template, v).instruction: v for v in values if template.truth(truth, v)}
    return list(distinct.values())


def sports_database(site_truth: dict) -> dict:
    """The sports site's truth under the names the templates use (``teams``/``players``)."""
    return {"teams": site_truth["team_seasons"], "players": site_truth["player_seasons"]}


def make_tasks(truths: dict[str, dict], domains: list[str], per_template: int, seed: int = 0) -> list[Task]:
    """Up to ``per_template`` distinct tasks per template, drawn without replacement: a template with fewer
    instances (the four seasons of the standings) gives fewer tasks, never the same instruction twice."""
    rng = random.Random(seed)
    tasks = []
    for template in TEMPLATES:
        if template.domain not in domains:
            continue
        instances = _instances(template, truths[template.domain], rng)
        tasks += [Task(template, values) for values in rng.sample(instances, min(per_template, len(instances)))]
    return tasks


_NUMBER = re.compile(r"^-?[\d,]*\.?\d+(?:[eE]-?\d+)?$")


def normalize(value: object) -> str:
    """Numbers rounded to 4 decimals, links by path, other text whitespace- and case-normalised."""
    text = " ".join(str("" if value is None else value).split())
    if _NUMBER.match(text):
        number = round(float(text.replace(",", "")), 4)
        return repr(number)
    if text.startswith(("http://", "https://", "/")):
        return urlsplit(text).path
    return text.lower()


def attribute_scores(collected: list[dict], truth: list[dict], columns: tuple[str, ...]) -> dict[str, dict]:
    """P/R/F1 per attribute unit: multiset overlap of the column's normalised values."""
    scores = {}
    for column in columns:
        got = Counter(normalize(r.get(column)) for r in collected if not is_empty(r.get(column)))
        want = Counter(normalize(r.get(column)) for r in truth)
        hits = sum((got & want).values())
        precision = hits / sum(got.values()) if got else 0.0
        recall = hits / sum(want.values()) if want else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        scores[column] = {"precision": precision, "recall": recall, "f1": f1}
    return scores


def score_task(collected: list[dict], truth: list[dict], columns: tuple[str, ...]) -> dict[str, float]:
    scores = attribute_scores(collected, truth, columns)
    return {metric: round(sum(s[metric] for s in scores.values()) / len(scores), 4)
            for metric in ("precision", "recall", "f1")}


Runner = Callable[[Task, Path], object]


def run_instruct2ds(tasks: list[Task], truths: dict[str, dict], run_task: Runner, out_dir: Path,
                    on_task: Callable[[Task], None] | None = None, params: dict | None = None) -> BenchResult:
    """Run each task with ``run_task(task, run_dir)`` (which returns a ``CollectResult``) and score it."""
    cases = []
    for index, task in enumerate(tasks):
        run_dir = out_dir / f"{index:03d}-{task.template.name}"
        started = time.monotonic()
        case = {"task": task.task_id, "domain": task.template.domain, "instruction": task.instruction}
        try:
            result = run_task(task, run_dir)
            rows = read_rows(run_dir / "dataset.csv") if (run_dir / "dataset.csv").is_file() else []
            case.update(rows=len(rows), llm_calls=result.llm_calls, tokens=result.tokens, cost=result.cost,
                        error="")
        except ScrapesmithError as exc:
            rows = []
            case.update(rows=0, llm_calls=0, tokens=0, cost=0.0, error=str(exc)[:200])
        truth = task.template.truth(truths[task.template.domain], task.values)
        case.update(score_task(rows, truth, task.template.columns), truth_rows=len(truth),
                    seconds=round(time.monotonic() - started, 2))
        case["failures"] = ([] if case["f1"] == 1.0 else
                            failure_reasons(rows, truth, task.template.columns, run_dir, case["error"]))
        cases.append(case)
        if on_task is not None:
            on_task(task)
    return BenchResult("instruct2ds", summarize(cases), cases, params or {})


def summarize(cases: list[dict]) -> dict:
    summary: dict = {"tasks": len(cases)}
    for domain in [*DOMAINS, "all"]:
        chosen = [c for c in cases if domain == "all" or c["domain"] == domain]
        if not chosen:
            continue
        prefix = "" if domain == "all" else f"{domain}_"
        for metric in ("precision", "recall", "f1"):
            summary[f"{prefix}{metric}"] = round(sum(c[metric] for c in chosen) / len(chosen), 4)
        summary[f"{prefix}seconds_per_task"] = round(sum(c["seconds"] for c in chosen) / len(chosen), 2)
        summary[f"{prefix}tokens_per_task"] = round(sum(c["tokens"] for c in chosen) / len(chosen), 1)
    summary["llm_calls"] = sum(c["llm_calls"] for c in cases)
    summary["tokens"] = sum(c["tokens"] for c in cases)
    summary["cost"] = round(sum(c["cost"] for c in cases), 6)
    return summary


def site_truths(sites) -> dict[str, dict]:
    """D per domain from the demo sites' data."""
    return {"academic": sites.truth("proceedings"), "finance": sites.truth("stocks"),
            "sports": sports_database(sites.truth("sports"))}


DEMO_TEMPLATES = ("academic-T2", "finance-T1", "sports-T2")


def demo_instructions(truths: dict[str, dict]) -> list[Task]:
    """One task per domain for ``scrapesmith demo``: a track's papers, a stock's daily prices, a season's standings."""
    tasks = make_tasks(truths, list(DOMAINS), 1)
    return [next(t for t in tasks if t.template.name == name) for name in DEMO_TEMPLATES]
