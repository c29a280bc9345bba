"""Can the embedded model tell which *other* lists of a page hold records? (issue 14, NEXT-EVAL pages 1-100)

The evidence takes the page's main list, then judges every other candidate against it
(:func:`scrapesmith.dom.list_evidence.secondary_probability`). Where that judgement is doubtful (its
probability in ``--band``), a perfect yes/no would raise F1 the most (``--ceilings`` prints how much, with
no model). This script labels each doubtful list by whether adding it to
the main list (and the lists the evidence is sure of) raises the page's NEXT-EVAL F1 ("records"), lowers it
("furniture") or leaves it (skipped), then asks the model, on a random sample, in three framings:

* ``kind``: the main list and the other list shown, "records or page furniture?" (enum);
* ``leave``: the same, "should a dataset of this page leave the other list out?" (boolean);
* ``category``: the other list alone, "what kind of items are these?" (enum of 18 kinds: 10 record kinds,
  8 furniture kinds).

It prints each framing's accuracy next to the evidence's (probability >= 0.5 means records) and writes
the answers as JSON. Run from the repository root:

    python research/nexteval_other_lists_probe.py --sample 30 --seed 0 --json bench/results/nexteval-other-lists-probe.json
    python research/nexteval_other_lists_probe.py --ceilings
    python research/nexteval_other_lists_probe.py --token-odds --band 0.2 0.8 --json bench/results/nexteval-other-lists-odds.json

``--token-odds`` asks for no answer at all: it reads the model's next-token probabilities of "records" and
"furniture" for each doubtful list shown alone, reports how well they rank the lists (AUC) next to the
evidence, and the F1 when they move the evidence's judgement (weights chosen on half of the pages).

Model calls go through the response cache (``--cache``), so a rerun with the same sample replays them.

Journal: docs/journal/benchmarks.md, "Issue 14, session 2026-11-25 night: the model on all 100 pages, what it can decide, one more comparison".
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from scrapesmith.bench.nexteval import nexteval_xpath, page_ids, score_records
from scrapesmith.bench.nexteval_fit import PageData, load_pages
from scrapesmith.dom.list_evidence import RankedList
from scrapesmith.dom.list_selection import SECONDARY_FLOOR, overlapping, secondary_probability, select_lists
from scrapesmith.lists.choose import describe
from scrapesmith.llm.structured import ask_json

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
INTRO = (
    "A web page shows its main records in one list (products, job offers, articles, search results, listings, "
    "reviews, or the rows of a data table). Other repeating lists on the same page are either more data records "
    "a dataset of this page would also collect (a second section of articles, products or results, a table of "
    "figures, a list of entries with their details) or page furniture (navigation menus, category or filter "
    "links, cookie or consent settings, share buttons, footer links, form fields).\n\n"
)
FURNITURE = ["navigation menu", "category or filter options", "footer or policy links", "social or share links",
             "cookie or consent settings", "form fields", "advertisements", "pagination"]
RECORDS = ["products", "articles or posts", "job offers", "search results", "property or travel listings",
           "reviews or comments", "people or profiles", "events", "rows of a data table", "services or features"]


@dataclass
class ProbePage:
    """One NEXT-EVAL page as the probe weighs it: its true records and its candidate lists (likeliest first)
    with their records, all from :func:`scrapesmith.bench.nexteval_fit.load_pages`."""

    page: str
    data: PageData

    @cached_property
    def ranked(self) -> list[RankedList]:
        return [candidate.ranked for candidate in self.data.candidates]

    @cached_property
    def _records(self) -> dict[int, list[frozenset[str]]]:
        return {id(candidate.ranked.region): candidate.records for candidate in self.data.candidates}

    def f1(self, lists: list[RankedList]) -> float:
        """NEXT-EVAL F1 of the page when ``lists`` are taken."""
        return score_records([r for c in lists for r in self._records[id(c.region)]], self.data.truth).f1

    def others(self) -> list[tuple[float, RankedList]]:
        """The other lists :func:`select_lists` weighs, with the second model's probability, likeliest first."""
        main = self.ranked[0]
        judged = [(secondary_probability(c, main), c) for c in self.ranked[1:]
                  if c.probability >= SECONDARY_FLOOR and not overlapping(c.region, main.region)]
        return sorted(judged, key=lambda pair: -pair[0])


def load(html_dir: Path, truth_dir: Path) -> list[ProbePage]:
    return [ProbePage(page, data)
            for page, data in zip(page_ids(html_dir, truth_dir), load_pages(html_dir, truth_dir), strict=True)]


def doubtful_lists(pages: list[ProbePage], low: float, high: float) -> list[dict]:
    """Every other list the evidence is doubtful about, labelled by what it does to the page's F1."""
    questions = []
    for page in pages:
        if not page.ranked:
            continue
        main, others = page.ranked[0], page.others()
        base = [main] + [c for p, c in others if p >= high]
        before = page.f1(base)
        for p, c in others:
            if not low <= p < high or any(overlapping(c.region, o.region) for o in base):
                continue
            delta = page.f1([*base, c]) - before
            label = "records" if delta > 0.005 else "furniture" if delta < -0.005 else "neutral"
            questions.append({"page": page.page, "key": nexteval_xpath(c.region.items[0]), "p": round(p, 3),
                              "delta": round(delta, 4), "label": label,
                              "main": {**describe(main), "preview": main.preview(3, 100)},
                              "other": {**describe(c), "preview": c.preview(3, 100)}})
    return questions


