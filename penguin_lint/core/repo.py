"""The repository as the rules see it: files are listed and loaded on demand.

Every access walks down from the root through cached ``scandir`` listings
that do not follow symbolic links, so a rule that looks up a path built from
file content (``packages/<benchmark_id>/<source>``) can never leave the
repository or pass through a link.
"""
from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

from penguin_lint.core.config import CONFIG_FILE, Config, glob_roots
from penguin_lint.core.layout import HARBOR_DEFINITION_NAMES, Layout, safe_segment
from penguin_lint.loaders import load_file
from penguin_lint.loaders.yaml_aliases import expand_aliases
from penguin_lint.loaders.document import Document


def _plain_rel(rel: str) -> bool:
    """A relative path of plain names: no empty, "." or ".." segment, so no
    leading "/" either. Only such paths are ever joined to the root."""
    if not isinstance(rel, str) or not rel or rel[0] == "/" or rel[-1] == "/" or "//" in rel:
        return False
    if rel[0] != "." and "/." not in rel:  # no segment starts with a dot: the common case
        return True
    return all(s not in (".", "..") for s in rel.split("/"))


_HARBOR_KINDS = ("harbor_leaderboard", "harbor_rows")
# what a lookup finds for a folder not listed (or a file not loaded) yet
_UNLISTED = object()


class Entry(NamedTuple):
    name: str
    is_dir: bool
    is_file: bool
    is_symlink: bool
    executable: bool
    size: int = -1  # known inside packages (PL004 reads it), else -1


# Never walked into: git's own folder. The run's cache folder (its files are
# the tool's and change on every run) is left out by its path alone
# (``Repository.cache_rel``): a data folder that only bears its name is linted.
SKIPPED_DIRS = frozenset((".git",))

# Listings of folders outside the unit under way (a package that experiments
# name, a leaderboard's experiments folder) kept for the next units; past
# this many, all but the top folders' are let go (read again when asked).
LISTINGS_KEPT = 1024
# Past this many links a folder is listed, not counted (ext4 stops counting
# at 65,000; a count beyond is not trusted to size a plan).
_COUNTED_LINKS = 65_002


class ReadLog:
    """The listings and files a piece of work read: what its verdict depends
    on, so that a cached verdict is reused only while all of them are unchanged."""

    __slots__ = ("listings", "entries", "files", "stats", "unrepeatable")

    def __init__(self):
        #: folders whose whole listing was read
        self.listings: Set[str] = set()
        #: paths looked up one by one (``entry``, ``is_file``): their
        #: folder's listing was read for them, but only their own entry counts
        self.entries: Set[str] = set()
        #: path -> the content id of what was parsed (Document.content_id),
        #: "absent" when there was no regular file to read
        self.files: Dict[str, Optional[str]] = {}
        #: path -> (mtime, size, inode, ctime) of the file when it was read
        self.stats: Dict[str, tuple] = {}
        #: whether the verdict also rests on what no file holds (a hint
        #: proposing when git last committed a folder): never reused
        self.unrepeatable = False

    def note_doc(self, rel: str, doc: Optional[Document]) -> None:
        # named by the bytes that were parsed, not by a second look at the
        # file: an edit made meanwhile fails the check next time
        if doc is None:
            self.files[rel] = "absent"
        else:
            self.files[rel] = doc.content_id
            if doc.file_stat is not None:
                self.stats[rel] = doc.file_stat


def file_state(repo: "Repository", rel: str, file_id) -> str:
    """``file_id(rel)`` for a regular file reached without links, else "absent"."""
    # is_file walks down from the root: a path under a link is never opened
    return file_id(rel) if repo.is_file(rel) else "absent"


