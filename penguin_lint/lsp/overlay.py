"""The repository as an editor sees it: open buffers over the files on disk.

A language server lints the text of a buffer before it is saved, with the
rest of the repository read from disk (or from other open buffers). The
:class:`OverlayRepository` is a :class:`~penguin_lint.core.repo.Repository`
whose files are read from the overlay first. It lives as long as the
server, so what it read stays known between requests:

- documents parsed from disk are kept while the file's ``stat`` is the same
  (a leaderboard's experiments are parsed once, not at every keystroke);
- buffers are parsed once per text, and forgotten when closed;
- what is kept has a budget in bytes of the files parsed: past it, the
  documents used longest ago go (memory follows what is open, not every
  file a closed leaderboard once read);
- folder listings are kept while the folder's ``mtime`` is the same (and
  older than a moment: a coarse clock could hide a change).

Paths still come from the walk down from the root (no link followed): a
buffer whose path passes through a link, or lies outside the root, is never
read as a repository file.
"""
from __future__ import annotations

import os
import time
from collections import OrderedDict
from typing import Dict, Optional, Tuple

from penguin_lint.core.config import Config
from penguin_lint.core.repo import Entry, Repository, _plain_rel
from penguin_lint.findings import Position, Problem
from penguin_lint.loaders import FORMATS, _human, blob_id, load_bytes, load_file
from penguin_lint.loaders.document import Document

# Parsed documents kept between requests: at most this many, and at most
# this many bytes of the files they were parsed from (a parsed document
# takes some ten times its file's size); the least recently used go first.
MAX_KEPT_DOCUMENTS = 20_000
MAX_KEPT_BYTES = 8 * 1024 * 1024
# A listing whose folder changed less than this long before it was read is
# read again next time (file systems with coarse timestamps).
RACY_NS = 2_000_000_000


