"""The repository root: the folder that holds the layout."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError, parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.rules import rule_codes
from penguin_lint.run.request import PenguinLintError, Request


def _layout_folders(d: Path) -> List[str]:
    """The folders the layout of a repository rooted at ``d`` would have: the
    default names, or those its own .penguin-lint.toml names in [layout]
    (an unreadable or invalid file counts as the defaults here; the run
    says what is wrong with it)."""
    layout = dict(Config().layout)
    path = d / CONFIG_FILE
    if path.is_file() and not path.is_symlink():
        try:
            with open(path, "rb") as fh:
                raw = fh.read(256 * 1024 + 1)
            if b"layout" in raw:  # the common file has no [layout]: not parsed here
                layout = parse_config(raw, FILE_KINDS, rule_codes()).layout
        except (OSError, ConfigError):
            pass
    # a data/ folder alone is too common to mark a benchmark repository
    return [v for k, v in layout.items() if k != "data"] + ["leaderboard"]


def holds_layout(d: Path, memo: Optional[dict] = None) -> bool:
    """Whether ``d`` holds a benchmark repository's layout folders (``memo``:
    answers already known, for the many paths of one hook call)."""
    if memo is not None and d in memo:
        return memo[d]
    found = any(os.path.isdir(d / f) for f in _layout_folders(d))
    if memo is not None:
        memo[d] = found
    return found


def find_root(start: Path, memo: Optional[dict] = None) -> Path:
    """The repository root for a run started in ``start``: the nearest folder
    that holds the layout's folders (packages/, leaderboards/, experiments/,
    a Harbor leaderboard/, or those its own .penguin-lint.toml names); else
    the nearest holding .git; else ``start``. A .penguin-lint.toml in a
    folder above the layout never moves the root there: a pull request could
    add one to move the run away from what it changed."""
    chain = [start, *start.parents]
    for d in chain:
        if holds_layout(d, memo):
            return d
    for d in chain:
        if (d / ".git").exists():
            return d
    return start


def root_for(cwd: Path, paths) -> Path:
    """find_root(cwd); but when that holds no layout and the paths all lie
    in one benchmark repository inside it (the pre-commit hook runs at the
    top of a repository that keeps its benchmarks in a folder), that one."""
    memo: dict = {}
    root = find_root(cwd, memo)
    if not paths or holds_layout(root, memo):
        return root
    starts = [Path(os.path.abspath(cwd / p)) for p in paths]
    found = {find_root(d, memo) for d in {p if p.is_dir() else p.parent for p in starts}}
    if len(found) == 1:
        inner = found.pop()
        if holds_layout(inner, memo) and root in inner.parents:
            return inner
    return root


def link_on_the_way(base: Path, rel: str) -> Optional[str]:
    """The first folder of the relative path ``rel`` below ``base`` that is
    a symbolic link, or None. A root given as a path in the checkout (the
    Action's ``path`` input, ``--root bench``) that a pull request replaced
    by a link would move the run to a folder the pull request chose, where
    the base's configuration is not."""
    if os.path.isabs(rel):
        return None
    here = base
    for part in Path(rel).parts:
        if part in (".", ""):
            continue
        here = here / part
        if part != ".." and os.path.islink(here):
            return os.path.relpath(here, base)
    return None


def run_root(req: Request, cwd: Path) -> Path:
    """The root a run of ``req`` lints: ``--root``, else found from where
    it stands (and from its paths)."""
    if req.root is not None:
        link = link_on_the_way(cwd, os.fspath(req.root))
        if link is not None:
            raise PenguinLintError(f"root {req.root}: {link} is a symbolic link; give the folder itself")
        root = Path(req.root).resolve()
    elif req.stdin_filename is not None:
        # found from the file the text stands for: an editor may run the
        # command anywhere
        root = find_root(Path(os.path.abspath(cwd / req.stdin_filename)).parent).resolve()
    else:
        root = root_for(cwd, list(req.paths)).resolve()
    if not root.is_dir():
        raise PenguinLintError(f"root is not a folder: {root}")
    return root
