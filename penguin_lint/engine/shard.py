"""``--shard K/N``: one of N parts of an ``--all`` run, for a CI matrix.

The parts are made of whole units (see ``engine.Engine.units``), each
subject is checked in exactly one unit and the subjects above the units
(the repository and its top folders) in the first shard only, so every
finding of ``--all`` is reported by exactly one shard. A unit still reads
whatever it needs from the rest of the repository, as in ``--all``.

Units go to shards by the bytes of their data files (what parsing costs),
the largest first, each to the shard with the least so far. Every shard
computes the same assignment: it depends only on the committed tree when
git knows the files (sizes from ``git ls-tree``), else on the file listing.
"""
from __future__ import annotations

import re
from typing import Dict, List, NamedTuple, Tuple

from penguin_lint.cache.contentid import git_lines

_SHARD = re.compile(r"^\s*([0-9]{1,6})\s*/\s*([0-9]{1,6})\s*$")
_DATA_EXT = (".yaml", ".yml", ".toml", ".json")
# Listing and walking cost something per entry even when nothing is parsed.
ENTRY_BYTES = 256


class Shard(NamedTuple):
    index: int  # 1-based
    count: int

    @property
    def takes_top(self) -> bool:
        return self.index == 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """``"2/4"`` -> Shard(2, 4); ValueError with a message a user can act on."""
    m = _SHARD.match(text or "")
    if not m:
        raise ValueError(f"--shard takes K/N, as in 2/4 (got '{text}')")
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1 or not 1 <= k <= n:
        raise ValueError(f"--shard {k}/{n}: K must be between 1 and N")
    return Shard(k, n)


def unit_weights(repo, units) -> List[int]:
    """Bytes of each unit's data files (plus a little per entry)."""
    owner_rec: Dict[str, int] = {}
    owner_flat: Dict[str, int] = {}
    for i, unit in enumerate(units):
        for top, recursive in unit:
            (owner_rec if recursive else owner_flat)[top] = i
    weights = [ENTRY_BYTES * len(u) for u in units]
    listed = git_lines(repo._root_str, ["ls-tree", "-r", "-l", "-z", "HEAD"])
    if listed:
        for line in listed:
            meta, _, path = line.partition(b"\t")
            parts = meta.split()
            if len(parts) != 4 or parts[1] != b"blob" or not parts[3].isdigit():
                continue
            rel = path.decode("utf-8", "replace")
            i = _owner(rel, owner_rec, owner_flat)
            if i is not None:
                size = int(parts[3])
                weights[i] += size if rel.endswith(_DATA_EXT) else ENTRY_BYTES
        return weights
    # No git (or no commit): the listings of the unit folders, which every
    # shard reads alike; a folder counts as a typical experiment or task.
    for i, unit in enumerate(units):
        for top, recursive in unit:
            ents = repo.entries(top) or {}
            for e in ents.values():
                if e.is_file:
                    weights[i] += max(e.size, ENTRY_BYTES) if e.name.endswith(_DATA_EXT) else ENTRY_BYTES
                elif e.is_dir and recursive:
                    weights[i] += 16 * ENTRY_BYTES
    return weights


def _owner(rel: str, owner_rec: Dict[str, int], owner_flat: Dict[str, int]):
    parent = rel.rpartition("/")[0]
    i = owner_flat.get(parent)
    if i is not None:
        return i
    while parent:
        i = owner_rec.get(parent)
        if i is not None:
            return i
        parent = parent.rpartition("/")[0]
    return None


def assign(weights: List[int], keys: List[str], count: int, first_load: int = 0) -> List[int]:
    """Shard index (1-based) of each unit: largest first, to the lightest shard
    (ties to the lower index), so the result depends on nothing but the input."""
    loads: List[Tuple[int, int]] = [(first_load if s == 0 else 0, s) for s in range(count)]
    out = [0] * len(weights)
    for i in sorted(range(len(weights)), key=lambda i: (-weights[i], keys[i])):
        load, s = min(loads)
        out[i] = s + 1
        loads[s] = (load + weights[i], s)
    return out


def shard_units(repo, units, shard: Shard):
    from penguin_lint.cache.units import unit_key

    if shard.count == 1:
        return list(units)
    weights = unit_weights(repo, units)
    keys = [unit_key(u) for u in units]
    # The first shard also checks the subjects above the units.
    top = sum(ENTRY_BYTES for _ in (repo.entries("") or ()))
    owners = assign(weights, keys, shard.count, first_load=top)
    return [u for u, s in zip(units, owners) if s == shard.index]
