"""llm layer."""
