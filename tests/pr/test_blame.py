"""What a pull request is blamed for, in temporary git repositories whose
main branch already carries old debt: a change is blamed for the files it
touches and for what it breaks elsewhere, never for old findings in files
it does not touch; the configuration comes from the base."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


from tests.conftest import VALID, lint, pull_request_repo, write_repo  # noqa: E402

LB = "leaderboards/lb/leaderboard.yaml"
BENCH_A = "packages/bench-a/benchmark_config.toml"
EXP1 = "experiments/lb/exp-1"
EXP2 = "experiments/lb/exp-2"
EXP3 = "experiments/lb/exp-3"
TASK_A = "packages/bench-a/CASE-001-one"

ATTEMPT = """\
    score: 50.0
    results:
      - source: {source}
        score: 50.0
    """
SUMMARY = "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n"


def meta(exp, bench, model="m"):
    return (f"experiment_id: {exp}\nbenchmark_id: {bench}\nharness_name: h\n"
            f"model_name: {model}\nalgorithm: baseline\n")


# main: VALID plus a second benchmark, two more experiments and two old
# findings nobody's pull request should be blamed for:
# - exp-2's second attempt names a task bench-b never had (PL304);
# - the leaderboard's third value names an experiment that does not exist (PL401).
DEBT = {
    "packages/bench-b/benchmark_config.toml": VALID[BENCH_A].replace("bench-a", "bench-b"),
    "packages/bench-b/CASE-B1/task_config.toml": 'id = "CASE-B1"\ntitle = "B1"\ndescription = "d"\n',
    "packages/bench-b/CASE-B1/statement/README.md": "s\n",
    "packages/bench-b/CASE-B1/rubric/README.md": "r\n",
    f"{EXP2}/meta_info.yaml": meta("exp-2", "bench-b", model="m2"),
    f"{EXP2}/test/summary.yaml": SUMMARY,
    f"{EXP2}/test/attempt-1.yaml": ATTEMPT.format(source="CASE-B1"),
    f"{EXP2}/test/attempt-2.yaml": ATTEMPT.format(source="CASE-GONE"),
    f"{EXP3}/meta_info.yaml": meta("exp-3", "bench-b"),
    f"{EXP3}/test/summary.yaml": SUMMARY,
    f"{EXP3}/test/attempt-1.yaml": ATTEMPT.format(source="CASE-B1"),
    f"{EXP3}/test/attempt-2.yaml": ATTEMPT.format(source="CASE-B1"),
    LB: """\
        leaderboard_id: lb
        status: draft
        title: LB
        author:
          name: Lab
        values:
          - experiment_id: exp-2
            phase: test
          - op: mean
            args:
              - experiment_id: exp-1
                phase: test
              - experiment_id: exp-3
                phase: test
          - experiment_id: exp-missing
            phase: test
        """,
}
OLD_PL304 = (f"{EXP2}/test/attempt-2.yaml", 3)
OLD_PL401 = (LB, 15)


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc.stdout


@pytest.fixture(autouse=True)
def _identity(git_env):
    """Every test here commits (conftest's git_env)."""


@pytest.fixture
def debt(tmp_path):
    return pull_request_repo(write_repo(tmp_path / "repo", DEBT, VALID))


def edit(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def commit(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "change")


def test_the_debt_is_there_for_all(debt):
    run = lint(debt, "--all")
    assert OLD_PL304 in run.at("PL304") and OLD_PL401 in run.at("PL401")


def test_a_title_edit_is_blamed_for_nothing_outside_its_file(debt):
    edit(debt, BENCH_A, (debt / BENCH_A).read_text().replace('"Bench A"', '"Bench A, renamed"'))
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.findings == [] and run.code == 0
    # the pre-commit hook: the same file as a path, compared with HEAD
    edit(debt, BENCH_A, (debt / BENCH_A).read_text().replace("A benchmark.", "A fine benchmark."))
    hook = lint(debt, str(debt / BENCH_A))
    assert hook.findings == [] and hook.code == 0


def test_a_title_edit_re_checks_nothing_outside_its_file(debt):
    from penguin_lint.core.config import Config
    from penguin_lint.engine.context import Context
    from penguin_lint.core.repo import Repository
    from penguin_lint.rules import all_rules

    edit(debt, BENCH_A, (debt / BENCH_A).read_text().replace('"Bench A"', '"Bench B"'))
    repo = Repository(debt, Config())
    ctx = Context(repo, Config())
    deps = {d for r in all_rules() for d in r.affected_by(BENCH_A, ctx)}
    assert {d for d in deps if repo.entry(d) is not None} == set()
    assert repo.loads == 0  # not one experiment read to decide it


def test_a_removed_task_is_blamed_for_the_attempts_that_named_it(debt):
    shutil.rmtree(debt / TASK_A)
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert sorted(run.at("PL304")) == [(f"{EXP1}/test/attempt-1.yaml", 3), (f"{EXP1}/test/attempt-2.yaml", 3)]
    assert OLD_PL304 not in run.at("PL304")
    assert all(f["scope"] == "dependent" for f in run.findings if f["code"] == "PL304")


def test_a_task_folder_replaced_by_a_file_is_blamed_like_a_removed_task(debt):
    shutil.rmtree(debt / TASK_A)
    (debt / TASK_A).write_text("x\n")
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.code == 1
    assert sorted(run.at("PL304")) == [(f"{EXP1}/test/attempt-1.yaml", 3), (f"{EXP1}/test/attempt-2.yaml", 3)]


def test_a_consistent_experiment_update_leaves_the_leaderboards_old_findings_silent(debt):
    for n in (1, 2):
        edit(debt, f"{EXP1}/test/attempt-{n}.yaml", ATTEMPT.format(source="CASE-001-one").replace("50.0", "70.0"))
    edit(debt, f"{EXP1}/test/summary.yaml", SUMMARY.replace("50.0", "70.0"))
    commit(debt)
    run = lint(debt, "--diff-base", "main", fmt="text")
    assert run.code == 0, run.output
    assert "All checks passed" in run.output and "against main (" in run.output


def test_a_changed_model_name_is_blamed_for_the_new_leaderboard_finding(debt):
    edit(debt, f"{EXP1}/meta_info.yaml", meta("exp-1", "bench-a", model="other-model"))
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.at("PL403") == [(LB, 9)]  # the mean whose leaves now differ
    assert OLD_PL401 not in run.at("PL401")
    assert run.code == 1


def test_a_deleted_experiment_is_blamed_for_its_own_unresolved_leaf_only(debt):
    shutil.rmtree(debt / EXP3)
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.at("PL401") == [(LB, 13)]
    assert run.code == 1


def test_a_touched_file_keeps_all_its_findings(debt):
    edit(debt, LB, (debt / LB).read_text() + "# touched\n")
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.at("PL401") == [OLD_PL401]
    assert run.findings[0]["scope"] == "touched"


def test_new_only_hides_old_findings_in_touched_files_and_counts_them(debt):
    edit(debt, LB, (debt / LB).read_text().replace("title: LB", "title: The LB"))
    commit(debt)
    run = lint(debt, "--diff-base", "main", "--new-only")
    assert run.findings == [] and run.code == 0
    assert run.json["summary"]["hidden"] == 1
    text = lint(debt, "--diff-base", "main", "--new-only", fmt="text")
    assert "1 older finding in touched files not shown" in text.output
    # a new finding in the same file is still reported
    edit(debt, LB, (debt / LB).read_text().replace("status: draft", "status: drafty"))
    commit(debt)
    assert [f["code"] for f in lint(debt, "--diff-base", "main", "--new-only").findings] == ["PL103"]


def test_no_changes_names_the_base(debt):
    run = lint(debt, "--diff-base", "main", fmt="text")
    sha = git(debt, "rev-parse", "--short=7", "main").strip()
    assert run.output == f"No changes against main ({sha}).\n" and run.code == 0


BAD_TASK = 'id = "CASE-001-one"\ntitle = "One"\n'  # no description: PL101


@pytest.mark.parametrize("config, change, line", [
    ('ignore = ["PL"]\n', "is not valid ('select' and 'ignore' leave no rule enabled)", 1),
    ('ignore = ["PL1", "PL2", "PL3", "PL4"]\n', "ignore gains PL1, PL2, PL3, PL4", 1),
    ('select = ["PL5"]\n', "select gains PL5", 1),
    ('[per-file-ignores]\n"**" = ["PL1"]\n', "per-file-ignores gains '**' = PL1", 2),
    ('[layout]\npackages = "elsewhere"\n', "layout.packages changes from 'packages' to 'elsewhere'", 2),
    ('base-branch = "HEAD"\n', "base-branch changes from (unset) to 'HEAD'", 1),
])
def test_a_config_in_the_pull_request_cannot_switch_the_gate_off(debt, config, change, line):
    edit(debt, ".penguin-lint.toml", config)
    edit(debt, f"{TASK_A}/task_config.toml", BAD_TASK)
    commit(debt)
    for args in (("--diff-base", "main"), ()):
        run = lint(debt, *args)
        assert run.at("PL101") == [(f"{TASK_A}/task_config.toml", 1)], config
        assert run.code == 1
        pl502 = [f for f in run.findings if f["code"] == "PL502"]
        assert len(pl502) == 1 and change in pl502[0]["message"], pl502
        assert pl502[0]["path"] == ".penguin-lint.toml" and pl502[0]["line"] == line
        # an invalid file would stop every run once merged: the pull request's error
        assert pl502[0]["severity"] == ("error" if "is not valid" in change else "warning")


def test_the_worktree_config_on_request(debt):
    edit(debt, ".penguin-lint.toml", 'ignore = ["PL1"]\n')
    edit(debt, f"{TASK_A}/task_config.toml", BAD_TASK)
    commit(debt)
    run = lint(debt, "--diff-base", "main", "--config-from-worktree")
    assert run.at("PL101") == [] and run.code == 0
    assert run.codes() == ["PL502"]
    assert "this run uses it as it is in the working tree" in run.findings[0]["message"]


def test_a_config_changed_on_main_is_used_and_not_reported(debt):
    git(debt, "checkout", "-q", "main")
    edit(debt, ".penguin-lint.toml", 'ignore = ["PL101"]\n')
    commit(debt)
    git(debt, "checkout", "-q", "-b", "feature-2")
    edit(debt, f"{TASK_A}/task_config.toml", BAD_TASK)
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert run.findings == [] and run.code == 0


def test_a_deleted_or_broken_config_is_reported_and_the_base_used(debt):
    git(debt, "checkout", "-q", "main")
    edit(debt, ".penguin-lint.toml", 'ignore = ["PL207"]\n')
    commit(debt)
    git(debt, "checkout", "-q", "-b", "feature-2")
    (debt / ".penguin-lint.toml").unlink()
    edit(debt, f"{TASK_A}/task_config.toml", BAD_TASK)
    commit(debt)
    run = lint(debt, "--diff-base", "main")
    assert [f["code"] for f in run.findings] == ["PL502", "PL101"] or sorted(run.codes()) == ["PL101", "PL502"]
    assert any("is deleted" in f["message"] for f in run.findings)
    edit(debt, ".penguin-lint.toml", "select = [\n")
    run = lint(debt, "--diff-base", "main")
    assert run.code == 1 and sorted(run.codes()) == ["PL101", "PL502"]
    assert any("is not valid" in f["message"] for f in run.findings)


def test_a_diff_run_writes_nothing_into_git(debt):
    edit(debt, LB, (debt / LB).read_text() + "# touched\n")
    index = debt / ".git" / "index"
    before = (index.stat().st_mtime_ns, index.read_bytes())
    lint(debt, "--diff-base", "main")
    lint(debt, str(debt / LB))
    assert (index.stat().st_mtime_ns, index.read_bytes()) == before


def _subcommands(calls) -> list:
    return [next(a for a in c.split() if not a.startswith("-") and "=" not in a) for c in calls]


def test_a_diff_run_asks_git_once_per_question(debt, git_calls):
    # revisions are resolved and both commits' trees read through one cat-file
    edit(debt, LB, (debt / LB).read_text() + "# touched\n")
    commit(debt)
    edit(debt, f"{EXP1}/test/summary.yaml", (debt / EXP1 / "test/summary.yaml").read_text() + "# touched\n")
    before = len(git_calls())  # the commit above
    assert lint(debt).code in (0, 1)
    calls = git_calls()[before:]
    assert _subcommands(calls) == ["rev-parse", "cat-file", "merge-base", "diff-tree", "status"], calls


def test_a_path_run_asks_git_for_its_top_and_head_only(debt, git_calls):
    assert lint(debt, str(debt / LB)).code in (0, 1)
    assert _subcommands(git_calls()) == ["rev-parse", "cat-file"], git_calls()


# -- precise dependencies: an unrelated edit re-checks nothing -----------------------------

UNRELATED = {
    # rule code -> edits (of files that stay) that cannot change its verdict elsewhere
    "PL206": [BENCH_A, f"{TASK_A}/task_config.toml"],
    "PL207": [BENCH_A, f"{TASK_A}/task_config.toml"],
    "PL302": [f"{EXP1}/meta_info.yaml", LB],
    "PL303": [f"{EXP1}/meta_info.yaml", LB, f"{EXP1}/test/summary.yaml"],
    "PL304": [BENCH_A, f"{TASK_A}/task_config.toml", f"{TASK_A}/rubric/README.md"],
    "PL305": [f"{EXP1}/test/attempt-1.yaml", BENCH_A, LB],
    "PL306": [f"{EXP1}/test/attempt-1.yaml", BENCH_A],
    "PL307": [BENCH_A, f"{TASK_A}/task_config.toml"],
    "PL308": [f"{EXP1}/meta_info.yaml", LB],
    "PL401": [f"{EXP1}/test/attempt-1.yaml", BENCH_A, f"{TASK_A}/task_config.toml"],
    "PL605": [LB, BENCH_A],
}


@pytest.mark.parametrize("code", sorted(UNRELATED))
def test_an_unrelated_edit_re_checks_nothing_for(code, debt):
    from penguin_lint.pr.basetree import BaseRepository, GitTree
    from penguin_lint.core.config import Config
    from penguin_lint.engine.context import Context
    from penguin_lint.core.repo import Repository
    from penguin_lint.rules import get_rule

    head = git(debt, "rev-parse", "HEAD").strip()
    rule = get_rule(code)
    for path in UNRELATED[code]:
        edit(debt, path, (debt / path).read_text() + "# edited\n")
        repo = Repository(debt, Config())
        ctx = Context(repo, Config())
        ctx.base = BaseRepository(GitTree(str(debt), head), debt, Config())
        try:
            assert list(rule.affected_by(path, ctx)) == [], (code, path)
        finally:
            ctx.base.close()
        assert repo.loads == 0, (code, path)


def test_the_dependencies_that_do_matter_are_still_followed(debt):
    from penguin_lint.core.config import Config
    from penguin_lint.engine.context import Context
    from penguin_lint.core.repo import Repository
    from penguin_lint.rules import get_rule

    shutil.rmtree(debt / EXP3)
    (debt / BENCH_A).unlink()
    shutil.rmtree(debt / "packages/bench-b")
    ctx = Context(Repository(debt, Config()), Config())
    assert list(get_rule("PL401").affected_by(f"{EXP3}/test/summary.yaml", ctx)) == [LB]
    assert list(get_rule("PL401").affected_by(f"{EXP1}/meta_info.yaml", ctx)) == [LB]
    assert sorted(get_rule("PL307").affected_by("packages/bench-b/benchmark_config.toml", ctx)) == [
        f"{EXP2}/meta_info.yaml"]
    assert sorted(get_rule("PL304").affected_by("packages/bench-b/CASE-B1/task_config.toml", ctx)) == [
        f"{EXP2}/test/attempt-1.yaml", f"{EXP2}/test/attempt-2.yaml"]


def test_a_path_run_outside_git_does_not_call_a_dependent_s_finding_a_change(tmp_path):
    """Outside git nothing tells old from new: a leaderboard that reads the
    path is still re-checked, but its finding is not worded as the path's doing."""
    root = tmp_path / "r"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "repo", root,
                    ignore=shutil.ignore_patterns(".penguin-lint-cache"))
    summary = "experiments/code-eval/sql-puzzles-baseline-qwen-coder-14b-20261031/test/summary.yaml"
    run = lint(root, str(root / summary), fmt="text")
    assert run.code == 1
    assert (f"note: in a file that reads {summary} (no base to compare with: it may have been there before)"
            in run.output), run.output
    assert "after your change" not in run.output
    (f,) = [f for f in lint(root, str(root / summary)).findings if f["path"] == "leaderboards/code-eval/leaderboard.yaml"]
    assert (f["scope"], f["new"], f["caused_by"]) == ("dependent", None, [summary])
