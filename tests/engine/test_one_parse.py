"""A big file costs one parse in every kind of run: a path run parses the
leaderboard once (its dependent experiments reuse what PL306 read), and a
file the base does not have is not fingerprinted finding by finding."""
from __future__ import annotations

from collections import Counter

from penguin_lint.core.repo import Repository
from penguin_lint.pr import blame
from tests.conftest import VALID, git, lint

BOARD = "leaderboards/lb/leaderboard.yaml"
# two values with one label: PL407 on the second, so the board has a finding
DUPLICATE = VALID[BOARD].rstrip(" ") + "          - experiment_id: exp-1\n            phase: test\n"


def _committed_without_board(repo_root):
    git(repo_root, "init", "-q", "-b", "main")
    git(repo_root, "add", "-A", "--", ".", ":!leaderboards")
    git(repo_root, "commit", "-q", "-m", "base")


def _count_loads(monkeypatch):
    parsed = Counter()
    original = Repository._load

    def counting(self, rel):
        parsed[rel] += 1
        return original(self, rel)

    monkeypatch.setattr(Repository, "_load", counting)
    return parsed


def test_path_run_parses_the_board_once(repo, git_env, monkeypatch):
    root = repo({BOARD: DUPLICATE})
    _committed_without_board(root)
    parsed = _count_loads(monkeypatch)
    run = lint(root, "--root", str(root), "--no-cache", BOARD)
    assert run.code == 0, run.output
    assert run.at("PL407") == [(BOARD, 9)]
    # the board, its experiment (a dependent, PL306 reads the board) and nothing twice
    assert parsed[BOARD] == 1


def test_untracked_file_is_not_fingerprinted(repo, git_env, monkeypatch):
    root = repo({BOARD: DUPLICATE})
    _committed_without_board(root)
    looked_up = []
    original = blame._positions
    monkeypatch.setattr(blame, "_positions", lambda doc: looked_up.append(doc) or original(doc))
    run = lint(root, "--root", str(root), "--no-cache", BOARD)
    [finding] = [f for f in run.findings if f["code"] == "PL407"]
    assert (finding["path"], finding["line"]) == (BOARD, 9)
    assert finding["new"] is True  # HEAD has no such file: every finding is new
    assert looked_up == []


def test_tracked_board_still_compared_with_head(repo, git_env):
    # the shortcut is only for a base without findings: an old finding stays old
    root = repo({BOARD: DUPLICATE})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    run = lint(root, "--root", str(root), "--no-cache", BOARD)
    [finding] = [f for f in run.findings if f["code"] == "PL407"]
    assert (finding["path"], finding["line"], finding["new"]) == (BOARD, 9, False)
