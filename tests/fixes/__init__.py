"""--fix: the repairs and which findings they can repair (penguin_lint/fixes/)."""
