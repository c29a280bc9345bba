"""Evidence from a site's landing page: sign-in walls, machine hosts, and the page's words.

* A login wall is a page that is mostly a sign-in form: a password field, and the words inside its form
  make up most of the page (or little else is left). A sign-in box in a header is not a wall.
* A machine host serves no HTML at its root: JSON (often an error body), a script, a stylesheet, a
  font; or it refuses the document types we read. A root answering 401/403/404 is weak evidence.
* The title and visible text go through the same lexicons as the domain; an age gate ("are you 18 or
  over?") is adult evidence.
"""

from __future__ import annotations

import json
import re

from scrapesmith.dom import parse_html
from scrapesmith.insta.safety.domain_evidence import content_evidence, lexicon_hits
from scrapesmith.insta.safety.lexicon import BENIGN
from scrapesmith.insta.safety.views import Evidence, LandingSnapshot
from scrapesmith.web import FetchError, HttpStatusError, Page, UnsupportedContent

#: A page whose sign-in form holds at least this share of its words is a login wall ...
WALL_SHARE = 0.5
#: ... and so is a page with a password form and fewer words than this outside it.
WALL_WORDS_OUTSIDE = 60
#: Lexicon words the page's text must repeat before they count (titles count at once).
TEXT_HITS = 3
TEXT_CHARS = 2000
#: Opening words of the text searched for benign context.
CONTEXT_WORDS = 300

_WORD = re.compile(r"[a-z0-9]+")
_AGE_GATE = re.compile(r"\b(?:are you (?:over |at least )?(?:18|21)|(?:18|21) ?\+ only|adults? only|must be "
                       r"(?:at least )?(?:18|21)|age verification|verify your age)\b", re.IGNORECASE)
_SIGN_IN = re.compile(r"\b(?:sign ?in|log ?in|login|sign ?up|create (?:an |your )?account|password)\b",
                      re.IGNORECASE)


def snapshot_page(page: Page) -> LandingSnapshot:
    """Read a fetched landing page: its text, and the forms that ask for a password."""
    snapshot = LandingSnapshot(url=page.url, status=page.status, content_type=page.content_type)
    if not page.is_html or page.text.lstrip()[:1] in ("{", "["):
        snapshot.body = page.text[:200]
        return snapshot
    tree = parse_html(page.text, url=page.url)
    for junk in tree.xpath("//script|//style|//noscript|//template"):
        junk.drop_tree()
    snapshot.title = " ".join(tree.xpath("string(//title)").split())
    body = tree.find(".//body")
    text = " ".join(body.text_content().split()) if body is not None else ""
    snapshot.text, snapshot.words = text[:TEXT_CHARS], len(text.split())
    snapshot.links = len(tree.xpath("//a[@href]"))
    for form in tree.xpath("//form[.//input[@type='password']]"):
        snapshot.password_fields += len(form.xpath(".//input[@type='password']"))
        snapshot.form_words += len(form.text_content().split())
    snapshot.password_fields = snapshot.password_fields or len(tree.xpath("//input[@type='password']"))
    return snapshot


def snapshot_failure(url: str, error: FetchError) -> LandingSnapshot:
    """A landing page we could not read; the reason may itself be evidence (a non-document type, a 404)."""
    status = error.status if isinstance(error, HttpStatusError) else 0
    return LandingSnapshot(url=url, status=status or 0, content_type="", error=str(error).splitlines()[0])


def is_evidence_failure(error: FetchError) -> bool:
    """Failures that say something about the host rather than the network."""
    return isinstance(error, (UnsupportedContent, HttpStatusError))


def landing_evidence(page: LandingSnapshot) -> list[Evidence]:
    return [*_machine_host(page), *_login_wall(page), *_page_words(page)]


def describe_landing(page: LandingSnapshot) -> str:
    """One line for the model: status, type and the start of the text."""
    if page.error:
        return f"could not be read ({page.error})"
    if page.body:
        return f"HTTP {page.status}, {page.content_type}: {page.body[:120]!r}"
    words = " ".join(page.text.split()[:60])
    forms = f", a sign-in form ({page.password_fields} password field)" if page.password_fields else ""
    return f"title {page.title!r}{forms}; text: {words!r}"


def _machine_host(page: LandingSnapshot) -> list[Evidence]:
    if page.error and "content type" in page.error:
        return [_api(page.error, "strong", "the root serves a type that is not a web page")]
    if page.error and page.status in (401, 403, 404, 405):
        return [_api(f"HTTP {page.status}", "weak", "the root refuses or has no page")]
    if page.body:
        json_body = _is_json(page.body)
        detail = "the root answers with JSON, not a page" if json_body else "the root serves no HTML"
        return [_api(page.body[:80], "strong", detail)]
    if not page.error and page.words < 5 and page.links == 0:
        return [_api(page.title or "(empty)", "weak", "the root is an empty page without links")]
    return []


def _api(quote: str, strength: str, detail: str) -> Evidence:
    return Evidence(rule="machine-host", category="api_cdn", strength=strength, quote=quote, detail=detail)


def _is_json(body: str) -> bool:
    try:
        json.loads(body)
    except ValueError:
        return body.lstrip()[:1] in ("{", "[")
    return True


def _login_wall(page: LandingSnapshot) -> list[Evidence]:
    if not page.password_fields or not page.words:
        return []
    outside = max(0, page.words - page.form_words)
    if page.form_words / page.words >= WALL_SHARE or outside < WALL_WORDS_OUTSIDE:
        cue = _SIGN_IN.search(f"{page.title} {page.text}")
        return [Evidence(rule="login-wall", category="login", strength="strong",
                         quote=cue.group(0) if cue else f"{page.password_fields} password field",
                         detail=f"the page is mostly a sign-in form ({page.form_words} of {page.words} words)")]
    return []


def _page_words(page: LandingSnapshot) -> list[Evidence]:
    title = _WORD.findall(page.title.lower())
    text = _WORD.findall(page.text.lower())
    found: list[Evidence] = []
    title_hits = lexicon_hits([title])
    text_hits = [hit for hit in lexicon_hits([text]) if hit.strong]
    repeated = {hit.term for hit in text_hits if sum(1 for other in text_hits if other.term == hit.term) >= TEXT_HITS}
    hits = title_hits + [hit for hit in text_hits if hit.term in repeated]
    if hits:
        # benign context may come from the opening text; commercial intent only from the title, since
        # "free", "shop" and "online" are on most pages
        context = set(title) | (set(text[:CONTEXT_WORDS]) & BENIGN)
        found += content_evidence(hits, context, "landing-lexicon", "the landing page")
    gate = _AGE_GATE.search(f"{page.title} {page.text}")
    if gate:
        found.append(Evidence(rule="age-gate", category="adult", strength="weak", quote=gate.group(0),
                              detail="the page asks for the visitor's age"))
    return found
