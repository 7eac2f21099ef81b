"""penguin-lint preview: RFC-0005's numbers, checked by hand, and before -> after."""
from __future__ import annotations

import json
import math
import shutil
import textwrap
from pathlib import Path

import pytest

from penguin_lint import preview
from penguin_lint.core.config import Config
from penguin_lint.core.repo import Repository
from tests.conftest import VALID as _VALID, lint, write_repo

VALID = {k: textwrap.dedent(v) for k, v in _VALID.items()}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def rows_by_model(board):
    return {r.label["model_name"]: r for r in board.rows}


def test_clean_example_by_hand():
    b = preview.board(Repository(EXAMPLES / "clean", Config()), "unit-test-gen")
    ds, qw = b.rows
    # attempts 52.5, 57.5, 47.5: mean 52.5, sample std sqrt((0 + 25 + 25) / 2) = 5
    assert (ds.rank, ds.mean, ds.std, ds.std_formula) == (1, 52.5, 5.0, "per-attempt")
    # attempts 40, 42.5, 45: mean 42.5, std sqrt((6.25 + 0 + 6.25) / 2) = 2.5
    assert (qw.rank, qw.mean, qw.std, qw.std_formula) == (2, 42.5, 2.5, "per-attempt")
    assert ds.label == {"harness_name": "penguin-harness", "model_name": "deepseek-flash-1017",
                        "algorithm": "baseline", "phase": "test"}
    assert ds.axes == {"cost": 2.898, "duration_ms": 2161505, "token": 1007908}
    assert qw.axes == {"duration_ms": 2398799}  # no cost or token in that summary


def test_repo_example_per_attempt_composites_by_hand():
    b = preview.board(Repository(EXAMPLES / "repo", Config()), "code-eval")
    base, mixed, skill = b.rows
    # mean of the summaries' score_mean (72.5 and 71.6666666667, as they will be rendered)
    assert base.mean == pytest.approx((72.5 + 71.6666666667) / 2, abs=1e-12)
    # Y_j = (S_1j + S_2j) / 2 = 70, 71.25, 71.25
    ys = [(70 + 70) / 2, (72.5 + 70) / 2, (75 + 67.5) / 2]
    ybar = sum(ys) / 3
    assert base.std == pytest.approx(math.sqrt(sum((y - ybar) ** 2 for y in ys) / 2), abs=1e-12)
    assert base.std_formula == "per-attempt" and base.n_attempt == 3
    assert base.axes["cost"] == pytest.approx(2.6252 + 2.4214)
    # two attempts: Y = 56.25, 57.5 -> std = 1.25 / sqrt(2)
    assert mixed.std == pytest.approx(1.25 / math.sqrt(2), abs=1e-12)
    assert mixed.warning == "leaves differ in model_name (PL403)"
    assert skill.mean == 83.75 and skill.std == pytest.approx(2.5 / math.sqrt(2))
    assert [r.rank for r in (skill, base, mixed)] == [1, 2, 3]


def lb_with(values: str) -> dict:
    head = "leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"
    return {"leaderboards/lb/leaderboard.yaml": head + textwrap.indent(textwrap.dedent(values), "  ")}


def experiment(eid, scores, model="m", std=None, extra=""):
    n = len(scores)
    mean = sum(scores) / n
    if std is None and n > 1:
        std = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    files = {
        f"experiments/lb/{eid}/meta_info.yaml":
            f"experiment_id: {eid}\nbenchmark_id: bench-{eid}\nharness_name: h\nmodel_name: {model}\nalgorithm: a\n",
        f"experiments/lb/{eid}/test/summary.yaml":
            f"n_attempt: {n}\nscore_mean: {mean!r}\n" + (f"score_std: {std!r}\n" if std is not None else "") + extra,
    }
    for j, s in enumerate(scores, 1):
        files[f"experiments/lb/{eid}/test/attempt-{j}.yaml"] = f"score: {s!r}\nresults: []\n"
    return files


def build(tmp_path, name, files) -> Repository:
    root = write_repo(tmp_path / name, files, {})
    return Repository(root, Config())


