"""A leaderboard re-checked in a pull-request run only because one of its
experiments changed is checked in focus (focus.py): only the values whose
leaves read what the change touched are looked at, here and in the base.
Every finding the change introduces is still reported, old debt in other
values is neither reported nor read, and a touched leaderboard, like a path
run, is still checked whole."""
from __future__ import annotations

import shutil
from pathlib import Path
from textwrap import dedent, indent

import pytest

from tests.conftest import VALID, lint, pull_request_repo, write_repo
from tests.pr.test_blame import ATTEMPT, SUMMARY, commit, edit, git, meta

LB = "leaderboards/lb/leaderboard.yaml"
EXP = "experiments/lb"


def package(bench: str, task: str) -> dict:
    return {
        f"packages/{bench}/benchmark_config.toml": VALID["packages/bench-a/benchmark_config.toml"].replace(
            "bench-a", bench),
        f"packages/{bench}/{task}/task_config.toml": f'id = "{task}"\ntitle = "T"\ndescription = "d"\n',
        f"packages/{bench}/{task}/statement/README.md": "s\n",
        f"packages/{bench}/{task}/rubric/README.md": "r\n",
    }


def experiment(exp: str, bench: str, task: str, model: str, summary: str = SUMMARY) -> dict:
    return {
        f"{EXP}/{exp}/meta_info.yaml": meta(exp, bench, model=model),
        f"{EXP}/{exp}/test/summary.yaml": summary,
        f"{EXP}/{exp}/test/attempt-1.yaml": ATTEMPT.format(source=task),
        f"{EXP}/{exp}/test/attempt-2.yaml": ATTEMPT.format(source=task),
    }


BOARD = """\
    leaderboard_id: lb
    status: draft
    title: LB
    author:
      name: Lab
    values:
      - experiment_id: exp-1
        phase: test
      - op: mean
        args:
          - experiment_id: exp-2
            phase: test
          - experiment_id: exp-3
            phase: test
      - op: div
        args:
          - experiment_id: exp-4
            phase: test
          - experiment_id: exp-8
            phase: test
            metric: speed
      - experiment_id: exp-missing
        phase: test
      - experiment_id: exp-5
        phase: test
        metric: score_avg
      - experiment_id: exp-6
        phase: test
      - experiment_id: exp-7
        phase: test
    """
# Lines of the board above.
EXP1_LINE, MEAN_LINE, EXP3_LINE, SPEED_LINE, EXP6_LINE = 7, 9, 13, 19, 27
# main's old debt, in values no change below touches.
OLD = {("PL401", 22), ("PL402", 26), ("PL407", 29)}

MAIN = {
    **package("bench-b", "CASE-B1"), **package("bench-c", "CASE-C1"),
    **experiment("exp-2", "bench-b", "CASE-B1", "m2"),
    **experiment("exp-3", "bench-c", "CASE-C1", "m2"),
    **experiment("exp-4", "bench-a", "CASE-001-one", "m4"),
    **experiment("exp-8", "bench-c", "CASE-C1", "m4", SUMMARY + "speed: 2.0\n"),
    # score_avg is not a metric of its summary: old PL402
    **experiment("exp-5", "bench-a", "CASE-001-one", "m5"),
    # exp-6 and exp-7 carry the same label: old PL407 on exp-7's value
    **experiment("exp-6", "bench-a", "CASE-001-one", "m6"),
    **experiment("exp-7", "bench-a", "CASE-001-one", "m6"),
    # referenced by no value: an old PL306 warning on main
    **experiment("exp-lone", "bench-a", "CASE-001-one", "m8"),
    LB: BOARD,
}


@pytest.fixture(autouse=True)
def _identity(git_env):
    """Every test here commits (conftest's git_env)."""


@pytest.fixture
def board(tmp_path):
    return pull_request_repo(write_repo(tmp_path / "repo", MAIN, VALID))


