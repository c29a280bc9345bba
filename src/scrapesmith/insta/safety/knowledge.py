"""Evidence from the model's knowledge: what it says a site is, read by the same deterministic rules.

The model is asked what a site is (``{what, kind}`` under a JSON schema), never whether it is unsafe. Its
answer becomes evidence like any other finding:

* the kind's category (:data:`.lexicon.KIND_CATEGORY`): an unsafe kind is one *weak* finding of its
  category; an institutional kind (government, school, nonprofit, health service, news, reference) is
  benign context;
* the description's words against the category lexicons, weighed by the description's and the domain's
  benign context, exactly as a domain's or a page's words are.

So a kind alone never refuses a site: the description, the domain or the page must agree with it (two
weak findings of one category), or say it strongly (``"a pornographic video site"``).
"""

from __future__ import annotations

import re

from scrapesmith.insta.safety.evidence import content_evidence, lexicon_hits, split_domain, tokens
from scrapesmith.insta.safety.lexicon import BENIGN_KINDS, KIND_CATEGORY
from scrapesmith.insta.safety.views import Evidence, SiteDescription

_WORD = re.compile(r"[a-z0-9]+")


def description_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def knowledge_evidence(site: str, description: SiteDescription) -> list[Evidence]:
    """The findings in the model's description of ``site``."""
    category = KIND_CATEGORY.get(description.kind, "unknown")
    found: list[Evidence] = []
    if category not in ("safe", "unknown"):
        found.append(Evidence(rule="model-kind", category=category, strength="weak", quote=description.kind,
                              detail="the kind of site the model says it is"))
    elif description.kind in BENIGN_KINDS:
        found.append(Evidence(rule="model-kind", category="safe", strength="benign", quote=description.kind,
                              detail="the model says it is an institution or an information site"))
    words = description_words(description.what)
    parts = split_domain(site)
    domain = {word for label in (*parts.labels, parts.name) if label for word in tokens(label)}
    institution = f"kind {description.kind}" if description.kind in BENIGN_KINDS else ""
    found += content_evidence(lexicon_hits([words]), set(words) | domain, "model-description",
                              "the model's description", institution)
    return found
