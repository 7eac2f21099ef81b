"""--fix replaces a file with a new one: the new one keeps the old one's
owner, group, mode, extended attributes and ACL, or the file is refused."""
from __future__ import annotations

import errno
import os
import struct

import pytest

from tests.conftest import VALID, lint, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
WRONG = "n_attempt: 2\nscore_mean: 60.0\nscore_std: 0.0\n"
FIXED = "n_attempt: 2\nscore_mean: 50.00\nscore_std: 0.0\n"


def _acl(uid: int) -> bytes:
    """A POSIX access ACL as the kernel stores it: owner rw, user ``uid``
    rw, group r, mask rw, other none."""
    entry = lambda tag, perm, ident=0xFFFFFFFF: struct.pack("<HHI", tag, perm, ident)  # noqa: E731
    return struct.pack("<I", 2) + entry(1, 6) + entry(2, 6, uid) + entry(4, 4) + entry(0x10, 6) + entry(0x20, 0)


def _xattrs_supported(folder) -> bool:
    probe = folder / ".xattr-probe"
    probe.write_text("")
    try:
        os.setxattr(probe, "user.probe", b"1")
        return True
    except OSError:
        return False
    finally:
        probe.unlink()


@pytest.mark.skipif(not hasattr(os, "chown") or os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_fix_keeps_owner_group_mode_xattrs_and_acl(tmp_path):
    root = write_repo(tmp_path / "repo", {SUMMARY: WRONG}, VALID)
    path = root / SUMMARY
    os.chown(path, 1234, 2345)
    os.chmod(path, 0o640)
    xattrs = _xattrs_supported(tmp_path)
    if xattrs:
        os.setxattr(path, "user.origin", b"harvested 2026-11-02")
        os.setxattr(path, "system.posix_acl_access", _acl(4321))
        before_attrs = {k: os.getxattr(path, k) for k in os.listxattr(path)}
    before = os.stat(path)
    run = lint(root, "--all", "--fix")
    assert run.code == 0, run.stderr
    assert path.read_text() == FIXED
    after = os.stat(path)
    assert after.st_ino != before.st_ino  # a new file took its place
    assert (after.st_uid, after.st_gid) == (1234, 2345)
    assert after.st_mode == before.st_mode
    if not xattrs:
        pytest.skip("this file system keeps no user.* extended attributes: owner and mode checked only")
    assert {k: os.getxattr(path, k) for k in os.listxattr(path)} == before_attrs
    assert os.getxattr(path, "user.origin") == b"harvested 2026-11-02"


def test_a_file_whose_owner_cannot_be_kept_is_refused_with_one_line(tmp_path, monkeypatch):
    root = write_repo(tmp_path / "repo", {SUMMARY: WRONG}, VALID)
    path = root / SUMMARY
    st = os.stat(path)
    real_fstat = os.fstat

    class Other:  # the new file as an unprivileged user would make it: someone else's
        def __init__(self, s):
            self._s = s
            self.st_uid, self.st_gid = s.st_uid + 1, s.st_gid

        def __getattr__(self, name):
            return getattr(self._s, name)

    def fchown(fd, uid, gid):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", fchown)
    monkeypatch.setattr(os, "fstat", lambda fd: Other(real_fstat(fd)))
    run = lint(root, "--all", "--fix")
    monkeypatch.undo()
    assert path.read_text() == WRONG and os.stat(path).st_ino == st.st_ino
    assert (f"penguin-lint: warning: {SUMMARY}: cannot keep its owner and group (Operation not permitted); "
            "not written\n") in run.stderr
    assert run.code == 1
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".fix")]
