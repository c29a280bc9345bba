"""BrowserSession actions and snapshots on the demo web's JavaScript job board and a small form page."""

from __future__ import annotations

import httpx
import pytest

from scrapesmith.web.browser import ActionFailed, BrowserSession

pytestmark = pytest.mark.browser

CARDS = "#job-list li.job-card"


@pytest.fixture(scope="module")
def globex_truth(demo_web) -> dict:
    return httpx.get(demo_web.url("/globex/_truth.json")).json()


def test_load_more_is_clicked_until_exhausted(session: BrowserSession, demo_web, globex_truth):
    session.goto(demo_web.url("/globex/careers/"))
    counts = [session.count(CARDS)]
    while session.is_visible("#load-more"):
        session.click("#load-more")
        counts.append(session.count(CARDS))

    assert counts[0] == globex_truth["careers"]["batch_size"]
    assert counts[-1] == len(globex_truth["jobs"])
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


def test_selecting_a_filter_changes_the_list(session: BrowserSession, demo_web, globex_truth):
    session.goto(demo_web.url("/globex/careers/"))
    before = session.snapshot().html
    category = globex_truth["categories"][1]
    matching = [job for job in globex_truth["jobs"] if job["category"] == category]

    session.select("#filter-category", category)
    shown = session.count(CARDS)
    metas = session.snapshot().html

    assert shown == min(len(matching), globex_truth["careers"]["batch_size"])
    assert metas != before
    assert session.count(f"{CARDS} .job-meta") == shown
    texts = _meta_texts(session)
    assert texts and all(t.startswith(category) for t in texts)


def _meta_texts(session: BrowserSession) -> list[str]:
    from scrapesmith.dom.parse import parse_html

    tree = parse_html(session.html())
    return [el.text_content() for el in tree.cssselect(f"{CARDS} .job-meta")]


def test_snapshot_ids_address_live_elements_and_stay_stable(session: BrowserSession, demo_web):
    session.goto(demo_web.url("/globex/careers/"))
    first = session.snapshot()
    button = next(i for i, tag in first.ids.items() if tag == "button")
    heading = next(i for i, tag in first.ids.items() if tag == "h1")

    session.click(button)  # by snapshot id: "Load more"
    second = session.snapshot()

    assert second.ids[button] == "button" and second.ids[heading] == "h1"
    assert len(second.ids) > len(first.ids)
    assert max(second.ids) > max(first.ids)  # new cards got new ids, old ids untouched
    assert f"#{heading}" in second.simplified.text
    assert f"[id: {button}] Load more" in second.markdown.text
    assert second.url == demo_web.url("/globex/careers/") and "Careers" in second.title


def test_form_actions_fill_check_press_hover_scroll(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/form")
    session.fill("#q", "data engineer")
    session.set_checked("#agree", True)
    session.press("Enter", "#q")
    session.hover("#tip")
    session.scroll("#bottom")
    session.scroll(pixels=-400)

    html = session.html()
    assert "data engineer|true" in html
    assert '<p id="hovered">yes</p>' in html


def test_go_back_returns_to_the_previous_page(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/form")
    session.goto(f"{trap_url}/image-private")
    session.go_back()
    assert session.url == f"{trap_url}/form"


def test_missing_elements_fail_the_action_without_breaking_the_session(session: BrowserSession, demo_web):
    session.goto(demo_web.url("/acme/"))
    with pytest.raises(ActionFailed):
        session.click("#no-such-button")
    with pytest.raises(ActionFailed):
        session.click(999_999)
    assert session.count("body") == 1


def test_screenshot_is_a_png(session: BrowserSession, demo_web):
    session.goto(demo_web.url("/acme/"))
    image = session.screenshot()
    assert image.startswith(b"\x89PNG") and len(image) > 1000
    assert session.snapshot(screenshot=True).screenshot.startswith(b"\x89PNG")


def test_new_windows_open_in_the_same_tab_and_dialogs_do_not_block(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/popups")
    session.click("#alert")
    assert "went on" in session.html()
    session.click("#blank")  # target=_blank, and the page objects to being left (beforeunload)
    assert session.url == f"{trap_url}/form"
    session.goto(f"{trap_url}/popups")
    session.click("#opener")
    assert session.url == f"{trap_url}/image-private"
    pages = session.runtime.call(lambda: _pages(session))
    assert pages == 1


async def _pages(session: BrowserSession) -> int:
    return len(session._tab.context.pages)


def test_an_action_is_waited_for_when_it_sends_a_request_or_leaves_the_page(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/later")
    session.click("#local")
    assert "drawn here" in session.html()
    session.click("#fetch")  # the server holds the answer 0.4 s: the click returns with it on the page
    assert "fetched late" in session.html()
    session.click("#away")
    assert session.url == f"{trap_url}/slow/page" and "arrived late" in session.html()


def test_only_an_action_that_began_loading_is_waited_for(session: BrowserSession, trap_url):
    session.goto(f"{trap_url}/later")
    assert session.runtime.call(lambda: _click_and_tell(session, "#local")) is False
    assert session.runtime.call(lambda: _click_and_tell(session, "#fetch")) is True
    session.goto(f"{trap_url}/later")
    assert session.runtime.call(lambda: _click_and_tell(session, "#away")) is True


async def _click_and_tell(session: BrowserSession, selector: str) -> bool:
    """Whether the session would wait after this click (``started_loading``: the session's decision, asked here
    directly because the saving it makes — no fixed grace — can only be seen on a clock)."""
    import time

    from scrapesmith.web.browser.navigation import started_loading

    tab = session._tab
    refused_before, started = tab.refused_navigations, time.monotonic()
    await tab.page.click(selector)
    return await started_loading(tab, refused_before, started)
