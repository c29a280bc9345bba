"""Validation finds a typed value on the page it came from, however the page printed it."""

from __future__ import annotations

import pytest

from scrapesmith.collect.validate import _on_page

PAGE = "<td>Jan 03, 2024</td><td>12.50</td><td>1,087,116</td><td>.415</td><td>Ada Lovelace; Alan Turing</td>"


@pytest.mark.parametrize("value", ["1087116", "1087116.0", "12.5", "0.415", "Ada Lovelace; Alan Turing"])
def test_typed_values_are_found_as_the_page_prints_them(value):
    assert _on_page(value, PAGE)


@pytest.mark.parametrize("value", ["1087117", "13.5", "Grace Hopper"])
def test_values_not_on_the_page_are_not_found(value):
    assert not _on_page(value, PAGE)