def test_independent_formula_when_n_attempt_differs(tmp_path):
    files = {**experiment("x", [10.0, 20.0, 30.0]), **experiment("y", [50.0, 70.0])}
    files.update(lb_with("""\
        - op: weighted_mean
          weights: [3, 1]
          args:
            - {experiment_id: x, phase: test}
            - {experiment_id: y, phase: test}
        """))
    (row,) = preview.board(build(tmp_path, "r", files), "lb").rows
    # w = 3/4 and 1/4; s_x = 10, s_y = sqrt(200)
    assert row.mean == pytest.approx(0.75 * 20 + 0.25 * 60)
    assert row.std == pytest.approx(math.sqrt(0.75 ** 2 * 100 + 0.25 ** 2 * 200))
    assert row.std_formula == "independent"


def test_sub_and_sum_weights_in_the_per_attempt_formula(tmp_path):
    files = {**experiment("x", [10.0, 14.0]), **experiment("y", [1.0, 9.0]), **experiment("z", [2.0, 2.0])}
    files.update(lb_with("""\
        - op: sub
          args:
            - {op: sum, args: [{experiment_id: x, phase: test}, {experiment_id: z, phase: test}]}
            - {experiment_id: y, phase: test}
        """))
    (row,) = preview.board(build(tmp_path, "r", files), "lb").rows
    ys = [10 + 2 - 1, 14 + 2 - 9]  # 11, 7
    assert row.mean == pytest.approx(9.0)
    assert row.std == pytest.approx(abs(ys[0] - ys[1]) / math.sqrt(2))
    assert row.std_formula == "per-attempt"


def test_broken_leaf_and_division_by_zero_say_why(tmp_path):
    files = {**experiment("x", [10.0, 14.0]), **experiment("zero", [0.0, 0.0])}
    files.update(lb_with("""\
        - {experiment_id: gone, phase: test}
        - op: div
          args: [{experiment_id: x, phase: test}, {experiment_id: zero, phase: test}]
        - {experiment_id: x, phase: test, metric: accuracy}
        - {experiment_id: x, phase: val}
        """))
    rows = preview.board(build(tmp_path, "r", files), "lb").rows
    assert [r.problem for r in rows] == [
        "experiment 'gone' does not exist", "division by zero",
        "experiments/lb/x/test/summary.yaml has no 'accuracy'", "'x' has no val/summary.yaml"]
    assert all(r.mean is None and r.rank is None for r in rows)
    text = preview.render_text([preview.board(build(tmp_path, "r2", files), "lb")])
    assert "experiment 'gone' does not exist" in text and " n/a " in text


def test_pull_request_before_and_after(tmp_path):
    base_files = {**experiment("a", [50.0, 60.0], model="m1"), **experiment("b", [70.0, 80.0], model="m2"),
                  **experiment("c", [10.0, 20.0], model="m3")}
    base_files.update(lb_with("""\
        - {experiment_id: a, phase: test}
        - {experiment_id: b, phase: test}
        - {experiment_id: c, phase: test}
        """))
    head_files = dict(base_files)
    # the pull request re-runs a (now first), removes c and adds d
    head_files.update(experiment("a", [90.0, 100.0], model="m1"))
    for k in [k for k in head_files if k.startswith("experiments/lb/c/")]:
        del head_files[k]
    head_files.update(experiment("d", [40.0, 40.0], model="m4"))
    head_files.update(lb_with("""\
        - {experiment_id: a, phase: test}
        - {experiment_id: b, phase: test}
        - {experiment_id: d, phase: test}
        """))
    before, after = build(tmp_path, "base", base_files), build(tmp_path, "head", head_files)
    ((b, a, changes),) = preview.compare_repos(before, after)
    kinds = {c.key: c.kind for c in changes}
    assert kinds == {"h / m1 / a / test": "changed", "h / m2 / a / test": "changed",
                     "h / m4 / a / test": "added", "h / m3 / a / test": "removed"}
    a_change = next(c for c in changes if c.key == "h / m1 / a / test")
    assert (a_change.before.mean, a_change.after.mean) == (55.0, 95.0)
    assert (a_change.before.rank, a_change.after.rank) == (2, 1)
    assert a_change.fields == ["mean", "rank"]
    md = preview.render_changes_markdown([(b, a, changes)])
    assert "| changed | h / m1 / a / test | 2 → 1 (▲1) | 55.0000 → 95.0000 |" in md
    assert "| added | h / m4 / a / test | - → 3 | - → 40.0000 |" in md
    assert "| removed | h / m3 / a / test | 3 → - | 15.0000 → - |" in md


