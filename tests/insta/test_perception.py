"""Rendered perception on real MiniWoB++ pages in real Chromium: each attribute checked against what the page itself
says of the element (its own data attributes, SVG attributes and ids), and each reading step (which, how many, the
greatest, where, wait) scored by the page's own reward with the no-model candidate policy."""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scrapesmith.insta.appearance import describe_task
from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.insta.colours import CSS_COLOURS
from scrapesmith.insta.compare import read_superlative, value_of
from scrapesmith.insta.perception import colour_name, parse_rgb, shade_of
from scrapesmith.insta.timing import MAX_WAIT, wait_candidates

pytestmark = pytest.mark.browser

#: What the page says of its elements: attributes its own script wrote (the truth the percepts are checked against).
TRUTH_JS = """() => Array.from(document.querySelectorAll('#area [data-ss-id], #area_svg [data-ss-id]')).map((el) => ({
  id: parseInt(el.getAttribute('data-ss-id'), 10), tag: el.tagName.toLowerCase(), color: el.getAttribute('data-color'),
  fill: el.getAttribute('fill'), width: el.getAttribute('width'), r: el.getAttribute('r'),
  font: el.getAttribute('font-size'), points: el.getAttribute('points'), cid: el.getAttribute('id'),
  text: el.textContent}))"""


