"""What a commit would record: the index, read as a repository.

The pre-commit hook judges the commit, not the working tree: an untracked
file lying next to a staged one is not part of it, and an edit that is not
staged is not either. :class:`IndexTree` offers the index below the linted
root as :class:`~penguin_lint.pr.basetree.GitTree` offers a commit: HEAD's
tree with the staged entries of one read-only ``git diff-index --cached``
(limited to the layout's folders) on top, folders and files read by object
id through one ``git cat-file --batch`` process. Nothing is checked out and
nothing is written into ``.git``; the whole index is never listed.
"""
from __future__ import annotations

import os
import stat
import subprocess
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from penguin_lint.core.repo import Entry
from penguin_lint.pr.basetree import _parse_tree
from penguin_lint.pr.git import GitError, GitRepo, git_pipe

_TREE, _FILE, _EXEC, _LINK, _GITLINK = "40000", "100644", "100755", "120000", "160000"
_DIR = object()  # the "object id" of a folder: the index has none
# an intent-to-add entry (``git add -N``) is recorded with the empty blob's id
_EMPTY_BLOBS = (b" e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 ",
                b" 473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813 ")
_INTENT_TO_ADD = 0x20000000  # the index entry's flag, as ``ls-files --debug`` prints it


def _path_of(rec: bytes) -> bytes:
    return rec[rec.find(b"\t") + 1:]


def _split_raw_entries(raw: bytes) -> List[Tuple[str, str, str, str, Optional[str]]]:
    """``git diff-index -r -z --raw`` as (new mode, new object id, status
    letter, path, old path for renames), paths relative to the top."""
    parts = raw.split(b"\0")
    out: List[Tuple[str, str, str, str, Optional[str]]] = []
    i = 0
    while i < len(parts) and parts[i].startswith(b":"):
        fields = parts[i][1:].split(b" ")
        if len(fields) < 5:  # pragma: no cover - not raw output
            break
        mode, oid = fields[1].decode("ascii", "replace"), fields[3].decode("ascii", "replace")
        status = fields[4].decode("ascii", "replace")[:1]
        if status in ("R", "C") and i + 2 < len(parts):
            out.append((mode, oid, status, os.fsdecode(parts[i + 2]), os.fsdecode(parts[i + 1])))
            i += 3
        elif i + 1 < len(parts):
            out.append((mode, oid, status, os.fsdecode(parts[i + 1]), None))
            i += 2
        else:  # pragma: no cover - truncated output
            break
    return out


class _Gitlinks:
    """The gitlinks (submodules) the index records, answered from the
    folders it lists: a path is looked up in its folder's listing, and the
    gitlinks below a folder are those of the listings read under it (a walk
    of the folder reads them all first)."""

    def __init__(self, tree: "IndexTree"):
        self._tree = tree

    def __contains__(self, rel: object) -> bool:
        if not isinstance(rel, str) or not rel:
            return False
        parent, _, name = rel.rpartition("/")
        if parent and self._tree.oid(parent) is None:
            return False
        ents = self._tree._index_listing(parent)
        return bool(ents) and ents.get(name, ("",))[0] == _GITLINK

    def __iter__(self):
        seen = set()
        for rel, ents in list(self._tree._lists.items()):
            for name, (mode, _oid) in (ents or {}).items():
                if mode == _GITLINK:
                    seen.add(f"{rel}/{name}" if rel else name)
        return iter(sorted(seen))

    def __or__(self, other):
        return set(self) | set(other)


