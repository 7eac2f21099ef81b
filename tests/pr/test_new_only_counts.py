"""The counts a maintainer reads in a pull request's run on a baselined
repository: --new-only says how many findings it did not show (those the
run without it shows, no more: not a finding per-file-ignores drop, not one
found twice, not one the baseline records), and baseline_stale counts only
entries of the files the run reports whole (paid off), never those of files
it did not check."""
from __future__ import annotations

import json

from tests.conftest import VALID, cloned_pull_request, lint, write_repo
from tests.github.test_action import git_identity  # noqa: F401 (fixture)

BENCH = "packages/bench-a/benchmark_config.toml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
CONFIG = '[per-file-ignores]\n"packages/bench-a/CASE-*/**" = ["PL104"]\n'
BENCH_DEBT = (VALID[BENCH].replace('"1.0.0"', '"v1"')  # PL203
              .replace('status = "draft"', 'status = "draft"\nfoo = 1\nbar = 2'))  # PL104 twice
DEBT = {
    BENCH: BENCH_DEBT,
    TASK: 'id = "CASE-001-one"\ntitle = "One"\nextra = 1\n',  # PL101; PL104 ignored
    ATTEMPT: "score: 50.0\nresults:\n  - source: CASE-404-none\n    score: 50.0\n",  # PL304
    SUMMARY: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n",  # PL303
}


def baselined(tmp_path):
    seed = write_repo(tmp_path / "seed", dict(DEBT, **{".penguin-lint.toml": CONFIG}), VALID)
    assert lint(seed, "--all", "--no-cache", "--write-baseline").code == 0
    recorded = (seed / ".penguin-lint-baseline.json").read_text()
    assert len(json.loads(recorded)["findings"]) == 6
    return cloned_pull_request(tmp_path, dict(DEBT, **{".penguin-lint.toml": CONFIG,
                                                      ".penguin-lint-baseline.json": recorded}))


def test_new_only_counts_the_findings_it_did_not_show(tmp_path, git_identity):  # noqa: F811
    ws, write = baselined(tmp_path)
    write({BENCH: BENCH_DEBT.replace('"Bench A"', '"Bench A, retitled"'),
           TASK: DEBT[TASK].replace('"One"', '"One, retitled"')}, "retitle")
    plain = lint(ws, "--diff-base", "origin/main")
    new_only = lint(ws, "--diff-base", "origin/main", "--new-only")
    assert plain.code == new_only.code == 0 and plain.findings == new_only.findings == []
    # the baseline left out the old debt, with or without --new-only: nothing more was hidden
    for run in (plain, new_only):
        s = run.json["summary"]
        assert (s["hidden"], s["baselined"], s["baseline_stale"]) == (0, 4, 0), s
    text = lint(ws, "--diff-base", "origin/main", "--new-only", fmt="text")
    assert text.output.splitlines()[-1] == (
        f"All checks passed (2 files checked against {plain.json['summary']['compared_with']}; "
        "4 findings baselined).")
    # old findings the baseline does not record: --new-only hides exactly those the run shows
    write({".penguin-lint-baseline.json": '{"version": 1, "findings": []}\n'}, "forget the debt")
    plain = lint(ws, "--diff-base", "origin/main", "--config-from-worktree")
    new_only = lint(ws, "--diff-base", "origin/main", "--config-from-worktree", "--new-only")
    assert sorted(f["code"] for f in plain.findings) == ["PL101", "PL104", "PL104", "PL203"]
    assert new_only.findings == [] and new_only.json["summary"]["hidden"] == 4


def test_baseline_stale_counts_only_the_entries_of_files_the_run_checked(tmp_path, git_identity):  # noqa: F811
    ws, write = baselined(tmp_path)
    write({BENCH: BENCH_DEBT.replace('"Bench A"', '"Bench A, retitled"')}, "pays off nothing")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 0 and run.json["summary"]["baseline_stale"] == 0, run.json["summary"]
    # paying off one recorded finding in a touched file: one stale entry
    write({BENCH: BENCH_DEBT.replace("foo = 1\n", "")}, "pays off one")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.json["summary"]["baseline_stale"] == 1 and run.json["summary"]["baselined"] == 2
    # the parts of a matrix, merged, say the same
    paths = []
    for k in (1, 2, 3):
        part = lint(ws, "--diff-base", "origin/main", "--shard", f"{k}/3")
        assert "baseline_stale" not in part.json["summary"]
        (tmp_path / f"{k}.json").write_text(part.output)
        paths.append(str(tmp_path / f"{k}.json"))
    merged = lint(None, "merge", *paths, "--format", "json")
    assert (merged.code, merged.output) == (run.code, run.output)
    # the hook (a path run) cannot tell: the key is left out
    hook = lint(ws, ATTEMPT)
    assert "baselined" in hook.json["summary"] and "baseline_stale" not in hook.json["summary"]
