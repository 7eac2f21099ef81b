"""The units of ``--all``: a part of the tree whose checks read (almost)
nothing outside it, as the walk finds them (``Engine._top_subjects``).

A unit folder with many subfolders is cut into chunks of ``UNIT_CHUNK``
of them. A whole run lists each unit folder to cut it; a shard's plan
(``engine.shard``) first takes each as a ``Pending`` folder, counted
without being listed, and lists only the folders it owns a part of.
"""
from __future__ import annotations

from typing import Iterator, List, NamedTuple, Sequence, Tuple

# Folders per unit: small enough to spread a big leaderboard over the cores
# and to bound memory, big enough that each unit reads its leaderboard once
# for many experiments.
UNIT_CHUNK = 64
UnitItem = Tuple[str, bool]  # (folder, whether to walk into its subfolders)
Unit = Sequence[UnitItem]


class Chunk:
    """A unit made of ``head`` items, then subfolders of ``folder`` (each
    walked whole): it reads as a tuple of (folder, recursive) items, but
    holds the subfolders' names as one string. The run keeps every unit
    for its whole length (the plan of shards, the order of the workers),
    and a tuple of paths would cost a run on 400,000 files 15 MB."""

    __slots__ = ("head", "folder", "_names")

    def __init__(self, head, folder: str, names):
        self.head = tuple(head)
        self.folder = folder
        # a name holds no "/"
        self._names = "/".join(names) if names else None

    def __iter__(self) -> Iterator[UnitItem]:
        yield from self.head
        if self._names is not None:
            folder = self.folder
            for name in self._names.split("/"):
                yield (f"{folder}/{name}", True)

    def __len__(self) -> int:
        return len(self.head) + (self._names.count("/") + 1 if self._names is not None else 0)

    def __getitem__(self, i):
        return tuple(self)[i]

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):  # a worker sends its units back with their results
        return (Chunk, (self.head, self.folder, self._names.split("/") if self._names is not None else ()))


class Pending(NamedTuple):
    """A unit folder not listed yet: ``head`` items (a leaderboard), then
    the folder with its own files, then its subfolders in chunks."""

    head: Tuple[UnitItem, ...]
    folder: str


def subfolders(repo, folder: str) -> List[str]:
    """The names of ``folder``'s subfolders, sorted (links are not folders)."""
    ents = repo.entries(folder) or {}
    return sorted(n for n, e in ents.items() if e.is_dir)


def chunk(head, folder: str, names: Sequence[str], first: bool) -> Chunk:
    """A chunk of ``folder``: the first holds ``head`` and the folder itself."""
    return Chunk(list(head) + [(folder, False)] if first else (), folder, names)


def chunks(repo, head, folder: str) -> List[Chunk]:
    """``folder`` as units: the folder with its own files, then its
    subfolders UNIT_CHUNK at a time (``head`` goes into the first)."""
    names = subfolders(repo, folder)
    return [chunk(head, folder, names[i:i + UNIT_CHUNK], i == 0)
            for i in range(0, max(len(names), 1), UNIT_CHUNK)]
