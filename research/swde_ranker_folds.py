"""How far the learned ranker can go, from its training rows alone (no induction rerun).

Reads the rows ``scrapesmith bench swde-ranker`` keeps (every site-field's first trusted candidates, each
with its features and its strict F1 on the site's test pages) and prints, per site and overall:

- hand: the hand-weighted first candidate (what ``--method heuristic`` picks with no model);
- loso: the candidate a model fitted without the site ranks first (``orders`` as the inner folds decide);
- ceiling: whether any considered candidate is Correct (no ranker can do better than this);
- flags: the held-out probability of the chosen value against the threshold the training sites chose.

A field with no trusted candidate counts as empty (Correct only when its truth is empty on every test page,
which the rows cannot tell, so it counts as wrong here). ``python research/swde_ranker_folds.py ROWS [--fields N]``.

Journal: docs/journal/benchmarks.md, "Issue 41 (2026-12-06): leave one site out on 16 SWDE sites, the learned ranker, confidence".
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from scrapesmith.bench.swde_ranker import field_choices, fit_ranker, inner_folds, load_rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rows", type=Path)
    parser.add_argument("--fields", type=int, default=65, help="site-fields in all (those with no candidate count empty)")
    parser.add_argument("--no-inner", action="store_true", help="skip the inner folds (orders=True, threshold 0.5)")
    args = parser.parse_args()
    rows = load_rows(args.rows)
    sites = sorted({r.site for r in rows})
    totals: dict[str, float] = defaultdict(float)
    flags = {"wrong": 0, "wrong_flagged": 0, "right": 0, "right_flagged": 0}
    print(f"{'site':28} {'fields':>6} {'ceil':>5} {'hand':>5} {'loso':>5} {'handF1':>7} {'losoF1':>7}")
    for site in sites:
        train = [r for r in rows if r.site != site]
        held = [r for r in rows if r.site == site]
        if args.no_inner:
            orders, threshold, margin = True, 0.5, 0.0
        else:
            inner = inner_folds(train)
            orders, threshold, margin = inner.orders, inner.threshold, inner.margin
        model = fit_ranker(train, threshold, orders)
        model.data["margin"] = margin
        by_hand = field_choices(held, None)
        by_model = field_choices(held, model)
        fields = {r.field for r in held}
        ceiling = sum(any(r.correct for r in held if r.field == f) for f in fields)
        hand = sum(r.correct for r in by_hand.values())
        loso = sum(r.correct for r in by_model.values())
        hand_f1 = sum(r.f1 for r in by_hand.values())
        loso_f1 = sum(r.f1 for r in by_model.values())
        for row in by_model.values():
            flagged = model.probability(row.features) < model.threshold
            if row.correct:
                flags["right"] += 1
                flags["right_flagged"] += flagged
            elif row.f1 < 0.99995:
                flags["wrong"] += 1
                flags["wrong_flagged"] += flagged
        print(f"{site:28} {len(fields):6} {ceiling:5} {hand:5} {loso:5} {hand_f1:7.2f} {loso_f1:7.2f}"
              f"  orders={orders} margin={margin} threshold={threshold:.3f}")
        for name, value in (("fields", len(fields)), ("ceiling", ceiling), ("hand", hand), ("loso", loso),
                            ("hand_f1", hand_f1), ("loso_f1", loso_f1)):
            totals[name] += value
    n = args.fields
    print(f"over {n} site-fields: ceiling {totals['ceiling'] / n:.3f}; hand Correct {totals['hand'] / n:.3f} "
          f"F1 {totals['hand_f1'] / n:.3f}; LOSO Correct {totals['loso'] / n:.3f} F1 {totals['loso_f1'] / n:.3f}")
    print(f"flags (LOSO model, threshold only): wrong {flags['wrong_flagged']}/{flags['wrong']}, "
          f"right {flags['right_flagged']}/{flags['right']}")


if __name__ == "__main__":
    main()
