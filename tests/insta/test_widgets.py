"""Widgets set through what the live page exposes, on real MiniWoB++ pages and a page of native inputs, in real
Chromium: a calendar paged to a date, sliders and a spin button stepped with the keys and read back, native
date/time/range/number inputs set by value with the events typing fires, a text area scrolled to its end, a
value read off the page then typed, numbers classified by arithmetic. Each episode is driven by the no-model
candidate policy and scored by the page's own reward."""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scrapesmith.insta.chooser import CandidatePolicy, candidates_for
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.reading import read_source
from scrapesmith.insta.values import task_values
from scrapesmith.insta.views import Action
from scrapesmith.insta.widgets import WidgetError, choose_date

pytestmark = pytest.mark.browser


@pytest.fixture
def miniwob_run(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    def run(tasks: list[str], seed: int = 2, max_actions: int = 6):
        return evaluate_miniwob(browser_session, lambda env: CandidatePolicy(None), tasks, episodes=1, seed=seed,
                                max_actions=max_actions, screenshots=False)

    return run


def _rewards(result) -> dict[str, float]:
    return {case["task"]: case["reward"] for case in result.cases}


def test_calendar_slider_spinner_and_scroll_widgets_earn_the_page_reward(miniwob_run):
    result = miniwob_run(["choose-date", "use-slider", "use-slider-2", "use-spinner", "scroll-text-2"])
    assert _rewards(result) == {"choose-date": 1.0, "use-slider": 1.0, "use-slider-2": 1.0, "use-spinner": 1.0,
                                "scroll-text-2": 1.0}, result.cases
    date = next(case for case in result.cases if case["task"] == "choose-date")
    assert date["actions"][0]["action_key"] == "fill"  # one step: the calendar was paged inside it
    assert result.summary["invalid_steps"] == 0


def test_read_then_act_types_the_text_the_task_points_to(miniwob_run):
    result = miniwob_run(["copy-paste-2"])
    case = result.cases[0]
    assert case["reward"] == 1.0, case
    read, fill = case["actions"][:2]
    assert read["action_key"] == "read" and read["action_kwargs"]["value"]
    assert fill["action_key"] == "fill" and fill["action_kwargs"]["value"] == read["action_kwargs"]["value"]


def test_numbers_are_classified_by_arithmetic_not_by_name(miniwob_run):
    result = miniwob_run(["odd-or-even"], max_actions=6)
    assert _rewards(result) == {"odd-or-even": 1.0}, result.cases


NATIVE = b"""<!doctype html><html><body>
<label>Start date <input type="date" id="start"></label>
<label>Alarm time <input type="time" id="alarm"></label>
<label>Volume <input type="range" id="volume" min="0" max="50" value="10"></label>
<label>Guests <input type="number" id="guests"></label>
<div id="log"></div>
<script>
for (const el of document.querySelectorAll('input')) {
  for (const kind of ['input', 'change']) {
    el.addEventListener(kind, () => { document.getElementById('log').textContent += el.id + ':' + kind + ' '; });
  }
}
</script></body></html>"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(NATIVE)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def native_page():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_native_inputs_are_set_by_value_with_the_events_typing_fires(browser_session, native_page):
    env = BrowserEnv(browser_session)
    task = "Set the start date to 03/14/2025, the alarm time to 7:45 and the volume to 35, for 4 guests."
    observation = env.reset(native_page)
    offered = {c.action.target_element_id: c.action.action_kwargs["value"]
               for c in candidates_for(task, [], observation, 30) if c.action.action_key == "fill" and not c.free}
    ids = {element.hint: element.id for element in observation.elements}
    assert offered[ids["start"]] == "2025-03-14" and offered[ids["alarm"]] == "07:45"  # ISO, as the inputs take it
    assert offered[ids["volume"]] == "35" and offered[ids["guests"]] == "4"  # two numbers, two fields: in order
    for hint, value in (("start", "2025-03-14"), ("alarm", "07:45"), ("volume", "35")):
        outcome = env.step(Action(action_key="fill", action_kwargs={"value": value}, target_element_id=ids[hint]))
        assert outcome.error is None, outcome.error
    values = {e.hint: e.value for e in outcome.observation.elements}
    assert values["start"] == "2025-03-14" and values["alarm"] == "07:45"
    log = browser_session.evaluate("() => document.getElementById('log').textContent")
    assert all(f"{name}:{kind}" in log for name in ("start", "alarm", "volume") for kind in ("input", "change"))
    assert browser_session.evaluate("() => document.getElementById('volume').value") == "35"


def test_a_field_that_opens_no_calendar_is_a_clear_error(browser_session, native_page):
    browser_session.goto(native_page)
    with pytest.raises(WidgetError, match="no calendar"):
        choose_date(browser_session, "#guests", dt.date(2025, 3, 14))


def test_values_of_a_kind_and_read_sources_are_recognised_in_the_task():
    kinds = [(v.kind, v.text) for v in task_values("Select 05/12/2016 at 3:30 pm, then set [3, 15, 7]")]
    assert kinds == [("date", "05/12/2016"), ("time", "3:30 pm"), ("number", "3"), ("number", "15"),
                     ("number", "7")]
    assert task_values("March 4, 2021")[0].date == dt.date(2021, 3, 4)
    source = read_source("Copy the text from the 2nd text area below and paste it into the text input")
    assert source is not None and source.tags == ("textarea",) and source.ordinal == 2 and source.word is None
    word = read_source("Find the last word in the paragraph and type it")
    assert word is not None and word.tags == ("p",) and word.word == -1
    assert read_source("Click the 2nd button") is None
