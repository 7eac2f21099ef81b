"""Numbers as submissions write them: summaries rounded by result scripts,
the population standard deviation, and hints whose proposed values are right
(each proposal is written back into the file and the finding must go)."""
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from penguin_lint.loaders.numbers import agrees, mean_std, propose, written_decimals, yaml11_number_spellings
from tests.conftest import lint

TEST = "experiments/lb/exp-1/test"
SUMMARY = f"{TEST}/summary.yaml"


def attempt(score, *extra):
    return (f"score: {score}\n" + "".join(f"{x}\n" for x in extra)
            + "results:\n  - source: CASE-001-one\n    score: 50.0\n")


def phase(scores, summary_lines, extras=None):
    """Files of a phase: one attempt per score (with ``extras[i]`` lines) and
    a summary of ``n_attempt`` plus ``summary_lines``."""
    files = {f"{TEST}/attempt-{i}.yaml": attempt(s, *(extras[i - 1] if extras else ()))
             for i, s in enumerate(scores, 1)}
    files[SUMMARY] = f"n_attempt: {len(scores)}\n" + "".join(f"{x}\n" for x in summary_lines)
    return files


SCORES = (69.5, 70.0, 68.0)  # mean 69.1667, sample std 1.0408, population std 0.8498


def pl303(run):
    return [f for f in run.findings if f["code"] == "PL303"]


# -- compared to the precision written ---------------------------------------------

@pytest.mark.parametrize("mean,std", [
    ("69.17", "1.04"),                 # round(x, 2), as the upstream summary tool writes
    ("69.167", "1.041"),               # round(x, 3)
    ("69.1667", "1.0408"),
    ("69.1666666667", "1.04083299973"),  # full precision
    ("69.16666666666667", "1.0408329997330665"),
])
def test_rounded_summary_is_clean(repo, mean, std):
    run = lint(repo(phase(SCORES, [f"score_mean: {mean}", f"score_std: {std}"])), "--all")
    assert pl303(run) == []
    assert run.code == 0


@pytest.mark.parametrize("mean", ["69.16", "69.165", "69.17"])
def test_a_tie_may_round_either_way(repo, mean):
    # 69.16 and 69.17 average 69.165 exactly: round-half-even and round-half-up
    # writers differ, and the float mean is a hair off the tie.
    run = lint(repo(phase((69.16, 69.17), [f"score_mean: {mean}", "score_std: 0.01"])), "--all")
    assert pl303(run) == []


@pytest.mark.parametrize("mean,decimals,proposal", [
    ("69.18", 2, "69.17"),
    ("69.16", 2, "69.17"),
    ("69.166", 3, "69.167"),
    ("69.170", 3, "69.167"),   # trailing zeros are decimals written
])
def test_rounded_but_wrong_is_pl303(repo, mean, decimals, proposal):
    run = lint(repo(phase(SCORES, [f"score_mean: {mean}", "score_std: 1.04"])), "--all")
    [f] = pl303(run)
    assert (f["path"], f["line"], f["column"]) == (SUMMARY, 2, 13)
    assert f["message"] == (f"score_mean {mean} is not the 3 attempts' mean 69.1667 rounded to "
                            f"{decimals} decimals ({proposal})")
    assert f["hint"] == f"set score_mean to {proposal}, or fix the attempt files"


def test_past_the_tolerance_the_message_says_no_rounding(repo):
    # Half a unit of the 4th decimal (5e-5) is finer than 1e-6 of 69.17: the
    # tolerance decides, and the hint keeps the 4 decimals written.
    run = lint(repo(phase(SCORES, ["score_mean: 69.1650", "score_std: 1.04"])), "--all")
    [f] = pl303(run)
    assert f["message"] == "score_mean is 69.1650 but the 3 attempts average 69.1667"  # as written
    assert f["hint"] == "set score_mean to 69.1667, or fix the attempt files"


