"""One test per evidence rule of the safety filter: domain tokens, lexicons, hosts, landing pages."""

from __future__ import annotations

import pytest

from scrapesmith.insta.safety import (
    domain_evidence,
    landing_evidence,
    snapshot_failure,
    snapshot_page,
    split_domain,
)
from scrapesmith.insta.safety.classifier import assess
from scrapesmith.insta.safety.domain_evidence import tokens
from scrapesmith.web.page import HttpStatusError, Page, UnsupportedContent


def _found(site: str) -> set[tuple[str, str]]:
    return {(item.category, item.strength) for item in domain_evidence(site)}


def test_split_domain_uses_the_public_suffix_list():
    parts = split_domain("https://www.api.example.co.uk:8443/path")
    assert (parts.suffix, parts.name, parts.labels) == ("co.uk", "example", ("api",))
    assert split_domain("ajax.googleapis.com").platform_suffix == "googleapis.com"


def test_concatenated_words_are_split_but_never_matched_inside_a_word():
    assert tokens("cheapopioidsonline") == ["cheap", "opioids", "online"]
    assert ("adult", "strong") not in _found("essex.ac.uk") and ("adult", "weak") not in _found("essex.ac.uk")
    assert _found("bettycrocker.com") == set()


def test_strong_lexicon_word_refuses_on_its_own():
    assert ("drugs", "strong") in _found("cheap-opioids-online.biz")
    assert ("piracy", "strong") in _found("free-crack-keygen.net")
    assert ("counterfeit", "strong") in _found("buy-fake-passports.com")


def test_ambiguous_word_alone_is_weak_and_commercial_intent_makes_it_strong():
    assert ("drugs", "weak") in _found("pharmacyworld.com")
    assert ("drugs", "strong") in _found("cheappharmacy.com")
    assert ("gambling", "strong") in _found("bet-poker.com")


def test_benign_context_cancels_a_risky_word():
    assert ("drugs", "benign") in _found("drugpolicy.org")
    assert ("weapons", "benign") in _found("gun-safety-education.org")
    assert ("drugs", "benign") in _found("pharmacy.ucsf.edu")
    assert ("safe", "benign") in _found("pharmacy.ucsf.edu")


def test_asset_and_api_host_labels():
    assert ("api_cdn", "strong") in _found("api.stripe.com")
    assert ("api_cdn", "strong") in _found("cdn.example.net")
    assert ("api_cdn", "weak") in _found("graph.example.com")


def test_a_platform_public_suffix_is_not_a_site():
    assert ("api_cdn", "weak") in _found("cloudfront.net")
    assert ("api_cdn", "weak") not in _found("myblog.github.io")


def test_sign_in_labels_and_online_banking():
    assert ("login", "strong") in _found("mail.example.com")
    assert ("login", "strong") in _found("online.examplebank.com")
    assert ("login", "weak") in _found("online.example.com")


def test_category_top_level_domains_and_adult_video_naming():
    assert ("adult", "strong") in _found("example.xxx")
    assert ("gambling", "strong") in _found("example.casino")
    assert ("adult", "strong") in _found("xvideos.example")
    assert ("adult", "strong") not in _found("xcode.com")


def test_imageboard_naming_is_weak_evidence():
    assert ("harmful", "weak") in _found("8chan.net")


def test_two_weak_findings_of_one_category_refuse():
    assert assess(domain_evidence("cloudfront.net")).status == "doubtful"
    assert assess(domain_evidence("static.cloudfront.net")).status == "unsafe"


def _html(body: str, title: str = "Welcome") -> Page:
    return Page(url="https://example.com/", content=b"", text=f"<html><head><title>{title}</title></head>"
                                                              f"<body>{body}</body></html>")


SIGN_IN_FORM = ("<form><label>Email</label><input name=e><label>Password</label><input type=password name=p>"
                "<button>Sign in</button> Forgot your password? Keep me signed in</form>")


def test_a_page_that_is_mostly_a_sign_in_form_is_a_login_wall():
    found = landing_evidence(snapshot_page(_html(SIGN_IN_FORM + "<p>Terms</p>", title="Sign in")))
    assert [(item.rule, item.strength) for item in found] == [("login-wall", "strong")]


def test_a_sign_in_box_on_a_long_page_is_not_a_wall():
    article = "<p>" + " ".join(["The museum opens its new wing of maritime history this spring."] * 20) + "</p>"
    found = landing_evidence(snapshot_page(_html(SIGN_IN_FORM + article + "<a href='/a'>a</a>")))
    assert not [item for item in found if item.category == "login"]


def test_json_error_body_at_the_root_is_a_machine_host():
    page = Page(url="https://api.example.com/", content=b"", text='{"error": "not found", "code": 404}',
                content_type="application/json")
    found = landing_evidence(snapshot_page(page))
    assert [(item.category, item.strength) for item in found] == [("api_cdn", "strong")]
    assert "not found" in found[0].quote


def test_a_root_that_is_not_a_document_or_answers_404_is_evidence():
    url = "https://static.example.com/"
    not_a_page = snapshot_failure(url, UnsupportedContent(url, "content type font/woff2 is not a document we read"))
    assert [(item.category, item.strength) for item in landing_evidence(not_a_page)] == [("api_cdn", "strong")]
    missing = snapshot_failure(url, HttpStatusError(url, "HTTP 404 Not Found", 404))
    assert [(item.category, item.strength) for item in landing_evidence(missing)] == [("api_cdn", "weak")]


def test_landing_page_words_and_age_gate():
    page = _html("<p>Are you 18 or older? Enter</p><a href='/x'>x</a>", title="Hot casino slots and jackpots")
    found = {(item.category, item.strength) for item in landing_evidence(snapshot_page(page))}
    assert ("gambling", "strong") in found and ("adult", "weak") in found


@pytest.mark.parametrize("title", ["Drug Policy Research Centre", "School of Pharmacy"])
def test_landing_title_in_benign_context_is_not_refused(title):
    page = _html("<p>Our research and teaching.</p><a href='/x'>x</a>", title=title)
    assert assess(landing_evidence(snapshot_page(page))).status == "clear"


def test_commercial_words_in_page_text_do_not_make_an_ambiguous_title_word_strong():
    page = _html("<p>Shop online now: free delivery on the best offers.</p><a href='/x'>x</a>", title="City Pharmacy")
    assert [(item.category, item.strength) for item in landing_evidence(snapshot_page(page))] == [("drugs", "weak")]
    page = _html("<p>Repeat prescriptions.</p><a href='/x'>x</a>", title="Cheap Pharmacy Online")
    assert [(item.category, item.strength) for item in landing_evidence(snapshot_page(page))] == [("drugs", "strong")]


@pytest.mark.parametrize(("site", "category"), [
    ("neonazi-forum.net", "harmful"), ("cheap-tramadol.shop", "drugs"), ("freemoviestream.to", "piracy"),
    ("livesexcams.com", "adult"), ("fantasysportsbet.com", "gambling"), ("replica-watches.biz", "counterfeit"),
])
def test_category_vocabularies_cover_each_category(site, category):
    assert (category, "strong") in _found(site)


@pytest.mark.parametrize(("site", "category"), [
    ("smallarmssurvey.org", "weapons"), ("gamblersanonymous.org", "gambling"), ("virusbulletin.com", "malware"),
    ("hate-speech-research.org", "harmful"),
])
def test_research_support_and_publication_words_are_benign_context(site, category):
    assert assess(domain_evidence(site)).status in ("clear", "doubtful")
    assert (category, "strong") not in _found(site)
