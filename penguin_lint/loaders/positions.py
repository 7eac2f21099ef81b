"""Where things are in a data file: lines as editors count them, and a lean
index of every value's span.

Lines end at ``\\n`` (a ``\\r\\n`` pair is one end): the one definition
of a line, shared by positions, inline suppressions and ``--fix``. A lone CR,
NEL, U+2028 and U+2029 are characters inside a line, as they are to git, to
GitHub's annotations and to editors; libyaml's own line numbers count them as breaks,
so positions are computed here from character offsets instead. Columns are
1-based code points.

The index keeps, for every value of a YAML or JSON document, its span and its
key's span as character offsets in flat integer arrays (a few dozen bytes per
value), linked as a tree that mirrors the data. A path is looked up by
walking the data beside the tree; a container's children are listed once, on
the first lookup inside it. A file therefore costs a small multiple of its
size, however deep or wide it is, and positions are made only for the values
a finding points at.
"""
from __future__ import annotations

import re
import weakref

from array import array
from typing import Any, Dict, Optional, Tuple

from penguin_lint.findings import Position

# Offsets are counted per block: a lookup counts newlines in at most one
# block, and building the index costs one pass of str.count per block.
_BLOCK = 4096


class LineIndex:
    """Character offset -> (line, column), both 1-based, lines ending at ``\\n``.

    An offset at the very end of a file that ends with a newline is placed at
    the end of the last line: every position is inside the file.
    """

    __slots__ = ("text", "_lines_before", "_last_nl", "_end")

    def __init__(self, text: str):
        self.text = text
        n = len(text)
        count = text.count
        rfind = text.rfind
        lines_before = array("q", [0])
        last_nl = array("q", [-1])
        total = 0
        for b in range(_BLOCK, n + 1, _BLOCK):
            total += count("\n", b - _BLOCK, b)
            lines_before.append(total)
            nl = rfind("\n", b - _BLOCK, b)
            last_nl.append(nl if nl != -1 else last_nl[-1])
        self._lines_before, self._last_nl = lines_before, last_nl
        # the last offset that is inside the file
        end = n
        if text.endswith("\n"):
            end = n - 2 if text.endswith("\r\n") else n - 1
        self._end = max(end, 0)

    @property
    def lines(self) -> int:
        """How many lines the file has (a final newline ends the last one)."""
        return self.pos(self._end)[0]

    def pos(self, offset: int) -> Tuple[int, int]:
        if offset > self._end:
            offset = self._end
        elif offset < 0:
            offset = 0
        b = offset // _BLOCK
        start = b * _BLOCK
        line = self._lines_before[b] + self.text.count("\n", start, offset) + 1
        nl = self.text.rfind("\n", start, offset)
        if nl == -1:
            nl = self._last_nl[b]
        return line, offset - nl

    def position(self, start: int, end: Optional[int] = None) -> Position:
        l1, c1 = self.pos(start)
        if end is None:
            return Position(l1, c1)
        l2, c2 = self.pos(end)
        if (l2, c2) < (l1, c1):
            l2, c2 = l1, c1
        return Position(l1, c1, l2, c2)


class PositionTree:
    """Spans of every value of a document, as character offsets.

    Node 0 is the document's top value. Each node has its value's span, its
    key's span (-1 when it is not a mapping value), its first child and its
    next sibling. A mapping's children are in the order of its keys in the
    data (a repeated key reuses the node of its first occurrence, as a dict
    keeps the first place and the last value).
    """

    __slots__ = ("start", "end", "kstart", "kend", "first", "next", "flags", "_kids")

    def __init__(self, text_length: int):
        tc = "i" if text_length < 2 ** 30 else "q"
        self.start = array(tc)
        self.end = array(tc)
        self.kstart = array(tc)
        self.kend = array(tc)
        self.first = array(tc)
        self.next = array(tc)
        self.flags = bytearray()
        self._kids: Dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.start)

    def forget(self, node: int) -> None:
        """Drop what was listed of ``node``'s children (its value changed)."""
        self._kids.pop(node, None)

    def children(self, node: int):
        child = self.first[node]
        nxt = self.next
        while child != -1:
            yield child
            child = nxt[child]

    def _kids_of(self, node: int, container):
        if self.first[node] == -1 and node not in self._kids:
            # no children (a scalar, an empty collection, or an alias a Harbor
            # file expanded: the same node stands for values of every type)
            return {} if isinstance(container, dict) else []
        kids = self._kids.get(node)
        if kids is None:
            ids = list(self.children(node))
            kids = dict(zip(container, ids)) if isinstance(container, dict) else ids
            self._kids[node] = kids
        return kids

    def find(self, data, path) -> Tuple[int, int]:
        """(node, how many parts of ``path`` it matches): the node of the
        longest prefix of ``path`` that exists (node -1 for an empty tree)."""
        if not len(self.start):
            return -1, 0
        node, cur = 0, data
        for depth, part in enumerate(path):
            if isinstance(cur, dict):
                if not isinstance(part, str) or part not in cur:
                    return node, depth
                child = self._kids_of(node, cur).get(part)
            elif isinstance(cur, list):
                if type(part) is not int or not 0 <= part < len(cur):
                    return node, depth
                kids = self._kids_of(node, cur)
                child = kids[part] if part < len(kids) else None
            else:
                return node, depth
            if child is None:
                return node, depth
            node, cur = child, cur[part]
        return node, len(path)

    def walk(self, data, path=()):
        """(path, node) of every value, depth first."""
        stack = [(data, path, 0)] if len(self.start) else []
        while stack:
            value, p, node = stack.pop()
            yield p, node
            if isinstance(value, dict):
                for key, child in self._kids_of(node, value).items():
                    stack.append((value[key], p + (key,), child))
            elif isinstance(value, list):
                for i, child in enumerate(self._kids_of(node, value)):
                    stack.append((value[i], p + (i,), child))


