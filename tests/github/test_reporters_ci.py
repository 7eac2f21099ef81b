"""--format github and sarif, and the GitHub Action's step run as GitHub would."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from penguin_lint.engine.runner import Result
from penguin_lint.findings import Finding
from penguin_lint.version import __version__
from penguin_lint.github import environment as github_run
from penguin_lint.github import annotations as github_reporter, summary as step_summary
from penguin_lint.reporters import sarif_reporter
from penguin_lint.rules import all_rules
from tests.conftest import VALID, lint, write_repo

PROJECT = Path(__file__).resolve().parents[2]
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"
FORGED = 'id = "X\\n::error file=evil.txt,line=1::forged\\r::warning::two 100%"\ntitle = "One"\ndescription = "d"\n'


def finding(**kw):
    base = dict(code="PL201", name="id-mismatch", severity="error", path="a.yaml", message="m", line=3, column=5)
    base.update(kw)
    return Finding(**base)


def github(findings, files=1):
    out = io.StringIO()
    github_reporter.report(Result(findings, files), out)
    return out.getvalue()


def commands(text):
    """Lines the runner would read as annotations (it strips leading blanks)."""
    return [ln for ln in re.split(r"\r\n|\r|\n", text) if ln.lstrip().startswith(("::error", "::warning", "::notice"))]


def log_lines(text):
    return [ln for ln in text.splitlines() if ln.startswith(("error: ", "warning: "))]


# -- github --------------------------------------------------------------------

def test_escaping_follows_the_runner():
    assert github_reporter.escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert github_reporter.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # other control characters cannot act as line breaks or terminal escapes
    assert github_reporter.escape_data("a\x1b[31m\u2028\x85b") == "a\\x1b[31m\\u2028\\x85b"


def test_a_newline_and_a_forged_command_make_one_annotation():
    f = finding(message="bad\n::error file=x.txt,line=1::forged\r::warning::again",
                path="dir, with: odd/na\nme.yaml", hint="h\n::error::x")
    out = github([f])
    cmds = commands(out)
    assert len(cmds) == 1
    assert cmds[0].startswith("::error file=dir%2C with%3A odd/na%0Ame.yaml,line=3,col=5,title=PL201 id-mismatch::bad%0A")
    assert "%0D::warning::again" in cmds[0]


def test_forged_annotation_from_file_content_end_to_end(repo):
    root = repo({TASK: FORGED})
    run = lint(root, "--all", fmt="github")
    cmds = commands(run.output)
    assert len(cmds) == len(lint(root, "--all").findings) == 2
    assert all(c.startswith(f"::error file={TASK},") for c in cmds)
    assert run.code == 1


def test_col_only_when_the_finding_is_on_one_line():
    one = github([finding(line=3, column=5, end_line=3, end_column=9)])
    assert "line=3,col=5,endColumn=9," in one
    multi = github([finding(line=3, column=5, end_line=6, end_column=2)])
    assert "line=3,endLine=6,title=" in multi and "col=" not in multi
    none = github([finding(line=None, column=None)])
    assert "::error file=a.yaml,title=PL201 id-mismatch::m" in none


def test_review_order_spends_the_ten_annotations_on_what_can_be_acted_on(tmp_path):
    summary = tmp_path / "summary.md"
    missing = [finding(path=f"m{i}/rubric/README.md", line=None, column=None, scope="touched") for i in range(12)]
    dependent = [finding(path="lb.yaml", line=7, scope="dependent", message=f"dep {i}") for i in range(3)]
    file_level = [finding(path="big.yaml", line=None, column=None, scope="touched", code="PL004",
                          name="file-too-large")]
    warnings = [finding(severity="warning", code="PL104", name="unknown-field", path=f"w{i}.yaml",
                        scope="touched") for i in range(12)]
    lined = [finding(path="t.yaml", line=4, scope="touched", message="wrong version")]
    findings = missing + dependent + file_level + warnings + lined
    out = io.StringIO()
    github_reporter.report(Result(findings, 40), out, exists=lambda p: not p.endswith("rubric/README.md"),
                           summary_path=str(summary))
    text = out.getvalue()
    cmds = commands(text)
    errors = [c for c in cmds if c.startswith("::error")]
    assert len(errors) == 10 and len([c for c in cmds if c.startswith("::warning")]) == 10
    assert "file=t.yaml,line=4," in errors[0]          # 1. a line in a touched file
    assert "file=big.yaml,title=PL004" in errors[1]     # 2. a touched file, no line
    assert all("file=lb.yaml,line=7" in c for c in errors[2:5])  # 3. dependents
    assert all("rubric/README.md" in c for c in errors[5:])      # 4. missing files
    assert cmds[-1] == ("::notice title=penguin-lint::9 more findings than GitHub annotates (10 errors and "
                        "10 warnings per step): the job summary lists them all and the log prints every one")
    # the log prints every finding, none of them a workflow command
    assert len(log_lines(text)) == len(findings)
    assert text.rstrip().endswith("penguin-lint: 17 errors, 12 warnings (40 files checked)")
    md = summary.read_text()
    assert md.startswith(f"## penguin-lint {__version__}\n\n**17 errors, 12 warnings** (40 files checked)")
    headings = re.findall(r"^### (.*)$", md, re.M)
    # files in review order: lines in touched files (errors, then warnings), ...
    assert headings[:2] == ["t.yaml", "w0.yaml"] and headings[13:15] == ["big.yaml", "lb.yaml"]
    assert headings[15] == "m0/rubric/README.md (missing)" and len(headings) == 27
    assert md.count("| :x: |") == 17 and md.count("| :warning: |") == 12


def test_one_file_and_a_clean_run_read_right(tmp_path):
    out = github([finding()], files=1)
    assert out.rstrip().endswith("penguin-lint: 1 error, 0 warnings (1 file checked)")
    summary = tmp_path / "s.md"
    out = io.StringIO()
    github_reporter.report(Result([], 3), out, summary_path=str(summary))
    assert out.getvalue() == "penguin-lint: 0 errors, 0 warnings (3 files checked)\n"
    assert summary.read_text() == f"## penguin-lint {__version__}\n\nAll checks passed (3 files checked).\n\n"


def test_summary_escapes_and_links(tmp_path):
    f = finding(path="dir (x)/a b#c.yaml", message="a | b <img src=x> [l](http://x) `c`", hint="h*")
    md = step_summary.render(Result([f], 1), [f], blob_base="https://github.com/o/r/blob/" + "1" * 40)
    url = "https://github.com/o/r/blob/" + "1" * 40 + "/dir%20%28x%29/a%20b%23c.yaml"
    # repository text in code spans: no link, HTML or reference is read in it
    assert f"### [`dir (x)/a b#c.yaml`]({url})\n" in md
    from penguin_lint.rules.docs import rule_url

    page = rule_url("PL201", uri=True)  # the rule's page, for the copy in use
    assert "owner" not in page
    # a message is prose, each word no plain text can hold in a code span of its own
    assert (f"| :x: | [3]({url}#L3) | [PL201]({page}) id-mismatch | a `\\|` b `<img` `src=x>` `[l](http://x`) "
            "`` `c` ``<br>*hint:* `h*` |") in md


def test_summary_stays_under_its_budget():
    findings = [finding(path=f"f{i // 10}.yaml", line=i + 1, message="m" * 200) for i in range(100)]
    md = step_summary.render(Result(findings, 10), findings, budget=8000)
    assert len(md.encode()) <= 8000
    shown = md.count("| :x: |")
    assert 0 < shown < 100
    assert f"**{100 - shown} more findings not listed: GitHub caps a step summary at 1 MiB.**" in md


def test_links_only_from_what_github_says():
    env = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "b" * 40}
    assert github_run.blob_base(env) == "https://github.com/o/r/blob/" + "b" * 40
    for bad in ({"GITHUB_SERVER_URL": "javascript:alert(1)//"}, {"GITHUB_REPOSITORY": "o/r) [x](y"},
                {"GITHUB_SHA": "HEAD"}):
        assert github_run.blob_base({**env, **bad}) is None


def test_format_github_from_the_cli_in_a_subfolder(tmp_path, monkeypatch):
    root = write_repo(tmp_path / "top" / "bench", {TASK: 'id = "CASE-001-one"\ntitle = "One"\n'}, VALID)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path / "top", check=True)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    run = lint(root, "--all", fmt="github")
    assert run.code == 1
    assert commands(run.output)[0].startswith(f"::error file=bench/{TASK},line=1,col=1,")
    assert f"### {step_summary.md('bench/' + TASK, cell=False)}\n" in summary.read_text()
    sarif = json.loads(lint(root, "--all", fmt="sarif").output)
    assert sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] \
        == f"bench/{TASK}"
    # the JSON report keeps paths from the linted root
    assert json.loads(lint(root, "--all").output)["findings"][0]["path"] == TASK


# -- sarif ---------------------------------------------------------------------

def test_sarif_has_a_rule_per_code_and_a_result_per_finding(repo):
    spaced = "packages/bench-a/CASE 002 été/task_config.toml"
    root = repo({TASK: 'id = "CASE-001-one"\ntitle = "One"\n',
                 spaced: 'id = "CASE 002 été"\ntitle = "T"\ndescription = "d"\nextra = 1\n',
                 "packages/bench-a/CASE 002 été/statement/README.md": "s\n",
                 "packages/bench-a/CASE 002 été/rubric/README.md": "r\n"})
    plain = lint(root, "--all")
    run = lint(root, "--all", fmt="sarif")
    assert run.code == plain.code == 1
    doc = json.loads(run.output)
    assert doc["version"] == "2.1.0" and "sarif-2.1.0" in doc["$schema"]
    (sarif_run,) = doc["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert ids == sorted(set(ids)) == sorted(r.code for r in all_rules())
    results = sarif_run["results"]
    assert len(results) == len(plain.findings)
    for res, f in zip(results, plain.findings):
        assert res["ruleId"] == f["code"] == rules[res["ruleIndex"]]["id"]
        assert res["level"] == f["severity"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["region"]["startLine"] == f["line"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert "packages/bench-a/CASE%20002%20%C3%A9t%C3%A9/task_config.toml" in uris
    pl104 = rules[ids.index("PL104")]
    assert pl104["defaultConfiguration"]["level"] == "warning"
    assert pl104["shortDescription"]["text"] and pl104["fullDescription"]["text"]


def test_sarif_unknown_code_still_gets_an_entry():
    doc = sarif_reporter.build(Result([finding(code="PL999", name="x", line=None)], 1), rules={})
    driver = doc["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == ["PL999"]
    assert "region" not in doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]


def test_a_summary_that_cannot_be_written_is_said_not_a_crash(tmp_path):
    out = io.StringIO()
    github_reporter.report(Result([finding()], 1), out, summary_path=str(tmp_path))  # a folder
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("::error file=a.yaml,line=3,")
    assert lines[-1].startswith("penguin-lint: warning: cannot write the job summary: ")
