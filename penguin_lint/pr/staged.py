"""What a commit would record: the index, read as a repository.

The pre-commit hook judges the commit, not the working tree: an untracked
file lying next to a staged one is not part of it, and an edit that is not
staged is not either. :class:`IndexTree` offers the index below the linted
root as :class:`~penguin_lint.pr.basetree.GitTree` offers a commit: listed
from one read-only ``git ls-files -s -z`` limited to the layout's folders,
files read by object id through the same ``git cat-file --batch`` process.
Nothing is checked out and nothing is written into ``.git``.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from penguin_lint.core.repo import Entry
from penguin_lint.pr.git import READ_ONLY, GitError, GitObjects, GitRepo, _split_raw

_FILE, _EXEC, _LINK, _GITLINK = "100644", "100755", "120000", "160000"
_DIR = object()  # the "object id" of a folder: the index has none


class IndexTree:
    """The files the index holds below the linted root (only those under
    ``scope``, root-relative folders, when given)."""

    commit = None  # nothing committed: what is about to be

    def __init__(self, g: GitRepo, scope: Sequence[str] = (), sized: Callable[[str], bool] = lambda rel: False):
        self._top = g.top
        self.objects = g.take_objects()
        self._sized = sized  # folders whose listings carry each file's size (PL004 reads it in packages)
        self._oids: Dict[str, object] = {"": _DIR}
        self._modes: Dict[str, str] = {}
        self._children: Dict[str, Dict[str, str]] = {"": {}}  # folder -> name -> path
        self.gitlinks: Set[str] = set()
        self.sizes: Dict[str, int] = {}
        self._sizer: Optional[subprocess.Popen] = None
        prefix = g.prefix
        if scope and "" not in scope:
            spec = ["--"] + [f":(literal){g.to_top(s)}" for s in scope]
        elif prefix:
            spec = ["--", f":(literal){prefix.rstrip('/')}"]
        else:
            spec = []
        raw = g.run("ls-files", "-s", "-z", *spec)[1]
        children, oids, modes = self._children, self._oids, self._modes
        for rec in raw.split(b"\0"):
            head, tab, name = rec.partition(b"\t")
            if not tab:
                continue
            fields = head.split(b" ")
            if len(fields) != 3 or fields[2] not in (b"0", b"2"):
                continue  # an unmerged file counts as our side: no commit records the others
            path = g.to_root(os.fsdecode(name))
            if not path or path in oids:
                continue
            mode = fields[0].decode("ascii", "replace")
            oids[path] = fields[1].decode("ascii")
            modes[path] = mode
            if mode == _GITLINK:
                self.gitlinks.add(path)
            child = path
            parent = path.rpartition("/")[0]
            while True:
                kids = children.get(parent)
                if kids is None:
                    children[parent] = {child.rpartition("/")[2]: child}
                    oids[parent] = _DIR
                    child = parent
                    parent = parent.rpartition("/")[0]
                    continue
                kids[child.rpartition("/")[2]] = child
                break

    # -- GitTree's interface ---------------------------------------------------
    def oid(self, rel: str):
        return _DIR if rel in self._children else None

    def listing(self, rel: str, oid) -> Dict[str, Entry]:
        out: Dict[str, Entry] = {}
        kids = self._children.get(rel, {})
        sizes = self._size_of([p for p in kids.values() if self._modes.get(p) in (_FILE, _EXEC)]) \
            if self._sized(rel) else {}
        for name, path in kids.items():
            if path in self._children:
                out[name] = Entry(name, True, False, False, False, -1)
                continue
            mode = self._modes[path]
            out[name] = Entry(name, False, mode in (_FILE, _EXEC), mode == _LINK, mode == _EXEC,
                              sizes.get(path, -1))
        return out

    def blob(self, rel: str, limit: Optional[int] = None) -> Optional[bytes]:
        oid = self._oids.get(rel)
        if not isinstance(oid, str) or self._modes.get(rel) not in (_FILE, _EXEC):
            return None
        kind, data = self.objects.read(oid, limit)
        self.sizes[rel] = self.objects.last_size
        return data if kind == "blob" else None

    def close(self) -> None:
        self.objects.close()
        if self._sizer is not None:
            try:
                self._sizer.stdin.close()
                self._sizer.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):  # pragma: no cover
                self._sizer.kill()
            self._sizer = None

    # -- sizes -------------------------------------------------------------------
    def _size_of(self, paths: List[str]) -> Dict[str, int]:
        """The blob sizes of ``paths``, from one ``git cat-file --batch-check``
        asked in chunks (a pipe never fills both ways)."""
        out: Dict[str, int] = {}
        if not paths:
            return out
        if self._sizer is None:
            try:
                self._sizer = subprocess.Popen(
                    ["git", *READ_ONLY, "cat-file", "--batch-check=%(objectsize)"], cwd=self._top,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except OSError as e:
                raise GitError(f"cannot run git: {e.strerror}") from None
        proc = self._sizer
        for i in range(0, len(paths), 512):
            chunk = paths[i:i + 512]
            try:
                proc.stdin.write(b"".join(self._oids[p].encode("ascii") + b"\n" for p in chunk))
                proc.stdin.flush()
                for p in chunk:
                    line = proc.stdout.readline().strip()
                    if line.isdigit():
                        out[p] = int(line)
            except (OSError, ValueError):
                raise GitError("git cat-file ended unexpectedly") from None
        return out


def open_index(root: Path, scope: Sequence[str] = (), sized: Callable[[str], bool] = lambda rel: False) -> IndexTree:
    """The index below ``root`` (limited to the ``scope`` folders)."""
    g = GitRepo(root)
    try:
        return IndexTree(g, scope, sized)
    finally:
        g.close()


def staged_change(root: Path, scope: Sequence[str] = ()) -> Tuple[List[Tuple[str, str, Optional[str]]], bool]:
    """(entries, whether HEAD has a commit): what the index changes against
    ``HEAD``, as (status letter, path, old path for renames) relative to
    ``root``, from one ``git diff-index --cached`` (tree against index: the
    work tree is never scanned)."""
    g = GitRepo(root)
    try:
        if scope and "" not in scope:
            spec = ["--"] + [f":(literal){g.to_top(s)}" for s in scope]
        elif g.prefix:
            spec = ["--", f":(literal){g.prefix.rstrip('/')}"]
        else:
            spec = []
        born = g.head_born()
        if born:
            raw = g.run("diff-index", "--cached", "-r", "-z", "-M", "--raw", "--no-ext-diff", "HEAD", *spec)[1]
            found = [(s, p, o) for s, p, o, _link in _split_raw(raw)]
        else:  # before the first commit, everything staged is added
            raw = g.run("ls-files", "-z", *spec)[1]
            found = [("A", os.fsdecode(n), None) for n in raw.split(b"\0") if n]
        out = []
        for status, path, old in found:
            rpath = g.to_root(path)
            if rpath is not None:
                out.append((status, rpath, g.to_root(old) if old is not None else None))
        return out, born
    finally:
        g.close()


def untracked_near(root: Path, folders: Sequence[str], limit: int = 5) -> Tuple[List[str], int]:
    """(up to ``limit`` untracked, not ignored files in ``folders``
    (root-relative), how many in all): named in a notice, since the commit
    does not contain them. Only the folders of what is committed are
    listed, so the look stays small."""
    folders = sorted({f for f in folders if f})
    if not folders:
        return [], 0
    g = GitRepo(root)
    try:
        raw = g.run("ls-files", "--others", "--exclude-standard", "-z", "--",
                    *[f":(literal){g.to_top(f)}" for f in folders])[1]
    except GitError:
        return [], 0  # only a notice: never a reason to fail the run
    finally:
        g.close()
    names = [n for n in (g.to_root(os.fsdecode(r)) for r in raw.split(b"\0") if r) if n]
    return names[:limit], len(names)
