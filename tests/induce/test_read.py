"""``induce --method read``: the model reads spans, the engine checks them on the page and forges the XPaths.

A scripted model drives the control flow (which spans it returns, a made-up one, a retry, a null); it
claims nothing about what a real model reads. The span checks run on real parsed pages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from scrapesmith.cli.induce import read_choice
from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, Example, FieldRequest, generalise, induce_scraper
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.read import (
    ReadOutcome,
    on_page,
    page_printed,
    page_view,
    read_path,
    read_spans,
    weigh,
)
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec
from scrapesmith.llm.scripted import ScriptedLLM

BOOKS = [("Dune", "Frank Herbert", "Ace &amp; Co", "1965"), ("Emma", "Jane Austen", "Penguin", "1815"),
         ("Ubik", "Philip K. Dick", "Mariner", "1969")]


def book_page(title: str, author: str, publisher: str, year: str) -> str:
    first, _, last = author.rpartition(" ")
    return (f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<h1>{title}</h1><div class='by'>by <span><a href='/a'>{first}</a>\n   <b>{last}</b></span></div>"
            f"<table class='info'><tr><td>Details</td><td>{publisher}<br>{year}</td></tr></table>"
            f"<p>In stock.</p></body></html>")


PAGES = [book_page(*book) for book in BOOKS]
TREES = [parse_html(p) for p in PAGES]
FIELDS = [FieldRequest("author", "the author of the book"), FieldRequest("publisher", "the publisher"),
          FieldRequest("year", "the year the book was published")]


def answering(*replies: dict) -> ScriptedLLM:
    """A model that gives ``replies`` in turn (the last one again when they run out)."""
    queue = list(replies)
    return ScriptedLLM(lambda request: json.dumps(queue.pop(0) if len(queue) > 1 else queue[0]))


def test_spans_are_found_through_inline_markup_breaks_entities_and_whitespace() -> None:
    printed = page_printed(TREES[0])
    assert on_page("Frank Herbert", printed)  # across <a> and <b>, a newline and spaces between them
    assert on_page("Ace & Co", printed)  # &amp; decoded
    assert on_page("1965", printed) and "Ace & Co 1965" in printed  # <br> reads as a space
    assert on_page("  Frank \n Herbert ", printed)
    assert not on_page("Ace & Co1965", printed) and not on_page("Frank Herbet", printed)


def test_the_text_after_a_break_is_forged_into_an_xpath_that_holds_on_the_other_pages() -> None:
    spec_field = generalise(Example("year", "1965"), TREES)
    assert spec_field.actions[0].endswith("/text()[2]")
    compiled = CompiledSpec(induce_scraper([], TREES).model_copy(update={"fields": [spec_field]}))
    assert [compiled.row(p)["year"] for p in PAGES] == ["1965", "1815", "1969"]


def test_read_spans_become_examples_and_forge_the_fields() -> None:
    llm = answering({"author": "Frank Herbert", "publisher": "Ace & Co", "year": "1965"})
    spec = induce_scraper(FIELDS, TREES, method="read", llm=llm)
    assert llm.calls == 1 and spec.method == "read"
    compiled = CompiledSpec(spec)
    rows = [compiled.row(p) for p in PAGES]
    assert [r["author"] for r in rows] == [["Frank Herbert"], ["Jane Austen"], ["Philip K. Dick"]]  # a multiple field
    assert [r["publisher"] for r in rows] == ["Ace & Co", "Penguin", "Mariner"]
    assert [r["year"] for r in rows] == ["1965", "1815", "1969"]
    assert "read 'Frank Herbert' on seed 1" in spec.field("author").evidence
    prompt = llm.requests[0].messages[-1].content
    assert "Frank" in prompt and "[id:" not in prompt  # the page as text, without the agent's id marks
    assert llm.requests[0].json_schema["required"] == ["author", "publisher", "year"]


def test_a_made_up_span_is_rejected_retried_once_then_the_field_falls_back_with_the_reason() -> None:
    llm = answering({"author": "Frank Herbert", "publisher": "Gollancz", "year": "1965"},
                    {"publisher": "Gollancz Books"}, {"publisher": None})
    outcomes = read_spans(llm, FIELDS, TREES)
    assert llm.calls == 2 + 1  # page 1, its retry for the one rejected field; page 2 is asked for it too
    retry = llm.requests[1]
    assert list(retry.json_schema["properties"]) == ["publisher"] and '"Gollancz"' in retry.messages[-1].content
    assert outcomes["author"].span == "Frank Herbert" and outcomes["publisher"].span is None
    assert outcomes["publisher"].reasons[:2] == ["page 1: 'Gollancz' is not on the page",
                                                "page 1: 'Gollancz Books' is not on the page (retried)"]
    spec = induce_scraper(FIELDS, TREES, method="read", llm=answering(
        {"author": "Frank Herbert", "publisher": "Gollancz", "year": "1965"}, {"publisher": "Gollancz"}))
    publisher = spec.field("publisher")
    assert publisher.evidence.startswith("no read span (page 1: 'Gollancz' is not on the page; "
                                         "page 1: 'Gollancz' is not on the page (retried)")
    assert "name-only kept" in publisher.evidence
    assert read_choice(publisher.evidence) == publisher.evidence.split(". Evidence: ")[0]
    assert read_path(publisher.evidence) == "no span"
    year = read_choice(spec.field("year").evidence)  # the cell holding "Ace & Co 1965" holds more than the year
    assert year.startswith("read '1965' on seed 1, kept over the name-only choice (name-only chose //td[")
    assert "example" not in year and CompiledSpec(spec).row(PAGES[1])["year"] == "1815"
    assert CompiledSpec(spec).row(PAGES[0])["publisher"] != "Gollancz"


def test_a_field_the_first_page_lacks_is_read_off_the_second() -> None:
    llm = answering({"author": "Frank Herbert", "publisher": None, "year": "1965"}, {"publisher": "Penguin"})
    outcomes = read_spans(llm, FIELDS, TREES)
    assert llm.calls == 2 and "Emma" in llm.requests[1].messages[-1].content
    assert (outcomes["publisher"].span, outcomes["publisher"].page) == ("Penguin", 1)
    spec = induce_scraper(FIELDS, TREES, method="read", llm=answering(
        {"author": "Frank Herbert", "publisher": None, "year": "1965"}, {"publisher": "Penguin"}))
    assert CompiledSpec(spec).row(PAGES[2])["publisher"] == "Mariner"


def test_agreement_raises_confidence_and_keeps_the_evidence_built_across_the_seeds() -> None:
    named = FieldSpec(name="title", actions=["//h1"], confidence=0.7, doubt="under the threshold", evidence="label")
    read = FieldSpec(name="title", actions=["//title"], evidence="example")
    sure = weigh(named, read, ReadOutcome("Dune"), TREES)
    assert sure.confidence == 0.9 and sure.doubt is None and sure.actions == ["//h1"]
    assert read_choice(sure.evidence) == "read 'Dune' on seed 1; name-only agrees on 3 of 3 seed pages (//h1, kept)"
    assert read_path(sure.evidence) == "agree"


CAMERAS = [parse_html(f"<html><head><title>Shop: {title}</title></head><body><h1>{title}</h1>"
                      f"<p>Model <b>{model}</b></p></body></html>")
           for title, model in [("Canon PowerShot SD1300 IS Camera (Silver)", "SD1300IS Silver"),
                                ("Canon PowerShot S95 Camera", "S95"), ("Fujifilm FinePix S1800 Camera", "S1800")]]


def test_for_a_field_naming_the_record_the_value_nearer_the_page_titles_wins_a_disagreement() -> None:
    named = FieldSpec(name="model", actions=["//h1"], confidence=0.6, doubt="under the threshold", evidence="title")
    read = FieldSpec(name="model", actions=["//b"], evidence="example")
    weighed = weigh(named, read, ReadOutcome("SD1300IS Silver"), CAMERAS, concept_for("model", "the product name"))
    assert weighed.actions == ["//h1"] and weighed.confidence == 0.5 and weighed.unsure
    assert read_path(weighed.evidence) == "evidence fits the titles" and "(//b)" in weighed.evidence
    assert weigh(named, read, ReadOutcome("SD1300IS Silver"), CAMERAS).actions == ["//b"]  # not a record's name
    bare = FieldSpec(name="model", actions=["//p"], confidence=0.6, doubt="under the threshold", evidence="label")
    assert weigh(bare, read, ReadOutcome("SD1300IS Silver"), CAMERAS, concept_for("model", "the product name")).actions == ["//b"]


# the "Type of School" block of the first three SWDE university-collegeboard pages, as printed there
SCHOOLS = [parse_html(f"<html><body><h1>School {n}</h1><table><tr><td id='gen_info'><h3>Type of School</h3>"
                      f"<ul class='none'>{''.join(f'<li>{item}</li>' for item in items)}</ul></td></tr></table>"
                      f"</body></html>")
           for n, items in enumerate([["Private", "University", "Four-year", "Church Of Christ", "Coed"],
                                      ["Proprietary", "Junior College", "Career College", "Two-year", "Coed"],
                                      ["Proprietary", "Technical College", "Two-year", "Coed"]])]


def test_a_disagreement_with_evidence_the_page_labels_keeps_the_evidence_and_says_what_was_read() -> None:
    """The name-only field is the first item under the heading that names the field; the model read another
    item. The page's label on every seed outweighs one reading, sure or not by a fitted confidence; the field
    is made unsure, the span its doubt (16 SWDE sites: read never below no-model on a site)."""
    type_field = concept_for("type", "the type of the school")
    read = generalise(Example("type", "University"), SCHOOLS)
    for confidence, doubt in [(0.8, None), (0.3, "under the threshold")]:
        named = FieldSpec(name="type", actions=["//h3[normalize-space()='Type of School']/following-sibling::ul[1]/li[1]"],
                          confidence=confidence, doubt=doubt, evidence="meant score=0.417")
        kept = weigh(named, read, ReadOutcome("University"), SCHOOLS, type_field)
        assert kept.actions == named.actions and kept.confidence == min(0.5, confidence) and kept.unsure
        assert kept.doubt == "the model read 'University' (seed 1), not this"
        assert read_path(kept.evidence) == "evidence labelled"


def test_a_disagreement_with_evidence_no_label_names_takes_the_read_span_and_records_both() -> None:
    """A name-only choice found by place (a heading), however sure its fitted confidence, gives way to the
    span: only the page's own label outweighs the reading (SWDE auto-aol's model, held out)."""
    read = FieldSpec(name="title", actions=["//title"], evidence="example")
    for confidence, doubt in [(0.9, None), (0.3, "same text on every seed page")]:
        placed = FieldSpec(name="title", actions=["//p"], confidence=confidence, doubt=doubt, evidence="headline score=0.78")
        split = weigh(placed, read, ReadOutcome("Dune"), TREES)
        assert split.actions == ["//title"] and split.confidence == min(0.5, confidence) and split.unsure
        assert "kept over the name-only choice (name-only chose //p giving 'In stock.')" in split.evidence
        assert read_path(split.evidence) == "read kept over the evidence"
    empty = weigh(FieldSpec(name="title", actions=[], evidence="no candidate found"), read, ReadOutcome("Dune"), TREES)
    assert empty.actions == ["//title"] and empty.confidence == 0.5 and not empty.unsure
    assert read_path(empty.evidence) == "read fills an empty field"


def test_a_read_xpath_that_gives_nothing_on_most_seed_pages_is_not_taken_over_the_evidence() -> None:
    unsure = FieldSpec(name="title", actions=["//p"], confidence=0.3, doubt="same text on every seed page",
                       evidence="label")
    one_page = FieldSpec(name="title", actions=["//h1[normalize-space()='Dune']"], evidence="example")
    kept = weigh(unsure, one_page, ReadOutcome("Dune"), TREES)
    assert kept.actions == ["//p"] and kept.doubt == "same text on every seed page"
    assert "its XPath gives a value on 1 of 3 seed pages" in kept.evidence
    assert read_path(kept.evidence) == "span fails the seeds"


def test_the_page_view_reads_as_text_without_chrome_marks_or_control_kinds() -> None:
    view = page_view(TREES[0])
    assert "# Dune" in view and "Frank" in view and "Ace & Co" in view
    assert "Home" not in view  # the navigation is chrome
    assert "[id:" not in view and " link" not in view  # "Frank link" would be copied into a span


def test_the_page_view_keeps_to_its_budget() -> None:
    long_page = parse_html("<html><body>" + "".join(f"<p>paragraph {i} " + "word " * 40 + "</p>"
                                                   for i in range(200)) + "</body></html>")
    view = page_view(long_page, budget=300)
    assert "paragraph 0" in view and "paragraph 199" not in view and view.endswith("blocks below cut)")
    around = page_view(long_page, budget=300, anchors=["paragraph 120 word", "paragraph 121"])
    assert "paragraph 120" in around and "paragraph 121" in around and "paragraph 0 " not in around
    assert around.startswith("… (") and "blocks above cut" in around
    assert long_page.find(".//p").get("data-ss-id") is None  # the seed tree is left as it was


def test_the_command_line_offers_read_and_counts_its_calls_per_site() -> None:
    from scrapesmith.cli.induce import most_calls
    from scrapesmith.induce import METHODS

    assert "read" in METHODS
    assert most_calls("read", 5, 3) == 4 and most_calls("read", 5, 1) == 2  # per site, not per field
    assert most_calls("choose", 5, 3) == 5



def test_the_command_asks_for_a_model_for_read_in_one_line(tmp_path) -> None:
    page = tmp_path / "dune.html"
    page.write_text(PAGES[0], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "induce", str(page), "--field", "author",
                           "--method", "read", "--llm", "none", "-o", str(tmp_path / "spec.json")],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode != 0 and not (tmp_path / "spec.json").exists()
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "the read method needs a language model" in errors[0], done.stderr


ISBNS = [parse_html(f"<html><body><h1>{t}</h1><ul><li><b>ISBN-10:</b> {ten}</li><li><b>ISBN-13:</b> {thirteen}</li>"
                    f"</ul></body></html>") for t, ten, thirteen in [("Dune", "0441172717", "978-0441172719"),
                                                                      ("Emma", "0141439580", "978-0141439587"),
                                                                      ("Ubik", "0547572298", "978-0547572291")]]


def test_a_read_span_not_of_the_field_kind_never_overrules_the_evidence() -> None:
    named = FieldSpec(name="isbn_13", actions=["//b[normalize-space()='ISBN-13:']/following-sibling::text()[1]"],
                      confidence=0.9, evidence="label")
    read = generalise(Example("isbn_13", "0441172717"), ISBNS)
    kept = weigh(named, read, ReadOutcome("0441172717"), ISBNS, concept_for("isbn_13", "the isbn number of the book"))
    assert kept.actions == named.actions and kept.confidence == 0.9
    assert "'0441172717', not of the field's kind (isbn13)" in kept.evidence
    assert read_path(kept.evidence) == "span of another kind"
    unread = FieldSpec(name="isbn_13", actions=[], evidence="no candidate found")
    taken = weigh(unread, read, ReadOutcome("0441172717"), ISBNS, concept_for("isbn_13", "the isbn number of the book"))
    assert taken.actions == read.actions and read_path(taken.evidence) == "read fills an empty field"


BYLINES = [parse_html(f"<html><body><h1>{t}</h1><div class='by'><span class='a'>{a}</span> (Author)</div></body></html>")
           for t, a in [("Dune", "Frank Herbert"), ("Emma", "Jane Austen"), ("Ubik", "Philip Dick")]]


def test_agreeing_fields_keep_the_read_xpath_when_only_it_gives_the_value_as_it_is() -> None:
    named = FieldSpec(name="author", actions=["//div[@class='by']"], post=PostProcess(regex=r"^(.*?) \(Author\)"),
                      confidence=0.7, evidence="class")
    read = generalise(Example("author", "Frank Herbert"), BYLINES)
    weighed = weigh(named, read, ReadOutcome("Frank Herbert"), BYLINES, concept_for("author", "the author"))
    assert weighed.actions == read.actions and weighed.confidence == 0.9
    assert read_path(weighed.evidence) == "agree, the read XPath exact"
    assert weigh(read, named, ReadOutcome("Frank Herbert"), BYLINES).actions == read.actions  # roles swapped


def test_fields_that_agree_on_the_page_read_but_not_on_the_others_disagree() -> None:
    named = FieldSpec(name="title", actions=["//h1[1]"], confidence=0.4, doubt="under the threshold", evidence="heading")
    read = FieldSpec(name="title", actions=["//h1[normalize-space()='Dune'] | //span[@class='a']"], evidence="example")
    split = weigh(named, read, ReadOutcome("Dune"), BYLINES)
    assert split.actions == read.actions and read_path(split.evidence) == "read kept over the evidence"


def test_progress_names_each_read_with_its_size_and_then_each_field() -> None:
    told: list[str] = []
    llm = answering({"author": "Frank Herbert", "publisher": "Gollancz", "year": "1965"}, {"publisher": None})
    induce_scraper(FIELDS, TREES, method="read", llm=llm, progress=told.append)
    reads = [t for t in told if t.startswith("reading seed page")]
    assert len(reads) == llm.calls == 3 and reads[1].endswith("for publisher (retry)")
    assert " tokens) for author, publisher, year" in reads[0] and reads[0].startswith("reading seed page 1 (~")
    assert told[-3:] == ["author", "publisher", "year"]


def test_two_fields_that_both_find_nothing_on_a_seed_page_agree_there() -> None:
    pages = [*BYLINES[:2], parse_html("<html><body><h1>Ubik</h1></body></html>")]
    named = FieldSpec(name="author", actions=["//span[@class='a']"], confidence=0.7, evidence="class")
    read = FieldSpec(name="author", actions=["//div[@class='by']/span"], evidence="example")
    weighed = weigh(named, read, ReadOutcome("Frank Herbert"), pages)
    assert weighed.actions == named.actions and read_path(weighed.evidence) == "agree"
    assert "agrees on 3 of 3 seed pages" in weighed.evidence


# the "Publisher:" lines of the first three SWDE book-amazon pages, as printed there
PUBLISHER_LINES = ["Knopf; First Edition/First Printing edition (May 25, 2010)", "Vintage (June 23, 2009)",
                   "Simon & Schuster Audio; Unabridged edition (June 15, 2010)"]
PUBLISHERS = [parse_html(f"<html><body><h1>Book {n}</h1><ul><li><b>Publisher:</b> {line.replace('&', '&amp;')}</li>"
                         f"<li><b>Language:</b> English</li></ul></body></html>") for n, line in enumerate(PUBLISHER_LINES)]


def test_one_text_cut_two_ways_is_cut_as_the_model_read_it() -> None:
    """Both fields read the same text on every seed page and part only in the cut: the node is agreed, and
    how its text divides into values is what the reader's span shows (even over a label naming the node);
    the evidence's cut is recorded as the doubt. A hard check still comes first."""
    edition = concept_for("edition", "the edition")  # a field of no value kind
    named = FieldSpec(name="edition", actions=["//b[normalize-space()='Publisher:']/following-sibling::text()[1]"],
                      post=PostProcess(regex=r"^\s*([^;(]*[^;(\s])"), confidence=0.9, evidence="label")
    read = generalise(Example("edition", PUBLISHER_LINES[0]), PUBLISHERS)
    weighed = weigh(named, read, ReadOutcome(PUBLISHER_LINES[0]), PUBLISHERS, edition)
    assert read_path(weighed.evidence) == "one text, cut as read" and weighed.actions == read.actions
    assert CompiledSpec(ScraperSpec(fields=[weighed])).extract_tree(PUBLISHERS[2])["edition"].values == [PUBLISHER_LINES[2]]
    assert weighed.confidence == 0.5 and "'Knopf'" in weighed.doubt
    # the model reading the cut the evidence makes is agreement, as before
    short = named.model_copy(update={"confidence": None, "evidence": "example"})  # the same cut forged
    agreed = weigh(named, short, ReadOutcome("Knopf"), PUBLISHERS, edition)
    assert read_path(agreed.evidence) == "agree" and agreed.actions == named.actions
    # another node is no cut of this one: the evidence, labelled on the page, is kept
    language = generalise(Example("edition", "English"), PUBLISHERS)
    kept = weigh(named, language, ReadOutcome("English"), PUBLISHERS, edition)
    assert read_path(kept.evidence) == "evidence labelled" and kept.actions == named.actions
    # a publisher is an organisation: the whole line is not one, the cut that is one is kept
    publisher = named.model_copy(update={"name": "publisher"})
    whole = read.model_copy(update={"name": "publisher"})
    checked = weigh(publisher, whole, ReadOutcome(PUBLISHER_LINES[0]), PUBLISHERS, concept_for("publisher", "the publisher"))
    assert read_path(checked.evidence) == "span of another kind" and checked.actions == publisher.actions


