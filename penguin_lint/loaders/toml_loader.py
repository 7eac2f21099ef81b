"""TOML through tomllib (or its compiled twin, toml_parser.py), with a
scanner for positions.

tomllib gives no positions. The scanner (toml_positions.py) runs only when a
finding needs a position or when tomllib refuses a file for a repeated key
(to name both places), so a clean file costs one tomllib parse.
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Optional

from penguin_lint.loaders.toml_parser import tomllib

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_CONTAINERS, MAX_DEPTH, MAX_VALUES, Document
from penguin_lint.loaders.positions import LineIndex
from penguin_lint.loaders.toml_positions import TomlPositions, basic_string_end, duplicates, multiline_end

_ERR_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_ERR_EOF = re.compile(r"\(at end of document\)")
_WS = " \t"
# TOML integers are 64-bit; tomllib reads any size (0x... of any length).
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1


def load_toml(text: str, path: str) -> Document:
    doc = Document(path, "toml")
    doc.text = text
    doc.set_tree(TomlPositions(doc))
    deep = _deep_key(text)
    if deep is not None:
        # Refused before tomllib, whose time grows with the square of a
        # key's length: a.a.a... of 50,000 parts takes about a minute.
        line = text.count("\n", 0, deep) + 1
        col = deep - (text.rfind("\n", 0, deep) + 1) + 1
        doc.problems.append(Problem(
            "PL001", f"dotted key of more than {MAX_DEPTH} parts (nesting deeper than {MAX_DEPTH} levels)",
            Position(line, col)))
        return doc
    crowded = _crowded(text)
    if crowded is not None:
        # Refused before tomllib, as YAML and JSON are refused while parsing:
        # a million tiny inline tables would take hundreds of MB.
        offset, what = crowded
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        doc.problems.append(Problem("PL001", f"more than {what} in one file", Position(line, col),
                                    "a data file this large belongs under data/<benchmark-id>/"))
        return doc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = _ERR_POS.search(msg)
        # tomllib counts lines at LF, as editors do; its end of the document
        # is placed at the end of the last line, inside the file
        line, col = (int(m.group(1)), int(m.group(2))) if m else LineIndex(text).pos(len(text))
        core = _ERR_POS.sub("", _ERR_EOF.sub("", msg)).strip()
        if "overwrite" in core or "declare" in core or "already" in core:
            dups = duplicates(text)
            if dups:
                for key, first, second in dups:
                    doc.add(Problem(  # capped
                        "PL002",
                        f"duplicate key '{key}' (first defined on line {first.line})",
                        second, "remove one of them"))
                return doc
        doc.problems.append(Problem("PL001", f"TOML does not parse: {core}", Position(line, col)))
        return doc
    except ValueError:
        # Python refuses to read integers of thousands of digits.
        m = re.search(r"[0-9_]{4000,}", text)
        line = text.count("\n", 0, m.start()) + 1 if m else 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1 if m else 1
        doc.problems.append(Problem("PL001", "number too large to read", Position(line, col)))
        return doc
    except RecursionError:
        # the interpreted parser gives up where the compiled one goes on to _plain's limit
        doc.problems.append(Problem("PL001", f"nesting deeper than {MAX_DEPTH} levels", Position(1, 1)))
        return doc
    try:
        doc.data = _plain(data, (), doc)
    except _TooDeep:
        doc.problems.append(Problem("PL001", f"nesting deeper than {MAX_DEPTH} levels", Position(1, 1)))
        return doc
    except _OutOfRange as e:
        doc.problems.append(Problem(
            "PL001", "TOML does not parse: integer outside the 64-bit range TOML allows",
            doc.value_pos(e.path)))
        return doc
    doc.parsed = True
    return doc


class _TooDeep(Exception):
    pass


class _OutOfRange(Exception):
    def __init__(self, path):
        super().__init__(path)
        self.path = path


def _plain(value, path, doc):
    """Dates and times become their ISO text, so that the rules judge text."""
    t = type(value)
    if t is dict:
        if len(path) >= MAX_DEPTH:
            raise _TooDeep
        out = {}
        for k, v in value.items():
            tv = type(v)
            # most values are short strings and numbers: no call, no path tuple
            out[k] = v if tv is str or tv is bool or (tv is int and _INT_MIN <= v <= _INT_MAX) \
                else _plain(v, path + (k,), doc)
        return out
    if t is list:
        if len(path) >= MAX_DEPTH:
            raise _TooDeep
        return [_plain(v, path + (i,), doc) for i, v in enumerate(value)]
    if t is float:
        if not math.isfinite(value):
            doc.nonfinite.append(path)
        return value
    if t is int:
        if not _INT_MIN <= value <= _INT_MAX:
            # An int of thousands of digits cannot even be printed in a message.
            raise _OutOfRange(path)
        return value
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        text = value.isoformat()
        doc.implicit[path] = ("timestamp", text)
        return text
    return value


# -- dotted keys too long for tomllib -------------------------------------------
_QUOTE_OR_COMMENT = re.compile(r"[\"'#]")
# Characters a dotted key (or a float) is made of once strings are blanked out.
_KEY_RUN = re.compile(r"[A-Za-z0-9_\-. \t]+")


def _deep_key(text: str) -> Optional[int]:
    """Offset of a dotted key (or table header) of more than MAX_DEPTH parts.

    Strings and comments are blanked first (a quoted key part becomes one
    bare-looking part), so dots inside them never count. Linear in the text.
    """
    if text.count(".") < MAX_DEPTH:
        return None
    skeleton = _blank_strings(text)
    for m in _KEY_RUN.finditer(skeleton):
        seg = m.group()
        if seg.count(".") < MAX_DEPTH:
            continue
        run, start, offset = 0, m.start(), m.start()
        for part in seg.split("."):
            word = part.strip(_WS)
            if not word:
                run = 0
            elif any(c in word for c in _WS):
                # "a b.c": only the last word is a key part
                run, start = 1, offset + len(part.rstrip(_WS)) - len(word.split()[-1])
            else:
                if run == 0:
                    start = offset + len(part) - len(part.lstrip(_WS))
                run += 1
                if run > MAX_DEPTH:
                    return start
            offset += len(part) + 1
    return None


# Strings and comments, to count what is outside them at C speed.
_STRINGS_AND_COMMENTS = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\']|\'(?!\'\'))*\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
    re.S)


def _crowded(text: str):
    """(offset, what) when the file holds more tables and arrays, or more
    values, than a data file may (MAX_CONTAINERS, MAX_VALUES); else None.

    Counted outside strings and comments: each table or array opens with a
    bracket or a brace, and each value follows an '=' or a ','. A count on
    the raw text settles nearly every file at once. The finding is placed
    at the file's start: the file as a whole is too big."""
    if text.count("{") + text.count("[") <= MAX_CONTAINERS and \
            text.count(",") + text.count("=") <= MAX_VALUES:
        return None
    code = _STRINGS_AND_COMMENTS.sub("", text)
    if code.count("{") + code.count("[") > MAX_CONTAINERS:
        return 0, f"{MAX_CONTAINERS:,} tables and arrays"
    if code.count(",") + code.count("=") > MAX_VALUES:
        return 0, f"{MAX_VALUES:,} values"
    return None


def _blank_strings(text: str) -> str:
    """``text`` of the same length with every string as q's and every comment as #'s."""
    out = []
    i, n = 0, len(text)
    while True:
        m = _QUOTE_OR_COMMENT.search(text, i)
        if m is None:
            out.append(text[i:])
            return "".join(out)
        j = m.start()
        out.append(text[i:j])
        c = text[j]
        if c == "#":
            end = text.find("\n", j)
            end = n if end == -1 else end
            out.append("#" * (end - j))
        else:
            if text.startswith(c * 3, j):
                end = multiline_end(text, j, c)
            elif c == '"':
                end = basic_string_end(text, j)
            else:
                k, nl = text.find("'", j + 1), text.find("\n", j + 1)
                end = min(k + 1 if k != -1 else n, nl if nl != -1 else n)
            out.append("q" * (end - j))
        i = end
