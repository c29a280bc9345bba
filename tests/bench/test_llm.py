"""``bench llm`` plumbing with a scripted model: figures per size, probe scoring, per-size errors.

Speeds of real models are measured by ``scrapesmith bench llm`` itself, never asserted in tests.
"""

from __future__ import annotations

import json

from scrapesmith.bench.llm import PROBES, bench_llm, filler_text
from scrapesmith.llm import LLMError, LLMRequest, estimate_tokens
from scrapesmith.llm.scripted import ScriptedLLM


def first_option(request: LLMRequest) -> str:
    if request.json_schema is None:
        return "1, 2, 3, 4, 5"
    return json.dumps({"answer": request.json_schema["properties"]["answer"]["enum"][0]})


def build(size: str) -> ScriptedLLM:
    if size == "broken":
        raise LLMError("weights missing")
    return ScriptedLLM(first_option, name=f"scripted:{size}")


def test_filler_text_reaches_about_the_requested_length() -> None:
    text = filler_text(1500)
    assert 1400 <= estimate_tokens(text) <= 1500
    assert text.startswith("Item 1:")


def test_bench_reports_speed_and_probe_score_per_size() -> None:
    result = bench_llm(["a", "b"], build, prompt_tokens=300, answer_tokens=20)
    assert [case["size"] for case in result.cases] == ["a", "b"]
    case = result.cases[0]
    assert case["prompt_tokens_per_s"] > 0 and case["generation_tokens_per_s"] > 0
    assert case["call_prompt_tokens"] > 200
    expected = sum(probe.answer == probe.options[0] for probe in PROBES)
    assert case["probe_correct"] == expected and case["probe_total"] == len(PROBES)
    assert result.summary["a_probe_correct"] == f"{expected}/{len(PROBES)}"
    assert {"a_prompt_tokens_per_s", "a_generation_tokens_per_s", "a_call_latency_s"} <= set(result.summary)


def test_a_size_that_cannot_load_is_recorded_and_the_rest_still_run() -> None:
    result = bench_llm(["broken", "a"], build, prompt_tokens=200, answer_tokens=10, probes=False)
    assert result.cases[0] == {"size": "broken", "error": "weights missing"}
    assert result.summary["broken_error"] == "weights missing"
    assert "probe_correct" not in result.cases[1]
