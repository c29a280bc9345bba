"""``scrapesmith crawl``: polite, robots-aware link following whose URL list feeds ``run``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.io import read_rows
from scrapesmith.web.archive import WarcReplayFetcher
from scrapesmith.web.crawl import FollowRule, crawl
from scrapesmith.web.fetch import HttpFetcher


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def _details(demo_web) -> list[str]:
    return [demo_web.url(path) for path in demo_web.sites.urls("pagecraft", kind="detail")]


def test_a_regex_rule_follows_pagination_into_every_detail_page(demo_web):
    rule = FollowRule.parse(r"/pagecraft/(p/pc\d+|shop/\d+/)$")
    with HttpFetcher(allow_hosts=[demo_web.host], delay=0) as fetcher:
        result = crawl(demo_web.url("/pagecraft/shop/"), rule, fetcher, max_pages=200)
    assert set(_details(demo_web)) <= set(result.urls)
    assert len(result.urls) == len(set(result.urls)) and not result.failures


def test_max_pages_bounds_the_fetches(demo_web):
    rule = FollowRule.parse("css:a.c-32ca9")
    with HttpFetcher(allow_hosts=[demo_web.host], delay=0) as fetcher:
        result = crawl(demo_web.url("/pagecraft/shop/"), rule, fetcher, max_pages=4)
    assert result.fetched == 4 and len(result.urls) == 3 and "page limit (4)" in result.stop_reason


def test_robots_txt_is_respected_and_a_refused_page_is_a_failure_not_a_stop(demo_web):
    rule = FollowRule.parse("a")
    with HttpFetcher(allow_hosts=[demo_web.host], delay=0) as fetcher:
        result = crawl(demo_web.url("/pagecraft/shop/"), rule, fetcher, max_pages=30, max_depth=1)
    assert demo_web.url("/private/") in result.failures
    assert "robots" in result.failures[demo_web.url("/private/")].lower()
    assert demo_web.url("/private/") not in result.urls and result.urls


def test_rules_read_as_css_or_regex():
    assert FollowRule.parse("li.item a").css == "li.item a"
    assert FollowRule.parse(r"/book/\d+").pattern is not None
    assert FollowRule.parse("re:a.b").pattern is not None


def test_crawl_writes_a_url_list_that_run_reads_and_archives_what_it_fetched(demo_web, tmp_path):
    done = scrapesmith("crawl", demo_web.url("/pagecraft/shop/"), "--follow", "a.c-32ca9", "-o", "urls.txt",
                       "--warc", "crawl.warc.gz", "--delay", "0", "--allow-host", demo_web.host, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    urls = (tmp_path / "urls.txt").read_text().split()
    assert urls and set(urls) <= set(_details(demo_web))
    assert set(urls) <= set(WarcReplayFetcher(tmp_path / "crawl.warc.gz").urls)
    ScraperSpec(fields=[FieldSpec(name="title", actions=["//title/text()"])]).save(tmp_path / "spec.json")
    ran = scrapesmith("run", "spec.json", "urls.txt", "-o", "rows.csv", "--delay", "0", "--concurrency", "4",
                      "--allow-host", demo_web.host, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    rows = read_rows(tmp_path / "rows.csv")
    assert [row["source_url"] for row in rows] == urls and all(row["title"] for row in rows)


@pytest.mark.parametrize(("args", "says"), [
    (("--follow", "(["), "is neither a CSS selector nor a regex"),
    (("--follow", "a", "-o", "urls.csv"), "-o must end in .txt"),
    (("--follow", "a", "--max-pages", "0"), "'--max-pages'"),
])
def test_crawl_usage_mistakes_are_one_line_and_exit_2(tmp_path, args, says):
    done = scrapesmith("crawl", "http://127.0.0.1:9/", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
