"""Inline suppressions a change adds cannot open the gate from inside the
change: in a run that reviews it (--diff-base, the Action) they suppress
nothing, the findings they would hide are reported, and the reviewer sees
each one. Once merged they apply. The hook's path run against HEAD is the
author's own: there they apply, and it says so. What the maintainers can
consent to in a pull request is in test_gate_exceptions.py."""
from __future__ import annotations


import pytest

from tests.actionstep import Runner
from tests.conftest import VALID, cloned_pull_request, git, lint, pull_request_repo, write_repo

TASK = "packages/bench-a/CASE-001-one/task_config.toml"
BENCH = "packages/bench-a/benchmark_config.toml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
CONFIG = ".penguin-lint.toml"

BROKEN_TASK = 'id = "CASE-001-one"\ntitle = "One\ndescription = "x"\n# penguin-lint: disable-file=PL001\n'
WRONG_MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n# penguin-lint: disable-file=PL303\n"
QUIET_CONFIG = "# penguin-lint: disable-file=PL502\nignore = [\"PL3\"]\n"



@pytest.fixture
def pr(tmp_path, git_env):
    """A repository whose main holds VALID, on a branch ``feature``."""
    return pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))


def change(root, files, commit=True):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    if commit:
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "change")


def added(run):
    return [(a["path"], a["line"], a["codes"]) for a in run.json["suppressions_added"]]


# -- the three ways a pull request opened the gate ----------------------------------

def test_a_suppression_of_pl001_on_a_file_that_does_not_parse_fails_the_pull_request(pr):
    change(pr, {TASK: BROKEN_TASK})
    run = lint(pr, "--diff-base", "main")
    assert run.code == 1, run.output
    assert run.at("PL001") == [(TASK, 2)]
    # no comment can suppress PL001: the comment itself is a finding
    assert run.at("PL008") == [(TASK, 4)]
    assert "which no comment can suppress" in next(f["message"] for f in run.findings if f["code"] == "PL008")
    assert added(run) == [(TASK, 4, ["PL001"])]


def test_a_suppression_of_a_wrong_mean_fails_the_pull_request_and_says_why(pr):
    change(pr, {SUMMARY: WRONG_MEAN})
    run = lint(pr, "--diff-base", "main")
    assert run.code == 1, run.output
    [f] = [f for f in run.findings if f["code"] == "PL303"]
    assert (f["path"], f["line"], f["severity"]) == (SUMMARY, 2, "error")
    assert f["hint"].startswith("suppressed by the comment on line 4, which this change adds; "
                                "it applies once merged")
    assert run.at("PL008") == []  # it is not unused: once merged it hides this finding
    assert run.json["summary"]["suppressed"] == 0
    [a] = run.json["suppressions_added"]
    assert (a["path"], a["line"], a["column"], a["scope"], a["codes"], a["held"]) == \
        (SUMMARY, 4, 1, "disable-file", ["PL303"], 1)
    text = lint(pr, "--diff-base", "main", fmt="text")
    assert text.code == 1
    assert (f"{SUMMARY}:4:1: suppression of PL303 in this file is added by this change: it applies once "
            f"merged, not in this run, where it would hide 1 finding (notice)") in text.output.splitlines()


def test_a_suppression_of_pl502_in_the_pull_requests_own_config_is_no_suppression(pr):
    change(pr, {CONFIG: QUIET_CONFIG, SUMMARY: WRONG_MEAN.replace("# penguin-lint: disable-file=PL303\n", "")})
    run = lint(pr, "--diff-base", "main", "--strict")
    assert run.code == 1, run.output
    assert run.at("PL502") == [(CONFIG, 2)]
    assert run.at("PL303") == [(SUMMARY, 2)]  # the base's configuration decides: PL3 is on
    assert added(run) == [(CONFIG, 1, ["PL502"])]
    assert "cannot be suppressed by a comment" in run.json["suppressions_added"][0]["message"]


# -- what the base already has applies ------------------------------------------------

