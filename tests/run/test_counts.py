"""Counts in messages: what a run checked, and singular or plural as the number says."""
from __future__ import annotations

import os
import subprocess

from tests.conftest import lint

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
PHASE = "experiments/lb/exp-1/test"


def attempt(score):
    return f"score: {score}\nresults:\n  - source: CASE-001-one\n    score: {score}\n"


def test_a_one_file_run_says_one_file_and_its_dependents(repo, monkeypatch):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"})
    monkeypatch.chdir(root)
    run = lint(root, SUMMARY, fmt="text")
    assert [ln for ln in run.output.splitlines() if ln.startswith("Found")] == \
        ["Found 1 error, 0 warnings (1 file checked, and 1 dependent file re-checked)."]
    js = lint(root, SUMMARY)
    assert js.json["summary"]["files"] == 2 and js.json["summary"]["dependents"] == 1


def test_the_one_attempt_is_singular(repo):
    root = repo({SUMMARY: "n_attempt: 1\nscore_mean: 50.0\ncost: 2.0\n",
                 f"{PHASE}/attempt-1.yaml": "score: 40.0\ncost: 1.5\nresults:\n  - source: CASE-001-one\n    score: 40.0\n",
                 f"{PHASE}/attempt-2.yaml": None})
    run = lint(root, "--all")
    messages = sorted(f["message"] for f in run.findings if f["code"] == "PL303")
    assert messages == ["cost is 2.0 but the one attempt's cost is 1.5",
                        "score_mean is 50.0 but the one attempt scores 40"]


def test_attempt_beyond_one_attempt_is_singular(repo):
    root = repo({SUMMARY: "n_attempt: 1\nscore_mean: 50.0\n"})
    run = lint(root, "--all")
    (f,) = [f for f in run.findings if f["code"] == "PL302"]
    assert f["message"].startswith("attempt-2.yaml is beyond the 1 attempt of this phase (")


def test_a_commit_of_scoreboard_yaml_judges_it_and_says_nothing_parsed_it(repo, git_env):
    root = repo({})
    git = lambda *a: subprocess.run(["git", *a], cwd=root, check=True, capture_output=True)  # noqa: E731
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    (root / "packages/bench-a/scoreboard.yaml").write_text("a: 1\n")
    git("add", "-A")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        run = lint(root, "packages/bench-a/scoreboard.yaml", fmt="text")
    finally:
        os.chdir(cwd)
    assert "PL007" in run.output
    # judged by its name, never parsed: not counted as a file checked
    last = run.output.splitlines()[-1]
    assert last.startswith("Found 1 error, 0 warnings, nothing checked (0 files checked against HEAD ("), last
    assert last.endswith("; not checked, no file the harness reads: packages/bench-a/scoreboard.yaml)."), last


def test_one_value_before_the_limit_is_singular(repo, monkeypatch):
    from penguin_lint.rules import _expressions
    from tests.gate.test_huge_board import board, leaf

    monkeypatch.setattr(_expressions, "MAX_TERMS", 3)
    # 1 term, then an op of 3 leaves: the 3rd term is crossed inside the second value
    root = repo({"leaderboards/lb/leaderboard.yaml": board([leaf(), "{op: mean, args: [" + ", ".join([leaf()] * 3) + "]}"])})
    (f,) = [f for f in lint(root, "--all").findings if f["code"] == "PL103"]
    assert f["message"].endswith(": only the value before this one is checked")


def test_every_kind_of_run_counts_the_same_files_of_one_tree(tmp_path):
    """--all, a path run over the layout's folders and the hook over every
    file count the same files: those of a kind and a package's other files
    (its statements), never a data file nothing reads."""
    import shutil
    from pathlib import Path

    root = tmp_path / "r"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "repo", root,
                    ignore=shutil.ignore_patterns(".penguin-lint-cache"))
    (root / "experiments/code-eval/notes.yaml").write_text("a: 1\n")  # nothing reads it
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    whole = lint(root, "--all", "--no-cache").json["summary"]
    tops = [str(root / t) for t in ("packages", "data", "leaderboards", "experiments") if (root / t).is_dir()]
    paths = lint(root, *tops, "--no-cache").json["summary"]
    staged = lint(root, "--staged", "--no-cache").json["summary"]
    data_files = sum(1 for p in root.rglob("*") if p.is_file() and ".git" not in p.parts
                     and p.suffix in (".yaml", ".toml") and p.name != "notes.yaml")
    # a package's statements and a data folder's README: judged with their folders
    statements = sum(1 for top in ("packages", "data") for p in (root / top).rglob("*")
                     if p.is_file() and p.suffix not in (".yaml", ".toml"))
    assert statements > 0
    assert whole["files"] == paths["files"] == staged["files"] == data_files + statements, (whole, paths, staged)
    assert paths["unchecked"] == staged["unchecked"] == ["experiments/code-eval/notes.yaml"]
