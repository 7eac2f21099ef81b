"""The words every report uses for what a run checked."""
from __future__ import annotations

from typing import Optional

from penguin_lint.github.workflow_commands import sanitize


def files_checked(result) -> str:
    """"3 files checked", with what a pull-request run compared with, the
    files it re-checked because they read what changed, and what --new-only
    hid: "1 file checked against main (3f2a1c9), and 1 dependent file
    re-checked; 1 older finding in touched files not shown"."""
    n = result.files
    dependents = getattr(result, "dependents", 0) or 0
    own = n - dependents
    compared = getattr(result, "compared_with", None)
    against = f" against {sanitize(compared)}" if compared else ""
    if dependents and not own:
        text = f"{_count(dependents, 'dependent file')} re-checked{against}"
    else:
        text = f"{_count(own, 'file')} checked{against}"
        if dependents:
            text += f", and {_count(dependents, 'dependent file')} re-checked"
    hidden = getattr(result, "hidden", 0)
    if hidden:
        text += f"; {_count(hidden, 'older finding')} in touched files not shown"
    return text


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' if n != 1 else ''}"


def no_changes(result) -> Optional[str]:
    """"No changes against main (3f2a1c9)." for a pull-request run whose
    change is empty, else None."""
    if getattr(result, "no_changes", False) and not result.findings:
        return f"No changes against {sanitize(result.compared_with)}."
    return None
