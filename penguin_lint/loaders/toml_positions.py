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
_BARE_RUN = re.compile(r"[A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*")
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
    """The spans of a TOML text. Paths are nodes of a tree, numbered as they
    are met (node 0 is the file's top table), so that a deep path costs a
    step per part, not a tuple hashed at every depth."""

    def __init__(self, text: str):
        self.text = text
        self.n = len(text)
        self.parent = [-1]
        self.name: list = [None]
        # value and key spans by node, -1 where there is none (yet); a
        # table's is widened as more of it is seen
        self.start, self.end, self.kstart, self.kend = [-1], [-1], [-1], [-1]
        self.child: Dict[tuple, int] = {}  # (parent node, key or index) -> node
        # (key as written, first span, second span)
        self.dups: List[Tuple[str, Span, Span]] = []
        self._defined: Dict[int, Span] = {}
        # an array of tables -> how many entries so far
        self._aot: Dict[int, int] = {}

    # -- nodes and spans --------------------------------------------------------
    def _node(self, parent: int, name) -> int:
        node = self.child.get((parent, name))
        if node is None:
            node = len(self.parent)
            self.child[(parent, name)] = node
            self.parent.append(parent)
            self.name.append(name)
            self.start.append(-1)
            self.end.append(-1)
            self.kstart.append(-1)
            self.kend.append(-1)
        return node

    def _key_at(self, node: int, s: int, e: int) -> None:
        """The first place that names ``node``."""
        if self.kstart[node] == -1:
            self.kstart[node], self.kend[node] = s, e

    def _touch(self, node: int, s: int, e: int) -> None:
        start = self.start
        if start[node] == -1 or s < start[node]:
            start[node] = s
        if e > self.end[node]:
            self.end[node] = e

    def _widen(self, node: int, s: int, e: int) -> None:
        """``node`` and every table above it hold [s, e)."""
        while node != -1:
            self._touch(node, s, e)
            node = self.parent[node]

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
                # bare parts, as many as follow each other, in one match
                m = _BARE_RUN.match(text, i)
                if not m:
                    return None, i
                e = m.end()
                parts.extend((p.group(), p.start(), p.end()) for p in _BARE.finditer(text, i, e))
                i = _SPACE.match(text, e).end()
                if i < n and text[i] == ".":
                    i += 1
                    continue
                return parts, i
            parts.append((name, i, e))
            i = _SPACE.match(text, e).end()
            if i < n and text[i] == ".":
                i += 1
                continue
            return parts, i

    # -- values -----------------------------------------------------------------
    def _value(self, i: int, node: int, depth: int) -> int:
        """Record the value at ``i`` as ``node``'s; return the offset after it."""
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
            e = self._array(i, node, depth)
        elif c == "{":
            e = self._inline_table(i, node, depth)
        else:
            m = _SCALAR.match(text, i)
            if m is None:
                raise _Stop
            e = m.end()
        self.start[node], self.end[node] = i, e
        return e

    def _array(self, i: int, node: int, depth: int) -> int:
        text, n = self.text, self.n
        j = _BLANK.match(text, i + 1).end()
        k = 0
        while j < n and text[j] != "]":
            j = self._value(j, self._node(node, k), depth + 1)
            k += 1
            j = _BLANK.match(text, j).end()
            if j < n and text[j] == ",":
                j = _BLANK.match(text, j + 1).end()
            elif j >= n or text[j] != "]":
                raise _Stop
        if j >= n:
            raise _Stop
        return j + 1

    def _inline_table(self, i: int, node: int, depth: int) -> int:
        text, n = self.text, self.n
        j = _BLANK.match(text, i + 1).end()
        while j < n and text[j] != "}":
            j = self._pair(j, node, depth + 1, None)
            j = _BLANK.match(text, j).end()
            if j < n and text[j] == ",":
                j = _BLANK.match(text, j + 1).end()
            elif j >= n or text[j] != "}":
                raise _Stop
        if j >= n:
            raise _Stop
        return j + 1

    def _pair(self, i: int, table: int, depth: int, defined: Optional[dict]) -> int:
        """Record ``key = value`` at ``i`` in ``table``; return the offset after it."""
        parts, j = self._key(i)
        text = self.text
        if not parts or j >= self.n or text[j] != "=":
            raise _Stop
        j = _SPACE.match(text, j + 1).end()
        subs = []  # the tables a dotted key makes
        node = table
        for part, ps, pe in parts[:-1]:
            node = self._node(node, part)
            self._key_at(node, ps, pe)
            subs.append((node, ps))
        name, ks, ke = parts[-1]
        node = self._node(node, name)
        if defined is not None:
            whole = (parts[0][1], ke)
            first = defined.get(node)
            if first is not None:
                self.dups.append((".".join(p[0] for p in parts), first, whole))
            else:
                defined[node] = whole
        self.kstart[node], self.kend[node] = ks, ke
        end = self._value(j, node, depth)
        # a dotted key's tables: from their part to the value's end
        for sub, ps in subs:
            self._touch(sub, ps, end)
        return end

    # -- the file ---------------------------------------------------------------
    def _header(self, i: int) -> Tuple[int, int]:
        """Record the table header at ``i``; return (the table's node, the offset after it)."""
        text = self.text
        aot = text.startswith("[[", i)
        parts, j = self._key(i + (2 if aot else 1))
        close = "]]" if aot else "]"
        if not parts or not text.startswith(close, j):
            raise _Stop
        end = j + len(close)
        # the tables above it, each array of tables on the way at its last
        # entry; their spans are widened when this table's text ends
        node = 0
        for name, ps, pe in parts[:-1]:
            node = self._node(node, name)
            self._key_at(node, ps, pe)
            count = self._aot.get(node)
            if count:
                node = self._node(node, count - 1)
        _, ks, ke = parts[-1]
        node = self._node(node, parts[-1][0])
        self._key_at(node, ks, ke)
        if aot:
            count = self._aot.get(node, 0)
            self._aot[node] = count + 1
            self._touch(node, i, end)
            node = self._node(node, count)
        else:
            first = self._defined.get(node)
            if first is not None:
                self.dups.append((".".join(p[0] for p in parts), first, (i, end)))
            else:
                self._defined[node] = (i, end)
        self._touch(node, i, end)
        return node, end

    def scan(self) -> None:
        text, n = self.text, self.n
        table = 0
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

    __slots__ = ("_doc", "_scan", "lines")

    def __init__(self, doc):
        # weak: the document holds this object (see Document.__slots__)
        self._doc = weakref.ref(doc)
        self._scan: Optional[_Scanner] = None
        self.lines: Optional[LineIndex] = None

    def _ensure(self) -> _Scanner:
        if self._scan is None:
            text = self._doc().text or ""
            self._scan = scan(text)
            self.lines = LineIndex(text)
        return self._scan

    def value(self, path) -> Position:
        """Where the value at ``path`` is, else its nearest ancestor's, else 1:1."""
        sc = self._ensure()
        child, start = sc.child, sc.start
        node = 0
        best = 0 if start[0] != -1 else -1
        for part in path:
            node = child.get((node, part))
            if node is None:
                break
            if start[node] != -1:
                best = node
        if best == -1:
            return Position(1, 1)
        sc = self._scan
        return self.lines.position(sc.start[best], sc.end[best])

    def key(self, path) -> Position:
        path = tuple(path)
        sc = self._ensure()
        node = 0
        for part in path:
            node = sc.child.get((node, part))
            if node is None:
                return self.value(path)
        if sc.kstart[node] == -1:
            return self.value(path)
        return self.lines.position(sc.kstart[node], sc.kend[node])

    def starts(self):
        """(path, (line, column)) where each key and each value starts."""
        sc = self._ensure()
        pos = self.lines.pos
        paths = [()]
        for node in range(1, len(sc.parent)):
            path = paths[sc.parent[node]] + (sc.name[node],)
            paths.append(path)
            if sc.kstart[node] != -1:
                yield path, pos(sc.kstart[node])
            if sc.start[node] != -1:
                yield path, pos(sc.start[node])
        if sc.start[0] != -1:
            yield (), pos(sc.start[0])
