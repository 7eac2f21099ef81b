"""An --all run on a pull request (the Action's ``all: true``, --config-base,
a shard of a matrix) judges it as a diff run does: the inline suppressions
the pull request adds hide nothing in it, the findings they would hide are
reported, and the reviewer sees each suppression. Those the base already
has still apply."""
from __future__ import annotations

import pytest

from tests.conftest import cloned_pull_request as pull_request, lint
from tests.github.test_action import git_identity, runner  # noqa: F401 (fixture)

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
WRONG_MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n# penguin-lint: disable-file=PL303\n"
HINT = "suppressed by the comment on line 4, which this change adds; it applies once merged"



def held(run):
    return [(f["path"], f["line"], f["hint"][:len(HINT)]) for f in run.findings if f["code"] == "PL303"]


def added(run):
    return [(a["path"], a["line"], a["scope"], a["codes"], a["held"]) for a in run.json.get("suppressions_added", [])]


ADDED = [(SUMMARY, 4, "disable-file", ["PL303"], 1)]


def test_action_all_on_a_pull_request_reports_what_an_added_suppression_hides(tmp_path):
    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")
    run = runner(ws, tmp_path, inputs={"all": "true"}).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["status"] == "failed" and run.outputs["errors"] == "1"
    commands = run.commands()
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") and "title=PL303 summary-mismatch" in c
               and "hint: suppressed by the comment on line 4, which this change adds" in c
               for c in commands), commands
    notice = (f"::notice file={SUMMARY},line=4,col=1,endColumn=35,title=penguin-lint%3A suppression added::"
              "suppression of PL303 in this file is added by this change: it applies once merged, not in "
              "this run, where it would hide 1 finding")
    assert notice in commands, commands
    assert "### 1 suppression added by this change\n" in run.summary


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_all_with_a_config_base_holds_added_suppressions_in_one_process_or_several(tmp_path, jobs):
    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")
    run = lint(ws, "--all", "--no-cache", "-j", jobs, "--config-base", "origin/main")
    assert run.code == 1, run.stderr
    assert held(run) == [(SUMMARY, 2, HINT)]
    assert added(run) == ADDED
    assert run.json["summary"]["suppressed"] == 0
    assert run.at("PL008") == []  # not unused: once merged it hides the finding
    text = lint(ws, "--all", "--no-cache", "-j", jobs, "--config-base", "origin/main", fmt="text")
    assert text.code == 1
    assert (f"{SUMMARY}:4:1: suppression of PL303 in this file is added by this change: it applies once "
            f"merged, not in this run, where it would hide 1 finding (notice)") in text.output.splitlines()


def test_shards_on_a_pull_request_hold_the_finding_exactly_once(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))
    runs = [lint(ws, "--all", "--no-cache", "--shard", f"{k}/2") for k in (1, 2)]
    assert [h for r in runs for h in held(r)] == [(SUMMARY, 2, HINT)]
    assert [a for r in runs for a in added(r)] == ADDED
    assert [r.code for r in runs].count(1) == 1


def test_a_suppression_the_base_has_still_applies(tmp_path):
    ws, write = pull_request(tmp_path, base_files={SUMMARY: WRONG_MEAN})
    # the pull request edits the file above the old comment: the comment is not new
    write({SUMMARY: "# measured again\n" + WRONG_MEAN}, "a note")
    for jobs in ("1", "2"):
        run = lint(ws, "--all", "--no-cache", "-j", jobs, "--config-base", "origin/main")
        assert run.code == 0, run.stderr + run.output
        assert held(run) == [] and added(run) == []
        assert run.json["summary"]["suppressed"] == 1


def test_a_cached_verdict_of_a_run_without_the_base_is_not_served(tmp_path):
    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")
    cache = str(tmp_path / "cache")
    plain = lint(ws, "--all", "--cache-dir", cache)
    assert plain.code == 0 and held(plain) == [], plain.output  # not a pull request's run: it applies
    for _ in range(2):  # the pull request's run neither reads the plain verdict nor stores its own
        run = lint(ws, "--all", "--cache-dir", cache, "--config-base", "origin/main")
        assert run.code == 1, run.stderr
        assert held(run) == [(SUMMARY, 2, HINT)] and added(run) == ADDED
    again = lint(ws, "--all", "--cache-dir", cache)
    assert again.code == 0 and held(again) == [] and again.json["summary"]["suppressed"] == 1


def test_worker_processes_count_what_a_suppression_at_the_top_holds_once(tmp_path):
    # a Harbor rows file sits at the top of the layout: checked before the
    # worker processes start, not in one of their units
    from tests.rules.test_harbor import GOOD_DEF, GOOD_ROWS

    rows = "leaderboard/rows.yaml"
    ws, write = pull_request(tmp_path, {"leaderboard/leaderboard.yaml": GOOD_DEF, rows: GOOD_ROWS})
    write({rows: GOOD_ROWS.replace("0.62", "1.62") + "# penguin-lint: disable-file=PL605\n"})
    for jobs in ("1", "2"):
        run = lint(ws, "--all", "--no-cache", "-j", jobs, "--config-base", "origin/main")
        assert run.code == 1, run.stderr
        assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [("PL605", rows, 6)]
        assert added(run) == [(rows, 18, "disable-file", ["PL605"], 1)]


def test_all_outside_a_pull_request_applies_every_suppression_without_asking_git(tmp_path, monkeypatch):
    import penguin_lint.pr.git as gitscope

    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")

    def no_git(*args, **kw):
        raise AssertionError("git was asked")

    monkeypatch.setattr(gitscope.GitRepo, "__init__", no_git)
    monkeypatch.setattr(gitscope.GitRepo, "change", no_git)
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 0, run.stderr
    assert held(run) == [] and added(run) == [] and run.json["summary"]["suppressed"] == 1


def test_fix_in_all_on_a_pull_request_leaves_what_an_added_suppression_names(tmp_path):
    ws, write = pull_request(tmp_path)
    write({SUMMARY: WRONG_MEAN}, "hide a wrong mean")
    run = lint(ws, "--all", "--no-cache", "-j", "2", "--config-base", "origin/main", "--fix")
    assert run.code == 1 and held(run) == [(SUMMARY, 2, HINT)], run.stderr
    assert (ws / SUMMARY).read_text() == WRONG_MEAN


def test_an_uncommitted_suppression_is_the_change_s_too(tmp_path):
    ws, _write = pull_request(tmp_path)
    (ws / SUMMARY).write_text(WRONG_MEAN)  # in the work tree only: --all lints what is there
    run = lint(ws, "--all", "--no-cache", "--config-base", "origin/main")
    assert run.code == 1, run.stderr
    assert held(run) == [(SUMMARY, 2, HINT)] and added(run) == ADDED
