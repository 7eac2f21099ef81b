"""Findings say whether a change introduced them, and why they are shown.

JSON findings carry ``new`` (null where nothing is compared) and, for
findings outside the touched files, ``caused_by``; the text and GitHub
formats say "already in <base>" and "after your change to <path>".
"""
from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import VALID, git, lint, pull_request_repo, write_repo
from tests.rules.test_rules_leaderboards import BENCH_B, HEADER, experiment, mean_of

LB = "leaderboards/lb/leaderboard.yaml"
META2 = "experiments/lb/exp-2/meta_info.yaml"
# values: exp-1 alone (line 7), mean(exp-1, exp-2) (line 8), mean(exp-1, exp-3) (line 12)
BOARD = HEADER + "  - { experiment_id: exp-1, phase: test }\n" + mean_of("exp-1", "exp-2") + mean_of("exp-1", "exp-3")


@pytest.fixture
def debt(tmp_path, git_env):
    """A repository whose main holds old debt: exp-3 ran another model than
    exp-1, and one value averages them (PL403 on line 12)."""
    files = dict(VALID, **BENCH_B, **experiment("exp-2"), **experiment("exp-3", model="other"))
    files[LB] = BOARD
    return pull_request_repo(write_repo(tmp_path / "repo", {}, files))


def commit_all(root):
    for args in (["add", "-A"], ["commit", "-q", "-m", "change"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def pl403(run):
    return [f for f in run.findings if f["code"] == "PL403"]


def test_old_finding_in_a_touched_file_is_marked_old(debt):
    (debt / LB).write_text(BOARD + "  - { experiment_id: exp-2, phase: test }\n")
    commit_all(debt)
    run = lint(debt, "--diff-base", "main")
    [f] = pl403(run)
    assert (f["path"], f["line"], f["scope"], f["new"], f["caused_by"]) == (LB, 12, "touched", False, None)
    # the text format says so, and names --new-only once
    text = lint(debt, "--diff-base", "main", fmt="text")
    lines = text.output.splitlines()
    at = lines.index(next(ln for ln in lines if ln.startswith(f"{LB}:12:")))
    # under the finding (after its hint)
    assert any(ln.startswith("    note: already in main (") for ln in lines[at + 1:at + 3]), lines
    assert sum("`--new-only` reports only what the change introduces" in ln for ln in lines) == 1
    # --new-only leaves it out
    assert pl403(lint(debt, "--diff-base", "main", "--new-only")) == []


def test_dependent_finding_names_the_change_that_caused_it(debt):
    (debt / META2).write_text((debt / META2).read_text().replace("model_name: m", "model_name: other"))
    commit_all(debt)
    run = lint(debt, "--diff-base", "main")
    [f] = pl403(run)
    assert (f["path"], f["line"], f["scope"], f["new"], f["caused_by"]) == (LB, 8, "dependent", True, [META2])
    text = lint(debt, "--diff-base", "main", fmt="text").output
    assert f"    note: after your change to {META2}\n" in text
    assert "--new-only" not in text  # nothing old is shown
    gh = lint(debt, "--diff-base", "main", fmt="github").output
    assert f"(after your change to {META2})" in gh  # in the annotation, %0A-separated
    assert f"    note: after your change to {META2}" in gh  # and in the log


def test_the_job_summary_says_it_too(debt, tmp_path, monkeypatch):
    (debt / LB).write_text(BOARD + mean_of("exp-2", "exp-3"))
    (debt / META2).write_text((debt / META2).read_text().replace("model_name: m", "model_name: other"))
    commit_all(debt)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    lint(debt, "--diff-base", "main", fmt="github")
    text = summary.read_text()
    assert "*already in main (" in text  # the old PL403 on line 12
    assert "`--new-only` reports only what the change introduces" in text


def test_new_finding_in_a_touched_file_and_the_hook(debt):
    (debt / LB).write_text(BOARD + mean_of("exp-2", "exp-3"))  # line 16: a new PL403
    subprocess.run(["git", "add", LB], cwd=debt, check=True)
    run = lint(debt, "--staged", LB)
    assert [(f["line"], f["new"]) for f in pl403(run)] == [(12, False), (16, True)]
    gh = lint(debt, "--staged", LB, fmt="github").output
    assert "(already in HEAD (" in gh and "::notice title=penguin-lint::findings marked" in gh


def test_sarif_says_it_with_its_baseline_state(debt):
    (debt / META2).write_text((debt / META2).read_text().replace("model_name: m", "model_name: other"))
    (debt / LB).write_text(BOARD + "  - { experiment_id: exp-2, phase: test }\n")
    commit_all(debt)
    doc = lint(debt, "--diff-base", "main", fmt="sarif").json
    got = {(r["locations"][0]["physicalLocation"]["region"]["startLine"], r.get("baselineState"))
           for r in doc["runs"][0]["results"] if r["ruleId"] == "PL403"}
    assert got == {(8, "new"), (12, "unchanged")}
    assert "baselineState" not in json.dumps(lint(debt, "--all", fmt="sarif").json)


def test_nothing_compared_is_null(debt):
    run = lint(debt, "--all")
    [f] = pl403(run)
    assert f["new"] is None and f["caused_by"] is None
    assert "note:" not in lint(debt, "--all", fmt="text").output



def test_a_dependent_finding_names_only_the_changes_that_caused_it(debt):
    # the task's edit is part of the change, but the board does not read it
    (debt / META2).write_text((debt / META2).read_text().replace("model_name: m", "model_name: other"))
    task = "packages/bench-a/CASE-001-one/task_config.toml"
    (debt / task).write_text((debt / task).read_text().replace("The first task.", "The first task, reworded."))
    commit_all(debt)
    [f] = pl403(lint(debt, "--diff-base", "main"))
    assert (f["line"], f["new"], f["caused_by"]) == (8, True, [META2])



def test_a_new_finding_is_new_where_the_change_fixed_as_many_old_ones(tmp_path, git_env):
    # main's board names an experiment that does not exist; the change names another instead
    files = dict(VALID)
    files[LB] = VALID[LB] + "  - { experiment_id: exp-gone, phase: test }\n"
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, files))
    (root / LB).write_text((root / LB).read_text().replace("exp-gone", "exp-lost"))
    commit_all(root)
    run = lint(root, "--diff-base", "main", "--new-only")
    assert [(f["path"], f["line"], f["new"]) for f in run.findings] == [(LB, 9, True)] and run.code == 1
    assert "exp-lost" in run.findings[0]["message"]