class IndexTree:
    """The files the index holds below the linted root (only those under
    ``scope``, root-relative folders, when given).

    The index is ``HEAD``'s tree with what is staged on top: folders are
    listed from ``HEAD``'s tree objects when a check first lists them, and
    the staged entries (one ``git diff-index --cached``, which compares the
    index with ``HEAD`` and never scans the work tree) replace, add or
    remove names in them. A hook run therefore reads a few folders, however
    many files the repository holds. Before the first commit the index is
    all there is: its entries are listed from one ``git ls-files -s``."""

    commit = None  # nothing committed: what is about to be

    def __init__(self, g: GitRepo, scope: Sequence[str] = (), sized: Callable[[str], bool] = lambda rel: False):
        self._top = g.top
        self._git = g  # for git's other questions (its cat-file process is ours)
        self.objects = g.take_objects()
        self._sized = sized  # folders whose files' sizes PL004 reads (packages)
        self._scope = [s for s in scope]
        self._oids: Dict[str, str] = {}   # file path -> blob id, for the folders listed
        self._modes: Dict[str, str] = {}  # file path -> mode, likewise
        self._lists: Dict[str, Optional[Dict[str, Tuple[str, str]]]] = {}  # folder -> name -> (mode, id)
        self._head_lists: Dict[str, Dict[str, Tuple[str, str]]] = {}
        self.sizes: Dict[str, int] = {}
        self._sizer: Optional[subprocess.Popen] = None
        #: HEAD's commit, or None before the first commit
        self.head = self.objects.resolve("HEAD^{commit}")
        self._hash_len = len(self.head) // 2 if self.head else 20
        self._head_root: Optional[str] = None
        if self.head is not None:
            self._head_root = self._head_folder_oid(g.prefix.strip("/"), top_level=True)
        # root-relative path -> (mode, id) the index records, None: not in the index
        self._staged: Dict[str, Optional[Tuple[str, str]]] = {}
        self._below: Dict[str, Set[str]] = {}  # folder -> the staged paths below it
        self._changes = self._read_changes()
        self._gitlinks = _Gitlinks(self)

    # -- reading HEAD's trees ------------------------------------------------------
    def _tree(self, oid: Optional[str]) -> Dict[str, Tuple[str, str]]:
        if oid is None:
            return {}
        kind, data = self.objects.read(oid)
        if kind != "tree":
            return {}
        return {name: (mode, child) for mode, name, child in _parse_tree(data, self._hash_len)}

    def _head_folder_oid(self, top_rel: str, top_level: bool = False) -> Optional[str]:
        """The tree id of folder ``top_rel`` (relative to the top) in HEAD."""
        kind, data = self.objects.read(self.head)
        oid = data[5:data.index(b"\n")].decode("ascii") if kind == "commit" and data.startswith(b"tree ") else None
        for seg in top_rel.split("/") if top_rel else ():
            mode, oid = self._tree(oid).get(seg, (None, None))
            if mode != _TREE:
                return None
        return oid

    def _head_listing(self, rel: str) -> Dict[str, Tuple[str, str]]:
        """HEAD's entries of folder ``rel`` (root-relative): name -> (mode, id)."""
        if rel not in self._head_lists:
            if self.head is None:
                out: Dict[str, Tuple[str, str]] = {}
            elif rel == "":
                out = self._tree(self._head_root)
            else:
                parent, _, name = rel.rpartition("/")
                mode, oid = self._head_listing(parent).get(name, (None, None))
                out = self._tree(oid) if mode == _TREE else {}
            self._head_lists[rel] = out
        return self._head_lists[rel]

    # -- the staged entries --------------------------------------------------------
    def _read_changes(self) -> List[Tuple[str, str, Optional[str]]]:
        """What the index changes against HEAD, (status, path, old path) relative
        to the root; the index's entry of every path it names is noted."""
        g = self._git
        spec = self._spec(self._scope)
        found: List[Tuple[str, str, Optional[str]]] = []
        unmerged: List[str] = []
        if self.head is not None:
            raw = g.run("diff-index", "--cached", "-r", "-z", "-M", "--raw", "--no-ext-diff",
                        "--ita-invisible-in-index", "HEAD", *spec)[1]
            for new_mode, new_oid, status, path, old in _split_raw_entries(raw):
                if status == "U":
                    unmerged.append(path)
                    continue
                if old is not None:
                    self._note(old, None)
                self._note(path, None if status == "D" else (new_mode, new_oid))
                found.append((status, path, old))
        else:
            raw = g.run("ls-files", "-s", "-z", *spec)[1]
            recs = [r for r in raw.split(b"\0") if r]
            ita = self._intent_to_add(self._scope) if any(e in raw for e in _EMPTY_BLOBS) else set()
            for r in recs:
                if _path_of(r) in ita:
                    continue
                path = os.fsdecode(_path_of(r))
                if self._note_record(r):
                    found.append(("A", path, None))
        if unmerged:
            # a conflicted file counts as our side: no commit records the others
            raw = g.run("ls-files", "-s", "-z", "--", *[f":(literal){p}" for p in unmerged])[1]
            for p in unmerged:
                self._note(p, None)
            for r in raw.split(b"\0"):
                if r:
                    self._note_record(r)
            found.extend(("M", p, None) for p in unmerged)
        out = []
        for status, path, old in found:
            rpath = g.to_root(path)
            if rpath is not None:
                out.append((status, rpath, g.to_root(old) if old is not None else None))
        return out

    def _note_record(self, rec: bytes) -> bool:
        """Note one ``ls-files -s`` record (stage 0, or 2: our side of a conflict)."""
        head, _, path = rec.partition(b"\t")
        fields = head.split(b" ")
        if len(fields) != 3 or fields[2] not in (b"0", b"2"):
            return False
        self._note(os.fsdecode(path), (fields[0].decode("ascii", "replace"), fields[1].decode("ascii")))
        return True

    def _note(self, top_path: str, entry: Optional[Tuple[str, str]]) -> None:
        rpath = self._git.to_root(top_path)
        if rpath is None or not rpath:
            return
        self._staged[rpath] = entry
        parent = rpath
        while parent:
            parent = parent.rpartition("/")[0]
            self._below.setdefault(parent, set()).add(rpath)

    def _visible(self, rel: str) -> bool:
        """Whether ``rel`` lies in the scope (or leads to it)."""
        scope = self._scope
        if not scope or "" in scope:
            return True
        return any(rel == s or rel.startswith(s + "/") or s.startswith(rel + "/") for s in scope)

    def _index_listing(self, rel: str) -> Optional[Dict[str, Tuple[str, str]]]:
        """The index's entries of folder ``rel``: name -> (mode, id), folders
        with the mode ``_TREE``; None when the index has no such folder."""
        if rel in self._lists:
            return self._lists[rel]
        out = dict(self._head_listing(rel)) if self.head is not None else {}
        if rel and not out and rel not in self._below:
            self._lists[rel] = None
            return None
        n = len(rel) + 1 if rel else 0
        below: Dict[str, bool] = {}  # subfolder name -> whether something is staged in it
        for path in self._below.get(rel, ()):
            name, slash, _rest = path[n:].partition("/")
            if not slash:
                entry = self._staged[path]
                if entry is not None:
                    out[name] = entry
                elif name in out and out[name][0] != _TREE:
                    del out[name]
            else:
                below[name] = below.get(name, False) or self._staged[path] is not None
        for name, added in below.items():
            if name in out and out[name][0] != _TREE:
                continue  # a file replaced the folder: its old files are the deletions below
            child = f"{rel}/{name}" if rel else name
            if added or (name in out and self._index_listing(child)):
                out[name] = (_TREE, out.get(name, (_TREE, ""))[1])
            else:
                out.pop(name, None)  # every file of it deleted
        if not rel:
            out = {k: v for k, v in out.items() if self._visible(k)}
        if rel and not out:
            self._lists[rel] = None
            return None
        self._lists[rel] = out
        return out

    @property
    def gitlinks(self) -> "_Gitlinks":
        """Paths (root-relative) the index records as gitlinks (submodules)."""
        return self._gitlinks

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
        # each folder on the way down is one in the index (a loop, not a
        # recursion: a change can nest folders thousands deep)
        parent = ""
        for name in rel.split("/") if rel else ():
            ents = self._index_listing(parent)
            mode = ents.get(name, (None,))[0] if ents else None
            here = f"{parent}/{name}" if parent else name
            if mode != _TREE or self._index_listing(here) is None:
                return None
            parent = here
        return _DIR

    def listing(self, rel: str, oid) -> Dict[str, Entry]:
        out: Dict[str, Entry] = {}
        files: List[str] = []
        for name, (mode, child_oid) in sorted((self._index_listing(rel) or {}).items()):
            if mode == _TREE:
                out[name] = Entry(name, True, False, False, False, -1)
                continue
            child = f"{rel}/{name}" if rel else name
            self._oids[child] = child_oid
            self._modes[child] = mode
            if mode in (_FILE, _EXEC):
                files.append(child)
            # a gitlink (submodule) shows as the empty folder a checkout leaves
            # for it, as in the working tree: PL007 names it as --all does
            out[name] = Entry(name, mode == _GITLINK, mode in (_FILE, _EXEC), mode == _LINK, mode == _EXEC, -1)
        return out

    def file_size(self, rel: str) -> int:
        """The size of the file at ``rel`` where PL004 reads it (packages),
        asked of git when first needed: a run that checks no package file
        starts no process for it. -1: not asked there, or unknown."""
        if rel not in self.sizes and rel in self._oids and self._sized(rel.rpartition("/")[0]):
            self.sizes[rel] = self._size_of([rel]).get(rel, -1)
        return self.sizes.get(rel, -1)

    def blob(self, rel: str, limit: Optional[int] = None) -> Optional[bytes]:
        oid = self._oids.get(rel)
        if oid is None or self._modes.get(rel) not in (_FILE, _EXEC):
            return None
        kind, data = self.objects.read(oid, limit)
        self.sizes[rel] = self.objects.last_size
        return data if kind == "blob" else None

    def head_tree(self):
        """HEAD's tree, read through the same cat-file process (not closed
        with it: this tree's is), or None before the first commit."""
        if self.head is None:
            return None
        from penguin_lint.pr.basetree import GitTree

        return GitTree(self._top, self.head, self._git.prefix, objects=self.objects, owns=False)

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
        """What the index changes against ``HEAD`` below ``scope`` (root-relative
        folders and files), as (status letter, path, old path for renames);
        before the first commit, everything staged is added."""
        if not scope or "" in scope:
            return list(self._changes)

        def inside(p: str) -> bool:
            return any(p == s or p.startswith(s + "/") for s in scope)
        out = []
        for status, path, old in self._changes:
            if old is not None and not inside(old):  # as git limits a rename to its pathspec
                status, old = "A", None
            if inside(path):
                out.append((status, path, old))
            elif old is not None:
                out.append(("D", old, None))
        return out

    def untracked(self, folders: Sequence[str], limit: int = 5) -> Tuple[List[str], int]:
        """(up to ``limit`` untracked, not ignored files in ``folders``
        (root-relative), how many in all): a notice names them, since the
        commit does not contain them. Only the folders of what is committed
        are listed, so the look stays small."""
        folders = sorted({f for f in folders if f})
        if not folders or all(self._all_indexed(f) for f in folders):
            return [], 0
        g = self._git
        try:
            raw = g.run("ls-files", "--others", "--exclude-standard", "-z", "--",
                        *[f":(literal){g.to_top(f)}" for f in folders])[1]
        except GitError:
            return [], 0  # only a notice: never a reason to fail the run
        names = [n for n in (g.to_root(os.fsdecode(r)) for r in raw.split(b"\0") if r) if n]
        return names[:limit], len(names)

    def _all_indexed(self, folder: str, budget: int = 5000) -> bool:
        """Whether every entry below ``folder`` in the work tree is one the
        index holds, of the same type: then nothing there is untracked and
        git need not be asked (it would read the whole index). Anything else
        (an unknown name, a link, more than ``budget`` entries) is for git
        to judge; no link is followed."""
        base = os.path.join(self._top, self._git.prefix)
        path = base.rstrip("/")
        for seg in folder.split("/"):
            path = os.path.join(path, seg)
            try:
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    return False
            except OSError:
                return False
        stack = [folder]
        while stack:
            rel = stack.pop()
            known = self._index_listing(rel) if self.oid(rel) is not None else None
            if not known:
                return False
            try:
                with os.scandir(os.path.join(base, rel)) as it:
                    for de in it:
                        budget -= 1
                        mode = known.get(de.name, ("",))[0]
                        if budget < 0 or not mode:
                            return False
                        if de.is_dir(follow_symlinks=False):
                            if mode == _GITLINK:
                                continue  # a submodule's own files are not the index's
                            if mode != _TREE:
                                return False
                            stack.append(f"{rel}/{de.name}")
                        elif mode == _TREE:
                            return False
            except OSError:
                return False
        return True

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


