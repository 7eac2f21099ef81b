"""The repository as rules see it: its configuration (penguin_lint/core/)."""
