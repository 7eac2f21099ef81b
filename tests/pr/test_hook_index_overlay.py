"""The hook reads the index as HEAD's tree with the staged entries on top.

Folders the commit empties, a folder replaced by a file, renames and a
conflicted file are the index's as ``git commit`` would record them; and the
index is never listed whole (a hook run costs the same in a repository of
any size)."""
from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import VALID, lint, write_repo

ATTEMPTS = "experiments/lb/exp-1/test/"
SUMMARY = ATTEMPTS + "summary.yaml"
TASK = "packages/bench-a/CASE-001-one/"
GIT_ENV = dict(GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)


def git(root, *args, check=True):
    return subprocess.run(["git", *args], cwd=root, check=check, capture_output=True,
                          env=dict(os.environ, **GIT_ENV))


def committed(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        git(root, *args)
    return root


def test_a_folder_the_commit_empties_is_gone(tmp_path):
    root = committed(tmp_path)
    git(root, "rm", "-q", "-r", "--cached", TASK + "rubric")  # still on disk, not in the commit
    r = lint(root, "--staged")
    assert r.code == 1 and r.at("PL205") == [(TASK + "rubric/README.md", None)], r.output


def test_a_folder_replaced_by_a_file_is_a_file(tmp_path):
    root = committed(tmp_path)
    git(root, "rm", "-q", "-r", TASK + "rubric")
    (root / TASK / "rubric").write_text("not a folder\n")
    git(root, "add", TASK + "rubric")
    r = lint(root, "--staged")
    assert r.code == 1 and r.at("PL205") == [(TASK + "rubric/README.md", None)], r.output
    # and back: the commit makes the file a folder again
    git(root, "rm", "-q", "--cached", TASK + "rubric")
    os.unlink(root / TASK / "rubric")
    git(root, "checkout", "HEAD", "--", TASK + "rubric")
    assert lint(root, "--staged").code == 0


def test_a_renamed_attempt_is_read_under_its_new_name(tmp_path):
    root = committed(tmp_path)
    git(root, "mv", ATTEMPTS + "attempt-2.yaml", ATTEMPTS + "attempt-3.yaml")
    r = lint(root, "--staged")
    assert r.code == 1, r.output
    assert (ATTEMPTS + "attempt-3.yaml") in {p for p, _line in r.at("PL302")}, r.output


def test_a_conflicted_file_is_judged_as_our_side(tmp_path):
    root = committed(tmp_path)
    git(root, "checkout", "-q", "-b", "theirs")
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0  # theirs\nscore_std: 0.0\n")
    git(root, "commit", "-q", "-am", "theirs")
    git(root, "checkout", "-q", "main")
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")  # wrong: PL303
    git(root, "commit", "-q", "-am", "ours", "--no-verify")
    assert git(root, "merge", "theirs", check=False).returncode != 0  # a conflict
    r = lint(root, "--staged", SUMMARY)
    # our side, as HEAD records it: its finding predates the merge
    assert r.at("PL303") == [(SUMMARY, 2)], r.output
    assert [f["new"] for f in r.json["findings"]] == [False], r.output


def test_the_hook_never_lists_the_whole_index(tmp_path, monkeypatch):
    root = committed(tmp_path)
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    git(root, "add", SUMMARY)
    trace = tmp_path / "git-trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    r = lint(root, "--staged")
    assert r.code == 1 and r.at("PL303") == [(SUMMARY, 2)], r.output
    commands = [line.split("trace: built-in: ", 1)[1] for line in trace.read_text().splitlines()
                if "trace: built-in: " in line]
    # one comparison of the index with HEAD; no listing of the index's entries
    assert sum(c.startswith("git diff-index --cached") for c in commands) == 1, commands
    assert not [c for c in commands if c.startswith("git ls-files -s")], commands
    # nothing untracked beside the file: the folder is compared with the index, git not asked
    assert not [c for c in commands if c.startswith("git ls-files")], commands
    # an untracked file there is named, as git lists it
    (root / ATTEMPTS / "attempt-3.yaml").write_text(VALID[ATTEMPTS + "attempt-2.yaml"])
    r = lint(root, "--staged", fmt="text")
    assert f"not part of this commit, so not read (untracked): {ATTEMPTS}attempt-3.yaml" in r.output + r.stderr


def test_the_hook_imports_only_what_it_uses(tmp_path):
    root = committed(tmp_path)
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n# reviewed\n")
    git(root, "add", SUMMARY)
    probe = ("import sys\nfrom penguin_lint.cli import main\n"
             "try:\n    main(['--staged'])\nexcept SystemExit as e:\n    code = e.code\n"
             "print(code, sorted(m for m in sys.modules if m in NAMES))\n").replace(
        "NAMES", repr({"difflib", "fractions", "penguin_lint.run.diff", "penguin_lint.run.whole",
                       "penguin_lint.run.stdin", "penguin_lint.engine.parallel", "penguin_lint.engine.unit",
                       "penguin_lint.engine.shard", "penguin_lint.run.shard"}))
    proc = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, **GIT_ENV))
    # the other kinds of run, what only words a finding, and what only a whole
    # run uses (its units, workers and shards) are not imported
    assert proc.stdout.splitlines()[-1] == "0 []", proc.stdout + proc.stderr


def test_the_hook_asks_git_for_sizes_only_to_check_a_package_file(tmp_path, monkeypatch):
    # an attempt names its task (PL304 lists the package): no size is needed for that
    root = committed(tmp_path)
    (root / ATTEMPTS / "attempt-1.yaml").write_text(VALID[ATTEMPTS + "attempt-1.yaml"] + "# reviewed\n")
    git(root, "add", ATTEMPTS + "attempt-1.yaml")
    trace = tmp_path / "git-trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    r = lint(root, "--staged")
    assert r.code == 0, r.output
    assert "--batch-check" not in trace.read_text()
    # a package file staged over the limit: its size is asked, and it is PL004
    (root / ".penguin-lint.toml").write_text("max-file-size = 100\n")
    big = "packages/bench-a/CASE-001-one/statement/data.csv"
    (root / big).write_text("x\n" * 100)
    git(root, "add", ".penguin-lint.toml", big)
    trace.write_text("")
    r = lint(root, "--staged", big)
    assert r.at("PL004") == [(big, 1)], r.output
    assert "--batch-check" in trace.read_text()
