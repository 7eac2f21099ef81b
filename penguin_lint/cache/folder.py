"""Where the cache lives, and the folders it refuses: one reached through a
symbolic link or inside ``.git`` (a pull request can commit
``.cache -> /elsewhere``), or one git tracks (a pull request can commit
records).
"""
from __future__ import annotations

import os
import stat as _stat
from pathlib import Path
from typing import Optional, Tuple

from penguin_lint.cache.contentid import ContentIds

DEFAULT_DIR = ".penguin-lint-cache"
ENV_DIR = "PENGUIN_LINT_CACHE_DIR"
#: what marks a folder as penguin-lint's cache (bford.info/cachedir)
CACHEDIR_TAG = (b"Signature: 8a477f597d28d172789f06886806bc55\n"
                b"# This file is a cache directory tag created by penguin-lint.\n")


class CacheWarning(Exception):
    """Why the cache is not used this run (one warning line, not a failure)."""


def cache_folder(root: Path, given: Optional[str], configured: Optional[str] = None) -> Tuple[Path, bool]:
    """The cache folder and whether it is one the repository names for itself
    (the default, or ``cache-dir`` of its configuration, a folder inside it).
    --cache-dir (``given``) comes first, then $PENGUIN_LINT_CACHE_DIR, then
    ``configured``, then the default."""
    chosen = given or os.environ.get(ENV_DIR) or None
    if chosen:
        return Path(os.path.abspath(chosen)), False
    return root / (configured or DEFAULT_DIR), True


def inside(root: Path, folder: Path) -> Optional[str]:
    """``folder`` as a path relative to ``root`` when it lies below it, links
    resolved (a folder reached through a link is where the link leads), else None."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(folder)
    if real == real_root:
        return ""
    if not real.startswith(real_root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(real, real_root).replace(os.sep, "/")


def refuse_linked(root: Path, folder: Path) -> None:
    """Raise CacheWarning when ``folder``, named inside ``root``, is reached
    through a symbolic link below ``root`` or lies in a ``.git`` folder: a
    pull request can commit ``.cache -> /elsewhere``, and the cache would be
    written outside the repository."""
    base, full = os.path.abspath(root), os.path.abspath(folder)
    if not full.startswith(base.rstrip(os.sep) + os.sep):
        return  # named outside the repository: the user's own folder
    path = base
    for part in os.path.relpath(full, base).split(os.sep):
        path = os.path.join(path, part)
        if part == ".git":
            raise CacheWarning(f"the cache folder {folder} is inside a .git folder; the cache is not used")
        if os.path.islink(path):
            link = os.path.relpath(path, base).replace(os.sep, "/")
            if path == full:
                raise CacheWarning(f"{link} is a symbolic link, not a folder; the cache is not used")
            raise CacheWarning(f"the cache folder {os.path.relpath(full, base)}/ is reached through the "
                               f"symbolic link {link}; the cache is not used")
        if not os.path.lexists(path):
            return


def refuse_tracked(root: Path, folder: Path, ids: ContentIds) -> None:
    """Raise CacheWarning when git tracks ``folder`` or anything in it (a
    pull request can commit records), however the folder was named, or when
    it is reached through a link in the repository (``refuse_linked``)."""
    refuse_linked(root, folder)
    rel = inside(root, folder)
    # the repository's own folders by their relative name; any other by its
    # absolute one (git refuses a path outside its work tree: not tracked)
    spec = rel if rel else os.path.realpath(folder)
    shown = f"{rel}/" if rel else f"{folder}"
    if ids.tracks_under(spec):
        raise CacheWarning(f"the cache folder {shown} is tracked by git; the cache is not used")


def skipped_folder(root: Path, folder: Path) -> Optional[str]:
    """The path, relative to ``root``, that --all leaves out as the run's
    cache folder: only where the cache is kept, and only a real folder."""
    rel = inside(root, folder)
    if not rel:
        return None
    try:
        if not _stat.S_ISDIR(os.lstat(os.path.realpath(folder)).st_mode):
            return None
    except OSError:
        return None
    return rel


def prepare_root(folder: Path) -> None:
    """Make the cache folder (a real folder, not a link), marked as a cache."""
    new = not os.path.lexists(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if not _stat.S_ISDIR(os.lstat(folder).st_mode):
        raise OSError(0, "not a folder")
    if new:
        # as ruff does: git never picks the folder up
        _write_small(folder / ".gitignore", b"# Created by penguin-lint automatically.\n*\n")
        _write_small(folder / "CACHEDIR.TAG", CACHEDIR_TAG)


def _write_small(path: Path, data: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as f:
        f.write(data)
