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


CARD = '<a href="/61"><span>Top rated</span><h3>plants</h3><b>Green Acres</b>\n<i>4.5</i>|<i>1,876 comments</i></a>'
CARD_TEXT = "Topratedplants" + "GreenAcres4.5|1,876comments"


def test_a_value_read_from_several_elements_is_found_in_the_page_text():
    """A card's whole text, joined with spaces its tags do not hold, is on the page (whitespace aside)."""
    value = "Top rated plants Green Acres 4.5|1,876 comments"
    assert not _on_page(value, CARD)  # not in the page's source, tags in between
    assert _on_page(value, CARD, CARD_TEXT)


@pytest.mark.parametrize("value", ["Top rated plants Red Acres", "Green Acres 5.0", "comments 1,876"])
def test_words_of_the_page_in_another_order_or_changed_are_not_found(value):
    assert not _on_page(value, CARD, CARD_TEXT)


def test_a_dataset_of_millions_of_empty_records_is_one_line_not_gigabytes(tmp_path):
    """Issue 43: collect's validation read the program's dataset.jsonl whole, a dict per line (8 MB of
    ``{}`` lines is millions of them). Past the read-back limits it is one line, read line by line."""
    from scrapesmith.collect.validate import _dataset_rows

    dataset = tmp_path / "dataset.jsonl"
    dataset.write_text("{}\n" * 2_000_001)
    rows, unreadable = _dataset_rows(dataset)
    assert rows == [] and "not readable" in unreadable and "\n" not in unreadable


def test_a_dataset_linked_to_an_outside_file_is_not_followed(tmp_path):
    from scrapesmith.collect.validate import _dataset_rows

    outside = tmp_path / "outside.jsonl"
    outside.write_text('{"secret": "x"}\n')
    (tmp_path / "dataset.jsonl").symlink_to(outside)
    rows, unreadable = _dataset_rows(tmp_path / "dataset.jsonl")
    assert rows == [] and "symbolic link" in unreadable
