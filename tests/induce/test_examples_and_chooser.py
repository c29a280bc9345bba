"""Learning fields from example values (``--example``) and the model as chooser (``--method choose``).

The chooser tests drive control flow with a scripted model (the request it sees, the enum it is bound
to, what happens on each kind of answer); they claim nothing about what a real model would answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.collect.runtime import Collection
from scrapesmith.dom import parse_html
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import (
    CompiledSpec,
    Example,
    FieldRequest,
    induce_from_examples,
    induce_scraper,
    parse_example,
)
from scrapesmith.induce.choose import choose_candidate
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import rank_candidates
from scrapesmith.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.usefixtures("chooser_paths_open")  # the control flow with the model asked

BOOKS = [("Dune", "$10.07", "9780441172719", "$9.06"), ("Emma", "$7.63", "9780141439587", "$6.86"),
         ("Ubik", "$16.46", "9780547572291", "$14.81"), ("Kindred", "$5.72", "9780807083697", "$5.14")]


def book_page(title: str, price: str, isbn: str, other: str) -> str:
    return (f"<html><head><title>{title}: Books</title></head><body><h1>{title}</h1><table>"
            f"<tr><td class='p'>Our price: {price}</td></tr><tr><td class='p'>Sale price: {other}</td></tr></table>"
            f"<ul><li><strong>ISBN-13</strong>: {isbn}</li></ul></body></html>")


PAGES = [book_page(*book) for book in BOOKS]


def test_an_example_value_is_generalised_to_the_sites_other_pages() -> None:
    spec = induce_from_examples([Example("price", "$10.07"), Example("isbn", "9780441172719")],
                                [parse_html(p) for p in PAGES[:3]])
    compiled = CompiledSpec(spec)
    assert [compiled.row(p)["price"] for p in PAGES] == [b[1] for b in BOOKS]
    assert [compiled.row(p)["isbn"] for p in PAGES] == [b[2] for b in BOOKS]
    assert "Our price" in spec.field("price").actions[0]  # anchored on the label in front of the value


def test_an_example_not_on_the_first_page_is_an_error() -> None:
    with pytest.raises(ScrapesmithError, match="not on the first page"):
        induce_from_examples([Example("price", "$99.99")], [parse_html(PAGES[0])])
    with pytest.raises(ScrapesmithError, match="NAME=VALUE"):
        parse_example("price")
    assert parse_example("price = $10.07 ") == Example("price", "$10.07")


def test_induce_command_learns_from_examples(tmp_path: Path) -> None:
    files = []
    for index, text in enumerate(PAGES):
        files.append(tmp_path / f"{index}.html")
        files[-1].write_text(text)
    spec_file = tmp_path / "spec.json"
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "induce", *map(str, files[:3]), "--example",
                           "price=$10.07", "-o", str(spec_file)], check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    spec = json.loads(spec_file.read_text())
    assert spec["method"] == "examples" and [f["name"] for f in spec["fields"]] == ["price"]
    bad = subprocess.run([sys.executable, "-m", "scrapesmith", "induce", str(files[0])], check=False,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--example" in bad.stderr


def test_a_collection_program_can_pin_fields_by_example(demo_web, tmp_path: Path) -> None:
    paths = sorted(demo_web.sites.urls("bookshelf", "detail"))[:4]
    truth = {b["url"]: b for b in demo_web.sites.truth("bookshelf")["books"]}
    urls = [demo_web.url(p) for p in paths]
    with Collection("test", allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0, run_dir=tmp_path) as run:
        spec = run.learn_fields({"isbn_13": truth[paths[0]]["isbn_13"]}, urls[0], urls[1:2])
        rows = run.run_spec(spec, urls[2:])
    assert [row["isbn_13"] for row in rows] == [truth[p]["isbn_13"] for p in paths[2:]]


def scripted(answer: str) -> ScriptedLLM:
    return ScriptedLLM(lambda request: answer)


def lines_of(request) -> list[str]:
    return [line[2:] for line in request.messages[-1].content.splitlines() if line.startswith("- ")]


def picking(text: str) -> ScriptedLLM:
    """A scripted model that copies the first option line holding ``text`` (control flow only)."""
    return ScriptedLLM(lambda request: json.dumps({"answer": next(x for x in lines_of(request) if text in x)}))


def ranked_price():
    seeds = [parse_html(p) for p in PAGES[:3]]
    concept = concept_for("price", "the price of the book")
    return seeds, concept, rank_candidates(concept, seeds)


def test_the_model_chooses_where_the_evidence_is_close_by_copying_an_option_bound_to_an_enum() -> None:
    seeds, concept, ranked = ranked_price()
    llm = picking("$9.06")
    choice = choose_candidate(llm, FieldRequest("price", "the price of the book"), concept, ranked, seeds)
    assert llm.calls == 1 and choice.asked
    request = llm.requests[0]
    assert request.stage == "induce.choose"
    options = request.json_schema["properties"]["answer"]["enum"]
    assert options[-1] == "none" and options[:-1] == lines_of(request) and len(options) > 2
    assert any(line.startswith("$10.07 |") for line in options)  # each option: its values on every seed
    assert choice.chosen is not None and choice.chosen.values[0] == ["$9.06"]  # the model's pick, not the first


def test_a_rejection_or_a_bad_answer_keeps_the_evidence_choice() -> None:
    seeds, concept, ranked = ranked_price()
    request = FieldRequest("price", "the price of the book")
    rejected = choose_candidate(scripted('{"answer": "none"}'), request, concept, ranked, seeds)
    assert rejected.asked and rejected.chosen is ranked[0] and "rejected" in rejected.reason
    unusable = choose_candidate(scripted('{"answer": "$1"}'), request, concept, ranked, seeds)
    assert unusable.chosen is ranked[0] and "unusable" in unusable.reason


def test_clear_evidence_makes_no_model_call() -> None:
    llm = scripted('{"answer": "none"}')
    seeds = [parse_html(p) for p in PAGES[:3]]
    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book")], seeds, method="choose", llm=llm)
    assert llm.calls == 0 and spec.method == "choose"
    assert CompiledSpec(spec).row(PAGES[3])["isbn_13"] == BOOKS[3][2]
    assert spec.field("isbn_13").evidence.startswith("evidence clear")


def test_choose_needs_a_model() -> None:
    with pytest.raises(ScrapesmithError):
        induce_scraper([FieldRequest("price")], [parse_html(PAGES[0])], method="choose", llm=None)
