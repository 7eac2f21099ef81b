"""The CI snippets of docs/gitlab.md, junit.md, reviewdog.md and
azure-pipelines.md, run as the CI system runs them: each script line (but the
install) in bash, in a pull request's clone, with the CI's variables; the
report lands where the snippet publishes it, in the format its consumer reads."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import junitparser
import pytest
import yaml

from tests.conftest import cloned_pull_request, git_env  # noqa: F401  (git_env is a fixture)
from tests.reporters.test_ci_reports import GITLAB_REPORT, RDJSON, agent_parse

PROJECT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```yaml\n(.*?)^```$", re.S | re.M)
BIN = str(Path(sys.executable).parent)  # the penguin-lint command of this environment
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
WRONG = "n_attempt: 2\nscore_mean: 10.0\nscore_std: 0.0\n"  # the attempts average 50.0


def snippets(page: str):
    return [yaml.safe_load(m.group(1)) for m in FENCE.finditer((PROJECT / "docs" / page).read_text("utf-8"))]


def run_script(lines, ws: Path, env: dict) -> subprocess.CompletedProcess:
    """The lines as one shell runs them (GitLab's job, Azure's step), the
    install left out: this environment has penguin-lint."""
    script = "\n".join(ln for ln in lines if not ln.startswith("pip install"))
    full = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], **env)
    return subprocess.run(["bash", "-c", script], cwd=ws, env=full, capture_output=True, text=True, timeout=120)


@pytest.fixture
def pull_request(tmp_path, git_env):  # noqa: F811
    ws, write = cloned_pull_request(tmp_path)
    write({SUMMARY: WRONG})
    return ws


@pytest.mark.parametrize("merge_request", [False, True], ids=["branch", "merge request"])
def test_the_gitlab_job_publishes_a_code_quality_report(pull_request, merge_request):
    (doc,) = snippets("gitlab.md")
    job = doc["penguin-lint"]
    report = job["artifacts"]["reports"]["codequality"]
    assert job["artifacts"]["when"] == "always"  # the job fails on errors: the report is still wanted
    env = {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"} if merge_request else {}
    # a merge request may not switch the check off: its own configuration is not read
    (pull_request / ".penguin-lint.toml").write_text('ignore = ["PL303"]\n')
    proc = run_script(job["script"], pull_request, env)
    issues = json.loads((pull_request / report).read_text())
    jsonschema.validate(issues, GITLAB_REPORT)
    codes = [i["check_name"] for i in issues]
    assert proc.returncode == (1 if merge_request else 0), proc.stderr
    assert ("PL303" in codes) == merge_request


def test_the_junit_snippets_publish_the_file_they_write(pull_request):
    gitlab, azure = snippets("junit.md")
    job = gitlab["penguin-lint-junit"]
    proc = run_script(job["script"], pull_request, {})
    assert proc.returncode == 1, proc.stderr
    xml = junitparser.JUnitXml.fromfile(str(pull_request / job["artifacts"]["reports"]["junit"]))
    assert [c.name for s in xml for c in s] == ["PL303 summary-mismatch at line 2"]
    steps = azure["steps"]
    publish = steps[-1]
    assert publish["task"].startswith("PublishTestResults@") and publish["condition"] == "always()"
    assert publish["inputs"]["testResultsFormat"] == "JUnit"
    (pull_request / job["artifacts"]["reports"]["junit"]).unlink()
    proc = run_script([s["script"] for s in steps if "script" in s], pull_request, {})
    assert proc.returncode == 1
    assert junitparser.JUnitXml.fromfile(str(pull_request / publish["inputs"]["testResultsFiles"])).failures == 1


def test_the_azure_step_logs_issues_and_reads_the_target_branch_configuration(pull_request):
    (doc,) = snippets("azure-pipelines.md")
    scripts = [s["script"] for s in doc["steps"] if "script" in s]
    (pull_request / ".penguin-lint.toml").write_text('ignore = ["PL303"]\n')
    proc = run_script(scripts, pull_request, {"SYSTEM_PULLREQUEST_TARGETBRANCH": "refs/heads/main"})
    assert proc.returncode == 1, proc.stderr
    issues = [agent_parse(ln) for ln in proc.stdout.splitlines() if ln.startswith("##vso[")]
    # PL502: the pull request's own configuration would switch a rule off
    assert [(head, p["code"], p["sourcepath"], p["linenumber"]) for head, p, _ in issues] == [
        ("task.logissue", "PL502", ".penguin-lint.toml", "1"), ("task.logissue", "PL303", SUMMARY, "2")]


def test_the_reviewdog_workflow_pipes_valid_rdjson_with_the_fix_as_a_suggestion(pull_request):
    (doc,) = snippets("reviewdog.md")
    (step,) = [s for s in doc["jobs"]["review"]["steps"] if "reviewdog" in s.get("run", "")]
    lint, review = step["run"].split("|")
    assert "-f=rdjson" in review.split() and "-reporter=github-pr-review" in review.split()
    assert doc["permissions"]["pull-requests"] == "write"
    proc = run_script([lint], pull_request, {"GITHUB_BASE_REF": "main"})
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert list(RDJSON.iter_errors(report)) == []
    (diag,) = report["diagnostics"]
    assert diag["code"]["value"] == "PL303" and diag["location"]["path"] == SUMMARY
    assert [s["text"] for s in diag["suggestions"]] == ["50.00"]  # the digits the file had
