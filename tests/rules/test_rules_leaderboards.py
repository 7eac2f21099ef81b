"""PL401–PL408: leaderboard expressions against the experiments they reference."""
import shutil

from penguin_lint.core.config import load_config
from penguin_lint.rules import rule_codes
from penguin_lint.engine.runner import Engine, enabled_rules
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from tests.conftest import lint

LB = "leaderboards/lb/leaderboard.yaml"
HEADER = """\
leaderboard_id: lb
status: draft
title: LB
author:
  name: Lab
values:
"""  # values' items start on line 7

BENCH_B = {
    "packages/bench-b/benchmark_config.toml": """\
        id = "bench-b"
        title = "Bench B"
        description = "Another benchmark."
        version = "1.0.0"
        last_update = "2026-10-29T12:00:00Z"
        status = "draft"

        [author]
        name = "Lab"
        """,
    "packages/bench-b/CASE-001-one/task_config.toml": """\
        id = "CASE-001-one"
        title = "One"
        description = "The first task."
        """,
    "packages/bench-b/CASE-001-one/statement/README.md": "# One\n",
    "packages/bench-b/CASE-001-one/rubric/README.md": "# Rubric\n",
}


def board(values: str) -> dict:
    return {LB: HEADER + values}


def experiment(exp, bench="bench-b", harness="h", model="m", algorithm="baseline", phase="test",
               n=2, score=50.0, summary_extra=""):
    """Files of one experiment whose attempts agree with its summary."""
    base = f"experiments/lb/{exp}"
    files = {
        f"{base}/meta_info.yaml": (f"experiment_id: {exp}\nbenchmark_id: {bench}\nharness_name: {harness}\n"
                                   f"model_name: {model}\nalgorithm: {algorithm}\n"),
        f"{base}/{phase}/summary.yaml": (f"n_attempt: {n}\nscore_mean: {score}\nscore_std: 0.0\n"
                                         + summary_extra),
    }
    for i in range(1, n + 1):
        files[f"{base}/{phase}/attempt-{i}.yaml"] = (
            f"score: {score}\nresults:\n  - source: CASE-001-one\n    score: {score}\n")
    return files


def pl4(run):
    return [c for c in run.codes() if c.startswith("PL4")]


def mean_of(*exps, op="mean", extra=""):
    """A top-level operation over leaves (one line each, from line 9 on)."""
    lines = f"  - op: {op}\n{extra}    args:\n"
    for e in exps:
        lines += f"      - {{ experiment_id: {e}, phase: test }}\n"
    return lines


# -- the example repositories and the rule docs ---------------------------------

def test_valid_repository_has_no_leaderboard_findings(repo):
    run = lint(repo(), "--all")
    assert pl4(run) == []


def test_rules_are_documented_with_examples():
    for code in ("PL401", "PL402", "PL403", "PL404", "PL405", "PL406", "PL407", "PL408"):
        run = lint(None, "rules", code, fmt="text")
        assert run.code == 0
        assert code in run.output and "Bad (" in run.output and "Good (" in run.output


# -- PL401 unresolved-reference ------------------------------------------------

def test_pl401_missing_experiment_with_did_you_mean(repo):
    run = lint(repo(board("  - experiment_id: exp-l\n    phase: test\n")), "--all")
    assert run.at("PL401") == [(LB, 7)]
    f = next(f for f in run.findings if f["code"] == "PL401")
    assert "experiments/lb/exp-l/" in f["message"]
    assert f["hint"] == "did you mean 'exp-1'?"
    assert f["column"] == 20  # the experiment_id value
    assert run.code == 1


def test_pl401_missing_phase_points_at_phase(repo):
    run = lint(repo(board("  - experiment_id: exp-1\n    phase: tset\n")), "--all")
    assert run.at("PL401") == [(LB, 8)]
    f = next(f for f in run.findings if f["code"] == "PL401")
    assert "tset" in f["message"] and "did you mean 'test'" in f["hint"]


def test_pl401_missing_summary_in_existing_phase(repo):
    root = repo({"experiments/lb/exp-1/test/summary.yaml": None})
    run = lint(root, "--all")
    assert run.at("PL401") == [(LB, 8)]
    assert "has no summary.yaml" in next(f for f in run.findings if f["code"] == "PL401")["message"]


def test_pl401_missing_meta_info(repo):
    run = lint(repo({"experiments/lb/exp-1/meta_info.yaml": None}), "--all")
    assert run.at("PL401") == [(LB, 7)]
    assert "meta_info.yaml" in next(f for f in run.findings if f["code"] == "PL401")["message"]


