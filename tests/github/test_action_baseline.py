"""The Action with `all: true` on a pull request and a baseline: the base's
baseline lets the old debt pass; a pull request that edits the baseline to
record its own finding gets PL502 on it and still fails. Run step by step
as action.yml declares it."""
from __future__ import annotations

import subprocess

from tests.conftest import lint
from tests.github.test_action import git_identity, pull_request, runner  # noqa: F401 (fixture)

BASELINE = ".penguin-lint-baseline.json"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"


def test_the_base_baseline_counts_and_the_change_s_does_not(tmp_path, git_identity):  # noqa: F811
    # the checkout helper plants old debt on main (bench-old's date version)
    ws, write = pull_request(tmp_path)
    before = runner(ws, tmp_path / "before", inputs={"all": "true"}).lint()
    assert before.code == 1 and any("title=PL203" in c for c in before.commands())
    # the maintainers record the debt on main (here: as the pull request's
    # first commit, then made the base by moving origin/main to it)
    assert lint(ws, "--all", "--no-cache", "--write-baseline").code == 0
    write({}, "record the old debt")
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=ws, check=True)
    clean = runner(ws, tmp_path / "clean", inputs={"all": "true"}).lint()
    assert clean.code == 0, clean.stdout + clean.stderr
    assert "All checks passed (10 files checked; 1 finding baselined)." in clean.summary
    assert "penguin-lint: 0 errors, 0 warnings (10 files checked; 1 finding baselined)" in clean.stdout

    # the pull request adds a wrong mean and records it in its own baseline
    write({SUMMARY: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"}, "a wrong mean")
    assert lint(ws, "--all", "--no-cache", "--write-baseline").code == 0
    write({}, "and hide it")
    run = runner(ws, tmp_path / "pr", inputs={"all": "true"}).lint()
    assert run.code == 1
    commands = run.commands()
    assert any("title=PL303" in c and SUMMARY in c for c in commands), commands
    assert any("title=PL502" in c and f"file={BASELINE}" in c for c in commands), commands
    assert not any("title=PL203" in c for c in commands)  # the base's debt stays baselined
