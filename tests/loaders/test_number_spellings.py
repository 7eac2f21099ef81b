"""The spellings a hint proposes for a number YAML 1.1 reads as text (``1.5e3``)
state the number as written, every digit of it."""
import decimal

from hypothesis import given, strategies as st

from penguin_lint.loaders.numbers import yaml11_number_spellings

# at most 60 characters in all (sign, 27 digits, point, 27 digits, e, sign, 2 digits):
# past _LONGEST_NUMBER no spelling is proposed (test_no_spelling_past_sixty_characters)
_digits = st.text("0123456789", min_size=1, max_size=27)


@given(st.sampled_from(["", "-", "+"]), _digits, _digits, st.sampled_from(["", "-", "+"]),
       st.integers(0, 20))
def test_the_full_spelling_is_the_number_written(sign, whole, frac, esign, exp):
    src = f"{sign}{whole}.{frac}e{esign}{exp}"
    point, full = yaml11_number_spellings(src)
    assert point is not None
    with decimal.localcontext(decimal.Context(prec=200)):
        written = decimal.Decimal(src)
        assert decimal.Decimal(point) == written
        if full is not None:
            assert decimal.Decimal(full) == written


def test_thirty_digits_in_exponent_form_are_spelled_out_without_rounding():
    assert yaml11_number_spellings("1.2345678901234567890123456789012e5") == (
        "1.2345678901234567890123456789012e+5", "123456.78901234567890123456789012")


def test_no_spelling_past_sixty_characters():
    src = "-" + "0" * 28 + "." + "0" * 28 + "e-0"
    assert len(src) == 61
    assert yaml11_number_spellings(src) == (None, None)
    assert yaml11_number_spellings(src[1:])[0] == src[1:]
