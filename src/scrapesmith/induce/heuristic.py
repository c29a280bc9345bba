"""Heuristic induction: no LLM. Propose candidates on every seed, execute each on all seeds, rank.

Ranking is the deterministic half of AutoScraper's synthesis: a candidate that extracts on every seed page,
returns values of the field's type, one value per page (unless the field is multi-valued) and values that
change from page to page (data, not template) beats one that does not. The ranked list is also what the LLM
path chooses from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.induce.candidates import (
    CandidateKey,
    FieldCandidate,
    attribute_candidates,
    headline_candidates,
    page_title,
)
from scrapesmith.induce.cleaning import (
    SeedTexts,
    cleaning_variants,
    composite_whole,
    other_type,
    role_variant,
    template_affix,
)
from scrapesmith.induce.confidence import assessed
from scrapesmith.induce.execute import XPathSyntaxError, folded, normalize_space, post_process, run_actions
from scrapesmith.induce.field_evidence import FieldConcept, concepts_for
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.headline import HeadlineAnchor, template_headings, title_fit
from scrapesmith.induce.joined import cut_short, joined_candidates, text_part
from scrapesmith.induce.kinds import telling_check, with_unit
from scrapesmith.induce.labels import MAX_LABEL_CHARS, is_ui_text, label_candidates, text_label_candidates
from scrapesmith.induce.linked import link_candidates
from scrapesmith.induce.meant import meant_candidates, meant_labels
from scrapesmith.induce.pairs import section_candidates, unnamed_candidates
from scrapesmith.induce.ranking import field_phrases, judged, learned_order
from scrapesmith.induce.regions import PageRegions, own_url
from scrapesmith.induce.titles import title_cores
from scrapesmith.induce.typed import type_candidates
from scrapesmith.induce.value_facts import ValueFacts
from scrapesmith.induce.views import FieldRequest, FieldSpec, PostProcess, ScraperSpec

OUTSIDE_RECORD = 0.1
HARD_TYPE_MISS = 0.05
CLEANED = 0.98
TEMPLATED = 0.8
UNCHECKED_ROLES = 0.97
OTHER_ROLES = 0.7
FURNITURE = 0.0
WITH_CONTROLS = 0.85  # a list whose items include a page control ("See All Contributors"): the path without it wins
MIN_SCORE = 0.02
AVOIDED = 0.3
CONSTANT_HEADLINE = 0.1
CUT_SHORT = 0.9  # a piece of a value, where the seeds show all of it joined across inline markup
# a value the same on every seed: behind a label it may be data ("Type: Private"), found by its kind alone it
# is the site's own (its name in the banner, its head office's phone), and so is a link found by its address
# alone (a menu's "News" under ".../team?team=bos")
CONSTANT = {"label": 0.9, "meant": 0.9, "type": 0.3, "unnamed": 0.0, "linked": 0.0}
# behind a label in unknown words, a value is the field's only when most of the seeds' values have its telling look
TELLING_SHARE = 0.5
NAMING_HEADING = 0.5


def page_candidates(root: etree._Element, concept: FieldConcept, cores: Sequence[str] = (),
                    meant: dict[str, float] | None = None) -> list[FieldCandidate]:
    """Every candidate the evidence proposes for ``concept`` on one page (duplicates removed); ``cores`` are the
    page title's record parts (:func:`title_cores`), ``meant`` the template's labels that mean the field
    (:func:`meant.meant_labels`)."""
    found = label_candidates(root, concept) + text_label_candidates(root, concept) + attribute_candidates(root, concept)
    found += meant_candidates(root, concept, meant or {})
    if concept.headline:
        found += headline_candidates(root, concept, cores)
    found += link_candidates(root, concept)
    found += section_candidates(root, concept) + type_candidates(root, concept)
    found += joined_candidates(root, found)
    seen: dict[tuple[str, str | None, str | None], FieldCandidate] = {}
    for candidate in found:
        if candidate.key not in seen or candidate.prior > seen[candidate.key].prior:
            seen[candidate.key] = candidate
    return list(seen.values())


@dataclass
class ScoredCandidate:
    candidate: FieldCandidate
    values: list[list[str]]
    score: float
    support: int = 1
    notes: list[str] = field(default_factory=list)
    # each reason the score was multiplied by, kept apart: what the learned ranker reads (``ranking.py``)
    factors: dict[str, float] = field(default_factory=dict)
    learned: float | None = None
    # what the seed pages show about its node: the chosen candidate's, kept by ``ranking.learned_order``
    facts: ValueFacts = field(default_factory=ValueFacts)

    def weigh(self, name: str, factor: float) -> None:
        """Multiply the score by ``factor`` and remember it under ``name``."""
        self.score *= factor
        self.factors[name] = self.factors.get(name, 1.0) * factor

    def post(self, concept: FieldConcept) -> PostProcess:
        return PostProcess(regex=self.candidate.regex, multiple=concept.multiple or self.candidate.several,
                           split=self.candidate.split)


def _post(candidate: FieldCandidate, concept: FieldConcept) -> PostProcess:
    return PostProcess(regex=candidate.regex, multiple=True, split=candidate.split)


def _starts_with_label(value: str, labels: Sequence[str]) -> bool:
    lowered = value.lower()
    return any(lowered.startswith(label) and lowered[len(label):][:1] in (" ", ":") for label in labels if label)


def _names_field(values: Sequence[Sequence[str]], concept: FieldConcept) -> bool:
    """Is every seed's text the same and does it name the field ("Company Overview" for a company)? Then it
    is the field's heading, as is any part of it ("Overview" once the shared word is cut)."""
    flat = [v for page in values for v in page]
    if len(values) < 2 or len({tuple(page) for page in values}) != 1 or not flat:
        return False
    texts = [f" {' '.join(re.findall(r'[a-z0-9]+', v.lower()))} " for v in flat]
    return all(any(f" {label} " in text for label in concept.labels if label) for text in texts)


