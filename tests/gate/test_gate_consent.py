"""The maintainers' consent, decided code by code, from the command line in
a pull request's checkout (GitHub's environment set as the runner sets it):
a listed code (or prefix) with a reason applies, a bare comment or an
unlisted code does not, the approval label applies them all but the codes
no comment suppresses, and a long reason is shown cut at 200 characters.
tests/gate/test_gate_exceptions.py runs the same through the Action's step."""
from __future__ import annotations

import json
import textwrap

from tests.conftest import VALID, cloned_pull_request, git, lint, pull_request_repo, write_repo
from tests.github.test_action import git_identity  # noqa: F401 (fixture)
from tests.run.test_baseline import ATTEMPT, ATTEMPT_1, BENCH, DEBT, SUMMARY

CONFIG = ".penguin-lint.toml"
ALLOWS = 'allow-added-suppressions = ["PL303", "PL20"]\napproval-label = "lint-exception"\n'
BROKEN = "packages/bench-c/benchmark_config.toml"


def reason(n: int) -> str:
    return ("a" * 196 + "bcde" + "f" * 200)[:n]


def pull_request(tmp_path, monkeypatch, why: str):
    ws, write = cloned_pull_request(tmp_path, {CONFIG: ALLOWS})
    write({SUMMARY: DEBT[SUMMARY] + f"# penguin-lint: disable-file=PL303 {why}\n",
           BENCH: DEBT[BENCH].replace('"v1"', f'"v1"  # penguin-lint: disable=PL203 {reason(200)}'),
           ATTEMPT: ATTEMPT_1 + "# penguin-lint: disable-file=PL304 the importer's own names\n",
           "packages/bench-a/CASE-001-one/task_config.toml":
               'id = "CASE-001-one"\ntitle = "One"\n# penguin-lint: disable-file=PL101\n',
           BROKEN: "id = [\n# penguin-lint: disable-file=PL001 it is being fixed\n"}, "exceptions")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))
    return ws


def added(run):
    return {a["path"]: (a.get("applied"), a.get("how"), a.get("reason"), a.get("label"), a["message"])
            for a in run.json["suppressions_added"]}


def test_consent_code_by_code_and_a_reason_cut_at_200(tmp_path, monkeypatch, git_identity):  # noqa: F811
    ws = pull_request(tmp_path, monkeypatch, reason(201))
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 1
    assert sorted((f["code"], f["path"]) for f in run.findings) == [
        ("PL001", BROKEN), ("PL008", BROKEN), ("PL101", "packages/bench-a/CASE-001-one/task_config.toml"),
        ("PL304", ATTEMPT)]
    got = added(run)
    shown = reason(197) + "..."
    assert len(shown) == 200
    assert got[SUMMARY][:4] == (["PL303"], "reason", shown, "")
    assert got[SUMMARY][4].endswith(f"PL303 applies in this run, as allow-added-suppressions lists it, "
                                    f"for the reason: {shown}")
    # a prefix lists the code; a reason of 200 characters is shown whole
    assert got[BENCH][:3] == (["PL203"], "reason", reason(200))
    # no reason, or a code the base does not list: once merged
    for path in (ATTEMPT, "packages/bench-a/CASE-001-one/task_config.toml"):
        assert got[path][:2] == (None, None)
        assert got[path][4].endswith("it applies once merged, not in this run, where it would hide 1 finding")
    assert got[BROKEN][4] == ("suppression of PL001 in this file is added by this change; "
                              "PL001 cannot be suppressed by a comment")
    [entry] = [a for a in run.json["suppressions_added"] if a["path"] == ATTEMPT]
    assert {k: v for k, v in entry.items() if k != "message"} == {
        "path": ATTEMPT, "line": 5, "column": 1, "end_column": 60, "scope": "disable-file", "codes": ["PL304"],
        "held": 1}
    # in shards, merged: the same report
    parts = []
    for k in (1, 2):
        part = tmp_path / f"part-{k}.json"
        part.write_text(lint(ws, "--all", "--no-cache", "--shard", f"{k}/2").output)
        parts.append(str(part))
    merged = lint(None, "merge", *parts, "--format", "json")
    assert (merged.code, merged.output) == (run.code, run.output)

    # the approval label applies them all, but for what no comment suppresses
    event = tmp_path / "event.json"
    head = git(ws, "rev-parse", "HEAD").strip()  # the label approves the commit it was set on
    event.write_text(json.dumps({"action": "labeled", "label": {"name": "Lint-Exception"},
                                 "pull_request": {"number": 7, "head": {"sha": head, "ref": "pr"},
                                                  "labels": [{"name": "Lint-Exception"}]}}))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 1
    assert sorted((f["code"], f["path"]) for f in run.findings) == [("PL001", BROKEN), ("PL008", BROKEN)]
    got = added(run)
    for path, code in ((SUMMARY, "PL303"), (BENCH, "PL203"), (ATTEMPT, "PL304")):
        assert got[path][:4] == ([code], "label", "", "lint-exception"), path
        assert got[path][4].endswith(f"{code} applies in this run, approved by the label 'lint-exception'")
    assert got[BROKEN][:2] == (None, None)


def test_the_hook_names_every_code_the_pull_request_will_need(tmp_path, git_env):
    # two codes, each suppressing a finding: the version (PL203) and a field no benchmark has (PL104)
    two = DEBT[BENCH] + "runs = 1\n# penguin-lint: disable-file=PL203,PL104\n"
    for config, needs in (
            ('allow-added-suppressions = ["PL10", "PL20"]\n',
             "a reason after the codes (allow-added-suppressions lists PL203, PL104)"),
            ('allow-added-suppressions = ["PL10"]\n',
             "PL203 in the base's allow-added-suppressions and a reason after the codes, "
             "or it applies only once merged"),
            ("", "PL203, PL104 in the base's allow-added-suppressions and a reason after the codes, "
                 "or it applies only once merged")):
        root = pull_request_repo(write_repo(tmp_path / "repo", {CONFIG: config} if config else {}, VALID))
        (root / BENCH).write_text(textwrap.dedent(two))
        git(root, "add", "-A")
        run = lint(root, "--staged")
        (a,) = run.json["suppressions_added"]
        assert (a["codes"], a["applied"], a["how"]) == (["PL203", "PL104"], ["PL203", "PL104"], "own")
        assert a["message"].startswith("suppression of PL203, PL104 in this file is added by this commit")
        assert a["message"].endswith(f"; the pull request will need {needs}"), a["message"]


def test_a_comment_naming_codes_no_comment_suppresses_is_reported(repo):
    root = repo({SUMMARY: DEBT[SUMMARY] + "# penguin-lint: disable-file=PL005,PL004,PL502\n"})
    run = lint(root, "--all")
    assert [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL008"] == [
        (4, "suppression comment names PL005, PL004, PL502, which no comment can suppress (a file that is not "
            "UTF-8 text was not checked at all; a file too large to read was not checked at all; "
            "a configuration change never applies to the run that reviews it)")]
