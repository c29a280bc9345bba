"""The manager agent (MGR): reads the hypergraph and decides which agent runs next.

Only agents whose inputs are ready are offered; when more than one is, the model chooses (its reply is
a number among the offered options), otherwise the manager schedules the only one without a call.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from scrapesmith.collect.agents.base import Agent
from scrapesmith.collect.views import Hyperedge, ManagerMessage, Role

FINISH = "finish"


@dataclass(frozen=True)
class Option:
    role: str
    why: str
    refs: tuple[str, ...] = ()


class ManagerChoice(BaseModel):
    choice: int


class ManagerAgent(Agent):
    role = Role.MANAGER
    prompt = "collect_manager"
    max_repairs = 3

    def start(self) -> None:
        self.send("instruction", ManagerMessage(next=Role.PLAN, instruction=self.team.instruction))

    def next_agent(self) -> str:
        """The role to run next (or ``finish``), announced to that agent as a schedule message."""
        options = self.options()
        index = 0
        if len(options) > 1:
            reply = self.decide(ManagerChoice, options=[{"index": i, "role": o.role, "why": o.why}
                                                        for i, o in enumerate(options)])
            index = reply.choice if reply is not None and 0 <= reply.choice < len(options) else 0
        chosen = options[index]
        if chosen.role != FINISH:
            self.send("schedule", ManagerMessage(next=Role(chosen.role), instruction=chosen.why,
                                                 refs=list(chosen.refs)), targets={Role(chosen.role)})
        return chosen.role

    def options(self) -> list[Option]:
        seen = self.team.graph.context_for(Role.MANAGER)
        last = {edge.kind: edge for edge in seen}
        plan = last.get("plan")
        if plan is None:
            return [Option("plan", "split the instruction into steps")]
        if "search" not in last and not plan.content.get("start_url"):
            return [Option("tool", "search the indexed pages for the data")]
        if "web" not in last:
            return [Option("web", "find the page(s) holding the records")]
        if "candidates" not in last:
            return [Option("tool", "try list, table and REST extraction on the source")]
        if "blueprint" not in last:
            return [Option("blueprint", "choose the access path and write the blueprint")]
        return self._development(seen, last)

    def _development(self, seen: list[Hyperedge], last: dict[str, Hyperedge]) -> list[Option]:
        programs = [e for e in seen if e.kind == "program"]
        if not programs:
            return [Option("engineer", "write program.py from the blueprint")]
        program = programs[-1]
        test = _after(last.get("test"), program)
        if test is None:
            return [Option("test", "run program.py in the sandbox")]
        alternatives = len(last["blueprint"].content.get("alternatives", [])) + 1
        can_repair = len(programs) < min(alternatives, self.max_repairs + 1)
        repair = Option("engineer", "repair: switch to another blueprint alternative")
        if not test.content["ok"]:
            return [repair] if can_repair else [Option(FINISH, "the test failed and no repair is left")]
        validation = _after(last.get("validation"), test)
        if validation is None:
            return [Option("validation", "check the dataset", (program.content["blueprint_ref"],))]
        if not validation.content["ok"] and can_repair:
            return [Option(FINISH, "accept the dataset despite failed checks"), repair]
        return [Option(FINISH, "the dataset is collected and validated")]


def _after(edge: Hyperedge | None, than: Hyperedge) -> Hyperedge | None:
    return edge if edge is not None and edge.index > than.index else None
