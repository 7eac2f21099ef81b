"""penguin-lint preview (penguin_lint/preview.py)."""
