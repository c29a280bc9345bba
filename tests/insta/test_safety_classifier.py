"""The safety filter's control flow with a scripted model, the labelled list and its scores."""

from __future__ import annotations

import json

import pytest

from scrapesmith.insta.safety import SafetyFilter, evaluate_safety_filter, groups, labelled_domains
from scrapesmith.insta.safety.evaluate import scores
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest


def _answer(category: str, unsafe: bool, reason: str = "the domain says so") -> str:
    return json.dumps({"category": category, "unsafe": unsafe, "reason": reason})


def _described(what: str, kind: str) -> str:
    return json.dumps({"what": what, "kind": kind})


def _judge(llm: ScriptedLLM, **options) -> SafetyFilter:
    return SafetyFilter(llm, ask="judge", **options)


def test_strong_evidence_refuses_without_asking_the_model():
    llm = ScriptedLLM(lambda request: _answer("safe", False))
    verdict = SafetyFilter(llm).classify("buy-fake-passports.com")
    assert (verdict.unsafe, verdict.category, verdict.decided_by, llm.calls) == (True, "counterfeit", "evidence", 0)
    assert "fake passport" in verdict.reason


def test_judge_the_model_is_asked_under_a_schema_with_the_evidence():
    llm = ScriptedLLM(lambda request: _answer("safe", False, "'weedscience' is a herbicide database"))
    verdict = _judge(llm).classify("hempfieldsd.org")
    request: LLMRequest = llm.requests[0]
    assert request.stage == "insta.safety" and request.json_schema is not None
    assert set(request.json_schema["properties"]) == {"category", "unsafe", "reason"}
    prompt = request.messages[-1].content
    assert "InSTA" in prompt and "hemp fields" in prompt and "[weak] drugs" in prompt
    assert (verdict.unsafe, verdict.decided_by, verdict.model_calls) == (False, "model", 1)


def test_judge_refusal_wins_when_the_model_flags_a_site_the_evidence_let_through():
    llm = ScriptedLLM(lambda request: _answer("login", True, "'facebook' is a social network"))
    verdict = _judge(llm).classify("facebook.com")
    assert (verdict.unsafe, verdict.category, verdict.decided_by) == (True, "login", "model")
    assert verdict.reason == "model: 'facebook' is a social network"


def test_judge_an_unsafe_category_with_unsafe_false_still_refuses():
    verdict = _judge(ScriptedLLM(lambda request: _answer("gambling", False))).classify("example.com")
    assert verdict.unsafe and verdict.category == "gambling"


def test_judge_unreadable_model_reply_falls_back_to_evidence_after_one_retry():
    llm = ScriptedLLM(lambda request: "I cannot help with that.")
    doubtful = _judge(llm).classify("pokerstars.com")
    assert llm.calls == 2 and doubtful.unsafe and doubtful.decided_by == "no-model" and doubtful.error
    clear = _judge(llm).classify("oceanario.pt")
    assert not clear.unsafe and clear.error


def test_without_a_model_doubt_refuses_and_clear_sites_pass():
    safety = SafetyFilter(None)
    assert safety.classify("pokerstars.com").unsafe
    assert not safety.classify("oceanario.pt").unsafe
    assert not safety.classify("drugpolicy.org").unsafe


def test_labelled_list_keeps_the_issue_hundred_and_adds_hard_benign_sites():
    assert groups() == ["issue-100", "hard-benign"]
    issue = labelled_domains(["issue-100"])
    assert len(issue) == 100 and sum(row["label"] == "unsafe" for row in issue) == 50
    hard = labelled_domains(["hard-benign"])
    assert len(hard) >= 30 and all(row["label"] == "safe" for row in hard)
    assert len({row["domain"] for row in labelled_domains()}) == len(labelled_domains())
    short = labelled_domains(["issue-100"], per_label=5)
    assert len({row["category"] for row in short if row["label"] == "unsafe"}) == 5


def test_scores_use_unsafe_as_the_positive_class():
    cases = [{"label": "unsafe", "flagged": True, "correct": True}, {"label": "safe", "flagged": True, "correct": False},
             {"label": "unsafe", "flagged": False, "correct": False}, {"label": "safe", "flagged": False, "correct": True}]
    figures = scores(cases)
    assert (figures.accuracy, figures.precision, figures.recall, figures.refused) == (0.5, 0.5, 0.5, 2)


def test_evaluation_reports_each_group_and_counts_model_calls():
    llm = ScriptedLLM(lambda request: _described("a site", "company"))
    report = evaluate_safety_filter(SafetyFilter(llm), labelled_domains(per_label=3))
    assert list(report.by_group) == ["issue-100"]
    assert set(report.recall_by_category) == {row["category"] for row in report.cases if row["label"] == "unsafe"}
    asked = [case for case in report.cases if case["decided_by"] == "model"]
    assert report.model_calls == llm.calls == sum(case["model_calls"] for case in asked)
    # a site neither framing refuses is asked twice, one refused in the first framing once
    assert {case["model_calls"] for case in asked if case["label"] == "safe"} == {2}


