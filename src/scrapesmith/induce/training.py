"""What the learned ranker is trained on: a field's candidates as induction sees them, ready to be labelled.

``bench swde-ranker`` (and ``bench swde --loso``) label each candidate by how its field would score on pages
the seeds are not; this gives them exactly what induction weighs — the trusted candidates in hand-weighted
order, their features (:func:`ranking.described`) and the field spec each would become.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import field_spec_from, rank_candidates, trusted
from scrapesmith.induce.ranking import CONSIDERED, described, use_ranker
from scrapesmith.induce.views import FieldRequest, FieldSpec


def described_candidates(request: FieldRequest, seeds: Sequence[etree._Element],
                         seed_names: Sequence[str] = ()) -> list[tuple[FieldSpec, dict[str, float]]]:
    """The field's first :data:`ranking.CONSIDERED` trusted candidates (hand-weighted order, no model), each
    as the field spec it would give and its features."""
    concept = concept_for(request.name, request.instruction)
    with use_ranker(None):
        ranked = [s for s in rank_candidates(concept, seeds, seed_names) if trusted(s, len(seeds))][:CONSIDERED]
    return [(field_spec_from(request, concept, scored), features)
            for scored, features in zip(ranked, described(ranked, concept, seeds), strict=True)]
