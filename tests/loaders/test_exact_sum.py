"""A summary's total as the attempts state it exactly (loaders.numbers.exact_sum),
held to decimal arithmetic with precision to spare."""
import decimal

from hypothesis import given, strategies as st

from penguin_lint.loaders.numbers import exact_sum, written_decimals

_digits = st.text("0123456789", min_size=0, max_size=25)
plain = st.builds(lambda sign, whole, frac, dot: sign + whole + ("." + frac if dot else ""),
                  st.sampled_from(["", "-", "+"]), _digits, _digits, st.booleans()).filter(
    lambda t: any(c.isdigit() for c in t))


def _reference(texts):
    places = max(written_decimals(t) for t in texts)
    if not places:
        return None
    with decimal.localcontext(decimal.Context(prec=200)):
        total = sum((decimal.Decimal(t) for t in texts), decimal.Decimal(0))
        return format(total.quantize(decimal.Decimal(1).scaleb(-places)), "f")


@given(st.lists(plain, min_size=1, max_size=6))
def test_exact_sum_is_the_decimal_sum(texts):
    want = _reference(texts)
    got = exact_sum(texts)
    assert got == want
    if got is not None:
        with decimal.localcontext(decimal.Context(prec=200)):
            assert decimal.Decimal(got) == sum(decimal.Decimal(t) for t in texts)


def test_exact_sum_of_long_numbers_is_exact():
    # 31 digits: past decimal's default 28, which refused to quantize the sum
    assert exact_sum(["1234567890123456789012345678901.5", "1.5"]) == "1234567890123456789012345678903.0"
    assert exact_sum(["0.5", "0.9147"]) == "1.4147"
    assert exact_sum(["-0.5", "0.5"]) == "0.0"
    assert exact_sum(["1_0.5", "+.25", "-3."]) == "7.75"
    assert exact_sum(["1", "2"]) is None and exact_sum(["1e3", "0.5"]) is None


def test_a_total_of_thirty_digits_is_a_finding_with_the_exact_total(tmp_path):
    # an attempt's cost of 31 digits made PL303 fail with an internal error
    import re
    import shutil
    from pathlib import Path

    from tests.conftest import lint

    root = tmp_path / "repo"
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "repo", root)
    summary = next(root.rglob("summary.yaml"))
    attempts = sorted(summary.parent.glob("attempt-*.yaml"))
    first = attempts[0].read_text()
    attempts[0].write_text(re.sub(r"(?m)^cost: .*$", "cost: 1234567890123456789012345678901.5", first, count=1))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1, run.stderr
    rel = summary.relative_to(root).as_posix()
    found = [f for f in run.findings if f["code"] == "PL303" and f["path"] == rel and "cost" in f["message"]]
    assert len(found) == 1 and found[0]["line"] == 4
    proposed = re.search(r"set cost to (\S+),", found[0]["hint"]).group(1)
    costs = [re.search(r"(?m)^cost: (.*)$", a.read_text()).group(1) for a in attempts]
    with decimal.localcontext(decimal.Context(prec=200)):
        assert decimal.Decimal(proposed) == sum(decimal.Decimal(c) for c in costs)
