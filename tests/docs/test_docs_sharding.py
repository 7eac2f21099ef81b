"""docs/sharding.md: its workflow pins every action by commit, its merge job
needs the matrix and runs whatever became of it, and the penguin-lint steps
as written there (shard, upload, download, merge) give the report of one
`all: true` run."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.actionstep import ACTION
from tests.github.test_action import git_identity, pull_request, runner  # noqa: F401 (fixture)
from tests.github.test_action_shard import base_files

PROJECT = Path(__file__).resolve().parents[2]
DOC = PROJECT / "docs" / "sharding.md"
OWN = "<owner>/penguin-lint@<commit-sha>"  # the reader pins the release they reviewed


def workflow():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    found = [b for b in blocks if "\njobs:" in "\n" + b]
    assert len(found) == 1, "one workflow in docs/sharding.md"
    return found[0], yaml.safe_load(found[0])


def steps(job):
    return job.get("steps") or []


def jobs_by_role():
    _, wf = workflow()
    jobs = wf["jobs"]
    matrix = [name for name, j in jobs.items() if "matrix" in (j.get("strategy") or {})]
    assert len(matrix) == 1, jobs.keys()
    merging = [name for name, j in jobs.items()
               if any(s.get("uses") == OWN and "merge" in (s.get("with") or {}) for s in steps(j))]
    assert len(merging) == 1, jobs.keys()
    return jobs, matrix[0], merging[0]


def test_every_action_in_the_workflow_is_pinned_by_commit():
    raw, wf = workflow()
    uses = [s["uses"] for j in wf["jobs"].values() for s in steps(j) if "uses" in s]
    assert len(uses) >= 6
    for u in uses:
        if u == OWN:
            continue
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", u), u
        assert re.search(re.escape(u) + r" # v\d+\.\d+\.\d+\n", raw), f"{u}: no '# vX.Y.Z' beside the sha"
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    assert any(u.startswith("actions/download-artifact@") for u in uses)
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    assert "pull_request_target" not in raw
    # the one pin the reader makes is said
    assert "Replace `<owner>/penguin-lint@<commit-sha>` with the commit" in DOC.read_text(encoding="utf-8")


def test_the_merge_job_needs_the_matrix_and_always_runs():
    jobs, matrix, merging = jobs_by_role()
    merge_job = jobs[merging]
    needs = merge_job["needs"]
    assert matrix in ([needs] if isinstance(needs, str) else needs)
    assert str(merge_job.get("if", "")).strip() == "always()"
    parts = jobs[matrix]["strategy"]["matrix"]["shard"]
    assert jobs[matrix]["strategy"].get("fail-fast") is False
    lint = next(s for s in steps(jobs[matrix]) if s.get("uses") == OWN)
    assert lint["with"]["shard"] == "${{ matrix.shard }}/%d" % len(parts)
    assert parts == list(range(1, len(parts) + 1))
    upload = next(s for s in steps(jobs[matrix]) if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "${{ steps.%s.outputs.json }}" % lint["id"]
    assert lint["with"]["json"].startswith("${{ runner.temp }}/")  # never a path in the checkout
    assert upload["with"]["if-no-files-found"] == "error"
    download = next(s for s in steps(merge_job) if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["pattern"].rstrip("*") in upload["with"]["name"]
    merge = next(s for s in steps(merge_job) if s.get("uses") == OWN)
    assert merge["with"]["merge"] == download["with"]["path"]
    sarif = next(s for s in steps(merge_job) if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert sarif["with"]["sarif_file"] == "${{ steps.%s.outputs.sarif }}" % merge["id"]
    assert merge_job["permissions"]["security-events"] == "write"
    for s in (lint, merge):  # every input named is one the Action has
        assert set(s.get("with") or {}) <= set(ACTION["inputs"]), s["with"]


def evaluate(value: str, shard: int, temp: Path) -> str:
    return str(value).replace("${{ matrix.shard }}", str(shard)).replace("${{ runner.temp }}", str(temp))


@pytest.mark.parametrize("event", ["pull_request", "push"])
def test_the_workflow_as_written_gives_the_unsharded_run(tmp_path, event):
    """On a pull request the parts merged are its diff run (blamed for what
    it changed); on a push to main, the --all run."""
    jobs, matrix, merging = jobs_by_role()
    lint = next(s for s in steps(jobs[matrix]) if s.get("uses") == OWN)
    upload = next(s for s in steps(jobs[matrix]) if s.get("uses", "").startswith("actions/upload-artifact@"))
    merge = next(s for s in steps(jobs[merging]) if s.get("uses") == OWN)
    n = len(jobs[matrix]["strategy"]["matrix"]["shard"])
    ws, write = pull_request(tmp_path, base_files())
    write({"packages/b1/CASE-001-one/task_config.toml": 'id = "CASE-009"\n'}, "a wrong id")

    on = {} if event == "pull_request" else {"event_name": "push", "event": {"before": "0" * 40}}
    whole_inputs = {"sarif": "whole.sarif"} if event == "pull_request" else {"all": "true", "sarif": "whole.sarif"}
    whole = runner(ws, tmp_path / "whole", inputs=whole_inputs, **on).lint()
    assert whole.code == 1
    annotated = [c for c in whole.commands() if c.startswith("::error")]
    if event == "pull_request":  # the change's finding only, not the base's old debt
        assert annotated and all("file=packages/b1/CASE-001-one/task_config.toml," in c for c in annotated)
    else:
        assert len(annotated) > 1
    artifacts = []
    for k in range(1, n + 1):
        temp = tmp_path / f"shard-{k}"
        part = runner(ws, temp, inputs={key: evaluate(v, k, temp / "runner-temp")
                                        for key, v in lint["with"].items()}, **on).lint()
        assert part.code in (0, 1), part.stdout + part.stderr
        # the step's json output: set only when the report was written, outside the checkout
        assert upload["with"]["path"] == "${{ steps.%s.outputs.json }}" % lint["id"]
        artifacts.append(Path(part.outputs["json"]))
        assert artifacts[-1].is_file() and ws not in artifacts[-1].parents
    job = tmp_path / "merge-job"
    job.mkdir()
    temp = tmp_path / "merge" / "runner-temp"
    inputs = {key: evaluate(v, 0, temp) for key, v in merge["with"].items()}
    downloaded = Path(inputs["merge"])
    downloaded.mkdir(parents=True)
    for a in artifacts:  # download-artifact, merge-multiple
        shutil.copyfile(a, downloaded / a.name)
    merged = runner(job, tmp_path / "merge", inputs=inputs, **on).lint()
    assert merged.stdout.splitlines() == whole.stdout.splitlines()
    assert (merged.code, merged.stdout, merged.summary) == (whole.code, whole.stdout, whole.summary)
    got = json.loads(Path(merged.outputs["sarif"]).read_text())["runs"][0]["results"]
    assert got == json.loads(Path(whole.outputs["sarif"]).read_text())["runs"][0]["results"]
