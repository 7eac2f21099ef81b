"""penguin-lint: lint PenguinHarness benchmark repositories."""

__version__ = "0.1.0"
