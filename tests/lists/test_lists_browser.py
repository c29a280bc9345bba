"""List programs in real Chromium: a script-rendered job board with "Load more" and a <select> filter."""

from __future__ import annotations

import shutil

import pytest

from scrapesmith.bench.weblists import url_key
from scrapesmith.lists.browser import BrowserRuntimes
from scrapesmith.lists.service import extract_list, make_runtimes, replay_program
from scrapesmith.lists.views import ListProgram

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed"),
]


@pytest.fixture(scope="module")
def browser_runtimes(demo_web):
    with BrowserRuntimes([f"{demo_web.host}:{demo_web.port}"], delay=0.0) as runtimes:
        yield runtimes


def test_load_more_list_is_extracted_completely(demo_web, browser_runtimes) -> None:
    truth = demo_web.sites.truth("globex")
    recording, result = extract_list(
        browser_runtimes, demo_web.url("/globex/careers/"), "all open jobs", ["Job Title", "Job URL"]
    )
    assert recording.program.runtime == "browser"
    assert sorted(url_key(row["Job URL"]) for row in result.rows) == sorted(
        url_key(j["url"]) for j in truth["jobs"]
    )
    assert result.pages > 1 and result.duplicates > 0  # each click re-shows earlier items: deduplicated
    assert any(note.startswith("list evidence: rendered at 1280x800") for note in recording.notes)


def test_auto_runtime_ranks_with_the_layout_only_where_it_renders_anyway(demo_web) -> None:
    with make_runtimes("auto", [f"{demo_web.host}:{demo_web.port}"], delay=0.0) as runtimes:
        rendered, _ = extract_list(runtimes, demo_web.url("/globex/careers/"), "all open jobs", ["Job Title"])
        over_http, _ = extract_list(runtimes, demo_web.url("/acme/careers/"), "all open jobs", ["Job Title"])
    evidence = [[n for n in r.notes if n.startswith("list evidence:")] for r in (rendered, over_http)]
    assert evidence[0][0].startswith("list evidence: rendered at")
    assert evidence[1] == ["list evidence: not rendered (the http runtime does not render pages); DOM evidence only"]


def test_select_filter_is_recorded_and_replayed_in_the_browser(demo_web, browser_runtimes) -> None:
    truth = demo_web.sites.truth("globex")
    recording, _ = extract_list(
        browser_runtimes, demo_web.url("/globex/careers/"), "all Design jobs", ["Job Title", "Job URL"]
    )
    program = ListProgram.from_json(recording.program.to_json())
    assert program.plan().setup[0].action == "TypeInput"
    result = replay_program(browser_runtimes, program)
    expected = sorted(url_key(j["url"]) for j in truth["jobs"] if j["category"] == "Design")
    assert sorted(url_key(row["Job URL"]) for row in result.rows) == expected
