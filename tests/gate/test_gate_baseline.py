"""The baseline a pull request can lay out: its writer and its reader of
the working tree's copy refuse a symbolic link anywhere on the way (one
error line, exit 2, nothing written or read)."""
from __future__ import annotations

import os

import pytest

from tests.conftest import VALID, lint, write_repo
from tests.run.test_baseline import DEBT

CONFIG = 'baseline = "meta/deeper/b.json"\n'
RECORDS_NOTHING = '{"version": 1, "findings": []}\n'


def linked_meta(tmp_path, target: str):
    """A repository whose baseline is meta/deeper/b.json, ``meta`` a link:
    to a folder outside it ("outside"), or to its own .git ("git")."""
    root = write_repo(tmp_path / "repo", dict(DEBT, **{".penguin-lint.toml": CONFIG}), VALID)
    if target == "outside":
        away = tmp_path / "away"
    else:
        away = root / ".git"
    (away / "deeper").mkdir(parents=True)
    os.symlink(away, root / "meta")
    return root, away / "deeper" / "b.json"


@pytest.mark.parametrize("target", ["outside", "git"])
def test_write_baseline_refuses_a_link_on_the_way(tmp_path, target):
    root, behind = linked_meta(tmp_path, target)
    run = lint(root, "--all", "--no-cache", "--write-baseline", fmt="text")
    assert run.code == 2 and run.output == ""
    assert run.stderr.splitlines() == [
        "penguin-lint: error: meta/deeper/b.json: a folder on the way is a symbolic link; "
        "the baseline is not written through it"]
    assert os.listdir(behind.parent) == []


@pytest.mark.parametrize("target", ["outside", "git"])
def test_a_baseline_behind_a_link_on_the_way_is_not_read(tmp_path, target):
    root, behind = linked_meta(tmp_path, target)
    behind.write_text(RECORDS_NOTHING)
    for fmt in ("text", "json"):
        run = lint(root, "--all", "--no-cache", fmt=fmt)
        assert run.code == 2 and run.output == ""
        assert run.stderr.splitlines() == [
            "penguin-lint: error: meta/deeper/b.json: a folder on the way is a symbolic link; "
            "the baseline is not read through it"]
    # the same file in a real folder is read (the refusal is the link's)
    os.unlink(root / "meta")
    (root / "meta" / "deeper").mkdir(parents=True)
    (root / "meta" / "deeper" / "b.json").write_text(RECORDS_NOTHING)
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1 and run.json["summary"]["baselined"] == 0
