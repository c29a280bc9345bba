"""Evidence from a domain name: its tokens against the category lexicons, and what its labels say.

A host is split with the Public Suffix List (bundled with ``publicsuffixlist``; no network): the ICANN
suffix (``co.uk``), the registrable name (``barnsleyfc``) and the labels in front of it (``api``,
``mail``). Concatenated words are split with ``wordninja`` (bundled English word frequencies), so
``cheapopioidsonline`` reads ``cheap opioids online`` and ``essex`` stays ``essex``. The rules:

* content lexicons (:mod:`.lexicon`) over every token, with commercial intent strengthening an ambiguous
  word and benign context (a school, a policy centre, an institutional suffix) weakening any word;
* asset and machine hosts: ``api.``/``cdn.``/``static.`` labels, asset words in the name, and hosts that
  are themselves a platform's public suffix (``cloudfront.net``: customers' sites live under it);
* sign-in front doors: ``mail.``/``login.``/``accounts.`` labels, and ``online.`` in front of a bank;
* adult and gambling top-level domains, and the ``x`` + media-word slang of adult video sites.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import wordninja
from publicsuffixlist import PublicSuffixList

from scrapesmith.insta.safety.lexicon import (
    ACCOUNT_TOKENS,
    BENIGN,
    CATEGORY_TLDS,
    IMAGEBOARD,
    INFRA_LABELS_STRONG,
    INFRA_LABELS_WEAK,
    INFRA_PHRASES,
    INFRA_TOKENS,
    INSTITUTIONAL_SUFFIX_LABELS,
    INTENT,
    LEXICONS,
    LOGIN_LABELS_STRONG,
    LOGIN_LABELS_WEAK,
    X_MEDIA,
    singular,
)
from scrapesmith.insta.safety.views import Evidence

_CHUNK = re.compile(r"[a-z0-9]+")
_ALPHA_OR_DIGITS = re.compile(r"[a-z]+|[0-9]+")


@cache
def _suffix_lists() -> tuple[PublicSuffixList, PublicSuffixList]:
    """The full list (with platforms' private suffixes) and its ICANN section."""
    return PublicSuffixList(), PublicSuffixList(only_icann=True)


@dataclass(frozen=True)
class DomainParts:
    """A host read through the Public Suffix List."""

    host: str
    suffix: str
    name: str
    labels: tuple[str, ...]
    platform_suffix: str | None

    @property
    def is_platform_root(self) -> bool:
        """The host is a platform's public suffix itself (``cloudfront.net``), not a site under it."""
        return self.platform_suffix == self.host


def host_of(site: str) -> str:
    """``https://www.Example.com:8080/x`` -> ``example.com`` (scheme, port, path and ``www.`` dropped)."""
    host = site.strip().lower()
    host = host.split("://", 1)[-1].split("/", 1)[0].split("@")[-1].split(":", 1)[0].rstrip(".")
    return host.removeprefix("www.")


def split_domain(site: str) -> DomainParts:
    host = host_of(site)
    if _is_address(host):
        return DomainParts(host, "", "", (), None)
    full, icann = _suffix_lists()
    suffix = icann.publicsuffix(host) or host.rsplit(".", 1)[-1]
    registrable = icann.privatesuffix(host)
    if registrable is None:
        return DomainParts(host, suffix, "", (), None)
    labels = tuple(host[: -len(registrable)].rstrip(".").split(".")) if host != registrable else ()
    platform = full.publicsuffix(host)
    private = platform if platform and platform != suffix and not icann.is_public(platform) else None
    if private is None and full.is_public(host) and not icann.is_public(host):
        private = host
    return DomainParts(host, suffix, registrable[: -len(suffix) - 1], tuple(label for label in labels if label),
                       private)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def tokens(label: str) -> list[str]:
    """Words of one host label: split on punctuation and digit runs, then concatenated words apart."""
    words: list[str] = []
    for chunk in _ALPHA_OR_DIGITS.findall(label.lower()):
        words.extend(wordninja.split(chunk) if chunk.isalpha() and len(chunk) > 3 else [chunk])
    return words


def chunks(label: str) -> list[str]:
    """The unsplit pieces of a label (``free-crack-keygen`` -> ``free``, ``crack``, ``keygen``)."""
    return _CHUNK.findall(label.lower())


@dataclass(frozen=True)
class Hit:
    category: str
    term: str
    strong: bool


def _known(token: str, words: frozenset[str]) -> str | None:
    if token in words:
        return token
    return singular(token) if singular(token) in words else None


def lexicon_hits(sequences: Iterable[Sequence[str]]) -> list[Hit]:
    """Every lexicon word and phrase found in token sequences (one sequence per label or text)."""
    hits: list[Hit] = []
    for sequence in sequences:
        words = [singular(token) for token in sequence]
        for lexicon in LEXICONS:
            for token in sequence:
                if (term := _known(token, lexicon.strong)) is not None:
                    hits.append(Hit(lexicon.category, term, True))
                elif (term := _known(token, lexicon.ambiguous)) is not None:
                    hits.append(Hit(lexicon.category, term, False))
            for phrase in lexicon.phrases:
                if _contains(words, phrase):
                    hits.append(Hit(lexicon.category, " ".join(phrase), True))
    return hits


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    size = len(phrase)
    return any(tuple(words[i:i + size]) == tuple(phrase) for i in range(len(words) - size + 1))


def content_evidence(hits: list[Hit], context: set[str], rule: str, where: str,
                     institutional: str = "") -> list[Evidence]:
    """Lexicon hits weighed by context. Benign words (or an institutional suffix) cancel single words and
    weaken phrases; commercial intent, or a second word of the category, makes ambiguous words strong."""
    benign = sorted(context & BENIGN) + ([institutional] if institutional else [])
    intent = sorted(context & INTENT)
    found: list[Evidence] = []
    for category in dict.fromkeys(hit.category for hit in hits):
        terms = {hit.term for hit in hits if hit.category == category}
        strong = sorted({hit.term for hit in hits if hit.category == category and hit.strong})
        ambiguous = sorted(terms - set(strong))
        phrases = [term for term in strong if " " in term]
        quote = " ".join(strong or ambiguous)
        if benign and phrases:
            found.append(Evidence(rule=rule, category=category, strength="weak", quote=" ".join(phrases),
                                  detail=f"{category} phrase in {where}, beside benign context {' '.join(benign)!r}"))
        elif benign:
            found.append(Evidence(rule=rule, category=category, strength="benign", quote=quote,
                                  detail=f"{category} words in {where} in benign context {' '.join(benign)!r}"))
        elif strong:
            found.append(Evidence(rule=rule, category=category, strength="strong", quote=quote,
                                  detail=f"{category} words in {where}"))
        elif intent or len(ambiguous) > 1:
            found.append(Evidence(rule=rule, category=category, strength="strong",
                                  quote=" ".join([*ambiguous, *intent]),
                                  detail=f"{category} words with commercial intent in {where}" if intent
                                  else f"several {category} words in {where}"))
        else:
            found.append(Evidence(rule=rule, category=category, strength="weak", quote=quote,
                                  detail=f"an ambiguous {category} word in {where}"))
    return found


def domain_evidence(site: str) -> list[Evidence]:
    """Everything the domain name alone says about a site."""
    parts = split_domain(site)
    label_tokens = [tokens(label) for label in (*parts.labels, parts.name) if label]
    label_chunks = [chunks(label) for label in (*parts.labels, parts.name) if label]
    suffix_labels = parts.suffix.split(".")
    context = {token for sequence in [*label_tokens, *label_chunks] for token in sequence}
    institutional = parts.suffix if INSTITUTIONAL_SUFFIX_LABELS & set(suffix_labels) else ""
    hits = lexicon_hits([*label_tokens, *label_chunks])
    found = content_evidence(hits, context, "domain-lexicon", f"the domain {parts.host!r}",
                             f".{institutional}" if institutional else "")
    if institutional:
        found.append(Evidence(rule="institutional-suffix", category="safe", strength="benign", quote=parts.suffix,
                              detail="an institutional public suffix"))
    found += _tld_evidence(suffix_labels[-1])
    found += _x_media_evidence(tokens(parts.name) if parts.name else [])
    found += _imageboard_evidence(tokens(parts.name) if parts.name else [])
    found += _infra_evidence(parts)
    found += _login_evidence(parts)
    return found


def _tld_evidence(tld: str) -> list[Evidence]:
    if tld not in CATEGORY_TLDS:
        return []
    return [Evidence(rule="category-tld", category=CATEGORY_TLDS[tld], strength="strong", quote=f".{tld}",
                     detail=f"the top-level domain of the {CATEGORY_TLDS[tld]} namespace")]


def _imageboard_evidence(name_tokens: list[str]) -> list[Evidence]:
    for before, token in pairwise(name_tokens):
        if before.isdigit() and token == IMAGEBOARD:
            return [Evidence(rule="imageboard-name", category="harmful", strength="weak", quote=before + token,
                             detail="a digit before 'chan', the naming of anonymous imageboards")]
    return []


def _x_media_evidence(name_tokens: list[str]) -> list[Evidence]:
    if len(name_tokens) >= 2 and name_tokens[0] in ("x", "xx") and singular(name_tokens[1]) in X_MEDIA:
        return [Evidence(rule="x-media", category="adult", strength="strong", quote=" ".join(name_tokens[:2]),
                         detail="'x' before a media word, the naming of adult video sites")]
    return []


def _infra_evidence(parts: DomainParts) -> list[Evidence]:
    found: list[Evidence] = []
    for label in parts.labels:
        for piece in chunks(label):
            if piece in INFRA_LABELS_STRONG or piece in INFRA_LABELS_WEAK:
                strength = "strong" if piece in INFRA_LABELS_STRONG else "weak"
                found.append(Evidence(rule="infra-label", category="api_cdn", strength=strength, quote=f"{label}.",
                                      detail="a host label used for machine endpoints or static assets"))
    platform_words = [word for label in (parts.platform_suffix or "").split(".")[:-1] for word in tokens(label)]
    words = [*tokens(parts.name), *platform_words] if parts.name else platform_words
    for word in dict.fromkeys(words):
        if word in INFRA_TOKENS:
            found.append(Evidence(rule="infra-name", category="api_cdn", strength="weak", quote=word,
                                  detail="an asset or API word in the domain name"))
    for phrase in INFRA_PHRASES:
        if _contains(words, phrase):
            found.append(Evidence(rule="infra-name", category="api_cdn", strength="weak", quote=" ".join(phrase),
                                  detail="a content-hosting or tag/ad-serving name"))
    if parts.is_platform_root:
        found.append(Evidence(rule="platform-suffix", category="api_cdn", strength="weak", quote=parts.host,
                              detail="the host is a platform's public suffix: customers' hosts live under it"))
    return found


def _login_evidence(parts: DomainParts) -> list[Evidence]:
    found: list[Evidence] = []
    account = bool(ACCOUNT_TOKENS & set(tokens(parts.name))) if parts.name else False
    for label in parts.labels:
        piece = chunks(label)[0] if chunks(label) else ""
        if piece in LOGIN_LABELS_STRONG or (piece in LOGIN_LABELS_WEAK and account):
            detail = ("a sign-in or webmail host label" if piece in LOGIN_LABELS_STRONG
                      else "an account host label in front of a bank")
            found.append(Evidence(rule="login-label", category="login", strength="strong", quote=f"{label}.",
                                  detail=detail))
        elif piece in LOGIN_LABELS_WEAK:
            found.append(Evidence(rule="login-label", category="login", strength="weak", quote=f"{label}.",
                                  detail="a host label often used for account areas"))
    return found
