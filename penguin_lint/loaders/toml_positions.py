"""Where every key and value of a TOML file is.

tomllib gives no positions, so this scanner reads the text again, only when
a finding needs a position (or when tomllib refuses a file for a repeated key,
to name both places): a clean file costs one tomllib parse and nothing more.

It records, as character offsets, the span of every value (a key's value, an
array item, an inline table's member, at any depth; a multi-line string with
its quotes) and of every key (the last part of a dotted key, quotes
included). A table's span runs from the first place that names it (its header,
or a dotted key's part) to the last character of its last value, so that it
holds everything the table holds; an array of tables likewise, and each of
its entries from its ``[[`` header. Ends are exclusive, as everywhere: the
offset just after the last character.

The scanner reads what tomllib read, so it does not judge the syntax; on text
tomllib refused it skips what it cannot read to the next line.
"""
from __future__ import annotations

import re
import weakref
from typing import Dict, List, Optional, Tuple

from penguin_lint.findings import Position
from penguin_lint.loaders.document import MAX_DEPTH
from penguin_lint.loaders.positions import LineIndex
from penguin_lint.loaders.toml_parser import tomllib

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_BASIC_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
# Spaces, line ends and comments between the things of a file or an array.
_BLANK = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_SPACE = re.compile(r"[ \t]*")
# A scalar that is not a string: number, boolean, date, time. A date and a
# time may be separated by one space ("1979-05-27 07:32:00Z").
_SCALAR = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[^ \t\r\n,\]}#]*|[^ \t\r\n,\]}#=\[{\"']+")
# Deeper than this the scanner stops and lookups fall back to an ancestor
# (tomllib reads nesting deeper than Python's recursion allows here).
_MAX_NESTING = MAX_DEPTH + 16

Span = Tuple[int, int]


class _Stop(Exception):
    pass


def multiline_end(text: str, j: int, q: str) -> int:
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