def test_pl401_one_finding_per_leaf_in_nested_operation(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: mean\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: sum\n"
        "        args:\n"
        "          - { experiment_id: exp-2, phase: test }\n"
        "          - { experiment_id: exp-404, phase: test }\n"
        "          - { experiment_id: exp-405, phase: test }\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL401") == [(LB, 13), (LB, 14)]


def test_pl401_unsafe_ids_are_never_looked_up(repo):
    root = repo(board(
        "  - op: mean\n"
        "    args:\n"
        "      - { experiment_id: ../../etc, phase: test }\n"
        "      - { experiment_id: a/b, phase: test }\n"
        "      - { experiment_id: exp-1, phase: ../test }\n"
        "      - { experiment_id: 12, phase: test }\n"))
    run = lint(root, "--all")
    assert run.code == 1
    assert run.at("PL401") == []
    assert (LB, 9) in run.at("PL202") and (LB, 10) in run.at("PL202") and (LB, 11) in run.at("PL202")


def test_pl401_passes_for_resolved_leaves(repo):
    assert lint(repo(), "--all").at("PL401") == []


# -- PL402 unknown-metric -------------------------------------------------------

def test_pl402_absent_metric_with_hint(repo):
    run = lint(repo(board("  - { experiment_id: exp-1, phase: test, metric: score_man }\n")), "--all")
    assert run.at("PL402") == [(LB, 7)]
    assert next(f for f in run.findings if f["code"] == "PL402")["hint"] == "did you mean 'score_mean'?"


def test_pl402_default_metric_absent(repo):
    run = lint(repo({"experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_std: 0.0\n"}), "--all")
    assert run.at("PL402") == [(LB, 7)]
    assert "default metric" in next(f for f in run.findings if f["code"] == "PL402")["message"]


def test_pl402_non_numbers(repo):
    files = {**BENCH_B}
    for i, value in enumerate(["true", "'12.5'", ".nan", "-.inf", "[1, 2]", "null"]):
        files.update(experiment(f"exp-{i + 2}", summary_extra=f"weird: {value}\n"))
    values = "".join(f"  - {{ experiment_id: exp-{i + 2}, phase: test, metric: weird }}\n" for i in range(6))
    files.update(board(values))
    run = lint(repo(files), "--all")
    assert run.at("PL402") == [(LB, 7 + i) for i in range(6)]
    messages = [f["message"] for f in run.findings if f["code"] == "PL402"]
    assert "a boolean, not a number" in messages[0]
    assert "a string" in messages[1]
    assert "nan, not a finite number" in messages[2]
    assert "-inf, not a finite number" in messages[3]


