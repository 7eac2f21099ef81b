"""What rules run on: a file or a folder of the repository, with its kind."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict


@dataclass
class Subject:
    """A file or folder that rules are run on."""

    path: str
    kind: str
    groups: Dict[str, str] = field(default_factory=dict)
    is_dir: bool = False
    #: a ``pr.focus.Focus`` when only part of the subject is re-checked (a
    #: leaderboard checked as a dependent of a change); None: all of it
    focus: Any = None
    #: a folder held by a change only through edits to files below it (none
    #: added, deleted, renamed or changed in type): rules whose verdict
    #: reads no contents below (``Rule.reads_contents_below``) are not run
    edited_below: bool = False
    #: the paths below this folder whose findings alone are wanted (an
    #: editor's open files), relative to it; None: every finding is
    wanted_below: Any = None
