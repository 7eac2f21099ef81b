"""The hook judges what is being committed: the index against HEAD.

Through the real pre-commit framework (the fixtures of test_precommit.py):
untracked files are not part of the commit, unstaged edits are not either,
and every entry added under the layout is seen, not only data files. The
same through ``penguin-lint --staged`` in-process, where no framework
stashes anything.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import VALID, lint, write_repo
from tests.integration.test_precommit import env, hook_repo, run, target  # noqa: F401 (fixtures)

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
ATTEMPTS = "experiments/lb/exp-1/test/"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"


def commit(root, env, message="change"):
    proc = run(root, "git", "commit", "-m", message, env=env, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_untracked_attempt_does_not_block_a_commit_of_the_summary(target, env):
    # an attempt lying in the working tree, not added: not part of the commit
    (target / ATTEMPTS / "attempt-4.yaml").write_text((target / ATTEMPTS / "attempt-2.yaml").read_text())
    (target / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0  # checked\n")
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--verbose", "penguin-lint", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "PL302" not in out
    # a short notice names it
    assert f"untracked): {ATTEMPTS}attempt-4.yaml" in out
    status, out = commit(target, env)
    assert status == 0, out
    # once added, it is part of the commit, and blocks it
    run(target, "git", "add", ATTEMPTS + "attempt-4.yaml", env=env)
    status, out = commit(target, env, "attempt 4")
    assert status != 0, out
    assert f"{ATTEMPTS}attempt-4.yaml: PL302 attempt-4.yaml is beyond the 2 attempts" in out


def test_unstaged_edits_are_not_what_is_committed(target, env):
    # staged: a bad task; unstaged: its repair. The commit records the bad one.
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\n')
    run(target, "git", "add", TASK, env=env)
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\ndescription = "Fixed, not staged."\n')
    status, out = commit(target, env)
    assert status != 0, out
    assert f"{TASK}:1:1: PL101 missing required field 'description'" in out
    # the working tree keeps its unstaged repair (pre-commit put it back)
    assert "Fixed, not staged." in (target / TASK).read_text()
    # staged: a good summary edit; unstaged: a bad one. The commit passes.
    run(target, "git", "checkout", "--", TASK, env=env)
    run(target, "git", "reset", "-q", env=env)
    (target / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n# reviewed\n")
    run(target, "git", "add", SUMMARY, env=env)
    (target / SUMMARY).write_text("n_attempt: 2\nscore_mean: 99.0\nscore_std: 0.0\n# reviewed\n")
    status, out = commit(target, env)
    assert status == 0, out


def test_links_executables_and_archives_in_a_package_block_the_commit(target, env):
    task_dir = target / "packages/bench-a/CASE-001-one"
    (task_dir / "solve.sh").write_text("#!/bin/sh\necho solved\n")
    os.chmod(task_dir / "solve.sh", 0o755)
    (task_dir / "inputs.zip").write_bytes(b"PK\x03\x04 not really")
    os.symlink("../../../README.md", task_dir / "notes.md")
    run(target, "git", "add", "packages", env=env)
    status, out = commit(target, env)
    assert status != 0, out
    assert "packages/bench-a/CASE-001-one/solve.sh: PL007 executable 'solve.sh' in a package" in out
    assert "packages/bench-a/CASE-001-one/inputs.zip: PL007 archive 'inputs.zip' in a package" in out
    assert "packages/bench-a/CASE-001-one/notes.md: PL006 symbolic link" in out


# -- penguin-lint --staged, with nothing stashed -------------------------------------------


@pytest.fixture
def staged_repo(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    e = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="T",
             GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        subprocess.run(["git", *args], cwd=root, env=e, check=True, capture_output=True)
    return root


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def test_staged_reads_the_index_not_the_working_tree(staged_repo):
    repo = staged_repo
    # the index holds a bad summary, the working tree a good one
    (repo / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    git(repo, "add", SUMMARY)
    (repo / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n")
    r = lint(repo, "--staged", SUMMARY)
    assert r.code == 1 and r.at("PL303") == [(SUMMARY, 2)]
    # and the other way round: a bad edit not staged is not judged
    git(repo, "add", SUMMARY)
    (repo / ATTEMPTS / "attempt-1.yaml").write_text("score: 10.0\nresults:\n  - source: CASE-001-one\n    score: 10.0\n")
    r = lint(repo, "--staged", SUMMARY)
    assert r.code == 0 and r.findings == [], r.output
    # without paths: every staged change (here: none against HEAD)
    assert lint(repo, "--staged").code == 0


def test_staged_without_paths_judges_every_staged_change_deletions_included(staged_repo):
    repo = staged_repo
    git(repo, "rm", "-q", ATTEMPTS + "attempt-2.yaml")
    r = lint(repo, "--staged")
    # the summary says 2 attempts; the commit leaves one
    assert r.code == 1, r.output
    assert r.at("PL302") == [(ATTEMPTS + "attempt-2.yaml", None)], r.output
    # still on disk? no matter: the commit deletes it
    assert not (repo / ATTEMPTS / "attempt-2.yaml").exists()
    (repo / ATTEMPTS / "attempt-2.yaml").write_text(VALID[ATTEMPTS + "attempt-2.yaml"])
    assert lint(repo, "--staged").at("PL302") == [(ATTEMPTS + "attempt-2.yaml", None)]


def test_staged_refuses_what_works_on_the_working_tree(staged_repo):
    repo = staged_repo
    r = lint(repo, "--staged", "--fix", SUMMARY, fmt="text")
    assert r.code == 2 and "--fix and --diff work on the working tree" in r.stderr
    r = lint(repo, "--staged", "--all", fmt="text")
    assert r.code == 2 and "--staged cannot be combined with --all" in r.stderr


def test_staged_outside_git_is_one_error_line(tmp_path):
    root = write_repo(tmp_path / "plain", {}, VALID)
    r = lint(root, "--staged", SUMMARY, fmt="text")
    assert r.code == 2 and r.stderr.startswith("penguin-lint: error: not a git repository"), r.stderr


def test_a_failed_commit_says_when_fix_would_help(target, env):
    (target / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    run(target, "git", "add", SUMMARY, env=env)
    status, out = commit(target, env)
    assert status != 0, out
    assert f"{SUMMARY}:2:13: PL303 [*] score_mean is 40.0 but the 2 attempts average 50" in out
    # under pre-commit, its fixing hook (penguin-lint itself may not be on PATH)
    assert (f"[*] 1 fixable: run `pre-commit run penguin-lint-fix --files {SUMMARY}`, then stage the repaired "
            "file (git add) and commit again.") in out
    # doing what it says makes the commit pass
    proc = run(target, sys.executable, "-m", "penguin_lint", "--fix", SUMMARY, env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run(target, "git", "add", SUMMARY, env=env)
    status, out = commit(target, env)
    assert status == 0, out


def test_the_hook_says_which_findings_predate_the_commit_and_which_it_caused(target, env):
    from tests.rules.test_rules_leaderboards import BENCH_B, HEADER, experiment, mean_of

    lb, meta2 = "leaderboards/lb/leaderboard.yaml", "experiments/lb/exp-2/meta_info.yaml"
    files = {**BENCH_B, **experiment("exp-2"), **experiment("exp-3", model="other")}
    board = HEADER + "  - { experiment_id: exp-1, phase: test }\n" + mean_of("exp-1", "exp-2") \
        + mean_of("exp-1", "exp-3")  # old debt: PL403 on line 12
    files[lb] = board
    for rel, text in files.items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(text)
    run(target, "git", "add", "-A", env=env)
    run(target, "git", "commit", "-q", "--no-verify", "-m", "old debt", env=env)
    # one entry added to the shared leaderboard: the old PL403 is shown as old
    (target / lb).write_text(board + "  - { experiment_id: exp-2, phase: test }\n")
    run(target, "git", "add", lb, env=env)
    status, out = commit(target, env)
    assert status != 0, out
    assert f"{lb}:12:5: PL403" in out
    assert "    note: already in HEAD (" in out
    assert "`--new-only` reports only what the change introduces" in out
    run(target, "git", "checkout", "-q", "HEAD", "--", lb, env=env)
    # a model renamed in an experiment: the board's new PL403 names that change
    (target / meta2).write_text((target / meta2).read_text().replace("model_name: m", "model_name: other"))
    run(target, "git", "add", meta2, env=env)
    status, out = commit(target, env)
    assert status != 0, out
    assert f"{lb}:8:5: PL403" in out and f"    note: after your change to {meta2}" in out
    assert f"{lb}:12:5" not in out  # old debt in a file the commit does not touch


def test_a_task_moved_to_another_benchmark_blocks_the_commit_that_breaks_its_attempts(target, env):
    # the moved files edited on the way: git sees the old ones deleted, the
    # new ones added, and pre-commit passes the new names alone
    bench_b = (target / "packages/bench-a/benchmark_config.toml").read_text().replace("bench-a", "bench-b")
    (target / "packages/bench-b").mkdir()
    (target / "packages/bench-b/benchmark_config.toml").write_text(bench_b)
    run(target, "git", "add", "-A", env=env)
    run(target, "git", "commit", "-q", "--no-verify", "-m", "bench-b", env=env)
    run(target, "git", "mv", "packages/bench-a/CASE-001-one", "packages/bench-b/CASE-001-one", env=env)
    moved = target / "packages/bench-b/CASE-001-one"
    (moved / "task_config.toml").write_text('id = "CASE-001-one"\ntitle = "The first task, now in B"\n'
                                            'description = "Moved here from bench-a, and reworded."\n')
    (moved / "statement/README.md").write_text("# One\n\nMoved from bench-a.\n")
    (moved / "rubric/README.md").write_text("# Rubric\n\nAs in bench-a.\n")
    run(target, "git", "add", "-A", env=env)
    assert "D  " + TASK in run(target, "git", "status", "--short", env=env).stdout
    status, out = commit(target, env)
    assert status != 0, out
    for n in (1, 2):
        assert (f"{ATTEMPTS}attempt-{n}.yaml:3:13: PL304 source 'CASE-001-one' is not a task of benchmark "
                "'bench-a'") in out, out
    assert "note: after your change to packages/bench-a/CASE-001-one/" in out


def test_the_fix_command_names_the_folder_of_the_benchmarks(tmp_path, hook_repo, env):
    from tests.integration.test_precommit import README_URL, readme_config

    path, sha = hook_repo
    top = tmp_path / "mono"
    write_repo(top / "bench", {}, VALID)
    (top / ".pre-commit-config.yaml").write_text(readme_config().replace(README_URL, str(path))
                                                 .replace("<commit-sha>", sha))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        run(top, "git", *args, env=env)
    run(top, sys.executable, "-m", "pre_commit", "install", env=env)
    (top / "bench" / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    run(top, "git", "add", "-A", env=env)
    status, out = commit(top, env)
    assert status != 0, out
    # pre-commit names files from the top of the git repository, not the benchmarks' root
    command = f"pre-commit run penguin-lint-fix --files bench/{SUMMARY}"
    assert f"run `{command}`" in out
    proc = run(top, sys.executable, "-m", "pre_commit", *command.split()[1:], env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run(top, "git", "add", "-A", env=env)
    status, out = commit(top, env)
    assert status == 0, out


def test_staged_sizes_and_content_are_the_index_s(staged_repo):
    repo = staged_repo
    (repo / ".penguin-lint.toml").write_text("max-file-size = 2000\n")
    git(repo, "add", ".penguin-lint.toml")
    big = "packages/bench-a/CASE-001-one/statement/data.csv"
    (repo / big).write_text("x\n" * 2000)  # 4000 bytes staged ...
    git(repo, "add", big)
    (repo / big).write_text("x\n")  # ... and a small file in the working tree
    r = lint(repo, "--staged", big)
    assert r.code == 1 and r.at("PL004") == [(big, 1)], r.output
    # the index's configuration, not the working tree's
    (repo / ".penguin-lint.toml").write_text("max-file-size = 9000\n")
    assert lint(repo, "--staged", big).at("PL004") == [(big, 1)]
    git(repo, "add", ".penguin-lint.toml")
    assert lint(repo, "--staged", big).at("PL004") == []


def test_what_the_commit_deletes_is_judged_with_the_files_given(staged_repo):
    # pre-commit passes no deleted file: a task removed beside an edit of its
    # benchmark breaks the attempts that name it, as a bare --staged says
    repo = staged_repo
    bench = "packages/bench-a/benchmark_config.toml"
    git(repo, "rm", "-q", "-r", "packages/bench-a/CASE-001-one")
    (repo / bench).write_text((repo / bench).read_text().replace('"Bench A"', '"Bench A, trimmed"'))
    git(repo, "add", bench)
    for args in (["--staged"], ["--staged", bench]):
        r = lint(repo, *args)
        assert r.code == 1, r.output
        assert r.at("PL304") == [(ATTEMPTS + "attempt-1.yaml", 3), (ATTEMPTS + "attempt-2.yaml", 3)], (args, r.output)


def test_a_path_the_commit_deletes_is_judged_not_refused(staged_repo):
    repo = staged_repo
    git(repo, "rm", "-q", ATTEMPTS + "attempt-2.yaml")
    r = lint(repo, "--staged", str(repo / ATTEMPTS / "attempt-2.yaml"))
    assert r.code == 1, r.stderr
    assert r.at("PL302") == [(ATTEMPTS + "attempt-2.yaml", None)], r.output
    # a path neither in the index, on disk nor deleted by the commit is still an error
    r = lint(repo, "--staged", str(repo / ATTEMPTS / "attempt-9.yaml"))
    assert r.code == 2 and "no such file or folder" in r.stderr


def test_nothing_staged_is_said_not_passed_as_checked(staged_repo):
    repo = staged_repo
    r = lint(repo, "--staged", fmt="text")
    assert r.code == 0 and "All checks passed" not in r.output
    assert r.output.startswith("No changes against HEAD (")
    assert lint(repo, "--staged").json["summary"]["no_changes"] is True


NEW_TASK = "packages/bench-a/CASE-002-two/"


def add_new_task(repo, intent_only=("statement/README.md", "rubric/README.md")):
    (repo / NEW_TASK / "statement").mkdir(parents=True)
    (repo / NEW_TASK / "rubric").mkdir()
    (repo / NEW_TASK / "task_config.toml").write_text(
        'id = "CASE-002-two"\ntitle = "Two"\ndescription = "The second task."\n')
    (repo / NEW_TASK / "statement/README.md").write_text("# Two\n")
    (repo / NEW_TASK / "rubric/README.md").write_text("# Rubric\n")
    for rel in ("task_config.toml", "statement/README.md", "rubric/README.md"):
        git(repo, "add", *(["-N"] if rel in intent_only else []), NEW_TASK + rel)


def test_intent_to_add_files_are_not_part_of_the_commit(staged_repo):
    # `git add -N` records a placeholder that `git commit` leaves out
    repo = staged_repo
    add_new_task(repo)
    r = lint(repo, "--staged")
    assert r.code == 1, r.output
    assert sorted(r.at("PL205")) == [(NEW_TASK + "rubric/README.md", None),
                                     (NEW_TASK + "statement/README.md", None)], r.output
    # the same with the task named, and with every file of it only intended
    assert lint(repo, "--staged", NEW_TASK + "task_config.toml").code == 1
    git(repo, "add", NEW_TASK)
    assert lint(repo, "--staged").code == 0


def test_intent_to_add_alone_is_no_change(staged_repo):
    repo = staged_repo
    add_new_task(repo, intent_only=("task_config.toml", "statement/README.md", "rubric/README.md"))
    r = lint(repo, "--staged", fmt="text")
    assert r.code == 0 and r.output.startswith("No changes against HEAD ("), r.output


def test_intent_to_add_before_the_first_commit(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "rm", "-q", "--cached", "packages/bench-a/CASE-001-one/rubric/README.md")
    git(root, "add", "-N", "packages/bench-a/CASE-001-one/rubric/README.md")
    r = lint(root, "--staged")
    assert r.at("PL205") == [("packages/bench-a/CASE-001-one/rubric/README.md", None)], r.output



def test_nothing_staged_before_the_first_commit_says_so(tmp_path, git_env):
    root = tmp_path / "r"
    (root / "packages").mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    r = lint(root, "--staged", fmt="text")
    assert (r.code, r.output) == (0, "Nothing staged.\n"), r.output


def test_the_fix_advice_under_pre_commit_says_to_add_the_fixing_hook_when_it_is_not_there(tmp_path, git_env,
                                                                                          monkeypatch):
    root = write_repo(tmp_path / "r", {}, VALID)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    monkeypatch.setenv("PRE_COMMIT", "1")
    monkeypatch.chdir(root)
    for config, said in ((None, True), ("  - id: penguin-lint\n", True), ("  - id: penguin-lint-fix\n", False)):
        if config is not None:
            (root / ".pre-commit-config.yaml").write_text(config)
        out = lint(root, "--staged", fmt="text").output
        assert ("add the penguin-lint-fix hook to .pre-commit-config.yaml (docs/pre-commit.md), then run "
                "`pre-commit run penguin-lint-fix --files" in out) is said, out
        assert f"run `pre-commit run penguin-lint-fix --files {SUMMARY}`" in out
