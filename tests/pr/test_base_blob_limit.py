"""A file over the size limit in the base (HEAD, the merge base) is never
read whole: git's header gives its size first, and past the limit the rest
of the blob is dropped as it streams by; the base has a too-large file."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from penguin_lint.pr import basetree
from tests.conftest import VALID, lint, pull_request_repo, write_repo

ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"


def _git(root, *args):
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True)
    assert proc.returncode == 0, proc.stderr


def _padded(size: int) -> bytes:
    """The valid attempt, then a comment that makes it ``size`` bytes."""
    text = textwrap.dedent(VALID[ATTEMPT]).encode() + b"# "
    return text + b"0" * (size - len(text) - 1) + b"\n"


def _big_base(root, size: int) -> None:
    """HEAD holds a ``size``-byte attempt; the work tree a small one naming an unknown task."""
    head = _padded(2000)[:-1000]
    with open(root / ATTEMPT, "wb") as f:  # written in pieces: the test stays small too
        f.write(head)
        left = size - len(head) - 1
        while left > 0:
            f.write(b"0" * min(left, 1 << 20))
            left -= 1 << 20
        f.write(b"\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "a big attempt")
    # a finding in the work tree's copy: --new-only then looks at the base's
    (root / ATTEMPT).write_text(textwrap.dedent(VALID[ATTEMPT]).replace("CASE-001-one", "CASE-009-gone"))


# The child's own high-water mark (VmHWM) as it ends: ru_maxrss would carry
# the parent's peak over fork and exec.
MEASURED = """
import sys
from penguin_lint.cli import main
try:
    main(sys.argv[2:])
finally:
    with open("/proc/self/status") as st, open(sys.argv[1], "w") as out:
        out.write([ln for ln in st if ln.startswith("VmHWM:")][0].split()[1])
"""


def test_a_base_blob_over_the_limit_is_never_held_whole(tmp_path, git_env, monkeypatch):
    root = write_repo(tmp_path / "repo", {".penguin-lint.toml": "max-file-size = 2000\n"}, VALID)
    pull_request_repo(root)
    _big_base(root, 50_000)
    held = []
    ask = basetree.GitObjects._ask

    def recording(self, name, *rest):
        out = ask(self, name, *rest)
        held.append(len(out[2]))
        return out

    monkeypatch.setattr(basetree.GitObjects, "_ask", recording)
    run = lint(root, ATTEMPT, "--new-only")
    assert run.code == 1 and run.at("PL304") == [(ATTEMPT, 3)], run.output + run.stderr
    assert held and max(held) <= 2001
    # the base's copy counts as too large: a file as large in both is old debt
    # (a size that changed is a finding of its own, which the change is shown)
    (root / ATTEMPT).write_bytes(_padded(50_000))
    again = lint(root, ATTEMPT, "--new-only")
    assert again.findings == [] and again.json["summary"]["hidden"] == 1, again.output
    assert lint(root, ATTEMPT).at("PL004") == [(ATTEMPT, 1)]
    assert max(held) <= 2001


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the peak from /proc")
def test_a_large_base_blob_keeps_the_process_small(tmp_path, git_env):
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    _big_base(root, 150 * 1024 * 1024)  # zeros: git stores it small
    hwm = tmp_path / "hwm"
    proc = subprocess.run([sys.executable, "-I", "-c", MEASURED, str(hwm), "--root", str(root), "--format",
                           "json", "--new-only", ATTEMPT], cwd=root, capture_output=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["PL304"]
    peak_kb = int(hwm.read_text())
    assert peak_kb < 100 * 1024, f"peak RSS {peak_kb // 1024} MB"
