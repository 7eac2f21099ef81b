"""Replacing a file all at once: written beside it, then renamed over it.

A reader sees the old bytes or the new ones, never half of them, however
many runs write at once; a link at the target is replaced, never followed
(the rename acts on the name). Used by the cache, the index copy of diff
runs and ``--fix``.
"""
from __future__ import annotations

import os
from typing import Callable, Optional, Tuple


def replace_file(path: str, data: bytes, *, prefix: str = ".tmp-", suffix: str = "",
                 mode: Optional[int] = None, times: Optional[Tuple[int, int]] = None,
                 durable: bool = False, check: Optional[Callable[[], None]] = None,
                 prepare: Optional[Callable[[int], None]] = None) -> None:
    """Make ``path`` hold ``data``. ``mode``: its permission bits; ``times``:
    (atime, mtime) in ns; ``durable``: on disk before the rename; ``check``:
    called just before the rename, it may raise to keep the old file;
    ``prepare``: called with the new file's descriptor once written (owner,
    attributes), it may raise too."""
    fd, tmp = _create_beside(path, prefix, suffix)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if prepare is not None:
                prepare(fd)
            if mode is not None:
                os.fchmod(fd, mode)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if times is not None:
            os.utime(tmp, ns=times)
        if check is not None:
            check()
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _create_beside(path: str, prefix: str, suffix: str) -> Tuple[int, str]:
    """A new file of a name nobody else uses, in ``path``'s folder (as
    ``tempfile.mkstemp`` makes one, without the cost of importing it: the
    cache writes a record per unit)."""
    folder = os.path.dirname(path) or "."
    for _ in range(100):
        tmp = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(tmp, _CREATE, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name in {folder}")
