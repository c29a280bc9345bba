"""The layout cache (bench/layout_cache.py): a page drawn once in Chromium is read back box for box on the
next run, a page that could not be drawn is not stored, and a damaged entry is drawn again."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from scrapesmith.bench.layout_cache import LayoutCache, page_key
from scrapesmith.cli import app
from scrapesmith.dom import PageLayout, detect_lists, parse_html, unrendered
from scrapesmith.web.browser import BrowserRuntime
from scrapesmith.web.browser.layout import render_layout

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


def page(number: str) -> etree._Element:
    return parse_html((DATA / "html" / f"{number}.html").read_bytes())


def never_drawn(root: etree._Element) -> PageLayout:
    raise AssertionError("the cache should have answered")


def boxes_by_path(root: etree._Element, layout: PageLayout) -> dict[str, tuple[float, ...]]:
    tree = root.getroottree()
    return {
        tree.getpath(element): (box.x, box.y, box.width, box.height, box.font_size, float(box.visible))
        for element, box in layout.boxes.items()
    }


@pytest.mark.browser
def test_a_drawn_page_is_read_back_box_for_box_without_a_browser(tmp_path: Path) -> None:
    with BrowserRuntime() as runtime:
        drawing = LayoutCache(tmp_path, lambda root: render_layout(root, runtime))
        first_root = page("28")
        drawn = drawing(first_root)
    assert drawn.rendered and drawing.drawn == 1 and not drawing.last_cached
    reading = LayoutCache(tmp_path, never_drawn)
    second_root = page("28")
    read = reading(second_root)
    assert reading.hits == 1 and reading.last_cached
    assert boxes_by_path(second_root, read) == boxes_by_path(first_root, drawn)
    assert (read.width, read.height, read.viewport) == (drawn.width, drawn.height, drawn.viewport)
    before = [
        region.parent.getroottree().getpath(region.parent)
        for region in detect_lists(first_root, layout=drawn)
    ]
    after = [
        region.parent.getroottree().getpath(region.parent)
        for region in detect_lists(second_root, layout=read)
    ]
    assert after == before


def test_a_page_that_could_not_be_drawn_is_not_stored_and_is_tried_again(tmp_path: Path) -> None:
    calls: list[str] = []

    def failing(root: etree._Element) -> PageLayout:
        calls.append("drawn")
        return unrendered("no browser in this test")

    cache = LayoutCache(tmp_path / "layouts", failing)
    assert not cache(page("11")).rendered
    assert not cache(page("11")).rendered
    assert calls == ["drawn", "drawn"] and cache.hits == 0 and cache.drawn == 0
    assert not (tmp_path / "layouts").exists()


def test_a_damaged_entry_is_drawn_again(tmp_path: Path) -> None:
    root = page("11")
    (tmp_path / f"{page_key(root)}.json.gz").write_bytes(gzip.compress(b'{"version": 1, "boxes": [[0, 1]]}'))
    calls: list[str] = []

    def failing(tree: etree._Element) -> PageLayout:
        calls.append("drawn")
        return unrendered("no browser in this test")

    cache = LayoutCache(tmp_path, failing)
    assert not cache(root).rendered and calls == ["drawn"] and cache.hits == 0


def test_the_key_follows_the_page_not_the_parse() -> None:
    assert page_key(page("11")) == page_key(page("11"))
    assert page_key(page("11")) != page_key(page("28"))


@pytest.mark.browser
def test_bench_nexteval_render_says_how_many_pages_it_drew_and_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRAPESMITH_CACHE_DIR", str(tmp_path))
    where = ["--html", str(DATA / "html"), "--groundtruth", str(DATA / "groundtruth"), "--pages", "11"]
    first = CliRunner().invoke(app, ["bench", "nexteval", "--render", *where])
    second = CliRunner().invoke(app, ["bench", "nexteval", "--render", *where])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert re.search(r"layouts: 1 pages drawn, 0 read from the cache", first.output), first.output
    assert re.search(r"layouts: 0 pages drawn, 1 read from the cache", second.output), second.output
