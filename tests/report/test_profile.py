"""Column profiles: types, fill, distinct values, and the flags that keep a useless column from passing unseen."""

from __future__ import annotations

from scrapesmith.report.profile import column_kind, profile_columns


def test_kinds_follow_the_values_a_column_holds():
    assert column_kind(["12", "1,204", "-3"]) == "integer"
    assert column_kind(["12", "0.5"]) == "number"
    assert column_kind(["2024-01-02", "2024-01-03T00:00:00+00:00"]) == "date"
    assert column_kind(["http://127.0.0.1/a", "https://x.example/b"]) == "url"
    assert column_kind(["12", "twelve"]) == "text"
    assert column_kind([]) == "empty"


def test_empty_sparse_and_constant_columns_are_flagged_but_provenance_is_not():
    rows = [{"title": f"t{i}", "price": "" if i else "3", "currency": "USD", "note": "",
             "program_id": "p1", "error": None} for i in range(6)]
    flags = {profile.name: profile.flag for profile in profile_columns(rows)}
    assert flags["title"] == ""
    assert flags["note"] == "empty in every row"
    assert flags["price"] == "filled in only 1 of 6 rows"
    assert flags["currency"] == "the same value in every row"
    assert flags["program_id"] == ""
    assert flags["error"] == ""