def basic_string_end(text: str, i: int) -> int:
    return _BASIC_STRING.match(text, i).end()


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        # path -> [start, end]: widened as more of a table is seen
        self.values: Dict[tuple, List[int]] = {}
        self.keys: Dict[tuple, Span] = {}
        # (key as written, first span, second span)
        self.dups: List[Tuple[str, Span, Span]] = []
        self._defined: Dict[tuple, Span] = {}
        # an array of tables -> how many entries so far
        self._aot: Dict[tuple, int] = {}

    # -- spans ------------------------------------------------------------------
    def _touch(self, path: tuple, s: int, e: int) -> None:
        v = self.values.get(path)
        if v is None:
            self.values[path] = [s, e]
        else:
            if s < v[0]:
                v[0] = s
            if e > v[1]:
                v[1] = e

    def _widen(self, path: tuple, s: int, e: int) -> None:
        """``path`` and every table above it hold [s, e)."""
        for k in range(len(path), -1, -1):
            self._touch(path[:k], s, e)

    # -- keys -------------------------------------------------------------------
    def _key(self, i: int):
        """The (dotted) key at ``i``: ([(name, start, end)], offset after it), or (None, i)."""
        text, n = self.text, self.n
        parts = []
        while True:
            i = _SPACE.match(text, i).end()
            if i >= n:
                return None, i
            c = text[i]
            if c == '"':
                e = basic_string_end(text, i)
                raw = text[i + 1:e - 1]
                name = raw
                if "\\" in raw:
                    try:
                        name = tomllib.loads('k = "' + raw + '"')["k"]
                    except tomllib.TOMLDecodeError:
                        pass
            elif c == "'":
                k = text.find("'", i + 1)
                nl = text.find("\n", i + 1)
                if k == -1 or (nl != -1 and nl < k):
                    return None, i
                e = k + 1
                name = text[i + 1:k]
            else:
                m = _BARE.match(text, i)
                if not m:
                    return None, i
                e = m.end()
                name = m.group()
            parts.append((name, i, e))
            i = _SPACE.match(text, e).end()
            if i < n and text[i] == ".":
                i += 1
                continue
            return parts, i

    # -- values -----------------------------------------------------------------
    def _value(self, i: int, path: tuple, depth: int) -> int:
        """Record the value at ``i`` under ``path``; return the offset after it."""
        if depth > _MAX_NESTING:
            raise _Stop
        text = self.text
        c = text[i] if i < self.n else ""
        if c == '"' or c == "'":
            if text.startswith(c * 3, i):
                e = multiline_end(text, i, c)
            elif c == '"':
                e = basic_string_end(text, i)
            else:
                k = text.find("'", i + 1)
                nl = text.find("\n", i + 1)
                e = self.n if k == -1 else k + 1
                if nl != -1 and nl < e:
                    e = nl
        elif c == "[":
            e = self._array(i, path, depth)
        elif c == "{":
            e = self._inline_table(i, path, depth)
        else:
            m = _SCALAR.match(text, i)
            if m is None:
                raise _Stop
            e = m.end()
        self.values[path] = [i, e]
        return e

    def _array(self, i: int, path: tuple, depth: int) -> int:
        text, n = self.text, self.n
        j = _BLANK.match(text, i + 1).end()
        k = 0
        while j < n and text[j] != "]":
            j = self._value(j, path + (k,), depth + 1)
            k += 1
            j = _BLANK.match(text, j).end()
            if j < n and text[j] == ",":
                j = _BLANK.match(text, j + 1).end()
            elif j >= n or text[j] != "]":
                raise _Stop
        if j >= n:
            raise _Stop
        return j + 1

    def _inline_table(self, i: int, path: tuple, depth: int) -> int:
        text, n = self.text, self.n
        j = _BLANK.match(text, i + 1).end()
        while j < n and text[j] != "}":
            j = self._pair(j, path, depth + 1, None)
            j = _BLANK.match(text, j).end()
            if j < n and text[j] == ",":
                j = _BLANK.match(text, j + 1).end()
            elif j >= n or text[j] != "}":
                raise _Stop
        if j >= n:
            raise _Stop
        return j + 1

    def _pair(self, i: int, table: tuple, depth: int, defined: Optional[dict]) -> int:
        """Record ``key = value`` at ``i`` in ``table``; return the offset after it."""
        parts, j = self._key(i)
        text = self.text
        if not parts or j >= self.n or text[j] != "=":
            raise _Stop
        j = _SPACE.match(text, j + 1).end()
        full = table + tuple(p[0] for p in parts)
        name, ks, ke = parts[-1]
        if defined is not None:
            whole = (parts[0][1], ke)
            first = defined.get(full)
            if first is not None:
                self.dups.append((".".join(p[0] for p in parts), first, whole))
            else:
                defined[full] = whole
        self.keys[full] = (ks, ke)
        end = self._value(j, full, depth)
        # the tables a dotted key makes: from their part to the value's end
        for k, (_, ps, pe) in enumerate(parts[:-1]):
            sub = table + tuple(p[0] for p in parts[:k + 1])
            self.keys.setdefault(sub, (ps, pe))
            self._touch(sub, ps, end)
        return end

    # -- the file ---------------------------------------------------------------
    def _resolve(self, names: tuple) -> tuple:
        """A header's key path with the last entry of each array of tables on it."""
        out: tuple = ()
        for name in names:
            out = out + (name,)
            count = self._aot.get(out)
            if count:
                out = out + (count - 1,)
        return out

    def _header(self, i: int) -> Tuple[tuple, int]:
        """Record the table header at ``i``; return (the table's path, the offset after it)."""
        text = self.text
        aot = text.startswith("[[", i)
        parts, j = self._key(i + (2 if aot else 1))
        close = "]]" if aot else "]"
        if not parts or not text.startswith(close, j):
            raise _Stop
        end = j + len(close)
        names = tuple(p[0] for p in parts)
        prefix = self._resolve(names[:-1])
        for k, (_, ps, pe) in enumerate(parts[:-1]):
            sub = self._resolve(names[:k + 1])
            self.keys.setdefault(sub, (ps, pe))
            self._touch(sub, ps, end)
        _, ks, ke = parts[-1]
        path = prefix + (names[-1],)
        if aot:
            count = self._aot.get(path, 0)
            self._aot[path] = count + 1
            self.keys.setdefault(path, (ks, ke))
            self._touch(path, i, end)
            path = path + (count,)
        else:
            first = self._defined.get(path)
            if first is not None:
                self.dups.append((".".join(names), first, (i, end)))
            else:
                self._defined[path] = (i, end)
            self.keys.setdefault(path, (ks, ke))
        self._touch(path, i, end)
        return path, end

    def scan(self) -> None:
        text, n = self.text, self.n
        table: tuple = ()
        # where the current table's text starts, and where what was read of it ends
        start = last = -1
        i = _BLANK.match(text, 0).end()
        while i < n:
            try:
                if text[i] == "[":
                    if last >= 0:
                        self._widen(table, start, last)
                    start = i
                    table, i = self._header(i)
                    last = i
                else:
                    if start < 0:
                        start = i
                    i = self._pair(i, table, 0, self._defined)
                    last = i
            except _Stop:
                # text tomllib refused: go on at the next line
                nl = text.find("\n", i)
                if nl == -1:
                    break
                i = nl + 1
            except RecursionError:
                break
            i = _BLANK.match(text, i).end()
        if last >= 0:
            self._widen(table, start, last)


def scan(text: str) -> _Scanner:
    s = _Scanner(text)
    s.scan()
    return s


def duplicates(text: str) -> List[Tuple[str, Position, Position]]:
    """Keys and tables defined twice: (key, first place, second place)."""
    s = scan(text)
    lines = LineIndex(text)
    return [(key, lines.position(*a), lines.position(*b)) for key, a, b in s.dups]


class TomlPositions:
    """``Document``'s view of a TOML file's spans: path -> Position, the scan
    run on the first lookup."""

    __slots__ = ("_doc", "_values", "_keys", "lines")

    def __init__(self, doc):
        # weak: the document holds this object (see Document.__slots__)
        self._doc = weakref.ref(doc)
        self._values: Optional[Dict[tuple, List[int]]] = None
        self._keys: Dict[tuple, Span] = {}
        self.lines: Optional[LineIndex] = None

    def _ensure(self) -> None:
        if self._values is None:
            text = self._doc().text or ""
            s = scan(text)
            self._values, self._keys = s.values, s.keys
            self.lines = LineIndex(text)

    def value(self, path) -> Position:
        self._ensure()
        path = tuple(path)
        while True:
            span = self._values.get(path)
            if span is not None:
                return self.lines.position(span[0], span[1])
            if not path:
                return Position(1, 1)
            path = path[:-1]

    def key(self, path) -> Position:
        self._ensure()
        span = self._keys.get(tuple(path))
        if span is None:
            return self.value(path)
        return self.lines.position(span[0], span[1])

    def starts(self):
        """(path, (line, column)) where each key and each value starts."""
        self._ensure()
        pos = self.lines.pos
        for path, span in self._keys.items():
            yield path, pos(span[0])
        for path, span in self._values.items():
            yield path, pos(span[0])
