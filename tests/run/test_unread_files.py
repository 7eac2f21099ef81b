"""A data file of no known kind where the harness reads files by name
(``summary.yml``, ``meta-info.yaml``, ``attempt_1.yaml``) is parsed by
nothing: no run counts it as checked, a run that checked nothing else says
so and fails, and a near-miss name is PL009 ("did you mean summary.yaml")
in every mode."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import VALID, lint, write_repo
from tests.run.test_stdin_filename import lint_stdin

PHASE = "experiments/lb/exp-1/test/"
YML = PHASE + "summary.yml"
META = "experiments/lb/exp-1/meta-info.yaml"
BROKEN = "n_attempt: [2\nscore_mean: 50.0\n"
MEANT = {YML: "summary.yaml", META: "meta_info.yaml"}


def git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "pr")
    return root


def assert_misnamed(run, paths):
    assert sorted(run.at("PL009")) == sorted((p, None) for p in paths), run.output
    for f in run.findings:
        if f["code"] == "PL009":
            assert f["severity"] == "warning"
            assert f["message"].endswith(f"did you mean {MEANT[f['path']]}?"), f["message"]


def test_a_path_run_of_a_near_miss_says_nothing_was_checked_and_fails(repo):
    (repo / YML).write_text(BROKEN)
    run = lint(repo, str(repo / YML))
    assert run.code == 1, run.output + run.stderr
    assert_misnamed(run, [YML])
    assert run.codes() == ["PL009"]  # nothing parsed it: no PL001
    s = run.json["summary"]
    assert (s["files"], s["unchecked"], s["nothing_checked"]) == (0, [YML], True)
    text = lint(repo, str(repo / YML), fmt="text")
    assert text.code == 1 and "All checks passed" not in text.output
    assert f"{YML}: PL009 'summary.yml' is no file the harness reads" in text.output
    assert text.output.splitlines()[-1].startswith("Found 0 errors, 1 warning, nothing checked (0 files checked")
    assert text.output.rstrip().endswith(f"not checked, no file the harness reads: {YML}).")


def test_stdin_filename_of_a_near_miss_is_not_checked(repo):
    code, out, err = lint_stdin(repo, BROKEN, "--stdin-filename", YML, "-")
    assert code == 1, out + err
    assert "did you mean summary.yaml?" in out and '"nothing_checked": true' in out
    code, out, err = lint_stdin(repo, BROKEN, "--stdin-filename", YML, "-", fmt="text")
    assert code == 1 and "nothing checked (0 files checked" in out, out


def test_a_diff_run_and_staged_run_name_each_near_miss(repo):
    (repo / YML).write_text(BROKEN)
    (repo / META).write_text("experiment_id: exp-1\n")
    git(repo, "add", "-A")
    staged = lint(repo, "--staged")
    assert staged.code == 1, staged.output
    assert_misnamed(staged, [YML, META])
    git(repo, "commit", "-q", "-m", "misnamed")
    run = lint(repo, "--diff-base", "main")
    assert run.code == 1, run.output
    assert_misnamed(run, [YML, META])
    s = run.json["summary"]
    assert (s["files"], sorted(s["unchecked"]), s["nothing_checked"]) == (0, sorted([YML, META]), True)


def test_all_warns_of_near_misses(repo):
    (repo / YML).write_text(BROKEN)
    (repo / META).write_text("experiment_id: exp-1\n")
    run = lint(repo, "--all", "--no-cache")
    assert run.code == 0, run.output  # warnings: the files it reads all pass
    assert_misnamed(run, [YML, META])
    text = lint(repo, "--all", "--no-cache", fmt="text")
    assert f"{YML}: PL009 'summary.yml' is no file the harness reads (so it was not checked): " \
           f"did you mean summary.yaml? (warning)" in text.output


def test_an_attempt_misspelled_is_pl302_s_and_not_counted(repo):
    bad = PHASE + "attempt_1.yaml"
    (repo / bad).write_text((repo / PHASE / "attempt-1.yaml").read_text())
    run = lint(repo, str(repo / bad))
    assert run.code == 1
    assert run.at("PL302") == [(bad, None)] and run.at("PL009") == []
    assert run.json["summary"]["files"] == 0 and run.json["summary"]["unchecked"] == [bad]


def test_a_stray_data_file_is_said_not_checked_without_a_guess_elsewhere_counted(repo):
    stray = PHASE + "notes.yaml"
    (repo / stray).write_text("a: [\n")
    run = lint(repo, str(repo / stray), fmt="text")
    assert run.code == 1, run.output
    assert run.output == (f"Nothing checked (0 files checked against HEAD ({git(repo, 'rev-parse', '--short', 'HEAD').strip()}); "
                          f"not checked, no file the harness reads: {stray}).\n")
    # next to a file it reads, the run passes and still says what it did not read
    both = lint(repo, str(repo / stray), str(repo / PHASE / "summary.yaml"), fmt="text")
    assert both.code == 0 and both.output.startswith("All checks passed (1 file checked"), both.output
    assert f"not checked, no file the harness reads: {stray})" in both.output
    # a statement's side file is its folder's own: judged with it, counted
    side = "packages/bench-a/CASE-001-one/statement/example.json"
    (repo / side).write_text("{}\n")
    run = lint(repo, str(repo / side))
    assert run.code == 0, run.output
    assert run.json["summary"]["files"] == 1 and "unchecked" not in run.json["summary"]


STRAYS = ["experiments/lb/notes.yaml", PHASE + "logs/run.yaml", "leaderboards/lb/notes.toml"]


def test_a_change_of_files_nothing_reads_under_experiments_and_leaderboards_fails_in_every_format(repo):
    for rel in STRAYS:
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text("a: 1\n" if rel.endswith(".yaml") else "a = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "notes")
    run = lint(repo, "--diff-base", "main")
    assert run.code == 1, run.output
    s = run.json["summary"]
    # the leaderboard is re-checked (its experiments' folder changed): not what the run was asked to judge
    assert (s["files"] - s.get("dependents", 0), s["unchecked"], s["nothing_checked"]) == (0, sorted(STRAYS), True)
    gh = lint(repo, "--diff-base", "main", fmt="github")
    assert gh.code == 1
    assert "::error title=penguin-lint::Nothing checked (" in gh.output, gh.output
    assert gh.output.splitlines()[-1].startswith("penguin-lint: 0 errors, 0 warnings, nothing checked ("), gh.output
    sarif = json.loads(lint(repo, "--diff-base", "main", fmt="sarif").output)
    (inv,) = sarif["runs"][0]["invocations"]
    assert inv["executionSuccessful"] is False
    assert inv["toolExecutionNotifications"][0]["message"]["text"].startswith("Nothing checked (")
    rd = json.loads(lint(repo, "--diff-base", "main", fmt="rdjson").output)
    from tests.reporters.test_ci_reports import RDJSON

    RDJSON.validate(rd)  # reviewdog's own schema
    assert rd["severity"] == "ERROR"
    assert sorted(d["location"]["path"] for d in rd["diagnostics"] if d["severity"] == "ERROR") == sorted(STRAYS)


def test_a_stray_file_under_experiments_is_not_counted_as_checked(repo):
    stray = "experiments/lb/notes.yaml"
    (repo / stray).write_text("a: 1\n")
    run = lint(repo, str(repo / stray))
    assert run.code == 1, run.output
    s = run.json["summary"]
    assert (s["files"] - s.get("dependents", 0), s["unchecked"], s["nothing_checked"]) == (0, [stray], True)
    # with a file the harness reads, the run passes and names the stray as not checked
    both = lint(repo, str(repo / stray), str(repo / "experiments/lb/exp-1/meta_info.yaml"))
    assert both.code == 0, both.output
    s = both.json["summary"]
    assert (s["files"] - s.get("dependents", 0), s["unchecked"]) == (1, [stray])
    # a passing run in SARIF and rdjson says nothing of it
    sarif = json.loads(lint(repo, str(repo / "experiments/lb/exp-1/meta_info.yaml"), fmt="sarif").output)
    assert "invocations" not in sarif["runs"][0]
