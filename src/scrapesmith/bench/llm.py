"""``scrapesmith bench llm``: speed (and a small choice-accuracy probe) of the embedded model sizes.

Speed is measured through the ``LLM.complete`` seam, the way capabilities call models:

* prompt tokens/s — a long prompt answered with one token;
* generation tokens/s — a short prompt that makes the model count, minus the prompt's share of the time;
* the latency of one realistic call: a ~1,500-token prompt and a 100-token answer.

Every prompt starts with a fresh nonce so llama.cpp's prompt cache cannot reuse an earlier call.
The choice probe asks the kind of question the capabilities ask small models — pick the candidate
XPath, the element to click, the value in a snippet — and counts exact answers, so the default size is
chosen on quality as well as speed.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, create_model

from scrapesmith.bench.frame import BenchResult
from scrapesmith.dom import estimate_tokens
from scrapesmith.llm import LLM, ChatMessage, LLMError, LLMOutputError, LLMRequest, ask_structured


def _nonce_system() -> ChatMessage:
    return ChatMessage(role="system", content=f"Session {uuid.uuid4().hex}. You are a precise assistant.")


def _catalog_line(index: int) -> str:
    colours = ("red", "blue", "green", "black", "white", "silver")
    things = ("widget", "lamp", "kettle", "chair", "notebook", "cable")
    return (
        f"Item {index}: {colours[index % 6]} {things[index * 7 % 6]}, price ${index * 3 % 97 + 0.99:.2f}, "
        f"in stock {index * 13 % 41}, ships in {index % 5 + 1} days."
    )


def filler_text(tokens: int, count: Callable[[str], int] = estimate_tokens) -> str:
    """Catalog-like text of about ``tokens`` tokens (by ``count``), the shape of a scraped page."""
    lines: list[str] = []
    while count("\n".join(lines)) < tokens:
        lines.append(_catalog_line(len(lines) + 1))
    while lines and count("\n".join(lines)) > tokens:
        lines.pop()
    return "\n".join(lines)


def _counter(llm: LLM) -> Callable[[str], int]:
    return getattr(llm, "count_tokens", estimate_tokens)


class SpeedFigures(BaseModel):
    prompt_tokens_per_s: float
    generation_tokens_per_s: float
    call_prompt_tokens: int
    call_output_tokens: int
    call_latency_s: float


def measure_prompt_speed(llm: LLM, prompt_tokens: int) -> float:
    text = filler_text(prompt_tokens, _counter(llm))
    messages = [_nonce_system(), ChatMessage(role="user", content=f"{text}\n\nHow many items are listed?")]
    completion = llm.complete(LLMRequest(messages=messages, max_tokens=1, stage="bench.prompt"))
    return completion.input_tokens / max(completion.latency, 1e-9)


def measure_generation_speed(llm: LLM, answer_tokens: int, prompt_tokens_per_s: float) -> float:
    messages = [
        _nonce_system(),
        ChatMessage(role="user", content="Write the numbers from 1 to 400 separated by commas, nothing else."),
    ]
    completion = llm.complete(LLMRequest(messages=messages, max_tokens=answer_tokens, stage="bench.generate"))
    generating = completion.latency - completion.input_tokens / prompt_tokens_per_s
    return completion.output_tokens / max(generating, 1e-9)


def measure_call(llm: LLM, prompt_tokens: int, answer_tokens: int) -> tuple[int, int, float]:
    """One call with a ``prompt_tokens`` prompt cut at ``answer_tokens``: (in, out, seconds)."""
    text = filler_text(prompt_tokens - 60, _counter(llm))
    question = "List every item number above in order, separated by commas."
    messages = [_nonce_system(), ChatMessage(role="user", content=f"{text}\n\n{question}")]
    completion = llm.complete(LLMRequest(messages=messages, max_tokens=answer_tokens, stage="bench.call"))
    return completion.input_tokens, completion.output_tokens, completion.latency


def measure_speed(llm: LLM, prompt_tokens: int = 1500, answer_tokens: int = 100) -> SpeedFigures:
    prompt_speed = measure_prompt_speed(llm, prompt_tokens)
    generation_speed = measure_generation_speed(llm, answer_tokens, prompt_speed)
    call_in, call_out, call_latency = measure_call(llm, prompt_tokens, answer_tokens)
    return SpeedFigures(
        prompt_tokens_per_s=prompt_speed,
        generation_tokens_per_s=generation_speed,
        call_prompt_tokens=call_in,
        call_output_tokens=call_out,
        call_latency_s=call_latency,
    )


class Probe(BaseModel):
    """A question with one right answer among the options the schema allows."""

    kind: str
    prompt: str
    options: list[str]
    answer: str


def _xpath_probe(field: str, page: str, candidates: dict[str, str], answer: str) -> Probe:
    listing = "\n".join(f"- {xpath} -> {text!r}" for xpath, text in candidates.items())
    prompt = (
        f"Page:\n```html\n{page}\n```\nWhich XPath extracts the {field}? Candidates and what they "
        f"extract:\n{listing}\nAnswer with the XPath."
    )
    return Probe(kind="choose_xpath", prompt=prompt, options=list(candidates), answer=answer)


def _action_probe(task: str, page: str, answer: str, options: list[str]) -> Probe:
    prompt = f"Task: {task}\nPage (elements marked [id: N]):\n{page}\nWhich element id should be clicked next?"
    return Probe(kind="choose_action", prompt=prompt, options=options, answer=answer)


def _value_probe(field: str, text: str, answer: str, options: list[str]) -> Probe:
    prompt = f"Text:\n{text}\nWhat is the {field}? Answer with the value exactly as written."
    return Probe(kind="extract_value", prompt=prompt, options=options, answer=answer)


PROBES: list[Probe] = [
    _xpath_probe(
        "book title",
        '<div class="product"><h1 class="title">The Salt Road</h1><span class="by">by Ann Kerr</span>'
        '<span class="price">$12.99</span></div>',
        {"//h1[@class='title']": "The Salt Road", "//span[@class='by']": "by Ann Kerr",
         "//span[@class='price']": "$12.99"},
        "//h1[@class='title']",
    ),
    _xpath_probe(
        "price",
        '<table><tr><th>ISBN</th><td id="isbn">9780143127550</td></tr><tr><th>List price</th>'
        '<td id="lp">$18.00</td></tr><tr><th>Pages</th><td id="pg">352</td></tr></table>',
        {"//td[@id='isbn']": "9780143127550", "//td[@id='lp']": "$18.00", "//td[@id='pg']": "352"},
        "//td[@id='lp']",
    ),
    _xpath_probe(
        "author",
        '<article><h2>Night Trains</h2><p class="meta">Published 2019 · <a class="author">M. Osei</a></p>'
        '<p class="blurb">A journey across Europe.</p></article>',
        {"//h2": "Night Trains", "//a[@class='author']": "M. Osei", "//p[@class='blurb']": "A journey across Europe."},
        "//a[@class='author']",
    ),
    _xpath_probe(
        "publication date",
        '<ul class="details"><li>Publisher: Harbor</li><li>Date: 2021-03-04</li><li>Language: English</li></ul>',
        {"//ul/li[1]": "Publisher: Harbor", "//ul/li[2]": "Date: 2021-03-04", "//ul/li[3]": "Language: English"},
        "//ul/li[2]",
    ),
    _action_probe(
        "Find the opening hours of the museum.",
        "[id: 1] Home link\n[id: 2] Exhibitions link\n[id: 3] Visit (hours, tickets, directions) link\n"
        "[id: 4] Shop link",
        "3", ["1", "2", "3", "4"],
    ),
    _action_probe(
        "Show the second page of search results.",
        "[id: 7] Result: Garden chairs\n[id: 8] Result: Patio table\n[id: 9] Previous link\n[id: 10] Next link",
        "10", ["7", "8", "9", "10"],
    ),
    _value_probe(
        "number of pages",
        "Hardcover, 412 pages. Published by Lantern Press in 2018. ISBN 9781250012579.",
        "412", ["412", "2018", "9781250012579"],
    ),
    _value_probe(
        "publisher",
        "Hardcover, 412 pages. Published by Lantern Press in 2018. ISBN 9781250012579.",
        "Lantern Press", ["Lantern Press", "Hardcover", "2018"],
    ),
]


def run_probes(llm: LLM) -> list[dict[str, Any]]:
    """Ask every probe with the options as an enum, so the answer is always one of them."""
    cases = []
    for index, probe in enumerate(PROBES):
        answer_model = create_model("ProbeChoice", answer=(Literal[tuple(probe.options)], ...))
        started = time.perf_counter()
        try:
            reply = ask_structured(llm, probe.prompt, answer_model, stage="bench.probe", max_tokens=48).answer
        except LLMOutputError as exc:
            reply = f"<invalid: {exc}>"
        cases.append({
            "probe": index, "kind": probe.kind, "expected": probe.answer, "answer": reply,
            "correct": reply == probe.answer, "seconds": round(time.perf_counter() - started, 2),
        })
    return cases


def rss_mib() -> float:
    """Resident memory of this process now (Linux), falling back to the peak elsewhere."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_size(
    size: str, build: Callable[[str], LLM], prompt_tokens: int, answer_tokens: int, probes: bool
) -> dict[str, Any]:
    """All figures for one embedded size; ``build(size)`` returns an uncached provider."""
    llm = build(size)
    before = rss_mib()
    started = time.perf_counter()
    _counter(llm)("warm up")  # loads the weights
    load_seconds = time.perf_counter() - started
    loaded_mib = rss_mib() - before
    speed = measure_speed(llm, prompt_tokens, answer_tokens)
    row: dict[str, Any] = {"size": size, "model": getattr(llm, "model_label", llm.name),
                           "load_s": round(load_seconds, 2), **speed.model_dump()}
    if probes:
        probe_cases = run_probes(llm)
        row["probe_correct"] = sum(case["correct"] for case in probe_cases)
        row["probe_total"] = len(probe_cases)
        row["probe_seconds"] = round(sum(case["seconds"] for case in probe_cases), 1)
        row["probes"] = probe_cases
    row["model_rss_mib"] = round(loaded_mib)
    row["rss_after_mib"] = round(rss_mib() - before)
    unload = getattr(llm, "unload", None)
    if unload:
        unload()
    return row