def test_message_of_the_issue(repo):
    run = lint(repo(phase(SCORES, ["score_mean: 69.18", "score_std: 1.04"])), "--all", fmt="text")
    assert (f"{SUMMARY}:2:13: PL303 [*] score_mean 69.18 is not the 3 attempts' mean 69.1667 rounded to "
            "2 decimals (69.17)") in run.output


@pytest.mark.parametrize("mean,proposal", [("69.2", "69.17"), ("69", "69.17"), ("6.917e+1", "69.17")])
def test_fewer_than_two_decimals_is_pl303_with_the_two_decimals_hint(repo, mean, proposal):
    run = lint(repo(phase(SCORES, [f"score_mean: {mean}", "score_std: 1.04"])), "--all")
    [f] = pl303(run)
    assert (f["path"], f["line"]) == (SUMMARY, 2)
    assert "at least 2 decimals" in f["hint"]
    assert proposal in f["hint"]


def test_one_decimal_rounding_is_named(repo):
    run = lint(repo(phase(SCORES, ["score_mean: 69.2", "score_std: 1.04"])), "--all")
    [f] = pl303(run)
    assert f["message"].startswith("score_mean 69.2 is the 3 attempts' mean 69.1667 rounded to 1 decimal, "
                                   "too few decimals to compare")
    assert f["hint"] == "write score_mean with at least 2 decimals: 69.17"


def test_integer_mean_that_is_exact_is_clean(repo):
    run = lint(repo(phase((70.0, 70.0), ["score_mean: 70", "score_std: 0"])), "--all")
    assert pl303(run) == []


