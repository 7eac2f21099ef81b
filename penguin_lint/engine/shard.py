"""``--shard K/N``: one of N parts of an ``--all`` run, for a CI matrix.

The parts are made of whole units (see ``engine.Engine.units``), each
subject is checked in exactly one unit and the subjects above the units
(the repository and its top folders) in the first shard only, so every
finding of ``--all`` is reported by exactly one shard. A unit still reads
whatever it needs from the rest of the repository, as in ``--all``.

Units go to shards by an estimate of what parsing them costs, the largest
first, each to the shard with the least so far. The estimate is made of the
layout's folders the walk has listed and of how many subfolders each unit
folder holds, counted without listing it where the file system keeps the
count (``Repository.subfolder_count``); a shard lists only the unit folders
it owns a part of, and no shard reads the whole tree. Every shard of one
commit counts the same folders and makes the same assignment; its
fingerprint (``plan_key``) goes into the shard's report, and ``merge``
refuses parts that were assigned differently (trees that differ).
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import List, NamedTuple, Tuple

from penguin_lint.engine.unit import UNIT_CHUNK, Pending, chunk, subfolders
from penguin_lint.engine.weights import ENTRY_BYTES, unit_weights, unlisted_weight

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


class _Slot(NamedTuple):
    """What one shard may own: a whole unit, or the ``index``-th of the
    ``of`` chunks of a folder not listed yet (``unit.Pending``)."""

    key: str
    weight: int
    unit: object
    index: int = 0
    of: int = 1


def _slots(repo, units) -> List[_Slot]:
    from penguin_lint.cache.units import unit_key

    out: List[_Slot] = []
    weights = unit_weights(repo, [u for u in units if not isinstance(u, Pending)])
    listed = iter(weights)
    for u in units:
        if not isinstance(u, Pending):
            out.append(_Slot(unit_key(u), next(listed), u))
            continue
        # counted, not listed: the folder is listed by the shards that own
        # a part of it, and the last part takes whatever the count missed
        n = repo.subfolder_count(u.folder)
        of = max(1, -(-n // UNIT_CHUNK))
        head = json.dumps([[t, bool(r)] for t, r in u.head], ensure_ascii=False)
        for i in range(of):
            names = max(0, min(UNIT_CHUNK, n - i * UNIT_CHUNK))
            out.append(_Slot(f"{u.folder}\0{i}/{of}\0{head}", unlisted_weight(repo, u.head, u.folder, names, i == 0),
                             u, i, of))
    return out


def _plan(repo, slots: List[_Slot], count: int) -> Tuple[List[int], str]:
    # The first shard also checks the subjects above the units: the layout
    # folders and what is directly in them, as the walk listed them.
    top = ENTRY_BYTES * sum(len(repo.entries(t) or ()) for t in repo.walk_roots() if t)
    keys = [s.key for s in slots]
    owners = assign([s.weight for s in slots], keys, count, first_load=top)
    h = hashlib.blake2b(digest_size=8)
    for k, s in zip(keys, owners):
        h.update(f"{k}\0{s}\0".encode("utf-8", "surrogatepass"))
    return owners, h.hexdigest()


def plan(repo, units, count: int) -> Tuple[List[int], str]:
    """(the shard of each part: a unit, or a chunk of a ``Pending`` folder;
    a fingerprint of that assignment)."""
    return _plan(repo, _slots(repo, units), count)


def shard_units(repo, units, shard: Shard) -> Tuple[list, str]:
    """The units of ``shard``, and the fingerprint of the whole plan. Of
    the ``Pending`` folders, only those it owns a part of are listed."""
    slots = _slots(repo, units)
    owners, key = _plan(repo, slots, shard.count)
    mine: list = []
    names: dict = {}
    for slot, owner in zip(slots, owners):
        if owner != shard.index:
            continue
        u = slot.unit
        if not isinstance(u, Pending):
            mine.append(u)
            continue
        if u.folder not in names:
            names[u.folder] = subfolders(repo, u.folder)
        start = slot.index * UNIT_CHUNK
        part = names[u.folder][start:None if slot.index == slot.of - 1 else start + UNIT_CHUNK]
        if slot.index == 0 or part:
            mine.append(chunk(u.head, u.folder, part, slot.index == 0))
    return mine, key


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
