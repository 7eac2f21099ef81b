"""Diff runs keep git's untracked cache in a copy of the index in the cache
folder (status_index.py): the change they see is the one git reports, run
after run, and nothing in .git or outside the cache folder is written."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from penguin_lint.pr.status_index import StatusIndex
from tests.conftest import VALID, git, lint, pull_request_repo, write_repo

ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
NEW = "experiments/lb/exp-1/val/attempt-1.yaml"  # an untracked phase folder



@pytest.fixture
def repo(tmp_path, git_env):
    return pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))


def touched(root: Path, *args: str) -> set:
    run = lint(root, *args)
    assert run.code in (0, 1), run.stderr
    return {f["path"] for f in run.findings}


def copy_of(root: Path) -> Path:
    copies = list((root / ".penguin-lint-cache" / "status").glob("*/index"))
    assert len(copies) == 1
    return copies[0]


def test_each_run_sees_the_change_git_reports(repo):
    index = repo / ".git" / "index"
    before = (index.stat().st_mtime_ns, index.read_bytes())
    assert touched(repo) == set()  # the first run only notes that it ran
    assert not list((repo / ".penguin-lint-cache").glob("status/*/index"))
    assert touched(repo) == set()  # the second makes the copy
    assert copy_of(repo).is_file()
    # an untracked folder appears after the copy has its untracked cache
    (repo / NEW).parent.mkdir()
    (repo / NEW).write_text("score: high\n")
    assert NEW in touched(repo)
    assert touched(repo) == touched(repo, "--no-cache")
    # staged: the real index changes, the copy follows it
    git(repo, "add", NEW)
    assert NEW in touched(repo)
    git(repo, "reset", "-q", NEW)
    (repo / NEW).unlink()
    (repo / NEW).parent.rmdir()
    assert touched(repo) == set()
    # a tracked file edited in place (its folder's time stamp stays)
    (repo / ATTEMPT).write_text("score: low\n")
    assert ATTEMPT in touched(repo)
    git(repo, "checkout", "-q", "--", ATTEMPT)
    assert touched(repo) == set()
    # git's own index was only read (the reset above wrote it: compare after it)
    before = (index.stat().st_mtime_ns, index.read_bytes())
    (repo / ATTEMPT).write_text("score: low\n")
    touched(repo)
    assert (index.stat().st_mtime_ns, index.read_bytes()) == before


def test_the_cache_folder_stays_out_of_git_status(repo):
    touched(repo)
    assert git(repo, "status", "--porcelain", "-uall") == ""


def test_no_cache_leaves_no_copy(repo):
    touched(repo, "--no-cache")
    assert not (repo / ".penguin-lint-cache").exists()


def test_a_committed_cache_folder_is_not_used_and_its_links_not_followed(repo, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    folder = StatusIndex(repo / ".penguin-lint-cache", str(repo / ".git" / "index")).folder
    folder.mkdir(parents=True)
    os.symlink(outside, folder / "index.source")
    os.symlink(outside, folder / "index")
    git(repo, "add", "-f", ".penguin-lint-cache")
    git(repo, "commit", "-q", "-m", "a forged cache")
    (repo / NEW).parent.mkdir()
    (repo / NEW).write_text("score: high\n")
    assert NEW in touched(repo)
    run = lint(repo)  # a second run would make the copy, but git tracks the folder
    assert NEW in {f["path"] for f in run.findings}
    assert run.stderr == ("penguin-lint: warning: the cache folder .penguin-lint-cache/ is tracked by git; "
                          "the cache is not used\n")
    assert outside.read_text() == "keep me\n"
    assert (folder / "index").is_symlink() and (folder / "index.source").is_symlink()
    assert not (folder / "seen").exists()


def test_a_copy_of_an_older_index_is_replaced(repo):
    touched(repo)
    touched(repo)
    copy = copy_of(repo)
    old = copy.read_bytes()
    (repo / NEW).parent.mkdir()
    (repo / NEW).write_text("score: high\n")
    git(repo, "add", NEW)  # the real index changes
    copy.write_bytes(old)  # what a copy from before looks like
    assert NEW in touched(repo)
    assert copy.read_bytes() != old


def test_a_split_index_is_not_copied(repo):
    git(repo, "update-index", "--split-index")
    (repo / NEW).parent.mkdir()
    (repo / NEW).write_text("score: high\n")
    assert NEW in touched(repo)
    assert not list((repo / ".penguin-lint-cache").glob("status/*/index"))
