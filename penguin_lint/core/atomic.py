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
    import tempfile  # here: most runs write nothing

    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if prepare is not None:
                prepare(f.fileno())
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            if durable:
                f.flush()
                os.fsync(f.fileno())
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
