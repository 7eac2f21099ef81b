"""Whether the base's verdict on a subject is the working tree's own.

A check reads listings and files (``core.repo.ReadLog``). When every
listing and file the run has read so far is the same in the base (a folder's
entries alike, a file's git blob id that of the bytes parsed), the base
would find exactly what the working tree found: every finding is old, and
nothing of the base is parsed. The reads of earlier checks count too, since
rules share results across subjects (``ctx.cache``). Blob ids come from the
base's trees, as ``git hash-object`` names the working tree's bytes.
"""
from __future__ import annotations

from typing import Dict, Optional, Set

from penguin_lint.core.repo import ReadLog


class SameInputs:
    """What the run read, compared with the base when a verdict needs it."""

    def __init__(self):
        self._listings: Set[str] = set()
        self._files: Dict[str, Optional[str]] = {}
        self._entries: Set[str] = set()
        self._same: Set[str] = set()  # listings found the same
        self._same_entries: Set[str] = set()
        self._same_files: Set[str] = set()
        #: once one read differs, it stays among what later checks depend on
        self.differs = False

    def add(self, reads: Optional[ReadLog]) -> None:
        """Take in what a check read (the log is the caller's to renew)."""
        if reads is None or self.differs:
            return
        self._listings |= reads.listings - self._same
        self._entries |= reads.entries - self._same_entries
        for rel, fid in reads.files.items():
            if rel not in self._same_files:
                self._files[rel] = fid

    def hold(self, work, base) -> bool:
        """Whether everything read so far is the same in ``base`` (a
        BaseRepository) as in ``work``; what was compared is not compared again."""
        if self.differs:
            return False
        reads, work.reads = work.reads, None  # looking again is not reading anew
        try:
            self.differs = not self._compare(work, base)
        finally:
            work.reads = reads
        return not self.differs

    def _compare(self, work, base) -> bool:
        listings, entries, files = self._listings, self._entries, self._files
        while listings:
            rel = listings.pop()
            if not _same_listing(work.entries(rel), base.entries(rel)):
                return False
            self._same.add(rel)
        while entries:
            rel = entries.pop()
            if _alike(work.entry(rel)) != _alike(base.entry(rel)):
                return False
            self._same_entries.add(rel)
        while files:
            rel, fid = files.popitem()
            if fid == "absent":
                same = not base.is_file(rel)
            else:
                same = fid is not None and fid == base.blob_id(rel)
            if not same:
                return False
            self._same_files.add(rel)
        return True


def _alike(entry) -> Optional[tuple]:
    # a size is known only in the working tree: rules that read it are not
    # alike on the base (Rule.alike_on_base)
    return entry[:5] if entry is not None else None


def _same_listing(ours, theirs) -> bool:
    if ours is None or theirs is None:
        return ours is theirs
    if ours.keys() != theirs.keys():
        return False
    return all(e[:5] == theirs[name][:5] for name, e in ours.items())
