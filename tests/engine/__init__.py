"""Running rules over subjects: shards, merge, the Python API (penguin_lint/engine/, api.py)."""