class Repository:
    def __init__(self, root: Path, config: Config):
        self.root = Path(root)
        self._root_str = os.fspath(self.root)
        self.config = config
        self.layout = Layout(config)
        self.layout.board_kind = self._board_kind
        self._sniffing: Set[str] = set()  # files being read to tell their kind
        self._packages = self.layout.roots["packages"]
        self._lists: Dict[str, Optional[Dict[str, Entry]]] = {}
        self._docs: Dict[str, Optional[Document]] = {}
        self.loads = 0  # how many files were parsed (diff mode is judged on it)
        #: when set, every listing and file read is noted in it (the cache's inputs)
        self.reads: Optional[ReadLog] = None
        #: the run's cache folder when it lies in the repository: never walked
        self.cache_rel: Optional[str] = None
        #: whether a folder is another run's cache (a run rooted below this
        #: root left it), told by the run: never walked either
        self.stray_cache: Optional[Callable[[str], bool]] = None
        #: path -> kind given with --kind (set by the engine)
        self.forced_kinds: Dict[str, str] = {}
        # Harbor boards one folder down (_nested_boards), found once
        self._boards: Optional[List[str]] = None

    # -- listing -------------------------------------------------------------
    def entries(self, rel: str) -> Optional[Dict[str, Entry]]:
        """Entries of folder ``rel`` ('' = root), or None if it is not a real folder."""
        if self.reads is not None:
            self.reads.listings.add(rel)
        return self._listing(rel)

    def _listing(self, rel: str) -> Optional[Dict[str, Entry]]:
        out = self._lists.get(rel, _UNLISTED)
        if out is not _UNLISTED:
            return out
        if rel and not _plain_rel(rel):
            # "/etc" walks down as "" -> "etc" (a repository folder may be
            # named etc) but os.path.join(root, "/etc") is /etc itself.
            return None
        # down from the nearest folder listed, one level at a time (a loop,
        # not a recursion: a pull request can nest folders thousands deep)
        missing = [rel]
        while missing[-1]:
            parent = missing[-1].rpartition("/")[0]
            if self._lists.get(parent, _UNLISTED) is not _UNLISTED:
                break
            missing.append(parent)
        for folder in reversed(missing):
            if folder:
                parent, _, name = folder.rpartition("/")
                pentries = self._lists.get(parent)
                e = pentries.get(name) if pentries is not None else None
                if e is None or not e.is_dir:
                    self._lists[folder] = None
                    continue
            self._lists[folder] = self._scan(folder)
        return self._lists[rel]

    def _scan(self, rel: str) -> Optional[Dict[str, Entry]]:
        """The listing of folder ``rel`` from the file system (no link followed)."""
        out: Dict[str, Entry] = {}
        # The executable bit and size cost a stat per file and matter only in packages.
        want_mode = rel == self._packages or rel.startswith(self._packages + "/")
        try:
            with os.scandir(os.path.join(self._root_str, rel) if rel else self._root_str) as it:
                for de in it:
                    name = de.name
                    # not following links, a link is neither a folder nor a
                    # file: the commonest kinds are asked first
                    try:
                        if de.is_dir(follow_symlinks=False):
                            out[name] = Entry(name, True, False, False, False, -1)
                        elif de.is_file(follow_symlinks=False):
                            if want_mode:
                                st = de.stat(follow_symlinks=False)
                                out[name] = Entry(name, False, True, False, bool(st.st_mode & 0o111), st.st_size)
                            else:
                                out[name] = Entry(name, False, True, False, False, -1)
                        else:
                            out[name] = Entry(name, False, False, de.is_symlink(), False, -1)
                    except OSError:
                        out[name] = Entry(name, False, False, False, False, -1)
        except OSError:
            return None
        return out

    def subfolder_count(self, rel: str) -> int:
        """How many folders ``rel`` holds, without listing it where the file
        system counts them: a folder's links are its name, its "." and each
        subfolder's "..". Where a folder's link count says nothing (below 2:
        btrfs, overlay mounts, Windows), its listing does. For plans only: a
        count that is off moves work between shards and loses none."""
        if not rel or not _plain_rel(rel):
            return 0
        try:
            st = os.lstat(os.path.join(self._root_str, rel))
        except OSError:
            return 0
        if st.st_mode & 0o170000 == 0o040000 and 2 <= st.st_nlink <= _COUNTED_LINKS:
            return st.st_nlink - 2
        return sum(1 for e in (self._listing(rel) or {}).values() if e.is_dir)

    def listings_held(self) -> int:
        """How many listings are held: a mark for ``release``."""
        return len(self._lists)

    def release(self, since: int, below) -> None:
        """Let go of the listings read since the mark ``since`` of folders in
        or below ``below`` (a unit's own folders, done with), so that memory
        is bounded by a unit, not by the repository. The others are kept for
        the next units, up to LISTINGS_KEPT; past that, all but the top
        folders' go. A listing let go is read again when asked."""
        lists = self._lists
        new = len(lists) - since
        if new > 0 and below:
            below = set(below)
            own = []
            # dicts keep their order: the listings read since the mark are the last ones
            for rel in itertools.islice(reversed(lists), new):
                r = rel
                while r:
                    if r in below:
                        own.append(rel)
                        break
                    r = r.rpartition("/")[0]
            for rel in own:
                del lists[rel]
        if len(lists) > LISTINGS_KEPT:
            self._lists = {rel: e for rel, e in lists.items() if "/" not in rel}

    def entry(self, rel: str) -> Optional[Entry]:
        if not _plain_rel(rel):
            return None
        if self.reads is not None:
            self.reads.entries.add(rel)
        parent, _, name = rel.rpartition("/")
        pentries = self._listing(parent)
        return pentries.get(name) if pentries is not None else None

    def size(self, rel: str) -> int:
        """The size of file ``rel`` where its listing knows it (inside
        packages, for PL004), else -1."""
        e = self.entry(rel)
        return e.size if e is not None else -1

    def listed_empty(self, rel: str) -> bool:
        """Whether folder ``rel`` was listed (walked) and held nothing; no
        listing is read for it."""
        return self._lists.get(rel) == {}

    def is_file(self, rel: str) -> bool:
        e = self.entry(rel)
        return e is not None and e.is_file

    def is_dir(self, rel: str) -> bool:
        e = self.entry(rel)
        return e is not None and e.is_dir

    def subdirs(self, rel: str) -> List[str]:
        ents = self.entries(rel)
        return sorted(n for n, e in ents.items() if e.is_dir) if ents else []

    def files(self, rel: str) -> List[str]:
        ents = self.entries(rel)
        return sorted(n for n, e in ents.items() if e.is_file) if ents else []

    @staticmethod
    def join(*segments) -> Optional[str]:
        """Join folder names taken from file content; None if any is unsafe."""
        for s in segments:
            if not safe_segment(s):
                return None
        return "/".join(segments)

    # -- loading ---------------------------------------------------------------
    def load(self, rel: str) -> Optional[Document]:
        """The parsed file at ``rel``, or None when there is no regular file there."""
        doc = self._docs.get(rel, _UNLISTED)
        if doc is _UNLISTED:
            doc = None
            if self.is_file(rel):
                self.loads += 1
                doc = self._load(rel)
                if doc.aliases is not None and self.is_harbor_file(rel):
                    # Harbor reads its files with yaml.safe_load: aliases expanded
                    expand_aliases(doc)
            self._docs[rel] = doc
        reads = self.reads
        if reads is not None and rel not in reads.files:
            # rules load the same file many times: only the first is noted
            reads.note_doc(rel, doc)
        return doc

    def harbor_board(self, rel: str) -> Optional[str]:
        """The ``leaderboard/`` folder holding a Harbor definition nearest
        above ``rel`` (the board the file belongs to), or None."""
        parts = rel.split("/")
        for i in range(len(parts) - 2, -1, -1):
            if parts[i] == "leaderboard":
                folder = "/".join(parts[:i + 1])
                if any(self.is_file(f"{folder}/{n}") for n in HARBOR_DEFINITION_NAMES):
                    return folder
        return None

    def _board_kind(self, rel: str) -> Optional[str]:
        """For a file under a Harbor board's ``leaderboard/`` folder:
        "harbor_rows" when its top level is a rows mapping (what ``create
        --rows`` and ``row create`` send), or when it cannot be read (so that
        its error is reported); "" for any other file; None outside a board."""
        if rel in self._sniffing or self.harbor_board(rel) is None or not self.is_file(rel):
            return None
        self._sniffing.add(rel)
        try:
            doc = self.load(rel)
        finally:
            self._sniffing.discard(rel)
        if doc is None:
            return None
        # read as Harbor reads it, with safe_load (load could not tell it was
        # Harbor's): a rows key can come through a merge key or an alias
        expand_aliases(doc)
        # what cannot be read (a key that is an alias: PL001) is checked as rows, its error said
        if not doc.parsed or any(p.code == "PL001" for p in doc.problems) \
                or (isinstance(doc.data, dict) and "rows" in doc.data):
            return "harbor_rows"
        return ""

    def is_harbor_file(self, rel: str) -> bool:
        kind = self.forced_kinds.get(rel) or (self.layout.classify_file(rel) or ("",))[0]
        return kind in _HARBOR_KINDS

    def _load(self, rel: str) -> Document:
        return load_file(os.path.join(self._root_str, rel), rel, self.config.size_limit)

    def read_bytes(self, rel: str) -> Optional[bytes]:
        """The bytes of the regular file at ``rel`` (not through a link), else None."""
        if not self.is_file(rel):
            return None
        try:
            fd = os.open(os.path.join(self._root_str, rel), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as fh:
            return fh.read(self.config.size_limit + 1)

    def forget(self, prefix: str) -> None:
        """Drop cached documents under ``prefix`` (keeps memory flat on big runs)."""
        if not prefix:
            self._docs.clear()
            return
        for key in [k for k in self._docs if k.startswith(prefix)]:
            del self._docs[key]

    # -- walking ---------------------------------------------------------------
    def walk_roots(self) -> List[str]:
        """Top folders that --all walks: the layout's, Harbor's (at the top
        and one folder down: ``hub/leaderboard/``), configured kinds'."""
        roots = list(self.layout.roots.values()) + ["leaderboard"] + self._nested_boards()
        roots += [glob_roots(glob) for glob, _ in self.config.kinds]
        # A root inside another root would be walked twice.
        roots = sorted(set(roots), key=lambda r: (len(r), r))  # the same order on every run
        out: List[str] = []
        for r in roots:
            if not any(r == o or r.startswith(o + "/") or o == "" for o in out):
                out.append(r)
        return out

    def _nested_boards(self) -> List[str]:
        """``<folder>/leaderboard`` for each top folder (outside the layout)
        that holds a Harbor board: a file of it is Harbor's to every run, so
        every run walks it (a path run and a diff run alike)."""
        if self._boards is None:
            layout = set(self.layout.roots.values())
            top = self.entries("") or {}
            self._boards = sorted(
                f"{name}/leaderboard" for name, e in top.items()
                if e.is_dir and name not in layout and not name.startswith(".") and name != "leaderboard"
                and not self.is_cache(name)
                and any(self.is_file(f"{name}/leaderboard/{d}") for d in HARBOR_DEFINITION_NAMES))
        return self._boards

    def walk(self, top: str) -> Iterator[Tuple[str, Entry]]:
        """Every entry below ``top`` (links reported, never followed)."""
        stack = [top]
        while stack:
            rel = stack.pop()
            ents = self.entries(rel)
            if not ents:
                continue
            for name in sorted(ents, reverse=True):
                e = ents[name]
                child = f"{rel}/{name}" if rel else name
                yield child, e
                if e.is_dir and name not in SKIPPED_DIRS and not self.is_cache(child):
                    stack.append(child)

    def is_cache(self, rel: str) -> bool:
        """Whether folder ``rel`` is a cache of penguin-lint's, left out of every walk."""
        return rel == self.cache_rel or (self.stray_cache is not None and self.stray_cache(rel))


def unjudged(repo, rel: str) -> Optional[str]:
    """Why no check would read the command-line path ``rel``, or None when
    some would."""
    entry = repo.entry(rel) if rel else None
    if entry is None or rel == CONFIG_FILE:
        return None  # the root, a deleted path (the change is judged) or the configuration
    tops = repo.walk_roots()
    if any(t == "" or rel == t or rel.startswith(t + "/") for t in tops):
        return None  # in the layout
    folders = ", ".join(t + "/" for t in tops)
    if entry.is_dir:
        if any(t.startswith(rel + "/") for t in tops):
            return None  # holds the layout
        if any(e.is_file and repo.layout.classify_file(sub) is not None for sub, e in repo.walk(rel)):
            return None
        return f"no file of a known kind in this folder (outside {folders})"
    if repo.layout.classify_file(rel) is not None:
        return None
    return f"of no known kind (outside {folders})"
