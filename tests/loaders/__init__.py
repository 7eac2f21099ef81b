"""Reading files: the YAML, TOML and JSON loaders, positions and lines (penguin_lint/loaders/)."""