def score_candidate(candidate: FieldCandidate, concept: FieldConcept, seeds: Sequence[etree._Element],
                    titles: Sequence[str], cores: Sequence[Sequence[str]] = ()) -> ScoredCandidate:
    """Execute ``candidate`` on every seed page and turn what it returns into one score in [0, 1]."""
    try:
        values = [post_process(run_actions(root, [candidate.xpath]), _post(candidate, concept)) for root in seeds]
    except XPathSyntaxError:
        return ScoredCandidate(candidate, [], 0.0, notes=["invalid"])
    scored = ScoredCandidate(candidate, values, 0.0)
    flat = [v for page in values for v in page]
    if not flat:
        return scored
    coverage = sum(bool(page) for page in values) / len(values)
    fits = [concept.matches_type(with_unit(v, candidate.unit)) for v in flat]
    share = sum(bool(f) for f in fits) / len(fits)
    if fits[0] is None:
        type_fit = 1.0
    elif concept.hard_type:
        type_fit = (0.05 + sum(bool(f) for f in fits)) / (0.05 + len(fits))
    else:  # a soft kind (a name, a category) weighs in behind a label or a class, never rules out
        type_fit = 0.4 + 0.6 * share
    # a value found only by its kind must all be of it: one heading that reads like a name is no author list
    if fits[0] is not None and (concept.hard_type or candidate.evidence == "type") and not all(fits):
        type_fit *= HARD_TYPE_MISS  # an ISBN-10 is not an ISBN-13, "Paperback" is not a date
    if (fits[0] is None or not concept.hard_type) and not concept.headline:
        type_fit *= other_type([with_unit(v, candidate.unit) for v in flat])
    type_fit *= composite_whole(flat, concept, seeds, candidate.xpath)
    if candidate.evidence == "unnamed":
        telling = telling_check(concept.kind)
        if telling is None or sum(bool(telling(v)) for v in flat) <= TELLING_SHARE * len(flat):
            type_fit = 0.0
    mean_count = len(flat) / max(1, sum(bool(page) for page in values))
    cardinality = 1.0 / mean_count
    if concept.multiple or candidate.several:  # several values are expected, but a list of dozens is a page section
        cardinality = (1 + 0.05 * min(mean_count - 1, 2)) if mean_count <= 6 else 6 / mean_count
    too_long = sum(len(v) > concept.max_length for v in flat) / len(flat)
    distinct = len({tuple(page) for page in values})
    variation = 1.0 if len(values) < 2 or distinct > 1 else CONSTANT.get(candidate.evidence, 0.5)
    if concept.headline and distinct == 1 and len(values) > 1:
        variation = CONSTANT_HEADLINE  # every page is another record: its name cannot be the same on all
    elif (candidate.evidence == "type" and not concept.hard_type and len(values) > 1
          and len({frozenset(page) for page in values}) == 1):
        # only a loose look ("reads like a name") and the same texts on every record, however many times
        # each prints them ("FREE Super Saver Shipping" under each offer): page furniture
        variation = 0.0
    elif _names_field(values, concept):
        variation *= NAMING_HEADING  # "Company Overview" on every record: the field's heading, not its value
    headline = 1.0
    if concept.headline:
        cores = list(cores) or [()] * len(titles)
        fits = [title_fit(page, t, c) for page, t, c in zip(values, titles, cores, strict=True) if page]
        headline = sum(fits) / len(fits)
    avoided = 0.3 if concept.avoided(candidate.xpath + " " + " ".join(flat[:5])) else 1.0
    # a path that starts by testing every text node or element is 2-3x slower to replay than one that starts
    # from a tag, and bare text labels repeat more often; it wins only when nothing cheaper does as well
    scan = 0.8 if candidate.xpath.startswith(("//text()", "//*")) else 1.0
    # "Posted June 5, 2024": the value still carries its label, so a path to the bare value is better
    labelled = 0.8 if all(_starts_with_label(v, concept.labels) for v in flat) else 1.0
    controls = sum(is_ui_text(v) for v in flat)  # "(more)", "See all": links, not values
    furniture = FURNITURE if controls == len(flat) else WITH_CONTROLS if controls else 1.0
    scored.factors = {"prior": candidate.prior, "coverage": coverage**2, "type": type_fit,
                      "cardinality": cardinality, "short": 1 - too_long, "variation": variation,
                      "headline": headline, "avoided": avoided, "scan": scan, "labelled": labelled,
                      "furniture": furniture}
    scored.score = 1.0
    for factor in scored.factors.values():
        scored.score *= factor
    scored.notes = [f"coverage={coverage:.2f}", f"type={type_fit:.2f}", f"per-page={mean_count:.1f}",
                    f"varies={distinct > 1}"]
    return scored


