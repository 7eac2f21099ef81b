"""penguin-lint inside other programs: pre-commit and editors (.pre-commit-hooks.yaml, docs/editors.md)."""
