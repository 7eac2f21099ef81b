"""Numbers as authors write them: the precision a value was written to, whether
it agrees with an exact value at that precision, and how to write a proposed
value the way the author would.

Result scripts round (``round(mean, 2)``), so "equals" follows the decimals
written: a value with d >= 2 decimals agrees when it is within half a unit of
its d-th decimal of the exact value. Every value also agrees within a relative
1e-6 (absolute 1e-9), whichever is looser, so a full-precision float whose last
digit differs by summation order still agrees. With fewer than 2 decimals, or
in exponent form, only that tolerance applies.
"""
from __future__ import annotations

import math
import re
from typing import Optional

REL_TOL, ABS_TOL = 1e-6, 1e-9
#: fewer decimals than this are not taken as rounding (69.2, 70, 1)
MIN_DECIMALS = 2
# Past this many decimals a float has no more to say; proposals stop there.
MAX_DECIMALS = 15
# Beyond this magnitude a fixed-point proposal would be a wall of digits.
_FIXED_LIMIT = 1e15

# No one writes a number longer than this by hand; longer text is not quoted.
_LONGEST_NUMBER = 60

_PLAIN_DECIMAL = re.compile(r"[-+]?[0-9_]*(?:\.([0-9_]*))?\Z")


def written_decimals(text: Optional[str]) -> int:
    """How many decimals ``text`` (a number as written) carries: ``69.17`` is
    2, ``69.170`` is 3, ``70`` is 0. Exponent form (``6.9e1``), hexadecimal
    and anything else that is not a plain decimal count as 0: they say
    nothing about rounding."""
    if not text:
        return 0
    m = _PLAIN_DECIMAL.match(text.strip())
    if m is None or m.group(1) is None:
        return 0
    return len(m.group(1).replace("_", ""))


def is_plain_decimal(text: Optional[str]) -> bool:
    """Digits with at most a decimal point: no exponent, no other base."""
    return bool(text) and _PLAIN_DECIMAL.match(text.strip()) is not None and any(
        c.isdigit() for c in text)


