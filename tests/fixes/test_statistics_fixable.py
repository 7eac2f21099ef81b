"""What ruff users expect: ``[*]`` on the findings ``--fix`` repairs, "N
fixable with `--fix`" under the text report, and ``--statistics``."""
from __future__ import annotations

from tests.conftest import VALID, lint, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
ATTEMPT1 = "experiments/lb/exp-1/test/attempt-1.yaml"


def broken(tmp_path):
    """Two PL303 (a wrong mean, a wrong std: --fix recomputes both) and one
    PL101 (a missing description: nothing to compute)."""
    return write_repo(tmp_path / "r", {
        SUMMARY: "n_attempt: 2\nscore_mean: 40.0\nscore_std: 3.0\n",
        TASK: 'id = "CASE-001-one"\ntitle = "One"\n',
    }, VALID)


def test_fixable_findings_are_marked_and_counted(tmp_path):
    run = lint(broken(tmp_path), "--all", fmt="text")
    lines = run.output.splitlines()
    assert any(ln.startswith(f"{SUMMARY}:2:13: PL303 [*] score_mean is 40.0 but the 2 attempts average 50")
               for ln in lines), lines
    assert any(ln.startswith(f"{SUMMARY}:3:12: PL303 [*] score_std") for ln in lines), lines
    assert any(ln.startswith(f"{TASK}:1:1: PL101 missing required field 'description'") for ln in lines)
    assert lines[-2:] == ["Found 3 errors, 0 warnings (9 files checked).", "[*] 2 fixable with `--fix`."]


def test_a_finding_whose_repair_has_nothing_to_do_is_not_marked(tmp_path):
    # an integer total from float attempts has no one right answer: PL303
    # (its rule is fixable) without a repair; PL102 where quoting cannot help
    attempt = "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\nduration_ms: {}\n"
    root = write_repo(tmp_path / "r", {
        SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nduration_ms: 5\n",
        ATTEMPT1: attempt.format(1.5), ATTEMPT1.replace("attempt-1", "attempt-2"): attempt.format(2.5),
    }, VALID)
    run = lint(root, "--all", fmt="text")
    assert f"{SUMMARY}:4:14: PL303 duration_ms is 5 but" in run.output
    assert f"{ATTEMPT1}:5:14: PL102 'duration_ms' must be an integer" in run.output
    assert "[*]" not in run.output and "fixable" not in run.output, run.output


def test_statistics_text_and_json(tmp_path):
    root = broken(tmp_path)
    run = lint(root, "--all", "--statistics", fmt="text")
    assert run.code == 1
    assert run.output.splitlines() == [
        "2\tPL303\t[*] summary-mismatch",
        "1\tPL101\t[ ] missing-field",
        "Found 3 errors, 0 warnings (9 files checked).",
        "[*] 2 fixable with `--fix`.",
    ]
    run = lint(root, "--all", "--statistics", fmt="json")
    assert run.json == [
        {"code": "PL303", "name": "summary-mismatch", "count": 2, "fixable": True},
        {"code": "PL101", "name": "missing-field", "count": 1, "fixable": False},
    ]
    run = lint(root, "--all", "--statistics", fmt="sarif")
    assert run.code == 2 and "--statistics works with --format text or json" in run.stderr


def test_statistics_of_a_clean_repository(tmp_path):
    run = lint(write_repo(tmp_path / "r", {}, VALID), "--all", "--statistics", fmt="text")
    assert run.code == 0 and run.output == "All checks passed (9 files checked).\n"