def test_preview_command_formats(tmp_path):
    run = lint(None, "preview", "--root", str(EXAMPLES / "clean"))
    assert run.code == 0
    lines = run.output.splitlines()
    assert lines[1].split() == ["rank", "harness", "model", "algorithm", "phase", "mean", "std",
                                "cost", "duration_ms", "token", "note"]
    assert lines[2].split()[:7] == ["1", "penguin-harness", "deepseek-flash-1017", "baseline", "test",
                                    "52.5000", "5.0000"]
    doc = json.loads(lint(None, "preview", "--root", str(EXAMPLES / "repo"), "--format", "json").output)
    (board,) = doc["leaderboards"]
    assert [r["rank"] for r in board["rows"]] == [2, 3, 1]
    assert board["rows"][0]["std_formula"] == "per-attempt"
    md = lint(None, "preview", "--root", str(EXAMPLES / "repo"), "--format", "markdown").output
    assert md.startswith("### code-eval: Code Evaluation Leaderboard\n")


def test_preview_command_before(tmp_path):
    head = tmp_path / "head"
    shutil.copytree(EXAMPLES / "repo", head)
    summary = head / "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    summary.write_text(summary.read_text().replace("71.6666666667", "69.1666666667"))
    run = lint(None, "preview", "--root", str(head), "--before", str(EXAMPLES / "repo"))
    assert run.code == 0
    assert run.output.splitlines() == [
        "leaderboard code-eval (leaderboards/code-eval/leaderboard.yaml)",
        "  changed   penguin-harness / deepseek-flash-1017 / baseline / test  rank 2  "
        "mean 72.0833 → 70.8333  (mean)"]


def test_preview_unknown_leaderboard_is_a_usage_error():
    run = lint(None, "preview", "--root", str(EXAMPLES / "clean"), "nope")
    assert run.code == 2 and "no leaderboard 'nope'" in run.stderr


def test_markdown_cannot_carry_links_or_html(tmp_path):
    files = experiment("x", [1.0, 2.0], model="'[click](http://evil)<img>|'")
    files.update(lb_with("- {experiment_id: x, phase: test}\n"))
    out = preview.render_markdown([preview.board(build(tmp_path, "r", files), "lb")])
    assert "| `[click](http://evil)<img>\\|` |" in out  # a code span, its | escaped for the table


def test_pull_request_summary_names_only_the_boards_a_change_touches(tmp_path):
    files = {**experiment("a", [50.0, 60.0], model="m1")}
    files.update(lb_with("- {experiment_id: a, phase: test}\n"))
    other = {k.replace("/lb/", "/lb2/").replace("leaderboard_id: lb", "leaderboard_id: lb2"): v
             for k, v in files.items()}
    base = build(tmp_path, "base", {**files, **other})
    head_files = {**files, **other, **experiment("a", [70.0, 80.0], model="m1")}
    head = build(tmp_path, "head", head_files)
    changed = ["experiments/lb/a/test/summary.yaml", "experiments/lb/a/test/attempt-1.yaml", "README.md"]
    assert preview.affected_leaderboards(changed, head.layout) == ["lb"]
    md = preview.pull_request_summary(base, head, changed)
    assert md.startswith("## Leaderboards\n\n### lb: LB\n")
    assert "| changed | h / m1 / a / test | 1 | 55.0000 → 75.0000 |" in md
    assert "lb2" not in md
    assert preview.pull_request_summary(base, head, ["README.md"]) == ""


