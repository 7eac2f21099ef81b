"""TOML through tomllib (or its compiled twin, toml_parser.py), with a
line scanner for positions.

tomllib gives no positions. The scanner below reads keys and table headers
line by line; it runs only when a finding needs a position or when tomllib
refuses a file for a repeated key (to name both lines), so a clean file costs
one tomllib parse.
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Dict, List, Optional, Tuple

from penguin_lint.loaders.toml_parser import tomllib

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_CONTAINERS, MAX_DEPTH, MAX_VALUES, Document
from penguin_lint.loaders.positions import LineIndex, split_lines

_ERR_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_ERR_EOF = re.compile(r"\(at end of document\)")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_WS = " \t"
# TOML integers are 64-bit; tomllib reads any size (0x... of any length).
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1


def load_toml(text: str, path: str) -> Document:
    doc = Document(path, "toml")
    doc.text = text
    doc._indexer = _index
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
            dups = _scan(text)[2]
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
_BASIC_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
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
                end = _multiline_end(text, j, c)
            elif c == '"':
                end = _BASIC_STRING.match(text, j).end()
            else:
                k, nl = text.find("'", j + 1), text.find("\n", j + 1)
                end = min(k + 1 if k != -1 else n, nl if nl != -1 else n)
            out.append("q" * (end - j))
        i = end


def _multiline_end(text: str, j: int, q: str) -> int:
    """End offset of the multi-line string opening at ``j`` (or the text's end)."""
    n = len(text)
    k = j + 3
    while True:
        k = text.find(q * 3, k)
        if k == -1:
            return n
        if q == '"':
            b = k
            while b > j + 3 and text[b - 1] == "\\":
                b -= 1
            if (k - b) % 2 == 1:  # an escaped quote
                k += 1
                continue
        end = k + 3
        while end < n and end - k < 5 and text[end] == q:  # up to two quotes of content
            end += 1
        return end


def _index(doc: Document) -> None:
    values, keys, _ = _scan(doc.text or "")
    doc.set_index(values, keys)


def _parse_key(line: str, i: int) -> Tuple[Optional[List[str]], int]:
    """Parse a (dotted) key starting at ``i``; return parts and the end."""
    parts: List[str] = []
    n = len(line)
    while True:
        while i < n and line[i] in _WS:
            i += 1
        if i >= n:
            return None, i
        c = line[i]
        if c == '"':
            j = i + 1
            buf = []
            while j < n and line[j] != '"':
                if line[j] == "\\" and j + 1 < n:
                    buf.append(line[j:j + 2])
                    j += 2
                    continue
                buf.append(line[j])
                j += 1
            try:
                parts.append(tomllib.loads('k = "' + "".join(buf) + '"')["k"])
            except tomllib.TOMLDecodeError:
                parts.append("".join(buf))
            i = j + 1
        elif c == "'":
            j = line.find("'", i + 1)
            if j == -1:
                return None, n
            parts.append(line[i + 1:j])
            i = j + 1
        else:
            m = _BARE.match(line, i)
            if not m:
                return None, i
            parts.append(m.group())
            i = m.end()
        while i < n and line[i] in _WS:
            i += 1
        if i < n and line[i] == ".":
            i += 1
            continue
        return parts, i


def _skip_value(lines: List[str], ln: int, i: int) -> int:
    """Return the index of the last line of a value starting at lines[ln][i]."""
    depth = 0
    while ln < len(lines):
        line = lines[ln]
        n = len(line)
        while i < n:
            c = line[i]
            if line.startswith('"""', i) or line.startswith("'''", i):
                q = line[i:i + 3]
                end = line.find(q, i + 3)
                while end == -1:
                    ln += 1
                    if ln >= len(lines):
                        return len(lines) - 1
                    line = lines[ln]
                    n = len(line)
                    end = line.find(q, 0)
                i = end + 3
                while i < n and line[i] == q[0]:
                    i += 1
                continue
            if c == '"':
                j = i + 1
                while j < n and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
                continue
            if c == "'":
                j = line.find("'", i + 1)
                i = n if j == -1 else j + 1
                continue
            if c == "#":
                break
            if c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
            i += 1
        if depth <= 0:
            return ln
        ln += 1
        i = 0
    return len(lines) - 1


def _scan(text: str):
    values: Dict[tuple, Position] = {}
    keys: Dict[tuple, Position] = {}
    dups = []
    defined: Dict[tuple, Position] = {}
    array_counts: Dict[tuple, int] = {}
    table: tuple = ()
    lines = split_lines(text)
    ln = 0
    values[()] = Position(1, 1)
    while ln < len(lines):
        line = lines[ln]
        stripped = line.lstrip(_WS)
        indent = len(line) - len(stripped)
        if not stripped or stripped[0] == "#":
            ln += 1
            continue
        if stripped.startswith("[["):
            parts, _ = _parse_key(line, indent + 2)
            if parts:
                base = tuple(parts)
                idx = array_counts.get(base, 0)
                array_counts[base] = idx + 1
                table = base + (idx,)
                pos = Position(ln + 1, indent + 1, ln + 1, len(line.rstrip()) + 1)
                keys.setdefault(base, pos)
                values.setdefault(base, pos)
                values[table] = pos
            ln += 1
            continue
        if stripped[0] == "[":
            parts, _ = _parse_key(line, indent + 1)
            if parts:
                table = _resolve(tuple(parts), array_counts)
                pos = Position(ln + 1, indent + 1, ln + 1, len(line.rstrip()) + 1)
                if table in defined:
                    dups.append((".".join(parts), defined[table], pos))
                else:
                    defined[table] = pos
                keys[table] = pos
                values[table] = pos
            ln += 1
            continue
        parts, i = _parse_key(line, indent)
        if parts and i < len(line) and line[i] == "=":
            full = table + tuple(parts)
            kpos = Position(ln + 1, indent + 1, ln + 1, i + 1)
            if full in defined:
                dups.append((".".join(parts), defined[full], kpos))
            else:
                defined[full] = kpos
            j = i + 1
            while j < len(line) and line[j] in _WS:
                j += 1
            last = _skip_value(lines, ln, j)
            end_col = len(lines[last].split("#", 1)[0].rstrip()) + 1 if last != ln else None
            keys[full] = kpos
            values[full] = Position(ln + 1, j + 1, last + 1,
                                    end_col if end_col is not None else len(line.split(" #", 1)[0].rstrip()) + 1)
            ln = last + 1
            continue
        ln += 1
    return values, keys, dups


def _resolve(parts: tuple, array_counts: Dict[tuple, int]) -> tuple:
    """Map a header's key path onto array-of-tables indices seen so far."""
    out = ()
    for p in parts:
        out = out + (p,)
        if out in array_counts:
            out = out + (array_counts[out] - 1,)
    return out
