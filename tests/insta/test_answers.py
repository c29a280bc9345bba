"""Answers the page shows for a question task, and when a stop is offered at all: after the clauses before the
question are done. A scripted model stands in for control flow only (what it is offered, that its pick is taken)."""

from __future__ import annotations

import json

from scrapesmith.dom import parse_html
from scrapesmith.insta.answers import answer_candidates, named_answer, page_answers
from scrapesmith.insta.candidates import candidate_actions
from scrapesmith.insta.chooser import CandidatePolicy, ChooserConfig
from scrapesmith.insta.decide import decide
from scrapesmith.insta.goals import _table_values
from scrapesmith.insta.views import Element, Observation
from scrapesmith.llm.scripted import ScriptedLLM

LISTING = """<html><body><h1>Open roles</h1><table>
<tr><th>Role</th><th>Team</th><th>Location</th></tr>
<tr><td>Product Manager</td><td>Product</td><td>Berlin</td></tr>
<tr><td>Technical Product Manager</td><td>Platform</td><td>Lisbon</td></tr>
<tr><td>Support Engineer</td><td>Support</td><td>London</td></tr>
<tr><td>Support Engineer</td><td>Support</td><td>Austin</td></tr>
</table></body></html>"""

DETAIL = """<html><body><h1>Boltex Energy Corp. (BLTX)</h1><dl><dt>Sector</dt><dd>Energy</dd>
<dt>Exchange</dt><dd>NXSE</dd></dl></body></html>"""


def _tree(html: str):
    return parse_html(html, url="http://127.0.0.1/")


def test_the_record_quoted_exactly_is_the_one_answer_and_a_contained_name_is_not_taken_for_it():
    task = 'Open "Careers". What is the Team of "Product Manager"?'
    answers = answer_candidates(task, _tree(LISTING), first_id=10)
    values = [candidate.action.answer for candidate in answers]
    assert values[:2] == ["Product", "Platform"]  # exact name first, the containing name next
    one = named_answer(answers)
    assert one is not None and one.action.answer == "Product" and one.id == "c10"


def test_a_page_value_is_named_by_the_heading_or_by_being_the_pages_only_value_for_the_label():
    answers = page_answers('What is the Sector of "BLTX quote"?', _tree(DETAIL))
    assert [(a.value, a.label) for a in answers] == [("Energy", "Sector")] and answers[0].named == 1
    assert page_answers("Open the quote page.", _tree(DETAIL)) == []  # no question: nothing to answer


def test_a_name_two_rows_share_gives_no_goal():
    table = _tree(LISTING).xpath("//table")[0]
    records = {record for record, _, _ in _table_values(table)}
    assert "Support Engineer" not in records and {"Product Manager", "Technical Product Manager"} <= records


def _links(*names: str) -> list[Element]:
    return [Element(id=number, tag="a", role="link", text=name)
            for number, name in enumerate(names, start=1)]


def test_no_stop_is_offered_on_a_tie_while_the_clause_before_the_question_is_open():
    task = 'Open "BLTX". What is the Sector of "BLTX quote"?'
    candidates = candidate_actions(task, _links("BLTX", "BLTX"))
    answers = answer_candidates(task, _tree(DETAIL), len(candidates) + 1)
    decision = decide(task, candidates, [], "# Stocks", answers=answers)
    assert decision.why == "tie" and decision.offer
    assert not any(candidate.action.is_stop for candidate in decision.offer)


def test_the_chooser_answers_from_the_page_without_a_call_and_offers_several_to_the_model():
    calls: list[str] = []

    def respond(request) -> str:
        user = request.messages[-1].content
        calls.append(user)
        offered = [line.split(":", 1)[0] for line in user.split("## Candidate Actions", 1)[1].splitlines()
                   if line.startswith("c")]
        return json.dumps({"reason": "the page shows it", "candidate": offered[1]})

    policy = CandidatePolicy(ScriptedLLM(respond))
    observation = Observation(url="http://127.0.0.1/roles", markdown="# Open roles", elements=[])
    observation.attach_tree(_tree(LISTING))
    step = policy.act('What is the Location of "Product Manager"?', [], observation)
    assert not calls and step.action.is_stop and step.action.answer == "Berlin" and step.path == "program"
    # no record named: every Location the page shows is offered, with the free stop; the model's pick is taken
    step = policy.act("What is the Location of the role?", [], observation)
    assert len(calls) == 1 and step.asked and step.action.is_stop
    assert step.action.answer in {"Berlin", "Lisbon", "London", "Austin"}
    assert sum("answering" in line for line in step.candidates) == 2  # no answer from the rows sharing a name


def test_a_tie_between_links_to_one_page_is_no_choice_and_asks_no_model():
    calls: list[str] = []

    def respond(request) -> str:
        calls.append(request.messages[-1].content)
        return json.dumps({"reason": "x", "candidate": "c1"})

    html = ('<html><body><nav><a href="/careers/" data-ss-id="1">Careers</a></nav><main>'
            '<a href="careers" data-ss-id="2">Careers</a><a href="/blog/" data-ss-id="3">Careers</a></main></body></html>')
    task = 'Open "Careers". What is the Team of "UX Researcher"?'
    observation = Observation(url="http://127.0.0.1/", markdown="# Home", elements=_links("Careers", "Careers"))
    observation.attach_tree(_tree(html))
    asking = ChooserConfig(ask_ties=True)  # ties go to the model only on request
    step = CandidatePolicy(ScriptedLLM(respond), asking).act(task, [], observation)
    assert not calls and step.action.action_key == "click" and step.path == "program:tie"
    # a third "Careers" that leads elsewhere is a real choice: the model is asked
    observation = Observation(url="http://127.0.0.1/", markdown="# Home",
                              elements=_links("Careers", "Careers", "Careers"))
    observation.attach_tree(_tree(html))
    step = CandidatePolicy(ScriptedLLM(respond), asking).act(task, [], observation)
    assert len(calls) == 1 and step.asked
