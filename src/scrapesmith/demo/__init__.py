"""The demo: the product end to end on the local demo web, one step per capability.

``run_demo`` serves the demo web, then runs each step of ``STEPS`` with one typed
:class:`~scrapesmith.demo.context.DemoContext`: survey the sites, induce field scrapers (induce),
record and replay a list program (lists), and turn one instruction per domain into a dataset (collect).
"""

from scrapesmith.demo.context import DemoContext, DemoStep
from scrapesmith.demo.run import STEPS, run_demo

__all__ = ["STEPS", "DemoContext", "DemoStep", "run_demo"]
