"""What a file holds, named cheaply: git's blob id where git already knows
the bytes, else the same id computed from the bytes.

``git ls-files -s`` lists the index's blob ids; ``git diff-files`` lists the
tracked files whose work-tree copy differs from the index (git compares
stat data in C and re-reads only racily clean files). A clean tracked file's
id is therefore read, not computed; every other file is hashed the way git
hashes a blob, so both kinds of id name the same bytes the same way.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat as _stat
import subprocess
from typing import Dict, List, Optional

from penguin_lint.loaders import read_at_most

_O_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
# git answers in well under a second on any repository this tool can lint;
# a wedged git must not hold the run.
GIT_TIMEOUT_S = 60
# Past this size git's listing is not worth holding in memory: hash the bytes.
_MAX_GIT_OUTPUT = 512 * 1024 * 1024


def git_lines(root: str, args: List[str]) -> Optional[List[bytes]]:
    """NUL-separated output of a read-only git command run in ``root``, None
    when there is no git, no work tree or any failure."""
    out = git_output(root, args)
    return None if out is None else [x for x in out.split(b"\0") if x]


def git_output(root: str, args: List[str]) -> Optional[bytes]:
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        proc = subprocess.run(["git", *args], cwd=root, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=GIT_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0 or len(proc.stdout) > _MAX_GIT_OUTPUT:
        return None
    return proc.stdout


_STAGED = re.compile(rb"([0-7]{6}) ([0-9a-f]{40,64}) ([0-3])\t([^\0]*)\0")


def blob_id(data: bytes) -> str:
    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


class ContentIds:
    """``file_id(rel)``: a string that changes whenever the bytes of the
    regular file at repository path ``rel`` change."""

    def __init__(self, root: str, size_limit: int, use_git: bool = True):
        self.root = root
        self.size_limit = size_limit
        self._use_git = use_git
        self._loaded = False
        self._tracked: set = set()
        self._git_ids: Dict[str, str] = {}

    # git is asked on first use: a run whose files all kept their time
    # stamps (a warm cache on a developer's machine) never needs it
    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            if self._use_git:
                self._git_ids = self._from_git()

    @property
    def loaded(self) -> bool:
        return self._loaded

    @property
    def _git(self) -> Dict[str, str]:
        self._load()
        return self._git_ids

    @property
    def tracked(self) -> set:
        """Every path the index has, clean or not."""
        self._load()
        return self._tracked

    def tracks_under(self, rel: str) -> bool:
        """Whether git tracks ``rel`` or anything below it (the cache refuses
        a tracked cache folder), without reading the whole index into Python."""
        if self._loaded or not self._use_git:
            return any(t == rel or t.startswith(rel + "/") for t in self._tracked)
        out = git_output(self.root, ["ls-files", "-z", "--", f":(literal){rel}"])
        return bool(out)

    def _from_git(self) -> Dict[str, str]:
        staged = git_output(self.root, ["ls-files", "-s", "-z"])
        if not staged:
            return {}
        ids: Dict[str, str] = {}
        unmerged = set()
        convert = False
        for mode, oid, stage, path in _STAGED.findall(staged):
            rel = path.decode("utf-8", "surrogateescape")
            self._tracked.add(rel)
            if stage != b"0":
                unmerged.add(rel)
            elif mode in (b"100644", b"100755"):
                ids[rel] = oid.decode("ascii")
            if rel == ".gitattributes" or rel.endswith("/.gitattributes"):
                convert = True
        # Attributes and autocrlf make the work-tree bytes differ from the
        # blob: a blob id would then name different bytes on another checkout.
        settings = {}
        for c in git_lines(self.root, ["config", "-z", "--get-regexp", r"^core\.autocrlf$"]) or ():
            k, _, v = c.partition(b"\n")
            settings[k.lower()] = v.strip().lower() not in (b"false", b"0", b"no", b"off", b"")
        if convert or settings.get(b"core.autocrlf", False) \
                or os.path.exists(os.path.join(self.root, ".git", "info", "attributes")):
            return {}
        dirty = git_lines(self.root, ["diff-files", "-z", "--name-only", "--relative"])
        if dirty is None:
            return {}
        for path in dirty:
            ids.pop(path.decode("utf-8", "surrogateescape"), None)
        for rel in unmerged:
            ids.pop(rel, None)
        return ids

    def file_id(self, rel: str) -> str:
        known = self._git.get(rel)
        if known is not None:
            return known
        return self.hash_file(rel)

    def hash_file(self, rel: str) -> str:
        try:
            fd = os.open(os.path.join(self.root, rel), _O_FLAGS)
        except OSError:
            return "unreadable"
        try:
            st = os.fstat(fd)
            if not _stat.S_ISREG(st.st_mode):
                return "not-a-file"
            if st.st_size > self.size_limit:
                # never read whole: its verdict (PL004) depends on the size alone
                return f"size:{st.st_size}"
            data = read_at_most(fd, self.size_limit, st.st_size)
        except OSError:
            return "unreadable"
        finally:
            os.close(fd)
        if len(data) > self.size_limit:
            return f"size:>{self.size_limit}"
        return blob_id(data)