def test_a_name_kind_never_overrules_the_text_the_page_labels() -> None:
    """A publisher is a soft kind (an organisation's name): it weighs in behind a label and rules nothing out.
    The labelled line the page prints ("Knopf; First Edition (May 25, 2010)") is kept over a read span that
    reads more like a name from another block (another edition's publisher on one seed page)."""
    others = ["Knopf", "Vintage", "Random House Large Print"]
    pages = [parse_html(f"<html><body><h1>Book {n}</h1><div class='ed'><span>Publisher: {other}</span></div><ul>"
                        f"<li><b>Publisher:</b> {line.replace('&', '&amp;')}</li></ul></body></html>")
             for n, (line, other) in enumerate(zip(PUBLISHER_LINES, others, strict=True))]
    named = FieldSpec(name="publisher", actions=["//b[normalize-space()='Publisher:']/following-sibling::text()[1]"],
                      confidence=0.9, evidence="label score=0.98")
    read = generalise(Example("publisher", "Knopf"), pages)
    assert CompiledSpec(ScraperSpec(fields=[read])).extract_tree(pages[2])["publisher"].values != ["Simon & Schuster Audio"]
    kept = weigh(named, read, ReadOutcome("Knopf"), pages, concept_for("publisher", "the publisher"))
    assert kept.actions == named.actions and read_path(kept.evidence) == "evidence labelled"
