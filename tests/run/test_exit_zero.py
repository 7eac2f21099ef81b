"""--exit-zero (the penguin-lint-fix hook's): findings are reported but do not
fail the run; a usage error or nothing to check still does."""
from __future__ import annotations

from tests.conftest import VALID, lint, write_repo

TASK = "packages/bench-a/CASE-001-one/task_config.toml"


def test_findings_are_reported_and_do_not_fail(tmp_path):
    root = write_repo(tmp_path / "r", {TASK: 'id = "CASE-001-one"\ntitle = "One"\n'}, VALID)
    failing = lint(root, TASK)
    assert failing.code == 1 and failing.codes() == ["PL101"]
    run = lint(root, TASK, "--exit-zero")
    assert run.code == 0 and run.at("PL101") == [(TASK, 1)]
    assert lint(root, "--all", "--exit-zero", "--strict").code == 0


def test_a_usage_error_still_exits_2(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    run = lint(root, "no/such/file.yaml", "--exit-zero")
    assert run.code == 2 and run.stderr.startswith("penguin-lint: error: ")
