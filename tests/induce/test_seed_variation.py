"""What varies across the seed pages decides what is template, on fragments cut from real SWDE pages
(``../shared/data/swde``): the auto-msn banner heading prints the record's name as its own text and a constant
subtitle in a ``<span>`` after a ``<br/>``."""

from __future__ import annotations

import re

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.cleaning import SeedTexts, template_affix
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import induce_heuristic

CARS = ["2010 Audi A6 Avant", "2010 Audi S5", "2010 Audi S6", "2010 Chrysler Sebring"]


def banner_page(name: str) -> str:
    return (f"<html><head><title>{name} Specs and Features - MSN Autos</title></head><body><div id=\"VipBanner\">"
            f"<h1 class=\"title\" id=\"BannerTitle\">{name}<br/><span class=\"subtitle\" id=\"SubTitle\">Specs and "
            "Features</span></h1><div style='clear:both;padding:0px;margin:0px;'></div></div>"
            "<table><tr><td>Engine</td><td>3.0L V6</td></tr></table></body></html>")


def test_a_constant_subtitle_is_cut_where_the_heading_prints_the_rest_as_its_own_text() -> None:
    """The seeds share words at both ends ("2010 Audi" by chance, "Specs and Features" by template); the rest
    without both ("A6 Avant") is printed nowhere, the rest without the subtitle is the heading's own text."""
    seeds = [parse_html(banner_page(name)) for name in CARS[:3]]
    values = [[f"{name} Specs and Features"] for name in CARS[:3]]
    regex = template_affix(values, concept_for("model", "the model of the auto"), SeedTexts(seeds))

    assert regex is not None
    assert re.match(regex, "2010 Chrysler Sebring Specs and Features").group(1) == "2010 Chrysler Sebring"
    assert re.match(regex, "2010 Audi S5 Specs and Features").group(1) == "2010 Audi S5"


def test_the_record_name_without_the_constant_subtitle_on_a_page_of_another_make() -> None:
    pages = [banner_page(name) for name in CARS]
    compiled = CompiledSpec(induce_heuristic([FieldRequest("model", "the model of the auto")],
                                             [parse_html(p) for p in pages[:3]]))

    assert [compiled.row(p)["model"] for p in pages] == CARS


BOOKS = [("Love in the Afternoon", "Lisa Kleypas"), ("The Girl With the Dragon Tattoo", "Stieg Larsson"),
         ("Swimsuit", "James Patterson"),
         ("Eat, Pray, Love: One Woman's Search for Everything Across Italy, India and Indonesia", "Elizabeth Gilbert")]


def borders_page(title: str, author: str) -> str:
    """book-borders' shape: a hidden "added to your library" pop-up that repeats the title (cut short when long)
    in an ``h2``, then the record: the title in an ``h1`` and the author line in ``div.author_name``."""
    shown = title if len(title) < 60 else title[:57] + "..."
    return (f"<html><head><title>{title} - {author} - Mass Market Paperback (ISBN 9780312605391) - Buy Books, Music "
            "and Movies at Borders</title></head><body>"
            "<div dojoType=\"dialog\" id=\"dialog2\" style=\"display: none\"><div class=\"popup_header\">"
            "<h1 id=\"popUpHeaderAddTo\">Item added to Your Library</h1></div><div id=\"popupContent2\">"
            f"<div class=\"right\"><h2><b><a href=\"/TitleDetail?sku=1\">{shown}</a></b></h2>"
            f"<a href=\"/SearchResults?contrib=1\">{author}</a></div></div></div>"
            f"<div class=\"book_summary\"><div style=\"height: 158px;\"><h1>{title}</h1>"
            f"<div class=\"author_name\"><a href=\"/SearchResults?contrib=1\">{author}</a>"
            " &nbsp;(<a class=\"small\" href=\"#complete_contributors\">See All Contributors</a>)</div>"
            "<div class=\"pages\"> Paperback, 352 pages</div></div></div></body></html>")


def test_a_class_that_names_another_field_asked_is_that_fields_and_a_hidden_heading_is_no_headline() -> None:
    """``div.author_name`` holds "name" (a title's class word) and "author" (the other field's): it is the
    author's. The hidden pop-up's ``h2`` reads the title on the seeds but is cut short on a long one: the
    record's heading is the one the page shows."""
    pages = [borders_page(*book) for book in BOOKS]
    compiled = CompiledSpec(induce_heuristic([FieldRequest("title", "the title of the book"),
                                              FieldRequest("author", "the author of the book")],
                                             [parse_html(p) for p in pages[:3]]))

    assert [compiled.row(p)["title"] for p in pages] == [title for title, _ in BOOKS]