def test_pl402_passes_for_numeric_metrics(repo):
    files = {**BENCH_B, **experiment("exp-2", summary_extra="cost: 3\nhuge: 1" + "0" * 400 + "\n")}
    files.update(board("  - { experiment_id: exp-1, phase: test }\n"
                       "  - { experiment_id: exp-2, phase: test, metric: cost }\n"
                       "  - { experiment_id: exp-2, phase: test, metric: huge }\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL402") == []


# -- PL403 inconsistent-expression ---------------------------------------------

def test_pl403_model_differs_reported_on_the_expression(repo):
    files = {**BENCH_B, **experiment("exp-2", model="other")}
    files.update(board("  - { experiment_id: exp-1, phase: test }\n" + mean_of("exp-1", "exp-2")))
    run = lint(repo(files), "--all")
    assert run.at("PL403") == [(LB, 8)]
    msg = next(f for f in run.findings if f["code"] == "PL403")["message"]
    assert "model_name is 'm' for 'exp-1' (line 10) but 'other' for 'exp-2' (line 11)" in msg


def test_pl403_phase_and_algorithm_in_nested_operation(repo):
    files = {**BENCH_B, **experiment("exp-2", phase="val", algorithm="skillopt")}
    files.update(board(
        "  - op: div\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: mean\n"
        "        args:\n"
        "          - { experiment_id: exp-2, phase: val }\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL403") == [(LB, 7)]
    msg = next(f for f in run.findings if f["code"] == "PL403")["message"]
    assert "algorithm is 'baseline'" in msg and "phase is 'test'" in msg and "line 12" in msg


def test_pl403_passes_when_only_benchmark_differs(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(mean_of("exp-1", "exp-2")))
    run = lint(repo(files), "--all")
    assert pl4(run) == []


# -- PL404 repeated-benchmark ---------------------------------------------------

def test_pl404_same_benchmark_twice(repo):
    files = {**experiment("exp-2", bench="bench-a")}
    files.update(board(mean_of("exp-1", "exp-2")))
    run = lint(repo(files), "--all")
    assert run.at("PL404") == [(LB, 10)]
    assert "benchmark 'bench-a'" in next(f for f in run.findings if f["code"] == "PL404")["message"]


def test_pl404_same_experiment_twice_nested(repo):
    files = board(
        "  - op: sum\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: mean\n"
        "        args: [{ experiment_id: exp-1, phase: test }]\n")
    run = lint(repo(files), "--all")
    assert run.at("PL404") == [(LB, 11)]
    assert "used twice" in next(f for f in run.findings if f["code"] == "PL404")["message"]


def test_pl404_passes_across_values(repo):
    files = {**BENCH_B, **experiment("exp-2"), **experiment("exp-3", bench="bench-a", algorithm="x")}
    files.update(board(mean_of("exp-1", "exp-2") + "  - { experiment_id: exp-3, phase: test }\n"))
    assert lint(repo(files), "--all").at("PL404") == []


# -- PL405 bad-operation ----------------------------------------------------------

def test_pl405_arity_and_weights(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: sub\n"                                   # 7: three args
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test }\n"
        "  - { op: mean, args: [] }\n"                    # 12: no args
        "  - op: weighted_mean\n"                         # 13: no weights
        "    args: [{ experiment_id: exp-1, phase: test }]\n"
        "  - op: weighted_mean\n"
        "    weights: [1]\n"                              # 16: 1 weight for 2 args
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n"
        "  - op: weighted_mean\n"
        "    weights: [2, -1]\n"                          # 19: the negative weight
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n"
        "  - op: weighted_mean\n"
        "    weights: [0, 0.0]\n"                         # 22: zero sum
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n"
        "  - op: mean\n"
        "    weights: [1, 1]\n"                           # 25: weights on mean
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n"
        "  - op: div\n"                                   # 27: nested div with one arg
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: div\n"                               # 30
        "        args: [{ experiment_id: exp-2, phase: test }]\n"
        "  - { op: median, args: [{ experiment_id: exp-1, phase: test }] }\n"  # 32: schema's PL405
    ))
    run = lint(repo(files), "--all")
    assert run.at("PL405") == [(LB, n) for n in (7, 12, 13, 16, 19, 22, 25, 30, 32)]
    messages = {f["line"]: f["message"] for f in run.findings if f["code"] == "PL405"}
    columns = {f["line"]: f["column"] for f in run.findings if f["code"] == "PL405"}
    # weights, or the weight concerned, not the op
    assert (columns[16], columns[19], columns[22], columns[25]) == (14, 18, 14, 14)
    assert "exactly 2 args, got 3" in messages[7]
    assert "at least one arg" in messages[12]
    assert "needs 'weights'" in messages[13]
    assert "1 weight for 2 args" in messages[16]
    assert "negative" in messages[19]
    assert "sum to 0" in messages[22]
    assert "ignores it" in messages[25]
    assert "median" in messages[32]


def test_pl405_a_value_that_is_both_a_leaf_and_an_operation(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: mean\n"                                  # 7
        "    experiment_id: exp-2\n"                      # 8: read as the mean, this leaf ignored
        "    phase: test\n"
        "    args: [{ experiment_id: exp-1, phase: test }]\n"
    ))
    run = lint(repo(files), "--all")
    assert run.code == 1
    (f,) = [f for f in run.findings if f["code"] == "PL405"]
    assert (f["line"], f["severity"]) == (8, "error")
    assert f["message"] == "'mean' also has 'experiment_id' and 'phase': a value is a leaf or an operation, not both"


def test_pl405_passes_for_valid_operations(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: weighted_mean\n"
        "    weights: [3, 0]\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: sub\n"
        "        args: [{ experiment_id: exp-2, phase: test }, { experiment_id: exp-2, phase: test, metric: score_std }]\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL405") == []
    assert run.at("PL404") == [(LB, 12)]  # exp-2 twice: that is PL404's, not PL405's


# -- PL406 division-by-zero -------------------------------------------------------

