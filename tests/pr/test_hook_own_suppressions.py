"""The hook judges the author's own commit: the suppressions it adds apply
(``--staged``, and a path run compared with HEAD), and the run says what the
pull request will need for each (a reason and a code the base allows, or the
maintainers' label). Codes no comment suppresses stay unsuppressed."""
from __future__ import annotations

import pytest

from tests.conftest import VALID, git, lint, pull_request_repo, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
CONFIG = ".penguin-lint.toml"
MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"
BARE = MEAN + "# penguin-lint: disable-file=PL303\n"
REASONED = MEAN + "# penguin-lint: disable-file=PL303 kept as the importer wrote it\n"


def repo_with(tmp_path, config=None):
    files = {CONFIG: config} if config else {}
    return pull_request_repo(write_repo(tmp_path / "repo", files, VALID))


def stage(root, text):
    (root / SUMMARY).write_text(text, encoding="utf-8")
    git(root, "add", "-A")


def the_added(run):
    (a,) = run.json["suppressions_added"]
    assert (a["path"], a["line"], a["codes"], a["applied"], a["how"]) == (SUMMARY, 4, ["PL303"], ["PL303"], "own")
    return a["message"]


@pytest.mark.parametrize("how", [("--staged",), (SUMMARY,)], ids=["staged", "path-run"])
def test_the_commits_own_suppression_applies_and_says_the_pull_request_needs_the_base_to_allow_it(
        tmp_path, git_env, how):
    root = repo_with(tmp_path)
    stage(root, BARE)
    run = lint(root, *how)
    assert run.code == 0, run.output
    assert run.findings == [] and run.json["summary"]["suppressed"] == 1
    assert the_added(run) == (
        "suppression of PL303 in this file is added by this commit and applies to it; the pull request will "
        "need PL303 in the base's allow-added-suppressions and a reason after the codes, or it applies only "
        "once merged")


def test_the_hook_names_the_maintainers_label_when_the_code_is_not_allowed(tmp_path, git_env):
    root = repo_with(tmp_path, 'allow-added-suppressions = ["PL203"]\napproval-label = "lint-exception"\n')
    stage(root, REASONED)
    run = lint(root, "--staged")
    assert run.code == 0, run.output
    assert the_added(run).endswith(
        "the pull request will need the maintainers' label 'lint-exception' "
        "(allow-added-suppressions does not list PL303)")


def test_the_hook_asks_for_a_reason_when_the_code_is_allowed(tmp_path, git_env):
    root = repo_with(tmp_path, 'allow-added-suppressions = ["PL3"]\n')
    stage(root, BARE)
    run = lint(root, "--staged")
    assert run.code == 0, run.output
    assert the_added(run).endswith(
        "the pull request will need a reason after the codes (allow-added-suppressions lists PL303)")


def test_the_hook_says_when_the_pull_request_allows_it_too(tmp_path, git_env):
    root = repo_with(tmp_path, 'allow-added-suppressions = ["PL303"]\n')
    stage(root, REASONED)
    run = lint(root, "--staged", fmt="text")
    assert run.code == 0, run.output
    assert (f"{SUMMARY}:4:1: suppression of PL303 in this file is added by this commit and applies to it; "
            "the pull request allows it too (a listed code and a reason) (notice)") in run.output


def test_the_hook_still_reports_what_no_comment_can_suppress(tmp_path, git_env):
    root = repo_with(tmp_path)
    task = "packages/bench-a/CASE-001-one/task_config.toml"
    (root / task).write_text('id = "CASE-001-one"\ntitle = "One\ndescription = "x"\n'
                             "# penguin-lint: disable-file=PL001\n")
    git(root, "add", "-A")
    run = lint(root, "--staged")
    assert run.code == 1, run.output
    assert run.at("PL001") == [(task, 2)]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_suppression_of_nothing_gets_one_verdict_pl008_alone(tmp_path, git_env, fmt):
    root = repo_with(tmp_path)
    bench = "packages/bench-a/benchmark_config.toml"
    text = (root / bench).read_text().replace('version = "1.0.0"', 'version = "1.0.0"  # penguin-lint: disable=PL203')
    (root / bench).write_text(text)
    git(root, "add", "-A")
    run = lint(root, "--staged", fmt=fmt)
    if fmt == "json":
        assert run.codes() == ["PL008"] and run.at("PL008") == [(bench, 4)]
        assert run.json["suppressions_added"] == []
    else:
        assert f"{bench}:4:" in run.output and "PL008" in run.output
        assert "added by this commit" not in run.output, run.output


def test_a_suppression_of_one_code_used_and_one_not_is_added_for_the_one_it_suppresses(tmp_path, git_env):
    root = repo_with(tmp_path)
    stage(root, MEAN + "# penguin-lint: disable-file=PL303,PL304\n")
    run = lint(root, "--staged")
    assert [(f["code"], f["message"]) for f in run.findings] == [
        ("PL008", "suppression of PL304 suppresses nothing in this file")]
    (a,) = run.json["suppressions_added"]
    assert a["codes"] == ["PL303"] and a["message"].startswith("suppression of PL303 in this file is added")


def test_the_codes_a_commits_own_suppression_applies_to_are_named_beside_one_it_cannot(tmp_path, git_env):
    root = repo_with(tmp_path)
    bench = "packages/bench-a/benchmark_config.toml"
    text = (root / bench).read_text().replace('version = "1.0.0"', 'version = "one"\nruns = 1')
    (root / bench).write_text(text + "# penguin-lint: disable-file=PL203,PL104,PL001\n")
    git(root, "add", "-A")
    run = lint(root, "--staged")
    (a,) = run.json["suppressions_added"]
    assert (a["codes"], a["applied"]) == (["PL203", "PL104", "PL001"], ["PL203", "PL104"])
    assert a["message"].startswith(
        "suppression of PL203, PL104, PL001 in this file is added by this commit: PL203, PL104 applies to it")
