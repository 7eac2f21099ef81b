"""A run closes every git process it starts, once, on every path: a run that
fails midway (a bad path, no rule left, git failing after the base tree was
opened) leaves no git process running behind it."""
from __future__ import annotations

import os

import pytest

from penguin_lint.pipeline import PenguinLintError, Request, run
from tests.conftest import VALID, git, write_repo

LB = "leaderboards/lb/leaderboard.yaml"


def git_children():
    """The git processes this test process started and has not reaped."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == os.getpid() and comm.startswith("git"):
            found.append((int(pid), comm))
    return found


@pytest.fixture
def branch(tmp_path, git_env):
    """A repository on branch feature, one leaderboard changed since main."""
    root = write_repo(tmp_path / "repo", {}, VALID)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["checkout", "-q", "-b", "feature"]):
        git(root, *args)
    (root / LB).write_text((root / LB).read_text() + "# changed\n")
    git(root, "commit", "-qam", "change")
    assert git_children() == []
    return root


def fails(root, **options):
    """The one line a run that cannot be made raises, and the git processes
    left running at that moment."""
    with pytest.raises(PenguinLintError) as failed:
        run(Request(root=root, cwd=root, cache=False, **options))
    return str(failed.value), git_children()


def test_a_diff_run_given_a_missing_path_leaves_no_git_process(branch):
    message, left = fails(branch, diff_base="main", paths=["leaderboards/nope.yaml"])
    assert message == "no such file or folder: leaderboards/nope.yaml"
    assert left == []


def test_a_diff_run_with_no_rule_left_leaves_no_git_process(branch):
    message, left = fails(branch, diff_base="main", select=["PL3"], ignore=["PL3"])
    assert message == "--select and --ignore leave no rule enabled"
    assert left == []


def test_a_diff_run_with_a_missing_definition_leaves_no_git_process(branch):
    message, left = fails(branch, diff_base="main", definition="nope.yaml")
    assert message == "definition file not found in the repository: nope.yaml"
    assert left == []


def test_git_failing_after_the_base_tree_opened_leaves_no_git_process(branch, monkeypatch):
    from penguin_lint.pr import git as pr_git

    opened = []
    real_init = pr_git.GitObjects.__init__

    def track(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        opened.append(self)

    def broken(self, *args, **kwargs):
        # the base tree is open by now: its cat-file process is running
        assert any(o._proc is not None and o._proc.poll() is None for o in opened)
        raise pr_git.GitError("git diff failed: simulated")

    monkeypatch.setattr(pr_git.GitObjects, "__init__", track)
    monkeypatch.setattr(pr_git.GitRepo, "change", broken)
    message, left = fails(branch, diff_base="main")
    assert message == "git diff failed: simulated"
    assert opened and left == []


def test_a_staged_run_failing_on_a_path_leaves_no_git_process(branch):
    message, left = fails(branch, staged=True, paths=["leaderboards/nope.yaml"])
    assert message == "no such file or folder: leaderboards/nope.yaml"
    assert left == []


@pytest.mark.parametrize("options", [
    dict(all=True), dict(diff_base="main"), dict(paths=[LB]), dict(paths=[LB], fix=True, diff=True),
    dict(staged=True), dict(paths=["-"], stdin_filename=LB, stdin=b"name: lb\n"),
], ids=["whole", "diff", "paths", "paths-fix-diff", "staged", "stdin"])
def test_every_kind_of_run_closes_what_it_opened(branch, options):
    if options.get("staged"):
        (branch / LB).write_text((branch / LB).read_text() + "# staged\n")
        git(branch, "add", LB)
    outcome = run(Request(root=branch, cwd=branch, cache=False, **options))
    assert outcome.result.files >= 1
    assert git_children() == []