@pytest.fixture
def reads(monkeypatch):
    """The files parsed in this process: {"head": [...], "base": [...]}."""
    import penguin_lint.pr.basetree as basetree_mod
    import penguin_lint.core.repo as repo_mod

    seen = {"head": [], "base": []}
    load_file, load_bytes = repo_mod.load_file, basetree_mod.load_bytes

    def head(abs_path, rel, limit):
        seen["head"].append(rel)
        return load_file(abs_path, rel, limit)

    def base(raw, rel):
        seen["base"].append(rel)
        return load_bytes(raw, rel)

    monkeypatch.setattr(repo_mod, "load_file", head)
    monkeypatch.setattr(basetree_mod, "load_bytes", base)
    return seen


def experiments_read(paths) -> set:
    return {p.split("/")[2] for p in paths if p.startswith(EXP + "/")}


def board_findings(run) -> set:
    return {(f["code"], f["line"]) for f in run.findings if f["path"] == LB}


def summary(root: Path, exp: str, **values) -> None:
    text = (root / f"{EXP}/{exp}/test/summary.yaml").read_text()
    for key, value in values.items():
        lines = [ln for ln in text.splitlines() if not ln.startswith(key + ":")]
        text = "\n".join(lines + [f"{key}: {value}"]) + "\n"
    edit(root, f"{EXP}/{exp}/test/summary.yaml", text)


def test_main_has_the_old_debt(board):
    run = lint(board, "--all")
    assert OLD <= board_findings(run)
    assert run.at("PL306") == [(f"{EXP}/exp-lone/meta_info.yaml", 1)]


# (what the pull request does, finding it brings into the board, the
# experiments whose files may be read: the values in view and the change;
# with "+labels", every meta_info.yaml too, for PL407)
BREAKS = {
    "a string metric": (lambda r: summary(r, "exp-1", score_mean='"high"'),
                        ("PL402", EXP1_LINE), {"exp-1"}),
    "a zero denominator": (lambda r: summary(r, "exp-8", speed=0),
                           ("PL406", SPEED_LINE), {"exp-4", "exp-8"}),
    "a different attempt count": (lambda r: summary(r, "exp-3", n_attempt=3),
                                  ("PL408", MEAN_LINE), {"exp-2", "exp-3"}),
    "a deleted summary": (lambda r: (r / f"{EXP}/exp-3/test/summary.yaml").unlink(),
                          ("PL401", EXP3_LINE + 1), {"exp-2", "exp-3"}),
    "another model in one expression": (
        lambda r: edit(r, f"{EXP}/exp-3/meta_info.yaml", meta("exp-3", "bench-c", model="m9")),
        ("PL403", MEAN_LINE), {"exp-2", "exp-3", "+labels"}),
    "a renamed experiment": (lambda r: git(r, "mv", f"{EXP}/exp-3", f"{EXP}/exp-9"),
                             ("PL401", EXP3_LINE), {"exp-2", "exp-3", "exp-9", "+labels"}),
}


@pytest.mark.parametrize("what", sorted(BREAKS))
def test_a_broken_value_is_reported_at_its_line_and_nothing_old(board, reads, what):
    change, (code, line), in_view = BREAKS[what]
    change(board)
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    assert board_findings(run) == {(code, line)}, run.findings
    assert run.code == 1
    # neither side read an experiment of another value (PL407 aside, which
    # compares labels across all values: their meta_info.yaml files only)
    def judged(paths):
        return [p for p in paths if "+labels" not in in_view or not p.endswith("/meta_info.yaml")]

    assert experiments_read(judged(reads["head"])) <= in_view
    # the base is read for the board's values in view alone (the new finding
    # has no fingerprint there), and for the touched file's own verdict (is
    # its finding old?): nothing of another value
    assert reads["base"] and experiments_read(judged(reads["base"])) <= in_view
    assert {p for p in judged(reads["base"]) if not p.startswith(EXP + "/")} <= {LB}


def test_a_clean_summary_edit_reads_only_its_own_value(board, reads):
    summary(board, "exp-1", score_std="0.0  # rerun")
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    assert run.findings == [] and run.code == 0
    # the board, its first value's meta_info.yaml, and the summary with the
    # attempts it is checked against; not one file of the six other values
    assert set(reads["head"]) == {LB, f"{EXP}/exp-1/meta_info.yaml"} | {
        f"{EXP}/exp-1/test/{f}" for f in ("attempt-1.yaml", "attempt-2.yaml", "summary.yaml")}
    assert reads["base"] == []  # no finding in view: nothing to subtract


