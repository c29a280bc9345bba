"""lists layer."""