def tolerance_agrees(have: float, want: float) -> bool:
    """The precision-free comparison: relative 1e-6, absolute 1e-9."""
    return math.isclose(have, want, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def half_unit(decimals: int) -> float:
    return 0.5 * 10.0 ** -decimals


def rounding_applies(want: float, decimals: int) -> bool:
    """Whether half a unit of the ``decimals``-th decimal is looser than the
    tolerance around ``want``: only then is "rounded to d decimals" what a
    comparison is about."""
    if decimals < MIN_DECIMALS:
        return False
    return half_unit(decimals) > max(REL_TOL * abs(want), ABS_TOL)


def agrees(have: float, want: float, decimals: int) -> bool:
    """Whether ``have``, written with ``decimals`` decimals, states the exact
    value ``want`` (both finite floats)."""
    if tolerance_agrees(have, want):
        return True
    return decimals >= MIN_DECIMALS and agrees_rounded(have, want, decimals)


def agrees_rounded(have: float, want: float, decimals: int) -> bool:
    """Whether ``have`` is ``want`` rounded to ``decimals`` decimals (any
    number of them: 69.2 is 69.1667 rounded to 1)."""
    # A tie (exact mean 69.165) may round either way, and ``want`` carries a
    # float's error: a sliver above half a unit still agrees.
    return abs(have - want) <= half_unit(decimals) * (1 + 1e-9)


def proposal_decimals(want: float, decimals: int) -> int:
    """The decimals to propose ``want`` with: the author's own when they
    wrote at least 2; else 2, or more for a small value so that it keeps two
    significant digits (0.00036, not 0.00)."""
    if decimals >= MIN_DECIMALS:
        return min(decimals, MAX_DECIMALS)
    d = MIN_DECIMALS
    if want != 0 and abs(want) < 0.1:
        d = 1 - math.floor(math.log10(abs(want)))
    return min(max(d, MIN_DECIMALS), MAX_DECIMALS)


def propose(want: float, decimals: int) -> str:
    """``want`` written as the author would write it (see proposal_decimals);
    what this returns, written back, agrees with ``want``."""
    if not math.isfinite(want):
        return format(want, ".10g")
    if abs(want) >= _FIXED_LIMIT:
        return full(want)
    text = format(want, f".{proposal_decimals(want, decimals)}f")
    if text.startswith("-") and float(text) == 0:
        text = text[1:]  # -0.00 is 0.00
    return text


# Past this many decimals an author wrote every digit a float has, not a rounding.
FULL_BEYOND = 6


def full(value: float) -> str:
    """``repr`` with a decimal point before any exponent: YAML 1.1 reads
    ``1e-05`` as text, ``1.0e-05`` as a number."""
    text = repr(value)
    if "e" in text and "." not in text:
        mant, _, exp = text.partition("e")
        text = f"{mant}.0e{exp if exp[0] in '+-' else '+' + exp}"
    return text


def exact_sum(texts) -> Optional[str]:
    """The sum of numbers written as ``texts`` (their source text), to the
    last decimal any of them has, when every one is a plain decimal: a total
    the attempts state exactly (0.5 + 0.9147 is 1.4147, not a float's
    1.4146999...). None when one is not known or not plain. Summed as
    integers scaled to that decimal: exact at any length (decimal's default
    context keeps 28 digits, and refuses to quantize past them)."""
    if not texts or not all(is_plain_decimal(t) and len(t) <= _LONGEST_NUMBER for t in texts):
        return None
    places = max(written_decimals(t) for t in texts)
    if not places:
        return None
    total = 0
    for text in texts:
        body = text.strip().replace("_", "")
        whole, _, frac = body.lstrip("+-").partition(".")
        scaled = int(whole or "0") * 10 ** places + int(frac.ljust(places, "0"))
        total += -scaled if body.startswith("-") else scaled
    digits = str(abs(total)).rjust(places + 1, "0")
    return ("-" if total < 0 else "") + digits[:-places] + "." + digits[-places:]


def proposal(want, written: Optional[str], exact: Optional[str] = None) -> Optional[str]:
    """The text that replaces a number written as ``written`` (its source
    text, None when unknown) to state ``want``: what PL303's hint proposes
    and what ``--fix`` writes, so the two never differ.

    An int is written as is. A float keeps the author's precision: the
    decimals written (at least 2, more for a small value, see
    proposal_decimals), or every digit (``repr``) when the author wrote more
    decimals than any comparison can see. Exponent forms and other
    spellings say nothing about rounding and get decimals. None when the
    value cannot be written (not finite, an int of hundreds of digits)."""
    if isinstance(want, bool) or not isinstance(want, (int, float)):
        return None
    if isinstance(want, int):
        return str(want) if want.bit_length() < 200 else None
    if not math.isfinite(want):
        return None
    decimals = written_decimals(written) if is_plain_decimal(written) else 0
    if decimals > FULL_BEYOND and not rounding_applies(want, decimals):
        return full(want)
    text = propose(want, decimals)
    if exact is not None and written_decimals(exact) > written_decimals(text):
        return exact  # a value known exactly keeps every digit it has
    return text


def number_text(doc, path) -> Optional[str]:
    """The source text of the number at ``path`` in ``doc``, as written.

    YAML's loader keeps the text of every plain scalar it typed; other formats
    are read back from the file's text at the value's position (one line)."""
    imp = doc.implicit.get(tuple(path))
    if imp is not None and imp[0] in ("int", "float"):
        # Past 60 characters the decimals are beyond any tolerance anyway,
        # and the text is not worth quoting in a message.
        return imp[1] if len(imp[1]) <= _LONGEST_NUMBER else None
    text = getattr(doc, "text", None)
    if not text:
        return None
    pos = doc.value_pos(tuple(path))
    if pos.end_line != pos.line or pos.end_column is None:
        return None
    # Find the line without splitting a large file into a list of lines.
    start = 0
    for _ in range(pos.line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    line = text[start:] if end == -1 else text[start:end]
    src = line[pos.column - 1:pos.end_column - 1].strip()
    return src if 0 < len(src) <= _LONGEST_NUMBER else None


# -- summaries and attempts ------------------------------------------------------

def is_number(v):
    """A real number, not a bool (YAML's ``true`` is an int to Python)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def as_float(v):
    """``v`` as a finite float, or None (NaN, infinity, an int beyond float)."""
    try:
        f = float(v)
    except (OverflowError, ValueError):
        return None
    return f if math.isfinite(f) else None


def states(have, want, decimals=0):
    """Whether the summary's ``have`` (written with ``decimals`` decimals)
    matches the computed ``want`` (finite); None when ``have`` is NaN or
    infinite, which PL103 reports."""
    if isinstance(have, int) and isinstance(want, int):
        return have == want  # integer totals add up exactly
    fh = as_float(have)
    if fh is None:
        # An int too large for a float is a real (wrong) number; NaN and
        # infinity are not numbers to compare.
        return False if isinstance(have, int) else None
    fw = as_float(want)
    if fw is None:
        return False  # a sum of integers beyond any float a summary can hold
    if isinstance(want, int):
        return tolerance_agrees(fh, fw)  # an integer total is not rounded
    return agrees(fh, fw, decimals)


def mean_std(scores):
    """(mean, sample std, population std) of finite floats, the stds None for
    a single score; None on overflow."""
    n = len(scores)
    try:
        mean = math.fsum(scores) / n
        std = pop = None
        if n > 1:
            squares = math.fsum((x - mean) ** 2 for x in scores)
            std = math.sqrt(squares / (n - 1))
            pop = math.sqrt(squares / n)
    except (OverflowError, ValueError):
        return None
    if not all(v is None or math.isfinite(v) for v in (mean, std, pop)):
        return None
    return mean, std, pop


def attempts_mean(scores):
    """The mean of finite float scores, or None on overflow."""
    stats = mean_std(scores) if scores else None
    return None if stats is None else stats[0]


def summary_states(doc, key, want):
    """Whether the summary's ``key`` states ``want`` to the precision it is
    written with (False when it is absent or not a number)."""
    have = doc.data.get(key)
    if not is_number(have):
        return False
    return bool(states(have, want, written_decimals(number_text(doc, (key,)))))


# -- YAML 1.1 numbers ------------------------------------------------------------

_EXPONENT = re.compile(r"([-+]?)([0-9]*)(?:\.([0-9]*))?[eE]([-+]?)([0-9]+)\Z")
# Past this exponent "in full" is a wall of zeros, not a proposal.
_MAX_FULL_EXPONENT = 20


def yaml11_number_spellings(src: str, integer: bool = False):
    """For a number YAML 1.1 reads as text (``1e-3``, ``1.5e3``: its floats
    need a decimal point and a signed exponent), the spellings that YAML
    reads as the same number: (with a decimal point, in full). Either may be
    None; ``integer`` asks for integer spellings only."""
    if len(src) > _LONGEST_NUMBER:
        return None, None  # no one mistypes a number this long; spelling it out would not help
    m = _EXPONENT.match(src.strip())
    if m is None:
        return None, None
    sign, whole, frac, esign, exp = m.groups()
    if not whole and not frac:
        return None, None
    try:
        if not math.isfinite(float(src)):
            return None, None  # beyond any float: no spelling of it is a number
    except (OverflowError, ValueError):
        return None, None
    point = None
    if not integer:
        point = f"{sign}{whole or '0'}.{frac or '0'}e{esign or '+'}{exp}"
    full = None
    if len(exp) <= 3 and int(exp) <= _MAX_FULL_EXPONENT:
        from decimal import Context, Decimal, InvalidOperation, localcontext  # rare: a number in exponent form

        try:
            value = Decimal(src.strip())
        except InvalidOperation:
            value = None
        # every digit written kept: the default context rounds to 28 of them
        with localcontext(Context(prec=_LONGEST_NUMBER + _MAX_FULL_EXPONENT + 2)):
            if value is not None:
                if value == value.to_integral_value():
                    full = str(int(value))
                elif not integer:
                    full = format(value.normalize(), "f")
    return point, full


def yaml11_number_hint(src: str, integer: bool = False) -> Optional[str]:
    """The hint for a number written so that YAML 1.1 reads it as text."""
    point, full = yaml11_number_spellings(src, integer)
    if point and full:
        return (f"YAML 1.1 reads {src} as text, not a number; "
                f"write it with a decimal point and a signed exponent ({point}) or in full ({full})")
    if point or full:
        return f"YAML 1.1 reads {src} as text, not a number; write it as {point or full}"
    return None
