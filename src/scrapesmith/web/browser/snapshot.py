"""Snapshots of a live page: stamp ids in the browser, then build the ``dom`` views from the same HTML.

The id contract of ``dom.ids``: an element carrying ``data-ss-id`` keeps that id in every view. So the
browser stamps the live DOM first (only elements without an id, numbering on from a per-document counter,
so ids of elements that persist never change, even after "Load more" appends new ones), then serialises
it; the simplified DOM and the markdown view are built from that HTML, and ``[data-ss-id="N"]`` finds the
live element again.

Attributes only say what the page was served with; what a user did since (typed text, a chosen option,
ticked boxes, the focus, class-based hiding) lives in DOM properties. ``LIVE_STATE_JS`` copies those into
``data-ss-*`` attributes just before serialising (``data-ss-value``, ``data-ss-checked``,
``data-ss-selected``, ``data-ss-focused``, ``data-ss-hidden``), so every view shows the page as it is now;
``data-ss-pointer`` marks the outermost element under a pointer cursor (clickable by script, not markup).
"""

from __future__ import annotations

from scrapesmith.dom import nodes_by_id, parse_html, simplify, to_markdown
from scrapesmith.web.browser.views import Snapshot

UNLIMITED_TOKENS = 10**9

# Numbering resumes from the largest id present when the page has lost the counter (e.g. a script
# overwrote window properties), so a re-stamp never hands out an id twice.
STAMP_IDS_JS = """
() => {
  const key = '__scrapesmithNextId';
  let next = window[key];
  if (typeof next !== 'number') {
    next = 0;
    for (const el of document.querySelectorAll('[data-ss-id]')) {
      const value = parseInt(el.getAttribute('data-ss-id'), 10);
      if (!Number.isNaN(value) && value > next) next = value;
    }
  }
  for (const el of document.querySelectorAll('*')) {
    if (!el.hasAttribute('data-ss-id')) el.setAttribute('data-ss-id', String(++next));
  }
  Object.defineProperty(window, key, {value: next, writable: true, configurable: true, enumerable: false});
  return next;
}
"""

# Live properties -> data attributes (the contract of ``dom.visibility.live_state``). An attribute is only
# written when it changes, so a page's MutationObservers see no churn on repeated snapshots. Passwords are
# masked: the observation shows how many characters were typed, never the secret.
LIVE_STATE_JS = """
() => {
  const set = (el, name, value) => {
    if (value === null) { if (el.hasAttribute(name)) el.removeAttribute(name); }
    else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  };
  const active = document.activeElement;
  const root = document.body || document.documentElement;
  for (const el of root.querySelectorAll('*')) {
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') set(el, 'data-ss-checked', el.checked ? 'true' : 'false');
      else if (type === 'password') set(el, 'data-ss-value', '\u2022'.repeat(el.value.length));
      else set(el, 'data-ss-value', String(el.value));
    } else if (tag === 'OPTION') {
      set(el, 'data-ss-selected', el.selected ? 'true' : 'false');
    }
    set(el, 'data-ss-focused', el === active && el !== document.body ? 'true' : null);
    const style = window.getComputedStyle(el);
    set(el, 'data-ss-hidden', style.display === 'none' || style.visibility === 'hidden' ? 'true' : null);
    const parent = el.parentElement;
    const pointer = style.cursor === 'pointer' && !(parent && window.getComputedStyle(parent).cursor === 'pointer');
    set(el, 'data-ss-pointer', pointer ? 'true' : null);
  }
  return true;
}
"""


def build_snapshot(
    url: str, title: str, html: str, screenshot: bytes | None, max_tokens: int | None
) -> Snapshot:
    """The views of one serialised page; each view gets its own parse (views may annotate their tree)."""
    tree = parse_html(html, url=url)
    ids = {ident: str(element.tag) for ident, element in nodes_by_id(tree).items()}
    markdown_budget = max_tokens if max_tokens is not None else UNLIMITED_TOKENS
    return Snapshot(
        url=url,
        title=title,
        html=html,
        ids=ids,
        simplified=simplify(parse_html(html, url=url), max_tokens),
        markdown=to_markdown(parse_html(html, url=url), markdown_budget),
        screenshot=screenshot,
    )
