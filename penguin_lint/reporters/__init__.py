"""Reporters turn findings into bytes; they never know where findings came from.

One module per output format: ``text_reporter``, ``json_reporter``,
``sarif_reporter``; GitHub's annotations and job summary are in
``penguin_lint.github``.
"""
from __future__ import annotations

from typing import Callable

FORMATS = ("text", "json", "github", "sarif")


def get_reporter(name: str) -> Callable:
    """``report(result, stream, **options)`` for an output format."""
    if name == "text":
        from penguin_lint.reporters.text_reporter import report
    elif name == "json":
        from penguin_lint.reporters.json_reporter import report
    elif name == "github":
        from penguin_lint.github.annotations import report
    elif name == "sarif":
        from penguin_lint.reporters.sarif_reporter import report
    else:
        raise KeyError(name)
    return report
