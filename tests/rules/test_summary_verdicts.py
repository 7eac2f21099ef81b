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
