"""Opening a report file (``--output``, the Action's ``sarif:``) for writing.

The path may have been named, or laid out, by a pull request: a committed
symbolic link at the destination or on the way to it would send the report
anywhere (``.git/config``, a file outside the workspace). So a link is never
written through, nothing is written into a ``.git`` folder, and the file is
made afresh (``O_CREAT | O_EXCL | O_NOFOLLOW``, after unlinking a regular
file of that name): an existing hard link is not written through either.
"""
from __future__ import annotations

import os
import stat
from typing import Iterable, Optional, TextIO


class OutputRefused(Exception):
    """A report destination that must not be written (one line says why)."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.reason = reason


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_destination(path: str, roots: Iterable[str] = (), within: Optional[Iterable[str]] = None) -> str:
    """The absolute path to write, or OutputRefused. ``roots``: the
    repository (or workspace) folders whose links and ``.git`` are refused
    on the way; ``within``: when given, the folders the file must lie in."""
    full = os.path.abspath(path)
    parent = os.path.dirname(full)
    folders = [os.path.abspath(r) for r in roots]
    if within is not None:
        bounds = [os.path.abspath(w) for w in within]
        if not any(_inside(parent, b) for b in bounds):
            raise OutputRefused(path, "outside the workspace; not written")
        folders += bounds
    # every folder from a root down to the file's: none may be a link or .git
    for top in folders:
        if not _inside(full, top) or full == top:
            continue
        cur = top
        for seg in os.path.relpath(full, top).split(os.sep):
            cur = os.path.join(cur, seg)
            if seg == ".git":
                raise OutputRefused(path, "inside a .git folder; not written")
            if cur != full and os.path.islink(cur):
                raise OutputRefused(path, "a folder on the way is a symbolic link; not written through")
        # the real folder too (a link above the root would not be seen above)
        real = os.path.realpath(parent)
        real_top = os.path.realpath(top)
        if _inside(real, real_top) and ".git" in os.path.relpath(real, real_top).split(os.sep):
            raise OutputRefused(path, "inside a .git folder; not written")
    if within is not None:
        real = os.path.realpath(parent)
        if not any(_inside(real, os.path.realpath(b)) for b in within):
            raise OutputRefused(path, "outside the workspace; not written")
    return full


def open_report(path: str, roots: Iterable[str] = (), within: Optional[Iterable[str]] = None) -> TextIO:
    """A text stream writing a new file at ``path`` (see the module's note)."""
    full = check_destination(path, roots, within)
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputRefused(path, f"{e.strerror or e}") from None
    flags = os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise OutputRefused(path, "is a symbolic link; not written through")
    if st is not None and stat.S_ISREG(st.st_mode):
        try:
            os.unlink(full)
        except OSError as e:
            raise OutputRefused(path, f"{e.strerror or e}") from None
        st = None
    if st is None:
        flags |= os.O_CREAT | os.O_EXCL
    elif stat.S_ISDIR(st.st_mode):
        raise OutputRefused(path, "is a folder")
    elif any(_inside(full, os.path.abspath(r)) for r in roots):
        raise OutputRefused(path, "not a regular file; not written")
    # else a device or pipe the user named outside the repository (/dev/null)
    try:
        fd = os.open(full, flags, 0o666)
    except OSError as e:
        raise OutputRefused(path, f"{e.strerror or e}") from None
    return os.fdopen(fd, "w", encoding="utf-8")
