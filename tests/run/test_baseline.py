"""--all --write-baseline: old debt recorded once no longer fails --all,
its shards or merge; it stays recorded when lines move, a new finding of the
same kind fails, and a pull request is judged by its base's baseline."""
from __future__ import annotations

import json

from tests.conftest import VALID, cloned_pull_request, lint, write_repo
from tests.github.test_action import git_identity  # noqa: F401 (fixture)

BENCH = "packages/bench-a/benchmark_config.toml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BASELINE = ".penguin-lint-baseline.json"
UNKNOWN = "  - source: CASE-404-none\n    score: 50.0\n"
ATTEMPT_1 = "score: 50.0\nresults:\n" + UNKNOWN
DEBT = {
    BENCH: VALID[BENCH].replace('"1.0.0"', '"v1"'),  # PL203, line 4
    ATTEMPT: ATTEMPT_1,  # PL304, line 3
    SUMMARY: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n",  # PL303, line 2
}


def debt(tmp_path, files=None):
    return write_repo(tmp_path / "repo", dict(DEBT, **(files or {})), VALID)


def test_a_written_baseline_lets_all_pass_and_says_how_many(tmp_path):
    root = debt(tmp_path)
    before = lint(root, "--all", "--no-cache")
    assert before.code == 1 and sorted(before.codes()) == ["PL203", "PL303", "PL304"]
    wrote = lint(root, "--all", "--no-cache", "--write-baseline")
    assert wrote.code == 0 and wrote.findings == []
    said = lint(root, "--all", "--no-cache", "--write-baseline", fmt="text")
    assert said.code == 0 and said.output.splitlines()[-1] == (
        f"Wrote {BASELINE} (9 files checked; 3 findings baselined): commit it, "
        "and the findings it records no longer fail a run.")
    doc = json.loads((root / BASELINE).read_text())
    assert doc["version"] == 2
    assert [(e["code"], e["path"], e["count"]) for e in doc["findings"]] == [
        ("PL203", BENCH, 1), ("PL303", SUMMARY, 1), ("PL304", ATTEMPT, 1)]
    after = lint(root, "--all", "--no-cache")
    assert after.code == 0 and after.findings == []
    assert after.json["summary"]["baselined"] == 3 and after.json["summary"]["baseline_stale"] == 0
    text = lint(root, "--all", "--no-cache", fmt="text")
    assert text.code == 0
    assert text.output.splitlines()[-1] == "All checks passed (9 files checked; 3 findings baselined)."


def test_without_a_baseline_the_summary_is_as_before(tmp_path):
    run = lint(debt(tmp_path), "--all", "--no-cache")
    assert "baselined" not in run.json["summary"] and "baseline_stale" not in run.json["summary"]


