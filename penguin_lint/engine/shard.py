"""``--shard K/N``: one of N parts of an ``--all`` run, for a CI matrix.

The parts are made of whole units (see ``engine.Engine.units``), each
subject is checked in exactly one unit and the subjects above the units
(the repository and its top folders) in the first shard only, so every
finding of ``--all`` is reported by exactly one shard. A unit still reads
whatever it needs from the rest of the repository, as in ``--all``.

Units go to shards by an estimate of what parsing them costs, the largest
first, each to the shard with the least so far. The estimate is made of what
the walk that finds the units has already listed (the unit folders and their
subfolders), never of the files inside them: a shard's fixed cost grows with
the number of units, not of files, and no shard reads the whole tree. Every
shard of one commit lists the same folders and makes the same assignment;
its fingerprint (``plan_key``) goes into the shard's report, and ``merge``
refuses parts that were assigned differently (trees that differ).
"""
from __future__ import annotations

import hashlib
import re
from typing import List, NamedTuple, Tuple

from penguin_lint.engine.weights import ENTRY_BYTES, unit_weights

_SHARD = re.compile(r"^\s*([0-9]{1,6})\s*/\s*([0-9]{1,6})\s*$")


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


def plan(repo, units, count: int) -> Tuple[List[int], str]:
    """(the shard of each unit, a fingerprint of that assignment)."""
    from penguin_lint.cache.units import unit_key

    weights = unit_weights(repo, units)
    keys = [unit_key(u) for u in units]
    # The first shard also checks the subjects above the units: the layout
    # folders and what is directly in them, as the walk listed them.
    top = ENTRY_BYTES * sum(len(repo.entries(t) or ()) for t in repo.walk_roots() if t)
    owners = assign(weights, keys, count, first_load=top)
    h = hashlib.blake2b(digest_size=8)
    for k, s in zip(keys, owners):
        h.update(f"{k}\0{s}\0".encode("utf-8", "surrogatepass"))
    return owners, h.hexdigest()


def shard_units(repo, units, shard: Shard) -> Tuple[list, str]:
    """The units of ``shard``, and the fingerprint of the whole plan."""
    owners, key = plan(repo, units, shard.count)
    return [u for u, s in zip(units, owners) if s == shard.index], key


def change_units(units, shard: Shard) -> Tuple[set, str]:
    """A diff run's part: the folders (``runner._unit_of``) of ``shard``,
    and the fingerprint of the plan. Folders go by how many subjects each
    holds, largest first, to the lightest part; every part of one change
    gathers the same subjects and makes the same assignment."""
    counts: dict = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    keys = sorted(counts)
    owners = assign([counts[k] for k in keys], keys, shard.count)
    h = hashlib.blake2b(digest_size=8)
    for k, s in zip(keys, owners):
        h.update(f"{k}\0{s}\0".encode("utf-8", "surrogatepass"))
    return {k for k, s in zip(keys, owners) if s == shard.index}, h.hexdigest()
