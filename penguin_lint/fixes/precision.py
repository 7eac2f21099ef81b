"""Numbers written back at the precision their author used.

Result scripts write ``round(x, 2)``; others write every digit. A recomputed
value is written with as many decimals as the value it replaces had (at
least 2), and in full (``repr``, the shortest text that reads back as the
same float) when that value had more than 6 decimals or an exponent: the
rewritten file then agrees with its attempts whether a check compares at
the written precision or at full precision.
"""
from __future__ import annotations

import math
import re
from typing import Optional

_DECIMALS = re.compile(r"[-+]?[0-9_]*\.([0-9_]*)\Z")
MIN_DECIMALS, FULL_BEYOND = 2, 6


def decimals(token: str) -> Optional[int]:
    """Decimals written in a number's source text; None for an exponent
    form or text that is not a plain decimal."""
    t = token.strip()
    if re.fullmatch(r"[-+]?[0-9_]+", t):
        return 0
    m = _DECIMALS.match(t)
    if m is None:
        return None
    return len(m.group(1).replace("_", ""))


def render(value, old_token: str, fmt: str) -> Optional[str]:
    """The text for ``value`` (an int or a finite float) replacing a number
    written as ``old_token``; None when it cannot be written."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, float) or not math.isfinite(value):
        return None
    d = decimals(old_token)
    if d is None or d > FULL_BEYOND:
        return full(value)
    text = format(value, f".{max(d, MIN_DECIMALS)}f")
    if text.lstrip("-").strip("0.") == "" and text.startswith("-"):
        text = text[1:]  # -0.00 says nothing 0.00 does not
    return text


def full(value: float) -> str:
    """``repr`` with a decimal point before any exponent: YAML 1.1 reads
    ``1e-05`` as text, ``1.0e-05`` as a number."""
    text = repr(value)
    if "e" in text and "." not in text:
        mant, _, exp = text.partition("e")
        text = f"{mant}.0e{exp if exp[0] in '+-' else '+' + exp}"
    return text
