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
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from penguin_lint.core.repo import Entry
from penguin_lint.pr.git import GitError, GitRepo, _split_raw, git_pipe

_FILE, _EXEC, _LINK, _GITLINK = "100644", "100755", "120000", "160000"
_DIR = object()  # the "object id" of a folder: the index has none
# an intent-to-add entry (``git add -N``) is recorded with the empty blob's id
_EMPTY_BLOBS = (b" e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 ",
                b" 473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813 ")
_INTENT_TO_ADD = 0x20000000  # the index entry's flag, as ``ls-files --debug`` prints it


def _path_of(rec: bytes) -> bytes:
    return rec[rec.find(b"\t") + 1:]


def bisect_left(recs: List[bytes], path: bytes, lo: int = 0, hi: Optional[int] = None) -> int:
    """The first record at or after ``path`` (records sorted by path)."""
    hi = len(recs) if hi is None else hi
    while lo < hi:
        mid = (lo + hi) // 2
        if _path_of(recs[mid]) < path:
            lo = mid + 1
        else:
            hi = mid
    return lo


class IndexTree:
    """The files the index holds below the linted root (only those under
    ``scope``, root-relative folders, when given).

    ``git ls-files`` lists the index sorted by path bytes: a folder's
    entries are one run of that list, found by bisection when a check first
    lists the folder. Nothing is parsed for the folders no check reads (a
    hook run reads a few of tens of thousands)."""

    commit = None  # nothing committed: what is about to be

    def __init__(self, g: GitRepo, scope: Sequence[str] = (), sized: Callable[[str], bool] = lambda rel: False):
        self._top = g.top
        self._git = g  # for git's other questions (its cat-file process is ours)
        self.objects = g.take_objects()
        self._sized = sized  # folders whose listings carry each file's size (PL004 reads it in packages)
        self._prefix = os.fsencode(g.prefix)
        self._oids: Dict[str, str] = {}   # file path -> blob id, for the folders listed
        self._modes: Dict[str, str] = {}  # file path -> mode, likewise
        self.sizes: Dict[str, int] = {}
        self._sizer: Optional[subprocess.Popen] = None
        raw = g.run("ls-files", "-s", "-z", *self._spec(scope))[1]
        self._recs: List[bytes] = [r for r in raw.split(b"\0") if r]
        if any(e in raw for e in _EMPTY_BLOBS):
            # ``git commit`` leaves intent-to-add entries out: so does the hook
            ita = self._intent_to_add(scope)
            if ita:
                self._recs = [r for r in self._recs if _path_of(r) not in ita]
        # a submodule is rare: the records are looked through only when one may be there
        self._gitlinks: Optional[Set[str]] = None if b"160000 " in raw else set()

    @property
    def gitlinks(self) -> Set[str]:
        """Paths (root-relative) the index records as gitlinks (submodules)."""
        if self._gitlinks is None:
            n = len(self._prefix)
            self._gitlinks = {os.fsdecode(_path_of(r)[n:]) for r in self._recs
                              if r.startswith(b"160000 ") and _path_of(r).startswith(self._prefix)}
        return self._gitlinks

    def _run(self, rel: str) -> Tuple[int, int, bytes]:
        """(start, end, prefix) of the records below folder ``rel``."""
        prefix = self._prefix + (os.fsencode(rel) + b"/" if rel else b"")
        lo = bisect_left(self._recs, prefix)
        # "0" follows "/" in byte order: the end of everything below the prefix
        hi = bisect_left(self._recs, prefix[:-1] + b"0", lo) if prefix else len(self._recs)
        return lo, hi, prefix

    def _intent_to_add(self, scope: Sequence[str]) -> Set[bytes]:
        """Paths (top-relative bytes) of the index's intent-to-add entries.

        Only ``ls-files --debug`` shows an entry's flags. Its block follows
        each NUL-ended path, five lines, the last ``size: N<TAB>flags: X``;
        asked only when an empty blob is listed, which every such entry is."""
        raw = self._git.run("ls-files", "-z", "--debug", *self._spec(scope))[1]
        out: Set[bytes] = set()
        parts = raw.split(b"\0")
        for i, (path, after) in enumerate(zip(parts, parts[1:])):
            if i:  # the previous entry's five lines, then this path (which may hold newlines)
                path = path.split(b"\n", 5)[-1]
            block = after.split(b"\n", 5)[:5]
            flags = block[-1].rpartition(b"flags:")[2].strip() if len(block) == 5 else b""
            try:
                if int(flags, 16) & _INTENT_TO_ADD:
                    out.add(path)
            except ValueError:
                continue
        return out

    # -- GitTree's interface ---------------------------------------------------
    def oid(self, rel: str):
        if rel == "":
            return _DIR
        lo, hi, _prefix = self._run(rel)
        return _DIR if lo < hi else None

    def listing(self, rel: str, oid) -> Dict[str, Entry]:
        out: Dict[str, Entry] = {}
        lo, hi, prefix = self._run(rel)
        recs, n = self._recs, len(prefix)
        files: List[str] = []
        i = lo
        while i < hi:
            rec = recs[i]
            head, _, path = rec.partition(b"\t")
            name_b, slash, _rest = path[n:].partition(b"/")
            name = os.fsdecode(name_b)
            if slash:  # a folder: skip what lies below it
                out[name] = Entry(name, True, False, False, False, -1)
                i = bisect_left(recs, path[:n] + name_b + b"0", i, hi)
                continue
            i += 1
            fields = head.split(b" ")
            if len(fields) != 3 or name in out or fields[2] not in (b"0", b"2"):
                continue  # an unmerged file counts as our side: no commit records the others
            mode = fields[0].decode("ascii", "replace")
            child = f"{rel}/{name}" if rel else name
            self._oids[child] = fields[1].decode("ascii")
            self._modes[child] = mode
            if mode in (_FILE, _EXEC):
                files.append(child)
            # a gitlink (submodule) shows as the empty folder a checkout leaves
            # for it, as in the working tree: PL007 names it as --all does
            out[name] = Entry(name, mode == _GITLINK, mode in (_FILE, _EXEC), mode == _LINK, mode == _EXEC, -1)
        if files and self._sized(rel):
            for child, size in self._size_of(files).items():
                name = child.rpartition("/")[2]
                out[name] = out[name]._replace(size=size)
        return out

    def blob(self, rel: str, limit: Optional[int] = None) -> Optional[bytes]:
        oid = self._oids.get(rel)
        if oid is None or self._modes.get(rel) not in (_FILE, _EXEC):
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

    # -- what the commit changes -------------------------------------------------
    def _spec(self, scope: Sequence[str]) -> List[str]:
        g = self._git
        if scope and "" not in scope:
            return ["--"] + [f":(literal){g.to_top(s)}" for s in scope]
        if g.prefix:
            return ["--", f":(literal){g.prefix.rstrip('/')}"]
        return []

    def changes(self, scope: Sequence[str] = ()) -> List[Tuple[str, str, Optional[str]]]:
        """What the index changes against ``HEAD``, as (status letter, path,
        old path for renames) relative to the root, from one ``git
        diff-index --cached`` (tree against index: the work tree is never
        scanned); before the first commit, everything staged is added."""
        g = self._git
        spec = self._spec(scope)
        if self.objects.resolve("HEAD^{commit}") is not None:
            raw = g.run("diff-index", "--cached", "-r", "-z", "-M", "--raw", "--no-ext-diff",
                        "--ita-invisible-in-index", "HEAD", *spec)[1]
            found = [(st, p, o) for st, p, o, _link in _split_raw(raw)]
        else:
            raw = g.run("ls-files", "-s", "-z", *spec)[1]
            recs = [r for r in raw.split(b"\0") if r]
            ita = self._intent_to_add(scope) if any(e in raw for e in _EMPTY_BLOBS) else set()
            found = [("A", os.fsdecode(_path_of(r)), None) for r in recs if _path_of(r) not in ita]
        out = []
        for status, path, old in found:
            rpath = g.to_root(path)
            if rpath is not None:
                out.append((status, rpath, g.to_root(old) if old is not None else None))
        return out

    def untracked(self, folders: Sequence[str], limit: int = 5) -> Tuple[List[str], int]:
        """(up to ``limit`` untracked, not ignored files in ``folders``
        (root-relative), how many in all): a notice names them, since the
        commit does not contain them. Only the folders of what is committed
        are listed, so the look stays small."""
        folders = sorted({f for f in folders if f})
        if not folders:
            return [], 0
        g = self._git
        try:
            raw = g.run("ls-files", "--others", "--exclude-standard", "-z", "--",
                        *[f":(literal){g.to_top(f)}" for f in folders])[1]
        except GitError:
            return [], 0  # only a notice: never a reason to fail the run
        names = [n for n in (g.to_root(os.fsdecode(r)) for r in raw.split(b"\0") if r) if n]
        return names[:limit], len(names)

    # -- sizes -------------------------------------------------------------------
    def _size_of(self, paths: List[str]) -> Dict[str, int]:
        """The blob sizes of ``paths``, from one ``git cat-file --batch-check``
        asked in chunks (a pipe never fills both ways)."""
        out: Dict[str, int] = {}
        if not paths:
            return out
        if self._sizer is None:
            self._sizer = git_pipe(self._top, "cat-file", "--batch-check=%(objectsize)")
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


