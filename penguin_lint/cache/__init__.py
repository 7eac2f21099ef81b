"""The ``--all`` cache: a unit's findings, reused while nothing it read changed.

``units`` (the cache a run reads and writes), ``folder`` (where it lives and
what it refuses), ``settings`` (the key naming a cache folder), ``records``
(a record as plain data) and ``contentid`` (the content ids it trusts). A
run takes what it needs from here.
"""
import importlib

# Each name is imported from its module on first use (PEP 562): a run that
# only needs the cache folder's name (every hook) does not load the cache.
_WHERE = {"CacheWarning": "folder", "cache_folder": "folder", "prepare_root": "folder",
          "refuse_linked": "folder", "refuse_tracked": "folder", "skipped_folder": "folder",
          "settings_key": "settings", "UnitCache": "units", "unit_key": "units"}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