def rank_candidates(concept: FieldConcept, seeds: Sequence[etree._Element],
                    urls: Sequence[str] = ()) -> list[ScoredCandidate]:
    """All candidates from all seeds, scored on all seeds, best first (ties: more support, shorter path).

    ``urls`` (the seeds' own addresses, when known) let a region that links to other pages shaped like
    this one be recognised as other records, not this page's.
    """
    support: dict[CandidateKey, int] = {}
    pool: dict[CandidateKey, FieldCandidate] = {}
    cores = title_cores([folded(page_title(root)) for root in seeds])
    meant = meant_labels(seeds, concept, field_phrases(concept))
    for root, page_cores in zip(seeds, cores, strict=True):
        for candidate in page_candidates(root, concept, page_cores, meant):
            key = candidate.key
            support[key] = support.get(key, 0) + 1
            if key not in pool or candidate.prior > pool[key].prior:
                pool[key] = candidate
    unnamed = [c for c in unnamed_candidates(seeds, concept) if c.key not in pool]
    for candidate in unnamed:
        pool[candidate.key], support[candidate.key] = candidate, len(seeds)
    ranked = rank_pool(pool, support, concept, seeds, urls)
    keys = {c.key for c in unnamed}
    readings = {tuple(map(tuple, s.values)) for s in ranked if s.candidate.key in keys}
    if len(readings) > 1:  # several pairs read as the field (a director, writers, stars): only a label could tell
        ranked = [s for s in ranked if s.candidate.evidence != "unnamed"]
    return learned_order([s for s in ranked if trusted(s, len(seeds))], concept, seeds) + [
        s for s in ranked if not trusted(s, len(seeds))]


