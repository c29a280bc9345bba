"""dom layer."""
