"""Recording with a model: list choice, the selector model for irregular lists, field choice, verifier.

The LLM here is scripted (a function from request to reply) to drive control flow; capability figures
for real models come from ``scrapesmith bench weblists --llm …``.
"""

from __future__ import annotations

import json
import re

import httpx
from lxml import html as lxml_html

from scrapesmith.bench.weblists import url_key
from scrapesmith.lists.service import extract_list
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest


def northwind_testimonial_selector(page_html: str) -> str:
    """What a good selector model answers for the Northwind testimonials (three item shapes)."""
    page = lxml_html.fromstring(page_html)
    holders = {"div." + quote.getparent().get("class") for quote in page.iter("blockquote")}
    holders |= {"p." + p.get("class") for p in page.xpath("//p[starts-with(normalize-space(.), '—')]")}
    holders |= {"div." + d.get("class") for d in page.xpath("//div[a[contains(., 'Case study')]]")}
    return ", ".join(sorted(holders))


def scripted_recorder(selector: str, names: set[str], verdicts: list[bool] | None = None) -> ScriptedLLM:
    verdicts = list(verdicts or [])

    def respond(request: LLMRequest) -> str:
        text = request.messages[-1].content
        if request.stage == "lists.choose_list":
            blocks = re.split(r"^(\d+)\. \d+ items", text, flags=re.MULTILINE)[1:]
            samples = list(zip(blocks[::2], blocks[1::2], strict=True))
            quoted = [int(index) for index, sample in samples if "“" in sample or "built by" in sample]
            return json.dumps({"choice": quoted[0] if quoted else 0})
        if request.stage == "lists.selector_model":
            return json.dumps({"thought": "items sit between industry headers", "selector": selector})
        if request.stage == "lists.choose_field":
            parts = re.findall(r'^(\d+)\. \[\w+\] "(.*)"$', text, re.MULTILINE)
            return json.dumps({"part": next((int(i) for i, part in parts if part in names), -1)})
        if request.stage == "lists.verify":
            return json.dumps({"success": verdicts.pop(0) if verdicts else True, "feedback": ""})
        if request.stage == "lists.answer_question":
            return json.dumps({"answer": ""})
        raise AssertionError(f"unexpected stage {request.stage}")

    return ScriptedLLM(respond)


def test_irregular_testimonials_through_the_selector_model(demo_web, demo_runtimes) -> None:
    truth = demo_web.sites.truth("northwind")["testimonials"]
    url = demo_web.url("/northwind/customers/")
    llm = scripted_recorder(northwind_testimonial_selector(httpx.get(url).text), {t["name"] for t in truth})
    recording, result = extract_list(
        demo_runtimes, url, "all customer testimonials", ["Customer Name", "Story URL"], llm
    )
    stages = [request.stage for request in llm.requests]
    assert "lists.selector_model" in stages and stages[-1] == "lists.verify"
    got = {url_key(row["Story URL"]): row["Customer Name"] for row in result.rows}
    assert got == {url_key(t["url"]): t["name"] for t in truth}
    assert recording.llm_calls == llm.calls  # replay added no model calls


def test_invalid_selector_model_answer_is_rejected(demo_web, demo_runtimes) -> None:
    truth = demo_web.sites.truth("northwind")["testimonials"]
    llm = scripted_recorder("h2", {t["name"] for t in truth})
    recording, result = extract_list(
        demo_runtimes,
        demo_web.url("/northwind/customers/"),
        "all customer testimonials",
        ["Customer Name", "Story URL"],
        llm,
    )
    assert any("rejected" in note for note in recording.notes)
    assert result.rows and all(row["Story URL"] for row in result.rows)


def test_verifier_rejection_backtracks_to_the_next_list(demo_web, demo_runtimes) -> None:
    llm = scripted_recorder("", set(), verdicts=[False, True])
    recording, _ = extract_list(
        demo_runtimes,
        demo_web.url("/acme/customers/"),
        "all customer testimonials",
        ["Customer Name", "Story URL"],
        llm,
    )
    assert any("backtracking" in note for note in recording.notes)
    assert [r.stage for r in llm.requests].count("lists.verify") == 2


def test_model_calls_do_not_grow_with_rows_or_pages(mutable_site, site_runtimes) -> None:
    def page(n: int, items: int, last: int) -> str:
        cards = "".join(
            f'<li class="job"><a href="/j/{n}-{i}">Job {n}-{i}</a><span class="city">Oslo</span>'
            f"<p>About job {n}-{i}.</p></li>"
            for i in range(items)
        )
        more = f'<a rel="next" href="/p{n + 1}">Next</a>' if n < last else ""
        return f"<html><body><nav><a href='/'>Home</a><a href='/x'>X</a></nav><ul>{cards}</ul>{more}</body></html>"

    calls = []
    for pages, items in ((1, 3), (4, 12)):
        for n in range(1, pages + 1):
            mutable_site.pages[f"/p{n}"] = page(n, items, pages)
        llm = scripted_recorder("", set())
        _recording, result = extract_list(
            site_runtimes, mutable_site.url("/p1"), "all jobs", ["Job Title", "Job URL", "City"], llm
        )
        assert len(result.rows) == pages * items
        calls.append(llm.calls)
    assert calls[0] == calls[1]


def test_list_choice_is_left_to_the_evidence_when_it_is_clear(mutable_site, site_runtimes) -> None:
    cards = "".join(
        f'<li class="job"><h3><a href="/j/{i}">Data Engineer {i}</a></h3><span class="city">Oslo</span>'
        f"<p>Posted 2024-05-{i + 10}, salary ${i}0,000.</p></li>"
        for i in range(1, 13)
    )
    menu = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(5))
    mutable_site.pages["/jobs"] = (
        f"<html><body><header><nav><ul>{menu}</ul></nav></header><main><ul class='jobs'>{cards}</ul></main>"
        "</body></html>"
    )
    llm = scripted_recorder("", set())
    recording, result = extract_list(site_runtimes, mutable_site.url("/jobs"), "all jobs", ["Job Title"], llm)
    assert "lists.choose_list" not in [request.stage for request in llm.requests]
    assert any(note.startswith("list by evidence") for note in recording.notes)
    assert len(result.rows) == 12
