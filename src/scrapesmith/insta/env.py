"""The agent environment: a :class:`~scrapesmith.web.browser.session.BrowserSession` wrapped as an episode.

The observation is the page's markdown view, where interactive elements read ``[id: N] ...``, capped at
2,048 tokens (section 3 of the seed), showing the live state (typed values, chosen options, ticked boxes,
focus), plus the actionable elements behind it (``insta.elements``) for the candidate policy; an action is the
seed's JSON function call, executed on the element with that id: a ``fill`` through what the field exposes
(``insta.widgets``: native inputs by value, sliders and spin buttons by keys, a read-only field through its
calendar), a ``scroll`` with a target to that element's end, a ``read`` returning the element's value
(``StepOutcome.value``). Anything the browser refuses or cannot do (unknown id, hidden element, a widget that
does not take the value, a navigation the address guard or robots.txt refuses) becomes an error string fed
back to the agent: the episode goes on.
The environment knows nothing about the agent (BrowserGym's task/env split).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from scrapesmith.dom import css_selector, estimate_tokens, is_stable_id, parse_html, robust_xpath
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.elements import actionable_elements
from scrapesmith.insta.perception import perceive
from scrapesmith.insta.reading import READ_JS
from scrapesmith.insta.timing import MAX_WAIT
from scrapesmith.insta.views import Action, Element, Observation, StepOutcome
from scrapesmith.insta.widgets import set_value
from scrapesmith.web import FetchError

OBSERVATION_TOKENS = 2048
DEFAULT_SCROLL = 600
#: A scroll with a target and ``to`` scrolls that element (a text area, a list) to its ``top`` or ``bottom``.
SCROLL_TO_END_JS = """(el, to) => {
  el.scrollTop = to === 'top' ? 0 : el.scrollHeight;
  el.dispatchEvent(new Event('scroll'));
  return el.scrollTop;
}"""


#: Whether an element is shown and enabled (what a wait with a target waits for).
READY_JS = """(el) => {
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  return !el.disabled && el.getAttribute('aria-disabled') !== 'true' && style.display !== 'none'
    && style.visibility !== 'hidden' && (box.width > 0 || box.height > 0);
}"""
#: How often a wait with a target looks at its element (seconds).
WAIT_POLL = 0.05


class Browser(Protocol):
    """The part of ``BrowserSession`` the environment drives."""

    def goto(self, url: str) -> Any: ...
    def go_back(self) -> None: ...
    def click(self, target: int | str) -> None: ...
    def fill(self, target: int | str, text: str) -> None: ...
    def select(self, target: int | str, option: str | list[str]) -> None: ...
    def set_checked(self, target: int | str, checked: bool = True) -> None: ...
    def hover(self, target: int | str) -> None: ...
    def scroll(self, target: int | str | None = None, pixels: int = 600) -> None: ...
    def press(self, key: str, target: int | str | None = None, times: int = 1) -> None: ...
    def evaluate(self, script: str, arg: Any = None, target: int | str | None = None) -> Any: ...
    def snapshot(self, screenshot: bool = False, max_tokens: int | None = 4000) -> Any: ...
    def screenshot(self, full_page: bool = False) -> bytes: ...


class MarkdownUnavailable(ScrapesmithError):
    """The browser snapshot carries no markdown view (``dom.markdown`` missing)."""


def markdown_of(snapshot: Any) -> str:
    view = snapshot.markdown
    if view is None:
        raise MarkdownUnavailable("the browser snapshot has no markdown view (scrapesmith.dom.markdown)")
    if isinstance(view, str):
        return view
    for attribute in ("text", "markdown"):
        if isinstance(getattr(view, attribute, None), str):
            return getattr(view, attribute)
    return str(view)


def cap_tokens(text: str, max_tokens: int) -> tuple[str, bool]:
    """Keep whole lines from the top until ``max_tokens``; say so at the end when something was cut."""
    if estimate_tokens(text) <= max_tokens:
        return text, False
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        cost = estimate_tokens(line) + 1
        if used + cost > max_tokens - 8:
            break
        kept.append(line)
        used += cost
    return "\n".join(kept) + "\n\n[... page truncated: scroll to see more ...]", True


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on", "checked")
    return bool(value)


class BrowserEnv:
    """One episode at a time on ``browser``; see the module docstring for observation and actions."""

    def __init__(self, browser: Browser, max_tokens: int = OBSERVATION_TOKENS, screenshots: Path | None = None,
                 relative_to: Path | None = None) -> None:
        """``screenshots``: a folder that receives one PNG per observation (``step-000.png``, …), named in
        the observation relative to ``relative_to`` (the run directory) so records stay portable."""
        self.browser = browser
        self.max_tokens = max_tokens
        self.screenshots = screenshots
        self.relative_to = relative_to
        self._ids: set[int] = set()
        self._elements: dict[int, Element] = {}
        self._shots = 0
        self._tree: Any = None
        self.last_html = ""
        self.perception = hasattr(browser, "evaluate")
        self._acted_at: float | None = None  # when the last action ended (a wait counts from there)  # what the page looks like, read in one pass per observation

    def reset(self, url: str) -> Observation:
        self.browser.goto(url)
        return self.observe()

    def observe(self) -> Observation:
        snapshot = self.browser.snapshot(max_tokens=self.max_tokens)
        self._ids = set(snapshot.ids)
        self.last_html = snapshot.html
        text, truncated = cap_tokens(markdown_of(snapshot), self.max_tokens)
        nodes = getattr(snapshot.markdown, "nodes", None) or {}
        observation = Observation(url=snapshot.url, markdown=text, truncated=truncated, screenshot=self._screenshot(),
                                  elements=actionable_elements(nodes, text))
        self._elements = {element.id: element for element in observation.elements}
        observation.attach_tree(next(iter(nodes.values())).getroottree().getroot() if nodes
                                else (parse_html(snapshot.html, url=snapshot.url) if snapshot.html else None))
        self._tree = observation.tree
        if self.perception:
            observation.attach_percepts(*perceive(self.browser))
        return observation

    def record_screenshots(self, folder: Path | None) -> None:
        """Send the next observations' screenshots to ``folder`` (numbered afresh), or stop with ``None``."""
        self.screenshots = folder
        self._shots = 0

    def _screenshot(self) -> str | None:
        """Save what the page looks like now; a failed capture is left out, never fatal to the episode."""
        if self.screenshots is None:
            return None
        path = self.screenshots / f"step-{self._shots:03d}.png"
        self._shots += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self.browser.screenshot())
        except (ScrapesmithError, OSError):
            return None
        return str(path.relative_to(self.relative_to)) if self.relative_to else str(path)

    def selectors_of(self, target: int | None) -> dict[str, str] | None:
        """How to find element ``target`` of the last observation again without its snapshot id: its stable id
        and name attributes, a robust CSS selector and XPath (``dom.selectors``; positions only where needed)."""
        if target is None or self._tree is None:
            return None
        found = self._tree.xpath(f"//*[@data-ss-id='{int(target)}']")
        if not found:
            return None
        node, selectors = found[0], {}
        if node.get("id") and is_stable_id(node.get("id")):
            selectors["id"] = node.get("id")
        if node.get("name"):
            selectors["name"] = node.get("name")
        selectors["css"], selectors["xpath"] = css_selector(node), robust_xpath(node)
        return selectors

    def step(self, action: Action) -> StepOutcome:
        value = None
        selectors = self.selectors_of(action.target_element_id) if action.action_key != "goto" else None
        try:
            value = self.execute(action)
            error = None
        except (ScrapesmithError, FetchError) as exc:
            error = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        self._acted_at = time.monotonic()
        return StepOutcome(observation=self.observe(), error=error, value=value, selectors=selectors)

    def execute(self, action: Action) -> str | None:
        """Run one action (a ``read`` returns what it read); raise a ``ScrapesmithError`` saying why it could not
        be done."""
        key, kwargs, target = action.action_key, action.action_kwargs, action.target_element_id
        if target is not None and key != "scroll" and target not in self._ids:
            raise ScrapesmithError(f"there is no element with id {target} on the current page")
        if key == "click":
            self.browser.click(target)
        elif key == "hover":
            self.browser.hover(target)
        elif key == "read":
            return str(self.browser.evaluate(READ_JS, kwargs.get("word"), target) or "")
        elif key == "fill":
            element = self._elements.get(target) if target is not None else None
            if element is None:
                self.browser.fill(target, str(kwargs["value"]))
            else:
                set_value(self.browser, element, str(kwargs["value"]))
        elif key == "select_option":
            self.browser.select(target, str(kwargs["label"]))
        elif key == "set_checked":
            self.browser.set_checked(target, _as_bool(kwargs["checked"]))
        elif key == "scroll" and target in self._ids and kwargs.get("to"):
            self.browser.evaluate(SCROLL_TO_END_JS, str(kwargs.get("to", "bottom")), target)
        elif key == "scroll":
            self.browser.scroll(pixels=int(float(kwargs.get("delta_y", DEFAULT_SCROLL) or 0)))
        elif key == "go_back":
            self.browser.go_back()
        elif key == "goto":
            self.browser.goto(str(kwargs["url"]))
        elif key == "wait":
            self.wait(float(kwargs.get("seconds", 1) or 0), target)
        else:
            raise ScrapesmithError(f"action '{key}' cannot be executed by the browser")
        return None

    def wait(self, seconds: float, target: int | None = None) -> None:
        """Wait ``seconds`` (at most :data:`~scrapesmith.insta.timing.MAX_WAIT`) counted from the end of the last
        action; with ``target``, only until that element is shown and enabled (an error when it never is)."""
        seconds = min(max(seconds, 0.0), MAX_WAIT)
        deadline = (self._acted_at or time.monotonic()) + seconds
        if target is None:
            time.sleep(max(0.0, deadline - time.monotonic()))
            return
        while not self.browser.evaluate(READY_JS, None, target):
            if time.monotonic() >= deadline:
                raise ScrapesmithError(f"element {target} was not shown and enabled within {seconds:g} s")
            time.sleep(WAIT_POLL)
