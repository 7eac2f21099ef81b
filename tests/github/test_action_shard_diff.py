"""The Action's `shard` on a pull-request event: each part is part of the
pull request's diff run, so a matrix blames the pull request for what it
changed, not for old debt; `merge` annotates and fails as the unsharded
pull-request run does. Run step by step as action.yml declares it."""
from __future__ import annotations

import json
import shutil

from tests.github.test_action import git_identity, pull_request, runner  # noqa: F401 (fixture)
from tests.github.test_action_shard import FOLDER, SUMMARY, base_files

BENCH0 = "packages/b0/benchmark_config.toml"


def test_shards_of_a_pull_request_merged_are_its_diff_run(tmp_path, git_identity):  # noqa: F811
    files = base_files()
    ws, write = pull_request(tmp_path, files, folder=FOLDER)
    # the change: a wrong mean in one leaderboard, a version with a 'v' in one package
    write({SUMMARY.replace("/lb/", "/lb2/"): "n_attempt: 2\nscore_mean: 90.0\nscore_std: 0.0\n",
           BENCH0: files[BENCH0].replace('"1.0.0"', '"v1.0.0"')}, "two mistakes")
    whole = runner(ws, tmp_path / "whole", inputs={"path": FOLDER, "sarif": "pr.sarif"}).lint()
    assert whole.code == 1, whole.stdout + whole.stderr
    annotated = whole.commands()
    titles = sorted(c.split("title=")[1].split()[0] for c in annotated)
    assert titles == ["PL203", "PL303"], annotated  # the change's, not the base's old debt
    everything = runner(ws, tmp_path / "everything", inputs={"path": FOLDER, "all": "true"}).lint()
    assert int(everything.outputs["errors"]) > int(whole.outputs["errors"])

    n = 3
    reports = tmp_path / "artifacts"
    reports.mkdir()
    for k in range(1, n + 1):
        part = runner(ws, tmp_path / f"part-{k}",
                      inputs={"shard": f"{k}/{n}", "json": f"reports/part-{k}.json", "path": FOLDER}).lint()
        assert part.code in (0, 1) and "Traceback" not in part.stderr, part.stdout + part.stderr
        assert part.commands() == [] and part.summary == ""
        doc = json.loads(open(part.outputs["json"]).read())
        assert doc["summary"]["compared_with"].startswith("origin/main")
        shutil.copyfile(part.outputs["json"], reports / f"part-{k}.json")

    job = tmp_path / "merge-job"
    job.mkdir()
    shutil.copytree(reports, job / "shards")
    merged = runner(job, tmp_path / "merge", inputs={"merge": "shards", "sarif": "merged.sarif"}).lint()
    assert merged.code == whole.code == 1, merged.stdout + merged.stderr
    assert merged.commands() == annotated
    for key in ("errors", "warnings", "status"):
        assert merged.outputs[key] == whole.outputs[key], key
    got = json.loads(open(merged.outputs["sarif"]).read())["runs"][0]["results"]
    want = json.loads(open(whole.outputs["sarif"]).read())["runs"][0]["results"]
    assert got == want
    # the findings' part of the job summary is the pull-request run's
    assert merged.summary and whole.summary.startswith(merged.summary), (merged.summary, whole.summary)
