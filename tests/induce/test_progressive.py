"""Progressive generation, its baselines and synthesis, driven by a scripted LLM (control flow only)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from scrapesmith.demo.induce_step import DEMO_FIELDS
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay, run_actions
from scrapesmith.induce.progressive import GenerationSettings, generate_on_page
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.synthesis import SequenceCandidate, synthesize
from scrapesmith.induce.views import FieldRequest
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest, NoModelConfigured

BOOK_FIELDS = {request.name: request.instruction for request in DEMO_FIELDS}

PAGE = """<html><body><div class="nav">Home | Books</div>
<div class="detail"><h2>The Overton Window</h2>
<ul class="facts"><li><span class="k">ISBN-13</span><span class="v">9781439184301</span></li>
<li><span class="k">Pages</span><span class="v">320</span></li></ul></div></body></html>"""
ISBN = "Please extract the isbn number of the book."


def _replies(*replies: dict) -> Callable[[LLMRequest], str]:
    """Answer each call with the next reply, regardless of prompt: the flow under test decides the calls."""
    queue = list(replies)
    return lambda request: json.dumps(queue.pop(0))


def _stages(llm: ScriptedLLM) -> list[str]:
    return [r.stage.rsplit(".", 1)[-1] for r in llm.requests]


def test_top_down_stops_when_the_xpath_returns_the_value_the_model_expects():
    llm = ScriptedLLM(
        _replies(
            {
                "thought": "",
                "consistent": "yes",
                "value": "9781439184301",
                "xpath": "//span[.='ISBN-13']/following-sibling::span[1]",
            }
        )
    )
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [])
    assert result.ok and result.actions == ["//span[.='ISBN-13']/following-sibling::span[1]"]
    assert llm.calls == 1


def test_step_back_prunes_to_the_ancestor_holding_the_value_then_retries_top_down():
    llm = ScriptedLLM(
        _replies(
            {
                "value": "9781439184301",
                "xpath": "//span[@class='v']",
                "consistent": "no",
            },  # two values: inconsistent
            {"thought": "the list holds it", "judgement": "yes"},  # step-back judge
            {"value": "9781439184301", "xpath": "//li[1]/span[@class='v']", "consistent": "yes"},
        )
    )
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="autoscraper"))
    assert _stages(llm) == ["top_down", "step_back", "top_down"]
    assert result.ok
    # "//span[@class='v']/.." would select both list items, so the pruned item is named on its own
    assert result.actions == ["//ul[@class='facts']/li[1]", "//li[1]/span[@class='v']"]
    pruned_prompt = llm.requests[2].messages[-1].content
    assert "Home | Books" not in pruned_prompt and "9781439184301" in pruned_prompt
    assert run_actions(parse_for_replay(PAGE), result.actions) == ["9781439184301"]


def test_step_back_judge_saying_no_keeps_climbing():
    llm = ScriptedLLM(
        _replies(
            {"value": "9781439184301", "xpath": "//span[@class='v']"},
            {"judgement": "no"},
            {"judgement": "yes"},
            {"value": "9781439184301", "xpath": "//li[1]/span[2]"},
        )
    )
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [])
    assert _stages(llm) == ["top_down", "step_back", "step_back", "top_down"]
    assert result.actions[0] == "//span[@class='v']/../.."  # the list both values share


def test_reflexion_retries_with_history_but_never_prunes():
    llm = ScriptedLLM(
        _replies(
            {"value": "9781439184301", "xpath": "//span[@class='v']"},
            {"value": "9781439184301", "xpath": "//li[1]/span[@class='v']"},
        )
    )
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="reflexion"))
    assert _stages(llm) == ["top_down", "top_down"]
    assert result.ok and result.actions == ["//li[1]/span[@class='v']"]
    assert "//span[@class='v']" in llm.requests[1].messages[-1].content  # history shown to the model


def test_cot_makes_exactly_one_call_even_when_wrong():
    llm = ScriptedLLM(_replies({"value": "9781439184301", "xpath": "//span[@class='v']"}))
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="cot"))
    assert llm.calls == 1 and not result.ok
    assert result.actions == ["//span[@class='v']"]


def test_d_max_bounds_the_number_of_top_down_rounds():
    llm = ScriptedLLM(lambda request: json.dumps({"value": "nope", "xpath": "//h2"}))
    result = generate_on_page(
        llm, ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="reflexion", d_max=2)
    )
    assert llm.calls == 3 and not result.ok


def test_unparseable_model_output_is_recorded_and_generation_goes_on():
    llm = ScriptedLLM(lambda request: "I think the ISBN is somewhere")
    result = generate_on_page(llm, ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="cot"))
    assert not result.ok and "did not match" in result.error
    assert llm.calls == 2  # one retry with feedback, as the structured-output layer does


def test_heuristic_candidates_are_offered_in_the_prompt():
    llm = ScriptedLLM(
        _replies({"value": "9781439184301", "xpath": "//span[.='ISBN-13']/following-sibling::span[1]"})
    )
    generate_on_page(
        llm, ISBN, parse_for_replay(PAGE), ["//span[.='ISBN-13']/following-sibling::span[1]", "//h9"]
    )
    prompt = llm.requests[0].messages[-1].content
    assert "0. //span[.='ISBN-13']/following-sibling::span[1] -> ['9781439184301']" in prompt
    assert "//h9" not in prompt  # candidates that extract nothing are not shown


SEEDS = [
    parse_for_replay(f"<html><body><p class='a'>{v}</p><p class='b'>x{v}</p></body></html>")
    for v in ("1", "2")
]


def test_synthesis_prefers_the_sequence_agreeing_with_recognised_values_without_asking():
    llm = ScriptedLLM(_replies())
    outcome = synthesize(
        [SequenceCandidate(["//p[@class='b']"], "m"), SequenceCandidate(["//p[@class='a']"], "m")],
        SEEDS,
        ["1", "2"],
        "the number",
        multiple=False,
        llm=llm,
    )
    assert outcome.chosen.actions == ["//p[@class='a']"] and not outcome.asked_model and llm.calls == 0


def test_synthesis_drops_sequences_that_fail_on_some_seed():
    outcome = synthesize(
        [SequenceCandidate(["//p[.='1']"], "m"), SequenceCandidate(["//p[@class='b']"], "m")],
        SEEDS,
        [None, None],
        "the number",
        multiple=False,
    )
    assert outcome.chosen.actions == ["//p[@class='b']"]


def test_synthesis_asks_the_model_only_to_break_ties_between_different_results():
    llm = ScriptedLLM(_replies({"thought": "", "number": 1}))
    outcome = synthesize(
        [SequenceCandidate(["//p[@class='b']"], "m"), SequenceCandidate(["//p[@class='a']"], "m")],
        SEEDS,
        [None, None],
        "the number",
        multiple=False,
        llm=llm,
    )
    assert outcome.asked_model and llm.calls == 1 and outcome.chosen.actions == ["//p[@class='a']"]
    prompt = llm.requests[0].messages[-1].content
    shown = re.findall(r"Action sequence (\d): (.*)\n  page 0: (.*)\n  page 1: (.*)\n", prompt)
    assert shown == [("0", '["//p[@class=\'b\']"]', "['x1']", "['x2']"), ("1", '["//p[@class=\'a\']"]', "['1']", "['2']")]
    same = ScriptedLLM(_replies())  # two XPaths to the same values: nothing for the model to break
    outcome = synthesize(
        [SequenceCandidate(["//p[@class='a']"], "m"), SequenceCandidate(["//body/p[1]"], "m")],
        SEEDS,
        [None, None],
        "the number",
        multiple=False,
        llm=same,
    )
    assert not outcome.asked_model and same.calls == 0 and outcome.chosen.actions == ["//p[@class='a']"]


def test_synthesis_falls_back_to_the_deterministic_order_on_a_bad_number():
    llm = ScriptedLLM(_replies({"number": 7}))
    outcome = synthesize(
        [SequenceCandidate(["//p[@class='b']"], "m"), SequenceCandidate(["//p[@class='a']"], "m")],
        SEEDS,
        [None, None],
        "the number",
        multiple=False,
        llm=llm,
    )
    assert outcome.chosen.actions == ["//p[@class='b']"] and "unusable" in outcome.reason


def _choose_first_candidate(request: LLMRequest) -> str:
    """A scripted model that always picks option 0 of the candidate list in the top-down prompt."""
    prompt = request.messages[-1].content
    if request.stage.endswith("top_down"):
        match = re.search(r"^0\. (.+?) -> \[(.*?)\]$", prompt, re.MULTILINE)
        if not match:
            return json.dumps({"value": "", "xpath": ""})
        first_value = re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", match.group(2))[0]
        return json.dumps({"candidate": 0, "value": first_value[0] or first_value[1]})
    if request.stage.endswith("step_back"):
        return json.dumps({"judgement": "yes"})
    return json.dumps({"number": 0})


def test_autoscraper_induction_with_a_choosing_model_builds_a_working_spec(book_layouts):
    site = book_layouts["bookshelf"]
    llm = ScriptedLLM(_choose_first_candidate)
    requests = [FieldRequest(n, BOOK_FIELDS[n]) for n in ("isbn_13", "publisher")]
    spec = induce_scraper(
        requests, [parse_for_replay(p.text) for p in site.pages[:3]], method="autoscraper", llm=llm
    )
    assert spec.method == "autoscraper"
    row = CompiledSpec(spec).row(site.pages[4].text)
    record = site.truth[site.urls[4]]
    assert row == {"isbn_13": record["isbn_13"], "publisher": record["publisher"]}
    assert llm.calls >= 6  # at least one top-down call per field per seed


def test_llm_methods_without_a_model_raise_a_clear_error():
    with pytest.raises(NoModelConfigured, match="the cot method needs a language model"):
        induce_scraper([FieldRequest("x")], [parse_for_replay(PAGE)], method="cot", llm=None)


def test_a_model_may_answer_with_a_candidate_number_instead_of_an_xpath():
    llm = ScriptedLLM(_replies({"candidate": 0, "value": "9781439184301", "xpath": ""}))
    result = generate_on_page(
        llm, ISBN, parse_for_replay(PAGE), ["//span[.='ISBN-13']/following-sibling::span[1]"]
    )
    assert result.ok and result.actions == ["//span[.='ISBN-13']/following-sibling::span[1]"]


def test_a_model_error_such_as_an_overlong_prompt_is_recorded_not_raised():
    from scrapesmith.llm.views import PromptTooLongError

    def refuse(request: LLMRequest) -> str:
        raise PromptTooLongError("prompt exceeds the context window")

    result = generate_on_page(
        ScriptedLLM(refuse), ISBN, parse_for_replay(PAGE), [], GenerationSettings(method="cot")
    )
    assert not result.ok and "context window" in result.error
