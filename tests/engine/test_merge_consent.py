"""Shards of a pull request's --all run with the maintainers' consent: every
part judges the added suppressions alike, and merged they give the --all
report (what applied, how, and why)."""
from __future__ import annotations

import json

from tests.conftest import cloned_pull_request, lint

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"


def test_labeled_shards_merge_into_the_labeled_all_run(tmp_path, monkeypatch, git_env):
    ws, write = cloned_pull_request(tmp_path, {".penguin-lint.toml": 'approval-label = "lint-exception"\n'})
    write({SUMMARY: MEAN + "# penguin-lint: disable-file=PL303\n"})
    import subprocess

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws, capture_output=True, text=True).stdout.strip()
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "labeled", "label": {"name": "Lint-Exception"},
                                 "pull_request": {"number": 7, "head": {"sha": head}}}))
    for k, v in {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_WORKSPACE": str(ws),
                 "GITHUB_EVENT_PATH": str(event)}.items():
        monkeypatch.setenv(k, v)
    whole = lint(ws, "--all", "--no-cache")
    assert whole.code == 0, whole.output
    (a,) = whole.json["suppressions_added"]
    assert (a["path"], a["applied"], a["how"], a["label"]) == (SUMMARY, ["PL303"], "label", "lint-exception")
    paths = []
    for k in (1, 2):
        run = lint(ws, "--all", "--no-cache", "--shard", f"{k}/2")
        (tmp_path / f"{k}.json").write_text(run.output)
        paths.append(str(tmp_path / f"{k}.json"))
    got = lint(None, "merge", *paths, "--format", "json")
    assert (got.code, got.output) == (0, whole.output)
    # a push after the label: the same shards fail
    event.write_text(json.dumps({"action": "synchronize", "pull_request": {"number": 7}}))
    assert lint(ws, "--all", "--no-cache", "--shard", "1/2").code + \
        lint(ws, "--all", "--no-cache", "--shard", "2/2").code == 1
