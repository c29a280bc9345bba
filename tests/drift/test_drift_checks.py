"""Drift checks on rows: each check fires on the change it names and stays quiet on an unchanged output."""

from __future__ import annotations

from scrapesmith.drift import compare, profile_rows
from scrapesmith.induce.examples import kind_of

SEED_ROWS = [{"title": "Dune", "price": "$10.99"}, {"title": "Emma", "price": "$7.50"},
             {"title": "The Hobbit", "price": "$12.00"}]


def _profile(items_per_page=()):
    return profile_rows(SEED_ROWS, ["title", "price"], kind_of, seed=True, items_per_page=items_per_page)


def test_profile_keeps_fill_kinds_lengths_numbers_and_seed_values():
    price = _profile().column("price")
    assert (price.filled, price.pages, price.main_kind) == (3, 3, "money")
    assert price.numbers == [10.99, 7.5, 12.0] and price.seed_values == [["$10.99"], ["$7.50"], ["$12.00"]]


def test_unchanged_output_raises_no_alarm():
    rows = [{"title": f"Book number {i}", "price": f"${i}.99"} for i in range(40)]
    report = compare(_profile(), rows, kind_of)
    assert report.checked and not report.drifted and report.pages == 40


def test_empty_column_is_drift_with_its_evidence():
    rows = [{"title": f"Book {i}", "price": None} for i in range(40)]
    report = compare(_profile(), rows, kind_of)
    assert [(d.column, d.check, d.evidence) for d in report.drifts] == [
        ("price", "fill", "price: 0 of 40 filled, was 3 of 3")]


def test_a_few_empty_pages_by_chance_are_no_drift():
    rows = [{"title": "Book", "price": "$1.00" if i % 4 else None} for i in range(40)]
    assert not compare(_profile(), rows, kind_of).drifted


def test_values_of_another_kind_are_drift():
    rows = [{"title": "Book", "price": "In stock"} for _ in range(10)]
    [drift] = compare(_profile(), rows, kind_of).drifts
    assert drift.check == "kind" and drift.evidence == "price: 0 of 10 values read as money, was 3 of 3"


def test_a_selector_reading_a_whole_container_is_length_drift():
    rows = [{"title": "Home Books Music " * 20, "price": "$1.00"} for _ in range(10)]
    [drift] = compare(_profile(), rows, kind_of).drifts
    assert drift.column == "title" and drift.check == "length"


def test_fewer_items_per_page_is_list_drift():
    report = compare(_profile([25, 24, 27]), SEED_ROWS, kind_of, items_per_page=[3, 3])
    assert [d.evidence for d in report.drifts] == ["items per page 3, was 25±1"]


def test_error_rows_say_nothing_about_the_site():
    rows = [*({"title": "Book", "price": "$2.00"} for _ in range(5)),
            *({"title": None, "price": None, "error": "404"} for _ in range(30))]
    assert not compare(_profile(), rows, kind_of).drifted


def test_a_program_without_profile_is_not_checked():
    report = compare(None, SEED_ROWS, kind_of)
    assert not report.checked and not report.drifted


def test_no_rows_at_all_is_drift():
    report = compare(_profile(), [], kind_of)
    assert [(d.check, d.evidence) for d in report.drifts] == [("rows", "no rows read, was 3 when forged")]


def test_values_that_now_hold_the_words_cut_away_when_forged_are_drift():
    profile = _profile()
    profile.column("title").cut = ["See All Contributors"]
    held = [{"title": f"See All Contributors) Author {i} (", "price": "$1.00"} for i in range(7)]
    [drift] = compare(profile, held, kind_of).drifts
    assert (drift.column, drift.check) == ("title", "cut")
    assert drift.evidence == "title: 7 of 7 values hold 'See All Contributors', cut away on every seed page"
    cut_as_forged = [{"title": f"Author {i}", "price": "$1.00"} for i in range(7)]
    assert not compare(profile, cut_as_forged, kind_of).drifted


def test_seed_pages_that_read_the_same_values_are_one_observation():
    """book-borders forged on three copies of one book (SWDE pages 6-8, "James Patterson, Maxine Paetro" on
    each): two of seven other books with several authors is what one observation allows, not drift; on three
    different seed books with several authors each it is."""
    same = [{"author": ["James Patterson", "Maxine Paetro"]}] * 3
    differ = [{"author": ["James Patterson", "Maxine Paetro"]}, {"author": ["Stieg Larsson", "Reg Keeland"]},
              {"author": ["Naomi Novik", "Dominic Harman"]}]
    now = [{"author": ["Stieg Larsson", "Reg Keeland"]}] * 2 + [{"author": ["Lisa Kleypas"]}] * 5
    for seeds, drifted in ((same, False), (differ, True)):
        profile = profile_rows(seeds, ["author"], kind_of, seed=True)
        assert compare(profile, now, kind_of).drifted is drifted
    assert profile_rows(same, ["author"], kind_of, seed=True).column("author").forged_fill == (1, 1)
    empty = [{"author": None}] * 7
    assert compare(profile_rows(same, ["author"], kind_of, seed=True), empty, kind_of).drifted  # still drift
