"""When git last committed a folder, for hints that propose a date.

PL101 proposes ``last_update`` for a package that lacks it: the time of the
package folder's last commit, as git records it (to the second, with the
committer's offset). The engine runs no git: a run hands its context a
``FolderHistory``, and the rule asks it only when it has such a finding.
Each question is one read-only ``git log -1``, bounded in time, and a run
asks a bounded number of them: a pull request of a thousand packages
without a date cannot make the run wait on git a thousand times.
"""
from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path
from typing import Dict, Optional

from penguin_lint.pr.git import READ_ONLY, in_work_tree

# Past this, git's answer is not waited for (a long history with the folder
# in none of it); past this many questions, or this much time spent asking,
# a run (each of its processes) asks no more.
TIMEOUT_SECONDS = 5
MAX_QUESTIONS = 32
BUDGET_SECONDS = 10
# What ``%cI`` prints: strict ISO 8601, to the second, with an offset.
_STRICT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})\Z", re.ASCII)


class FolderHistory:
    """The time of the last commit of a folder of the repository at ``root``."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._known: Dict[str, Optional[str]] = {}
        self._asked = 0
        self._spent = 0.0
        self._git: Optional[bool] = None

    def last_commit(self, folder: str) -> Optional[str]:
        """``git log -1 --format=%cI`` of ``folder`` (root-relative), or None
        when git does not know it (no git, no commit, not committed yet)."""
        if folder in self._known:
            return self._known[folder]
        if self._git is None:
            self._git = in_work_tree(self.root)
        found = None
        if self._git and self._asked < MAX_QUESTIONS and self._spent < BUDGET_SECONDS and "\0" not in folder:
            self._asked += 1
            start = time.monotonic()
            found = _ask(self.root, folder)
            self._spent += time.monotonic() - start
        self._known[folder] = found
        return found


def _ask(root: Path, folder: str) -> Optional[str]:
    # a pathspec taken literally: a folder named ':(glob)*' or '-x' is only a name
    spec = f":(literal){folder}" if folder else "."
    args = ["git", *READ_ONLY, "-c", "log.showSignature=false", "log", "-1", "--no-color",
            "--format=%cI", "--end-of-options", "HEAD", "--", spec]
    try:
        proc = subprocess.run(args, cwd=os.fspath(root), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=TIMEOUT_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    text = proc.stdout[:64].decode("ascii", "replace").strip()
    return text if _STRICT.match(text) else None
