"""PL007 for the submodules (gitlinks) of an --all run that no walk sees into.

Only git knows them; the engine does not ask it. Whoever builds the run
hands ``run_all`` an object that answers (``pr.worktree_gitlinks``): which
folders are in a work tree and which of them are gitlinks.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional, Set

from penguin_lint.findings import Finding


def gitlink_findings(engine, empty: Set[str], gitlinks, absent: bool = False,
                     memo_dir: Optional[Path] = None) -> List[Finding]:
    """PL007 for the gitlinks whose folder is one of the ``empty`` folders
    (actions/checkout leaves a submodule so) and, with ``absent``, those with
    no folder in the work tree at all. ``gitlinks`` None: no git to ask."""
    rule = next((r for r in engine.rules if r.code == "PL007"), None)
    if rule is None or not (empty or absent) or gitlinks is None:
        return []
    if not gitlinks.in_work_tree():
        return []
    root = engine.repo.root
    roots = [r for r in engine.repo.walk_roots() if r == "" or engine.repo.is_dir(r)]
    found = gitlinks.among(roots, must_know=bool(empty), memo_dir=memo_dir)
    links = {p for p in found if p in empty or (absent and not os.path.lexists(root / p))}
    if not links:
        return []
    engine.ctx.gitlinks = engine.ctx.gitlinks | links
    out: List[Finding] = []
    for path in sorted(links):
        out.extend(f for f in rule.check(engine.subject(path, True), engine.ctx) if f.path == path)
    return out
