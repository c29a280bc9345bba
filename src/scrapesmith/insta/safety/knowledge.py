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
from dataclasses import dataclass

from scrapesmith.insta.safety.evidence import content_evidence, lexicon_hits, split_domain, tokens
from scrapesmith.insta.safety.lexicon import BENIGN_KINDS, KIND_CATEGORY, singular
from scrapesmith.insta.safety.views import Evidence, SiteDescription

_WORD = re.compile(r"[a-z0-9]+")

#: A description that repeats this many consecutive words of an example given for another site copies it.
ECHO_WORDS = 5


@dataclass(frozen=True)
class DescribeExample:
    """One example of the describe prompt: a well-known site outside the labelled development list."""

    domain: str
    what: str
    kind: str


#: The describe prompt's examples, one per family of kinds (shop, reference, news, health, account-only,
#: adult, gambling, piracy, machine hosts). A small model copies an example's sentence for a site it does not
#: know ("TorrentPower, an Irish bookmaker taking sports bets"): :func:`echoed_example` finds such copies.
DESCRIBE_EXAMPLES: tuple[DescribeExample, ...] = (
    DescribeExample("www.amazon.com", "Amazon, an online store selling almost everything", "shop"),
    DescribeExample("www.wikipedia.org", "Wikipedia, a free online encyclopedia", "reference"),
    DescribeExample("www.bbc.co.uk", "the BBC, the UK's public broadcaster, with news and programmes", "news"),
    DescribeExample("www.nhs.uk", "the UK National Health Service's health information site", "health"),
    DescribeExample("www.twitter.com", "Twitter, a social network for short public posts", "social_network"),
    DescribeExample("www.dropbox.com", "Dropbox, where people keep their own files in a personal cloud account",
                    "cloud_account"),
    DescribeExample("www.redtube.com", "RedTube, a pornographic video sharing website", "porn"),
    DescribeExample("www.paddypower.com", "Paddy Power, an Irish bookmaker taking sports bets", "sports_betting"),
    DescribeExample("yts.mx", "YTS, a torrent site for pirated films", "torrents"),
    DescribeExample("fbcdn.net", "Facebook's content delivery network for images and scripts", "cdn"),
    DescribeExample("googlesyndication.com", "Google's ad-serving domain that places ads and trackers on other "
                    "websites", "ad_server"),
)


def echoed_example(what: str, site: str, examples: tuple[DescribeExample, ...] = DESCRIBE_EXAMPLES
                   ) -> DescribeExample | None:
    """The example of another site whose sentence ``what`` copies (:data:`ECHO_WORDS` consecutive words in
    common), if any: such a description says what the prompt said, not what the model knows of ``site``."""
    words = description_words(what)
    runs = {tuple(words[i:i + ECHO_WORDS]) for i in range(len(words) - ECHO_WORDS + 1)}
    host = site.lower().removeprefix("www.")
    for example in examples:
        if example.domain.removeprefix("www.") == host:
            continue
        example_words = description_words(example.what)
        if any(tuple(example_words[i:i + ECHO_WORDS]) in runs
               for i in range(len(example_words) - ECHO_WORDS + 1)):
            return example
    return None


def description_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def name_words(domain: set[str]) -> set[str]:
    return {singular(word) for word in domain}


def knowledge_evidence(site: str, description: SiteDescription) -> list[Evidence]:
    """The findings in the model's description of ``site``: its kind, and the lexicons over its words (the
    words of the site's own name excepted: the domain's evidence read them already)."""
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
    # a word of the site's own name repeated in the description ("Torrent Power, an electricity supplier")
    # is the domain's finding again, not a second source that agrees with it
    own = name_words(domain)
    hits = [hit for hit in lexicon_hits([words]) if " " in hit.term or singular(hit.term) not in own]
    found += content_evidence(hits, set(words) | domain, "model-description", "the model's description",
                              institution)
    return found
