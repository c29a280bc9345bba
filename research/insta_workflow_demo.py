"""Workflows on the demo web's interactive pages: a form (two lists and a button), pagination, filters in the browser.

For each task family, the no-model candidate policy does the first two instances, the evidence judge (no model)
judges them, the judged-successful episodes are compiled into workflows, and the workflows replay the other
instances with no model. The no-model agent does the same held-back instances for comparison. Success is read
from the page itself (the URL the form or the pager led to, the list's live value), never from the judge:

    python research/insta_workflow_demo.py --json bench/results/insta-workflow-demo.json

Journal: docs/journal/benchmarks.md, "Issue 31 (2026-11-26): agent episodes compiled into workflows that run with no model".
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from scrapesmith.insta.agent import run_episode
from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.views import SiteResult
from scrapesmith.insta.workflow import WorkflowPolicy, compile_workflows
from scrapesmith.sites import serve_sites
from scrapesmith.web.browser import BrowserPolicy, BrowserSession

RECORDED = 2


@dataclass
class Family:
    """Instances of one interactive task: (task, what the page must show after it) on one start page."""

    name: str
    path: str
    instances: list[tuple[str, dict[str, str]]]
    done: Callable[[Any, dict[str, str]], bool]


def _query(session: Any) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(session.url).query).items()}


def _slug(text: str) -> str:
    return "-".join(text.lower().replace("&", " ").split())


def families(web: Any) -> list[Family]:
    acme, globex = web.sites.truth("acme"), web.sites.truth("globex")
    form = [(f'Select "{c}" as the category, select "{loc}" as the location, then click Filter.',
             {"category": _slug(c), "location": _slug(loc)}) for c in acme["categories"] for loc in acme["locations"]]
    pages = max(2, -(-len(acme["jobs"]) // 8))
    pager = [(f'Click on page "{n}".', {"page": str(n)}) for n in range(2, pages + 1)]
    pager += [(f'Select "{c}" as the category, then click Filter and click on page "2".',
               {"category": _slug(c), "page": "2"}) for c in acme["categories"]
              if sum(j["category"] == c for j in acme["jobs"]) > 8]
    department = [(f'Choose "{c}" in the Department filter.', {"filter-category": c}) for c in globex["categories"]]
    location = [(f'Choose "{loc}" in the Location filter.', {"filter-location": loc}) for loc in globex["locations"]]
    return [
        Family("form", "/acme/careers/", form, lambda s, want: all(_query(s).get(k) == v for k, v in want.items())),
        Family("pagination", "/acme/careers/", pager,
               lambda s, want: all(_query(s).get(k) == v for k, v in want.items())),
        Family("filter-department", "/globex/careers/", department, _shows),
        Family("filter-location", "/globex/careers/", location, _shows),
    ]


def _shows(session: Any, want: dict[str, str]) -> bool:
    return all(session.evaluate(f"() => document.getElementById('{k}').value") == v for k, v in want.items())


def _episode(session: Any, policy: Any, task: str, url: str) -> tuple[Any, float]:
    started = time.monotonic()
    env = BrowserEnv(session)
    if isinstance(policy, WorkflowPolicy):
        policy.observe = env.observe
    trajectory = run_episode(env, policy, task, url, max_actions=8)
    return trajectory, time.monotonic() - started


def measure() -> dict[str, Any]:
    out: dict[str, Any] = {"families": {}}
    browser_policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    with serve_sites(port=0, seed=7) as web, BrowserSession(policy=browser_policy) as session:
        for family in families(web):
            url = web.url(family.path)
            recorded = []
            for task, _ in family.instances[:RECORDED]:
                trajectory, _ = _episode(session, CandidatePolicy(None), task, url)
                judgement = EvidenceJudge(None).judge(task, trajectory)
                recorded.append(SiteResult(site=task, url=url, status="ok", trajectory=trajectory, judgement=judgement))
            compiled = compile_workflows(recorded)
            rows = []
            for task, want in family.instances[RECORDED:]:
                row: dict[str, Any] = {"task": task}
                for name, policy in (("workflow", WorkflowPolicy(compiled.workflows)), ("agent", CandidatePolicy(None))):
                    trajectory, seconds = _episode(session, policy, task, url)
                    row[name] = {"success": family.done(session, want), "seconds": round(seconds, 2),
                                 "steps": len(trajectory.steps)}
                    if isinstance(policy, WorkflowPolicy):
                        row[name].update(policy.report())
                rows.append(row)
            out["families"][family.name] = {
                "recorded": RECORDED, "compiled": compiled.compiled, "workflows": len(compiled.workflows),
                "templates": [w.template for w in compiled.workflows], "replayed": len(rows),
                **{f"{name}_success": sum(r[name]["success"] for r in rows) for name in ("workflow", "agent")},
                **{f"{name}_seconds": round(sum(r[name]["seconds"] for r in rows) / max(1, len(rows)), 2)
                   for name in ("workflow", "agent")},
                "cases": rows}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = measure()
    for name, family in result["families"].items():
        print(f"{name}: {family['compiled']} of {family['recorded']} recorded episodes compiled into "
              f"{family['workflows']} workflows; on {family['replayed']} other instances the workflow succeeded "
              f"{family['workflow_success']} ({family['workflow_seconds']} s/episode), the no-model agent "
              f"{family['agent_success']} ({family['agent_seconds']} s/episode)")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
