"""The output formats and the writer of each.

It sits above both ``reporters`` (text, JSON, SARIF) and ``github``
(annotations), which know nothing of each other.
"""
from __future__ import annotations

from typing import Callable

FORMATS = ("text", "concise", "json", "github", "sarif")


def get_reporter(name: str) -> Callable:
    """``report(result, stream, **options)`` for an output format."""
    if name == "text":
        from penguin_lint.reporters.text_reporter import report
    elif name == "concise":
        from penguin_lint.reporters.concise_reporter import report
    elif name == "json":
        from penguin_lint.reporters.json_reporter import report
    elif name == "github":
        from penguin_lint.github.annotations import report
    elif name == "sarif":
        from penguin_lint.reporters.sarif_reporter import report
    else:
        raise KeyError(name)
    return report