@pytest.mark.parametrize("group", ["issue-100", "hard-benign"])
def test_evidence_alone_scores_on_each_group(group):
    """The no-model floor recorded in BENCHMARKS.md (issue 20); a change to the rules shows here."""
    report = evaluate_safety_filter(SafetyFilter(None), labelled_domains([group]))
    print(f"{group}: {report.overall}")
    if group == "issue-100":
        assert report.overall.precision >= 0.95 and report.overall.recall >= 0.65
    else:
        assert report.overall.accuracy >= 0.65


def test_a_retried_reply_counts_two_model_calls_through_the_ledger():
    from scrapesmith.bench.insta_safety import measure_safety
    from scrapesmith.llm.client import wrap_llm
    from scrapesmith.llm.ledger import Ledger

    replies = iter(["not json", _described("a school of pharmacy", "school_or_university")]
                   + [_described("a site", "company")] * 200)
    llm = wrap_llm(ScriptedLLM(lambda request: next(replies)), cache=False, ledger=Ledger())
    result = measure_safety(llm, ["hard-benign"], per_label=2)
    first = result.cases[0]
    # a retried reply in the first framing (2 calls), then the second framing (1)
    assert (first["domain"], first["model_calls"], first["decided_by"]) == ("pharmacy.ucsf.edu", 3, "model")
    assert result.summary["llm_calls"] == len(llm.ledger) == 5 and result.summary["tokens"] > 0


def test_judge_when_doubt_refuses_the_model_is_asked_only_about_clear_sites():
    llm = ScriptedLLM(lambda request: _answer("safe", False))
    doubtful = _judge(llm, settle_doubt=False).classify("pokerstars.com")
    assert (doubtful.unsafe, doubtful.decided_by, doubtful.evidence_status, llm.calls) == (True, "evidence", "doubtful", 0)
    assert not _judge(llm, settle_doubt=False).classify("oceanario.pt").unsafe and llm.calls == 1


def test_one_model_run_also_scores_the_doubt_refuses_policy():
    llm = ScriptedLLM(lambda request: _described("a site", "company"))
    rows = [{"domain": "pokerstars.com", "label": "unsafe", "category": "gambling", "group": "g"},
            {"domain": "hackaday.com", "label": "safe", "category": "hard-benign", "group": "g"}]
    report = evaluate_safety_filter(SafetyFilter(llm), rows)
    assert (report.overall.recall, report.overall.refused) == (0.0, 0)
    assert (report.if_doubt_refuses.recall, report.if_doubt_refuses.refused) == (1.0, 2)


def test_the_model_is_asked_what_the_site_is_not_whether_it_is_unsafe():
    llm = ScriptedLLM(lambda request: _described("Hempfield School District, a public school district",
                                                 "school_or_university"))
    verdict = SafetyFilter(llm).classify("hempfieldsd.org")
    request: LLMRequest = llm.requests[0]
    assert request.stage == "insta.safety" and set(request.json_schema["properties"]) == {"what", "kind"}
    assert "hemp fields" in request.messages[-1].content and "casino" in request.messages[-1].content
    assert (verdict.unsafe, verdict.decided_by, verdict.model_calls) == (False, "model", 2)
    assert verdict.description is not None and verdict.description.kind == "school_or_university"


def test_a_kind_the_description_agrees_with_refuses():
    llm = ScriptedLLM(lambda request: _described("Facebook, a social networking service", "social_network"))
    verdict = SafetyFilter(llm).classify("facebook.com")
    assert (verdict.unsafe, verdict.category, verdict.decided_by) == (True, "login", "model")
    assert "social networking" in verdict.reason and any(item.rule == "model-kind" for item in verdict.evidence)


def test_a_description_with_a_strong_category_word_refuses_whatever_the_kind():
    llm = ScriptedLLM(lambda request: _described("a pornographic video sharing website", "video_sharing"))
    assert SafetyFilter(llm).classify("example-tube.com").category == "adult"


def test_an_unsafe_kind_alone_does_not_refuse():
    llm = ScriptedLLM(lambda request: _described("Tamko, a maker of roofing shingles", "porn"))
    verdict = SafetyFilter(llm).classify("tamko.com")
    assert not verdict.unsafe and verdict.decided_by == "model"


def test_an_unsafe_kind_that_agrees_with_weak_domain_evidence_refuses():
    llm = ScriptedLLM(lambda request: _described("PokerStars, an online poker room", "casino"))
    verdict = SafetyFilter(llm).classify("pokerstars.com")
    assert (verdict.unsafe, verdict.category, verdict.evidence_status) == (True, "gambling", "doubtful")


def test_an_institutional_description_cancels_risky_words():
    llm = ScriptedLLM(lambda request: _described(
        "the National Institute on Drug Abuse, a government research agency on drug abuse", "government"))
    assert not SafetyFilter(llm).classify("drugabuse.gov").unsafe


def test_unreadable_description_falls_back_to_evidence_after_one_retry():
    llm = ScriptedLLM(lambda request: "I cannot help with that.")
    doubtful = SafetyFilter(llm).classify("pokerstars.com")
    assert llm.calls == 4 and doubtful.unsafe and doubtful.decided_by == "no-model" and doubtful.error
    assert not SafetyFilter(llm).classify("oceanario.pt").unsafe


