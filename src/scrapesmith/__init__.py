"""scrapesmith: forge reusable scraping programs with an LLM, then run them without it."""

__version__ = "0.1.0"
