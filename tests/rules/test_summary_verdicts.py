"""PL303's verdicts in detail: the wording for one attempt, totals whose
float sum overflows, and which keys a summary is compared on."""
from tests.conftest import lint
from tests.rules.test_rules_experiments import TEST, attempt, summary

SUMMARY = f"{TEST}/summary.yaml"


def pl303(run):
    return [(f["line"], f["message"]) for f in run.findings if f["code"] == "PL303"]


def test_one_attempt_is_worded_as_one(repo):
    files = {f"{TEST}/attempt-2.yaml": None,
             f"{TEST}/attempt-1.yaml": attempt(50.1234, "cost: 0.5", "token: 10"),
             SUMMARY: summary(1, 50.13, 0.0, "cost: 0.8", "token: 12")}
    run = lint(repo(files), "--all")
    assert run.code == 1
    assert pl303(run) == [
        (2, "score_mean 50.13 is not the one attempt's score 50.1234 rounded to 2 decimals (50.12)"),
        (4, "cost is 0.8 but the one attempt's cost is 0.5"),
        (5, "token is 12 but the one attempt's token is 10")]
    files[SUMMARY] = summary(1, 51.0, 0.0, "cost: 0.5", "token: 10")
    assert pl303(lint(repo(files), "--all")) == [(2, "score_mean is 51.0 but the one attempt scores 50.1234")]


def test_several_attempts_are_worded_by_their_number(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 0.5", "token: 10"),
             f"{TEST}/attempt-2.yaml": attempt(52.0, "cost: 0.25", "token: 20"),
             SUMMARY: summary(2, 51.01, "1.40", "cost: 0.7", "token: 31")}
    assert pl303(lint(repo(files), "--all")) == [
        (2, "score_mean 51.01 is not the 2 attempts' mean 51 rounded to 2 decimals (51.00)"),
        (3, "score_std 1.40 is not the sample standard deviation of the 2 attempts' scores 1.41421 "
            "rounded to 2 decimals (1.41)"),
        (4, "cost 0.7 is the 2 attempts' total cost 0.75 rounded to 1 decimal, too few decimals to compare "
            "(at least 2 are compared to the precision written, fewer within a relative 1e-6)"),
        (5, "token is 31 but the 2 attempts' token add up to 30")]


def test_float_totals_that_overflow_are_not_compared(repo):
    # each cost is a float, their sum is past the largest one: no total to compare
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 1.5e+308", "duration_ms: 10.5"),
             f"{TEST}/attempt-2.yaml": attempt(50.0, "cost: 1.5e+308", "duration_ms: 20.5"),
             SUMMARY: summary(2, 51.0, 0.0, "cost: 1.0", "duration_ms: 30.0")}
    run = lint(repo(files), "--all")
    assert run.code == 1 and run.stderr == ""
    assert pl303(run) == [(2, "score_mean is 51.0 but the 2 attempts average 50"),
                          (5, "duration_ms is 30.0 but the 2 attempts' duration_ms add up to 31")]


def test_numbers_are_shown_with_the_digits_that_tell_them_apart(repo):
    # integers beyond a float's precision are shown whole; a float sum as the floats make it;
    # an integer of 200 bits or more in exponent form
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 0.1", f"token: {2 ** 60}", f"duration_ms: {2 ** 199}"),
             f"{TEST}/attempt-2.yaml": attempt(50.0, "cost: 0.2", "token: 1", "duration_ms: 0"),
             SUMMARY: summary(2, 50.0, 0.0, "cost: 1", f"token: {2 ** 60}", "duration_ms: 1")}
    assert pl303(lint(repo(files), "--all")) == [
        (4, "cost is 1 but the 2 attempts' cost add up to 0.3"),
        (5, f"token is {2 ** 60} but the 2 attempts' token add up to {2 ** 60 + 1}"),
        (6, "duration_ms is 1 but the 2 attempts' duration_ms add up to 8.034690221e+59")]
    files[SUMMARY] = summary(2, 50.0, 0.0, "cost: 0.3", f"token: {2 ** 60 + 1}", f"duration_ms: {2 ** 198}")
    assert pl303(lint(repo(files), "--all")) == [
        (6, f"duration_ms is {2 ** 198} but the 2 attempts' duration_ms add up to 8.034690221e+59")]


def test_a_total_that_cannot_be_summed_leaves_the_next_ones_compared(repo):
    # cost: missing in one attempt, duration_ms: infinite in one (PL103's), token: compared
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "duration_ms: .inf", "token: 10"),
             f"{TEST}/attempt-2.yaml": attempt(50.0, "cost: 0.5", "duration_ms: 20.5", "token: 20"),
             SUMMARY: summary(2, 50.0, 0.0, "cost: 9.0", "duration_ms: 1.0", "token: 31")}
    run = lint(repo(files), "--all")
    assert pl303(run) == [(6, "token is 31 but the 2 attempts' token add up to 30")]


def test_a_mean_written_as_a_whole_number_is_too_few_decimals_to_compare(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0), f"{TEST}/attempt-2.yaml": attempt(50.8),
             SUMMARY: summary(2, 50, "0.57")}
    assert pl303(lint(repo(files), "--all")) == [
        (2, "score_mean 50 is the 2 attempts' mean 50.4 rounded to a whole number, too few decimals to compare "
            "(at least 2 are compared to the precision written, fewer within a relative 1e-6)")]


def test_a_large_total_with_two_decimals_is_compared_within_the_tolerance(repo):
    # half a cent is finer than a relative 1e-6 of 7000: no rounding to speak of
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 3500.25"),
             f"{TEST}/attempt-2.yaml": attempt(50.0, "cost: 3500.25"),
             SUMMARY: summary(2, 50.0, 0.0, "cost: 6000.00")}
    run = lint(repo(files), "--all")
    assert [(f["line"], f["message"], f["hint"]) for f in run.findings if f["code"] == "PL303"] == [
        (4, "cost is 6000.00 but the 2 attempts' cost add up to 7000.5",
         "set cost to 7000.50, or fix the attempt files")]
