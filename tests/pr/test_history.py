"""When git last committed a folder (pr/history.py): what PL101 proposes as a
package's last_update, asked of git read-only, literally, a bounded number of times."""
from __future__ import annotations

from penguin_lint.pr import history
from penguin_lint.pr.history import FolderHistory
from tests.conftest import git


def _commit(root, rel, date, monkeypatch):
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("x\n")
    git(root, "add", rel)
    monkeypatch.setenv("GIT_COMMITTER_DATE", date)
    git(root, "commit", "-q", "-m", rel)


def test_the_last_commit_of_a_folder_to_the_second_with_its_offset(tmp_path, git_env, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    _commit(root, "packages/a/f", "2026-03-04T12:30:05+01:00", monkeypatch)
    _commit(root, "packages/b/f", "2026-03-05T01:02:03-07:00", monkeypatch)
    h = FolderHistory(root)
    assert h.last_commit("packages/a") == "2026-03-04T12:30:05+01:00"
    assert h.last_commit("packages/b") == "2026-03-05T01:02:03-07:00"
    assert h.last_commit("packages/none") is None
    # a name is a name: no glob, no magic, no option
    for name in ("packages/*", ":(glob)packages/*", "packages/?", "--all"):
        assert h.last_commit(name) is None, name


def test_no_git_no_question(tmp_path, git_calls):
    assert FolderHistory(tmp_path).last_commit("packages/a") is None
    assert git_calls() == []


def test_a_run_asks_git_a_bounded_number_of_times(tmp_path, git_env, git_calls, monkeypatch):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    _commit(root, "packages/a/f", "2026-03-04T12:30:05+01:00", monkeypatch)
    monkeypatch.setattr(history, "MAX_QUESTIONS", 2)
    h = FolderHistory(root)
    before = len(git_calls())
    answers = [h.last_commit(f"packages/{n}") for n in ("a", "b", "c", "a")]
    assert answers == ["2026-03-04T12:30:05+01:00", None, None, "2026-03-04T12:30:05+01:00"]
    asked = [c for c in git_calls()[before:] if " log " in f" {c} "]
    assert len(asked) == 2, asked
    assert all("--no-optional-locks" in c for c in asked)
