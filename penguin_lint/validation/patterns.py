"""Regular expressions a pull request supplies, matched in linear time.

Harbor row schemas carry ``pattern``, ``patternProperties`` and
``propertyNames`` written by whoever opens the pull request. Python's ``re``
backtracks: ``^(a|aa)+$`` or ``(.*a){12}x`` on a short value takes hours. RE2
(the ``google-re2`` wheels) matches in time linear in the value and bounds
the memory of a compiled pattern, so no pattern can hang a run; what RE2
cannot do in linear time (back references, lookaround, atomic groups) it does
not compile, and that is reported as such.

JSON Schema patterns are ECMA-262 regular expressions. Where ECMA-262 and
RE2's syntax differ, the pattern is rewritten to keep ECMA-262's meaning:

- ``.`` matches anything but a line terminator (``\\n``, ``\\r``, U+2028, U+2029);
- ``\\s`` / ``\\S`` is ECMA-262's white space (including ``\\v``, no-break space
  and the Unicode spaces); inside a class ``[\\S...]`` keeps RE2's meaning;
- ``\\uXXXX``, ``\\u{X...}``, ``\\cX``, ``\\0`` and ``[\\b]`` (backspace);
- ``[]`` matches nothing and ``[^]`` anything;
- ``\\Z`` (Python's end of text) is read as ``\\z``.

``\\d``, ``\\w`` and ``\\b`` are ASCII in both; ``$`` is the end of the value
(no trailing newline slips through, unlike Python's ``re``). Repeat counts are
at most 1000, as RE2 allows. Lone surrogates (in a pattern or a value) are
read as U+FFFD.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Optional

# ECMA-262 WhiteSpace and LineTerminator, as the members of a class.
_ECMA_SPACE = (r"\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}"
               r"\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}")
_DOT = r"[^\n\r\x{2028}\x{2029}]"
_HEX = "0123456789abcdefABCDEF"
# Patterns longer than this are refused outright: no legitimate property
# pattern comes near it, and RE2's own memory bound does the rest.
MAX_PATTERN_LENGTH = 10_000
# RE2's memory bound for one compiled pattern (its program and its DFA
# cache, which falls back to a slower linear-time match when full), and how
# many compiled patterns are kept: together, at most some 256 MB.
MAX_MEM = 2 << 20
MAX_CACHED = 128


class PatternError(Exception):
    """A pattern that cannot be matched in linear time, or is not valid: the
    message names the construct, the hint says what to write instead."""

    def __init__(self, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.hint = hint


def _unsupported(what: str, hint: str) -> PatternError:
    return PatternError(f"{what}, which a linear-time engine cannot match", hint)


def translate(pattern: str) -> str:
    """The RE2 pattern with the ECMA-262 meaning of ``pattern``; raises
    PatternError for constructs RE2 does not have."""
    out = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                raise PatternError("it ends with a lone backslash")
            e = pattern[i + 1]
            i += 2
            if e in "123456789" and not in_class:
                j = i
                while j < n and pattern[j].isdigit():
                    j += 1
                raise _unsupported(f"it has a back reference (\\{pattern[i - 1:j]})",
                                   "match the repeated text explicitly")
            if e == "k" and i < n and pattern[i] == "<" and not in_class:
                raise _unsupported("it has a named back reference (\\k<...>)",
                                   "match the repeated text explicitly")
            if e == "u":
                if i < n and pattern[i] == "{":
                    end = pattern.find("}", i)
                    digits = pattern[i + 1:end] if end > 0 else ""
                    if not digits or len(digits) > 6 or any(d not in _HEX for d in digits):
                        raise PatternError("it has an invalid \\u{...} escape")
                    out.append(r"\x{" + digits + "}")
                    i = end + 1
                    continue
                digits = pattern[i:i + 4]
                if len(digits) != 4 or any(d not in _HEX for d in digits):
                    raise PatternError("it has an invalid \\u escape (\\u needs four hex digits)")
                out.append(r"\x{" + digits + "}")
                i += 4
                continue
            if e == "c" and i < n and pattern[i].isascii() and pattern[i].isalpha():
                out.append(r"\x{%02X}" % (ord(pattern[i]) % 32))
                i += 1
                continue
            if e == "0" and not (i < n and pattern[i].isdigit()):
                out.append(r"\x{00}")
                continue
            if e == "s":
                out.append(_ECMA_SPACE if in_class else "[" + _ECMA_SPACE + "]")
                continue
            if e == "S" and not in_class:
                out.append("[^" + _ECMA_SPACE + "]")
                continue
            if e == "b" and in_class:
                out.append(r"\x{08}")
                continue
            if e == "Z" and not in_class:
                out.append(r"\z")
                continue
            out.append("\\" + e)
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            if pattern.startswith("[]", i):
                out.append(r"[^\x{0}-\x{10FFFF}]")
                i += 2
                continue
            if pattern.startswith("[^]", i):
                out.append(r"[\x{0}-\x{10FFFF}]")
                i += 3
                continue
            in_class = True
            out.append(c)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?", i):
            for head, what in (("(?=", "a lookahead (?=...)"), ("(?!", "a negative lookahead (?!...)"),
                               ("(?<=", "a lookbehind (?<=...)"), ("(?<!", "a negative lookbehind (?<!...)")):
                if pattern.startswith(head, i):
                    raise _unsupported(f"it has {what}", "describe the text itself, or split it into two patterns "
                                                         "under allOf/not")
            if pattern.startswith("(?>", i):
                raise _unsupported("it has an atomic group (?>...)", "use a plain group")
        if c == ".":
            out.append(_DOT)
            i += 1
            continue
        if c in "*+?}" and i + 1 < n and pattern[i + 1] == "+":
            raise _unsupported("it has a possessive repeat (" + c + "+)", "use a plain repeat")
        out.append(c)
        i += 1
    return "".join(out)




@lru_cache(maxsize=MAX_CACHED)
def _compile(pattern: str):
    import re2

    if len(pattern) > MAX_PATTERN_LENGTH:
        return PatternError(f"it is {len(pattern):,} characters long (at most {MAX_PATTERN_LENGTH:,})")
    try:
        translated = translate(_without_surrogates(pattern))
    except PatternError as e:
        return e
    options = re2.Options()
    options.log_errors = False  # RE2 would print the pattern, raw, on stderr
    options.max_mem = MAX_MEM
    try:
        return re2.compile(translated, options)
    except re2.error as e:
        return PatternError(_explain(e))


def _explain(error) -> str:
    raw = error.args[0] if error.args else b""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    if text.startswith("invalid repetition size"):
        return "it repeats more than 1000 times (" + text.partition(": ")[2] + "), more than RE2 allows"
    if text.startswith("pattern too large"):
        return "it compiles to more than RE2's memory bound (repeats inside repeats?)"
    if text.startswith("invalid perl operator"):
        return "it has a group RE2 does not know (" + text.partition(": ")[2] + ")"
    return "it is not a valid regular expression: " + text


def check(pattern: str) -> Optional[PatternError]:
    """None when ``pattern`` can be used, else why not (for a finding)."""
    compiled = _compile(pattern)
    return compiled if isinstance(compiled, PatternError) else None


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's
    ``pattern``). A pattern that does not compile matches nothing: the schema
    that holds it is refused before any value is checked."""
    compiled = _compile(pattern)
    if isinstance(compiled, PatternError):
        return False
    try:
        return compiled.search(text) is not None
    except UnicodeEncodeError:  # lone surrogates cannot be UTF-8 for RE2
        return compiled.search(_without_surrogates(text)) is not None


def search_any(patterns: Iterable[str], text: str) -> bool:
    return any(search(p, text) for p in patterns)


def _without_surrogates(text: str) -> str:
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
