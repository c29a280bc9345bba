"""Values as the page prints them, and examples read as the page shows them (issue 41, items 4 and 5).

Fragments are cut from real SWDE pages in ``../shared/data/swde`` (restaurant-opentable's address block,
book-borders' author line, university-collegeboard's address cell); the last test reads the pages themselves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.induce import (
    CompiledSpec,
    FieldRequest,
    ScraperSpec,
    generalise,
    induce_scraper,
    parse_example,
    parse_for_replay,
)
from scrapesmith.induce.candidates import FieldCandidate
from scrapesmith.induce.cleaning import without_controls
from scrapesmith.induce.execute import node_value, run_actions

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"

ADDRESS = """<html><body><div id="profile"><h1 class="RestProfileTitle">Rosemary's Restaurant</h1>
	<div class="RestProfileAddress">
		10820 W. Charleston Blvd<br/>Las Vegas, NV  89135
	</div>
	<div class="clearme"><!--IE--></div></div></body></html>"""

AUTHORS = """<div class="author_name">
   <a href="http://www.borders.com/online/store/SearchResults?type=1&amp;contrib=Lisa+Kleypas">Lisa Kleypas</a>
   &nbsp;(<a class="small" href="#complete_contributors">See All Contributors</a>)
</div>"""


def address_page(street: str, town: str) -> str:
    return f"""<html><body><table><tr><td id="main_address">
        <h3>Main Address</h3>
ACU Box 29100
<br />{town}
<br />{street}
<br /><a href="http://www.acu.edu" target="new">www.acu.edu</a>
</td></tr></table></body></html>"""


def test_text_nodes_apart_on_the_page_are_joined_by_a_space_not_glued():
    root = parse_for_replay(ADDRESS)
    assert run_actions(root, ["//div[@class='RestProfileAddress']"]) == ["10820 W. Charleston Blvd Las Vegas, NV 89135"]
    # inline markup joins as it is; a comment gives nothing
    fragment = parse_for_replay("<html><body><h1><b>Pulp</b> Fiction<!-- x --> (1994)</h1></body></html>")
    assert node_value(fragment.find(".//h1")) == "Pulp Fiction (1994)"


def test_a_page_control_is_not_an_item_of_a_list():
    root = parse_for_replay(f"<html><body>{AUTHORS}</body></html>")
    candidate = FieldCandidate("//div[@class='author_name']/a", "class")
    values = run_actions(root, [candidate.xpath])
    assert values == ["Lisa Kleypas", "See All Contributors"]
    variant = without_controls(candidate, values)
    assert variant is not None and run_actions(root, [variant.xpath]) == ["Lisa Kleypas"]
    assert without_controls(candidate, ["Lisa Kleypas"]) is None  # nothing to leave out
    assert without_controls(FieldCandidate("//a/text()", "class"), values) is None  # no element step to test


def test_an_example_after_a_line_break_is_found_and_generalised():
    pages = [parse_for_replay(address_page(phone, town)) for phone, town in
             [("(325) 674-2000", "Abilene, TX 79699-9100"), ("(952) 851-0066", "Bloomington, MN 55431"),
              ("(216) 861-3222", "Cleveland, OH 44115")]]
    field = generalise(parse_example("phone=(325) 674-2000"), pages)
    compiled = CompiledSpec(ScraperSpec(fields=[field]))
    assert [compiled.row_from(compiled.extract_tree(p))["phone"] for p in pages] == [
        "(325) 674-2000", "(952) 851-0066", "(216) 861-3222"]


def test_an_example_split_over_inline_markup_or_typed_with_an_entity_is_read_as_shown():
    pages = [parse_for_replay(f"<html><body><div class='maker'><b>AT&amp;T</b> Wireless {i}</div></body></html>")
             for i in range(3)]
    field = generalise(parse_example("maker=AT&amp;T Wireless 0"), pages)
    compiled = CompiledSpec(ScraperSpec(fields=[field]))
    assert compiled.row_from(compiled.extract_tree(pages[2]))["maker"] == "AT&T Wireless 2"
    lines = [parse_for_replay(ADDRESS)]
    field = generalise(parse_example("address=10820 W. Charleston Blvd Las Vegas, NV 89135"), lines)
    assert run_actions(lines[0], field.actions) == ["10820 W. Charleston Blvd Las Vegas, NV 89135"]


@pytest.mark.skipif(not (SWDE / "university").is_dir(), reason="SWDE data not present")
def test_on_real_pages_the_example_after_a_br_is_not_refused():
    folder = SWDE / "university/university-collegeboard"
    pages = [parse_for_replay(p.read_bytes().decode("utf-8", "replace")) for p in sorted(folder.glob("*.htm"))[:3]]
    field = generalise(parse_example("phone=(325) 674-2000"), pages)
    compiled = CompiledSpec(ScraperSpec(fields=[field]))
    phones = [compiled.row_from(compiled.extract_tree(p))["phone"] for p in pages]
    assert phones[0] == "(325) 674-2000" and all(p and p[0] == "(" for p in phones)


@pytest.mark.skipif(not (SWDE / "book").is_dir(), reason="SWDE data not present")
def test_on_real_pages_no_author_list_carries_see_all_contributors():
    folder = SWDE / "book/book-borders"
    pages = [parse_for_replay(p.read_bytes().decode("utf-8", "replace")) for p in sorted(folder.glob("*.htm"))[:6]]
    request = FieldRequest("author", "Here's a webpage with detailed information about a book. "
                                     "Please extract the author of the book.")
    spec = induce_scraper([request], pages[:3], method="heuristic")
    compiled = CompiledSpec(spec)
    authors = [compiled.row_from(compiled.extract_tree(p))["author"] for p in pages]
    assert all(authors) and not any("See All" in str(a) for a in authors)


def test_several_values_given_for_the_first_page_make_the_field_a_list():
    """autoscraper's wanted list: a user gives every value they see, and the path that gives them all wins."""
    pages = [parse_for_replay(f"""<html><body><div class="RestProfileAddress">
        {i} W. Charleston Blvd<br/>Las Vegas, NV 8913{i}</div></body></html>""") for i in range(3)]
    first = ["0 W. Charleston Blvd", "Las Vegas, NV 89130"]
    field = generalise(parse_example(f"address={first[0]}"), pages, together=first)
    assert field.post.multiple
    compiled = CompiledSpec(ScraperSpec(fields=[field]))
    assert compiled.row_from(compiled.extract_tree(pages[2]))["address"] == ["2 W. Charleston Blvd", "Las Vegas, NV 89132"]
    labelled = [parse_for_replay(f"<html><body><p>Phone: <br/>Main: (702) 214-350{i}</p></body></html>")
                for i in range(3)]
    field = generalise(parse_example("phone=(702) 214-3500"), labelled)
    assert run_actions(labelled[1], field.actions) and CompiledSpec(ScraperSpec(fields=[field])).row_from(
        CompiledSpec(ScraperSpec(fields=[field])).extract_tree(labelled[1]))["phone"] == "(702) 214-3501"
