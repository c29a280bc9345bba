"""The oriented message hypergraph: every message is a hyperedge from one sender to a role-defined target set.

An agent's context is only the messages addressed to it (Eq. 3), so the engineer never reads the web
agent's page notes and the plan agent never reads test logs. ``broadcast=True`` is ablation A3's
communication: every message reaches every agent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scrapesmith.collect.views import AGENTS, Hyperedge, Role

ROUTES: dict[Role, frozenset[Role]] = {
    Role.MANAGER: frozenset({Role.PLAN, Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.VALIDATION}),
    Role.PLAN: frozenset({Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.MANAGER}),
    Role.WEB: frozenset({Role.TOOL, Role.BLUEPRINT, Role.MANAGER}),
    Role.TOOL: frozenset({Role.WEB, Role.BLUEPRINT, Role.MANAGER}),
    Role.BLUEPRINT: frozenset({Role.ENGINEER, Role.VALIDATION, Role.MANAGER}),
    Role.ENGINEER: frozenset({Role.TEST, Role.MANAGER}),
    Role.TEST: frozenset({Role.ENGINEER, Role.MANAGER}),
    Role.VALIDATION: frozenset({Role.ENGINEER, Role.MANAGER}),
    Role.CACHE: frozenset(AGENTS),
}


class RoutingError(ValueError):
    """A hyperedge violating Eq. 2 (empty target set, or a sender among its own targets)."""


class MessageHypergraph:
    """G = (V, E, M): append-only hyperedges with their messages, read back per receiving agent."""

    def __init__(self, broadcast: bool = False) -> None:
        self.broadcast = broadcast
        self.edges: list[Hyperedge] = []

    def targets_of(self, sender: Role, targets: set[Role] | None = None) -> list[Role]:
        """T_j for a message from ``sender``: everyone but the sender when broadcasting, else its route."""
        if self.broadcast:
            chosen = set(AGENTS) - {sender}
        else:
            chosen = set(targets) if targets is not None else set(ROUTES[sender])
        if not chosen:
            raise RoutingError(f"a message from {sender} needs at least one target")
        if sender in chosen:
            raise RoutingError(f"{sender} cannot address itself (S and T must be disjoint)")
        return sorted(chosen, key=lambda role: list(Role).index(role))

    def post(self, sender: Role, kind: str, content: dict[str, Any], text: str,
             targets: set[Role] | None = None) -> Hyperedge:
        edge = Hyperedge(index=len(self.edges), sender=sender, targets=self.targets_of(sender, targets),
                         kind=kind, content=content, text=text)
        self.edges.append(edge)
        return edge

    def context_for(self, role: Role, before: int | None = None) -> list[Hyperedge]:
        """M_i^t of Eq. 3: the messages whose target set holds ``role``, in the order they were sent."""
        limit = len(self.edges) if before is None else before
        return [edge for edge in self.edges[:limit] if role in edge.targets]

    def latest(self, role: Role, kind: str) -> Hyperedge | None:
        """The newest message of ``kind`` that ``role`` received (what an agent acts on)."""
        for edge in reversed(self.context_for(role)):
            if edge.kind == kind:
                return edge
        return None

    def render_context(self, role: Role) -> str:
        """The context as the agent's prompt shows it: one line per received message."""
        return "\n".join(f"[{e.index}] {e.sender} -> {role}: ({e.kind}) {e.text}" for e in self.context_for(role))

    def save_jsonl(self, path: Path) -> Path:
        with Path(path).open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(edge.model_dump(mode="json"), ensure_ascii=False) + "\n" for edge in self.edges)
        return Path(path)
