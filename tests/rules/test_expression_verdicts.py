"""PL403 in detail: one finding per expression, naming the first leaf that
disagrees with the first leaf, on every field that differs."""
import pytest

from penguin_lint.rules import _expressions
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


def test_denominators_of_every_operation_are_evaluated(repo):
    files = {**BENCH_B, **experiment("exp-2", score=50.0, summary_extra="cost: 0\nunit: 1\n")}
    zero = "{ experiment_id: exp-2, phase: test, metric: cost }"
    one = "{ experiment_id: exp-2, phase: test, metric: unit }"
    files.update(board(
        "  - op: div\n"                      # 7: the mean of 0 and 0 is 0
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: mean\n"
        f"        args: [{zero}, {zero}]\n"
        "  - op: div\n"                      # 12: 0 / 1 is 0
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: div\n"
        f"        args: [{zero}, {one}]\n"
        "  - op: div\n"                      # 17: an argument that is no mapping makes no number
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - op: sum\n"
        f"        args: [0, {zero}]\n"))
    run = lint(repo(files), "--all")
    assert run.stderr == ""
    assert [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL406"] == [
        (10, "the denominator of 'div' (line 7) evaluates to 0"),
        (15, "the denominator of 'div' (line 12) evaluates to 0")]
    assert ("PL102", 21) in [(f["code"], f["line"]) for f in run.findings]  # the 0 among the args


def test_a_weight_beyond_a_float_keeps_its_sign(repo):
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: weighted_mean\n"
        f"    weights: [-1{'0' * 400}, 1]\n"
        "    args:\n"
        "      - { experiment_id: exp-1, phase: test }\n"
        "      - { experiment_id: exp-2, phase: test }\n"))
    run = lint(repo(files), "--all")
    assert [(f["line"], f["message"][:41]) for f in run.findings if f["code"] == "PL405"] == [
        (8, "weight 1 of 'weighted_mean' is negative (")]


def test_attempt_counts_that_are_no_integer_are_not_compared(repo):
    # n_attempt: true is PL102's; PL408 compares only integers
    files = {**BENCH_B, **experiment("exp-2", n=1)}
    summary = "experiments/lb/exp-2/test/summary.yaml"
    files[summary] = files[summary].replace("n_attempt: 1", "n_attempt: true")
    files.update(MEAN_OF_TWO)
    run = lint(repo(files), "--all")
    assert ("PL102", summary) in [(f["code"], f["path"]) for f in run.findings]
    assert run.at("PL408") == []


def test_a_label_field_typed_by_a_tag_is_read_as_it_is(repo):
    # an explicit tag is no implicit typing: nothing to quote as written
    files = {**BENCH_B, **experiment("exp-2", model='!!int "7"')}
    files.update(MEAN_OF_TWO)
    run = lint(repo(files), "--all")
    assert run.stderr == ""
    assert [m for _, m in pl403(run)] == [
        "leaves of one expression differ: model_name is 'm' for 'exp-1' (line 9) but 7 for 'exp-2' (line 10)"]


def test_a_board_given_its_kind_outside_the_leaderboards_looks_up_no_experiment(repo):
    # it belongs to no leaderboard folder: not even experiments/None/ is its
    files = {p.replace("experiments/lb/", "experiments/None/"): t
             for p, t in {**experiment("exp-1"), **experiment("exp-2", model="m2")}.items()}
    files["extra/board.yaml"] = MEAN_OF_TWO[LB]
    run = lint(repo(files), "--kind", "leaderboard", "extra/board.yaml")
    assert (run.code, run.findings) == (0, [])


def test_a_leaf_naming_its_experiment_or_phase_by_a_list_is_judged_as_any_other(repo):
    # PL102's; the leaves are still compared, none looked up under that list
    files = {**BENCH_B, **experiment("exp-2")}
    files.update(board(
        "  - op: mean\n"
        "    args:\n"
        "      - { experiment_id: [exp-1], phase: test }\n"
        "      - { experiment_id: [exp-1], phase: test }\n"
        "      - { experiment_id: exp-2, phase: [test] }\n"
        "      - { experiment_id: exp-2, phase: [test] }\n"))
    run = lint(repo(files), "--all")
    assert run.stderr == "" and run.code == 1
    assert {("PL102", 9), ("PL102", 11)} <= {(f["code"], f["line"]) for f in run.findings}


