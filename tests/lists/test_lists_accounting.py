"""Nothing lost silently: items are deduplicated by identity (URL or node), never by extracted values;
every dropped item is counted with its reason and every mostly-empty column is named."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from scrapesmith.cli import app
from scrapesmith.io import read_rows
from scrapesmith.lists.replay import REPEATED_URL
from scrapesmith.lists.service import extract_list


def test_acme_job_titles_alone_give_every_job(demo_web, demo_runtimes) -> None:
    jobs = demo_web.sites.truth("acme")["jobs"]
    assert len({job["title"] for job in jobs}) < len(jobs), "the site repeats titles: the case this guards"
    _recording, result = extract_list(
        demo_runtimes, demo_web.url("/acme/careers/"), "all open jobs", ["Job Title"]
    )
    assert len(result.rows) == len(jobs)
    assert sorted(row["Job Title"] for row in result.rows) == sorted(job["title"] for job in jobs)
    assert not result.dropped and not result.warnings


def page(items: list[tuple[str, str]], next_href: str | None = None) -> str:
    body = "".join(
        f'<li class="row"><h3><a href="{href}">{title}</a></h3><p>Posted in {title}.</p></li>'
        for title, href in items
    )
    pager = f'<a class="pager" href="{next_href}">Next</a>' if next_href else ""
    return f"<html><body><ul class='rows'>{body}</ul>{pager}</body></html>"


def test_equal_values_are_kept_and_repeated_urls_are_counted(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/p1"] = page([("Same", "/a"), ("Same", "/b"), ("Same", "/c")], next_href="/p2")
    mutable_site.pages["/p2"] = page([("Same", "/c"), ("Same", "/d"), ("Other", "/e")])
    recording, result = extract_list(site_runtimes, mutable_site.url("/p1"), "rows", ["Title"])
    assert [row["Title"] for row in result.rows] == ["Same", "Same", "Same", "Same", "Other"]
    assert result.items_seen == 6 and result.dropped == {REPEATED_URL: 1}
    assert any("dropped 1 of 6 items" in note for note in recording.program.notes)


def test_items_sharing_one_link_are_told_apart_by_node(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = page([("Role", "/apply"), ("Role", "/apply"), ("Role", "/apply")])
    _recording, result = extract_list(site_runtimes, mutable_site.url("/list"), "rows", ["Title"])
    assert len(result.rows) == 3 and not result.dropped


def test_mostly_empty_column_is_warned_in_output_and_run_record(mutable_site, tmp_path: Path) -> None:
    mutable_site.pages["/list"] = page([("Alpha", "/a"), ("Beta", "/b"), ("Gamma", "/c")])
    out = tmp_path / "rows.csv"
    result = CliRunner().invoke(
        app,
        [
            "lists",
            mutable_site.url("/list"),
            "--goal",
            "rows",
            "--columns",
            "Title,Salary Band",
            "--llm",
            "none",
            "-o",
            str(out),
            "--allow-host",
            f"{mutable_site.host}:{mutable_site.port}",
            "--delay",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "column 'Salary Band' is empty in 3 of 3 rows" in result.output
    record = json.loads((tmp_path / "rows.run.json").read_text())
    assert record["rows"] == 3 == len(read_rows(out))
    assert record["warnings"] == ["column 'Salary Band' is empty in 3 of 3 rows"]
