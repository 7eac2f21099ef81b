"""What a file holds, named as git names it: the blob id of its bytes.

A file a unit parses is named by the bytes that were parsed (``load_file``
hashes what it read, about a microsecond for a data file); a file checked
again later is read and hashed the same way. The id is git's own (``blob
<size>\\0`` + bytes, SHA-1), so it equals what ``git ls-files -s`` lists for
an unmodified tracked file, and a cache filled on one checkout matches the
same files on another. The cache asks git one thing only: whether it tracks
the cache folder.
"""
from __future__ import annotations

import os
import stat as _stat
import subprocess
from typing import List, Optional

from penguin_lint.loaders import blob_id, read_at_most

_O_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
# git answers in well under a second on any repository this tool can lint;
# a wedged git must not hold the run.
GIT_TIMEOUT_S = 60
# Past this size git's output is not worth holding in memory.
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


class ContentIds:
    """``hash_file(rel)``: a string that changes whenever the bytes of the
    regular file at repository path ``rel`` change."""

    def __init__(self, root: str, size_limit: int, use_git: bool = True):
        self.root = root
        self.size_limit = size_limit
        self._use_git = use_git

    def tracks_under(self, rel: str) -> bool:
        """Whether git tracks ``rel`` or anything below it (the cache refuses
        a tracked cache folder: a pull request can commit one)."""
        if not self._use_git:
            return False
        return bool(git_output(self.root, ["ls-files", "-z", "--", f":(literal){rel}"]))

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