# A node's anchor and tag, before the value itself.
_PROPERTIES = re.compile(r"(?:[&!][^ \t\r\n]*[ \t\r\n]+)*")
_BLOCK_HEADER = re.compile(r"[|>][-+0-9]*")


class TreePositions:
    """``Document``'s view of a PositionTree: path -> Position.

    A range ends just after the last character of the value it names (end
    columns are exclusive, as in SARIF). libyaml ends a block mapping or
    sequence where the next token starts, past blank lines and comments, and
    a block scalar after its trailing blank lines; the index keeps those
    offsets (the fast path mirrors them) and the end is worked out here, for
    the values a finding points at.
    """

    __slots__ = ("tree", "lines", "_doc", "_ends")

    def __init__(self, tree: PositionTree, lines: LineIndex, doc):
        # weak: the document holds this object (see Document.__slots__)
        self.tree, self.lines, self._doc = tree, lines, weakref.ref(doc)
        self._ends: Dict[int, int] = {}

    def end(self, node: int) -> int:
        """The offset just after the last character of ``node``'s value."""
        got = self._ends.get(node)
        if got is not None:
            return got
        t, text = self.tree, self.lines.text
        cur = node
        while True:
            s, e = t.start[cur], t.end[cur]
            p = _PROPERTIES.match(text, s, e).end() if text[s:s + 1] in ("&", "!") else s
            c = text[p:p + 1]
            if c == "[" or c == "{":
                break  # a flow collection ends at its bracket
            if t.first[cur] == -1:
                if c == "|" or c == ">":
                    # a block scalar's span runs over the blank lines after it
                    # (and an empty one ends with its header, not its comment)
                    while e > s and text[e - 1] in " \t\r\n":
                        e -= 1
                    if "\n" not in text[p:e]:
                        e = _BLOCK_HEADER.match(text, p).end()
                break
            # a block collection (or a pair in a flow sequence) ends where its last entry ends
            cur = max(t.children(cur), key=t.start.__getitem__)
        # an empty value is placed at the next token, past spaces and line breaks
        start = t.start[node]
        while e > start and text[e - 1] in " \t\r\n":
            e -= 1
        self._ends[node] = e
        return e

    @property
    def doc(self):
        return self._doc()

    def value(self, path) -> Position:
        node, _ = self.tree.find(self.doc.data, path)
        if node == -1:
            return Position(1, 1)
        return self.lines.position(self.tree.start[node], self.end(node))

    def starts(self):
        """(path, (line, column)) where each key and each value starts."""
        t, pos = self.tree, self.lines.pos
        for path, node in t.walk(self.doc.data):
            if t.kstart[node] >= 0:
                yield path, pos(t.kstart[node])
            yield path, pos(t.start[node])

    def key(self, path) -> Position:
        node, depth = self.tree.find(self.doc.data, path)
        t = self.tree
        if node != -1 and depth == len(path) and t.kstart[node] >= 0:
            return self.lines.position(t.kstart[node], t.kend[node])
        return self.value(path)


def split_lines(text: str, keep_cr: bool = False) -> list:
    """The file's lines as editors count them: ended by LF (or CR LF) only.
    ``str.splitlines`` also breaks at a lone CR, U+2028, U+2029, NEL and
    form feeds, which strings may hold, and would shift every later line.
    ``keep_cr``: a CR before the LF stays on its line (each line is then
    exactly the text between two LFs)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if keep_cr:
        return lines
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def line_starts(text: str) -> list:
    """The offset at which each line starts (the first is 0), lines as
    :func:`split_lines` and :class:`LineIndex` count them: every place that
    turns a line number into text (directives, ``--fix``) uses this."""
    starts = [0]
    find = text.find
    i = find("\n")
    while i != -1:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts
