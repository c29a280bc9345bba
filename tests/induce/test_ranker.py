"""The learned ranker as it runs in the product: a small JSON model evaluated in numpy, no scikit-learn.

The shipped file (``induce/data/ranker.json``) records the command that retrains it and where its training
rows are kept; a tree model gives what scikit-learn's gradient boosting gives for the same trees.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.induce import SHIPPED_RANKER, RankerModel
from scrapesmith.induce.ranking import shipped_ranker

REPO = Path(__file__).resolve().parents[2]

# two stumps on feature "a" and one on "b" (scikit-learn's array layout: -1 marks a leaf)
TREES = {"kind": "trees", "features": ["a", "b"], "base": -0.5, "rate": 0.1, "trees": [
    {"feature": [0, -2, -2], "threshold": [1.5, -2, -2], "left": [1, -1, -1], "right": [2, -1, -1],
     "value": [0.0, -1.0, 2.0]},
    {"feature": [1, -2, -2], "threshold": [0.0, -2, -2], "left": [1, -1, -1], "right": [2, -1, -1],
     "value": [0.0, 0.5, -0.5]}]}
LINEAR = {"kind": "linear", "features": ["a", "b"], "mean": [1.0, 0.0], "scale": [2.0, 1.0],
          "weights": [1.0, -0.5], "bias": 0.25, "threshold": 0.4}


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def test_a_tree_model_walks_each_tree_and_sums_the_leaves():
    model = RankerModel(TREES)
    assert model.probability({"a": 1.0, "b": 0.0}) == pytest.approx(sigmoid(-0.5 + 0.1 * (-1.0 + 0.5)))
    assert model.probability({"a": 2.0, "b": 1.0}) == pytest.approx(sigmoid(-0.5 + 0.1 * (2.0 - 0.5)))
    # a feature the row lacks reads 0.0; many rows at once give the same as one at a time
    rows = [{"a": 3.0}, {"b": 5.0}, {"a": 1.0, "b": -1.0}]
    assert list(model.probabilities(rows)) == pytest.approx([model.probability(r) for r in rows])
    assert model.threshold == 0.5 and model.orders


def test_a_linear_model_standardises_then_weighs():
    model = RankerModel(LINEAR)
    assert model.probability({"a": 3.0, "b": 2.0}) == pytest.approx(sigmoid(0.25 + 1.0 * 1.0 - 0.5 * 2.0))
    assert model.threshold == 0.4


def test_the_shipped_ranker_records_how_it_was_trained_and_is_small():
    model = shipped_ranker()
    assert model is not None and SHIPPED_RANKER.is_file()
    assert SHIPPED_RANKER.stat().st_size < 200_000
    trained = model.data["trained"]
    assert trained["command"].startswith("scrapesmith bench swde-ranker")
    assert (REPO / trained["data"]).is_file()  # the rows it was fitted on are kept in the repository
    assert len(trained["sites"]) >= 16 and trained["rows"] > 100
    assert 0.0 < model.threshold < 1.0
    assert set(model.features) >= {"meaning of label before", "same on every seed", "score vs best"}
    assert not any(site.split("-", 1)[-1] in name for name in model.features for site in trained["sites"])


def test_inducing_with_the_shipped_ranker_needs_no_scikit_learn():
    code = ("import sys; from scrapesmith.induce import induce_scraper, FieldRequest, parse_for_replay;"
            "pages = [parse_for_replay(f'<html><body><h1>Item {i}</h1><p>Price: ${i}.99</p></body></html>') "
            "for i in range(3)];"
            "spec = induce_scraper([FieldRequest('price', 'the price')], pages, method='heuristic');"
            "f = spec.field('price'); print(json.dumps([f.actions, f.confidence, 'sklearn' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", "import json;" + code], capture_output=True, text=True, check=True)
    actions, confidence, imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert actions and confidence is not None and 0.0 <= confidence <= 1.0
    assert imported is False
