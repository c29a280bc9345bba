"""Workflows: judged-successful agent episodes compiled into programs that replay with no model.

The product's promise is "forge with a model, run without it"; this keeps it for agents (principle 6 of the
architecture). ``compile`` turns the episodes the evidence judge verified into workflow programs (``views``:
steps on elements found by several locators, parameters bound from the task's words, checks from the judge's
criteria), merging the episodes of one task family (``align``: which task words became which value);
``replay`` runs one with no model and hands the episode to the agent where a step breaks. After Agent Workflow
Memory (Wang et al., 2024) and the record-and-replay of BardeenAgent.
"""

from scrapesmith.insta.workflow.compile import CompileReport, compile_workflows, family_of
from scrapesmith.insta.workflow.replay import WorkflowPolicy, pick_workflow
from scrapesmith.insta.workflow.service import WORKFLOWS_DIR, ReplayResult, compile_run, replay_task
from scrapesmith.insta.workflow.views import Workflow, WorkflowError, load_workflows

__all__ = ["WORKFLOWS_DIR", "CompileReport", "ReplayResult", "Workflow", "WorkflowError", "WorkflowPolicy",
           "compile_run", "compile_workflows", "family_of", "load_workflows", "pick_workflow", "replay_task"]
