"""Writing a fixed file: atomically, in place, and only inside the repository.

The file is re-read without following links and must still hold the bytes
the fix was computed from; the new bytes go to a temporary file in the same
folder (same file system, same permissions), which then replaces the file
with ``os.replace`` - a reader sees the old file or the new one, never half
of one. A symbolic link is never written through, and no path leaves the
repository root.
"""
from __future__ import annotations

import difflib
import errno
import os
import stat
from typing import List, Optional

from penguin_lint.core.atomic import replace_file
from penguin_lint.loaders import read_at_most
from penguin_lint.output.log_guard import sanitize
from penguin_lint.core.repo import _plain_rel

_O_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class WriteRefused(Exception):
    """A fix that must not be written (one line says why)."""


def real_path(root: str, rel: str) -> str:
    """The file's path under ``root``, refusing anything that could lead
    elsewhere: an odd relative path, a link on the way, a non-regular file."""
    if not _plain_rel(rel):
        raise WriteRefused(f"not a plain repository path: {rel}")
    root_real = os.path.realpath(root)
    full = os.path.join(root_real, *rel.split("/"))
    folder = os.path.dirname(full)
    if os.path.realpath(folder) != folder or not (folder + os.sep).startswith(root_real + os.sep):
        raise WriteRefused(f"{rel}: its folder is outside the repository or behind a link")
    try:
        st = os.lstat(full)
    except OSError as e:
        raise WriteRefused(f"{rel}: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise WriteRefused(f"{rel}: not a regular file (a link is never written through)")
    return full


def read_current(root: str, rel: str, limit: int) -> bytes:
    full = real_path(root, rel)
    try:
        fd = os.open(full, _O_READ)
    except OSError as e:
        raise WriteRefused(f"{rel}: {e.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise WriteRefused(f"{rel}: not a regular file")
        data = read_at_most(fd, limit)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise WriteRefused(f"{rel}: over the size limit")
    return data


def write_atomic(root: str, rel: str, expected: bytes, new: bytes) -> None:
    """Replace the file's bytes ``expected`` with ``new``."""
    full = real_path(root, rel)
    if read_current(root, rel, max(len(expected), 1)) != expected:
        raise WriteRefused(f"{rel}: changed while it was being fixed; not written")
    st = os.lstat(full)
    mode = stat.S_IMODE(st.st_mode)
    if not mode & 0o222 or not os.access(full, os.W_OK):
        # a rename would replace it anyway; a read-only file says "do not"
        raise WriteRefused(f"{rel}: the file is read-only; not written")
    name = os.path.basename(full)

    def still_a_file() -> None:
        if not stat.S_ISREG(os.lstat(full).st_mode):
            raise WriteRefused(f"{rel}: replaced by a link while it was being fixed; not written")

    attrs = _xattrs(full, rel)

    def same_owner_and_attributes(fd: int) -> None:
        # the new file replaces the old one: it keeps its owner, group,
        # extended attributes and ACLs (an ACL is the xattr
        # system.posix_acl_access), or the file is not written
        now = os.fstat(fd)
        if (now.st_uid, now.st_gid) != (st.st_uid, st.st_gid):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except OSError as e:
                raise WriteRefused(f"{rel}: cannot keep its owner and group ({e.strerror}); not written") from None
        if attrs is None:
            return
        try:
            for key in os.listxattr(fd):
                if key not in attrs:  # inherited from the folder's default ACL
                    os.removexattr(fd, key)
            for key, value in attrs.items():
                # set only what differs (a security label given by the system is equal already)
                try:
                    same = os.getxattr(fd, key) == value
                except OSError:
                    same = False
                if not same:
                    os.setxattr(fd, key, value)
        except OSError as e:
            raise WriteRefused(f"{rel}: cannot keep its extended attributes ({e.strerror}); not written") from None

    replace_file(full, new, prefix=f".{name}.", suffix=".fix", mode=mode, durable=True, check=still_a_file,
                 prepare=same_owner_and_attributes)


_HAS_XATTR = hasattr(os, "listxattr")


def _xattrs(full: str, rel: str) -> Optional[dict]:
    """The file's extended attributes (ACLs among them), by name; None where
    the file system has none."""
    if not _HAS_XATTR:
        return None
    try:
        return {k: os.getxattr(full, k, follow_symlinks=False) for k in os.listxattr(full, follow_symlinks=False)}
    except OSError as e:
        if e.errno in (errno.ENOTSUP, getattr(errno, "EOPNOTSUPP", errno.ENOTSUP)):
            return None
        raise WriteRefused(f"{rel}: cannot read its extended attributes ({e.strerror}); not written") from None


def unified_diff(rel: str, old: bytes, new: bytes) -> List[str]:
    """The change as a unified diff, one output line per line. File text is
    sanitized, and every line starts with ' ', '+', '-' or '@', so a line of
    content can drive no terminal and forge no CI log command. Line endings
    are not shown (the fix keeps them as they are)."""
    # lines as everywhere else (LF or CR LF), so the hunks' line numbers are
    # the findings' line numbers
    a = _lines(old)
    b = _lines(new)
    out = []
    for line in difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}"):
        body = line[:-1] if line.endswith("\n") else line
        body = body[:-1] if body.endswith("\r") else body
        out.append(sanitize(body))
        if body == line and not line.startswith(("---", "+++", "@@")):
            out.append("\\ No newline at end of file")
    return out


def _lines(raw: bytes) -> List[str]:
    text = raw.decode("utf-8", "replace")
    lines = text.split("\n")
    last = lines.pop()
    return [ln + "\n" for ln in lines] + ([last] if last else [])
