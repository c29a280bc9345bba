"""induce layer."""
