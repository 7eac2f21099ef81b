"""The paths a run was given, as paths below its root."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from penguin_lint.core.config import CONFIG_FILE
from penguin_lint.core.repo import unjudged
from penguin_lint.pr.git import gitlinks_below
from penguin_lint.run.request import PenguinLintError


def relative(p: str, cwd: Path, root: Path) -> Optional[str]:
    ap = Path(os.path.abspath(cwd / p))
    try:
        rel = ap.relative_to(root)
    except ValueError:
        return None
    s = rel.as_posix()
    return "" if s == "." else s


def checked_paths(paths, cwd: Path, root: Path, repo, kind, deleted=frozenset()):
    """(the command-line paths relative to the root, their forced kinds);
    a path outside the repository, missing (and not among the ``deleted``
    paths of the change), or that no check would read is an error."""
    rel_paths = []
    for p in paths:
        rel = relative(p, cwd, root)
        if (rel is None or not os.path.lexists(root / rel)) and not os.path.isabs(p) \
                and os.path.lexists(root / p):
            # a path written relative to --root rather than to where we stand
            rel = relative(p, root, root)
        if rel is None:
            raise PenguinLintError(f"path is outside the repository {root}: {p}")
        if rel and repo.entry(rel) is None and not os.path.lexists(root / rel) and rel not in deleted \
                and rel not in gitlinks_below(root, repo, [rel]):  # a submodule not in the work tree: PL007
            raise PenguinLintError(f"no such file or folder: {p}")
        rel_paths.append(rel)
    forced = {p: kind for p in rel_paths} if kind else {}
    for p, rel in zip(paths, rel_paths):
        if not kind:
            what = unjudged(repo, rel)
            if what is not None:
                # not a green check on nothing: a path no check would read
                raise PenguinLintError(f"{p}: {what}: nothing to lint (give --kind KIND, or a [kinds] glob in "
                                       f"{CONFIG_FILE})")
    return rel_paths, forced
