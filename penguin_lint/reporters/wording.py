"""The words every report uses for what a run checked."""
from __future__ import annotations

from typing import Optional

from penguin_lint.github.workflow_commands import sanitize


def files_checked(result) -> str:
    """"3 files checked", with what a pull-request run compared with and
    what --new-only hid: "3 files checked against main (3f2a1c9); 1 older
    finding in touched files not shown"."""
    n = result.files
    text = f"{n} file{'s' if n != 1 else ''} checked"
    compared = getattr(result, "compared_with", None)
    if compared:
        text += f" against {sanitize(compared)}"
    hidden = getattr(result, "hidden", 0)
    if hidden:
        text += f"; {hidden} older finding{'s' if hidden != 1 else ''} in touched files not shown"
    return text


def no_changes(result) -> Optional[str]:
    """"No changes against main (3f2a1c9)." for a pull-request run whose
    change is empty, else None."""
    if getattr(result, "no_changes", False) and not result.findings:
        return f"No changes against {sanitize(result.compared_with)}."
    return None