def test_hostile_numbers_and_shapes_say_why(tmp_path):
    files = {**experiment("x", [1.0, 1.0]), **experiment("y", [1.0, 1.0]), **experiment("z", [1.0, 2.0, 3.0])}
    for e in ("x", "y"):  # attempts say otherwise; the board reads the summary
        files[f"experiments/lb/{e}/test/summary.yaml"] = (
            "n_attempt: 2\nscore_mean: 1.0e+308\nscore_std: 1.0e+308\ncost: 1.0e+308\n")
    files["experiments/lb/z/test/summary.yaml"] = "n_attempt: 3\nscore_mean: 2.0\nscore_std: 1.0e+308\n"
    files.update(lb_with("""\
        - op: sum
          args: [{experiment_id: x, phase: test}, {experiment_id: y, phase: test}]
        - op: sum
          args: [{experiment_id: x, phase: test}, {experiment_id: z, phase: test}]
        - op: weighted_mean
          weights: ["a", 1]
          args: [{experiment_id: x, phase: test}, {experiment_id: y, phase: test}]
        - "not an expression"
        - {op: mean, args: {}}
        - {op: pow, args: [{experiment_id: x, phase: test}]}
        """))
    rows = preview.board(build(tmp_path, "r", files), "lb").rows
    assert rows[0].mean is None and rows[0].problem == "the value is too large to compute"
    # n_attempt differs (2 and 3): the independent formula, whose squares overflow
    assert rows[1].mean == 1e308 and rows[1].std is None and rows[1].std_note == "too large to compute"
    assert rows[2].problem.startswith("weights are missing or invalid")
    assert rows[3].problem == "not an expression (a leaf or an operation)"
    assert rows[4].problem == "'mean' has no list of args"
    assert rows[5].problem == "unknown op 'pow'"
    json.loads(preview.render_json([preview.board(build(tmp_path, "r2", files), "lb")]))


def test_no_output_line_starts_with_text_from_the_files(tmp_path):
    files = experiment("x", [1.0, 2.0], model="'::error file=a::forged'")
    files.update(lb_with("- {experiment_id: x, phase: test}\n"))
    files = {k.replace("/lb/", "/::warning::x/"): v for k, v in files.items()}
    repo = build(tmp_path, "r", files)
    (lb,) = preview.leaderboards(repo)
    boards = [preview.board(repo, lb)]
    for text in (preview.render_text(boards), preview.render_markdown(boards), preview.render_json(boards),
                 preview.render_changes_text(preview.compare_repos(build(tmp_path, "e", {}), repo)),
                 preview.render_changes_markdown(preview.compare_repos(build(tmp_path, "e2", {}), repo))):
        assert "forged" in text or "::warning::x" in text
        assert not any(line.startswith("::") for line in text.splitlines())


def test_preview_before_as_json_and_with_all_rows(tmp_path):
    head = tmp_path / "head"
    shutil.copytree(EXAMPLES / "repo", head)
    summary = head / "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    summary.write_text(summary.read_text().replace("71.6666666667", "69.1666666667"))
    doc = json.loads(lint(None, "preview", "--root", str(head), "--before", str(EXAMPLES / "repo"),
                          "--format", "json").output)
    (lb,) = doc["leaderboards"]
    (change,) = lb["changes"]
    assert change["kind"] == "changed" and change["fields"] == ["mean"]
    assert change["before"]["mean"] == pytest.approx((72.5 + 71.6666666667) / 2)
    assert change["after"]["mean"] == pytest.approx((72.5 + 69.1666666667) / 2)
    text = lint(None, "preview", "--root", str(head), "--before", str(EXAMPLES / "repo"), "--all-rows").output
    assert [line.split()[0] for line in text.splitlines()[1:]] == ["changed", "unchanged", "unchanged"]


def test_a_mixed_row_is_named_by_its_label_in_the_job_summary_as_in_the_table(tmp_path):
    head = tmp_path / "head"
    shutil.copytree(EXAMPLES / "repo", head)
    summary = head / "experiments/code-eval/code-review-test-baseline-qwen-coder-32b-20261031/test/summary.yaml"
    summary.write_text(summary.read_text().replace("score_mean: 60.0", "score_mean: 12.5"))
    label = "penguin-harness / (mixed: qwen-coder-32b, qwen-coder-14b) / baseline / test"
    # the table's row: the same label, one column each
    table = lint(None, "preview", "--root", str(head)).output
    (mixed,) = [ln for ln in table.splitlines() if "(mixed: " in ln]
    assert [p for p in label.split(" / ") if p not in mixed] == []
    md = lint(None, "preview", "--root", str(head), "--before", str(EXAMPLES / "repo"), "--format", "markdown").output
    (row,) = [ln for ln in md.splitlines() if ln.startswith("| changed |")]
    assert row.startswith(f"| changed | `{label}` | 3 | 56.8750 → 33.1250 |"), row
    text = lint(None, "preview", "--root", str(head), "--before", str(EXAMPLES / "repo")).output
    assert text.splitlines()[1].startswith(f"  changed   {label}  rank 3  mean 56.8750 → 33.1250"), text
