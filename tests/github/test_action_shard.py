"""The Action on a matrix: `shard` runs part K/N and writes its JSON report
without annotating; `merge` in one aggregating job joins the parts and
annotates, summarizes, writes SARIF and fails exactly as one `all: true`
run. Run step by step as action.yml declares it."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.actionstep import ACTION
from tests.conftest import VALID, lint
from tests.github.test_action import BENCH, git_identity, pull_request, runner  # noqa: F401 (fixture)

FOLDER = "bench"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"


def base_files():
    """Six packages (three with a version that is not SemVer: PL203) and
    three leaderboards, one with a wrong mean (PL303)."""
    files = {}
    for i in range(6):
        version = '"1.0"' if i % 2 else '"1.0.0"'
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", f"b{i}") \
            .replace('"1.0.0"', version)
        files[f"packages/b{i}/CASE-001-one/task_config.toml"] = VALID["packages/bench-a/CASE-001-one/task_config.toml"]
    for j in range(3):
        for k, v in VALID.items():
            if k.startswith(("experiments/lb/", "leaderboards/lb/")):
                files[k.replace("/lb/", f"/lb{j}/")] = v.replace("leaderboard_id: lb", f"leaderboard_id: lb{j}")
    files[SUMMARY.replace("/lb/", "/lb1/")] = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"
    return files


def test_the_action_in_shards_then_merged_is_the_all_run(tmp_path):
    # the pull request turns PL203 off in its own configuration: neither
    # the whole run nor any shard obeys it (the base's settings judge it),
    # and PL502 says so once
    ws, write = pull_request(tmp_path, base_files(), folder=FOLDER)
    write({".penguin-lint.toml": '[lint]\nignore = ["PL203"]\n'}, "relax the versions")
    whole = runner(ws, tmp_path / "whole", inputs={"all": "true", "path": FOLDER, "sarif": "all.sarif"}).lint()
    assert whole.code == 1, whole.stdout + whole.stderr
    annotated = whole.commands()
    assert any("title=PL203" in c for c in annotated) and any("title=PL502" in c for c in annotated)
    assert any("title=PL303" in c for c in annotated)

    n = 3
    reports = tmp_path / "artifacts"
    reports.mkdir()
    errors = warnings = 0
    for k in range(1, n + 1):
        part = runner(ws, tmp_path / f"shard-{k}",
                      inputs={"shard": f"{k}/{n}", "json": f"reports/shard-{k}.json", "path": FOLDER,
                              "all": "true"}).lint()
        assert part.code in (0, 1) and "Traceback" not in part.stderr, part.stdout + part.stderr
        assert part.commands() == []  # a part annotates nothing: the merge job does, once
        assert part.outputs["json"] == str(ws / FOLDER / "reports" / f"shard-{k}.json")
        assert part.outputs["status"] == ("failed" if part.code else "passed")
        assert part.summary == ""  # the run's one summary is the merge job's
        assert f"penguin-lint: shard {k}/{n}: " in part.stdout
        errors += int(part.outputs["errors"])
        warnings += int(part.outputs["warnings"])
        doc = json.loads(open(part.outputs["json"]).read())
        assert doc["shard"]["index"] == k and doc["shard"]["prefix"] == FOLDER + "/"
        shutil.copyfile(part.outputs["json"], reports / f"shard-{k}.json")  # upload, download
    assert errors >= int(whole.outputs["errors"])  # the parts hold every finding

    # the aggregating job: no checkout of the pull request needed, the reports downloaded
    job = tmp_path / "merge-job"
    job.mkdir()
    shutil.copytree(reports, job / "shards")
    merged = runner(job, tmp_path / "merge", inputs={"merge": "shards", "sarif": "merged.sarif"}).lint()
    assert merged.code == whole.code == 1, merged.stdout + merged.stderr
    assert merged.commands() == annotated  # the same annotations, in the same order
    assert merged.stdout == whole.stdout
    assert merged.summary == whole.summary
    for key in ("errors", "warnings", "status"):
        assert merged.outputs[key] == whole.outputs[key], key
    got = json.loads(open(merged.outputs["sarif"]).read())["runs"][0]["results"]
    want = json.loads(open(whole.outputs["sarif"]).read())["runs"][0]["results"]
    assert got == want and len(got) == int(whole.outputs["errors"]) + int(whole.outputs["warnings"])
    assert any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(FOLDER + "/")
               for r in got)


def test_a_shard_that_holds_none_of_the_files_names_itself_once(tmp_path):
    # more parts than units: a part with nothing to check says so, exits 0
    ws, _ = pull_request(tmp_path)
    n = 9
    stamps = [lint(ws, "--all", "--no-cache", "--shard", f"{k}/{n}").json["shard"] for k in range(1, n + 1)]
    empty = [k for k, stamp in enumerate(stamps, 1) if "holds_none_of" in stamp]
    assert len(empty) >= 4
    k = empty[-1]
    files = stamps[k - 1]["holds_none_of"]
    part = runner(ws, tmp_path / "part", inputs={"shard": f"{k}/{n}", "json": "part.json", "all": "true"}).lint()
    assert (part.code, part.outputs["status"], part.commands()) == (0, "passed", [])
    assert part.stdout.splitlines()[-1] == f"penguin-lint: nothing to check: shard {k}/{n} holds none of the {files} files"
    assert part.stdout.count(f"{k}/{n}") == 1


def test_shard_needs_json_and_merge_refuses_a_missing_part(tmp_path):
    ws, _ = pull_request(tmp_path, base_files())
    alone = runner(ws, tmp_path / "alone", inputs={"shard": "1/2"}).lint()
    assert alone.code == 2 and alone.outputs["status"] == "error"
    assert "::error title=penguin-lint::the shard input needs the json input" in alone.stdout
    assert "penguin-lint: fix: add json: <file> next to shard" in alone.stdout
    both = runner(ws, tmp_path / "both", inputs={"shard": "1/2", "json": "r.json", "merge": "r"}).lint()
    assert both.code == 2 and "cannot be combined" in both.stdout
    bad = runner(ws, tmp_path / "bad", inputs={"shard": "3/2", "json": "r.json"}).lint()
    assert bad.code == 2 and "K must be between 1 and N" in bad.stdout
    assert "penguin-lint: fix: set the shard input to K/N" in bad.stdout

    one = runner(ws, tmp_path / "one", inputs={"shard": "1/2", "json": "out/shard-1.json"}).lint()
    assert one.code in (0, 1)
    job = tmp_path / "job"
    (job / "shards").mkdir(parents=True)
    shutil.copyfile(one.outputs["json"], job / "shards" / "shard-1.json")
    missing = runner(job, tmp_path / "merge", inputs={"merge": "shards"}).lint()
    assert missing.code == 2 and missing.outputs["status"] == "error"
    errors = [c for c in missing.commands() if c.startswith("::error")]
    assert errors == ["::error title=penguin-lint::1 shard is missing: 2/2 (every part of the split is needed)"]
    assert "download-artifact" in missing.summary
    empty = runner(job, tmp_path / "empty", inputs={"merge": "nothing"}).lint()
    assert empty.code == 2 and "merge input nothing: cannot list it" in empty.stdout


@pytest.mark.parametrize("name", ["shard", "json", "merge"])
def test_the_new_inputs_reach_the_step_through_its_environment(name):
    lint_env = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "lint")["env"]
    assert lint_env[f"PENGUIN_LINT_{name.upper()}"] == f"${{{{ inputs.{name} }}}}"
    assert ACTION["inputs"][name]["default"] == ""
