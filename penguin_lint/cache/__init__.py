"""The ``--all`` cache: a unit's findings, reused while nothing it read changed.

``units`` (the cache a run reads and writes), ``folder`` (where it lives and
what it refuses), ``settings`` (the key naming a cache folder), ``records``
(a record as plain data) and ``contentid`` (the content ids it trusts). A
run takes what it needs from here.
"""
from penguin_lint.cache.folder import (
    CacheWarning, cache_folder, prepare_root, refuse_linked, refuse_tracked, skipped_folder,
)
from penguin_lint.cache.settings import settings_key
from penguin_lint.cache.units import UnitCache, unit_key

__all__ = ["CacheWarning", "UnitCache", "cache_folder", "prepare_root", "refuse_linked", "refuse_tracked",
           "settings_key", "skipped_folder", "unit_key"]
