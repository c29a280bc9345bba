"""Which site-attributes a template change costs: from a ``bench swde --mutate … --json`` file, every
site-attribute that is Correct on the unmutated pages and not Correct under some (kind, seed) draw, with the
draws and categories; given a second file (the same command after a change), what each of those became.

    python research/swde_mutation_anatomy.py bench/results/swde-issue28d-mutated-before.json \
        --after bench/results/swde-issue28d-mutated-after.json --hold-out nbaplayer,restaurant

``--every`` also lists the site-attributes that are not Correct unmutated (a truth fault, a field never
found), so a vertical's whole picture reads in one listing. Sites of held-out verticals are left out of the listing (only their totals are for reading). ``--lenient`` reads
the lenient categories (separators stripped from values and truth): the one to judge ``split`` by, since SWDE's
truth keeps a value's text node with its separators (": 978…") and a split draws that text as two nodes.

Journal: docs/journal/benchmarks.md, "Issue 28 (2026-11-27): field scrapers on templates they never saw — the mutation proxy's failures classified and fixed".
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

Draw = tuple[str, int, str, str]


def cases(path: Path, lenient: bool = False) -> dict[Draw, dict]:
    found = {(c["mutation"], c["mutation_seed"], c["site"], c["attribute"]): c
             for c in json.loads(path.read_text())["cases"]}
    if lenient:
        found = {draw: {**case, "category": case["lenient_category"]} for draw, case in found.items()}
    return found


def lost(before: dict[Draw, dict], kinds: set[str], held_out: tuple[str, ...],
         every: bool = False) -> dict[tuple[str, str], list[Draw]]:
    """Per (site, attribute) Correct unmutated (``every``: whatever it is unmutated), the mutated draws where
    it is not Correct."""
    found: dict[tuple[str, str], list[Draw]] = defaultdict(list)
    for draw, case in before.items():
        kind, _, site, attribute = draw
        unmutated = before.get(("none", 0, site, attribute))
        if (kind == "none" or (kinds and kind not in kinds) or site.split("-")[0] in held_out
                or unmutated is None or (unmutated["category"] != "correct" and not every)
                or case["category"] == "correct"):
            continue
        found[site, attribute].append(draw)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("--after", type=Path)
    parser.add_argument("--kinds", default="", help="only these kinds (comma-separated); all by default")
    parser.add_argument("--hold-out", default="", help="verticals left out of the listing (comma-separated)")
    parser.add_argument("--lenient", action="store_true", help="lenient categories instead of the strict ones")
    parser.add_argument("--every", action="store_true",
                        help="also site-attributes not Correct on the unmutated pages (their category first)")
    args = parser.parse_args()
    before = cases(args.before, args.lenient)
    after = cases(args.after, args.lenient) if args.after else {}
    kinds = {k for k in args.kinds.split(",") if k}
    held_out = tuple(v for v in args.hold_out.split(",") if v)
    for (site, attribute), draws in sorted(lost(before, kinds, held_out, args.every).items()):
        unmutated = before[("none", 0, site, attribute)]["category"]
        cells = [f"none:{unmutated}"] if unmutated != "correct" else []
        for draw in sorted(draws):
            now = after.get(draw, {}).get("category")
            cells.append(f"{draw[0]}{draw[1]}:{before[draw]['category']}" + (f"->{now}" if now else ""))
        print(f"{site} {attribute}: {' '.join(cells)}")


if __name__ == "__main__":
    main()
