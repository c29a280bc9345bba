"""Evidence a template change leaves alone (issue 28, round 6): the part of the page title that names the
record, which a renamed class cannot hide ("Ray Allen" of "Ray Allen Stats, News, Photos - Boston Celtics -
ESPN", printed as "Ray Allen  #20  SG" in a box whose class is generated), and a link whose address names the
field (``restaurants-nam_cuisine:134.html``) when the label before it says nothing of the field. Fragments
cut from real player and restaurant pages; three seeds forge the spec and a fourth, unseen page checks it.
"""

from __future__ import annotations

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.heuristic import induce_heuristic
from scrapesmith.induce.titles import leads_with, title_cores

PLAYERS = [("Ray Allen", "#20", "SG", "c-4f1a"), ("Avery Bradley", "#0", "SG", "c-4f1a"),
           ("Marquis Daniels", "#8", "SG", "c-4f1a"), ("Glen Davis", "#11", "PF", "c-4f1a")]
STREETS = [("Arctic Roadrunner", "2477 Arctic Blvd., Downtown, Anchorage, AK, 99503"),
           ("Bombay Deluxe", "555 W. Northern Lights Blvd., Midtown, Anchorage, AK, 99503"),
           ("Double Musky Inn", "Crow Creek Rd., Girdwood, AK, 99587"),
           ("Glacier BrewHouse", "737 W. 5th Ave., Downtown, Anchorage, AK, 99501")]
PLACES = [("Arctic Roadrunner", "American", "98c1"), ("Bombay Deluxe", "Indian", "134"),
          ("Double Musky Inn", "Southern", "161"), ("Glacier BrewHouse", "Seafood", "77")]


def rows_of(pages: list[str], *requests: FieldRequest) -> list[dict]:
    compiled = CompiledSpec(induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]]))
    return [compiled.row(p) for p in pages]


def player_page(name: str, number: str, position: str, cls: str) -> str:
    """A player's header as the real page draws it, every class generated: the team's heading is the same on
    every seed (all three players play for one team) and the page title holds both."""
    return (f"<html><head><title>{name} Stats, News, Photos - Boston Celtics - ESPN</title></head><body>"
            f"<div class='c-9c79'><img src='bos.gif'><h2>Boston Celtics</h2></div>"
            f"<div class='c-0218'><div class='{cls}'>{name}&nbsp;&nbsp;{number}&nbsp;&nbsp;{position}</div>"
            f"<div class='c-77aa'></div></div><table><tr><td>Height</td><td>6-5</td></tr></table></body></html>")


def test_the_titles_record_part_is_what_the_seed_titles_do_not_share() -> None:
    titles = ["ray allen stats, news - espn | ray allen", "glen davis stats, news - espn | glen davis"]
    assert title_cores(titles) == [("ray allen",), ("glen davis",)]
    assert title_cores(["same - site", "same - site"]) == [(), ()]


def test_a_name_printed_with_more_beside_it_is_found_without_its_class() -> None:
    pages = [player_page(*player) for player in PLAYERS]
    rows = rows_of(pages, FieldRequest("name", "Please extract the name of the player."))
    assert [row["name"] for row in rows] == [f"{n} {num} {pos}" for n, num, pos, _ in PLAYERS]


def place_page(name: str, cuisine: str, code: str) -> str:
    """A restaurant's facts behind labels that name nothing (``Item 9b59a0:``), as a relabelled template
    prints them; the cuisine's link files the restaurant under its cuisine."""
    return (f"<html><head><title>{name} Review - Guide</title></head><body><h2>{name}</h2><ul>"
            f"<li><span>Item 52b1:</span> 907/279-7311</li>"
            f"<li><span>Item 9b59:</span> <a href='restaurants-nam_cuisine:{code}.html'>{cuisine}</a></li>"
            f"<li><span>Item 881d:</span> <a href='restaurants-nam_loc:4025.html'>Downtown</a></li>"
            f"</ul><p><a href='restaurants-cuisines.html'>All cuisines</a></p></body></html>")


def test_a_link_whose_address_names_the_field_gives_its_value() -> None:
    pages = [place_page(*place) for place in PLACES]
    rows = rows_of(pages, FieldRequest("cuisine", "Please extract the cuisine that the restaurant offers."))
    assert [row["cuisine"] for row in rows] == [[cuisine] for _, cuisine, _ in PLACES]


def entity_page(name: str, street: str, box_id: str) -> str:
    """A restaurant page whose boxes carry generated ids (digits and all), with the name twice: in the main
    heading with its town and bare in a sub-heading (the page title's record part exactly, which wins); the
    address's label is wrapped in one more box by the template."""
    return (f"<html><head><title>{name} Review - Guide</title></head><body>"
            f"<div id='i-a022bf'><h1>{name}, Anchorage</h1><h2>Read our reviews. Or post your own.</h2></div>"
            f"<div id='{box_id}'><h2>{name} </h2><ul><li><span><span class='w-25db'>Item 989f:</span></span>"
            f" {street} | <a href='#'>Map It</a></li></ul></div></body></html>")


def test_a_heading_in_a_box_with_a_generated_id_is_reached_by_that_id() -> None:
    pages = [entity_page(name, street, "i-ed222e") for name, street in STREETS]
    rows = rows_of(pages, FieldRequest("name", "Please extract the restaurant's name."))
    assert [row["name"] for row in rows] == [name for name, _ in STREETS]


def test_a_value_after_a_label_the_template_wrapped_twice_is_found_by_its_kind() -> None:
    pages = [entity_page(name, street, "i-ed222e") for name, street in STREETS]
    rows = rows_of(pages, FieldRequest("address", "Please extract the restaurant's address."))
    assert [row["address"] for row in rows] == [street for _, street in STREETS]



def test_a_menu_link_the_same_on_every_record_is_no_value() -> None:
    pages = [player_page(*player).replace("<table>", "<p><a href='/nba/local/team?team=bos'>News</a></p><table>")
             for player in PLAYERS]
    rows = rows_of(pages, FieldRequest("team", "Please extract the team of the player he plays now."))
    assert all(row["team"] != "News" for row in rows)


def test_a_box_that_goes_on_with_a_sentence_holds_the_name_and_is_not_it() -> None:
    assert leads_with("ray allen  #20  sg", ("ray allen",))
    assert not leads_with("arctic roadrunner review read our anchorage reviews. or post your own.",
                          ("arctic roadrunner",))
    assert not leads_with("ray allenby", ("ray allen",))