def test_a_suppression_the_base_has_still_applies_after_an_edit_above_it(tmp_path, git_env):
    base = dict(VALID)
    base[SUMMARY] = WRONG_MEAN
    base[BENCH] = VALID[BENCH].replace('status = "draft"\n', 'status = "draft"\nruns = 1  # penguin-lint: disable=PL104\n')
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, base))
    # lines added above both comments: their line numbers change, they do not
    change(root, {SUMMARY: "# the mean of the first draft\n" + WRONG_MEAN,
                  BENCH: (root / BENCH).read_text().replace('title = "Bench A"\n', 'title = "Bench A"\n\n\n')})
    run = lint(root, "--diff-base", "main")
    assert run.code == 0, run.output
    assert run.findings == [] and run.json["suppressions_added"] == []
    assert run.json["summary"]["suppressed"] == 2


def test_a_line_suppression_moved_to_another_line_is_added(tmp_path, git_env):
    # the base's comment (stale: it suppresses nothing there) moved onto a new wrong source
    attempt = "experiments/lb/exp-1/test/attempt-1.yaml"
    base = dict(VALID)
    base[attempt] = "score: 50.0  # penguin-lint: disable=PL304\nresults:\n  - source: CASE-001-one\n    score: 50.0\n"
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, base))
    change(root, {attempt: "score: 50.0\nresults:\n  - source: CASE-404-nothing  # penguin-lint: disable=PL304\n"
                           "    score: 50.0\n"})
    run = lint(root, "--diff-base", "main")
    assert run.code == 1, run.output
    assert run.at("PL304") == [(attempt, 3)]
    assert added(run) == [(attempt, 3, ["PL304"])]


def test_a_code_added_to_an_old_comment_is_the_only_added_part(tmp_path, git_env):
    base = dict(VALID)
    base[BENCH] = VALID[BENCH].replace('status = "draft"\n', 'status = "draft"\nruns = 1  # penguin-lint: disable=PL104\n')
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, base))
    change(root, {BENCH: (root / BENCH).read_text().replace("disable=PL104", "disable=PL104,PL203")
                  .replace('version = "1.0.0"', 'version = "one"  # penguin-lint: disable=PL203')})
    run = lint(root, "--diff-base", "main")
    assert run.at("PL203") == [(BENCH, 4)], run.findings  # the added comment holds nothing back
    assert run.at("PL104") == []                          # the old one still suppresses
    # PL203 added to the old comment suppresses nothing on its line: PL008 says so, and only it
    assert run.at("PL008") == [(BENCH, 7)]
    assert sorted(added(run)) == [(BENCH, 4, ["PL203"])]


# -- the hook: a path run compared with HEAD ------------------------------------------

def test_the_hooks_path_run_judges_an_added_suppression_against_head(pr):
    # the author's own commit: it applies, and the run says what the pull
    # request will need (tests/pr/test_hook_own_suppressions.py)
    change(pr, {SUMMARY: WRONG_MEAN}, commit=False)
    git(pr, "add", "-A")
    run = lint(pr, SUMMARY)
    assert run.code == 0, run.output
    assert run.at("PL303") == []
    assert added(run) == [(SUMMARY, 4, ["PL303"])]
    assert run.json["suppressions_added"][0]["how"] == "own"
    # committed, it is HEAD's: it applies
    git(pr, "commit", "-q", "-m", "keep the mean")
    again = lint(pr, SUMMARY)
    assert again.code == 0 and again.findings == [] and again.json["suppressions_added"] == []
    assert again.json["summary"]["suppressed"] == 1


# -- --all is not a review --------------------------------------------------------------

def test_all_on_main_applies_every_suppression_as_before(tmp_path):
    root = write_repo(tmp_path / "repo", {SUMMARY: WRONG_MEAN}, VALID)
    run = lint(root, "--all")
    assert run.code == 0 and run.findings == [], run.findings
    assert run.json["summary"]["suppressed"] == 1
    assert "suppressions_added" not in run.json


def test_all_reports_a_comment_naming_a_code_no_comment_can_suppress(tmp_path):
    root = write_repo(tmp_path / "repo", {TASK: BROKEN_TASK}, VALID)
    run = lint(root, "--all")
    assert run.code == 1
    assert run.at("PL001") == [(TASK, 2)] and run.at("PL008") == [(TASK, 4)]


