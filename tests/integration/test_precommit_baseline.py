"""The real pre-commit hook and the baseline: old debt the repository's
baseline records does not block a commit that edits the file it is in,
nor the manual whole-repository hook; a new error still does."""
from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("pre_commit")

from tests.integration.test_precommit import TASK, env, hook_repo, run, target  # noqa: E402,F401 (fixtures)


def test_recorded_debt_does_not_block_the_hook(target, env):  # noqa: F811
    # old debt: a task without its description (PL101), committed past the hook
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\n')
    run(target, "git", "commit", "-q", "--no-verify", "-am", "old debt", env=env)
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--no-cache", "--write-baseline"],
                          cwd=target, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run(target, "git", "add", ".penguin-lint-baseline.json", env=env)
    run(target, "git", "commit", "-q", "--no-verify", "-m", "record the old debt", env=env)
    # a contributor retitles the task: the file's recorded finding does not block the commit
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "The first one"\n')
    run(target, "git", "add", TASK, env=env)
    proc = run(target, "git", "commit", "-m", "retitle", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "PL101" not in out
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--verbose", "--hook-stage", "manual",
               "penguin-lint-all", env=env, check=False)
    assert proc.returncode == 0 and "1 finding baselined" in proc.stdout, proc.stdout
    # a new error in the same file blocks it
    (target / TASK).write_text('id = "CASE-002"\ntitle = "The first one"\n')
    run(target, "git", "add", TASK, env=env)
    proc = run(target, "git", "commit", "-m", "a wrong id", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "PL" in out and "PL101" not in out, out
