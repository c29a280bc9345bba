"""A refusal names what on the site shows its category; the model's description alone refuses nothing the
pages read contradict (insta.safety.corroborate, the pipeline's read_site)."""

from __future__ import annotations

import json

from scrapesmith.insta.pipeline import PipelineConfig, SiteJob, read_site
from scrapesmith.insta.safety import SafetyFilter, corroborate, snapshot_page
from scrapesmith.insta.views import SiteResult
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.web import Page

CONFIG = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, seed=3)


def _page(url: str, body: str, title: str = "Home") -> Page:
    html = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return Page(url=url, content=html.encode(), text=html)


def _betting_model(request) -> str:
    return json.dumps({"what": "a sports betting site with odds on every game", "kind": "sports_betting"})


def test_a_model_only_gambling_refusal_is_lifted_when_the_pages_show_no_betting(demo_web):
    job = SiteJob(url=demo_web.url("/sports/"), config=CONFIG)
    result = SiteResult(site=job.url, url=job.url, status="failed")
    _, exploration = read_site(job, ScriptedLLM(_betting_model), result)
    verdict = result.safety
    assert not verdict.unsafe and verdict.category == "safe" and verdict.decided_by == "evidence"
    assert verdict.overruled.startswith("model: gambling") and "sports betting" in verdict.overruled
    assert f"the {1 + len(exploration.pages)} pages read show none of it" in verdict.reason
    assert len(exploration.pages) >= 3 and all("/sports/" in p.url for p in exploration.pages)


def test_the_same_refusal_stands_where_a_page_shows_odds_and_stakes():
    landing = _page("http://127.0.0.1:9/", "<h1>Tonight's games</h1><p>Lakers 5/2 odds. Minimum stake $5.</p>"
                    + "<p>Fixtures and results for every league, updated daily by our editors.</p>" * 3)
    verdict = SafetyFilter(ScriptedLLM(_betting_model)).classify("127.0.0.1:9", snapshot_page(landing))
    assert verdict.unsafe and verdict.category == "gambling"
    verdict = corroborate(verdict, [snapshot_page(landing)])
    assert verdict.unsafe and verdict.overruled is None
    assert [item.rule for item in verdict.support] == ["page-words"]
    assert "odds x1" in verdict.support[0].quote and "stake x1" in verdict.support[0].quote
    assert "shown by: [weak] gambling" in verdict.reason


def test_a_login_refusal_stands_on_a_sign_in_wall_and_is_lifted_on_open_pages():
    def account_model(request) -> str:
        return json.dumps({"what": "a social network where members chat", "kind": "social_network"})

    wall = _page("http://127.0.0.1:9/", "<form><p>Sign in to continue</p><input name=u><input type=password name=p>"
                 "<button>Log in</button></form>", title="Sign in")
    verdict = corroborate(SafetyFilter(ScriptedLLM(account_model)).classify("127.0.0.1:9", snapshot_page(wall)),
                          [snapshot_page(wall)])
    assert verdict.unsafe and verdict.category == "login"
    assert any(item.rule == "login-wall" for item in verdict.support) and "Sign in" in verdict.reason
    shop = _page("http://127.0.0.1:9/", "<h1>Books</h1>" + "<p><a href=/b/1>A novel about the sea</a> $12</p>" * 30)
    snapshot = snapshot_page(shop)
    lifted = corroborate(SafetyFilter(ScriptedLLM(account_model)).classify("127.0.0.1:9", snapshot), [snapshot])
    assert not lifted.unsafe and "no page is a sign-in form" in lifted.reason and "login" in lifted.overruled


def test_evidence_of_the_domain_is_support_and_an_unread_site_keeps_its_refusal():
    verdict = corroborate(SafetyFilter(None).classify("cheapcasinobonus.com"), [])
    assert verdict.unsafe and verdict.support and verdict.support[0].rule == "domain-lexicon"
    unread = SafetyFilter(ScriptedLLM(_betting_model)).classify("127.0.0.1:9")
    assert unread.unsafe and unread.decided_by == "model"
    assert corroborate(unread, []).unsafe and "could not be read" in unread.reason


def test_a_domain_verdict_is_unchanged_when_no_page_is_given():
    """``bench insta-safety`` shows the domain only: the check has nothing to read and changes nothing."""
    for domain in ("bbc.co.uk", "pokerstars.com", "wikipedia.org"):
        before = SafetyFilter(None).classify(domain)
        assert SafetyFilter(None).classify(domain).model_dump() == before.model_dump()
        assert corroborate(before.model_copy(deep=True), []).unsafe == before.unsafe
