"""What a change is blamed for, where the verdict takes a turn of its own:
a rename asked about by its new name alone, a file given its kind by
``[kinds]`` under another extension, a rule that reads what only the file
system says, HEAD judged as the paths are (--kind, --no-suppress), no base
at all, more findings alike than the base had, and the changed paths named
on a dependent finding."""
from __future__ import annotations

from tests.conftest import VALID, git, lint, pull_request_repo, write_repo

META = "experiments/lb/exp-1/meta_info.yaml"
BOARD = "leaderboards/lb/leaderboard.yaml"


def committed(tmp_path, files=None):
    """VALID plus ``files``, committed on main (needs git_env)."""
    root = write_repo(tmp_path / "repo", files or {}, VALID)
    for args in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-q", "-m", "base")):
        git(root, *args)
    return root


def test_a_rename_whose_new_name_alone_is_asked_about_rechecks_what_read_the_old_one(tmp_path, git_env):
    # the board reads exp-1/meta_info.yaml; the change moves it away, and
    # the run is asked about the new name only
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    moved = "experiments/lb/exp-1/meta.yaml"
    git(root, "mv", META, moved)
    git(root, "commit", "-q", "-m", "move")
    run = lint(root, "--diff-base", "main", moved)
    [f] = [f for f in run.findings if f["code"] == "PL401"]
    assert (f["path"], f["line"], f["scope"], f["new"], f["caused_by"]) == (BOARD, 7, "dependent", True, [META])
    assert run.code == 1
    # asked about another folder, the rename is none of the run's business
    assert lint(root, "--diff-base", "main", "packages").findings == []


# a benchmark's configuration written as YAML in a .txt file, given its kind by [kinds]
NOTES = "extra/bench.txt"
NOTES_TEXT = ('id: bench-a\ntitle: B\ndescription: d\nversion: 1.0.0\nlast_update: "2026-10-29T12:00:00Z"\n'
              "status: draft\nauthor:\n  name: Lab\nk1: a\n")


def test_a_file_of_a_configured_kind_keeps_its_old_finding_old_by_its_key(tmp_path, git_env):
    root = committed(tmp_path, {".penguin-lint.toml": '[kinds]\n"extra/*.txt" = "benchmark_config"\n',
                                NOTES: NOTES_TEXT})
    assert lint(root, "--all").at("PL104") == [(NOTES, 9)]
    # a second unknown key, above the old one: the same message but for its number
    (root / NOTES).write_text("k2: a\n" + NOTES_TEXT)
    run = lint(root, "--no-cache", NOTES)
    assert [(f["line"], f["message"], f["new"]) for f in run.findings if f["code"] == "PL104"] == [
        (1, "unknown field 'k2'", True), (10, "unknown field 'k1'", False)]


def test_a_package_file_over_the_limit_is_not_taken_as_old_by_a_base_that_cannot_measure_it(tmp_path, git_env):
    # PL004 reads a package file's size from the file system; a base tree
    # does not measure it, so even unchanged the file is not judged alike there
    data = "packages/bench-a/CASE-001-one/statement/data.csv"
    root = committed(tmp_path, {".penguin-lint.toml": "max-file-size = 2000\n", data: "x\n" * 2000})
    for args in ((), ("--no-suppress",)):  # (without suppressions the file is not even read)
        run = lint(root, "--no-cache", *args, data)
        assert [(f["code"], f["path"], f["line"], f["new"]) for f in run.findings] == [("PL004", data, 1, True)]


def test_a_path_given_its_kind_is_compared_with_head_judged_as_that_kind(tmp_path, git_env):
    notes = "extra/bench.yaml"
    root = committed(tmp_path, {notes: "id: bench-a\nk1: a\n"})
    (root / notes).write_text("id: bench-a\nk1: a\ntitle: B\n")
    run = lint(root, "--kind", "benchmark_config", notes)
    # HEAD's debt (the other missing fields, the unknown key) is old
    assert ("PL104", 2, False) in [(f["code"], f["line"], f["new"]) for f in run.findings]
    assert run.findings and not any(f["new"] for f in run.findings)
    assert lint(root, "--kind", "benchmark_config", "--new-only", notes).findings == []


def test_without_suppressions_a_suppressed_old_finding_is_old(tmp_path, git_env):
    summary = "experiments/lb/exp-1/test/summary.yaml"
    root = committed(tmp_path, {summary: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"
                                         "# penguin-lint: disable-file=PL303\n"})
    assert lint(root, summary).findings == []
    run = lint(root, "--no-suppress", summary)
    assert [(f["code"], f["line"], f["new"]) for f in run.findings] == [("PL303", 2, False)]


def test_a_dependent_finding_names_at_most_twenty_changed_paths(tmp_path, git_env):
    # 21 attempts in a new phase folder without its summary.yaml
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    attempt = (root / "experiments/lb/exp-1/test/attempt-1.yaml").read_text()
    for i in range(1, 22):
        path = root / f"experiments/lb/exp-1/val/attempt-{i}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(attempt)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a phase")
    [f] = lint(root, "--diff-base", "main").findings
    assert (f["code"], f["path"], f["scope"]) == ("PL301", "experiments/lb/exp-1/val/summary.yaml", "dependent")
    assert f["caused_by"] == sorted(f"experiments/lb/exp-1/val/attempt-{i}.yaml" for i in range(1, 22))[:20]


def test_outside_git_every_finding_of_the_paths_is_reported_with_no_verdict(tmp_path):
    summary = "experiments/lb/exp-1/test/summary.yaml"
    root = write_repo(tmp_path / "repo", {summary: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"}, VALID)
    run = lint(root, summary)
    assert [(f["code"], f["path"], f["line"], f["new"]) for f in run.findings] == [("PL303", summary, 2, None)]
    assert run.code == 1


ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"


def unknown(n):
    return f"  - source: CASE-{n}-none\n    score: 50.0\n"


def test_of_more_findings_alike_than_the_base_had_each_base_one_keeps_one_old(tmp_path, git_env):
    # main: two unknown sources; the change keeps the first where it was,
    # moves the second down and adds a third: one of the two left is old
    root = pull_request_repo(write_repo(tmp_path / "repo", {ATTEMPT: "score: 50.0\nresults:\n" + unknown(404)
                                                            + unknown(405)}, VALID))
    known = "  - source: CASE-001-one\n    score: 50.0\n"
    (root / ATTEMPT).write_text("score: 50.0\nresults:\n" + unknown(404) + known + unknown(405) + unknown(406))
    git(root, "commit", "-q", "-am", "change")
    run = lint(root, "--diff-base", "main")
    assert [(f["line"], f["new"]) for f in run.findings if f["code"] == "PL304"] == [(3, False), (7, False),
                                                                                       (9, True)]