@pytest.fixture
def miniwob_env(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import MiniwobEnv, serve_miniwob

    with serve_miniwob() as base_url:
        env = MiniwobEnv(browser_session)

        def start(task: str, seed: int):
            observation = env.reset(f"{base_url}/{task}.html?seed={seed}")
            truth = {item["id"]: item for item in browser_session.evaluate(TRUTH_JS)}
            return env, observation, truth

        yield start


@pytest.fixture
def miniwob_run(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    def run(task: str, seeds: range, max_actions: int = 6):
        result = evaluate_miniwob(browser_session, lambda env: CandidatePolicy(None), [task], episodes=len(seeds),
                                  seed=seeds.start, max_actions=max_actions, screenshots=False)
        return result.cases

    return run


def test_colour_is_the_computed_colour_named_as_the_page_named_it(miniwob_env):
    for seed in range(3):
        _, observation, truth = miniwob_env("click-color", seed)
        boxes = [p for p in observation.percepts if truth.get(p.id, {}).get("color")]
        assert len(boxes) == 4
        for percept in boxes:
            assert percept.rgb == CSS_COLOURS[truth[percept.id]["color"]]
            assert CSS_COLOURS[percept.colour] == CSS_COLOURS[truth[percept.id]["color"]]  # aqua is cyan
            assert percept.shape == "rectangle" and percept.kind == "shape"


def test_shade_names_a_colour_by_its_family():
    assert [shade_of(CSS_COLOURS[name]) for name in ("lime", "navy", "olive", "black", "white", "silver", "pink")] \
        == ["green", "blue", "yellow", "black", "white", "grey", "pink"]
    assert colour_name((1, 254, 0)) == "lime" and parse_rgb("rgba(0, 0, 0, 0)") is None


def test_shape_sides_and_size_among_peers_are_those_the_svg_draws(miniwob_env):
    for seed in range(3):
        _, observation, truth = miniwob_env("click-shape", seed)
        drawn = [p for p in observation.percepts if truth.get(p.id, {}).get("fill")]
        assert len(drawn) >= 3
        for percept in drawn:
            item = truth[percept.id]
            assert percept.rgb == CSS_COLOURS[item["fill"]]
            expected = {"circle": "circle", "rect": "rectangle", "polygon": "triangle", "text": "text"}[item["tag"]]
            assert percept.shape == expected
            if item["tag"] == "polygon":
                assert percept.sides == 3 == len(item["points"].split())
            size = _drawn_size(item)
            sizes = {_drawn_size(t) for t in truth.values() if t["fill"]}
            if len(sizes) > 1:  # two sizes drawn among its peers: large is the larger
                assert percept.size_class == ("large" if size == max(sizes) else "small")
            if item["tag"] == "text":
                assert percept.text == item["text"] and percept.kind in ("letter", "digit")


def _drawn_size(item: dict) -> float:
    """The size the page drew: a rectangle's width, a circle's diameter, a triangle's base, a text's font size."""
    if item["points"]:
        xs = [float(point.split(",")[0]) for point in item["points"].split()]
        return max(xs) - min(xs)
    return float(item["width"] or 0) or 2 * float(item["r"] or 0) or float((item["font"] or "0px")[:-2])


def test_row_and_column_are_the_grid_positions_the_page_gives_its_points(miniwob_env):
    _, observation, truth = miniwob_env("grid-coordinate", 0)
    points = [p for p in observation.percepts if truth.get(p.id, {}).get("tag") == "circle"]
    assert len(points) == 25
    for percept in points:
        x, y = (int(v) for v in re.findall(r"-?\d+", truth[percept.id]["cid"]))
        assert (percept.column, percept.row) == (x + 2, 2 - y)


def test_text_and_controls_are_perceived_as_shown(miniwob_env):
    _, observation, _ = miniwob_env("count-shape", 0)
    buttons = [p for p in observation.percepts if p.tag == "button"]
    assert len(buttons) == 5 and all(p.control and p.text.isdigit() for p in buttons)
    assert all(not p.control for p in observation.percepts if p.tag in ("circle", "rect", "polygon", "text"))


def test_task_words_about_looks_are_read_by_one_rule():
    assert describe_task("Click on a small p").__dict__ == {"phrase": "small p", "head": "char", "char": "p",
                                                           "colour": None, "size": "small"}
    counted = describe_task("How many large red items are there?")
    assert (counted.head, counted.colour, counted.size) == ("any", "red", "large")
    boxed = describe_task("Click on the olive colored box.")
    assert (boxed.head, boxed.colour, boxed.phrase) == ("rectangle", "olive", "olive colored box")
    assert describe_task("How many 7s are there?").char == "7"
    assert describe_task("Keep the mouse hovered over the colored square.").colour == "colored"
    assert describe_task("Click on the button.") is None and describe_task("Select an item from the list") is None
    assert describe_task("Close the dialog box by clicking the \"x\".") is None  # a box of another noun; a quoted name
    assert describe_task("Type it in all upper case letters") is None
    assert describe_task("Click on a rectangle").head == "rectangle"


def test_which_thing_the_words_describe_is_clicked(miniwob_run):
    for task in ("click-color", "click-shape"):
        cases = miniwob_run(task, range(3))
        assert [case["reward"] for case in cases] == [1.0, 1.0, 1.0], cases


def test_how_many_counts_what_fits_the_description(miniwob_run):
    cases = miniwob_run("count-shape", range(4))
    assert [case["reward"] for case in cases] == [1.0] * 4, cases
    assert all(case["steps"] == 1 for case in cases)


def test_the_greatest_and_the_least_are_read_from_the_records(miniwob_run):
    assert read_superlative("Buy the ticket with the cheapest cost.").kind == "money"
    assert read_superlative("Buy the ticket with the longest duration.").__dict__ == {
        "phrase": "longest duration", "most": True, "kind": "duration"}
    assert value_of("Duration: 13h 5m Book for $1,204", "duration") == 785.0
    assert value_of("Duration: 13h 5m Book for $1,204", "money") == 1204.0
    for task in ("buy-ticket", "find-greatest"):
        cases = miniwob_run(task, range(3))
        assert all(case["reward"] > 0 for case in cases), cases


def test_where_the_axis_labels_put_a_coordinate(miniwob_run):
    cases = miniwob_run("grid-coordinate", range(4))
    assert [case["reward"] for case in cases] == [1.0] * 4, cases


def test_a_wait_the_task_names_is_an_action_of_its_own_and_bounded(miniwob_run):
    assert [c.action.action_kwargs for c in wait_candidates("Click ONE, wait 2 seconds, then click TWO.")] == [
        {"seconds": 2.0}]
    assert wait_candidates("wait 90 minutes")[0].action.action_kwargs["seconds"] == MAX_WAIT
    cases = miniwob_run("button-delay", range(2))
    assert all(case["reward"] > 0 for case in cases), cases
    assert all([a["action_key"] for a in case["actions"]] == ["click", "wait", "click"] for case in cases)


DELAYED = b"""<!doctype html><html><body><p>Orders</p>
<button id="go" disabled>Confirm order</button><div id="log"></div>
<script>
var enabledAt = null;
setTimeout(function () { document.getElementById('go').disabled = false; enabledAt = Date.now(); }, 1500);
document.getElementById('go').addEventListener('click', function () {
  document.getElementById('log').textContent = enabledAt === null ? 'clicked too early' : 'confirmed';
});
</script></body></html>"""


class _Delayed(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(DELAYED)

    def log_message(self, format: str, *args: object) -> None:
        return


def test_a_control_that_enables_after_a_delay_is_waited_for_then_acted_on(browser_session):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Delayed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        from scrapesmith.insta.agent import run_episode
        from scrapesmith.insta.env import BrowserEnv

        url = f"http://127.0.0.1:{server.server_address[1]}/"
        env = BrowserEnv(browser_session)
        trajectory = run_episode(env, CandidatePolicy(None), "Click the Confirm order button.", url, max_actions=3)
        keys = [step.action.action_key for step in trajectory.steps if step.action is not None]
        assert keys[:2] == ["wait", "click"], keys
        assert trajectory.steps[0].error is None
        assert browser_session.evaluate("() => document.getElementById('log').textContent") == "confirmed"
    finally:
        server.shutdown()
        server.server_close()


def test_the_colored_square_is_the_one_the_page_highlights(miniwob_env):
    from scrapesmith.insta.appearance import matching, seen_items

    description = describe_task("Keep the mouse hovered over the colored square.")
    for seed in range(3):
        env, _, _ = miniwob_env("hover-shape", seed)
        highlight = "() => document.getElementById('highlight').getAttribute('data-ss-id')"
        for _ in range(3):  # the page moves its highlight every 2 s: a reading between two moves is compared
            before = env.browser.evaluate(highlight)
            observation = env.observe()
            if env.browser.evaluate(highlight) == before:
                break
        found = matching(seen_items(observation.percepts, set()), description)
        assert [p.id for p in found] == [int(before)]


def test_a_disabled_box_that_still_scrolls_is_scrolled_not_waited_for(miniwob_run):
    cases = miniwob_run("sign-agreement", range(1))  # its text area is disabled; scrolling it enables the name field
    assert cases[0]["reward"] == 1.0 and "wait" not in [a["action_key"] for a in cases[0]["actions"]], cases


def test_a_page_whose_looks_cannot_be_read_is_said_not_lost():
    from scrapesmith.errors import ScrapesmithError
    from scrapesmith.insta.perception import perceive

    class Refusing:  # the browser seam failing (a page that navigated away mid-read)
        calls = 0

        def evaluate(self, script, arg=None, target=None):
            Refusing.calls += 1
            raise ScrapesmithError("evaluate page: Execution context was destroyed\nmore")

    assert perceive(Refusing()) == ([], "evaluate page: Execution context was destroyed") and Refusing.calls == 2


def test_the_nth_control_of_a_kind_is_the_one_acted_on(miniwob_run):
    for task in ("focus-text-2", "form-sequence-2"):  # "the 3rd input textbox"; "the 1st radio button" + "the 3rd textbox"
        cases = miniwob_run(task, range(3))
        assert [case["reward"] for case in cases] == [1.0] * 3, cases
    # "the 5th search result", three results a page: the page number that shows it, then the result
    cases = miniwob_run("search-engine", range(4))
    assert all(case["reward"] > 0 for case in cases), cases
    assert any(len(case["actions"]) == 4 for case in cases)  # one of them was on another page
    from scrapesmith.insta.ordinals import ordinal_candidates
    from scrapesmith.insta.views import Element

    boxes = [Element(id=i, tag="input", role="textbox", label=f"f{i}") for i in (7, 3, 5)]
    [fill] = ordinal_candidates('Check nothing, then enter "16" into the last textbox.', boxes, None)
    assert (fill.action.action_key, fill.action.target_element_id, fill.action.action_kwargs) == ("fill", 7, {"value": "16"})
    assert ordinal_candidates("Find the 3rd word in the paragraph.", boxes, None) == []