def ceilings(pages: list[ProbePage], bands: list[tuple[float, float]]) -> dict[str, dict]:
    """Page-mean F1 if every other list in a band were decided perfectly (kept when it raises the page's
    F1), the rest as the evidence decides, and how many lists that asks about."""
    totals = {band: [0.0, 0] for band in bands}
    evidence = 0.0
    for page in pages:
        evidence += page.f1(select_lists(page.ranked))
        if not page.ranked:
            for band in bands:
                totals[band][0] += page.f1([])
            continue
        others = page.others()
        for low, high in bands:
            chosen = [page.ranked[0]]
            for p, c in others:
                if any(overlapping(c.region, o.region) for o in chosen) or p < low:
                    continue
                if p >= high:
                    chosen.append(c)
                    continue
                totals[(low, high)][1] += 1
                if page.f1([*chosen, c]) > page.f1(chosen):
                    chosen.append(c)
            totals[(low, high)][0] += page.f1(chosen)
    result = {"evidence": {"f1": round(evidence / len(pages), 4), "asked": 0}}
    for (low, high), (total, asked) in totals.items():
        result[f"{low}-{high}"] = {"f1": round(total / len(pages), 4), "asked": asked}
    return result


def _block(name: str, c: dict) -> str:
    """A list as the prompts show it: ``name`` (if any), its item count, where it sits, its first items."""
    lines = [f"{name + ': ' if name else ''}{c['items']} items" + (f" ({c['where']})" if c["where"] else "")
             + "; first items:"]
    return "\n".join(lines + [f'  - "{t}"' for t in c["preview"]])


def ask(llm, question: dict, framing: str) -> bool:
    """True when the model's answer means "records"."""
    pair = INTRO + _block("Main list", question["main"]) + "\n\n" + _block("Other list", question["other"])
    if framing == "kind":
        schema = {"type": "object", "properties": {"other_list": {"enum": ["records", "furniture"]}},
                  "required": ["other_list"], "additionalProperties": False}
        prompt = pair + ('\n\nIs the other list data records or page furniture? Answer as JSON: '
                         '{"other_list": "records"} or {"other_list": "furniture"}.')
        return ask_json(llm, prompt, schema, stage="probe", max_tokens=16)["other_list"] == "records"
    if framing == "leave":
        schema = {"type": "object", "properties": {"leave_out": {"type": "boolean"}}, "required": ["leave_out"],
                  "additionalProperties": False}
        prompt = pair + ('\n\nShould a dataset of this page leave the other list out? Answer as JSON: '
                         '{"leave_out": true} or {"leave_out": false}.')
        return not ask_json(llm, prompt, schema, stage="probe", max_tokens=16)["leave_out"]
    kinds = RECORDS + FURNITURE
    schema = {"type": "object", "properties": {"kind": {"enum": kinds}}, "required": ["kind"],
              "additionalProperties": False}
    prompt = ("A repeating list from a web page:\n" + _block("", question["other"]) + "\n\nWhat kind of items are these? "
              "Choose one of: " + ", ".join(kinds) + '.\nAnswer as JSON: {"kind": "..."}')
    question.setdefault("answers", {})["category_kind"] = kind = ask_json(
        llm, prompt, schema, stage="probe", max_tokens=24)["kind"]
    return kind in RECORDS


ALONE = ("A repeating list from a web page:\n{block}\n\nIs this list data records (products, articles, results, "
         "listings, table rows) or page furniture (menus, category links, footer links, settings)? Answer with one "
         "word: records or furniture.")


def token_odds(model_path: Path, questions: list[dict]) -> None:
    """Score each list alone by the model's next-token odds of "records" against "furniture" (log ratio of
    the probabilities of tokens that begin each word), straight from llama.cpp (the LLM seam returns text,
    not token probabilities). Adds ``model_score`` to each question."""
    from llama_cpp import Llama

    model = Llama(model_path=str(model_path), n_ctx=2048, n_threads=2, logits_all=True, verbose=False)
    for number, question in enumerate(questions, start=1):
        prompt = ALONE.format(block=_block("List", question["other"]))
        reply = model.create_chat_completion(messages=[{"role": "user", "content": prompt}], max_tokens=1,
                                             temperature=0.0, logprobs=True, top_logprobs=20)
        top = reply["choices"][0]["logprobs"]["content"][0]["top_logprobs"]

        def mass(word: str, top=top) -> float:
            return sum(math.exp(t["logprob"]) for t in top
                       if t["token"].strip() and word.startswith(t["token"].strip().lower()))

        question["model_score"] = math.log(mass("records") + 1e-9) - math.log(mass("furniture") + 1e-9)
        print(f"{number}/{len(questions)} page {question['page']} {question['label']}: "
              f"{question['model_score']:+.2f}", flush=True)


