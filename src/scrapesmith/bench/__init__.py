"""bench: the evaluations every figure in BENCHMARKS.md comes from, runnable by anyone.

Real data first: ``swde`` (field scrapers, AutoScraper's executability metrics), ``nexteval`` (record
detection), ``miniwob`` (agents and judge against the page's true reward); then the demo web:
``weblists``, ``instruct2ds`` (collect), ``insta_pipeline`` (throughput); and component speed: ``fetch``,
``dom``, ``browser``, ``llm``. ``frame`` prints and saves every result the same way.
"""

#: each benchmark is a module of its own, imported by its command when it runs (so none slows the others)
from scrapesmith.bench.swde_mutated import run_mutated

__all__ = ["browser", "collect_pages", "confidence", "dom", "drift", "drift_lists", "fetch", "frame", "insta_e2e", "insta_pipeline",
           "insta_safety", "instruct2ds", "instruct2ds_runner", "layout_cache", "llm", "metrics", "miniwob", "nexteval",
           "nexteval_fit", "nexteval_mutated", "run_mutated", "sandbox", "scale", "sinks", "swde", "swde_gate", "swde_loso", "swde_ranker",
           "weblists"]
