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

from penguin_lint.engine import Result
from penguin_lint.findings import Finding
from penguin_lint.reporters import github_reporter, sarif_reporter
from penguin_lint.rules import all_rules
from tests.conftest import VALID, lint, write_repo

PROJECT = Path(__file__).resolve().parents[1]
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
    """Lines the runner would read as workflow commands."""
    return [ln for ln in re.split(r"\r\n|\r|\n", text) if ln.startswith("::")]


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


def test_errors_first_notice_and_step_summary(tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    warnings = [finding(severity="warning", code="PL104", name="unknown-field", path=f"w{i}.yaml") for i in range(12)]
    errors = [finding(path=f"e{i}.yaml", message="a | b <img src=x> [l](http://x) `c`") for i in range(12)]
    out = github(warnings + errors, files=24)
    cmds = commands(out)
    assert [c.split(" ", 1)[0] for c in cmds[:24]] == ["::error"] * 12 + ["::warning"] * 12
    assert cmds[24].startswith("::notice ") and "4 more findings" in cmds[24] and "job summary" in cmds[24]
    md = summary.read_text()
    assert md.startswith("## penguin-lint\n")
    assert "**12 errors, 12 warnings**" in md
    rows = [ln for ln in md.splitlines() if ln.startswith("| :")]
    assert len(rows) == 24 and rows[0].startswith("| :x: | e0\\.yaml | 3 |")
    assert "a \\| b \\<img src=x\\> \\[l\\]\\(http://x\\) \\`c\\`" in rows[0]


def test_clean_run_writes_a_clean_summary(tmp_path, monkeypatch):
    summary = tmp_path / "s.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert commands(github([], files=3)) == []
    assert "All checks passed (3 files checked)." in summary.read_text()


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


# -- the GitHub Action -----------------------------------------------------------

ACTION = yaml.safe_load((PROJECT / "action.yml").read_text(encoding="utf-8"))
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def test_action_is_composite_and_keeps_inputs_out_of_scripts():
    assert ACTION["runs"]["using"] == "composite"
    assert {"base", "strict", "select", "ignore", "sarif"} <= set(ACTION["inputs"])
    steps = ACTION["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    for step in steps:
        assert "${{" not in step.get("run", ""), step["name"]
    env = next(s for s in steps if s.get("id") == "lint")["env"]
    for name in ACTION["inputs"]:
        if name != "python-version":
            assert f"${{{{ inputs.{name} }}}}" in env.values(), name


def git(cwd, *args):
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A pull request checkout: origin/main has an old problem, the branch adds a new one."""
    for k, v in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
                 "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
                 "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}.items():
        monkeypatch.setenv(k, v)
    upstream = write_repo(tmp_path / "upstream", {
        "packages/bench-old/benchmark_config.toml": VALID["packages/bench-a/benchmark_config.toml"]
        .replace("bench-a", "bench-old").replace('"1.0.0"', '"2026.10.09.1"')}, VALID)
    git(upstream, "init", "-q", "-b", "main")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "base")
    ws = tmp_path / "work space"
    git(tmp_path, "clone", "-q", str(upstream), str(ws))
    git(ws, "checkout", "-q", "-b", "pr")
    return ws


def run_action(ws: Path, tmp_path: Path, inputs=None, event="pull_request"):
    """Run the action's lint step the way the runner does: its env mapping
    evaluated, its script through bash in the workspace."""
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "lint")
    values = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    values.update(inputs or {})

    def evaluate(text):
        def one(m):
            expr = m.group(1)
            if expr.startswith("inputs."):
                return values[expr[len("inputs."):]]
            if expr == "steps.install.outputs.python":
                return sys.executable  # the step before installs into a venv
            raise AssertionError(f"unexpected expression {expr}")
        return EXPR.sub(one, str(text))

    gh = tmp_path / "gh"
    gh.mkdir(exist_ok=True)
    out, summary = gh / "output", gh / "summary.md"
    for p in (out, summary):
        p.write_text("")
    env = dict(os.environ)
    env.update({k: evaluate(v) for k, v in step["env"].items()})
    env.update({
        "PYTHONPATH": str(PROJECT),
        "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(ws), "GITHUB_EVENT_NAME": event,
        "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(gh),
    })
    if event == "pull_request":
        env["GITHUB_BASE_REF"], env["GITHUB_HEAD_REF"] = "main", "pr"
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=ws, env=env, capture_output=True, text=True)
    outputs = dict(ln.split("=", 1) for ln in out.read_text().splitlines() if "=" in ln)
    return proc, outputs, summary.read_text()


def test_action_fails_the_step_on_errors_in_the_change(workspace, tmp_path):
    (workspace / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\n')
    git(workspace, "commit", "-q", "-am", "break a task")
    proc, outputs, summary = run_action(workspace, tmp_path, {"sarif": "reports/penguin.sarif"})
    assert proc.returncode == 1, proc.stderr
    cmds = commands(proc.stdout)
    assert cmds == [f"::error file={TASK},line=1,col=1,title=PL101 missing-field::"
                    + cmds[0].split("::", 2)[2]]
    assert "bench-old" not in proc.stdout  # an old problem the change does not touch
    assert outputs["errors"] == "1" and outputs["warnings"] == "0"
    assert f"| :x: | {github_reporter.md(TASK)} | 1 | PL101 missing\\-field |" in summary
    sarif = json.loads((workspace / "reports/penguin.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["PL101"]
    assert outputs["sarif"] == str(workspace / "reports/penguin.sarif")


def test_action_warnings_pass_unless_strict(workspace, tmp_path):
    (workspace / LB).write_text((workspace / LB).read_text().replace("status: draft", "status: published"))
    git(workspace, "commit", "-q", "-am", "publish")
    proc, outputs, _ = run_action(workspace, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert commands(proc.stdout)[0].startswith(f"::warning file={LB},line=2,")
    assert "PL501" in proc.stdout and outputs["warnings"] == "1"
    strict, _, _ = run_action(workspace, tmp_path, {"strict": "true"})
    assert strict.returncode == 1
    ignored, outputs, _ = run_action(workspace, tmp_path, {"strict": "true", "ignore": "PL5"})
    assert ignored.returncode == 0 and outputs["warnings"] == "0"


def test_action_inputs_are_data_not_code(workspace, tmp_path):
    proc, outputs, _ = run_action(workspace, tmp_path, {"base": 'main"; touch pwned; echo "'})
    assert not (workspace / "pwned").exists()
    assert proc.returncode == 2
    cmds = commands(proc.stdout)
    assert len(cmds) == 1 and cmds[0].startswith("::error title=penguin-lint::")
    assert "unknown git revision" in cmds[0]
    assert "Traceback" not in proc.stderr


def test_action_push_event_and_clean_change(workspace, tmp_path):
    (workspace / "packages/bench-a/CASE-001-one/rubric/README.md").write_text("better rubric\n")
    git(workspace, "commit", "-q", "-am", "rubric")
    proc, outputs, summary = run_action(workspace, tmp_path, event="push")
    # No base ref and no event file: the default branch (origin/HEAD) is used.
    assert proc.returncode == 0, proc.stderr
    assert outputs["errors"] == "0" and "All checks passed" in summary


def test_documented_workflow_is_safe_and_pinned():
    texts = [(PROJECT / "README.md").read_text(encoding="utf-8")]
    blocks = [b for t in texts for b in re.findall(r"```yaml\n(.*?)```", t, re.S) if "on: pull_request" in b]
    assert blocks, "no example workflow"
    wf = yaml.safe_load(blocks[0])
    assert wf[True] == "pull_request"  # YAML 1.1 reads the key `on` as true
    assert "pull_request_target" not in blocks[0]
    assert wf["permissions"] == {"contents": "read"}
    steps = next(iter(wf["jobs"].values()))["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    ours = [s["uses"] for s in steps if "penguin-lint" in s.get("uses", "")]
    assert ours and all(re.search(r"@v\d+\.\d+\.\d+$|@[0-9a-f]{40}$", u) for u in ours)
