"""bench layer."""
