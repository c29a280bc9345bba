"""Rendered layouts kept on disk, so a page is drawn in Chromium once and its boxes reused by every rerun.

Drawing a NEXT-EVAL page costs about 0.6 s and the browser wants the machine to itself; ``bench nexteval
--fit --render`` and the variant scripts in ``bench/`` measure the same pages over and over. A layout is
stored as gzipped JSON (:func:`scrapesmith.dom.layout_record`) under the SHA-256 of the parsed page's
markup (the tree the boxes are tied to: the same file parses to the same tree) and the viewport, so a
changed page, parser or viewport is drawn again. Only pages that were drawn are stored: a page that
could not be rendered is tried again next time, and its fallback is counted as before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from scrapesmith.dom import VIEWPORT, PageLayout, layout_from_record, layout_record

Render = Callable[[etree._Element], PageLayout]


class LayoutCache:
    """A renderer that reads a page's layout from ``directory`` when it was drawn before, and otherwise
    asks ``render`` and stores what it drew. ``hits`` and ``drawn`` count the two; the last layout's
    origin is ``last_cached``."""

    def __init__(self, directory: Path, render: Render) -> None:
        self.directory = directory
        self.render = render
        self.hits = 0
        self.drawn = 0
        self.last_cached = False

    def __call__(self, root: etree._Element) -> PageLayout:
        path = self.directory / f"{page_key(root)}.json.gz"
        stored = _read(path, root)
        self.last_cached = stored is not None
        if stored is not None:
            self.hits += 1
            return stored
        layout = self.render(root)
        if layout.rendered:
            self.drawn += 1
            self.directory.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_bytes(gzip.compress(json.dumps(layout_record(layout, root)).encode("utf-8")))
            temporary.replace(path)
        return layout


def page_key(root: etree._Element) -> str:
    """The name a page's layout is stored under: its parsed markup and the viewport it is drawn at."""
    digest = hashlib.sha256(etree.tostring(root.getroottree(), encoding="utf-8"))
    digest.update(f"{VIEWPORT[0]}x{VIEWPORT[1]}".encode())
    return digest.hexdigest()


def _read(path: Path, root: etree._Element) -> PageLayout | None:
    """The stored layout, or ``None`` when there is none or it cannot be used (unreadable, another form)."""
    try:
        record = json.loads(gzip.decompress(path.read_bytes()))
        return layout_from_record(record, root) if isinstance(record, dict) else None
    except (OSError, ValueError, EOFError, KeyError, TypeError, IndexError):
        return None
