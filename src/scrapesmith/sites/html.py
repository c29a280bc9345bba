"""Small HTML-writing helpers shared by the site builders.

Sites are written with f-strings rather than templates so each builder controls its exact markup
(the point of the demo web is that sites differ in structure); these helpers only remove repetition.
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from urllib.parse import urlencode


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def document(title: str, body: str, *, head: str = "", lang: str = "en", body_attrs: str = "") -> str:
    """A complete utf-8 HTML document; every page of the demo web goes through here."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n{head}</head>\n<body{body_attrs}>\n{body}\n</body>\n</html>\n"
    )


class ObfuscatedClasses:
    """Maps semantic class names to stable hashed ones (``c-x7f2a``), as CSS-in-JS builds do.

    The hash depends on the site and seed, so the same role gets a different class on every site and
    no extractor can key on a class vocabulary.
    """

    def __init__(self, salt: str) -> None:
        self._salt = salt

    def __call__(self, *names: str) -> str:
        return " ".join(self._one(name) for name in names)

    def _one(self, name: str) -> str:
        digest = hashlib.sha1(f"{self._salt}:{name}".encode()).hexdigest()
        return f"c-{digest[0]}{digest[1:5]}"


def query_path(path: str, params: dict[str, str]) -> str:
    """``path`` plus the non-empty ``params`` in sorted order: the canonical key of a query page."""
    kept = sorted((k, v) for k, v in params.items() if v not in ("", None))
    return f"{path}?{urlencode(kept)}" if kept else path


def page_count(total: int, size: int) -> int:
    return max(1, -(-total // size))


def chunk(items: list, size: int, page: int) -> list:
    return items[(page - 1) * size : page * size]
