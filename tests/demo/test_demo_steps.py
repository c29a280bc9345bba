"""The demo's steps on the running demo web: survey (every site fetched and archived) and collect."""

from __future__ import annotations

import io

from rich.console import Console

from scrapesmith.demo.collect_step import collect_per_domain
from scrapesmith.demo.context import DemoContext
from scrapesmith.demo.survey import survey_sites
from scrapesmith.web.archive import ArchivingFetcher, WarcReplayFetcher, WarcWriter
from scrapesmith.web.fetch import HttpFetcher


def test_survey_fetches_every_site_and_archives_the_pages(demo_web, tmp_path):
    output = io.StringIO()
    console = Console(file=output, width=200)
    with WarcWriter(tmp_path / "pages.warc.gz") as warc, HttpFetcher(allow_hosts=["127.0.0.1"], delay=0) as http:
        survey_sites(DemoContext(demo_web, ArchivingFetcher(http, warc), tmp_path, console))
    text = output.getvalue()
    for name in demo_web.sites.site_names:
        assert name in text
    assert "failed" not in text
    archived = WarcReplayFetcher(tmp_path / "pages.warc.gz").urls
    assert demo_web.url("/proceedings/") in archived
    assert len(archived) >= 8 * 5


def test_collect_step_runs_one_instruction_per_domain_without_a_model(demo_web, tmp_path):
    """Without a model the academic and sports instructions (they name a start page) come out exact, and so
    does finance (no start page): its seed, the stock site, is searched by the instruction's keywords."""
    output = io.StringIO()
    console = Console(file=output, width=300)
    with WarcWriter(tmp_path / "pages.warc.gz") as warc, HttpFetcher(allow_hosts=["127.0.0.1"], delay=0) as http:
        collect_per_domain(DemoContext(demo_web, ArchivingFetcher(http, warc), tmp_path, console, "none"))
    text = output.getvalue()
    assert text.count("F1 1.0000") == 3 and "not collected" not in text
    for domain in ("academic", "sports", "finance"):
        assert (tmp_path / f"collect-{domain}" / "dataset.csv").is_file()
        assert (tmp_path / f"collect-{domain}" / "program.py").is_file()