def bench_llm(
    sizes: list[str], build: Callable[[str], LLM], *, prompt_tokens: int = 1500, answer_tokens: int = 100,
    probes: bool = True, progress: Callable[[str], None] | None = None,
) -> BenchResult:
    load_before = os.getloadavg()[0]
    cases = []
    for size in sizes:
        if progress:
            progress(f"measuring {size}")
        try:
            cases.append(bench_size(size, build, prompt_tokens, answer_tokens, probes))
        except LLMError as exc:
            cases.append({"size": size, "error": str(exc)})
    summary: dict[str, float | int | str] = {}
    for case in cases:
        if "error" in case:
            summary[f"{case['size']}_error"] = case["error"]
            continue
        prefix = case["size"]
        summary[f"{prefix}_prompt_tokens_per_s"] = round(case["prompt_tokens_per_s"], 1)
        summary[f"{prefix}_generation_tokens_per_s"] = round(case["generation_tokens_per_s"], 1)
        summary[f"{prefix}_call_latency_s"] = round(case["call_latency_s"], 2)
        if "probe_correct" in case:
            summary[f"{prefix}_probe_correct"] = f"{case['probe_correct']}/{case['probe_total']}"
    return BenchResult(
        name="llm",
        summary=summary,
        cases=cases,
        params={
            "sizes": sizes, "prompt_tokens": prompt_tokens, "answer_tokens": answer_tokens, "probes": probes,
            # Other processes compete for the same cores; the load average says how quiet the machine was.
            "load_average_1m_before": round(load_before, 2), "load_average_1m_after": round(os.getloadavg()[0], 2),
        },
    )
