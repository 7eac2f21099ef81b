"""The --all cache and what it trusts (penguin_lint/cache/)."""
