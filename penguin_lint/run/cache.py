"""The run's side of the ``--all`` cache: opened, left out of the walk, saved."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from penguin_lint.cache.folder import DEFAULT_DIR as STRAY_NAME


def open_cache(root: Path, cache_dir, config, rules, engine, warn: Callable[[str], None]):
    """The cache for an --all run, or None (with a warning) when it cannot be used."""
    from penguin_lint.cache.contentid import ContentIds
    from penguin_lint.cache import CacheWarning, UnitCache, cache_folder, settings_key

    folder, in_repo = cache_folder(root, cache_dir, config.cache_dir)
    # --no-suppress changes what a unit reports
    key = settings_key(config, [r.code for r in rules],
                       dict(engine.ctx.options, suppress=engine.ledger is not None))
    try:
        return UnitCache(folder, key, engine.repo, ContentIds(str(root), config.size_limit), in_repo=in_repo)
    except CacheWarning as e:
        warn(str(e))
        return None


def cache_rel(root: Path, cache_dir, cache, no_cache: bool, config=None) -> Optional[str]:
    """The cache folder as a path the walk leaves out: only where this run
    keeps its cache, and never a folder git tracks anything in (a data folder
    that bears the name, or records a pull request committed, are linted)."""
    from penguin_lint.cache.contentid import ContentIds
    from penguin_lint.cache import CacheWarning, cache_folder, refuse_tracked, skipped_folder

    if cache is not None:  # open: already found untracked
        return skipped_folder(root, cache.folder)
    if not no_cache:
        return None  # refused (tracked, a link) or unusable
    rel = skipped_folder(root, cache_folder(root, cache_dir, config.cache_dir if config else None)[0])
    if rel is None:
        return None
    try:
        refuse_tracked(root, root / rel, ContentIds(str(root), 0))
    except CacheWarning:
        return None
    return rel


def save_cache(cache, keep_others: bool, warn: Callable[[str], None]) -> None:
    from penguin_lint.cache import CacheWarning

    damage = cache.damage_warning()
    if damage:
        warn(damage)
    try:
        cache.save(keep_others=keep_others)
    except CacheWarning as e:
        warn(str(e))


def status_cache(root: Path, cache_dir, no_cache: bool):
    """Where git may keep what it knows of untracked files, as a function of
    the configuration (which may name the cache folder), or None."""
    def folder(config):
        from penguin_lint.cache import cache_folder

        return None if no_cache else cache_folder(root, cache_dir, config.cache_dir)[0]
    return folder


def is_stray_cache(root: Path, rel: str) -> bool:
    """Whether folder ``rel`` is a cache an earlier run rooted below ``root``
    left (``.penguin-lint-cache/`` holding penguin-lint's tag), which git
    tracks nothing in: a data folder that only bears the name, or one a pull
    request committed, is still linted."""
    if rel.rpartition("/")[2] != STRAY_NAME:  # every walked folder is asked: the name first
        return False
    import os

    from penguin_lint.cache import CacheWarning, refuse_tracked
    from penguin_lint.cache.contentid import ContentIds
    from penguin_lint.cache.folder import CACHEDIR_TAG
    try:
        fd = os.open(root / rel / "CACHEDIR.TAG", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            if fh.read(len(CACHEDIR_TAG)) != CACHEDIR_TAG:
                return False
        refuse_tracked(root, root / rel, ContentIds(str(root), 0))
    except (OSError, CacheWarning):
        return False
    return True
