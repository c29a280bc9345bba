"""Snapshots of a live page: stamp ids in the browser, then build the ``dom`` views from the same HTML.

The id contract of ``dom.ids``: an element carrying ``data-ss-id`` keeps that id in every view. So the
browser stamps the live DOM first (only elements without an id, numbering on from a per-document counter,
so ids of elements that persist never change, even after "Load more" appends new ones), then serialises
it; the simplified DOM and the markdown view are built from that HTML, and ``[data-ss-id="N"]`` finds the
live element again.
"""

from __future__ import annotations

import importlib
from typing import Any

from scrapesmith.web.browser_models import Snapshot

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


def build_snapshot(
    url: str, title: str, html: str, screenshot: bytes | None, max_tokens: int | None
) -> Snapshot:
    from scrapesmith.dom.ids import nodes_by_id
    from scrapesmith.dom.parse import parse_html

    tree = parse_html(html, url=url)
    ids = {ident: str(element.tag) for ident, element in nodes_by_id(tree).items()}
    return Snapshot(
        url=url,
        title=title,
        html=html,
        ids=ids,
        simplified=_view("scrapesmith.dom.simplify", "simplify", html, url, max_tokens),
        markdown=_view("scrapesmith.dom.markdown", "to_markdown", html, url, max_tokens),
        screenshot=screenshot,
    )


def _view(module_name: str, function_name: str, html: str, url: str, max_tokens: int | None) -> Any:
    """One ``dom`` view, built on its own parse (views may annotate the tree they are given)."""
    from scrapesmith.dom.parse import parse_html

    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        return None
    return getattr(module, function_name)(parse_html(html, url=url), max_tokens)