def test_ask_must_be_describe_or_judge():
    with pytest.raises(ValueError, match="describe"):
        SafetyFilter(None, ask="vote")


def test_a_support_fellowship_described_by_the_model_passes():
    llm = ScriptedLLM(lambda request: _described(
        "Gamblers Anonymous, a fellowship helping people stop gambling", "nonprofit"))
    verdict = SafetyFilter(llm).classify("gamblersanonymous.org")
    assert not verdict.unsafe and ("gambling", "benign") in {(item.category, item.strength)
                                                              for item in verdict.evidence}


def test_a_model_that_does_not_know_the_site_settles_no_doubt():
    llm = ScriptedLLM(lambda request: _described("unknown", "unknown"))
    assert SafetyFilter(llm).classify("pokerstars.com").unsafe
    assert not SafetyFilter(llm).classify("oceanario.pt").unsafe


def test_an_unsafe_kind_on_a_doubted_site_refuses_even_across_categories():
    llm = ScriptedLLM(lambda request: _described("a site of live performers", "adult_webcam"))
    verdict = SafetyFilter(llm).classify("snapchat.com")
    assert (verdict.unsafe, verdict.category, verdict.evidence_status) == (True, "adult", "doubtful")


@pytest.mark.parametrize(("what", "category"), [
    ("a professional networking site for job seekers", "login"),
    ("a service to manage tags on websites for analytics", "api_cdn"),
    ("a content delivery network for scripts", "api_cdn"),
    ("a sports betting website", "gambling"),
])
def test_site_kind_vocabulary_in_descriptions(what, category):
    from scrapesmith.insta.safety import SiteDescription, knowledge_evidence

    found = knowledge_evidence("example.com", SiteDescription(what=what, kind="company"))
    assert (category, "strong") in {(item.category, item.strength) for item in found}


def test_the_benchmark_can_ask_the_judge_question_instead():
    from scrapesmith.bench.insta_safety import measure_safety

    llm = ScriptedLLM(lambda request: _answer("safe", False))
    result = measure_safety(llm, ["hard-benign"], per_label=2, ask="judge")
    assert result.params["ask"] == "judge" and llm.calls >= 1
    assert all(set(request.json_schema["properties"]) == {"category", "unsafe", "reason"} for request in llm.requests)


def test_the_question_is_asked_in_a_second_framing_and_refusal_wins():
    replies = iter([_described("iCloud, a service for storing files across devices", "software"),
                    _described("iCloud, Apple's cloud storage for one's own files and photos", "cloud_account")])
    llm = ScriptedLLM(lambda request: next(replies))
    verdict = SafetyFilter(llm).classify("icloud.com")
    plain, kinds = (request.messages[-1].content for request in llm.requests)
    assert "not software or company" not in plain and "not software or company" in kinds
    assert "dropbox" not in plain and "dropbox" in kinds
    assert (verdict.unsafe, verdict.category, verdict.model_calls) == (True, "login", 2)
    assert verdict.reason.startswith("plain: model: 'iCloud") and "kinds: model:" in verdict.reason


def test_a_first_framing_that_refuses_is_not_asked_again():
    llm = ScriptedLLM(lambda request: _described("a pornographic video sharing website", "porn"))
    verdict = SafetyFilter(llm).classify("example-tube.com")
    assert verdict.unsafe and llm.calls == 1 and verdict.model_calls == 1


def test_one_framing_answering_is_enough():
    replies = iter(["no json here", "still none", _described("Oceanario, the Lisbon aquarium", "entertainment")])
    llm = ScriptedLLM(lambda request: next(replies))
    verdict = SafetyFilter(llm).classify("oceanario.pt")
    assert not verdict.unsafe and verdict.decided_by == "model" and verdict.error.startswith("plain: ")


def test_no_example_of_any_framing_is_a_labelled_domain():
    from scrapesmith.insta.safety.knowledge import FRAMINGS

    labelled = {case["domain"].removeprefix("www.") for case in labelled_domains()}
    examples = {example.domain.removeprefix("www.") for framing in FRAMINGS for example in framing.examples}
    assert len(examples) == 11 and not labelled & examples


def test_the_sites_own_name_in_its_description_is_not_a_second_finding():
    from scrapesmith.insta.safety import SiteDescription, knowledge_evidence

    def categories(site: str, what: str) -> set[tuple[str, str]]:
        return {(item.category, item.strength)
                for item in knowledge_evidence(site, SiteDescription(what=what, kind="company"))}

    assert not {c for c in categories("torrentpower.com", "Torrent Power, a power utility") if c[0] == "piracy"}
    assert ("piracy", "strong") in categories("torrentpower.com", "TorrentPower, a torrent index of films")
    # the same word used apart from the name still counts
    assert ("drugs", "strong") in categories("drugs.com", "drugs.com is a website that sells drugs online")
    assert ("login", "weak") in categories("chaturbate.com", "Chaturbate, a site where users chat")
