"""Where the cursor is in a YAML buffer: the key whose value it is in, what
is typed of that value, and the other scalar keys of the same mapping.

Read from the line's text, not from a parse: a buffer being typed in is
often not valid YAML (``experiment_id: "cod`` has no closing quote), and
completion must still know it is in an ``experiment_id``. Flow mappings
(``{ experiment_id: "x", phase: "test" }``) and block mappings (one key a
line, the first after ``- ``) are both read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

# ``key: value`` where the value is quoted (maybe unfinished) or plain
_PAIR = re.compile(r"""(?P<key>[A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+|(?=["']))"""
                   r"""(?P<value>"[^"\n]*"?|'[^'\n]*'?|[^\s,{}\[\]#][^,{}\[\]#\n]*?)?(?=[ \t]*(?:[,}#]|$))""")
_INDENT = re.compile(r"[ \t]*(?:-[ \t]+)*")
# a document's lines are looked at this far around the cursor for a block
# mapping's other keys (real leaves have three)
MAX_SCAN = 50


@dataclass
class Spot:
    """The scalar value the cursor is in, as written."""

    key: str                         # the key whose value the cursor is in
    value: str                       # the value as written, unquoted
    typed: str                       # what of it is before the cursor
    start: int                       # the value's first character (after a quote)
    end: int                         # the character after the value (before a quote)
    siblings: Dict[str, str] = field(default_factory=dict)  # the mapping's other scalar keys


def _pairs(line: str) -> List[Tuple[str, str, int, int, int]]:
    """(key, value unquoted, key start, value start, value end) on ``line``."""
    out = []
    for m in _PAIR.finditer(line):
        raw = m.group("value") or ""
        start = m.start("value") if raw else m.end()
        end = start + len(raw)
        if raw and raw[0] in "\"'":
            start += 1
            if len(raw) > 1 and raw[-1] == raw[0]:
                end -= 1
        out.append((m.group("key"), line[start:end], m.start("key"), start, end))
    return out


def _key_column(line: str) -> Optional[int]:
    """The column of the first key of a block line, None for a line with none."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    return _INDENT.match(line).end()


def spot(lines: List[str], index: int, column: int) -> Optional[Spot]:
    """The spot at character ``column`` of line ``index`` (0-based), None
    when the cursor is in no value."""
    if not 0 <= index < len(lines):
        return None
    line = lines[index]
    pairs = _pairs(line)
    here = next((p for p in pairs if p[3] <= column <= p[4]), None)
    if here is None:
        return None
    key, value, key_col, start, end = here
    out = Spot(key, value, value[:column - start], start, end)
    brace = line.rfind("{", 0, key_col)
    if brace >= 0 and "}" not in line[brace:key_col]:
        # a flow mapping: its keys are on this line
        close = line.find("}", end)
        out.siblings = {k: v for k, v, c, _, _ in pairs if brace < c and (close < 0 or c < close)}
    else:
        out.siblings = _block_siblings(lines, index, key_col)
    out.siblings.pop(key, None)
    return out


def _block_siblings(lines: List[str], index: int, col: int) -> Dict[str, str]:
    found: Dict[str, str] = {}

    def take(i: int) -> bool:
        """Read line ``i``; False once it is outside the mapping."""
        c = _key_column(lines[i])
        if c is None:
            return True
        if c < col:
            return False
        if c == col:
            for k, v, kc, _, _ in _pairs(lines[i]):
                if kc == col:
                    found.setdefault(k, v)
        return True

    # an item's first line (``- key:``) is where its mapping starts
    if "-" not in lines[index][:col]:
        for i in range(index - 1, max(index - MAX_SCAN, -1), -1):
            if not take(i) or "-" in lines[i][:col]:
                break
    for i in range(index + 1, min(index + MAX_SCAN, len(lines))):
        if "-" in lines[i][:col] or not take(i):
            break
    return found


def char_index(line: str, units: int, measure) -> int:
    """The character of ``line`` at ``units`` code units (as ``measure``
    counts them: the position encoding's), the end for more."""
    if line.isascii():
        return min(units, len(line))
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i
        n += measure(ch)
    return len(line)
