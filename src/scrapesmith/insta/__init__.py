"""insta (InSTA): LLM web agents at scale, producing training data.

For each site a proposer (with a safety filter) writes a task, a browser agent does it over a markdown
view of the live page with JSON actions, a judge scores the trajectory (success, efficiency,
self-correction), and the pipeline fans out over many sites on a local process pool or Ray, writing
resumable shards. ``export`` turns judged trajectories into fine-tuning data, PII scrubbed.
"""

from scrapesmith.insta.agent import Policy, run_episode
from scrapesmith.insta.chooser import POLICIES, make_policy
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.evidence_judge import JUDGE_KINDS, make_judge
from scrapesmith.insta.export import ExportConfig, PiiScrubberMissing, export_run
from scrapesmith.insta.goal_judge import answer_holds, dates_in, same_page
from scrapesmith.insta.judge import JudgeConfig
from scrapesmith.insta.pipeline import PipelineConfig, RunSummary, read_sites, reset_worker, run_pipeline
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import Action, Observation, SiteResult, StepOutcome, TaskGoal, Trajectory

__all__ = ["JUDGE_KINDS", "POLICIES", "Action", "BrowserEnv", "ExportConfig", "JudgeConfig", "Observation",
           "PiiScrubberMissing", "PipelineConfig", "Policy", "ResultStore", "RunSummary", "SiteResult",
           "StepOutcome", "TaskGoal", "Trajectory", "answer_holds", "dates_in", "export_run", "make_judge", "make_policy", "read_sites",
           "reset_worker", "run_episode", "run_pipeline", "same_page"]