def test_the_arithmetic_of_every_operation_inside_a_denominator(repo):
    # each denominator below is 0 only where the operation's own arithmetic,
    # or a guard of it, is wrong; the ones marked 0 are PL406's
    files = {**BENCH_B, **experiment("exp-2", score=50.0, summary_extra="cost: 0\nunit: 1\n")}
    zero = "{ experiment_id: exp-2, phase: test, metric: cost }"
    one = "{ experiment_id: exp-2, phase: test, metric: unit }"
    dens = [
        f"{{ op: sum, args: [{zero}, {zero}] }}",                      # 0
        f"{{ op: sub, args: [{one}, {one}] }}",                        # 0
        f"{{ op: sub, args: [{one}, {zero}] }}",                       # 1
        f"{{ op: sub, args: [{one}, {one}, {one}] }}",                 # three args: no number
        "{ op: sum, args: [] }",                                       # no args: no number
        f"{{ op: median, weights: [1, 1], args: [{zero}, {zero}] }}",  # no such operation
        f"{{ op: weighted_mean, weights: [1], args: [{zero}, {one}] }}",       # a weight short
        f"{{ op: weighted_mean, weights: [-1, 2], args: [{zero}, {zero}] }}",  # a negative weight
        f"{{ op: weighted_mean, weights: [0, 0], args: [{zero}, {zero}] }}",   # a zero total
        f"{{ op: weighted_mean, weights: [1, 3], args: [{zero}, {zero}] }}",   # 0
    ]
    files.update(board("".join(f"  - {{ op: div, args: [{one}, {d}] }}\n" for d in dens)))
    run = lint(repo(files), "--all")
    assert run.stderr == ""
    assert [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL406"] == [
        (line, f"the denominator of 'div' (line {line}) evaluates to 0") for line in (7, 8, 16)]


def test_a_long_label_value_is_shortened_in_the_message(repo):
    # a quoted value of up to 60 characters is shown whole, a longer one cut
    # to 57 and "..."; a value YAML typed is quoted as written up to 60 too
    long58, long59 = "n" * 58, "n" * 59
    hex60, hex61 = "0x" + "1" * 58, "0x" + "1" * 59
    files = {**BENCH_B}
    for i, model in enumerate((long58, long59, hex60, hex61), 2):
        files.update(experiment(f"exp-{i}", model=model))
    files.update(board("".join(
        f"  - op: mean\n    args: [{{ experiment_id: exp-1, phase: test }}, {{ experiment_id: exp-{i}, phase: test }}]\n"
        for i in range(2, 6))))
    run = lint(repo(files), "--all")
    shown = [repr(long58).replace('"', "'"), "'" + long59[:56] + "...", hex60, repr(int(hex61, 16))[:57] + "..."]
    assert pl403(run) == [
        (7 + 2 * k, f"leaves of one expression differ: model_name is 'm' for 'exp-1' (line {8 + 2 * k}) "
                    f"but {s} for 'exp-{k + 2}' (line {8 + 2 * k})") for k, s in enumerate(shown)]


def test_a_metric_the_leaf_names_is_not_called_the_default(repo):
    files = {**BENCH_B}
    files.update(board("  - { experiment_id: exp-1, phase: test, metric: nope }\n"
                       "  - { experiment_id: exp-1, phase: other }\n"))
    files["experiments/lb/exp-1/other/summary.yaml"] = "n_attempt: 0\n"
    run = lint(repo(files), "--all")
    assert [f["message"] for f in run.findings if f["code"] == "PL402"] == [
        "metric 'nope' is not in exp-1/test/summary.yaml",
        "metric 'score_mean' (the default metric) is not in exp-1/other/summary.yaml"]


def test_values_whose_leaves_disagree_are_no_duplicates(repo):
    # each value mixes two models: it has no label, so none repeats another
    files = {**BENCH_B, **experiment("exp-2", model="m2")}
    files.update(board(MEAN_OF_TWO[LB][len(board("")[LB]):] * 2))
    run = lint(repo(files), "--all")
    assert [line for line, _ in pl403(run)] == [7, 11]
    assert run.at("PL407") == []


@pytest.mark.parametrize("limit, before", [
    (0, "no value before this one is checked"),
    (1, "only the value before this one is checked"),
    (2, "only the 2 values before this one are checked")])
def test_the_overflow_says_how_many_values_are_checked(repo, monkeypatch, limit, before):
    monkeypatch.setattr(_expressions, "MAX_VALUES", limit)
    files = board("  - { experiment_id: exp-1, phase: test }\n" * 3)
    run = lint(repo(files), "--all")
    assert [(f["path"], f["line"], f["severity"], f["message"], f["hint"])
            for f in run.findings if f["code"] == "PL103"] == [
        (LB, 7 + limit, "error", f"the leaderboard has more than {limit:,} values: {before}",
         f"split the leaderboard; the leaderboard rules stop at {limit:,} values and 50,000 leaves and operations")]
