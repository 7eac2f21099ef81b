"""A cache folder an earlier run left below the root (a run rooted in a
subfolder) is never walked: its files are not "files checked" (issue 30).
A folder that only bears the name, or that git tracks, is still linted."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from penguin_lint.cache.folder import CACHEDIR_TAG, DEFAULT_DIR
from tests.conftest import lint

HARBOR = Path(__file__).resolve().parents[2] / "examples" / "harbor"


def _copy(root: Path) -> None:
    # the checkout's examples may hold cache folders of earlier runs (git ignores them)
    shutil.copytree(HARBOR, root, ignore=shutil.ignore_patterns(DEFAULT_DIR))


def _files(run) -> int:
    return json.loads(run.output)["summary"]["files"]


def test_a_cache_left_by_a_run_rooted_below_is_not_counted(tmp_path):
    root = tmp_path / "h"
    _copy(root)
    before = lint(root, "broken", "clean")
    assert lint(root / "broken", "--all").code == 1
    assert (root / "broken" / DEFAULT_DIR / "CACHEDIR.TAG").is_file()
    after = lint(root, "broken", "clean")
    assert _files(before) == _files(after) == 4
    assert after.findings == before.findings


def _git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args], cwd=cwd, check=True,
                   capture_output=True)


def test_a_folder_that_only_bears_the_name_or_is_tracked_is_linted(tmp_path):
    root = tmp_path / "h"
    _copy(root)
    plain = lint(root, "broken")
    # no tag: a folder of the repository's, with a file in it
    (root / "broken" / DEFAULT_DIR).mkdir()
    (root / "broken" / DEFAULT_DIR / "notes.txt").write_text("x\n")
    assert _files(lint(root, "broken")) == _files(plain) + 1
    # the tag, but committed: a pull request cannot hide files behind it
    (root / "broken" / DEFAULT_DIR / "CACHEDIR.TAG").write_bytes(CACHEDIR_TAG)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "x")
    assert _files(lint(root, "broken")) == _files(plain) + 2
