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


# exp-2 is in no value of the board: PL306, old debt once committed
EXP2 = {k.replace("exp-1", "exp-2"): v.replace("exp-1", "exp-2")
        for k, v in VALID.items() if k.startswith("experiments/lb/exp-1/")}
ATTEMPT2 = "experiments/lb/exp-2/test/attempt-1.yaml"


def _committed(root):
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")


def test_an_edit_inside_an_experiment_does_not_read_the_board(repo, git_env, monkeypatch):
    # whether an experiment is referenced is the board's to say: editing an
    # attempt of it (the hook, a diff run, a path run) does not parse the board
    root = repo(EXP2)
    _committed(root)
    assert [p for p, _ in lint(root, "--all", "--no-cache").at("PL306")] == ["experiments/lb/exp-2/meta_info.yaml"]
    (root / ATTEMPT2).write_text((root / ATTEMPT2).read_text().replace("50.0", "50.00"))
    git(root, "add", ATTEMPT2)
    parsed = _count_loads(monkeypatch)
    for args in (["--staged"], ["--diff-base", "HEAD"], [ATTEMPT2]):
        parsed.clear()
        run = lint(root, "--no-cache", *args)
        assert run.code == 0 and run.findings == [], (args, run.output)
        assert parsed[BOARD] == 0, args


def test_a_new_file_in_an_experiment_checks_it_whole(repo, git_env, monkeypatch):
    # a file added below the experiment changes what it holds: every rule runs on it
    # again, and its old PL306 is still not the change's
    root = repo(EXP2)
    _committed(root)
    extra = "experiments/lb/exp-2/notes.yaml"
    (root / extra).write_text("a: 1\n")
    parsed = _count_loads(monkeypatch)
    run = lint(root, "--no-cache", "--diff-base", "HEAD")
    assert parsed[BOARD] == 1
    assert "PL306" not in {f["code"] for f in run.findings}
    # made unreferenced by the change itself (the board edited): new, and reported
    (root / BOARD).write_text(VALID[BOARD].replace("exp-1", "exp-9"))
    run = lint(root, "--no-cache", "--diff-base", "HEAD")
    assert ("PL306", "experiments/lb/exp-1/meta_info.yaml") in [(f["code"], f["path"]) for f in run.findings]
