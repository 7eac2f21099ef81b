"""JSON with positions and duplicate keys.

The standard library's scanner gives neither, so this is a small
recursive-descent parser that reuses its string and number scanners. Depth is
bounded (a deep document is a finding, not a RecursionError).
"""
from __future__ import annotations

import json.decoder
import re

from penguin_lint.findings import Problem
from penguin_lint.loaders.document import MAX_CONTAINERS, MAX_DEPTH, MAX_VALUES, Document, too_big
from penguin_lint.loaders.positions import LineIndex, PositionTree, TreePositions

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
    doc.text = text
    lines = LineIndex(text)
    tree = PositionTree(len(text))
    doc.set_tree(TreePositions(tree, lines, doc))
    starts, ends, kstarts, kends, firsts, nexts = tree.start, tree.end, tree.kstart, tree.kend, tree.first, tree.next
    trail = []  # the keys and indices down to the value being read
    opened = []  # offsets of the objects and arrays being read
    containers = [0]
    # node -> where a repeated key was first written (the node moves to the last)
    first_keys = {}

    def node(start, ks, ke, parent, last):
        n = len(starts)
        if n >= MAX_VALUES:
            raise _Error(f"more than {MAX_VALUES:,} values in one file", _WS.match(text, start).end())
        starts.append(start), ends.append(start), kstarts.append(ks), kends.append(ke)
        firsts.append(-1), nexts.append(-1)
        tree.flags.append(0)
        if parent >= 0:
            if last == -1:
                firsts[parent] = n
            else:
                nexts[last] = n
        return n

    def ws(i):
        return _WS.match(text, i).end()

    def value(i, me):
        """Read the value at ``i`` into node ``me`` (already created)."""
        if len(trail) > MAX_DEPTH:
            raise _Error(f"nesting deeper than {MAX_DEPTH} levels", i)
        i = ws(i)
        if i >= len(text):
            raise _Error("expected a value", i)
        c = text[i]
        starts[me] = i
        if c == "{" or c == "[":
            containers[0] += 1
            if containers[0] > MAX_CONTAINERS:
                raise _Error(f"more than {MAX_CONTAINERS:,} objects and arrays in one file", i)
        if c == "{":
            out = {}
            seen = {}
            last = -1
            opened.append(i)
            i = ws(i + 1)
            if text.startswith("}", i):
                ends[me] = i + 1
                opened.pop()
                return out, i + 1
            while True:
                i = ws(i)
                if not text.startswith('"', i):
                    raise _Error("expected a quoted key", i)
                try:
                    key, kend = _scanstring(text, i + 1)
                except ValueError as e:
                    raise _Error(e.msg, e.pos) from None
                ks = i
                i = ws(kend)
                if not text.startswith(":", i):
                    raise _Error("expected ':'", i)
                child = seen.get(key)
                if child is not None:
                    first_line = lines.pos(first_keys.setdefault(child, kstarts[child]))[0]
                    doc.add_at(  # capped: a file may repeat a key a million times
                        "PL002",
                        f"duplicate key '{key}' (first defined on line {first_line}); the last one wins",
                        lambda ks=ks, ke=kend: lines.position(ks, ke), "remove one of them")
                    # the key keeps its first place and takes the last value
                    kstarts[child], kends[child], firsts[child] = ks, kend, -1
                    tree.forget(child)
                else:
                    child = node(i, ks, kend, me, last)
                    seen[key] = last = child
                trail.append(key)
                v, i = value(i + 1, child)
                trail.pop()
                out[key] = v
                i = ws(i)
                if text.startswith(",", i):
                    i += 1
                    continue
                if text.startswith("}", i):
                    ends[me] = i + 1
                    opened.pop()
                    return out, i + 1
                raise _Error("expected ',' or '}'", i)
        if c == "[":
            out = []
            last = -1
            opened.append(i)
            i = ws(i + 1)
            if text.startswith("]", i):
                ends[me] = i + 1
                opened.pop()
                return out, i + 1
            while True:
                last = child = node(i, -1, -1, me, last)
                trail.append(len(out))
                v, i = value(i, child)
                trail.pop()
                out.append(v)
                i = ws(i)
                if text.startswith(",", i):
                    i += 1
                    continue
                if text.startswith("]", i):
                    ends[me] = i + 1
                    opened.pop()
                    return out, i + 1
                raise _Error("expected ',' or ']'", i)
        if c == '"':
            try:
                s, end = _scanstring(text, i + 1)
            except ValueError as e:
                raise _Error(e.msg, e.pos) from None
            ends[me] = end
            return s, end
        for word, v in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i):
                ends[me] = i + len(word)
                return v, i + len(word)
        m = _NUMBER.match(text, i)
        if m and m.end() > i:
            lit = m.group()
            try:
                v = float(lit) if (m.group(1) or m.group(2)) else int(lit)
            except ValueError:  # Python refuses integers of thousands of digits
                raise _Error(f"number with {len(lit)} digits is too large to read", i) from None
            if v in (_INF, -_INF) or too_big(v):
                doc.nonfinite.append(tuple(trail))
            ends[me] = m.end()
            return v, m.end()
        raise _Error("expected a value", i)

    try:
        data, end = value(0, node(0, -1, -1, -1, -1))
        end = ws(end)
        if end != len(text):
            raise _Error("extra data after the document", end)
    except _Error as e:
        msg, hint = e.msg, None
        if opened and not text[e.offset:].strip():
            # the file ended inside an object or an array: say where it began
            what, close = ("object", "}") if text[opened[-1]] == "{" else ("array", "]")
            msg = f"the {what} opened at line {lines.pos(opened[-1])[0]} is never closed"
            hint = f"close it with '{close}'"
        doc.problems.append(Problem("PL001", f"JSON does not parse: {msg}", lines.position(e.offset), hint))
        return doc
    doc.data = data
    doc.parsed = True
    doc.settle_nonfinite()
    return doc
