"""A diff run (a pull request's) and the baseline: the base's baseline lets
old debt in the files the change touches pass; one finding more than it
records fails; a change to the baseline is PL502 and hides nothing."""
from __future__ import annotations

import json

from tests.conftest import VALID, cloned_pull_request, lint, write_repo
from tests.github.test_action import git_identity  # noqa: F401 (fixture)
from tests.run.test_baseline import ATTEMPT, ATTEMPT_1, BASELINE, DEBT, UNKNOWN


def with_baseline(tmp_path):
    seed = write_repo(tmp_path / "seed", DEBT, VALID)
    assert lint(seed, "--all", "--no-cache", "--write-baseline").code == 0
    return cloned_pull_request(tmp_path, dict(DEBT, **{BASELINE: (seed / BASELINE).read_text()}))


def test_old_debt_in_a_touched_file_is_baselined(tmp_path, git_identity):  # noqa: F811
    ws, write = with_baseline(tmp_path)
    write({ATTEMPT: "# measured again\n" + ATTEMPT_1}, "a note above the old finding")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 0, run.output
    assert run.findings == [] and run.json["summary"]["baselined"] == 1
    text = lint(ws, "--diff-base", "origin/main", fmt="text")
    assert text.output.splitlines()[-1].endswith("; 1 finding baselined).")


def test_one_more_than_recorded_fails_and_editing_the_baseline_does_not_help(tmp_path, git_identity):  # noqa: F811
    ws, write = with_baseline(tmp_path)
    write({ATTEMPT: ATTEMPT_1 + UNKNOWN}, "the same mistake again")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1 and run.at("PL304") == [(ATTEMPT, 5)]
    # the pull request records its finding in its own baseline: PL502, still failing
    assert lint(ws, "--all", "--no-cache", "--write-baseline").code == 0
    write({}, "record it")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1
    assert run.at("PL304") == [(ATTEMPT, 5)] and run.at("PL502") == [(BASELINE, None)]
    # in parts: merged, the same report
    paths = []
    for k in (1, 2, 3):
        part = lint(ws, "--diff-base", "origin/main", "--shard", f"{k}/3")
        p = tmp_path / f"part-{k}.json"
        p.write_text(part.output)
        paths.append(str(p))
    merged = lint(None, "merge", *paths, "--format", "json")
    assert (merged.code, merged.stderr, merged.output) == (run.code, "", run.output)
    assert json.loads(merged.output)["summary"]["baselined"] == 1
