"""The eight AutoData agents: a manager, the research squad and the development squad."""

from scrapesmith.collect.agents.base import Agent, Team
from scrapesmith.collect.agents.blueprint import BlueprintAgent
from scrapesmith.collect.agents.development import EngineerAgent, TestAgent, ValidationAgent
from scrapesmith.collect.agents.manager import FINISH, ManagerAgent
from scrapesmith.collect.agents.research import (
    NoStartingPoint,
    PlanAgent,
    ToolAgent,
    WebAgent,
)

AGENT_TYPES: dict[str, type[Agent]] = {
    "plan": PlanAgent, "web": WebAgent, "tool": ToolAgent, "blueprint": BlueprintAgent,
    "engineer": EngineerAgent, "test": TestAgent, "validation": ValidationAgent,
}

__all__ = ["AGENT_TYPES", "FINISH", "Agent", "ManagerAgent", "NoStartingPoint", "Team"]
