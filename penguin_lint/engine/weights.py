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


def unit_weights(repo, units) -> List[int]:
    """The estimated cost of each unit, from listings the walk has read: a
    subfolder walked whole counts as a typical one of its kind, the files
    directly in a unit folder by their size where the listing has it."""
    roots = repo.layout.roots
    per_root = {roots["experiments"]: EXPERIMENT_BYTES, roots["packages"]: TASK_BYTES,
                roots["leaderboards"]: LEADERBOARD_BYTES}
    weights = []
    for unit in units:
        w = ENTRY_BYTES * len(unit)
        for top, recursive in unit:
            if recursive:
                # experiments/<lb>/<exp>, packages/<bench>/<task>, leaderboards/<lb>
                first = top.split("/", 1)[0]
                w += per_root.get(first, FOLDER_BYTES)
                continue
            for e in (repo.entries(top) or {}).values():
                if e.is_file:
                    w += max(e.size, ENTRY_BYTES) if e.name.endswith(_DATA_EXT) else ENTRY_BYTES
        weights.append(w)
    return weights
