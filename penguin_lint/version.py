"""penguin-lint's version (cache records and SARIF reports name it)."""

__version__ = "0.1.0"
