"""Export of pipeline results as chat-format SFT records (``{"messages": [...]}`` JSON lines).

Three kinds of record, rebuilt from the stored results with the same prompts the models saw:

* ``agent``: one record per valid step of a trajectory the judge scored at least ``min_success`` (the
  chooser's prompt and answer for the candidate policy, the seed's agent prompt for ``paper``);
* ``judge``: one record per judged trajectory whose judge confidence is at least ``min_confidence`` (the
  evidence judge's checks, or the seed's scores);
* ``proposer``: the phase-1 proposal and, for kept trajectories, the phase-2 refinement.

With ``scrub_pii`` (the default, as the seed recommends) every message goes through scrubadub, which
replaces e-mail addresses, phone numbers, credentials and the like by placeholders. URLs are kept: actions
and observations need them, and the pipeline only visits public sites.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.agent import AgentConfig, agent_system_prompt, agent_user_prompt
from scrapesmith.insta.chooser import ChooserConfig, chooser_messages, chooser_system_prompt
from scrapesmith.insta.evidence_judge import (
    EvidenceConfig,
    check_schema,
    check_system_prompt,
    check_user_prompt,
)
from scrapesmith.insta.judge import JudgeConfig, judge_system_prompt, judge_user_prompt
from scrapesmith.insta.propose import (
    ProposerConfig,
    examples_by_domain,
    phase_one_messages,
    refine_prompt,
    refine_system_prompt,
)
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import ExportResult, Observation, SiteResult
from scrapesmith.llm import ChatMessage, render_prompt, with_schema_instruction

KINDS = ("agent", "judge", "proposer")


class PiiScrubberMissing(ScrapesmithError):
    """``--scrub-pii`` needs the ``pii`` extra."""


def pii_scrubber() -> Callable[[str], str]:
    """A scrubadub scrubber without its URL detector (see the module docstring)."""
    try:
        import scrubadub
    except ImportError:
        raise PiiScrubberMissing("PII scrubbing needs scrubadub: pip install 'scrapesmith[pii]'") from None
    scrubber = scrubadub.Scrubber()
    scrubber.remove_detector("url")

    def clean(text: str) -> str:
        with warnings.catch_warnings():  # scrubadub warns about its own deprecated internals on every call
            warnings.simplefilter("ignore", DeprecationWarning)
            return scrubber.clean(text)

    return clean


@dataclass
class ExportConfig:
    min_success: float = 1.0
    min_confidence: float = 0.0
    kinds: tuple[str, ...] = KINDS
    scrub_pii: bool = True
    agent: AgentConfig = field(default_factory=AgentConfig)
    chooser: ChooserConfig = field(default_factory=ChooserConfig)
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    evidence: EvidenceConfig = field(default_factory=EvidenceConfig)
    proposer: ProposerConfig = field(default_factory=ProposerConfig)


def _record(kind: str, site: str, messages: list[ChatMessage], **meta: Any) -> dict[str, Any]:
    return {"kind": kind, "site": site, "messages": [m.model_dump() for m in messages], **meta}


def agent_records(result: SiteResult, config: ExportConfig) -> Iterator[dict[str, Any]]:
    trajectory, judgement = result.trajectory, result.judgement
    if trajectory is None or judgement is None or judgement.success < config.min_success:
        return
    chooser = trajectory.policy == "candidates"
    system = ChatMessage(role="system", content=chooser_system_prompt(config.chooser) if chooser
                         else agent_system_prompt(config.agent))
    for index, step in enumerate(trajectory.steps):
        if step.action is None:
            continue
        observation = Observation(url=step.url, markdown=step.observation)
        if chooser:
            user = chooser_messages(trajectory.task, trajectory.steps[:index], observation, step.candidates or [],
                                    config.chooser)[-1].content
        else:
            user = agent_user_prompt(trajectory.task, trajectory.steps[:index], observation, config.agent)
        yield _record("agent", result.site, [system, ChatMessage(role="user", content=user),
                                             ChatMessage(role="assistant", content=step.response)],
                      step=index, success=judgement.success, screenshot=step.screenshot)


def judge_records(result: SiteResult, config: ExportConfig) -> Iterator[dict[str, Any]]:
    trajectory, judgement = result.trajectory, result.judgement
    if trajectory is None or judgement is None or judgement.confidence < config.min_confidence:
        return
    if judgement.kind == "evidence":
        # the criteria the model was asked about (the program decided the others); none asked: the program's
        # verdicts on all of them, as its response records
        asked = [check.criterion for check in judgement.criteria if check.decided_by == "model"]
        criteria = asked or [check.criterion for check in judgement.criteria]
        system = check_system_prompt()
        user = with_schema_instruction([ChatMessage(role="user", content=check_user_prompt(
            trajectory.task, trajectory, criteria, config.evidence))], check_schema(criteria), reasoning=False)[-1].content
    else:
        system, user = judge_system_prompt(config.judge), judge_user_prompt(trajectory.task, trajectory, config.judge)
    yield _record("judge", result.site, [
        ChatMessage(role="system", content=system),
        ChatMessage(role="user", content=user),
        ChatMessage(role="assistant", content=judgement.response),
    ], confidence=judgement.confidence, judge_kind=judgement.kind)


def proposer_records(result: SiteResult, config: ExportConfig) -> Iterator[dict[str, Any]]:
    proposal = result.proposal
    if proposal is None or not proposal.response:
        return
    system = ChatMessage(role="system", content=render_prompt(proposal.system)) \
        if proposal.system.startswith("insta_propose_choose") else \
        phase_one_messages(proposal.domain, examples_by_domain(proposal.examples))[0]
    yield _record("proposer", result.site, [system, ChatMessage(role="user", content=proposal.prompt),
                                            ChatMessage(role="assistant", content=proposal.response)], phase=1)
    judgement, trajectory, refined = result.judgement, result.trajectory, result.refined
    if refined is None or trajectory is None or judgement is None or judgement.success < config.min_success:
        return
    refine_system = refine_system_prompt(config.proposer)
    user = refine_prompt(proposal.domain, trajectory.task, trajectory, judgement, config.proposer)
    yield _record("proposer", result.site, [ChatMessage(role="system", content=refine_system),
                                            ChatMessage(role="user", content=user),
                                            ChatMessage(role="assistant", content=refined.response)], phase=2)


BUILDERS = {"agent": agent_records, "judge": judge_records, "proposer": proposer_records}


def export_records(results: list[SiteResult], config: ExportConfig) -> Iterator[dict[str, Any]]:
    unknown = set(config.kinds) - set(KINDS)
    if unknown:
        raise ScrapesmithError(f"unknown record kind(s) {', '.join(sorted(unknown))}; use {', '.join(KINDS)}")
    scrub = pii_scrubber() if config.scrub_pii else None
    for result in (one for site in results for one in site.per_task()):
        for kind in config.kinds:
            for record in BUILDERS[kind](result, config):
                if scrub is not None:
                    for message in record["messages"]:
                        message["content"] = scrub(message["content"])
                yield record


def export_run(run_dir: Path, out: Path, config: ExportConfig) -> ExportResult:
    """Write the SFT JSONL for a pipeline output directory; return how many records of each kind."""
    store = ResultStore(run_dir)
    if not store.shards():
        raise ScrapesmithError(f"no pipeline results under {run_dir} (expected {store.shard_dir}/part-*.jsonl)")
    counts = dict.fromkeys(config.kinds, 0)
    results = list(store.latest().values())
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for record in export_records(results, config):
            counts[record["kind"]] += 1
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return ExportResult(counts, store.torn_lines)
