"""Value kinds: read from the words of any field's name or description, with recognisers used as checks."""

from __future__ import annotations

import pytest

from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.kinds import kind_asked, kind_of_value, recogniser


@pytest.mark.parametrize(("name", "description", "kind"), [
    ("salary", "", "money"),
    ("tuition_fees", "what a year costs", "money"),
    ("fax", "", "phone"),
    ("homepage", "", "url"),
    ("release_date", "", "date"),
    ("founded", "the year it was founded", "date"),
    ("birthplace", "", "location"),
    ("studio", "the studio that made the film", "organisation"),
    ("illustrator", "", "person"),
    ("tags", "", "category"),
    ("model_number", "", "identifier"),
    ("certificate", "the age rating of the film", "rating code"),
    ("wingspan", "the length of the wings", "measure"),
    ("page_count", "", "count"),
    ("colour", "", "class"),
    ("motto", "the school's motto", None),
])
def test_a_kind_comes_from_the_words_of_a_field_nobody_listed(name, description, kind) -> None:
    found = kind_asked(name, description)
    assert (found.name if found else None) == kind


@pytest.mark.parametrize(("kind", "yes", "no"), [
    ("money", ["$1,299.00", "£7.63", "USD 40"], ["1,299", "Paperback"]),
    ("phone", ["(907) 279-7311", "907/279-7311", "+44 20 7946 0958"], ["2010-2011", "$22,760"]),
    ("url", ["http://www.acu.edu", "www.adelphi.edu"], ["Abilene, TX"]),
    ("date", ["June 2010", "5/10/07", "2007", "March 15th, 2007", "14 October 1994"], ["Paperback", "576 pages"]),
    ("rating code", ["PG-13", "Rated R for violence.", "TV-MA"], ["8.9/10", "Reviews"]),
    ("measure", ["6-7", "205 lbs", "3.0L 300 hp V6", "18 mpg", "2.7-Inch"], ["Boston Celtics"]),
    ("isbn13", ["978-0307387820"], ["0307387828"]),
    ("identifier", ["SD1300", "A6-2010"], ["Canon", "the best"]),
    ("person", ["Naomi Novik", "J. R. R. Tolkien"], ["learn how customers can search inside this book."]),
    ("organisation", ["Anchor", "St. Martin's Press"], ["May 19, 2009", "2.0", "Read our reviews."]),
    ("category", ["Drama", "Point Guard"], ["2.0", "$10.07", "May 2010"]),
])
def test_recognisers_tell_a_kind_from_its_neighbours(kind, yes, no) -> None:
    check = recogniser(kind)
    assert check is not None
    assert [v for v in yes if not check(v)] == []
    assert [v for v in no if check(v)] == []


def test_a_field_is_labelled_by_its_own_words_its_synonyms_and_its_kinds_labels() -> None:
    concept = concept_for("manufacturer", "Please extract the manufacturer of the camera.")
    assert {"manufacturer", "brand", "brand name", "make"} <= set(concept.labels)
    assert concept.kind == "organisation" and not concept.hard_type and not concept.finds_values
    dated = concept_for("publication_date", "")
    assert {"publication date", "publication", "date"} <= set(dated.labels) and dated.hard_type
    assert concept_for("genres").multiple and not concept_for("type").multiple


@pytest.mark.parametrize(("value", "kind"), [
    ("978-0307269997", "isbn13"),
    ("ISBN 978-3-16-148410-0", "isbn13"),
    (": 9780316125581", "isbn13"),
    ("0-306-40615-2", "isbn"),
    ("$52,400 - $58,250", "money"),  # ten digits, but a price range
    ("9780316125582", None),  # an ISBN-13's shape with a wrong check digit
])
def test_an_isbn_is_written_as_one_and_its_check_digit_holds(value, kind) -> None:
    assert kind_of_value(value) == kind
