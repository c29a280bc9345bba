"""The development squad: engineer, test and validation agents (AutoData section 3.1)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from pydantic import BaseModel

from scrapesmith.collect.agents.base import Agent
from scrapesmith.collect.outputs import count_lines
from scrapesmith.collect.program import render_program
from scrapesmith.collect.sandbox import run_in_sandbox
from scrapesmith.collect.validate import validate_dataset
from scrapesmith.collect.views import (
    Blueprint,
    BlueprintMessage,
    EngineerMessage,
    Role,
    TestMessage,
    ValidationMessage,
)
from scrapesmith.errors import ScrapesmithError


class RepairChoice(BaseModel):
    thought: str = ""
    choice: int


class EngineerAgent(Agent):
    """Fills the program template for the blueprint; on a failed test, switches to another blueprint."""

    role = Role.ENGINEER
    prompt = "collect_engineer"

    def run(self) -> None:
        message = BlueprintMessage.model_validate(self.received("blueprint").content)
        written = [e for e in self.team.graph.edges if e.sender is Role.ENGINEER]
        used = {e.content["blueprint_ref"] for e in written}
        if not written:
            ref = message.blueprint_ref
        else:
            options = [r for r in [message.blueprint_ref, *message.alternatives] if r not in used]
            if not options:
                raise ScrapesmithError("every blueprint alternative failed its test")
            ref = options[self._choose_repair(options)]
        blueprint = Blueprint.model_validate_json(self.team.cache.get(ref))
        self.team.program_hosts = program_hosts(self.team.allow_hosts, blueprint)
        self.team.program_roots = program_roots(self.team.seeds.roots, blueprint)
        text = render_program(blueprint, self.team.program_hosts, self.team.delay, self.team.program_roots)
        (self.team.run_dir / "program.py").write_text(text, encoding="utf-8")
        program_ref = self.store("program", text)
        self.send("program", EngineerMessage(program_ref=f"cache://{program_ref}", blueprint_ref=ref,
                                             template=blueprint.access, revision=len(written)))
        self.report(f"program.py revision {len(written)} ({blueprint.access})")

    def _choose_repair(self, options: list[str]) -> int:
        failure = self.received("test") or self.received("validation")
        described = []
        for index, ref in enumerate(options):
            blueprint = Blueprint.model_validate_json(self.team.cache.get(ref))
            described.append({"index": index, "description": f"{blueprint.access} from {blueprint.sources[0].url}"})
        reply = self.decide(RepairChoice, error=failure.text if failure else "", options=described)
        return reply.choice if reply is not None and 0 <= reply.choice < len(options) else 0


def program_hosts(allow_hosts: list[str], blueprint: Blueprint) -> list[str]:
    """The ``host:port`` pairs the program may reach: the allowed hosts and its sources' origins."""
    hosts = list(allow_hosts)
    for source in blueprint.sources:
        parts = urlsplit(source.url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        if parts.hostname and f"{parts.hostname}:{port}" not in hosts:
            hosts.append(f"{parts.hostname}:{port}")
    return hosts


def program_roots(roots: list[str], blueprint: Blueprint) -> list[str]:
    """The local roots the program may read: every root the seeds name when a source is a local page
    (its list or its items' pages may be anywhere in them), none for a program reading the web only."""
    return list(roots) if any(source.url.startswith("file:") for source in blueprint.sources) else []


class TestAgent(Agent):
    """Runs program.py in the sandbox and reports exit status, rows and the error tail to the engineer."""

    role = Role.TEST

    def run(self) -> None:
        run_dir = self.team.run_dir
        # The network the run allows (never what program.py declares about itself).
        # ... and the local roots the user named as seeds, read-only (never what program.py declares).
        # The program's outputs replace an earlier revision's in the run directory (the sandbox does it).
        result = run_in_sandbox(run_dir / "program.py", run_dir, self.team.program_hosts or self.team.allow_hosts,
                                self.team.limits, read_roots=self.team.program_roots)
        rows = count_lines(run_dir / "dataset.jsonl")
        self.team.rows = rows
        ok = result.ok and rows > 0
        error = None if ok else (result.summary() if not result.ok else "the program ran but collected no rows")
        self.send("test", TestMessage(ok=ok, exit_status=result.exit_status, rows=rows, error=error,
                                      stderr_tail=result.stderr[-600:]))
        self.report(f"sandbox {result.reason}, {rows} rows in {result.seconds:.1f}s")


class ValidationAgent(Agent):
    """Checks the dataset against the blueprint's rules and samples rows against the archived pages."""

    role = Role.VALIDATION

    def run(self) -> None:
        blueprint_message = BlueprintMessage.model_validate(self.received("blueprint").content)
        blueprint = Blueprint.model_validate_json(self.team.cache.get(blueprint_message.blueprint_ref))
        order = self.received("schedule")
        if order is not None and order.content.get("refs"):
            blueprint = Blueprint.model_validate_json(self.team.cache.get(order.content["refs"][0]))
        checks = validate_dataset(self.team.run_dir, blueprint)
        message = ValidationMessage(ok=all(c.ok for c in checks), checks=checks)
        (self.team.run_dir / "validation.json").write_text(json.dumps(message.model_dump(), indent=2) + "\n")
        self.send("validation", message)
        self.report("valid" if message.ok else "failed: " + ", ".join(c.name for c in checks if not c.ok))
