"""Fetching and parsing demo pages over real HTTP for the site tests."""

from __future__ import annotations

import re

import httpx
import lxml.html

from scrapesmith.sites import DemoServer

_CLIENT = httpx.Client(timeout=10, trust_env=False)  # one client: keep-alive, one SSL context


def get(server: DemoServer, path: str) -> httpx.Response:
    return _CLIENT.get(server.url(path))


def page(server: DemoServer, path: str) -> lxml.html.HtmlElement:
    response = get(server, path)
    assert response.status_code == 200, path
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    return lxml.html.fromstring(response.content)


def text(node: lxml.html.HtmlElement) -> str:
    return re.sub(r"\s+", " ", node.text_content()).strip()


def texts(doc: lxml.html.HtmlElement, xpath: str) -> list[str]:
    return [text(node) if not isinstance(node, str) else node for node in doc.xpath(xpath)]


def follow(server: DemoServer, start: str, next_xpath: str) -> list[lxml.html.HtmlElement]:
    """Every page of a paginated list, following the "next" link; fails on a cycle."""
    seen, docs, path = set(), [], start
    while path:
        assert path not in seen, f"pagination cycles back to {path}"
        seen.add(path)
        doc = page(server, path)
        docs.append(doc)
        links = doc.xpath(next_xpath)
        path = links[0] if links else None
    return docs


def unquote_marks(quote: str) -> str:
    return quote.strip().strip("“”").strip()
