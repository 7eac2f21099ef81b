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
