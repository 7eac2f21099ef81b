"""Dates and date-times are ASCII digits, as datetime.fromisoformat and the
harness read them: fullwidth or Arabic-Indic digits, which int() accepts,
are a finding, in a PenguinHarness file and in a Harbor row alike."""
from __future__ import annotations

import datetime

import pytest

from penguin_lint.validation.formats import is_date, is_date_time
from tests.conftest import VALID, lint

BENCH = "packages/bench-a/benchmark_config.toml"


@pytest.mark.parametrize("text", ["２０２６-１０-２９T１２:００:００Z", "٢٠٢٦-10-29T12:00:00Z", "2026-10-29T12:00:00+０８:００"])
def test_a_date_time_in_other_digits_is_refused_as_the_consumer_refuses_it(text):
    with pytest.raises(ValueError):
        datetime.datetime.fromisoformat(text)
    assert is_date_time(text) is False


def test_dates_in_other_digits_are_refused_and_ascii_ones_pass():
    assert is_date("２０２６-０７-２４") is False and is_date("2026-07-24") is True
    assert is_date_time("2026-10-29T12:00:00Z") is True


def test_pl204_reports_a_fullwidth_last_update(repo):
    text = VALID[BENCH].replace('last_update = "2026-10-29T12:00:00Z"', 'last_update = "２０２６-１０-２９T１２:００:００Z"')
    assert text != VALID[BENCH]
    run = lint(repo({BENCH: text}), "--all")
    assert run.code == 1 and [f["code"] for f in run.findings if f["path"] == BENCH] == ["PL204"], run.output
