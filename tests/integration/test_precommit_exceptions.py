"""The real pre-commit hook and the suppressions the author's own commit adds:
they apply to the commit, and the hook says what the pull request will need."""
from __future__ import annotations

import sys

import pytest

pytest.importorskip("pre_commit")

from tests.integration.test_precommit import env, hook_repo, run, target  # noqa: E402,F401

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"


def test_the_commits_own_suppression_lets_the_commit_through_and_says_what_the_pull_request_needs(target, env):
    (target / ".penguin-lint.toml").write_text('approval-label = "lint-exception"\n')
    run(target, "git", "add", "-A", env=env)
    run(target, "git", "commit", "-q", "--no-verify", "-m", "settings", env=env)
    # without the comment the commit is refused
    (target / SUMMARY).write_text(MEAN)
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, "git", "commit", "-m", "mean", env=env, check=False)
    assert proc.returncode != 0 and f"{SUMMARY}:2:13: PL303" in proc.stdout + proc.stderr
    # with it, the commit goes through, and the hook says what the pull request will need
    (target / SUMMARY).write_text(MEAN + "# penguin-lint: disable-file=PL303 kept as the importer wrote it\n")
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--verbose", "penguin-lint", env=env,
               check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert (f"{SUMMARY}:4:1: suppression of PL303 in this file is added by this commit and applies to it; "
            "the pull request will need the maintainers' label 'lint-exception' "
            "(allow-added-suppressions does not list PL303) (notice)") in out
    proc = run(target, "git", "commit", "-m", "mean, kept", env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
