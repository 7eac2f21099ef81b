"""What a unit of ``--all`` costs, estimated from the listings the walk that
found the units has read (never from the files inside them): shards and
worker processes both take the largest units first."""
from __future__ import annotations

from typing import List

_DATA_EXT = (".yaml", ".yml", ".toml", ".json")
# Listing and walking cost something per entry even when nothing is parsed.
ENTRY_BYTES = 256

# What one subfolder of a unit holds, in bytes of data files, by where it
# is: an experiment (its meta, and a summary and attempts per phase), a task
# (its task_config.toml; statement and rubric are Markdown), a leaderboard
# folder (its leaderboard file, which reads every experiment's summary),
# anything else (data). Only their ratios matter.
EXPERIMENT_BYTES = 24 * ENTRY_BYTES
TASK_BYTES = 4 * ENTRY_BYTES
LEADERBOARD_BYTES = 48 * ENTRY_BYTES
FOLDER_BYTES = 16 * ENTRY_BYTES


def _per_root(repo) -> dict:
    roots = repo.layout.roots
    return {roots["experiments"]: EXPERIMENT_BYTES, roots["packages"]: TASK_BYTES,
            roots["leaderboards"]: LEADERBOARD_BYTES}


def _walked(per_root: dict, folder: str) -> int:
    """A subfolder walked whole, as a typical one of its kind: an
    experiments/<lb>/<exp>, packages/<bench>/<task>, leaderboards/<lb>."""
    return per_root.get(folder.split("/", 1)[0], FOLDER_BYTES)


def unit_weights(repo, units) -> List[int]:
    """The estimated cost of each unit, from listings the walk has read: a
    subfolder walked whole counts as a typical one of its kind, the files
    directly in a unit folder by their size where the listing has it."""
    per_root = _per_root(repo)
    weights = []
    for unit in units:
        w = ENTRY_BYTES * len(unit)
        for top, recursive in unit:
            if recursive:
                w += _walked(per_root, top)
                continue
            for e in (repo.entries(top) or {}).values():
                if e.is_file:
                    w += max(e.size, ENTRY_BYTES) if e.name.endswith(_DATA_EXT) else ENTRY_BYTES
        weights.append(w)
    return weights


def unlisted_weight(repo, head, folder: str, subfolders: int, first: bool) -> int:
    """The estimated cost of a chunk of ``folder`` not listed yet: in the
    first, its ``head`` items and the folder itself (its own files unknown:
    one entry); then ``subfolders`` of it, as typical ones of their kind."""
    per_root = _per_root(repo)
    w = subfolders * (ENTRY_BYTES + _walked(per_root, folder))
    if first:
        w += ENTRY_BYTES + sum(ENTRY_BYTES + _walked(per_root, top) for top, _ in head)
    return w
