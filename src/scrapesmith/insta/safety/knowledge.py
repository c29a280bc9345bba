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

from scrapesmith.insta.safety.domain_evidence import content_evidence, lexicon_hits, split_domain, tokens
from scrapesmith.insta.safety.lexicon import BENIGN_KINDS, KIND_CATEGORY
from scrapesmith.insta.safety.views import Evidence, SiteDescription

_WORD = re.compile(r"[a-z0-9]+")

@dataclass(frozen=True)
class DescribeExample:
    """One example of the describe prompt: a well-known site outside the labelled development list."""

    domain: str
    what: str
    kind: str


#: The describe prompt's examples, one per family of kinds (shop, reference, news, health, social network,
#: adult, gambling, piracy, content delivery).
DESCRIBE_EXAMPLES: tuple[DescribeExample, ...] = (
    DescribeExample("www.amazon.com", "Amazon, an online store selling almost everything", "shop"),
    DescribeExample("www.wikipedia.org", "Wikipedia, a free online encyclopedia", "reference"),
    DescribeExample("www.bbc.co.uk", "the BBC, the UK's public broadcaster, with news and programmes", "news"),
    DescribeExample("www.nhs.uk", "the UK National Health Service's health information site", "health"),
    DescribeExample("www.twitter.com", "Twitter, a social network for short public posts", "social_network"),
    DescribeExample("www.redtube.com", "RedTube, a pornographic video sharing website", "porn"),
    DescribeExample("www.paddypower.com", "Paddy Power, an Irish bookmaker taking sports bets", "sports_betting"),
    DescribeExample("yts.mx", "YTS, a torrent site for pirated films", "torrents"),
    DescribeExample("fbcdn.net", "Facebook's content delivery network for images and scripts", "cdn"),
)

#: The second framing's extra examples: a service used through one's own account and an ad-serving domain,
#: the two families a small model otherwise files under ``software`` and ``company``.
ACCOUNT_AND_MACHINE_EXAMPLES: tuple[DescribeExample, ...] = (
    DescribeExample("www.dropbox.com", "Dropbox, where people keep their own files in a personal cloud account",
                    "cloud_account"),
    DescribeExample("googlesyndication.com", "Google's ad-serving domain that places ads and trackers on other "
                    "websites", "ad_server"),
)


@dataclass(frozen=True)
class Framing:
    """One way of asking what a site is. ``guide_kinds`` adds the sentence that tells account services and
    machine hosts from software and companies."""

    name: str
    examples: tuple[DescribeExample, ...]
    guide_kinds: bool = False


#: The question is asked in each framing and refusal wins: a small model's answer moves with the prompt's
#: wording (it often repeats the example nearest to the site), so two framings are two looks at what it knows.
FRAMINGS: tuple[Framing, ...] = (
    Framing("plain", DESCRIBE_EXAMPLES),
    Framing("kinds", DESCRIBE_EXAMPLES[:5] + ACCOUNT_AND_MACHINE_EXAMPLES[:1] + DESCRIBE_EXAMPLES[5:]
            + ACCOUNT_AND_MACHINE_EXAMPLES[1:], guide_kinds=True),
)


def description_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


#: Stands in the description's words for a mention of the site's own name.
NAME_MENTION = "_site_name_"
_CASED_WORD = re.compile(r"[A-Za-z0-9]+")


def without_name_mentions(text: str, name: str, suffix: str) -> list[str]:
    """The description's words (lower case), each mention of the site's own name replaced by
    :data:`NAME_MENTION`: a run of words spelling the name that is written as a name (every word capitalised:
    "Torrent Power") or followed by the domain's suffix ("drugs.com"). The domain's evidence read those words
    already, so a description naming the site is no second source agreeing with it; the same words used apart
    from the name ("sells drugs online") still count."""
    cased = _CASED_WORD.findall(text)
    words = [word.lower() for word in cased]
    target = re.sub(r"[^a-z0-9]", "", name.lower())
    after = [label for label in suffix.lower().split(".") if label]
    i = 0
    while target and i < len(words):
        joined, j = "", i
        while j < len(words) and target.startswith(joined + words[j]) and joined != target:
            joined, j = joined + words[j], j + 1
        capitalised = all(word[:1].isupper() for word in cased[i:j])
        suffixed = bool(after) and words[j:j + len(after)] == after
        if joined == target and (capitalised or suffixed):
            words[i:j] = [NAME_MENTION] * (j - i)
            i = j
        else:
            i += 1
    return words


def knowledge_evidence(site: str, description: SiteDescription) -> list[Evidence]:
    """The findings in the model's description of ``site``: its kind, and the lexicons over its words (the
    mentions of the site's own name excepted: :func:`without_name_mentions`)."""
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
    named = without_name_mentions(description.what, parts.name, parts.suffix) if parts.name else words
    found += content_evidence(lexicon_hits([named]), set(words) | domain, "model-description",
                              "the model's description", institution)
    return found