class OverlayRepository(Repository):
    def __init__(self, root, config: Config):
        super().__init__(root, config)
        #: repository path -> the bytes of an open buffer (UTF-8)
        self.overlay: Dict[str, bytes] = {}
        #: repository path -> (what it was parsed from, the document, its file's bytes), oldest use first
        self._kept: "OrderedDict[str, Tuple[object, Document, int]]" = OrderedDict()
        self.kept_bytes = 0
        self._kept_lists: Dict[str, Tuple[tuple, int, Dict[str, Entry]]] = {}
        #: files parsed (not found kept) and folders listed from disk, since the start
        self.parsed = 0
        self.scanned = 0

    # -- buffers --------------------------------------------------------------
    def set_buffer(self, rel: str, data: bytes) -> bool:
        """Put a buffer's text over ``rel``; False for a path that is not a
        plain repository path (never read)."""
        if not _plain_rel(rel):
            return False
        self.overlay[rel] = data
        return True

    def drop_buffer(self, rel: str) -> None:
        self.overlay.pop(rel, None)
        kept = self._kept.get(rel)
        if kept is not None and kept[0][0] == "buffer":
            self._forget(rel)  # no text of a closed buffer is read again

    def buffer_is_saved(self, rel: str) -> bool:
        """Whether the buffer over ``rel`` holds what the file on disk holds
        (then nothing that reads the file sees a difference)."""
        data = self.overlay.get(rel)
        if data is None:
            return True
        return Repository.read_bytes(self, rel) == data

    def refresh(self) -> None:
        """Start a new lint pass: what this pass reads is read afresh where
        it may have changed (kept listings and documents are checked, not
        trusted)."""
        self._lists.clear()
        self._docs.clear()
        self._boards = None  # a board added since is walked too

    # -- listings -------------------------------------------------------------
    def _scan(self, rel: str) -> Optional[Dict[str, Entry]]:
        out = self._scan_kept(rel)
        if out is None:
            return None
        # buffers of files not saved yet are files of the folder; a buffer
        # never stands in for a folder, a link or anything but a regular file
        prefix = rel + "/" if rel else ""
        in_packages = rel == self._packages or rel.startswith(self._packages + "/")
        extra = None
        for path, data in self.overlay.items():
            if not path.startswith(prefix):
                continue
            name = path[len(prefix):]
            if "/" in name:
                continue
            e = out.get(name)
            if e is None or e.is_file:
                if extra is None:
                    extra = dict(out)
                # sizes are known in packages only, as in a listing from disk
                extra[name] = Entry(name, False, True, False, e.executable if e else False,
                                    len(data) if in_packages else -1)
        return extra if extra is not None else out

    def _scan_kept(self, rel: str) -> Optional[Dict[str, Entry]]:
        path = os.path.join(self._root_str, rel) if rel else self._root_str
        # entries in packages carry sizes and modes, which a folder's mtime
        # does not follow: those listings are always read again
        in_packages = rel == self._packages or rel.startswith(self._packages + "/")
        if in_packages:
            self.scanned += 1
            return super()._scan(rel)
        try:
            st = os.lstat(path)
        except OSError:
            self.scanned += 1
            return super()._scan(rel)
        key = (st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
        kept = self._kept_lists.get(rel)
        if kept is not None and kept[0] == key and kept[1] - st.st_mtime_ns > RACY_NS:
            return kept[2]
        read_at = time.time_ns()
        self.scanned += 1
        out = super()._scan(rel)
        if out is not None:
            self._kept_lists[rel] = (key, read_at, out)
        return out

    # -- files ----------------------------------------------------------------
    def _load(self, rel: str) -> Document:
        data = self.overlay.get(rel)
        if data is not None:
            key: tuple = ("buffer", data)
            kept = self._kept.get(rel)
            if kept is not None and kept[0] == key:
                self._kept.move_to_end(rel)
                return kept[1]
            if len(data) > self.config.size_limit:
                # the verdict the file gets once saved
                return _too_large(rel, len(data), self.config.size_limit)
            self.parsed += 1
            doc = load_bytes(data, rel)
            doc.content_id = blob_id(data)
            self._keep(rel, key, doc, len(data))
            return doc
        full = os.path.join(self._root_str, rel)
        try:
            st = os.lstat(full)
            key = ("disk", st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)
        except OSError:
            key = None
        kept = self._kept.get(rel)
        if key is not None and kept is not None and kept[0] == key \
                and time.time_ns() - key[1] > RACY_NS:
            self._kept.move_to_end(rel)
            return kept[1]
        self.parsed += 1
        doc = load_file(full, rel, self.config.size_limit)
        if key is not None and doc.file_stat is not None:
            self._keep(rel, key, doc, key[2])
        return doc

    def read_bytes(self, rel: str) -> Optional[bytes]:
        data = self.overlay.get(rel)
        if data is not None and self.is_file(rel):
            return data[:self.config.size_limit + 1]
        return super().read_bytes(rel)

    def _keep(self, rel: str, key: tuple, doc: Document, size: int) -> None:
        self._forget(rel)
        if size > MAX_KEPT_BYTES:
            return  # parsed again when read again, rather than holding more than the budget
        while self._kept and (len(self._kept) >= MAX_KEPT_DOCUMENTS or self.kept_bytes + size > MAX_KEPT_BYTES):
            self._forget(next(iter(self._kept)))
        self._kept[rel] = (key, doc, size)
        self.kept_bytes += size

    def _forget(self, rel: str) -> None:
        kept = self._kept.pop(rel, None)
        if kept is not None:
            self.kept_bytes -= kept[2]


def _too_large(rel: str, size: int, limit: int) -> Document:
    doc = Document(rel, FORMATS.get(os.path.splitext(rel)[1].lower(), "yaml"))
    doc.problems.append(Problem(
        "PL004", f"file is {_human(size)}, over the limit of {_human(limit)}", Position(1, 1),
        "data files stay small; large raw data belongs under data/<benchmark-id>/"))
    doc.content_id = f"size:{size}"
    return doc
