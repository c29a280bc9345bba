"""Where a list program runs: the page runtimes replay drives (HTTP here; the browser in ``browser.py``).

A runtime holds the current page as a parsed tree and carries out the DSL's page actions. Over HTTP, a
``Click`` follows the element's link or submits its GET form, and ``TypeInput`` fills a form field (a
``<select>`` takes the option whose value or label matches); that covers server-side filters and
pagination. Script-driven pages (a "Load more" button) need the browser runtime.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree

from scrapesmith.dom import PageLayout, normalize_text, unrendered
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.selectors import first_in
from scrapesmith.web import Fetcher, Page, parse_page


class ReplayError(ScrapesmithError):
    """A recorded action cannot be carried out on the current page."""


class NeedsBrowser(ReplayError):
    """An action plain HTTP cannot carry out (a click with no link or form, a POST form): it needs a browser."""


class PageRuntime(Protocol):
    """What replay needs from a page environment."""

    name: str

    @property
    def url(self) -> str: ...

    def open(self, url: str) -> etree._Element: ...

    def tree(self) -> etree._Element: ...

    def click(self, selector: str) -> bool: ...

    def click_element(self, element: etree._Element) -> bool: ...

    def type_input(self, selector: str, value: str, enter: bool) -> None: ...

    def go_back(self) -> None: ...


#: how a program gets a fresh runtime per page it opens (HTTP, a browser, or the one the page needs)
RuntimeFactory = Callable[[], AbstractContextManager[PageRuntime]]


def page_layout(runtime: PageRuntime) -> PageLayout:
    """The current page as drawn, from a runtime that renders it anyway (the browser; ``auto`` once it
    switched); any other runtime gives an empty layout saying why, and list evidence uses the DOM alone."""
    measure = getattr(runtime, "layout", None)
    return measure() if callable(measure) else unrendered(f"the {runtime.name} runtime does not render pages")


class HttpRuntime:
    """Replays page actions with plain HTTP requests through a :class:`Fetcher` (robots, politeness apply)."""

    name = "http"

    def __init__(self, fetcher: Fetcher) -> None:
        self.fetcher = fetcher
        self.history: list[Page] = []
        self._tree: etree._Element | None = None
        self._form_values: dict[int, dict[str, str]] = {}
        self.pages_fetched = 0

    @property
    def url(self) -> str:
        return self.history[-1].url if self.history else ""

    def open(self, url: str) -> etree._Element:
        page = self.fetcher.fetch(url)
        self.pages_fetched += 1
        self.history.append(page)
        self._tree = parse_page(page)
        self._form_values = {}
        return self._tree

    def tree(self) -> etree._Element:
        if self._tree is None:
            raise ReplayError("no page is open")
        return self._tree

    def click(self, selector: str) -> bool:
        """Follow the link (or submit the form) of the first element ``selector`` matches."""
        return self.click_element(self._element(selector))

    def click_element(self, element: etree._Element) -> bool:
        link = element if element.get("href") else next(element.iterancestors("a"), None)
        if link is not None and link.get("href"):
            self.open(urljoin(self.url, link.get("href")))
            return True
        form = next(element.iterancestors("form"), None)
        if form is not None and element.tag in ("button", "input"):
            self._submit(form)
            return True
        raise NeedsBrowser(f"cannot click <{element.tag}> over HTTP (no link or form): it needs a browser")

    def type_input(self, selector: str, value: str, enter: bool) -> None:
        element = self._element(selector)
        name = element.get("name")
        form = next(element.iterancestors("form"), None)
        if not name or form is None:
            raise ReplayError(f"cannot fill {selector!r} over HTTP: it is not a named field of a form")
        chosen = option_value(element, value) if element.tag == "select" else value
        self._form_values.setdefault(id(form), {})[name] = chosen
        if enter or element.tag == "select" and form.find(".//button") is None:
            self._submit(form)

    def go_back(self) -> None:
        if len(self.history) > 1:
            self.history.pop()
            self._tree = parse_page(self.history[-1])

    def _element(self, selector: str) -> etree._Element:
        element = first_in(self.tree(), selector)
        if element is None:
            raise ReplayError(f"no element matches {selector!r} on {self.url}")
        return element

    def _submit(self, form: etree._Element) -> None:
        if (form.get("method") or "get").lower() != "get":
            raise NeedsBrowser("only GET forms can be submitted over HTTP: this one needs a browser")
        fields = form_fields(form)
        fields.update(self._form_values.get(id(form), {}))
        action = urljoin(self.url, form.get("action") or self.url)
        parts = urlsplit(action)
        query = urlencode([(name, value) for name, value in fields.items() if value])
        self.open(urlunsplit((parts.scheme, parts.netloc, parts.path, query, "")))


def form_fields(form: etree._Element) -> dict[str, str]:
    """The values a browser would submit for ``form`` as it stands."""
    fields: dict[str, str] = {}
    for field in form.iter("input", "select", "textarea"):
        name = field.get("name")
        if not name or field.get("type") in ("submit", "button", "reset", "image", "file"):
            continue
        if field.tag == "select":
            selected = field.find(".//option[@selected]")
            selected = selected if selected is not None else field.find(".//option")
            fields[name] = (
                selected.get("value", selected.text_content()) if selected is not None else ""
            ) or ""
        elif field.get("type") in ("checkbox", "radio"):
            if field.get("checked") is not None:
                fields[name] = field.get("value", "on")
        else:
            fields[name] = field.get("value", "") if field.tag == "input" else (field.text or "")
    return fields


def option_value(select: etree._Element, wanted: str) -> str:
    """The value of the option whose value or label matches ``wanted`` (case and spacing ignored)."""
    key = normalize_text(wanted).lower()
    for option in select.iter("option"):
        label = normalize_text(option.text_content()).lower()
        value = option.get("value", label)
        if key in (value.lower(), label):
            return value
    raise ReplayError(f"no option {wanted!r} in the select field {select.get('name')!r}")