def test_pl406_denominator_metric_is_zero(repo):
    files = {**BENCH_B, **experiment("exp-2", summary_extra="cost: 0\n")}
    files.update(board(
        "  - op: div\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test, metric: cost }\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL406") == [(LB, 10)]


def test_pl406_nested_denominator_evaluates_to_zero(repo):
    files = {**BENCH_B, **experiment("exp-2", score=50.0)}
    files.update(board(
        "  - op: div\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: sub\n"                               # 10: 50.0 - 50.0
        "        args:\n"
        "          - { experiment_id: exp-2, phase: test }\n"
        "          - { experiment_id: exp-2, phase: test, metric: score_mean }\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL406") == [(LB, 10)]


def test_pl406_passes_for_non_zero_and_unresolved_denominators(repo):
    files = {**BENCH_B, **experiment("exp-2", score=25.0, summary_extra="cost: 0\n")}
    files.update(board(
        "  - op: div\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test }\n"
        "  - op: div\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test, metric: missing }\n"
        "  - op: div\n"                                   # invalid arity: PL405 only
        "    args: [{ experiment_id: exp-2, phase: test, metric: cost }]\n"))
    run = lint(repo(files), "--all")
    assert run.at("PL406") == []
    assert run.at("PL405") == [(LB, 15)]


def test_arithmetic_survives_odd_numbers(repo):
    extra = ("big: 1" + "0" * 400 + "\nneg: -1" + "0" * 400 + "\nnan: .nan\ninf: .inf\n"
             "flag: true\ntext: 'x'\nzero: 0\n")
    files = {**BENCH_B, **experiment("exp-2", summary_extra=extra)}
    ops = ""
    metrics = ["big", "neg", "nan", "inf", "flag", "text", "zero", "score_mean"]
    for op in ("mean", "sum", "sub", "div", "weighted_mean"):
        for a in metrics:
            for b in metrics:
                ops += (f"  - op: {op}\n"
                        + ("    weights: [1" + "0" * 400 + ", .inf]\n" if op == "weighted_mean" else "")
                        + "    args:\n"
                        f"      - {{ experiment_id: exp-2, phase: test, metric: {a} }}\n"
                        f"      - op: sub\n"
                        f"        args:\n"
                        f"          - {{ experiment_id: exp-2, phase: test, metric: {b} }}\n"
                        f"          - {{ experiment_id: exp-2, phase: test, metric: big }}\n")
    files.update(board(ops))
    run = lint(repo(files), "--all")
    assert run.code == 1  # findings, not a crash (exit 2)
    assert "PL402" in run.codes()


# -- PL407 duplicate-entry --------------------------------------------------------

def test_pl407_two_values_with_one_label(repo):
    files = {**BENCH_B, **experiment("exp-2"), **experiment("exp-3", bench="bench-a")}
    files.update(board("  - { experiment_id: exp-1, phase: test }\n" + mean_of("exp-3", "exp-2")))
    run = lint(repo(files), "--all")
    assert run.at("PL407") == [(LB, 8)]
    f = next(f for f in run.findings if f["code"] == "PL407")
    assert f["severity"] == "warning" and "line 7" in f["message"] and "h, m, baseline, test" in f["message"]
    assert run.code == 0  # a warning only


def test_pl407_passes_for_distinct_labels_and_inconsistent_values(repo):
    files = {**BENCH_B, **experiment("exp-2", algorithm="skillopt"), **experiment("exp-3", model="x")}
    files.update(board("  - { experiment_id: exp-1, phase: test }\n"
                       "  - { experiment_id: exp-2, phase: test }\n"
                       + mean_of("exp-1", "exp-3")))  # inconsistent: PL403, never a label
    run = lint(repo(files), "--all")
    assert run.at("PL407") == []
    assert run.at("PL403") == [(LB, 9)]


# -- PL408 attempt-count-mismatch --------------------------------------------------

def test_pl408_n_attempt_differs(repo):
    files = {**BENCH_B, **experiment("exp-2", n=3)}
    files.update(board(mean_of("exp-1", "exp-2")))
    run = lint(repo(files), "--all")
    assert run.at("PL408") == [(LB, 7)]
    f = next(f for f in run.findings if f["code"] == "PL408")
    assert f["severity"] == "warning" and "independent formula will be used" in f["message"]
    assert "2 ('exp-1', line 9) vs 3 ('exp-2', line 10)" in f["message"]
    assert run.code == 0


def test_pl408_passes_for_equal_counts(repo):
    files = {**BENCH_B, **experiment("exp-2", n=2)}
    files.update(board(mean_of("exp-1", "exp-2")))
    assert lint(repo(files), "--all").at("PL408") == []


# -- pull-request mode --------------------------------------------------------------

def _engine(root):
    config = load_config(root, FILE_KINDS, rule_codes())
    repo = Repository(root, config)
    return Engine(repo, config, enabled_rules(config))


def test_deleted_summary_rechecks_the_unchanged_leaderboard(repo):
    root = repo()
    assert _engine(root).run_paths(["experiments/lb/exp-1/test/summary.yaml"]).findings == []
    (root / "experiments/lb/exp-1/test/summary.yaml").unlink()
    result = _engine(root).run_paths(["experiments/lb/exp-1/test/summary.yaml"])
    assert [(f.code, f.path, f.line) for f in result.findings if f.code == "PL401"] == [("PL401", LB, 8)]


def test_deleted_experiment_folder_rechecks_the_leaderboard(repo):
    root = repo()
    shutil.rmtree(root / "experiments/lb/exp-1")
    result = _engine(root).run_paths(["experiments/lb/exp-1"])
    assert [(f.code, f.path, f.line) for f in result.findings if f.code == "PL401"] == [("PL401", LB, 7)]


def test_changes_elsewhere_do_not_pull_in_the_leaderboard(repo):
    root = repo({"experiments/lb/exp-1/meta_info.yaml": None})
    engine = _engine(root)
    rule = next(r for r in engine.rules if r.code == "PL401")
    assert list(rule.affected_by("experiments/lb/exp-1/meta_info.yaml", engine.ctx)) == [LB]
    assert list(rule.affected_by("experiments/lb", engine.ctx)) == [LB]
    assert list(rule.affected_by("experiments", engine.ctx)) == [LB]
    assert list(rule.affected_by("packages/bench-a/benchmark_config.toml", engine.ctx)) == []
    result = engine.run_paths(["packages/bench-a/benchmark_config.toml"])
    assert "PL401" not in [f.code for f in result.findings]


def test_malformed_expressions_are_left_to_the_schema_rules(repo):
    nested = "{ experiment_id: exp-1, phase: test }"
    for _ in range(25):
        nested = f"{{ op: mean, args: [{nested}] }}"
    root = repo(board(
        "  - just a string\n"
        "  - null\n"
        "  - { op: sub, args: { a: 1 } }\n"
        "  - { op: ~, args: [] }\n"
        "  - { op: [div], args: [] }\n"
        "  - { op: weighted_mean, weights: 'x', args: [] }\n"
        "  - { op: weighted_mean, weights: [a, true, .nan], args: [1, 2, 3] }\n"
        "  - { experiment_id: [exp-1], phase: {a: 1}, metric: 7 }\n"
        "  - { experiment_id: exp-1, phase: test, metric: [score_mean] }\n"
        "  - { op: div }\n"
        f"  - {nested}\n"))
    run = lint(root, "--all")
    assert run.code == 1  # findings, never a tool failure (exit 2)
    assert run.at("PL401") == [] and run.at("PL402") == [] and run.at("PL406") == []
    assert run.at("PL405") == [(LB, 12)]  # op: ~ and op: [div] are PL102's
    assert (LB, 10) in run.at("PL102") and (LB, 11) in run.at("PL102")


def test_pl406_an_operation_of_finite_parts_whose_value_is_not_finite(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: weighted_mean\n"                          # 7: the weights' sum overflows
        "    weights: [1.0e+308, 1.0e+308]\n"
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n"
        "  - op: div\n"                                    # 10: the quotient overflows
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: div\n"
        "        args:\n"
        "          - { experiment_id: exp-1, phase: test }\n"
        "          - op: sum\n"                             # 16: 1e308 + 1e308
        "            args: [{ experiment_id: exp-1, phase: test, metric: big }, "
        "{ experiment_id: exp-1, phase: test, metric: big }]\n"
    ))
    files["experiments/lb/exp-1/test/summary.yaml"] = "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nbig: 1.0e+308\n"
    run = lint(repo(files), "--all")
    found = {(f["line"], f["message"]) for f in run.findings if f["code"] == "PL406"}
    assert found == {(7, "'weighted_mean' (line 7) evaluates to no number (NaN)"),
                     (16, "'sum' (line 16) evaluates to inf, past any float"),
                     # 50 / inf is 0: the outer div divides by it
                     (13, "the denominator of 'div' (line 10) evaluates to 0")}, run.findings
