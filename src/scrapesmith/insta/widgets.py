"""Setting a value on a widget through what the live page exposes, not through a rule per page.

A ``fill`` is "make this field hold this value"; how depends on the field, read from the element itself:

- a native ``<input type=date|time|number|range|…>`` is set by value, with the ``input`` and ``change`` events a
  user's typing fires (Playwright cannot type into a range, and a date input takes only ISO text);
- a slider or a spin button (``role=slider|spinbutton``, a range input, or a handle whose classes say
  ``slider``) is stepped with the arrow keys, as the WAI-ARIA practices define them: one probing press shows
  what changes — the element's own ``aria-valuenow`` or value, else the number beside it that moved (jQuery UI
  sliders expose no ARIA) — then the remaining presses are made and the value read back;
- a read-only field opens whatever it fronts when clicked: a calendar is driven by what it shows (its
  "Month Year" heading, its previous/next controls, its day cells) to the value's month, then its day;
- any other field is typed into.

Each driver reads the value back and raises :class:`WidgetError` when the field does not end holding it, so the
step is recorded as failed (the judge never counts it) and the agent sees why.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.values import as_number, same_date_or_value, task_values
from scrapesmith.insta.views import Element

NATIVE_TYPES = frozenset({"date", "time", "datetime-local", "month", "week", "number", "range", "color"})
MAX_PRESSES = 500
MAX_MONTHS = 60


class WidgetError(ScrapesmithError):
    """A widget did not end holding the value it was set to (or exposed nothing to set it with)."""


class WidgetBrowser(Protocol):
    """What the drivers need of ``web.browser.session.BrowserSession``."""

    def click(self, target: int | str) -> None: ...
    def fill(self, target: int | str, text: str) -> None: ...
    def press(self, key: str, target: int | str | None = None, times: int = 1) -> None: ...
    def evaluate(self, script: str, arg: Any = None, target: int | str | None = None) -> Any: ...


def widget_of(element: Element) -> str | None:
    """``native``, ``stepper`` (slider, spin button) or ``picker`` (a read-only field); None: type into it."""
    if element.widget in ("slider", "spinbutton"):
        return "stepper"
    if element.input_type in NATIVE_TYPES:
        return "native"
    if element.role == "textbox" and element.readonly:
        return "picker"
    return None


SET_NATIVE_JS = """(el, value) => {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return el.value;
}"""

# The stepper's value: its own aria-valuenow or value (or a slider ancestor's); with ``mark`` also every visible
# number on the page, each tagged once so that the next read finds the same elements.
READ_STEPPER_JS = """(el, mark) => {
  const own = [el, el.closest('[role=slider],[role=spinbutton]')].filter(Boolean);
  let value = null;
  for (const node of own) {
    const now = node.getAttribute('aria-valuenow');
    if (now !== null && now !== '') { value = now; break; }
    if ((node.tagName === 'INPUT') && node.value !== '') { value = node.value; break; }
  }
  const numbers = {};
  if (mark) {
    let next = 0;
    for (const node of document.body.querySelectorAll('*')) {
      if (node.children.length || node === el) continue;
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const text = (node.tagName === 'INPUT' ? node.value : node.textContent).trim();
      if (!/^-?\\d+(\\.\\d+)?$/.test(text)) continue;
      if (!node.hasAttribute('data-ss-readout')) node.setAttribute('data-ss-readout', String(next++));
      numbers[node.getAttribute('data-ss-readout')] = parseFloat(text);
    }
  }
  return {value: value, numbers: numbers};
}"""


def _stepper_value(browser: WidgetBrowser, target: int, readout: str | None) -> float | None:
    reading = browser.evaluate(READ_STEPPER_JS, readout is not None, target)
    if readout is not None:
        return reading["numbers"].get(readout)
    return as_number(str(reading["value"])) if reading["value"] is not None else None


def step_to(browser: WidgetBrowser, target: int, goal: float) -> float:
    """Step a slider or spin button to ``goal`` with ArrowUp/ArrowDown; the value it ends at."""
    first = browser.evaluate(READ_STEPPER_JS, True, target)
    own = as_number(str(first["value"])) if first["value"] is not None else None
    browser.press("ArrowUp", target)
    probe = browser.evaluate(READ_STEPPER_JS, True, target)
    readout: str | None = None
    if own is not None and probe["value"] is not None:
        now = as_number(str(probe["value"]))
        step = (now or own) - own
    else:  # no ARIA value: the number on the page that moved with the key is the slider's readout
        moved = {key: probe["numbers"][key] - value for key, value in first["numbers"].items()
                 if key in probe["numbers"] and probe["numbers"][key] != value}
        if len(moved) != 1:
            raise WidgetError("the widget showed no value that the arrow keys change")
        readout, step = next(iter(moved.items()))
        now = probe["numbers"][readout]
    if not step:  # already at the top: probe downwards
        browser.press("ArrowDown", target)
        after = _stepper_value(browser, target, readout)
        step = (now or 0) - (after or 0)
        now = after
    if not step or now is None:
        raise WidgetError("the widget's value did not change with the arrow keys")
    for _ in range(3):  # a few rounds: steps that are not all equal, a value clamped at a bound
        presses = round((goal - now) / abs(step))
        if presses == 0:
            break
        browser.press("ArrowUp" if presses > 0 else "ArrowDown", target, times=min(abs(presses), MAX_PRESSES))
        now = _stepper_value(browser, target, readout)
        if now is None:
            raise WidgetError("the widget's value could not be read back")
    if now != goal:
        raise WidgetError(f"the widget stopped at {now:g}, not {goal:g}")
    return now


# The calendar on the page now: the innermost visible element reading "<Month> <Year>", the nearest ancestor that
# also holds day cells, its previous/next controls (by text, title, aria-label or class) and the cell of ``day``.
# The controls and the day found are tagged ``data-ss-calendar`` so that a real click can reach them.
CALENDAR_JS = """(day) => {
  const MONTHS = ['january','february','march','april','may','june','july','august','september','october',
                  'november','december'];
  const shown = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                          return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const text = (el) => el.textContent.replace(/\\s+/g, ' ').trim();
  for (const el of document.querySelectorAll('[data-ss-calendar]')) el.removeAttribute('data-ss-calendar');
  let header = null, found = null;
  for (const el of document.body.querySelectorAll('*')) {
    const match = text(el).toLowerCase().match(/^([a-z]+)\\s+(\\d{4})$/);
    if (!match || !MONTHS.includes(match[1]) || !shown(el)) continue;
    if (!header || header.contains(el)) { header = el; found = match; }
  }
  if (!header) return null;
  const days = (root) => [...root.querySelectorAll('a,button,td,[role=gridcell],span,div')]
      .filter((el) => /^\\d{1,2}$/.test(text(el)) && shown(el));
  let calendar = header.parentElement;
  while (calendar && days(calendar).length < 28) calendar = calendar.parentElement;
  if (!calendar) return null;
  const words = (el) => [text(el), el.getAttribute('title'), el.getAttribute('aria-label'), el.className]
      .join(' ').toLowerCase();
  const control = (pattern) => {
    const all = [...calendar.querySelectorAll('*')].filter(
        (el) => shown(el) && !header.contains(el) && !el.contains(header) && pattern.test(words(el)));
    return all.find((el) => !all.some((other) => other !== el && el.contains(other)));
  };
  const prev = control(/\\bprev|previous|\\u2039|\\u00ab|\\u2190/);
  const next = control(/\\bnext\\b|\\u203a|\\u00bb|\\u2192/);
  if (prev) prev.setAttribute('data-ss-calendar', 'prev');
  if (next) next.setAttribute('data-ss-calendar', 'next');
  const disabled = (el) => /disabled|other-month|outside|adjacent/.test(
      [el.className, el.parentElement && el.parentElement.className].join(' ')) ||
      el.getAttribute('aria-disabled') === 'true';
  const cells = days(calendar).filter((el) => text(el) === String(day) && !disabled(el));
  const cell = cells.find((el) => !cells.some((other) => other !== el && el.contains(other)));
  if (cell) cell.setAttribute('data-ss-calendar', 'day');
  return {month: MONTHS.indexOf(found[1]) + 1, year: parseInt(found[2], 10), prev: !!prev, next: !!next,
          day: !!cell};
}"""


def choose_date(browser: WidgetBrowser, target: int, date: dt.date) -> None:
    """Open the picker the field fronts, page its calendar to ``date``'s month, click the day."""
    browser.click(target)
    for _ in range(MAX_MONTHS):
        calendar = browser.evaluate(CALENDAR_JS, date.day)
        if calendar is None:
            raise WidgetError("clicking the field showed no calendar to choose the date in")
        months = (date.year - calendar["year"]) * 12 + date.month - calendar["month"]
        if months == 0:
            if not calendar["day"]:
                raise WidgetError(f"the calendar shows no day {date.day} to click")
            browser.click('[data-ss-calendar="day"]')
            return
        control = "next" if months > 0 else "prev"
        if not calendar[control]:
            raise WidgetError(f"the calendar has no '{control}' control to reach {date:%B %Y}")
        browser.click(f'[data-ss-calendar="{control}"]')
    raise WidgetError(f"the calendar did not reach {date:%B %Y}")


READ_VALUE_JS = "(el) => el.value"


def set_value(browser: WidgetBrowser, element: Element, value: str) -> None:
    """Make ``element`` hold ``value`` through what it exposes (see the module docstring)."""
    kind = widget_of(element)
    target = element.id
    if kind == "stepper":
        goal = as_number(value)
        if goal is None:
            raise WidgetError(f"a slider or spin button takes a number, not {value!r}")
        step_to(browser, target, goal)
        return
    if kind == "native":
        held = browser.evaluate(SET_NATIVE_JS, value, target)
    elif kind == "picker":
        dates = [found.date for found in task_values(value) if found.date is not None]
        if not dates:
            raise WidgetError("a read-only field can be set only through what it opens; no date to choose in it")
        choose_date(browser, target, dates[0])
        held = browser.evaluate(READ_VALUE_JS, None, target)
    else:
        browser.fill(target, value)
        return
    if not same_date_or_value(str(held or ""), value):
        raise WidgetError(f"the field holds {held!r}, not {value!r}")
