"""JSON with positions and duplicate keys.

The standard library's scanner gives neither, so this is a small
recursive-descent parser that reuses its string and number scanners. Depth is
bounded (a deep document is a finding, not a RecursionError).
"""
from __future__ import annotations

import json.decoder
import re

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_DEPTH, Document, LineIndex, too_big

_scanstring = json.decoder.scanstring
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
_INF = float("inf")
_WS = re.compile(r"[ \t\n\r]*")


class _Error(Exception):
    def __init__(self, msg, offset):
        super().__init__(msg)
        self.msg, self.offset = msg, offset


def load_json(text: str, path: str) -> Document:
    doc = Document(path, "json")
    lines = LineIndex(text)
    values, keys = {}, {}
    doc.set_index(values, keys)

    def pos(a, b):
        l1, c1 = lines.pos(a)
        l2, c2 = lines.pos(b)
        return Position(l1, c1, l2, c2)

    def ws(i):
        return _WS.match(text, i).end()

    def value(i, path):
        if len(path) > MAX_DEPTH:
            raise _Error(f"nesting deeper than {MAX_DEPTH} levels", i)
        i = ws(i)
        if i >= len(text):
            raise _Error("expected a value", i)
        c = text[i]
        start = i
        if c == "{":
            out = {}
            seen = {}
            i = ws(i + 1)
            if text.startswith("}", i):
                values[path] = pos(start, i + 1)
                return out, i + 1
            while True:
                i = ws(i)
                if not text.startswith('"', i):
                    raise _Error("expected a quoted key", i)
                try:
                    key, kend = _scanstring(text, i + 1)
                except ValueError as e:
                    raise _Error(e.msg, e.pos) from None
                kpos = pos(i, kend)
                i = ws(kend)
                if not text.startswith(":", i):
                    raise _Error("expected ':'", i)
                sub = path + (key,)
                if key in seen:
                    doc.add(Problem(  # capped: a file may repeat a key a million times
                        "PL002",
                        f"duplicate key '{key}' (first defined on line {seen[key].line}); "
                        "the last one wins", kpos, "remove one of them"))
                else:
                    seen[key] = kpos
                keys[sub] = kpos
                v, i = value(i + 1, sub)
                out[key] = v
                i = ws(i)
                if text.startswith(",", i):
                    i += 1
                    continue
                if text.startswith("}", i):
                    values[path] = pos(start, i + 1)
                    return out, i + 1
                raise _Error("expected ',' or '}'", i)
        if c == "[":
            out = []
            i = ws(i + 1)
            if text.startswith("]", i):
                values[path] = pos(start, i + 1)
                return out, i + 1
            while True:
                v, i = value(i, path + (len(out),))
                out.append(v)
                i = ws(i)
                if text.startswith(",", i):
                    i += 1
                    continue
                if text.startswith("]", i):
                    values[path] = pos(start, i + 1)
                    return out, i + 1
                raise _Error("expected ',' or ']'", i)
        if c == '"':
            try:
                s, end = _scanstring(text, i + 1)
            except ValueError as e:
                raise _Error(e.msg, e.pos) from None
            values[path] = pos(start, end)
            return s, end
        for word, v in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i):
                values[path] = pos(start, i + len(word))
                return v, i + len(word)
        m = _NUMBER.match(text, i)
        if m and m.end() > i:
            lit = m.group()
            try:
                v = float(lit) if (m.group(1) or m.group(2)) else int(lit)
            except ValueError:  # Python refuses integers of thousands of digits
                raise _Error(f"number with {len(lit)} digits is too large to read", i) from None
            if v in (_INF, -_INF) or too_big(v):
                doc.nonfinite.append(path)
            values[path] = pos(start, m.end())
            return v, m.end()
        raise _Error("expected a value", i)

    try:
        data, end = value(0, ())
        end = ws(end)
        if end != len(text):
            raise _Error("extra data after the document", end)
    except _Error as e:
        line, col = lines.pos(min(e.offset, len(text)))
        doc.problems.append(Problem("PL001", f"JSON does not parse: {e.msg}", Position(line, col)))
        return doc
    doc.data = data
    doc.parsed = True
    return doc
