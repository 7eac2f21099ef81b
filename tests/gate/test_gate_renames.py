"""A renamed file whose content changed is new to the board: it carries
only the suppressions the pull request adds (judged as added ones are), and
no baseline entry of the file it came from. A pure rename (the same bytes)
keeps them."""
from __future__ import annotations

import textwrap

import pytest

from tests.actionstep import Runner
from tests.conftest import VALID, cloned_pull_request, lint, write_repo
from tests.github.test_action import git

OLD, NEW = "experiments/lb/exp-old", "experiments/lb/exp-2"
META = ("experiment_id: exp-old\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m2\n"
        "algorithm: baseline\n")
ATTEMPT = "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n"
MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"
SUPPRESSED = MEAN + "# penguin-lint: disable-file=PL303 imported from the legacy harness\n"
BOARD = "leaderboards/lb/leaderboard.yaml"
LEGACY = {f"{OLD}/meta_info.yaml": META, f"{OLD}/test/attempt-1.yaml": ATTEMPT,
          f"{OLD}/test/attempt-2.yaml": ATTEMPT,
          BOARD: textwrap.dedent(VALID[BOARD]).replace("values:\n", "values:\n  - experiment_id: exp-old\n    phase: test\n")}
SUMMARY = f"{NEW}/test/summary.yaml"


def renamed(tmp_path, summary: str, mean: str):
    """The base holds the legacy experiment with ``summary``; the pull
    request moves it (git mv), gives it a new id, sets ``mean`` and keeps it
    on the board."""
    ws, write = cloned_pull_request(tmp_path, dict(LEGACY, **{f"{OLD}/test/summary.yaml": summary}))
    move(ws, write, mean)
    return ws


def move(ws, write, mean: str) -> None:
    git(ws, "mv", OLD, NEW)
    for rel, old, new in ((f"{NEW}/meta_info.yaml", "exp-old", "exp-2"), (BOARD, "exp-old", "exp-2"),
                          (SUMMARY, "70.0", mean)):
        (ws / rel).write_text((ws / rel).read_text().replace(old, new))
    write({}, "move the legacy experiment")
    status = git(ws, "diff", "--name-status", "-M", "origin/main...HEAD")
    assert f"{OLD}/test/summary.yaml\t{SUMMARY}" in status, status  # git pairs them as a rename


def test_the_action_holds_a_base_suppression_in_a_renamed_and_changed_file(tmp_path, git_env):
    ws = renamed(tmp_path, SUPPRESSED, "90.0")
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    run = Runner(ws, temp, event={"action": "synchronize", "number": 7, "pull_request": {"number": 7}}).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") and "PL303" in c for c in run.commands())
    assert any(c.startswith(f"::notice file={SUMMARY},line=4,") for c in run.commands())


@pytest.mark.parametrize("mean,code", [("90.0", 1), ("70.0", 0)], ids=["changed", "pure-rename"])
def test_a_base_suppression_is_the_base_only_in_the_file_it_holds(tmp_path, git_env, monkeypatch, mean, code):
    ws = renamed(tmp_path, SUPPRESSED, mean)
    diff = lint(ws, "--diff-base", "origin/main")
    assert [f["code"] for f in diff.findings] == (["PL303"] if code else []), diff.output
    assert diff.code == code and diff.at("PL303") == ([(SUMMARY, 2)] if code else []), diff.output
    assert [a["path"] for a in diff.json["suppressions_added"]] == ([SUMMARY] if code else [])
    # --all on the pull request (its base's configuration) finds them alike
    for k, v in {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main",
                 "GITHUB_WORKSPACE": str(ws)}.items():
        monkeypatch.setenv(k, v)
    whole = lint(ws, "--all", "--no-cache")
    assert whole.code == code and whole.at("PL303") == ([(SUMMARY, 2)] if code else []), whole.output


def test_a_baseline_entry_is_not_inherited_by_a_renamed_and_changed_file(tmp_path, git_env):
    seed = write_repo(tmp_path / "seed", dict(LEGACY, **{f"{OLD}/test/summary.yaml": MEAN}), VALID)
    assert lint(seed, "--all", "--no-cache", "--write-baseline").code == 0
    baseline = (seed / ".penguin-lint-baseline.json").read_text()
    assert f"{OLD}/test/summary.yaml" in baseline
    ws, write = cloned_pull_request(tmp_path / "pr", dict(LEGACY, **{f"{OLD}/test/summary.yaml": MEAN,
                                                                    ".penguin-lint-baseline.json": baseline}))
    assert lint(ws, "--all", "--no-cache").code == 0
    move(ws, write, "90.0")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1 and run.at("PL303") == [(SUMMARY, 2)], run.output
