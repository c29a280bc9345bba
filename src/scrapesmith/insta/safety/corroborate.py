"""A refusal names what on the site shows its category; the model's word alone refuses nothing the pages deny.

The filter (:mod:`.classifier`) may refuse a site on the model's description alone: its kind and its words are
two weak findings that agree. Once the pipeline has read the site's pages (the landing page and a few reached
from it), each refusal is checked against them. Its **support** is the evidence that does not come from the
model — the domain's words, a sign-in wall, a root that is no web page — and what the pages read show of the
category:

* ``login``: a page that is mostly a sign-in form (:func:`.landing.landing_evidence`'s wall), or one that
  answers 401/403;
* ``api_cdn``: a root that serves no page (already in the landing evidence);
* a content category (gambling, adult, drugs, …): its lexicon's words on the pages read — a strong word
  once, or ambiguous words ("odds", "stake") twice — or, for adult, an age gate.

A refusal with support stands, its support named in the reason. A refusal with none, on a site whose pages
could be read, is lifted: the verdict says what the model said and which checks found nothing. A site whose
landing page could not be read keeps its refusal (nothing contradicts it).
"""

from __future__ import annotations

import re
from collections import Counter

from scrapesmith.insta.safety.domain_evidence import lexicon_hits
from scrapesmith.insta.safety.landing import landing_evidence
from scrapesmith.insta.safety.views import Evidence, LandingSnapshot, SafetyVerdict

#: Rules whose findings come from the model's own answer.
MODEL_RULES = frozenset({"model-kind", "model-description"})
#: Ambiguous lexicon words must occur this often on the pages read to show a category.
AMBIGUOUS_TIMES = 2
_WORD = re.compile(r"[a-z0-9]+")

#: What was looked for, per category, in the sentence that lifts a refusal.
LOOKED_FOR = {
    "login": "no page is a sign-in form gating the content, none answers 401/403",
    "api_cdn": "the root is a web page",
}


def site_support(category: str, pages: list[LandingSnapshot]) -> list[Evidence]:
    """What the pages read show of ``category`` (empty: nothing)."""
    found: list[Evidence] = []
    for page in pages:
        where = page.url
        for item in landing_evidence(page):
            if item.category == category and item.strength in ("strong", "weak"):
                found.append(item.model_copy(update={"rule": f"page-{item.rule}", "detail": f"{where}: "
                                                     f"{item.detail or item.rule}"}))
        if category == "login" and page.status in (401, 403):
            found.append(Evidence(rule="page-status", category="login", strength="weak", quote=f"HTTP {page.status}",
                                  detail=f"{where}: the page asks for credentials"))
    if category not in ("login", "api_cdn"):
        found += _words_shown(category, pages)
    return found


def _words_shown(category: str, pages: list[LandingSnapshot]) -> list[Evidence]:
    hits = [(page.url, hit) for page in pages
            for hit in lexicon_hits([_WORD.findall(f"{page.title} {page.text}".lower())]) if hit.category == category]
    strong = [(url, hit) for url, hit in hits if hit.strong]
    times = Counter(hit.term for _, hit in hits if not hit.strong)
    if strong:
        url, hit = strong[0]
        return [Evidence(rule="page-words", category=category, strength="strong", quote=hit.term,
                         detail=f"{url}: the page says it")]
    if sum(times.values()) >= AMBIGUOUS_TIMES:
        terms = ", ".join(f"{term} x{count}" for term, count in times.most_common())
        return [Evidence(rule="page-words", category=category, strength="weak", quote=terms,
                         detail=f"the pages read use the category's words {sum(times.values())} times")]
    return []


def readable(pages: list[LandingSnapshot]) -> bool:
    return bool(pages) and not pages[0].error and not pages[0].body and pages[0].words > 0


def corroborate(verdict: SafetyVerdict, pages: list[LandingSnapshot]) -> SafetyVerdict:
    """Check a refusal against the pages read (the landing page first); see the module docstring."""
    if not verdict.unsafe:
        return verdict
    own = [item for item in verdict.evidence if item.category == verdict.category
           and item.strength in ("strong", "weak") and item.rule not in MODEL_RULES]
    shown = site_support(verdict.category, pages)
    verdict.support = own + [item for item in shown if item not in own]
    if verdict.support:
        verdict.reason += "; shown by: " + "; ".join(item.line() for item in verdict.support)
        return verdict
    if not readable(pages):
        verdict.reason += "; the site's pages could not be read to check it"
        return verdict
    looked = LOOKED_FOR.get(verdict.category, f"no word of the {verdict.category} lexicon, no age gate"
                            if verdict.category == "adult" else f"no word of the {verdict.category} lexicon")
    verdict.overruled = f"{verdict.decided_by}: {verdict.category}: {verdict.reason}"
    verdict.unsafe, verdict.decided_by = False, "evidence"
    verdict.reason = (f"not refused: the {verdict.category!r} refusal rests on the model's word alone, and the "
                      f"{len(pages)} pages read show none of it ({looked})")
    verdict.category = "safe"
    return verdict
