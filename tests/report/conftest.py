"""A real Chromium page for looking at reports the way a person does, and a record of every request it made.

Playwright's sync API drives the system Chromium directly (reports are ``file://`` pages, which the
product's guarded browser runtime refuses on purpose). Screenshots go to ``report-screenshots/`` under
pytest's base temporary directory, for a person to look at after the run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapesmith.web.browser.models import CHROMIUM_ARGS, BrowserOptions


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    path = BrowserOptions().executable_path
    if not shutil.which(path):
        pytest.skip(f"Chromium not found at {path}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        yield browser
        browser.close()


@pytest.fixture
def open_report(chromium):
    """``open_report(path) -> (page, requests)``: the report loaded in a fresh context, every request URL seen."""
    contexts = []

    def load(path: Path):
        context = chromium.new_context()
        contexts.append(context)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(path.resolve().as_uri())
        return page, requests

    yield load
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.getbasetemp() / "report-screenshots"
