"""The package as built and installed: its folders, import layers and version (pyproject.toml)."""