def test_a_deleted_experiment_referenced_by_the_board_gives_pl401(board, reads):
    shutil.rmtree(board / f"{EXP}/exp-8")
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    pl401 = [f for f in run.findings if f["code"] == "PL401"]
    assert [(f["path"], f["line"]) for f in pl401] == [(LB, SPEED_LINE)]
    assert "experiment 'exp-8' does not exist" in pl401[0]["message"]
    assert board_findings(run) == {("PL401", SPEED_LINE)} and run.code == 1
    # the experiment's meta_info.yaml is gone: labels are compared (meta_info
    # files), but no other value's summary is read, here or in the base
    assert not [p for p in reads["head"] + reads["base"]
                if p.endswith("summary.yaml") and experiments_read([p]) - {"exp-4", "exp-8"}]


def test_a_meta_info_edit_that_keeps_the_label_reads_no_other_value(board, reads):
    edit(board, f"{EXP}/exp-2/meta_info.yaml", meta("exp-2", "bench-b", model="m2") + "# reviewed\n")
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    assert run.findings == [] and run.code == 0
    # the touched meta_info.yaml is read on both sides to compare the label
    # fields; PL407 does not run, the other values are not read
    assert experiments_read(reads["head"]) == {"exp-2", "exp-3"}
    assert reads["base"] == [f"{EXP}/exp-2/meta_info.yaml"]


def test_a_new_label_that_repeats_a_value_out_of_view_is_reported_there(board, reads):
    # exp-1's value now carries exp-6's label: PL407 lands on exp-6's value,
    # which references nothing the change touched.
    edit(board, f"{EXP}/exp-1/meta_info.yaml", meta("exp-1", "bench-a", model="m6"))
    commit(board)
    run = lint(board, "--diff-base", "main")
    # One new PL407 (exp-7's value already repeated exp-6's label on main).
    # Which of the two equal fingerprints is taken for the old one is the
    # base comparison's choice, so the line is not asserted.
    pl407 = [f for f in run.findings if f["code"] == "PL407"]
    assert len(pl407) == 1 and pl407[0]["path"] == LB and run.code == 0
    assert "the same label (h, m6, baseline, test) as value 1 (line 7)" in pl407[0]["message"]
    assert board_findings(run) == {("PL407", pl407[0]["line"])}


def test_a_touched_leaderboard_is_checked_whole(board, reads):
    edit(board, LB, (board / LB).read_text() + "# touched\n")
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    assert board_findings(run) == OLD  # its own findings, old ones included
    assert experiments_read(reads["head"]) >= {"exp-1", "exp-4", "exp-5", "exp-6", "exp-7"}


def test_an_experiment_no_value_references_reads_nothing_else(board, reads):
    summary(board, "exp-lone", score_std="0.0  # rerun")
    new = experiment("exp-new", "bench-a", "CASE-001-one", "m9")
    for path, text in new.items():
        edit(board, path, text)
    commit(board)
    reads["head"].clear()
    run = lint(board, "--diff-base", "main")
    # the new experiment is reported where it is; the old warning on
    # exp-lone is in a file the change did not touch
    assert run.at("PL306") == [(f"{EXP}/exp-new/meta_info.yaml", 1)]
    assert board_findings(run) == set() and run.code == 0
    # the board is read, none of the experiments its values reference
    assert LB in reads["head"]
    assert experiments_read(reads["head"]) == {"exp-lone", "exp-new"}
    assert experiments_read(reads["base"]) <= {"exp-lone"}


def test_an_experiment_under_a_hidden_group_names_no_leaderboard(tmp_path):
    # experiments/.hidden/ is no leaderboard's group: its name is never
    # joined into a leaderboard's path, even where that file exists
    hidden = "leaderboards/.hidden/leaderboard.yaml"
    board = pull_request_repo(write_repo(tmp_path / "repo", {**MAIN, hidden: BOARD}, VALID))
    edit(board, "experiments/.hidden/exp-1/meta_info.yaml", meta("exp-1", "bench-a", model="m1"))
    commit(board)
    run = lint(board, "--diff-base", "main")
    assert run.stderr == "" and [f for f in run.findings if f["path"] == hidden] == []


