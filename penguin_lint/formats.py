"""The output formats and the writer of each.

It sits above both ``reporters`` (text, JSON, SARIF, and the reports of other
CI systems and review tools) and ``github`` (annotations), which know nothing
of each other.
"""
from __future__ import annotations

from typing import Callable

FORMATS = ("text", "concise", "json", "github", "sarif", "gitlab", "junit", "rdjson", "azure")
#: formats read by a CI system or review tool, which names files from the
#: repository's top, not from the linted root
REPOSITORY_PATHS = ("github", "sarif", "gitlab", "junit", "rdjson", "azure")


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
    elif name == "gitlab":
        from penguin_lint.reporters.gitlab_reporter import report
    elif name == "junit":
        from penguin_lint.reporters.junit_reporter import report
    elif name == "rdjson":
        from penguin_lint.reporters.rdjson_reporter import report
    elif name == "azure":
        from penguin_lint.reporters.azure_reporter import report
    else:
        raise KeyError(name)
    return report
