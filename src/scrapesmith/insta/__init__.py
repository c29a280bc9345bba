"""insta layer."""