def test_rounded_cost_total_is_clean(repo):
    costs = (["cost: 0.123456"], ["cost: 0.2333"], ["cost: 0.0000"])  # 0.356756
    for written in ("0.36", "0.357", "0.3568", "0.356756"):
        run = lint(repo(phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", f"cost: {written}"], costs)),
                   "--all")
        assert pl303(run) == [], written


def test_rounded_cost_total_that_is_wrong(repo):
    costs = (["cost: 0.123456"], ["cost: 0.2333"], ["cost: 0.0000"])
    run = lint(repo(phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", "cost: 0.35"], costs)), "--all")
    [f] = pl303(run)
    assert (f["path"], f["line"]) == (SUMMARY, 4)
    assert f["message"] == "cost 0.35 is not the 3 attempts' total cost 0.356756 rounded to 2 decimals (0.36)"


def test_integer_totals_stay_exact(repo):
    tokens = (["token: 100"], ["token: 200"], ["token: 301"])
    run = lint(repo(phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", "token: 600"], tokens)), "--all")
    [f] = pl303(run)
    assert (f["line"], f["message"]) == (4, "token is 600 but the 3 attempts' token add up to 601")


def test_population_std_is_named(repo):
    # sample std 0.125; 0.102062 is the population std (n in the denominator)
    run = lint(repo(phase((50.0, 50.125, 50.25), ["score_mean: 50.125", "score_std: 0.102062"])), "--all")
    [f] = pl303(run)
    assert (f["path"], f["line"], f["column"]) == (SUMMARY, 3, 12)
    assert f["message"] == ("score_std 0.102062 is the population standard deviation (n in the denominator); "
                            "RFC-0005's score_std is the sample standard deviation of the 3 attempts' scores, "
                            "with n - 1: 0.125")
    assert f["hint"] == "set score_std to 0.125000 (the sample standard deviation)"


def test_rounded_population_std_is_named(repo):
    run = lint(repo(phase(SCORES, ["score_mean: 69.17", "score_std: 0.85"])), "--all")
    [f] = pl303(run)
    assert "population standard deviation" in f["message"]
    assert f["hint"] == "set score_std to 1.04 (the sample standard deviation)"


# -- no planted mistake is lost: off by more than the written precision --------------

@pytest.mark.parametrize("lines,line", [
    (["score_mean: 69.18", "score_std: 1.04"], 2),
    (["score_mean: 69.1767", "score_std: 1.04"], 2),
    (["score_mean: 71.6666666667", "score_std: 1.04"], 2),
    (["score_mean: 69.1650", "score_std: 1.04"], 2),          # 4 decimals: 69.1667
    (["score_mean: 69.17", "score_std: 1.05"], 3),
    (["score_mean: 69.17", "score_std: 1.0418"], 3),
    (["score_mean: 69.17", "score_std: 1.44337567297"], 3),
    (["score_mean: 69.17", "score_std: 0.8498"], 3),          # population std
    (["score_mean: 69.17", "score_std: 1.04", "cost: 0.37"], 4),
    (["score_mean: 69.17", "score_std: 1.04", "cost: 0.3577"], 4),
    (["score_mean: 69.17", "score_std: 1.04", "cost: 3.57e-1"], 4),  # exponent form: tolerance only
    (["score_mean: 0.69", "score_std: 1.04"], 2),             # a fraction instead of a percentage
])
def test_off_by_more_than_written_precision_is_pl303(repo, lines, line):
    costs = (["cost: 0.123456"], ["cost: 0.2333"], ["cost: 0.0000"])
    run = lint(repo(phase(SCORES, lines, costs)), "--all")
    assert [(f["path"], f["line"]) for f in pl303(run)] == [(SUMMARY, line)]
    assert run.code == 1


def test_example_repository_keeps_its_planted_summary_mismatch():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "examples" / "repo"
    run = lint(root, "--all")
    assert run.at("PL303") == [(
        "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml", 2)]


# -- the precision helpers ----------------------------------------------------------

@pytest.mark.parametrize("text,d", [
    ("69.17", 2), ("69.170", 3), ("70", 0), ("70.", 0), ("-0.5", 1), ("+.125", 3), ("1_000.25", 2),
    ("6.9e1", 0), ("6.917E+1", 0), ("0x1F", 0), (".inf", 0), ("", 0), (None, 0),
])
def test_written_decimals(text, d):
    assert written_decimals(text) == d


@pytest.mark.parametrize("want,decimals", [
    (69.16666666666667, 2), (69.16666666666667, 3), (0.356756, 2), (0.000356756, 0), (0.000356756, 2),
    (-0.0001, 2), (1.0408329997330665, 1), (123456.789, 2), (0.0, 0), (2.5e16, 2),
])
def test_a_proposal_agrees_with_what_it_proposes(want, decimals):
    text = propose(want, decimals)
    assert agrees(float(text), want, max(written_decimals(text), 0))


def test_small_value_proposed_with_two_significant_digits():
    assert propose(0.000356756, 0) == "0.00036"
    assert propose(69.16666666666667, 0) == "69.17"
    assert propose(-0.0001, 2) == "0.00"


@pytest.mark.parametrize("src,point,full", [
    ("1e-3", "1.0e-3", "0.001"), ("1e3", "1.0e+3", "1000"), ("1.5e3", "1.5e+3", "1500"),
    ("-2E-2", "-2.0e-2", "-0.02"), ("1e400", None, None), ("1e30", "1.0e+30", None),
    ("e3", None, None), ("1e" + "9" * 5000, None, None), ("9" * 5000 + "e3", None, None),
])
def test_yaml11_number_spellings(src, point, full):
    assert yaml11_number_spellings(src) == (point, full)


# -- the mean of the attempt files present while n_attempt says more ---------------

def test_mean_of_present_attempts_is_named(repo):
    files = phase((69.5, 70.0), ["score_mean: 69.75", "score_std: 0.35"])
    files[SUMMARY] = files[SUMMARY].replace("n_attempt: 2", "n_attempt: 3")
    run = lint(repo(files), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL302"]
    assert f["path"] == f"{TEST}/attempt-3.yaml"
    assert f["message"] == ("attempt-3.yaml is missing (summary.yaml line 1 says n_attempt: 3, so "
                            "attempt-1.yaml..attempt-3.yaml must exist); score_mean is the mean of the 2 "
                            "attempt files present, not of 3")
    assert f["hint"].startswith("if 2 attempts ran, set n_attempt: 2")
    assert pl303(run) == []  # PL303 needs every attempt file: PL302 says what is wrong


def test_missing_attempt_without_that_coincidence_says_nothing_more(repo):
    files = phase((69.5, 70.0), ["score_mean: 60.0", "score_std: 0.35"])
    files[SUMMARY] = files[SUMMARY].replace("n_attempt: 2", "n_attempt: 3")
    [f] = [f for f in lint(repo(files), "--all").findings if f["code"] == "PL302"]
    assert "score_mean" not in f["message"]
    assert f["hint"] == "add attempt-3.yaml, or correct n_attempt in summary.yaml"


def test_documented_examples_behave_as_documented(repo):
    from penguin_lint.rules import get_rule
    rule = get_rule("PL303")
    for (path, text), lines in ((rule.bad, [3, 4]), (rule.good, [])):
        files = phase(SCORES, [])
        files[path] = text
        run = lint(repo(files), "--all")
        assert [(f["path"], f["line"]) for f in run.findings] == [(path, ln) for ln in lines]
    assert "population standard deviation" in pl303(lint(repo({**phase(SCORES, []), rule.bad[0]: rule.bad[1]}),
                                                         "--all"))[1]["message"]


def test_number_text_is_the_source_as_written():
    from penguin_lint.loaders.toml_loader import load_toml
    from penguin_lint.loaders.yaml_loader import load_yaml
    from penguin_lint.loaders.numbers import number_text
    paths = [("score_mean",), ("score_std",), ("n_attempt",), ("x", "cost")]
    toml = load_toml("n_attempt = 3\nscore_mean = 69.170   # c\nscore_std = 1_000.25\n[x]\ncost = 6.9e1\n", "s.toml")
    assert [number_text(toml, p) for p in paths] == ["69.170", "1_000.25", "3", "6.9e1"]
    yml = load_yaml("n_attempt: 3\nscore_mean: 69.170   # c\nscore_std: 1.0\nx: {cost: 6.9e+1}\n", "s.yaml")
    assert [number_text(yml, p) for p in paths] == ["69.170", "1.0", "3", "6.9e+1"]


def test_hostile_decimals_are_bounded(repo):
    import time
    long_mean = "69.1" + "6" * 200_000
    start = time.monotonic()
    run = lint(repo(phase(SCORES, [f"score_mean: {long_mean}", "score_std: 0.8" + "4" * 100_000])), "--all")
    assert time.monotonic() - start < 10
    [f] = pl303(run)  # the std (0.8444..., population-like) is wrong; the long mean agrees
    assert f["line"] == 3 and len(f["message"]) < 300 and len(f["hint"]) < 300


# -- properties of the precision rule ----------------------------------------------

_SCORES = st.lists(st.floats(min_value=0, max_value=100, allow_nan=False).map(lambda x: round(x, 2)),
                   min_size=2, max_size=8)


@settings(max_examples=300, deadline=None)
@given(_SCORES, st.integers(min_value=2, max_value=6))
def test_any_rounding_of_the_exact_value_agrees(scores, d):
    mean, std, _ = mean_std(scores)
    for want in (mean, std):
        # what round() writes, what a half-up formatter writes, and the proposal
        for text in (repr(round(want, d)), format(want, f".{d}f"), propose(want, d)):
            assert agrees(float(text), want, d), (text, want)


@settings(max_examples=300, deadline=None)
@given(_SCORES, st.integers(min_value=2, max_value=6), st.sampled_from([-1, 1]))
def test_one_unit_off_in_the_last_decimal_is_a_mismatch(scores, d, sign):
    mean, _, _ = mean_std(scores)
    off = float(format(mean, f".{d}f")) + sign * 10.0 ** -d
    # An exact tie (0.515 to 2 decimals) is half a unit from both neighbours: either agrees.
    assume(abs(abs(off - mean) - 0.5 * 10.0 ** -d) > 1e-9)
    expected = abs(off - mean) > max(1e-6 * max(abs(mean), abs(off)), 1e-9)  # unless the tolerance is looser
    assert agrees(off, mean, d) is not expected
