"""The order a reviewer acts on findings in, for outputs that show only the
first few (GitHub annotates 10 errors and 10 warnings per step).

1. findings with a line in a file the change touched (visible in the diff);
2. other findings in touched files (a file-level problem: wrong name, too big);
3. findings in files the change did not touch but whose verdict it altered;
4. findings about files that do not exist (a missing companion file).

Runs without a change (``--all``) have no scope: their findings rank by 1, 2
and 4 alone. Within a rank errors come first, then report order.
"""
from __future__ import annotations

from typing import Callable, List, Optional

WITH_LINE, IN_FILE, DEPENDENT, MISSING_FILE = range(4)


def rank(finding, exists: Optional[Callable[[str], bool]] = None) -> int:
    if exists is not None and finding.path and not exists(finding.path):
        return MISSING_FILE
    if finding.scope == "dependent":
        return DEPENDENT
    return WITH_LINE if finding.line is not None else IN_FILE


def ordered(findings, exists: Optional[Callable[[str], bool]] = None) -> List:
    """``exists(path)`` tells whether a finding's file is there; without it no
    finding counts as one about a missing file."""
    return sorted(findings, key=lambda f: (rank(f, exists), 0 if f.severity == "error" else 1))
