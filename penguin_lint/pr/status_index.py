"""git's untracked cache for diff runs, kept in a copy of the index outside ``.git``.

Finding the untracked files of a change is the costliest part of a diff run
on a big repository: ``git status`` reads every folder of the work tree
(0.6 s of a 1 s run on 43,000 files). git can remember which folders have
not changed since it last looked (``core.untrackedCache``), but it keeps that
memory in the index, and a run of this tool never writes into ``.git``.

So ``git status`` is pointed (``GIT_INDEX_FILE``) at a copy of the index in
the cache folder, where git may keep its untracked cache. The copy is
replaced whenever the real index changes (a commit, an ``add``): it is known
by its size, time stamps, inode and checksum, which a file committed into the
cache folder cannot forge. The copy keeps the real index's time stamp, so
git judges racily clean entries exactly as it would on the real index.

git does not use the untracked cache with a pathspec, so this status covers
the whole work tree and its output is filtered by the caller. The first run
in a cache folder does not make the copy (a CI job runs once on a fresh
checkout and would only pay for it). Anything that goes wrong here only
means the ordinary read-only status is used.

The copy is used only while it is the file this tool or git last wrote:
its size, times and inode are noted after every status that used it, and
a copy that no longer matches (damaged, truncated, replaced), or that git
cannot read, is thrown away with one warning and the plain status runs. A
cache folder that git tracks is never used.
"""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Callable, Optional

from penguin_lint.core.atomic import replace_file

# git keeps a split index's entries in sharedindex.* files beside the index;
# a copy elsewhere would not find them (nor should git write them here).
_SHARED = "sharedindex."
# the trailing checksum: SHA-1, or SHA-256 in a repository that uses it
_TRAILER = 32


class StatusIndex:
    """The index copy of the repository whose index is ``real_index``, in
    the cache folder ``cache_root`` (its own subfolder per repository)."""

    def __init__(self, cache_root: Path, real_index: str, top: Optional[str] = None,
                 warn: Optional[Callable[[str], None]] = None):
        self.root = Path(cache_root)
        self.real = os.path.abspath(real_index)
        #: the work tree, where git is asked whether it tracks the cache folder
        self.top = top
        key = hashlib.blake2b(self.real.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
        self.folder = self.root / "status" / key
        self._warned = False
        self._say = warn

    def prepare(self) -> Optional[str]:
        """The path of an up-to-date copy of the index, or None when none can be made."""
        try:
            return self._prepare()
        except (OSError, ValueError):
            return None

    def done(self) -> None:
        """After a status that used the copy: note the copy as git left it."""
        try:
            stamp = _copy_stamp(self.folder / "index")
            if stamp is not None and _read_small(self.folder / _COPY_STAMP) != stamp:
                replace_file(str(self.folder / _COPY_STAMP), stamp)
        except OSError:
            pass

    def discard(self, why: str) -> None:
        """Throw the copy away (the next run makes it afresh), saying so once."""
        for name in ("index", "index.source", _COPY_STAMP):
            try:
                os.unlink(self.folder / name)
            except OSError:
                pass
        self._warn(f"the cache's copy of git's index in {self.folder} {why}; it is not used")

    def _warn(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            if self._say is not None:
                self._say(message)
                return
            from penguin_lint.reporters.console import say

            say(f"penguin-lint: warning: {message}")

    def _prepare(self) -> Optional[str]:
        real_dir = os.path.dirname(self.real) or "."
        if any(n.startswith(_SHARED) for n in os.listdir(real_dir)):
            return None
        fd = os.open(self.real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            st = os.fstat(fd)
            if st.st_size < 12 + _TRAILER:
                return None
            os.lseek(fd, st.st_size - _TRAILER, os.SEEK_SET)
            trailer = os.read(fd, _TRAILER)
        finally:
            os.close(fd)
        stamp = f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {trailer.hex()}\n".encode()
        copy = self.folder / "index"
        meta = self.folder / "index.source"
        # The copy was made from this very index (its stamp cannot be
        # forged by committed files), after git was asked whether it tracks
        # the cache folder: with the index unchanged, so is the answer.
        if self._folders_exist() and _read_small(meta) == stamp and _regular(copy):
            noted = _read_small(self.folder / _COPY_STAMP)
            if noted is not None:
                if noted == _copy_stamp(copy):
                    return str(copy)
                # changed since this tool or git last wrote it
                self.discard("was changed or damaged")
                return None
        if self.top is not None:
            from penguin_lint.cache.folder import CacheWarning, refuse_linked, refuse_tracked
            from penguin_lint.cache.contentid import ContentIds

            try:
                refuse_linked(Path(self.top), self.root)
                if os.path.lexists(self.root):
                    refuse_tracked(Path(self.top), self.root, ContentIds(self.top, 0))
            except CacheWarning as e:
                self._warn(str(e))
                return None
        if not self._real_folders():
            return None
        seen = self.folder / "seen"
        if not _regular(seen):
            # The first run here (every CI run is one) would pay for the
            # copy and for git building its cache (a third more than a plain
            # status) and never profit: it only notes that it ran.
            replace_file(str(seen), b"")
            return None
        with open(self.real, "rb") as src:
            data = src.read()
        if len(data) != st.st_size:
            return None  # changed while it was read: the next run copies it
        replace_file(str(copy), data, times=(st.st_atime_ns, st.st_mtime_ns))
        replace_file(str(meta), stamp)
        self.done()
        return str(copy)

    def _folders_exist(self) -> bool:
        """Whether the copy's folders are all real folders (none is a link)."""
        try:
            return all(stat.S_ISDIR(os.lstat(p).st_mode) for p in (self.root, self.folder.parent, self.folder))
        except OSError:
            return False

    def _real_folders(self) -> bool:
        # made folder by folder, each a real folder and never a link: the
        # cache may sit inside a checkout that a pull request wrote
        from penguin_lint.cache.folder import prepare_root

        prepare_root(self.root)
        path = self.root
        for part in ("status", self.folder.name):
            path = path / part
            try:
                os.mkdir(path)
            except FileExistsError:
                pass
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                return False
        return True


# size, times and inode of the copy as last written (by the copy or by git)
_COPY_STAMP = "index.stamp"


def _copy_stamp(path: Path) -> Optional[bytes]:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}\n".encode()


def _read_small(path: Path) -> Optional[bytes]:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        return os.read(fd, 4096) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    finally:
        os.close(fd)


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def status_env(index_copy: str) -> dict:
    """The environment of a ``git status`` that reads and updates the copy."""
    return dict(os.environ, GIT_INDEX_FILE=index_copy)


# The settings the untracked cache needs, given on the command line so that
# the repository's own configuration neither adds nor takes away anything.
STATUS_FLAGS = ("-c", "core.untrackedCache=true", "-c", "status.showUntrackedFiles=all",
                "-c", "core.splitIndex=false")
