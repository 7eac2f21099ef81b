"""Messages quote a value as the file writes it (issue 30): the source text
of the scalar, not Python's rendering of the number it holds."""
from __future__ import annotations

import pytest

from tests.conftest import VALID, lint, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"


@pytest.mark.parametrize("written", ["71.6666666667", "60.0", "60"])
def test_pl303_quotes_the_summarys_value_as_written(tmp_path, written):
    root = write_repo(tmp_path / "r", {SUMMARY: f"n_attempt: 2\nscore_mean: {written}\nscore_std: 0.0\n"}, VALID)
    (f,) = [f for f in lint(root, "--all", "--no-cache").findings if f["code"] == "PL303"]
    assert (f["path"], f["line"]) == (SUMMARY, 2)
    assert f["message"].startswith(f"score_mean is {written} but the 2 attempts average 50")


@pytest.mark.parametrize("written,other", [("yes", "m"), ("~", "m"), ("0x1A", "m"), ("No", "yes")])
def test_pl403_quotes_a_label_yaml_typed_as_the_file_writes_it(repo, written, other):
    from tests.rules.test_rules_leaderboards import BENCH_B, board, experiment, mean_of

    files = {**BENCH_B, **experiment("exp-1", bench="bench-a", model=other), **experiment("exp-2", model=written)}
    files.update(board(mean_of("exp-1", "exp-2")))
    run = lint(repo(files), "--all")
    (f,) = [f for f in run.findings if f["code"] == "PL403"]
    shown_first = f"'{other}'" if other == "m" else other  # a string quoted, a typed value as written
    assert (f"model_name is {shown_first} for 'exp-1' (line 9) but {written} for 'exp-2' (line 10)"
            in f["message"]), f["message"]


@pytest.mark.parametrize("path,old,new,message", [
    ("leaderboards/lb/leaderboard.yaml", "status: draft", "status: yes",
     "'status' must be one of draft, published, not yes"),
    (SUMMARY, "n_attempt: 2", "n_attempt: 0x0", "'n_attempt' must be at least 1, not 0x0"),
    (SUMMARY, "score_std: 0.0", "score_std: -1_0.0", "'score_std' must be at least 0, not -1_0.0"),
    ("packages/bench-a/benchmark_config.toml", 'status = "draft"', "status = 1_000",
     "'status' must be one of draft, published, not 1_000"),
])
def test_schema_messages_quote_a_typed_value_as_the_file_writes_it(tmp_path, path, old, new, message):
    import textwrap

    text = textwrap.dedent(VALID[path])
    assert old in text
    root = write_repo(tmp_path / "r", {path: text.replace(old, new)}, VALID)
    messages = [f["message"] for f in lint(root, "--all", "--no-cache").findings if f["path"] == path]
    assert message in messages, messages
