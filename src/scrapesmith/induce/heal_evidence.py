"""Heal a field whose seed values are gone from the pages (a relabelled field, a new number format): the
forging engine's evidence proposes, the old profile checks, and the model only chooses where it is split.

With its seed values gone, a field has nothing to be matched against. What remains is what induce forges any
field from — its name and instruction as labels, the kind of value it asks for, where on the page such
values are (:func:`heuristic.rank_candidates`) — and what the old profile says its output looked like.
Every candidate must pass the profile's hard checks on the pages as they are now: filled where the field
was always filled, of the kind most of its values had, without a label of its own in front where its values
had none ("Fax: …" for a phone), of a length within the drift check's bounds. Of those
that pass, the evidence's best is kept when it leads clearly or no model is given; otherwise the model
copies one option from an enum (:func:`choose.choose_candidate`: one call per field, JSON-schema grammar) or
rejects them all. The model never sees an option that fails a hard check, so it cannot overrule one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from scrapesmith.drift import LENGTH_FACTOR, LENGTH_SLACK, ColumnProfile
from scrapesmith.induce.candidates import page_title
from scrapesmith.induce.choose import choose_candidate
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.execute import folded
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heal_candidates import reanchored
from scrapesmith.induce.heuristic import (
    ScoredCandidate,
    field_spec_from,
    rank_candidates,
    score_candidate,
    trusted,
)
from scrapesmith.induce.views import FieldRequest, FieldSpec
from scrapesmith.llm import LLM

LABEL_PREFIX = re.compile(r"^[^\W\d][\w .'/-]{0,30}:\s")
"""A value that starts with its own label ("Fax: …", "Publisher: …")."""


def _labelled(values: Sequence[str]) -> bool:
    """Most of ``values`` carry a label of their own in front."""
    return bool(values) and sum(bool(LABEL_PREFIX.match(value)) for value in values) > len(values) / 2


def fits_profile(scored: ScoredCandidate, column: ColumnProfile) -> bool:
    """The hard checks: the candidate's values on the pages look like the column's forged output."""
    firsts = [page[0] for page in scored.values if page]
    if not firsts or (column.filled == column.pages and len(firsts) < len(scored.values)):
        return False
    kind = column.main_kind
    if kind is not None and any(kind_of(value) != kind for value in firsts):
        return False
    if _labelled(firsts) and not _labelled([value for values in column.seed_values for value in values]):
        return False  # "Fax: (719) 587-7522" for a field that read "(719) 587-7011": another labelled value
    if column.lengths:
        shortest, longest = min(column.lengths), max(column.lengths)
        return all(shortest / LENGTH_FACTOR <= len(v) <= longest * LENGTH_FACTOR + LENGTH_SLACK for v in firsts)
    return True


def relocate_by_evidence(spec_field: FieldSpec, column: ColumnProfile, pages: Sequence[etree._Element],
                         llm: LLM | None) -> tuple[FieldSpec | None, str]:
    """The field found again without its seed values, or None; and how (for the heal's detail line)."""
    request = FieldRequest(spec_field.name, spec_field.instruction)
    concept = concept_for(spec_field.name, spec_field.instruction)
    ranked = [s for s in rank_candidates(concept, pages) if trusted(s, len(pages)) and fits_profile(s, column)]
    if not ranked:  # a label renamed to words nothing matches ("Publisher:" -> "Item 46f67e:"): the old place
        titles = [folded(page_title(root)) for root in pages]
        old = spec_field.actions[-1] if spec_field.actions else ""
        ranked = [s for s in (score_candidate(c, concept, pages, titles) for c in reanchored(old, pages, "label"))
                  if len({tuple(v) for v in s.values}) > 1 and fits_profile(s, column)]
        if len(ranked) > 1 and llm is None:
            return None, (f"its seed values are not on the pages; {len(ranked)} relabelled places look like "
                          "its old output (a model may choose)")
    if not ranked:
        return None, "its seed values are not on the pages, and no candidate looks like its old output"
    if llm is None:
        chosen, how = ranked[0], f"the evidence's best of {len(ranked)} that look like its old output (no model)"
    else:
        choice = choose_candidate(llm, request, concept, ranked, pages)
        chosen, how = choice.chosen, choice.reason
    if chosen is None:
        return None, f"its seed values are not on the pages; {how}"
    found = field_spec_from(request, concept, chosen)
    post = found.post.model_copy(update={"multiple": spec_field.post.multiple or found.post.multiple})
    return found.model_copy(update={"post": post, "evidence": f"healed without seed values: {how}; "
                                                              f"{found.evidence}"}), how
