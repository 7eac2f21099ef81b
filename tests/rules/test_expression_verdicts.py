"""PL403 in detail: one finding per expression, naming the first leaf that
disagrees with the first leaf, on every field that differs."""
from tests.conftest import lint
from tests.rules.test_rules_leaderboards import BENCH_B, LB, board, experiment


def pl403(run):
    return [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL403"]


def test_one_finding_per_expression_naming_the_first_leaf_that_differs(repo):
    files = {**BENCH_B, **experiment("exp-2", model="m2"), **experiment("exp-3", model="m3", harness="h3"),
             **experiment("exp-4", model="m4")}
    files.update(board(
        "  - op: mean\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test }\n"
        "      - { experiment_id: exp-3, phase: test }\n"
        "  - op: mean\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-4, phase: test }\n"))
    run = lint(repo(files), "--all")
    assert {(f["name"], f["severity"]) for f in run.findings if f["code"] == "PL403"} == {
        ("inconsistent-expression", "error")}
    assert {f["hint"] for f in run.findings if f["code"] == "PL403"} == {
        "one value is one harness, model, algorithm and phase across benchmarks; "
        "use the matching experiment, or give this one its own value"}
    assert pl403(run) == [
        (7, "leaves of one expression differ: model_name is 'm' for 'exp-1' (line 9) "
            "but 'm2' for 'exp-2' (line 10)"),
        (12, "leaves of one expression differ: model_name is 'm' for 'exp-1' (line 14) "
             "but 'm4' for 'exp-4' (line 15)")]


def test_every_field_that_differs_is_named_in_the_one_finding(repo):
    files = {**BENCH_B, **experiment("exp-2", model="m2", harness="h2", algorithm="a2")}
    files.update(MEAN_OF_TWO)
    assert pl403(lint(repo(files), "--all")) == [
        (7, "leaves of one expression differ: "
            "harness_name is 'h' for 'exp-1' (line 9) but 'h2' for 'exp-2' (line 10); "
            "model_name is 'm' for 'exp-1' (line 9) but 'm2' for 'exp-2' (line 10); "
            "algorithm is 'baseline' for 'exp-1' (line 9) but 'a2' for 'exp-2' (line 10)")]


# a board whose one value is the mean of exp-1 and exp-2 at phase test
MEAN_OF_TWO = board(
    "  - op: mean\n"
    "    args:\n"
    "      - { experiment_id: exp-1, phase: test }\n"
    "      - { experiment_id: exp-2, phase: test }\n")


def test_a_field_a_leaf_lacks_leaves_the_others_compared(repo):
    files = {**BENCH_B, **experiment("exp-2", model="m2")}
    meta = "experiments/lb/exp-2/meta_info.yaml"
    files[meta] = files[meta].replace("harness_name: h\n", "")  # PL101's, not a difference
    files.update(MEAN_OF_TWO)
    run = lint(repo(files), "--all")
    assert ("PL101", meta) in [(f["code"], f["path"]) for f in run.findings]
    assert pl403(run) == [
        (7, "leaves of one expression differ: model_name is 'm' for 'exp-1' (line 9) but 'm2' for 'exp-2' (line 10)")]


def test_a_leaderboard_whose_values_are_not_a_list_has_no_expression_to_judge(repo):
    files = board("  - { experiment_id: exp-1, phase: test }\n")
    files[LB] = files[LB].replace("values:\n  - { experiment_id: exp-1, phase: test }\n", "values: 3\n")
    run = lint(repo(files), "--all")
    assert run.code == 1 and run.stderr == ""
    assert [(f["code"], f["line"]) for f in run.findings if f["path"] == LB] == [("PL102", 6)]


def test_a_denominator_is_evaluated_through_nested_operations(repo):
    files = {**BENCH_B, **experiment("exp-2", score=50.0, summary_extra="cost: 0\n")}
    zero = "{ experiment_id: exp-2, phase: test, metric: cost }"
    fifty = "{ experiment_id: exp-2, phase: test }"
    files.update(board(
        "  - op: div\n"                      # 7: 0 / 50 is 0
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: div\n"
        f"        args: [{zero}, {fifty}]\n"
        "  - op: div\n"                      # 12: 50 / 0 is no number, PL406's own below
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: div\n"
        f"        args: [{fifty}, {zero}]\n"
        "  - op: div\n"                      # 17: weights 1 and 0 make 0
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: weighted_mean\n"
        "        weights: [1, 0]\n"
        f"        args: [{zero}, {fifty}]\n"
        "  - op: div\n"                      # 23: a negative weight makes no number
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: weighted_mean\n"
        "        weights: [2, -1]\n"
        f"        args: [{fifty}, {fifty}]\n"))
    run = lint(repo(files), "--all")
    assert [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL406"] == [
        (10, "the denominator of 'div' (line 7) evaluates to 0"),
        (16, "the denominator of 'div' (line 15) evaluates to 0"),
        (20, "the denominator of 'div' (line 17) evaluates to 0")]


def test_a_leaf_whose_meta_info_does_not_load_differs_in_nothing(repo):
    files = {**BENCH_B, **experiment("exp-2", model="m2")}
    files["experiments/lb/exp-2/meta_info.yaml"] = "experiment_id: [exp-2\n"
    files.update(MEAN_OF_TWO)
    run = lint(repo(files), "--all")
    assert run.code == 1 and run.stderr == ""
    assert ("PL001", "experiments/lb/exp-2/meta_info.yaml") in [(f["code"], f["path"]) for f in run.findings]
    assert pl403(run) == []
