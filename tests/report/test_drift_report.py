"""A spec run's report draws the output profile, forged beside now, and marks the drifted column with its
evidence; loaded in real Chromium, the page makes no request but the file itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.bench.swde import read_page
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.profile import with_profile
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.views import FieldRequest

SITE = Path(__file__).resolve().parents[2] / "../shared/data/swde/book/book-amazon"


@pytest.mark.skipif(not SITE.is_dir(), reason="SWDE pages not present")
def test_report_draws_forged_and_current_profile_and_the_drift(open_report, tmp_path, screenshot_dir):
    texts = [read_page(p) for p in sorted(SITE.glob("*.htm"))]
    seeds = [parse_for_replay(t) for t in texts[:3]]
    spec = induce_scraper([FieldRequest("title", "the title of the book"),
                           FieldRequest("isbn_13", "the isbn number of the book")], seeds, method="heuristic")
    with_profile(spec, seeds).save(tmp_path / "spec.json")
    for index, text in enumerate(texts[3:]):
        (tmp_path / f"{index}.htm").write_text(mutate_page(text, "classes", 0), encoding="utf-8")
    env = {**os.environ, "SCRAPESMITH_LLM": "none"}
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "run", "spec.json",
                           *(f"{i}.htm" for i in range(len(texts) - 3)), "-o", "out.csv"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 3, done.stderr
    report = tmp_path / "out.report.html"
    page, requests = open_report(report)
    screenshot_dir.mkdir(exist_ok=True)
    page.screenshot(path=str(screenshot_dir / "drift-report.png"), full_page=True)
    assert "The site changed" in page.locator("#drift").inner_text()
    title = page.locator('#profile tr[data-column="title"]')
    assert "flagged" in title.get_attribute("class")
    assert title.locator(".flag").inner_text() == f"title: 0 of {len(texts) - 3} filled, was 3 of 3"
    assert title.locator("svg.fill rect").count() == 4  # two backgrounds, two bars: forged and now
    isbn = page.locator('#profile tr[data-column="isbn_13"]')
    assert isbn.locator(".flag").inner_text() == "" and isbn.locator("svg.histogram").count() == 1
    assert requests == [report.resolve().as_uri()]
