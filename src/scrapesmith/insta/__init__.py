"""insta (InSTA): LLM web agents at scale, producing training data.

For each site a proposer (with a safety filter) writes a task, a browser agent does it over a markdown
view of the live page with JSON actions, a judge scores the trajectory (success, efficiency,
self-correction), and the pipeline fans out over many sites on a local process pool or Ray, writing
resumable shards. ``export`` turns judged trajectories into fine-tuning data, PII scrubbed.
"""

from scrapesmith.insta.export import ExportConfig, export_run
from scrapesmith.insta.pipeline import PipelineConfig, RunSummary, read_sites, run_pipeline

__all__ = ["ExportConfig", "PipelineConfig", "RunSummary", "export_run", "read_sites", "run_pipeline"]
