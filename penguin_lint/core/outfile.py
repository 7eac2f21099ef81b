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


def check_destination(path: str, roots: Iterable[str] = (), within: Optional[Iterable[str]] = None,
                      within_name: str = "the workspace") -> str:
    """The absolute path to write, or OutputRefused. ``roots``: the
    repository (or workspace) folders whose links and ``.git`` are refused
    on the way; ``within``: when given, the folders the file must lie in,
    which a refusal names as ``within_name``."""
    full = os.path.abspath(path)
    parent = os.path.dirname(full)
    folders = [os.path.abspath(r) for r in roots]
    if within is not None:
        bounds = [os.path.abspath(w) for w in within]
        bounds += [os.path.realpath(b) for b in bounds]
        if not any(_inside(parent, b) for b in bounds):
            raise OutputRefused(path, f"outside {within_name}; not written")
        folders += bounds
    tops = sorted({os.path.realpath(f) for f in folders})
    # Walked from "/" as the kernel would: a link outside the roots (the
    # user's own, /tmp on some systems) is followed; inside a root, a link
    # on the way or a .git folder is refused.
    cur = os.sep
    for seg in [s for s in full.split(os.sep) if s]:
        nxt = os.path.join(cur, seg)
        if any(_inside(nxt, t) and nxt != t for t in tops):
            if seg == ".git":
                raise OutputRefused(path, "inside a .git folder; not written")
            if nxt != os.path.join(os.path.realpath(parent), os.path.basename(full)) and os.path.islink(nxt):
                raise OutputRefused(path, "a folder on the way is a symbolic link; not written through")
        cur = os.path.realpath(nxt)
    real = os.path.realpath(parent)
    if within is not None and not any(_inside(real, os.path.realpath(b)) for b in within):
        raise OutputRefused(path, f"outside {within_name}; not written")
    return full


def open_report(path: str, roots: Iterable[str] = (), within: Optional[Iterable[str]] = None,
                within_name: str = "the workspace") -> TextIO:
    """A text stream writing a new file at ``path`` (see the module's note)."""
    full = check_destination(path, roots, within, within_name)
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