def rank_pool(pool: dict[CandidateKey, FieldCandidate], support: dict[CandidateKey, int], concept: FieldConcept,
              seeds: Sequence[etree._Element], urls: Sequence[str] = ()) -> list[ScoredCandidate]:
    """``pool`` (each candidate with the number of seeds that proposed it) scored on every seed with its
    cleaned variants, in the page's own record or not, best first: the one ranking every proposal goes
    through, whoever proposed it."""
    pool = dict(pool)
    titles = [folded(page_title(root)) for root in seeds]
    cores = title_cores(titles)
    template = template_headings(seeds)
    anchors = [HeadlineAnchor.of(root, title, template) for root, title in zip(seeds, titles, strict=True)]
    regions = [PageRegions.of(root, anchor.heading, own_url(root, url))
               for root, anchor, url in zip(seeds, anchors, [*urls, *[""] * len(seeds)], strict=False)]
    ranked = []
    texts = SeedTexts(seeds)
    for key, candidate in list(pool.items()):
        scored = score_candidate(candidate, concept, seeds, titles, cores)
        scored.support = support[key]
        if candidate.regex is None and template_affix(scored.values, concept, texts):
            scored.weigh("templated", TEMPLATED)  # "Glacier BrewHouse Review": the shared word is the template's
        role = role_variant(candidate, seeds, concept)
        if role is not None and role.key not in pool:
            pool[role.key] = role
            checked = score_candidate(role, concept, seeds, titles, cores)
            checked.support = scored.support
            ranked.append(_scoped(checked, concept, anchors, regions))
            # the same values without the check that their role is the field; values of other roles on the seeds
            scored.weigh("roles", UNCHECKED_ROLES if checked.values == scored.values else OTHER_ROLES)
        for variant in cleaning_variants(candidate, scored.values, concept, texts):
            if variant.key not in pool:
                pool[variant.key] = variant
                cleaned = score_candidate(variant, concept, seeds, titles, cores)
                cleaned.support = scored.support
                cleaned.weigh("cleaned", CLEANED)  # a path to the bare value, when there is one, beats a regex
                if _names_field(scored.values, concept) and not _names_field(cleaned.values, concept):
                    cleaned.weigh("naming", NAMING_HEADING)
                ranked.append(_scoped(cleaned, concept, anchors, regions))
        ranked.append(_scoped(scored, concept, anchors, regions))
    ranked = [s for s in ranked if s.score > 0]
    wholes = [s.values for s in ranked if text_part(s.candidate.xpath)]
    headline_titles = titles if concept.headline else None
    for scored in ranked:  # "Arctic Blvd." after a label whose text "2477 " runs into it: the value's end
        if text_part(scored.candidate.xpath) is None and any(cut_short(scored.values, w, headline_titles)
                                                              for w in wholes):
            scored.weigh("cut short", CUT_SHORT)
    ranked.sort(key=lambda s: (-round(s.score, 6), -s.support, *_fragility(s.candidate), s.candidate.xpath))
    return ranked


