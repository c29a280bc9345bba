"""collect layer."""
