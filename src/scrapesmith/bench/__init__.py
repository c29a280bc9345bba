"""bench: the evaluations every figure in BENCHMARKS.md comes from, runnable by anyone.

Real data first: ``swde`` (field scrapers, AutoScraper's executability metrics), ``nexteval`` (record
detection), ``miniwob`` (agents and judge against the page's true reward); then the demo web:
``weblists``, ``instruct2ds`` (collect), ``insta_pipeline`` (throughput); and component speed: ``fetch``,
``dom``, ``browser``, ``llm``. ``frame`` prints and saves every result the same way.
"""
