"""What ``penguin-lint preview`` opens: the repository, and the one before
(another checkout, or the merge base read from git)."""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Optional

from penguin_lint.core.config import ConfigError, load_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.pr.git import GitError
from penguin_lint.rules import rule_codes
from penguin_lint.run.base import open_diff
from penguin_lint.run.request import PenguinLintError


def open_repository(folder: Path) -> Repository:
    """The repository at ``folder`` with its own configuration."""
    folder = folder.resolve()
    if not folder.is_dir():
        raise PenguinLintError(f"not a folder: {folder}")
    try:
        return Repository(folder, load_config(folder, FILE_KINDS, rule_codes()))
    except ConfigError as e:
        raise PenguinLintError(str(e))


def open_preview(resources: ExitStack, root: Path, diff_base: Optional[str] = None,
                 before_root: Optional[Path] = None, warn: Callable[[str], None] = lambda message: None,
                 committed: bool = False):
    """What ``preview`` compares: (the repository at ``root``, the one
    before or None, the paths the change touched or None). ``diff_base``:
    before is the merge base of it and HEAD, read from git with the base's
    configuration (its tree closed with ``resources``); ``before_root``:
    another checkout. ``committed``: the change is what HEAD commits."""
    if diff_base is None:
        repo = open_repository(root)
        before = open_repository(before_root) if before_root is not None else None
        if before is not None:
            from penguin_lint.preview import leaderboards
            from penguin_lint.preview.harbor import harbor_boards

            if not leaderboards(before) and not harbor_boards(before):
                # most likely the wrong folder: every row would show as added
                warn(f"--before {before_root}: no leaderboards under "
                     f"{before.root / before.layout.roots['leaderboards']}; every row shows as added")
        return repo, before, None
    from penguin_lint.pr.basetree import BaseRepository

    try:
        change, base_tree, config = open_diff(resources, root, diff_base, False, warn, committed=committed)
    except (GitError, ConfigError) as e:
        raise PenguinLintError(str(e))
    before = BaseRepository(base_tree, root, config, label=change.label)
    return Repository(root, config), before, change.paths
