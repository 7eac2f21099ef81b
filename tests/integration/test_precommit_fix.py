"""The penguin-lint-fix hook under the real pre-commit framework, and the
advice of the failing penguin-lint hook, followed literally (issue 30)."""
from __future__ import annotations

import re
import shlex
import sys

import pytest
import yaml

pytest.importorskip("pre_commit")

from tests.integration.test_precommit import PROJECT, env, hook_repo, run, target  # noqa: E402,F401

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
WRONG = "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n"


def repaired(path) -> bool:
    return yaml.safe_load(path.read_text()) == {"n_attempt": 2, "score_mean": 50.0, "score_std": 0.0}


def test_the_fixing_hook_is_declared_as_ruffs_is():
    hooks = {h["id"]: h for h in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    fix = hooks["penguin-lint-fix"]
    assert fix["entry"].split()[1:] == ["--fix", "--exit-zero"] and fix["language"] == "python"
    assert "stages" not in fix  # the commit's stage: it repairs what is committed
    assert fix["files"] == hooks["penguin-lint"]["files"]


def test_a_fixable_finding_fails_the_commit_and_the_advice_works_under_pre_commit(target, env):
    (target / SUMMARY).write_text(WRONG)
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, "git", "commit", "-m", "wrong mean", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert f"{SUMMARY}:2:13: PL303" in out
    # the hook's advice names pre-commit's command, not a penguin-lint the user may not have
    advice = re.search(r"\[\*\] 1 fixable: run `([^`]*)`, then stage the repaired file \(git add\)", out)
    assert advice, out
    assert advice.group(1) == f"pre-commit run penguin-lint-fix --files {SUMMARY}"
    # the fixing hook ran in the same commit: it repaired the file and failed it (pre-commit's convention)
    assert "penguin-lint (fix)" in out and "files were modified by this hook" in out
    assert repaired(target / SUMMARY)
    # the advice, run as written, repairs the file again (here, from a fresh break)
    (target / SUMMARY).write_text(WRONG)
    argv = shlex.split(advice.group(1))
    assert argv[0] == "pre-commit"
    proc = run(target, sys.executable, "-m", "pre_commit", *argv[1:], env=env, check=False)
    assert proc.returncode == 1 and "files were modified by this hook" in proc.stdout, proc.stdout
    assert repaired(target / SUMMARY)
    # staged, the commit passes
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, "git", "commit", "-m", "right mean", env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_without_pre_commit_the_advice_names_penguin_lint(tmp_path, monkeypatch):
    from tests.conftest import VALID, lint, write_repo

    root = write_repo(tmp_path / "r", {SUMMARY: WRONG}, VALID)
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    for args in (("git", "init", "-q"), ("git", "add", "-A")):
        run(root, *args)
    monkeypatch.chdir(root)
    out = lint(None, "--staged", fmt="text")
    assert f"run `penguin-lint --fix {SUMMARY}`" in out.output, out.output
    monkeypatch.setenv("PRE_COMMIT", "1")
    out = lint(None, "--staged", fmt="text")
    assert f"run `pre-commit run penguin-lint-fix --files {SUMMARY}`" in out.output, out.output


FINDING = re.compile(r"^(\S+?(?::\d+:\d+)?: PL\d{3}) ", re.M)  # a missing file has no line


def test_pre_commit_run_all_files_reports_what_all_reports(tmp_path, hook_repo, env):
    import shutil

    from tests.integration.test_precommit import README_URL, readme_config

    path, sha = hook_repo
    root = tmp_path / "repo"
    shutil.copytree(PROJECT / "examples/repo", root)
    # the README's configuration, the linting hook only (the fixing one would edit the example)
    config = yaml.safe_load(readme_config().replace(README_URL, str(path)).replace("<commit-sha>", sha))
    config["repos"][0]["hooks"] = [{"id": "penguin-lint"}]
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    for args in (("git", "init", "-q", "-b", "main"), ("git", "add", "-A"), ("git", "commit", "-q", "-m", "x")):
        run(root, *args, env=env)
    proc = run(root, sys.executable, "-m", "pre_commit", "run", "--all-files", env=env, check=False)
    assert proc.returncode == 1, proc.stdout
    whole = run(root, sys.executable, "-m", "penguin_lint", "--all", "--no-cache", env=env, check=False)
    assert whole.returncode == 1, whole.stderr
    expected = sorted(FINDING.findall(whole.stdout))
    assert len(expected) == 7 and any(" PL205" in f for f in expected)
    assert sorted(FINDING.findall(proc.stdout)) == expected


def test_a_failed_commit_says_each_remaining_finding_once(target, env):
    # one finding the fixing hook repairs (PL303) and one it cannot (PL203)
    bench = "packages/bench-a/benchmark_config.toml"
    (target / SUMMARY).write_text(WRONG)
    (target / bench).write_text((target / bench).read_text().replace('version = "1.0.0"', 'version = "1.0"'))
    run(target, "git", "add", "-A", env=env)
    proc = run(target, "git", "commit", "-m", "two mistakes", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert out.count(f"{bench}:4:11: PL203 ") == 1, out
    assert out.count(f"{SUMMARY}:2:13: PL303 ") == 1, out  # the penguin-lint hook's, on what is staged
    # the fixing hook says what it did and leaves the list to the penguin-lint hook
    assert "Fixed 1 finding; 1 remains: 1 error, 0 warnings" in out and "the penguin-lint hook lists" in out
    assert repaired(target / SUMMARY)


def test_a_passing_commit_shows_the_hooks_notices(target, env):
    # an untracked attempt beside a staged summary: not read, and said so on a commit that passes
    (target / SUMMARY).write_text("n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n# checked\n")
    (target / "experiments/lb/exp-1/test/attempt-3.yaml").write_text("score: 1.0\n")
    run(target, "git", "add", SUMMARY, env=env)
    proc = run(target, "git", "commit", "-m", "a comment", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "penguin-lint: warning: not part of this commit, so not read (untracked): " in out, out
