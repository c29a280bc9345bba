"""Render a page once and measure it: every element's box, font size and visibility (:mod:`scrapesmith.dom.layout`).

Two ways in, one measurement:

* :func:`render_layout` draws a parsed document that is already in hand (a saved file, an HTTP copy)
  in a fresh tab of a fixed size (:data:`~scrapesmith.dom.layout.VIEWPORT`). The page's own markup is
  all that loads: scripts, ``on*`` handlers and refresh tags are left out, and every request the page
  would make (stylesheets, images, fonts, frames) is aborted before it leaves the tab, so nothing
  reaches the network and the result is the same on every run (``<link>`` elements are left out too:
  a preconnect hint opens a connection without a request to abort). ``data:`` images are part of the file
  and do show. A copy of the tree is stamped with :data:`~scrapesmith.dom.layout.BOX_ATTRIBUTE`
  before it is drawn, so each box maps back to the caller's own element whatever the browser's
  parser does with the markup; the caller's tree is never changed.
* :func:`live_layout` measures the page a :class:`~scrapesmith.web.browser.session.BrowserSession`
  already shows (styles, scripts and all), for a tree read from it after :func:`stamp_live`.

A page that cannot be drawn (no Chromium, a crash, a timeout) gives an empty layout whose note says why;
list evidence then falls back to the DOM alone.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import lxml.html
from lxml import etree

from scrapesmith.dom import BOX_ATTRIBUTE, VIEWPORT, Box, PageLayout, unrendered
from scrapesmith.web.browser.runtime import BrowserRuntime
from scrapesmith.web.browser.session import BrowserSession
from scrapesmith.web.browser.views import BrowserError, first_line

_LOCAL_SCHEMES = ("data:", "about:", "blob:")
# What runs or reaches out on its own: scripts, and links (stylesheets, preconnect and prefetch hints
# open connections before any request a route could abort).
_LEFT_OUT = ("script", "noscript", "template", "link")

# Every stamped element: [stamp, x, y, width, height, font size, shown]. Coordinates are page
# coordinates (scroll offset added); "shown" is false for display:none, visibility:hidden, opacity 0
# and empty boxes, which covers everything inside a hidden ancestor. The answer is one JSON string:
# Playwright's own encoding of thousands of small arrays costs seconds, a string costs milliseconds.
MEASURE_JS = """
(attribute) => {
  const boxes = [];
  for (const el of document.querySelectorAll('[' + attribute + ']')) {
    const r = el.getBoundingClientRect();
    const s = window.getComputedStyle(el);
    const shown = s.display !== 'none' && s.visibility !== 'hidden' && parseFloat(s.opacity || '1') > 0
      && r.width > 0 && r.height > 0;
    boxes.push([parseInt(el.getAttribute(attribute), 10), r.left + window.scrollX, r.top + window.scrollY,
      r.width, r.height, parseFloat(s.fontSize) || 0, shown ? 1 : 0]);
  }
  const d = document.documentElement, b = document.body;
  return JSON.stringify({boxes, width: Math.max(d.scrollWidth, b ? b.scrollWidth : 0),
                         height: Math.max(d.scrollHeight, b ? b.scrollHeight : 0)});
}
"""

# Number the live page's elements in document order (kept on elements that already have a stamp).
STAMP_LIVE_JS = """
(attribute) => {
  let next = 0;
  for (const el of document.querySelectorAll('[' + attribute + ']'))
    next = Math.max(next, parseInt(el.getAttribute(attribute), 10) || 0);
  for (const el of document.querySelectorAll('*'))
    if (!el.hasAttribute(attribute)) el.setAttribute(attribute, String(++next));
  return next;
}
"""


def render_layout(root: etree._Element, runtime: BrowserRuntime, timeout: float | None = None) -> PageLayout:
    """Draw the document of ``root`` at the fixed viewport with nothing but its own markup, and measure it."""
    started = time.monotonic()
    elements = list(root.iter(etree.Element))
    markup = _stamped_copy(root, elements)
    limit = timeout or runtime.options.page_timeout
    try:
        runtime.start()
        if not runtime.acquire_slot(limit):
            return unrendered("every browser context stayed busy")
        try:
            measured = runtime.call(lambda: _draw(runtime, markup, limit), timeout=limit + 10)
        finally:
            runtime.release_slot()
    except BrowserError as exc:
        return unrendered(first_line(exc))
    except Exception as exc:  # noqa: BLE001 - Playwright's own errors: the page is left to DOM evidence
        return unrendered(f"{type(exc).__name__}: {first_line(exc)}")
    return _layout(measured, elements, time.monotonic() - started)


def stamp_live(session: BrowserSession) -> None:
    """Stamp every element of the live page, so a tree read from it next can be measured by :func:`live_layout`."""
    session.runtime.call(lambda: _evaluate(session, STAMP_LIVE_JS))


def live_layout(session: BrowserSession, root: etree._Element) -> PageLayout:
    """Measure the page ``session`` shows, for ``root`` read from it after :func:`stamp_live`."""
    started = time.monotonic()
    stamped: dict[int, etree._Element] = {}
    for element in root.iter(etree.Element):
        value = element.get(BOX_ATTRIBUTE)
        if value is not None and value.isdigit():
            stamped[int(value)] = element
    if not stamped:
        return unrendered("the page was read before it was stamped")
    try:
        measured = json.loads(session.runtime.call(lambda: _evaluate(session, MEASURE_JS)))
    except Exception as exc:  # noqa: BLE001 - a page that went away: DOM evidence alone
        return unrendered(f"{type(exc).__name__}: {first_line(exc)}")
    return _layout(measured, stamped, time.monotonic() - started, session.options.viewport)


async def _evaluate(session: BrowserSession, script: str) -> Any:
    tab = session._require_tab()  # the session's one tab, used from the browser loop
    return await tab.page.evaluate(script, BOX_ATTRIBUTE)


def _stamped_copy(root: etree._Element, elements: list[etree._Element]) -> str:
    """The document as markup with a box stamp on each element and nothing in it that runs or reloads."""
    duplicate = copy.deepcopy(root)
    for index, element in enumerate(duplicate.iter(etree.Element)):
        if index < len(elements):
            element.set(BOX_ATTRIBUTE, str(index))
    for element in list(duplicate.iter(*_LEFT_OUT)):
        _remove(element)
    for element in list(duplicate.iter(etree.Element)):
        for name in [name for name in element.attrib if name.lower().startswith("on")]:
            del element.attrib[name]
        if element.tag == "meta" and (element.get("http-equiv") or "").lower() == "refresh":
            _remove(element)
    doctype = root.getroottree().docinfo.doctype or "<!DOCTYPE html>"
    return doctype + "\n" + lxml.html.tostring(duplicate, encoding="unicode")


def _remove(element: etree._Element) -> None:
    """Take ``element`` out of its tree, keeping the text that follows it."""
    if isinstance(element, lxml.html.HtmlElement):
        element.drop_tree()
    elif element.getparent() is not None:
        element.getparent().remove(element)


async def _draw(runtime: BrowserRuntime, markup: str, timeout: float) -> dict[str, Any]:
    tab = await runtime.open_tab()
    try:
        await tab.page.route("**/*", _only_local)
        await tab.page.set_viewport_size({"width": VIEWPORT[0], "height": VIEWPORT[1]})
        await tab.page.set_content(markup, wait_until="load", timeout=timeout * 1000)
        return json.loads(await tab.page.evaluate(MEASURE_JS, BOX_ATTRIBUTE))
    finally:
        await runtime.close_tab(tab)


async def _only_local(route: Any, request: Any) -> None:
    """The page's own file is all that loads: every request that would leave the tab is aborted."""
    if request.url.startswith(_LOCAL_SCHEMES):
        await route.continue_()
    else:
        await route.abort("blockedbyclient")


def _layout(
    measured: dict[str, Any],
    elements: list[etree._Element] | dict[int, etree._Element],
    seconds: float,
    viewport: tuple[int, int] = VIEWPORT,
) -> PageLayout:
    boxes: dict[etree._Element, Box] = {}
    count = len(elements)
    for stamp, x, y, width, height, font_size, shown in measured.get("boxes", []):
        if isinstance(elements, dict):
            element = elements.get(stamp)
        else:
            element = elements[stamp] if 0 <= stamp < count else None
        if element is not None:
            boxes[element] = Box(x, y, width, height, font_size, bool(shown))
    if not boxes:
        return unrendered("no element of the page was drawn")
    return PageLayout(
        boxes=boxes,
        width=float(measured.get("width") or viewport[0]),
        height=float(measured.get("height") or viewport[1]),
        viewport=viewport,
        seconds=seconds,
        note=f"rendered at {viewport[0]}x{viewport[1]}",
    )