def test_a_folder_given_on_the_command_line_shows_the_old_debt_below_it(debt):
    # every file below the folder is the user's to see, old findings too
    [f] = pl403(lint(debt, "leaderboards/lb"))
    assert (f["path"], f["line"], f["scope"], f["new"]) == (LB, 12, "touched", False)
    # the repository's root holds every file
    assert [(f["line"], f["new"]) for f in pl403(lint(debt, "."))] == [(12, False)]
    # a folder the board merely reads: its old debt is not the user's
    assert pl403(lint(debt, "experiments/lb/exp-3")) == []



SUMMARY = "experiments/lb/exp-1/test/summary.yaml"


@pytest.fixture
def suppressed(tmp_path, git_env):
    """main's summary has a wrong mean and a comment that suppresses it."""
    files = dict(VALID)
    files[SUMMARY] = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n# penguin-lint: disable-file=PL303\n"
    return pull_request_repo(write_repo(tmp_path / "repo", {}, files))


def added(run):
    return [(a["path"], a["line"], a["codes"]) for a in run.json["suppressions_added"]]


def test_a_suppression_the_base_has_in_that_file_is_not_added(suppressed):
    (suppressed / SUMMARY).write_text("# the first draft\n" + (suppressed / SUMMARY).read_text())
    commit_all(suppressed)
    assert added(lint(suppressed, "--diff-base", "main")) == []


def test_every_suppression_in_a_file_renamed_with_changes_is_added(suppressed):
    (suppressed / SUMMARY).write_text("# the first draft\n" + (suppressed / SUMMARY).read_text())
    git(suppressed, "mv", "experiments/lb/exp-1", "experiments/lb/exp-2")
    commit_all(suppressed)
    moved = SUMMARY.replace("exp-1", "exp-2")
    assert added(lint(suppressed, "--diff-base", "main")) == [(moved, 5, ["PL303"])]



def test_a_finding_in_a_file_the_change_adds_is_new(debt):
    # the shortcut that skips the base holds only where the file was there before
    summary = "experiments/lb/exp-2/test/summary.yaml"
    (debt / summary).unlink()
    commit_all(debt)
    (debt / summary).write_text("n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n")
    commit_all(debt)
    run = lint(debt, "--diff-base", "HEAD~1")
    assert {(f["code"], f["line"], f["new"]) for f in run.findings if f["path"] == summary} >= {("PL303", 2, True)}


def test_the_repository_s_own_findings_are_compared_with_the_base_too(tmp_path, git_env):
    # main's leaderboards folder is a link (old debt); the change makes experiments one too
    root = write_repo(tmp_path / "repo", {}, VALID)
    (root / "leaderboards").rename(root / "boards")
    (root / "leaderboards").symlink_to("boards")
    pull_request_repo(root)
    (root / "experiments").rename(root / "runs")
    (root / "experiments").symlink_to("runs")
    commit_all(root)
    run = lint(root, "--diff-base", "main")
    assert [(f["path"], f["new"]) for f in run.findings if f["code"] == "PL006"] == [("experiments", True)]