def test_a_path_run_checks_the_leaderboard_whole(board, reads):
    summary(board, "exp-1", score_mean='"high"')
    run = lint(board, str(board / f"{EXP}/exp-1/test/summary.yaml"))
    assert ("PL402", EXP1_LINE) in board_findings(run)
    assert experiments_read(reads["head"]) >= {"exp-5", "exp-7"}


@pytest.mark.parametrize("what", sorted(BREAKS) + ["clean"])
def test_focus_reports_what_a_whole_check_reports(board, monkeypatch, what):
    if what != "clean":
        BREAKS[what][0](board)
    else:
        summary(board, "exp-6", score_std="0.0  # rerun")
    commit(board)
    focused = lint(board, "--diff-base", "main")
    import penguin_lint.pr.focus as focus_mod

    monkeypatch.setattr(focus_mod, "leaderboard_focus", lambda *a: None)
    whole = lint(board, "--diff-base", "main")
    assert focused.output == whole.output
    assert focused.code == whole.code


def _two_zero_denominators_on_main(board) -> None:
    git(board, "checkout", "-q", "main")
    edit(board, LB, (board / LB).read_text() + indent(dedent("""\
        - op: div
          args:
            - experiment_id: exp-6
              phase: test
            - experiment_id: exp-7
              phase: test
              metric: zero
        """), "  "))
    summary(board, "exp-7", zero=0)
    commit(board)
    git(board, "checkout", "-q", "-B", "feature")


def test_a_new_zero_denominator_is_told_from_an_old_one_with_the_same_message(board):
    # main gains a later value dividing by 0, with the same message as the
    # new one. Out of view, the old one is not even computed: the new one is
    # reported at its own line.
    _two_zero_denominators_on_main(board)
    assert ("PL406", 35) in board_findings(lint(board, "--all"))
    summary(board, "exp-8", speed=0)
    commit(board)
    run = lint(board, "--diff-base", "main")
    assert board_findings(run) == {("PL406", SPEED_LINE)} and run.code == 1


def test_odd_values_in_a_dependent_board_are_left_to_the_schema_rules(board):
    # Ids and phases that are not names cannot be in focus, nor break it.
    git(board, "checkout", "-q", "main")
    edit(board, LB, (board / LB).read_text() + indent(dedent("""\
        - experiment_id: [exp-1]
          phase: {test: 1}
        - 42
        - op: mean
          args: not-a-list
        - op: mean
          args: [{experiment_id: exp-1, phase: [test]}, 7]
        """), "  "))
    commit(board)
    git(board, "checkout", "-q", "-B", "feature")
    summary(board, "exp-1", score_mean='"high"')
    commit(board)
    run = lint(board, "--diff-base", "main")
    assert board_findings(run) == {("PL402", EXP1_LINE)} and run.code == 1


def test_of_two_equal_findings_in_a_whole_check_the_new_one_is_reported(board):
    # The board is touched, so it is checked whole: the old PL406 (line 35)
    # and the new one (its message equal but for nothing) are told apart by
    # the key path of each.
    _two_zero_denominators_on_main(board)
    edit(board, LB, (board / LB).read_text() + "# touched\n")
    summary(board, "exp-8", speed=0)
    commit(board)
    run = lint(board, "--diff-base", "main", "--new-only")
    assert board_findings(run) == {("PL406", SPEED_LINE)}


def test_a_value_added_above_old_debt_leaves_the_debt_old(board):
    # Every old finding moves down two lines and one list index: matched
    # again without the key path, none of them is blamed on the change.
    text = (board / LB).read_text().replace("values:\n", "values:\n  - experiment_id: exp-lone\n    phase: test\n", 1)
    edit(board, LB, text)
    commit(board)
    run = lint(board, "--diff-base", "main", "--new-only")
    assert board_findings(run) == set()
    # the debt is there, two lines down
    assert {(c, line + 2) for c, line in OLD} <= board_findings(lint(board, "--all"))