def test_a_baselined_finding_stays_baselined_when_lines_move(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    (root / BENCH).write_text("# a note above\n# and another\n" + (root / BENCH).read_text())
    (root / ATTEMPT).write_text("# measured again\n" + ATTEMPT_1)
    run = lint(root, "--all", "--no-cache")
    assert run.code == 0, run.output
    assert run.json["summary"]["baselined"] == 3


def test_a_finding_about_the_whole_file_stays_baselined_under_a_comment_on_top(tmp_path):
    task = "packages/bench-a/CASE-001-one/task_config.toml"
    root = debt(tmp_path, {task: 'id = "CASE-001-one"\ntitle = "One"\n'})
    assert lint(root, "--all", "--no-cache").at("PL101") == [(task, 1)]  # description is missing
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    (root / task).write_text('# the first task\nid = "CASE-001-one"\ntitle = "One"\n')
    run = lint(root, "--all", "--no-cache")
    assert run.code == 0, run.output
    assert run.json["summary"]["baselined"] == 4


def test_a_new_finding_of_the_same_code_in_the_same_file_fails(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    # the same mistake once more, in the same file: one more than recorded
    (root / ATTEMPT).write_text(ATTEMPT_1 + UNKNOWN)
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1
    assert run.at("PL304") == [(ATTEMPT, 5)]
    assert run.json["summary"]["baselined"] == 3


def test_fixed_debt_is_stale_and_writing_again_removes_it(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    (root / BENCH).write_text(VALID[BENCH].replace("        ", ""))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 0
    assert run.json["summary"]["baselined"] == 2 and run.json["summary"]["baseline_stale"] == 1
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    again = lint(root, "--all", "--no-cache")
    assert again.json["summary"]["baselined"] == 2 and again.json["summary"]["baseline_stale"] == 0
    assert [e["code"] for e in json.loads((root / BASELINE).read_text())["findings"]] == ["PL303", "PL304"]


def test_the_configuration_names_the_baseline_file(tmp_path):
    root = debt(tmp_path, {".penguin-lint.toml": 'baseline = "ci/debt.json"\n', "ci/keep": ""})
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    assert (root / "ci" / "debt.json").is_file() and not (root / BASELINE).exists()
    assert lint(root, "--all", "--no-cache").code == 0


def test_a_baseline_that_is_not_one_is_one_error_line(tmp_path):
    root = debt(tmp_path)
    for raw in ("not json", '{"version": 1, "findings": [{"code": 1}]}', "[]",
                '{"version": 1, "findings": [{"code": "PL203", "path": "p", "message": "m", '
                '"context": "", "count": -1}]}'):
        (root / BASELINE).write_text(raw)
        run = lint(root, "--all", "--no-cache", fmt="text")
        assert run.code == 2 and run.output == ""
        assert run.stderr.startswith(f"penguin-lint: error: {BASELINE}: not a baseline penguin-lint wrote")
        assert len(run.stderr.splitlines()) == 1


def test_a_baseline_through_a_link_is_refused(tmp_path):
    root = debt(tmp_path)
    (tmp_path / "elsewhere.json").write_text('{"version": 1, "findings": []}')
    (root / BASELINE).symlink_to(tmp_path / "elsewhere.json")
    run = lint(root, "--all", "--no-cache", fmt="text")
    assert run.code == 2 and "is a symbolic link" in run.stderr
    wrote = lint(root, "--all", "--no-cache", "--write-baseline", fmt="text")
    assert wrote.code == 2 and (tmp_path / "elsewhere.json").read_text() == '{"version": 1, "findings": []}'


def test_write_baseline_needs_a_whole_all_run(tmp_path):
    root = debt(tmp_path)
    for args in (["--write-baseline"], ["--all", "--shard", "1/2", "--write-baseline"],
                 ["--all", "--fix", "--write-baseline"]):
        run = lint(root, *args, fmt="text")
        assert run.code == 2 and "--write-baseline records the findings of a whole --all run" in run.stderr
    assert not (root / BASELINE).exists()


def test_shards_and_merge_leave_baselined_findings_out_as_all_does(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    (root / ATTEMPT).write_text(ATTEMPT_1 + UNKNOWN)  # one finding more than recorded
    whole = lint(root, "--all", "--no-cache")
    assert whole.code == 1 and whole.json["summary"]["baselined"] == 3
    paths = []
    for k in (1, 2, 3):
        part = lint(root, "--all", "--no-cache", "--shard", f"{k}/3")
        assert part.json["shard"]["baseline"] == 3
        p = tmp_path / f"shard-{k}.json"
        p.write_text(part.output)
        paths.append(str(p))
    merged = lint(None, "merge", *paths, "--format", "json")
    assert merged.code == whole.code and merged.output == whole.output
    text = lint(None, "merge", *paths, "--format", "text")
    assert text.output == lint(root, "--all", "--no-cache", fmt="text").output


def pull_request_recording_its_debt(tmp_path, base, monkeypatch):
    """A pull request's checkout, in GitHub's environment, that adds a finding
    and records it in its own copy of the base's baseline."""
    ws, write = cloned_pull_request(tmp_path, base)
    assert lint(ws, "--all", "--no-cache").code == 0  # the base's debt is recorded
    write({ATTEMPT: ATTEMPT_1 + UNKNOWN}, "one more unknown task")
    assert lint(ws, "--all", "--no-cache", "--write-baseline").code == 0
    write({}, "record it")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))
    return ws


def test_a_pull_request_is_judged_by_the_base_baseline(tmp_path, monkeypatch, git_identity):  # noqa: F811
    base = dict(DEBT)
    root = write_repo(tmp_path / "seed", base, VALID)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    base[BASELINE] = (root / BASELINE).read_text()
    ws = pull_request_recording_its_debt(tmp_path, base, monkeypatch)
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 1
    assert run.at("PL304") == [(ATTEMPT, 5)]
    assert run.at("PL502") == [(BASELINE, None)]
    assert run.json["summary"]["baselined"] == 3
    # and in a matrix: the added finding once, the baseline's change once
    parts = [lint(ws, "--all", "--no-cache", "--shard", f"{k}/2") for k in (1, 2)]
    assert sorted(a for r in parts for a in r.at("PL304") + r.at("PL502")) == [(BASELINE, None), (ATTEMPT, 5)]