def auc(pairs: list[tuple[float, bool]]) -> float:
    positive = [s for s, y in pairs if y]
    negative = [s for s, y in pairs if not y]
    wins = sum((a > b) + 0.5 * (a == b) for a in positive for b in negative)
    return wins / max(len(positive) * len(negative), 1)


def combined_f1(pages: list[ProbePage], questions: list[dict], band: tuple[float, float]) -> dict:
    """Page-mean F1 when the second model's logit on a doubtful list is moved by ``w * (model_score - b)``;
    ``w`` and ``b`` chosen on one half of the pages (a 7 x 7 grid) and scored on the other."""
    scores = {(q["page"], q["key"]): q["model_score"] for q in questions if "model_score" in q}

    def mean_f1(w: float, b: float, subset: list[ProbePage]) -> float:
        total = 0.0
        for page in subset:
            def judge(c: RankedList, main: RankedList, page: ProbePage = page) -> float:
                p = secondary_probability(c, main)
                s = scores.get((page.page, nexteval_xpath(c.region.items[0])))
                if s is None or not band[0] <= p < band[1] or w == 0:
                    return p
                return 1 / (1 + math.exp(-(math.log(p / (1 - p)) + w * (s - b))))
            total += page.f1(select_lists(page.ranked, 0.5, judge))
        return total / max(len(subset), 1)

    grid = [(w, b) for w in (0.0, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0) for b in (-1, 0, 1, 2, 3, 4, 5)]
    result = {"evidence": round(mean_f1(0.0, 0.0, pages), 4)}
    fitted = max(grid, key=lambda g: mean_f1(*g, pages))
    result["fitted"] = {"w_b": fitted, "f1": round(mean_f1(*fitted, pages), 4)}
    for name, halves in (("halves", (pages[:50], pages[50:])), ("alternate", (pages[0::2], pages[1::2]))):
        held = []
        for train, test in (halves, halves[::-1]):
            chosen = max(grid, key=lambda g, train=train: mean_f1(*g, train))
            held.append({"w_b": chosen, "f1": round(mean_f1(*chosen, test), 4),
                         "evidence": round(mean_f1(0.0, 0.0, test), 4)})
        result[name] = held
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--groundtruth", type=Path, default=DATA / "groundtruth")
    parser.add_argument("--band", type=float, nargs=2, default=(0.3, 0.7))
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--framings", default="kind,leave,category")
    parser.add_argument("--llm", default="local")
    parser.add_argument("--cache", type=Path, default=None, help="response cache (default: the shared one)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--token-odds", action="store_true",
                        help="score every doubtful list by the model's token odds and combine them with the evidence")
    parser.add_argument("--ceilings", action="store_true",
                        help="print the F1 a perfect decision on the doubtful lists would give (no model)")
    args = parser.parse_args()
    pages = load(args.html, args.groundtruth)
    if args.token_odds:
        from scrapesmith.llm.client import resolve_llm, unwrap

        questions = doubtful_lists(pages, *args.band)
        token_odds(unwrap(resolve_llm("local", cache=False)).path, questions)
        labelled = [q for q in questions if q["label"] != "neutral"]
        summary = {"questions": len(questions), "labelled": len(labelled),
                   "auc_model": round(auc([(q["model_score"], q["label"] == "records") for q in labelled]), 3),
                   "auc_evidence": round(auc([(q["p"], q["label"] == "records") for q in labelled]), 3),
                   "f1": combined_f1(pages, questions, tuple(args.band))}
        print(json.dumps(summary, indent=1))
        if args.json:
            args.json.write_text(json.dumps({"summary": summary, "cases": questions}, indent=1) + "\n")
        return
    if args.ceilings:
        bands = [(0.3, 0.7), (0.2, 0.8), (0.1, 0.9), (0.0, 1.0)]
        print(json.dumps(ceilings(pages, bands), indent=1))
        return
    labelled = [q for q in doubtful_lists(pages, *args.band) if q["label"] != "neutral"]
    random.seed(args.seed)
    sample = random.sample(labelled, min(args.sample, len(labelled)))
    llm = resolve_llm(args.llm, cache=args.cache if args.cache else True)
    framings = args.framings.split(",")
    right = dict.fromkeys(["evidence", *framings], 0)
    started = time.perf_counter()
    for number, question in enumerate(sample, start=1):
        truth = question["label"] == "records"
        right["evidence"] += (question["p"] >= 0.5) == truth
        for framing in framings:
            says = ask(llm, question, framing)
            question.setdefault("answers", {})[framing] = says
            right[framing] += says == truth
        print(f"{number}/{len(sample)} page {question['page']} {question['label']}: "
              + ", ".join(f"{f} {'records' if question['answers'][f] else 'furniture'}" for f in framings),
              flush=True)
    seconds = time.perf_counter() - started
    summary = {"questions": len(labelled), "sample": len(sample),
               "records_share": sum(q["label"] == "records" for q in sample) / max(len(sample), 1),
               "accuracy": {k: v / max(len(sample), 1) for k, v in right.items()}, "seconds": round(seconds, 1)}
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "cases": sample}, indent=1) + "\n")


if __name__ == "__main__":
    main()
