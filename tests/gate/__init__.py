"""Hostile pull requests: what they cannot hide, forge, crash or escape (docs/security.md)."""
