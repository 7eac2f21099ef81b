"""The Python API: penguin_lint.lint() gives what the command line gives."""
from __future__ import annotations

import json

import pytest

import penguin_lint
from tests.conftest import VALID, cloned_pull_request, lint, pull_request_repo, write_repo

BROKEN = {
    # PL203 (version), PL104 (unknown field, a warning), PL303 (summary mean)
    "packages/bench-a/benchmark_config.toml": VALID["packages/bench-a/benchmark_config.toml"].replace(
        '"1.0.0"', '"2026.10.09.1"') + "runs = 3\n",
    "experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n",
}


def test_the_whole_repository_gives_the_findings_of_all(tmp_path):
    root = write_repo(tmp_path / "repo", BROKEN, VALID)
    cli = lint(root, "--all", "--no-cache")
    result = penguin_lint.lint(root, cache=False)
    assert cli.code == 1
    assert [f.to_dict() for f in result.findings] == cli.findings
    assert result.to_dict() == cli.json
    assert (result.errors, result.warnings, result.files) == (2, 1, cli.json["summary"]["files"])
    f = next(f for f in result.findings if f.code == "PL203")
    assert (f.path, f.line, f.column, f.severity) == ("packages/bench-a/benchmark_config.toml", 4, 11, "error")
    assert f.end_line == 4 and f.end_column is not None and "Semantic Versioning" in f.message and f.hint


def test_a_diff_base_run_gives_the_findings_of_the_command_line(tmp_path, git_env):
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    for rel, text in BROKEN.items():
        (root / rel).write_text(text)
    cli = lint(root, "--diff-base", "main")
    result = penguin_lint.lint(root, diff_base="main", cache=False)
    assert cli.code == 1 and cli.findings
    assert result.to_dict() == cli.json
    assert result.compared_with == cli.json["summary"]["compared_with"]
    assert {f.scope for f in result.findings} == {"touched"}
    # only what the change introduced
    assert penguin_lint.lint(root, diff_base="main", new_only=True, select=["PL303"]).to_dict() \
        == lint(root, "--diff-base", "main", "--new-only", "--select", "PL303").json


def test_paths_are_relative_to_the_root_and_select_takes_a_list_or_a_string(tmp_path):
    root = write_repo(tmp_path / "repo", BROKEN, VALID)
    one = penguin_lint.lint(root, ["packages/bench-a"], select=["PL2", "PL1"])
    assert sorted(f.code for f in one.findings) == ["PL104", "PL203"]
    assert penguin_lint.lint(root, ["packages/bench-a"], select="PL2,PL1").to_dict() == one.to_dict()
    assert one.to_dict() == lint(root, "--select", "PL2,PL1", str(root / "packages/bench-a")).json


def test_errors_of_the_tool_raise_one_exception_with_the_command_lines_message(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    with pytest.raises(penguin_lint.PenguinLintError) as e:
        penguin_lint.lint(root, select=["PL999"])
    cli = lint(root, "--all", "--select", "PL999")
    assert cli.code == 2
    assert cli.stderr == f"penguin-lint: error: {e.value}\n"
    (tmp_path / "empty").mkdir()
    with pytest.raises(penguin_lint.PenguinLintError, match="nothing to lint"):
        penguin_lint.lint(tmp_path / "empty")


def test_warnings_of_the_tool_are_returned_not_printed(tmp_path, capsys):
    root = write_repo(tmp_path / "repo", {}, VALID)
    (root / ".penguin-lint-cache").write_text("a file where the cache folder should be")
    result = penguin_lint.lint(root)
    assert result.errors == 0 and result.findings == []
    assert len(result.tool_warnings) == 1 and "cache" in result.tool_warnings[0]
    assert capsys.readouterr() == ("", "")
    cli = lint(root, "--all")
    assert cli.stderr == f"penguin-lint: warning: {result.tool_warnings[0]}\n"


def test_a_pull_requests_added_suppression_is_in_the_result(tmp_path, git_env):
    ws, write = cloned_pull_request(tmp_path)
    write({"packages/bench-a/benchmark_config.toml":
           VALID["packages/bench-a/benchmark_config.toml"] + "runs = 3  # penguin-lint: disable=PL104\n"})
    result = penguin_lint.lint(ws, diff_base="origin/main", cache=False)
    assert [f.code for f in result.findings] == ["PL104"]
    assert json.loads(json.dumps(result.to_dict()))["suppressions_added"][0]["codes"] == ["PL104"]


def test_the_diff_runs_warnings_about_gits_index_copy_are_returned_too(tmp_path, git_env, capsys):
    from tests.conftest import git
    from tests.pr.test_status_index import NEW

    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    (root / ".penguin-lint-cache").mkdir()
    (root / ".penguin-lint-cache" / "x").write_text("committed\n")
    git(root, "add", "-f", ".penguin-lint-cache")
    git(root, "commit", "-q", "-m", "a committed cache folder")
    (root / NEW).parent.mkdir()
    (root / NEW).write_text("score: high\n")
    result = penguin_lint.lint(root, diff_base="main")
    assert NEW in {f.path for f in result.findings}
    assert result.tool_warnings == ["the cache folder .penguin-lint-cache/ is tracked by git; the cache is not used"]
    assert capsys.readouterr().err == ""
