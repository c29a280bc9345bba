"""Reports as a person sees them: real runs on the demo web, drawn, then loaded in real Chromium.

Each test checks what the page shows against the run's own files — the summary figures against
``result.json``/the ledger, the table's first row against the dataset's first row, a provenance link
against the row's ``source_url`` — and that opening the report makes no request but the file itself.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from scrapesmith.collect.service import collect
from scrapesmith.io import read_rows
from scrapesmith.lists.service import extract_list, http_runtimes, save_run
from scrapesmith.llm.ledger import Ledger, use_ledger
from scrapesmith.web.fetch import HttpFetcher


def _figure(page, name: str) -> str:
    return page.locator(f'#summary [data-figure="{name}"]').inner_text()


def _first_row(page, columns: list[str]) -> dict[str, str]:
    cells = page.locator("#rows tbody tr").first.locator("td").all_inner_texts()
    return dict(zip(columns, cells, strict=True))


def _only_the_file(requests: list[str], report: Path) -> None:
    assert requests == [report.resolve().as_uri()], f"the report made requests: {requests}"


@pytest.fixture(scope="module")
def collect_run(demo_web, tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("collect") / "standings"
    url = demo_web.url("/sports/season/2024/standings.html")
    collect(f"Standings at {url} with columns team, wins and losses", llm=None, run_dir=run_dir,
            allow_hosts=["127.0.0.1"], delay=0)
    return run_dir


def test_collect_report_shows_what_the_run_files_hold(collect_run, open_report, screenshot_dir):
    report = collect_run / "report.html"
    result = json.loads((collect_run / "result.json").read_text())
    rows = read_rows(collect_run / "dataset.csv")
    page, requests = open_report(report)
    screenshot_dir.mkdir(exist_ok=True)
    page.screenshot(path=str(screenshot_dir / "collect-report.png"), full_page=True)

    assert int(_figure(page, "rows")) == result["rows"] == len(rows)
    assert int(_figure(page, "llm_calls")) == result["llm_calls"]
    assert int(_figure(page, "tokens")) == result["input_tokens"] + result["output_tokens"]
    assert page.locator("#summary").get_attribute("data-valid") == ("valid" if result["valid"] else "invalid")
    columns = page.locator("#rows thead th").all_inner_texts()
    assert columns == list(rows[0])
    assert _first_row(page, columns) == rows[0]
    link = page.locator("#rows tbody tr").first.locator("td a").first
    assert link.get_attribute("href") == rows[0]["source_url"]
    checks = json.loads((collect_run / "validation.json").read_text())["checks"]
    assert page.locator("#checks tbody tr").count() == len(checks)
    assert page.locator("#trail tbody tr").count() == len((collect_run / "messages.jsonl").read_text().splitlines())
    _only_the_file(requests, report)


@pytest.fixture(scope="module")
def lists_run(demo_web, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lists")
    ledger = Ledger()
    with use_ledger(ledger), HttpFetcher(allow_hosts=["127.0.0.1"], delay=0) as fetcher:
        recording, result = extract_list(http_runtimes(fetcher), demo_web.url("/acme/blog/"), "all blog posts",
                                         ["Post Title", "Post URL", "Author"])
    program = recording.program.save(folder / "posts.json")
    return save_run("lists", recording.program, result, folder / "posts.csv", ledger, program)


def test_lists_report_shows_rows_steps_and_provenance(lists_run, open_report, screenshot_dir):
    record = json.loads(lists_run.with_name("posts.run.json").read_text())
    rows = read_rows(lists_run.with_name("posts.csv"))
    page, requests = open_report(lists_run)
    page.screenshot(path=str(screenshot_dir / "lists-report.png"), full_page=True)

    assert int(_figure(page, "rows")) == record["rows"] == len(rows)
    assert int(_figure(page, "llm_calls")) == record["ledger"]["totals"]["calls"]
    assert page.locator("#summary").get_attribute("data-valid") == "unvalidated"
    columns = page.locator("#rows thead th").all_inner_texts()
    assert _first_row(page, columns) == rows[0]
    link = page.locator("#rows tbody tr").nth(1).locator("td a").first
    assert link.get_attribute("href") == rows[1]["source_url"]
    assert page.locator("#steps mark.selector").count() >= len([s for s in record["steps"] if "'" in s]) - 2
    for column in page.locator("#columns tbody tr").all():
        name = column.get_attribute("data-column")
        filled = sum(1 for row in rows if (row.get(name) or "").strip())
        assert int(column.locator("td[data-fill]").get_attribute("data-fill")) == filled
    _only_the_file(requests, lists_run)


def test_ledger_chart_draws_one_bar_per_stage_with_the_ledger_figures(collect_run, open_report, tmp_path):
    """Model use per stage, from a ledger recorded through the real ``LedgeredLLM`` (a scripted model
    stands in for the provider: the chart, not the model, is under test)."""
    from scrapesmith.llm.ledger import LedgeredLLM
    from scrapesmith.llm.scripted import ScriptedLLM
    from scrapesmith.llm.views import ChatMessage, LLMRequest
    from scrapesmith.report import write_report

    run_dir = tmp_path / "run"
    shutil.copytree(collect_run, run_dir)
    ledger = Ledger()
    model = LedgeredLLM(ScriptedLLM(lambda request: "a short answer"), ledger)
    for stage, prompt in [("collect.web", "which page " * 40), ("collect.web", "and now?"), ("collect.plan", "plan")]:
        model.complete(LLMRequest(messages=[ChatMessage(role="user", content=prompt)], stage=stage))
    ledger.save(run_dir / "ledger.json")
    page, requests = open_report(write_report(run_dir))

    bars = {bar.get_attribute("data-stage"): bar for bar in page.locator("#ledger-chart g[data-stage]").all()}
    assert set(bars) == {"collect.web", "collect.plan"}
    stages = ledger.by_stage()
    for stage, bar in bars.items():
        tokens = stages[stage].input_tokens + stages[stage].output_tokens
        assert bar.locator("text").nth(1).text_content() == f"{tokens} tokens, {stages[stage].calls} calls"
    widths = {stage: float(bar.locator("rect").get_attribute("width")) for stage, bar in bars.items()}
    assert widths["collect.web"] > widths["collect.plan"]
    _only_the_file(requests, run_dir / "report.html")


def test_report_command_on_a_folder_draws_every_run_and_an_index(collect_run, lists_run, tmp_path, open_report):
    from typer.testing import CliRunner

    from scrapesmith.cli import app

    folder = tmp_path / "demo-like"
    shutil.copytree(collect_run, folder / "collect-sports")
    for name in ("posts.csv", "posts.run.json"):
        shutil.copy(lists_run.with_name(name), folder / name)
    outcome = CliRunner().invoke(app, ["report", str(folder)])
    assert outcome.exit_code == 0, outcome.output
    assert (folder / "collect-sports" / "report.html").is_file() and (folder / "posts.report.html").is_file()
    page, requests = open_report(folder / "report.html")
    links = page.locator("#runs tbody tr td a")
    assert sorted(links.evaluate_all("links => links.map(a => a.getAttribute('href'))")) == [
        "collect-sports/report.html", "posts.report.html"]
    collected = json.loads((folder / "collect-sports" / "result.json").read_text())
    row = page.locator('#runs tr[data-report="collect-sports/report.html"] [data-figure="rows"]')
    assert int(row.inner_text()) == collected["rows"]
    _only_the_file(requests, folder / "report.html")


def test_rerun_report_counts_the_rows_the_rerun_wrote(collect_run, open_report, tmp_path):
    from scrapesmith.collect.program import run_program_file, save_rerun

    run_dir = tmp_path / "rerun"
    shutil.copytree(collect_run, run_dir)
    (run_dir / "dataset.csv").unlink()
    result = run_program_file(run_dir / "program.py", ["127.0.0.1"])
    assert result.ok, result.stderr
    report = save_rerun(run_dir / "program.py", result)
    rows = read_rows(run_dir / "dataset.csv")
    page, requests = open_report(report)
    assert report.name == "rerun.report.html" and (run_dir / "report.html").is_file()
    assert int(_figure(page, "rows")) == len(rows) > 0 and int(_figure(page, "llm_calls")) == 0
    assert _first_row(page, page.locator("#rows thead th").all_inner_texts()) == rows[0]
    _only_the_file(requests, report)


def test_spec_run_report_links_each_row_to_its_page_and_counts_failed_pages(demo_web, open_report, tmp_path):
    from scrapesmith.dom import parse_html
    from scrapesmith.induce import FieldRequest, induce_scraper
    from scrapesmith.induce.service import run_spec, save_spec_run

    paths = demo_web.sites.urls("pagecraft", kind="detail")
    seeds = [parse_html(demo_web.sites.respond(path).body) for path in paths[:3]]
    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book")], seeds, site="pagecraft")
    spec_path = spec.save(tmp_path / "spec.json")
    sources = [demo_web.url(path) for path in paths[3:6]] + [demo_web.url("/pagecraft/p/missing")]
    rows = run_spec(spec, sources, ["127.0.0.1"])
    report = save_spec_run(spec, spec_path, rows, tmp_path / "books.csv", 0.5)
    page, requests = open_report(report)
    written = read_rows(tmp_path / "books.csv")
    assert int(_figure(page, "rows")) == len(written) == 4
    assert int(_figure(page, "failures")) == 1
    assert page.locator("#rows tbody tr").first.locator("td a").first.get_attribute("href") == sources[0]
    assert _first_row(page, page.locator("#rows thead th").all_inner_texts()) == written[0]
    _only_the_file(requests, report)
