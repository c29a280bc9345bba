"""``bench swde-choose-gate``: fit where ``--method choose`` may ask the model, and measure it held out.

Input: two ``bench swde`` results on the same sites, seeds and commit — the chooser with every path open
(``--method choose --open-gates``) and the evidence alone (``--method heuristic``). A closed path keeps the
evidence's own choice, which is the heuristic's field exactly, so a gate's figure on a site is each field's
case from the open run where its path is open and from the heuristic run where it is not.

A path opens on a set of sites when the model's choices on it turned more fields Correct than they turned
wrong (ties: a higher summed F1) *and* that help shows left one site out among them: each site scored under
the path as fitted without it, none falls below the evidence alone (Correct and F1) and together they gain. A
path that helped on most sites but would have been opened blind on one it harmed stays closed (the model is
dropped wherever it makes a figure worse than the evidence alone), and so does one whose every gain is on a
single site (nothing shows it helps on a site it was not fitted on). The leave-one-site-out figure fits the whole rule (both steps)
on the other sites for each site in turn; the in-sample one on all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

from scrapesmith.induce import GATE_PATH, GATED_PATHS

ASKED = ", model asked"


def asked_path(case: dict) -> str | None:
    """The gated path a case of the open run asked the model on, or None."""
    path = case.get("path") or ""
    return path[: -len(ASKED)] if path.endswith(ASKED) and path[: -len(ASKED)] in GATED_PATHS else None


def path_gains(asked: Sequence[dict], evidence: dict[tuple[str, str], dict], sites: Iterable[str] | None = None) -> dict:
    """Per gated path: fields asked, how many the model's choice made Correct and how many it made wrong
    (against the evidence alone), and the summed F1 change."""
    keep = set(sites) if sites is not None else None
    gains = {path: {"fields": 0, "right": 0, "wrong": 0, "f1": 0.0} for path in GATED_PATHS}
    for case in asked:
        path = asked_path(case)
        if path is None or (keep is not None and case["site"] not in keep):
            continue
        before = evidence[(case["site"], case["attribute"])]
        row = gains[path]
        row["fields"] += 1
        row["right"] += case["category"] == "correct" and before["category"] != "correct"
        row["wrong"] += case["category"] != "correct" and before["category"] == "correct"
        row["f1"] = round(row["f1"] + case["f1"] - before["f1"], 4)
    return gains


def opened(gains: dict) -> list[str]:
    """The paths where the model did more good than harm."""
    return [p for p, g in gains.items() if g["right"] > g["wrong"] or (g["right"] == g["wrong"] and g["f1"] > 0)]


def held_paths(asked: Sequence[dict], evidence: dict[tuple[str, str], dict], sites: Sequence[str]) -> list[str]:
    """The paths :func:`opened` opens on ``sites`` whose help shows left one site out among them: each site
    scored under the path as fitted on the others, none falls below the evidence alone (Correct or F1), and
    together they gain (more fields made right than wrong; a tie, a higher F1). A path whose every gain is on
    one site shows none held out and stays closed."""
    kept = []
    for path in opened(path_gains(asked, evidence, sites)):
        held = [path_gains(asked, evidence, [site])[path] for site in sites
                if path in opened(path_gains(asked, evidence, [s for s in sites if s != site]))]
        total = {"right": sum(g["right"] for g in held), "wrong": sum(g["wrong"] for g in held),
                 "f1": sum(g["f1"] for g in held)}
        if opened({path: total}) and not any(g["right"] < g["wrong"] or g["f1"] < -1e-9 for g in held):
            kept.append(path)
    return kept


def gated_cases(asked: Sequence[dict], evidence: dict[tuple[str, str], dict], open_paths: Iterable[str]) -> list[dict]:
    paths = set(open_paths)
    return [case if asked_path(case) in paths else evidence[(case["site"], case["attribute"])] for case in asked]


def figures(cases: Sequence[dict]) -> dict[str, float]:
    total = len(cases) or 1
    return {"correct_ratio": round(sum(c["category"] == "correct" for c in cases) / total, 4),
            "f1": round(sum(c["f1"] for c in cases) / total, 4), "cases": len(cases)}


def evaluate(asked_result: dict, evidence_result: dict) -> dict:
    """Per site and overall: the evidence alone, every path open, the gate fitted on all sites (in-sample)
    and the gate fitted without the site (leave-one-site-out); the paths each opened and how often each was
    taken."""
    asked, evidence = asked_result["cases"], {(c["site"], c["attribute"]): c for c in evidence_result["cases"]}
    sites = list(dict.fromkeys(c["site"] for c in asked))
    gains = path_gains(asked, evidence)
    shipped = held_paths(asked, evidence, sites)
    rows, held_out = [], []
    for site in sites:
        fold = held_paths(asked, evidence, [s for s in sites if s != site])
        mine = [c for c in asked if c["site"] == site]
        held = gated_cases(mine, evidence, fold)
        held_out += held
        rows.append({"site": site, "evidence": figures([evidence[(c["site"], c["attribute"])] for c in mine]),
                     "open": figures(mine), "in_sample": figures(gated_cases(mine, evidence, shipped)),
                     "loso": figures(held), "loso_open_paths": fold,
                     "asked": sum(asked_path(c) in fold for c in mine)})
    return {"open_paths": shipped, "majority_paths": opened(gains), "gains": gains, "sites": rows,
            "overall": {"evidence": figures(list(evidence.values())), "open": figures(asked),
                        "in_sample": figures(gated_cases(asked, evidence, shipped)), "loso": figures(held_out)}}


def write_gate(evaluation: dict, command: str, path: Path = GATE_PATH) -> None:
    """The shipped gate: the open paths, what each path did on the development sites, how it was made."""
    path.write_text(json.dumps({"open": evaluation["open_paths"], "gains": evaluation["gains"],
                                "fitted_on": [row["site"] for row in evaluation["sites"]],
                                "command": command, "date": date.today().isoformat()}, indent=1) + "\n",
                    encoding="utf-8")