# -- the Action -------------------------------------------------------------------------

def test_the_action_annotates_an_added_suppression_and_lists_it_in_the_summary(tmp_path, git_env):
    ws, write = cloned_pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN})
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    event = {"pull_request": {"head": {"sha": "a" * 40}, "base": {"ref": "main"}}}
    run = Runner(ws, temp, event=event).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["errors"] == "1"
    commands = run.commands()
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") and "title=PL303 summary-mismatch" in c
               and "hint: suppressed by the comment on line 4, which this change adds" in c for c in commands), commands
    notice = (f"::notice file={SUMMARY},line=4,col=1,endColumn=35,title=penguin-lint%3A suppression added::"
              "suppression of PL303 in this file is added by this change: it applies once merged, not in "
              "this run, where it would hide 1 finding")
    assert notice in commands, commands
    assert "### 1 suppression added by this change\n" in run.summary
    assert ("experiments/lb/exp-1/test/summary.yaml:4](https://github.com/lab/benchmarks/blob/"
            + "a" * 40 + f"/{SUMMARY}#L4): suppression of PL303 in this file is added by this change") in run.summary


def test_fix_in_a_pull_request_run_leaves_what_an_added_suppression_names(pr):
    # the author chose to keep the value: --fix does not repair it behind their back
    change(pr, {SUMMARY: WRONG_MEAN})
    run = lint(pr, "--diff-base", "main", "--fix")
    assert run.code == 1 and run.at("PL303") == [(SUMMARY, 2)], run.findings
    assert (pr / SUMMARY).read_text() == WRONG_MEAN


def test_findings_an_added_suppression_would_hide_are_capped_like_any_others(pr):
    # 150 unknown keys under a comment the change adds: still at most 100
    # listed and one that counts the rest, as without the comment
    keys = "".join(f"extra_{i} = 1\n" for i in range(150))
    change(pr, {TASK: 'id = "CASE-001-one"\ntitle = "One"\ndescription = "x"\n' + keys
                + "# penguin-lint: disable-file=PL104\n"})
    run = lint(pr, "--diff-base", "main")
    pl104 = [f for f in run.findings if f["code"] == "PL104"]
    assert len(pl104) == 101, len(pl104)
    assert (pl104[0]["path"], pl104[0]["line"]) == (TASK, 4)
    assert pl104[-1]["message"].startswith("50 more PL104 findings in this file")
    assert run.json["summary"]["omitted"] == 50


def test_an_added_line_suppression_says_it_applies_once_merged(pr):
    change(pr, {BENCH: VALID[BENCH].replace('status = "draft"\n', 'status = "draft"\nruns = 1  # penguin-lint: disable=PL104\n')})
    [a] = lint(pr, "--diff-base", "main").json["suppressions_added"]
    assert a["message"] == ("suppression of PL104 on this line is added by this change: it applies once merged, "
                            "not in this run, where it would hide 1 finding")


def test_an_added_suppression_of_codes_no_comment_suppresses_names_them_all(pr):
    change(pr, {TASK: BROKEN_TASK.replace("disable-file=PL001", "disable-file=PL001,PL005")})
    [a] = lint(pr, "--diff-base", "main").json["suppressions_added"]
    assert a["message"] == ("suppression of PL001, PL005 in this file is added by this change; "
                            "PL001, PL005 cannot be suppressed by a comment")



def test_a_second_copy_of_an_old_line_suppression_is_added(tmp_path, git_env):
    # the base has one such comment: the same line once more is the change's
    attempt = "experiments/lb/exp-1/test/attempt-1.yaml"
    line = "  - { source: CASE-404-nothing, score: 50.0 }  # penguin-lint: disable=PL304\n"
    base = dict(VALID)
    base[attempt] = "score: 50.0\nresults:\n" + line
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, base))
    change(root, {attempt: "score: 50.0\nresults:\n" + line + line})
    run = lint(root, "--diff-base", "main")
    assert added(run) == [(attempt, 4, ["PL304"])]
    assert run.json["suppressions_added"][0]["scope"] == "disable"
    assert run.at("PL304") == [(attempt, 4)]
