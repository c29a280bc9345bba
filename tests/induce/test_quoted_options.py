"""Issue 45 on pages of our own: a camera's sizes in inches (``1.92"``) are the chooser's options.

The chooser puts each option line into the model's grammar; before the fix llama.cpp could not parse it and
the process died of a segmentation fault. The scripted model only drives control flow (it claims nothing
about what a model would answer); the grammar each request needs is built and parsed for real. The
``model`` test runs the embedded model on the same pages (in a child process, tests/model_guard.py).
"""

from __future__ import annotations

import json

import pytest
from lxml import html

from scrapesmith.config import Settings
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper
from scrapesmith.llm import GrammarError, Ledger, LedgeredLLM, LLMRequest, resolve_llm
from scrapesmith.llm.grammar import schema_grammar
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed
from scrapesmith.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.usefixtures("chooser_paths_open")  # the control flow with the model asked

CAMERAS = [("Lumo S1", '1.92"', '1.48"', '2.29"', "7.4 oz", "$249.00"),
           ("Lumo S2", '2.05"', '1.51"', '2.40"', "8.1 oz", "$279.00"),
           ("Lumo S3", '1.88"', '1.39"', '2.18"', "6.9 oz", "$229.00")]
DEPTHS = '2.29" | 2.40" | 2.18"'
THICKNESS = FieldRequest("thickness", "Please extract the camera's thickness in inches.")


def camera_page(name: str, width: str, height: str, depth: str, weight: str, price: str) -> str:
    return f"""<html><head><title>{name} compact camera</title></head><body>
<h1>{name}</h1><p class="price">{price}</p>
<p>The {name} measures {width} wide; a 12" strap is included.</p>
<table class="specs"><tr><th>Width</th><td>{width}</td></tr><tr><th>Height</th><td>{height}</td></tr>
<tr><th>Depth</th><td>{depth}</td></tr><tr><th>Weight</th><td>{weight}</td></tr></table></body></html>"""


def seeds() -> list:
    return [html.fromstring(camera_page(*camera)) for camera in CAMERAS]


def options(request: LLMRequest) -> list[str]:
    return request.json_schema["properties"]["answer"]["enum"]


def test_inch_marks_reach_the_model_as_options_whose_grammar_parses() -> None:
    def copy_the_depth(request: LLMRequest) -> str:
        schema_grammar(request.json_schema)  # the embedded model's real grammar path; GrammarError if unusable
        return json.dumps({"answer": next(o for o in options(request) if o.endswith(DEPTHS))})

    llm = ScriptedLLM(copy_the_depth)
    spec = induce_scraper([THICKNESS], seeds(), method="choose", llm=llm)
    # the depths are an option however they are found (behind "Depth", which means a thickness, or by their look)
    assert llm.calls == 1 and any(o.endswith(DEPTHS) for o in options(llm.requests[0]))
    assert "model chose" in spec.field("thickness").evidence
    assert [CompiledSpec(spec).extract_tree(tree)["thickness"].values for tree in seeds()] == [
        ['2.29"'], ['2.40"'], ['2.18"']]


def test_a_grammar_the_model_cannot_use_keeps_the_evidence_choice_with_a_ledger_note() -> None:
    def unusable(request: LLMRequest) -> str:
        raise GrammarError("the JSON schema's grammar is unusable: parse: error parsing grammar")

    ledger = Ledger()
    evidence = induce_scraper([THICKNESS], seeds(), method="heuristic").field("thickness")
    chosen = induce_scraper([THICKNESS], seeds(), method="choose",
                            llm=LedgeredLLM(ScriptedLLM(unusable), ledger)).field("thickness")
    assert chosen.actions == evidence.actions  # the evidence found nothing of its own here: nothing is made up
    assert "model not asked" in chosen.evidence and "error parsing grammar" in chosen.evidence
    assert [(e.stage, e.error is not None) for e in ledger.entries] == [("induce.choose", True)]
    assert ledger.totals().errors == 1 and ledger.totals().calls == 0


@pytest.mark.model
@pytest.mark.timeout(900)
def test_the_embedded_model_chooses_among_inch_marked_options() -> None:
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    spec = induce_scraper([THICKNESS], seeds(), method="choose", llm=resolve_llm("local", cache=False, ledger=ledger))
    assert [(e.stage, e.error) for e in ledger.entries] == [("induce.choose", None)]
    field = spec.field("thickness")
    assert "model chose" in field.evidence or "rejected" in field.evidence, field.evidence
    read = [CompiledSpec(spec).extract_tree(tree)["thickness"].values for tree in seeds()]
    assert all(len(values) == 1 and values[0].endswith('"') for values in read), read
