"""``bench drift --lists``: list programs recorded on real NEXT-EVAL pages, replayed after layout mutations.

For every page: record a list program heuristically (goal "records", columns Title and URL, no model) with
its profile; its rows are the *reference*. For every mutation and seed, the page is changed and the program
replayed on it. A program is *drifted* when its rows fall under F1 0.95 against the reference (rows compared
as a multiset: a list shown in another order holds the same records); the check should flag exactly those.
Heal records the list again on the changed page (:mod:`scrapesmith.lists.heal`); healed when the new
version's rows are back to F1 >= 0.95. A page the recorder finds no list on is counted, not hidden.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scrapesmith.dom import mutate_page
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists import check_replay, extract_list, heal_list_program, http_runtimes, replay_program
from scrapesmith.llm import Ledger, use_ledger
from scrapesmith.web import FileFetcher

COLUMNS = ["Title", "URL"]
HEALED_F1 = 0.95


def rows_f1(rows: Sequence[dict], reference: Sequence[dict]) -> float:
    got = Counter(tuple(str(r.get(c) or "") for c in COLUMNS) for r in rows)
    want = Counter(tuple(str(r.get(c) or "") for c in COLUMNS) for r in reference)
    if not want:
        return 1.0 if not got else 0.0
    correct = sum((got & want).values())
    if not correct:
        return 0.0
    precision, recall = correct / sum(got.values()), correct / sum(want.values())
    return 2 * precision * recall / (precision + recall)


def run_page(page: Path, mutations: Sequence[str], seeds: Sequence[int], work: Path) -> list[dict[str, Any]]:
    runtimes = http_runtimes(FileFetcher())
    recording, first = extract_list(runtimes, str(page), "records", COLUMNS)
    program, reference = recording.program, first.rows
    unchanged = check_replay(program, replay_program(runtimes, program, start_url=str(page)))
    cases = [{"page": page.name, "mutation": "none", "seed": 0, "items": len(reference), "drifted": False,
              "detected": unchanged.drifted, "evidence": [d.evidence for d in unchanged.drifts]}]
    text = page.read_text(encoding="utf-8", errors="replace")
    for mutation in mutations:
        for seed in seeds:
            changed = work / f"{page.stem}-{mutation}-{seed}.html"
            changed.write_text(mutate_page(text, mutation, seed), encoding="utf-8")
            replayed = replay_program(runtimes, program, start_url=str(changed))
            before = rows_f1(replayed.rows, reference)
            check = check_replay(program, replayed)
            started = time.perf_counter()
            with use_ledger(Ledger()) as ledger:
                try:
                    healed = heal_list_program(program, runtimes, start_url=str(changed))
                    after_rows = (replay_program(runtimes, healed.program, start_url=str(changed)).rows
                                  if healed.needed and healed.healed else replayed.rows)
                except ScrapesmithError:
                    after_rows = replayed.rows
            after = rows_f1(after_rows, reference)
            cases.append({"page": page.name, "mutation": mutation, "seed": seed, "items": len(reference),
                          "drifted": before < HEALED_F1, "detected": check.drifted,
                          "evidence": [d.evidence for d in check.drifts], "f1_before": round(before, 4),
                          "f1_after_heal": round(after, 4), "healed": before < HEALED_F1 and after >= HEALED_F1,
                          "heal_seconds": round(time.perf_counter() - started, 3), "model_calls": len(ledger)})
    return cases


def run_lists(pages: Sequence[Path], mutations: Sequence[str], seeds: Sequence[int],
              progress: Callable[[str], None]) -> tuple[list[dict], dict[str, Any]]:
    """Every page's cases, and the summary (pages without a recordable list counted in it)."""
    cases, unrecorded = [], []
    with tempfile.TemporaryDirectory(prefix="drift-lists-") as work:
        for page in pages:
            try:
                cases += run_page(page, mutations, seeds, Path(work))
            except ScrapesmithError as exc:
                unrecorded.append({"page": page.name, "error": str(exc).splitlines()[0]})
            progress(f"lists: {page.name} done ({len(cases)} cases, {len(unrecorded)} pages without a list)")
    unchanged = [c for c in cases if c["mutation"] == "none"]
    mutated = [c for c in cases if c["mutation"] != "none"]
    drifted = [c for c in mutated if c["drifted"]]
    share = (lambda part, whole: round(part / whole, 4) if whole else 1.0)
    summary = {
        "list_pages": len(pages), "list_pages_without_list": len(unrecorded), "list_programs": len(mutated),
        "list_drifted": len(drifted), "list_detection_recall": share(sum(c["detected"] for c in drifted), len(drifted)),
        "list_false_alarms_unchanged": sum(c["detected"] for c in unchanged), "list_unchanged_runs": len(unchanged),
        "list_alarms_on_harmless_changes": sum(c["detected"] for c in mutated if not c["drifted"]),
        "list_healed_share": share(sum(c["healed"] for c in drifted), len(drifted)),
        "list_model_calls": sum(c["model_calls"] for c in mutated),
        "list_seconds_per_heal": round(sum(c["heal_seconds"] for c in mutated) / max(1, len(mutated)), 3),
    }
    return cases, {"summary": summary, "unrecorded": unrecorded}
