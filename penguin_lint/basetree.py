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
:class:`~penguin_lint.repo.Repository` (listing, kinds, bytes), so the same
rules run on both sides of a change.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict, Optional, Tuple

from penguin_lint.config import Config
from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.document import Document
from penguin_lint.repo import Entry, Repository, _plain_rel

# git's options that keep a read-only command read-only: no index refresh,
# no lock taken, no file-system monitor started.
READ_ONLY = ("--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off")

_TREE, _FILE, _EXEC, _LINK = "40000", "100644", "100755", "120000"


class GitObjects:
    """One ``git cat-file --batch`` process, asked by object id."""

    def __init__(self, top: str):
        self.top = top
        self._proc: Optional[subprocess.Popen] = None
        self.last_size = 0  # the size git gave for the last object read

    def _start(self) -> subprocess.Popen:
        if self._proc is None:
            from penguin_lint.gitscope import GitError

            try:
                self._proc = subprocess.Popen(
                    ["git", *READ_ONLY, "cat-file", "--batch"], cwd=self.top,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except OSError as e:
                raise GitError(f"cannot run git: {e.strerror}") from None
        return self._proc

    def resolve(self, spec: str) -> Optional[str]:
        """The object id revision ``spec`` names, or None."""
        return self._ask(spec)[0]

    def read(self, oid: str, limit: Optional[int] = None) -> Tuple[Optional[str], bytes]:
        """(type, content) of object ``oid`` (an id, or any revision such as
        ``HEAD^{commit}``: cat-file resolves names as rev-parse does); (None,
        b"") when it is missing. With ``limit``, an object over it yields
        only its first ``limit + 1`` bytes, as a file read with that limit."""
        _, kind, data = self._ask(oid, limit)
        return kind, data

    def _ask(self, name: str, limit: Optional[int] = None) -> Tuple[Optional[str], Optional[str], bytes]:
        """(object id, type, content) of ``name``; (None, None, b"") when
        missing. The header gives the size before the content: past
        ``limit``, the rest is read through and dropped, never held."""
        from penguin_lint.gitscope import GitError

        proc = self._start()
        try:
            proc.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
        except (OSError, ValueError):
            raise GitError("git cat-file ended unexpectedly") from None
        if len(header) != 3 or header[-1] in (b"missing", b"ambiguous"):
            if header[-1:] == [b"missing"] or header[-1:] == [b"ambiguous"]:
                return None, None, b""
            raise GitError("git cat-file ended unexpectedly")
        oid, kind, size = header[0].decode("ascii", "replace"), header[1].decode("ascii", "replace"), int(header[2])
        self.last_size = size
        keep = size if limit is None or size <= limit else limit + 1
        data = proc.stdout.read(keep)
        got, rest = len(data), size - keep
        while rest > 0:
            chunk = proc.stdout.read(min(rest, 1 << 20))
            if not chunk:
                break
            rest -= len(chunk)
        proc.stdout.read(1)  # the newline after the content
        if got != keep or rest:
            raise GitError("git cat-file ended unexpectedly")
        return oid, kind, data

    def close(self) -> None:
        if self._proc is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):  # pragma: no cover
                self._proc.kill()
            self._proc = None


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