def _fragility(candidate: FieldCandidate) -> tuple[int, int, int]:
    """Of paths that read the same on every seed, the one likeliest to read the same on the next page: fewest
    positions (a row's number moves when a record lacks a fact), then, for a value found by its look alone,
    one anchored on an id, class or text over a bare tag (the seeds' only ``<b>`` need not be the only one on
    the next page), then the shortest."""
    xpath = candidate.xpath
    bare = candidate.evidence == "type" and "[" not in xpath
    positions = len(re.findall(r"/[\w-]+\[\d+\]|(?<!::)text\(\)\[\d+\]|::text\(\)\[(?:[2-9]|\d\d+)\]", xpath))  # a block's 4th line, too
    return positions, int(bare), len(xpath)


def _scoped(scored: ScoredCandidate, concept: FieldConcept, anchors: Sequence[HeadlineAnchor],
            regions: Sequence[PageRegions]) -> ScoredCandidate:
    """Main-record scoping: values near the page's main heading win, values in chrome or in another
    record's region (a sidebar of related items) lose."""
    if scored.score <= 0:
        return scored
    candidate = scored.candidate
    if candidate.evidence == "type" and not concept.headline:
        scored.weigh("closeness", sum(a.closeness(candidate.xpath) for a in anchors) / len(anchors))
    outside, distractors = [], 0
    for region in regions:
        nodes = value_nodes(region.root, candidate.xpath)
        reason = region.reason(nodes[0]) if nodes else None
        if reason:
            outside.append(reason)
        if nodes and concept.avoid and concept.avoided(label_before(nodes[0])):
            distractors += 1
    if outside:
        scored.weigh("outside", OUTSIDE_RECORD ** (len(outside) / len(regions)))
        scored.notes.append(f"outside the record: {outside[0]}")
    if distractors:  # "You Save: $50.99", "List Price: $179.99": the page's own label names a distractor
        scored.weigh("distractor", AVOIDED ** (distractors / len(regions)))
        scored.notes.append("labelled as a distractor")
    return scored


def label_before(node: etree._Element) -> str:
    """The short text right before a value node, or before the cell that holds it: where its label is."""
    for element in (node, node.getparent()):
        previous = element.getprevious() if element is not None else None
        if previous is not None and isinstance(previous.tag, str):
            text = normalize_space(previous.text_content())
            if text:
                return text[:MAX_LABEL_CHARS]
    return ""


def trusted(scored: ScoredCandidate, seeds: int) -> bool:
    """Is the candidate worth a field: it extracts on most seed pages and its evidence is not all but gone?
    One that works on a third of the seeds, or only by its values' look far from the record, is chance;
    an empty field says so where a wrong value would not."""
    return scored.score >= MIN_SCORE and sum(bool(page) for page in scored.values) * 2 > seeds


def field_spec_from(request: FieldRequest, concept: FieldConcept, best: ScoredCandidate | None) -> FieldSpec:
    if best is None:
        return FieldSpec(name=request.name, instruction=request.instruction, actions=[],
                         post=PostProcess(multiple=concept.multiple), evidence="no candidate found")
    confidence, doubt = judged(best, concept)
    return FieldSpec(
        name=request.name,
        instruction=request.instruction,
        actions=[best.candidate.xpath],
        post=best.post(concept),
        evidence=f"{best.candidate.evidence} score={best.score:.3f} " + " ".join(best.notes),
        confidence=confidence,
        doubt=doubt,
    )


def induce_heuristic(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], site: str = "",
                     seed_names: Sequence[str] = ()) -> ScraperSpec:
    """A spec from seed pages and instructions alone: the no-LLM path, end to end."""
    fields = []
    for request, concept in zip(requests, concepts_for(requests), strict=True):
        ranked = [s for s in rank_candidates(concept, seeds, seed_names) if trusted(s, len(seeds))]
        fields.append(assessed(field_spec_from(request, concept, ranked[0] if ranked else None), ranked, concept))
    return ScraperSpec(site=site, method="heuristic", seeds=list(seed_names), fields=fields)
