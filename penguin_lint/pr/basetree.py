"""The base a change is compared with: a git tree read as a repository.

A pull request is judged against the tree it started from (the merge base
in diff mode; ``HEAD`` for the paths the pre-commit hook passes). That tree
is read with git plumbing only — one ``git cat-file --batch`` process asked
for tree and blob objects by their ids — and lazily: a folder is listed
when a check first looks into it, a file read when a check first loads it.
Nothing is checked out, no worktree is made, nothing is written into
``.git``. Objects are named by id, never by path, so a file name from the
pull request (a newline, a colon) cannot confuse the batch protocol.

:class:`BaseRepository` offers the same interface as
:class:`~penguin_lint.core.repo.Repository` (listing, kinds, bytes), so the same
rules run on both sides of a change.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Optional

from penguin_lint.core.config import Config
from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.document import Document
from penguin_lint.core.repo import Entry, Repository, _plain_rel
from penguin_lint.pr.git import GitObjects

_TREE, _FILE, _EXEC, _LINK = "40000", "100644", "100755", "120000"


def _parse_tree(data: bytes, hash_len: int):
    """(mode, name, object id) of each entry of a raw tree object."""
    i, n = 0, len(data)
    while i < n:
        sp = data.index(b" ", i)
        nul = data.index(b"\0", sp)
        mode = data[i:sp].decode("ascii")
        name = os.fsdecode(data[sp + 1:nul])
        oid = data[nul + 1:nul + 1 + hash_len].hex()
        i = nul + 1 + hash_len
        yield mode, name, oid


class GitTree:
    """The files of one commit below a folder of its work tree, listed and
    read lazily through :class:`GitObjects`."""

    def __init__(self, top: str, commit: Optional[str], prefix: str = "",
                 objects: Optional[GitObjects] = None, owns: Optional[bool] = None):
        self.commit = commit  # None: a repository without commits has an empty base
        # a process shared with the caller (GitRepo.objects) is the caller's
        # to close, unless handed over (GitRepo.take_objects)
        self._owns = objects is None if owns is None else owns
        self.objects = objects if objects is not None else GitObjects(top)
        self._hash_len = len(commit) // 2 if commit else 20
        self._oids: Dict[str, Optional[str]] = {}  # root-relative path -> object id
        self._root = prefix.strip("/")
        self.sizes: Dict[str, int] = {}  # path -> size of the blob read (maybe only in part)

    def root_oid(self) -> Optional[str]:
        if "" not in self._oids:
            oid = None
            if self.commit is not None:
                kind, data = self.objects.read(self.commit)
                if kind == "commit" and data.startswith(b"tree "):
                    oid = data[5:data.index(b"\n")].decode("ascii")
                for seg in self._root.split("/") if self._root else ():
                    if oid is None:
                        break
                    oid = dict((name, (mode, o)) for mode, name, o in self._tree(oid)).get(seg, (None, None))
                    oid = oid[1] if oid[0] == _TREE else None
            self._oids[""] = oid
        return self._oids[""]

    def _tree(self, oid: str):
        kind, data = self.objects.read(oid)
        return list(_parse_tree(data, self._hash_len)) if kind == "tree" else []

    def listing(self, rel: str, oid: str) -> Dict[str, Entry]:
        out: Dict[str, Entry] = {}
        for mode, name, child in self._tree(oid):
            path = f"{rel}/{name}" if rel else name
            self._oids[path] = child
            out[name] = Entry(name, mode == _TREE, mode in (_FILE, _EXEC), mode == _LINK, mode == _EXEC)
        return out

    def oid(self, rel: str) -> Optional[str]:
        return self.root_oid() if rel == "" else self._oids.get(rel)

    def blob(self, rel: str, limit: Optional[int] = None) -> Optional[bytes]:
        """The file's bytes; with ``limit``, at most ``limit + 1`` of them."""
        oid = self._oids.get(rel)
        if oid is None:
            return None
        kind, data = self.objects.read(oid, limit)
        self.sizes[rel] = self.objects.last_size
        return data if kind == "blob" else None

    def close(self) -> None:
        if self._owns:
            self.objects.close()


class BaseRepository(Repository):
    """A :class:`Repository` whose files come from a git tree (the base of a
    change) instead of the working tree."""

    def __init__(self, tree: GitTree, root: Path, config: Config, label: str = ""):
        super().__init__(root, config)
        self.tree = tree
        self.label = label  # how the user named the base ("origin/main", "HEAD")

    @property
    def commit(self) -> Optional[str]:
        return self.tree.commit

    def _scan(self, rel: str) -> Optional[Dict[str, Entry]]:
        oid = self.tree.oid(rel)
        if oid is None:
            return None
        return self.tree.listing(rel, oid)

    def size(self, rel: str) -> int:
        e = self.entry(rel)
        if e is None or not e.is_file or e.size >= 0:
            return -1 if e is None else e.size
        file_size = getattr(self.tree, "file_size", None)  # the index can say; a base tree is not asked
        return file_size(rel) if file_size is not None else -1

    def blob_id(self, rel: str) -> Optional[str]:
        """git's id of the regular file at ``rel`` in the base, from its
        folder's listing (no blob is read), else None."""
        if not _plain_rel(rel) or not self.is_file(rel):
            return None
        return self.tree.oid(rel)

    def read_bytes(self, rel: str) -> Optional[bytes]:
        """The bytes of the regular file at ``rel`` in the base, else None;
        as in the work tree, at most the size limit and one byte more (a
        blob over the limit is never held whole)."""
        if not _plain_rel(rel) or not self.is_file(rel):
            return None
        return self.tree.blob(rel, self.config.size_limit)

    def _load(self, rel: str) -> Document:
        raw = self.read_bytes(rel)
        limit = self.config.size_limit
        if raw is None:  # pragma: no cover - is_file said it is there
            raw = b""
        if len(raw) > limit:
            from penguin_lint.findings import Position, Problem
            from penguin_lint.loaders import FORMATS

            doc = Document(rel, FORMATS.get(os.path.splitext(rel)[1].lower(), "yaml"))
            from penguin_lint.loaders import _human

            size = self.tree.sizes.get(rel, len(raw))
            # worded as for a work-tree file, so that the two compare as one finding
            doc.problems.append(Problem(
                "PL004", f"file is {_human(size)}, over the limit of {_human(limit)}", Position(1, 1),
                "data files stay small; large raw data belongs under data/<benchmark-id>/"))
            return doc
        return load_bytes(raw, rel)

    def close(self) -> None:
        self.tree.close()
