"""A fast path for the YAML that data files are written in.

Most data files are a few block mappings and sequences of one-line scalars.
For such a text, ``load_fast`` builds the same Document as the event loop of
yaml_loader.py (the same data and types, the same PositionTree, offsets as
libyaml reports them) from one regular expression per line, several times
faster. For anything else it returns None, early, and the event loop runs:
tabs, anchors, aliases, tags, directives, document markers, block scalars,
multi-line scalars, complex or quoted keys, duplicate keys, the merge key,
nested or multi-line flow collections, odd indentation, a bare scalar, an
empty document, control and line-separator characters, files over 256 KiB.
Declining is never wrong; accepting must be exact, which
tests/test_yaml_fast.py holds it to against the event loop.

What libyaml does that is mirrored here: a block collection starts at its
first key or ``-`` and ends where the next token starts (the first character
of the next line with content, or the end of the text); a flow collection
spans its brackets; ``key:`` with nothing after it is a null at the end of
its colon; a scalar spans its text (quotes included, trailing spaces not).
"""
from __future__ import annotations

import re

from penguin_lint.loaders.document import Document, too_big
from penguin_lint.loaders.positions import LineIndex, PositionTree, TreePositions
from penguin_lint.loaders.yaml_loader import (
    _INF, _NUMERIC_START, _NUMERIC_TEXT, _TYPED, FLOAT, INT, STR, _construct, _Implicit, _resolve_plain,
)

# Above this the event loop runs (it has the limits for hostile sizes).
MAX_TEXT = 256 * 1024
# Well below MAX_DEPTH: deeper files take the event loop, which reports it.
_MAX_DEPTH = 48
# libyaml's limit for a simple key is 1024 characters.
_MAX_KEY = 1000

# Characters libyaml refuses or counts as line breaks (positions.py), tabs,
# byte-order marks, and characters outside the Basic Multilingual Plane.
_BAD_CHAR = re.compile("[^\n\r -~\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")

# A plain scalar in block context: not starting with an indicator (a '-'
# only before a non-space), no ': ' or ' #' inside, no trailing spaces.
_PLAIN = (r"(?:[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=[^ \r\n]))"
          r"(?:[^ \r\n:]|:(?=[^ \r\n])| +(?=[^ \r\n#]))*")
_SQ = r"'(?:[^'\r\n]|'')*'"
_DQ = r'"(?:[^"\\\r\n]|\\[^\r\n])*"'
# A plain key: no ':' at all, no '#' (so no comment can hide in it).
_KEY = r"[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`<][^ \r\n:#]*(?: +[^ \r\n:#]+)*"
# One line: indentation, an optional '- ', an optional 'key:', an optional
# value (quoted, a one-line flow collection without nesting, or plain), an
# optional comment after a space.
_LINE = re.compile(
    r"( *)(?:(-)(?: +|(?=\r?\n|\Z)))?"
    r"(?:(" + _KEY + r"):(?: +|(?=\r?\n|\Z)))?"
    r"(" + _SQ + "|" + _DQ + r"|\[[^\[\]{}\r\n#]*\]|\{[^\[\]{}\r\n#]*\}|" + _PLAIN + ")?"
    r" *(?:(?<![^ \n])#[^\r\n]*)?\r?(?:\n|\Z)")

# Inside a one-line flow collection: a plain scalar also stops at ',[]{}'
# and may hold no ':' or '#'.
_FCH = r"[^ \r\n:,\[\]{}#'\"]"
_FPLAIN = r"(?:[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=" + _FCH + "))(?:" + _FCH + "| +(?=" + _FCH + "))*"
_FLOW_ITEM = re.compile(r" *(?:(" + _SQ + ")|(" + _DQ + ")|(" + _FPLAIN + r")) *([,\]])")
_FLOW_PAIR = re.compile(r" *(" + _FPLAIN + "): +(?:(" + _SQ + ")|(" + _DQ + ")|(" + _FPLAIN
                        + r")) *([,}])")

_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
            "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")

# Plain scalar text -> (value, flag), shared by every file (values are
# immutable): data files repeat their values ("test", "mean", 0.5) a lot.
_typed: dict = {}
_MAX_TYPED = 20000


class _Decline(Exception):
    """The text is not one the fast path can prove it reads as libyaml does."""


def _escape(m) -> str:
    hexa = m.group(1) or m.group(2) or m.group(3)
    if hexa is not None:
        code = int(hexa, 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise _Decline
        return chr(code)
    ch = _ESCAPES.get(m.group(4))
    if ch is None:
        raise _Decline
    return ch


def _quoted(q: str) -> str:
    if q[0] == "'":
        return q[1:-1].replace("''", "'")
    body = q[1:-1]
    return _ESCAPE.sub(_escape, body) if "\\" in body else body


def _plain(v: str):
    """(value, flag) of a plain scalar, typed exactly as the event loop types it."""
    hit = _typed.get(v)
    if hit is not None:
        return hit
    if v.isdigit() and v.isascii() and len(v) < 19 and (v[0] != "0" or len(v) == 1):
        hit = (int(v), _TYPED)
    else:
        tag = _resolve_plain(v)
        if tag == STR:
            hit = (v, _NUMERIC_TEXT if v[:1] in _NUMERIC_START else 0)
        else:
            try:
                value = int(v) if tag == INT and v.isdigit() else _construct(tag, v)
            except Exception:  # the event loop reports it (too large, ...)
                raise _Decline from None
            if tag == FLOAT and value != value or value in (_INF, -_INF) or too_big(value):
                raise _Decline  # rare: the event loop records the path
            hit = (value, _TYPED)
    if len(_typed) >= _MAX_TYPED:
        _typed.clear()
    _typed[v] = hit
    return hit


def load_fast(text: str, path: str):
    """The Document of ``text`` if it is in the subset, else None."""
    n = len(text)
    if not n or n > MAX_TEXT or _BAD_CHAR.search(text) is not None:
        return None
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a lone CR is a break to libyaml, not to editors
    if text.startswith(("---", "...")) or "\n---" in text or "\n..." in text:
        return None
    try:
        return _load(text, path, n)
    except _Decline:
        return None


def _load(text: str, path: str, n: int):
    tree = PositionTree(n)
    starts, ends, kstarts, kends = tree.start, tree.end, tree.kstart, tree.kend
    firsts, nexts, flags = tree.first, tree.next, tree.flags
    add_start, add_end, add_kstart, add_kend = starts.append, ends.append, kstarts.append, kends.append
    add_first, add_next, add_flag = firsts.append, nexts.append, flags.append
    match = _LINE.match
    plain = _plain

    # Open block collections, innermost last: [is_map, column, node,
    # container, last child node, indentless sequence].
    stack = []
    root = None
    # key:, value on the following lines: (key, key start, key end, colon end)
    pending = None
    pos = 0
    line_start = 0
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise _Decline
        line_start, pos = pos, m.end()
        _, dash, key, val = m.groups()
        if key is None and val is None:
            if dash is not None:
                raise _Decline  # '-' alone: its item is on the next lines
            continue  # blank or comment
        p = m.end(1)  # first character: '-', a key or a value
        col = p - line_start
        if not stack:
            if root is not None:
                raise _Decline  # something after the top collection ended
            if dash is not None:
                root = []
            elif key is not None:
                root = {}
            else:
                raise _Decline  # a bare scalar or flow collection
            add_start(p), add_end(-1), add_kstart(-1), add_kend(-1), add_first(-1), add_next(-1), add_flag(0)
            stack.append([dash is None, col, 0, root, -1, False])
            top = stack[-1]
        elif pending is not None:
            top = stack[-1]
            pkey, ks, ke, ce = pending
            pending = None
            if col > top[1] or (col == top[1] and dash is not None):
                # the key's value is a block collection starting on this line
                if len(stack) >= _MAX_DEPTH:
                    raise _Decline
                node = len(starts)
                add_start(p), add_end(-1), add_kstart(ks), add_kend(ke), add_first(-1), add_next(-1), add_flag(0)
                if top[4] == -1:
                    firsts[top[2]] = node
                else:
                    nexts[top[4]] = node
                top[4] = node
                value = [] if dash is not None else {}
                top[3][pkey] = value
                top = [dash is None, col, node, value, -1, col == top[1]]
                stack.append(top)
            else:
                _child(top, pkey, None, ce, ce, ks, ke, _TYPED,
                       starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)
                top = _close(stack, col, dash, p, ends)
        else:
            top = _close(stack, col, dash, p, ends)

        if not top[0]:  # a sequence: this line is one of its items
            if dash is None:
                raise _Decline
            seq = top[3]
            if key is not None:
                # '- key: ...': a mapping starts at the key
                if len(stack) >= _MAX_DEPTH:
                    raise _Decline
                kp = m.start(3)
                node = len(starts)
                add_start(kp), add_end(-1), add_kstart(-1), add_kend(-1), add_first(-1), add_next(-1), add_flag(0)
                if top[4] == -1:
                    firsts[top[2]] = node
                else:
                    nexts[top[4]] = node
                top[4] = node
                value = {}
                seq.append(value)
                top = [True, kp - line_start, node, value, -1, False]
                stack.append(top)
            else:
                vs, ve = m.span(4)
                c = val[0]
                if c == "[" or c == "{":
                    seq.append(_flow(text, top, None, vs, ve, -1, -1, starts, add_start, add_end, add_kstart,
                                     add_kend, add_first, add_next, add_flag, firsts, nexts))
                    continue
                if c == "'" or c == '"':
                    value, flag = _quoted(val), 0
                else:
                    value, flag = plain(val)
                seq.append(value)
                _child(top, None, None, vs, ve, -1, -1, flag,
                       starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)
                continue
        elif dash is not None or key is None:
            raise _Decline  # a '-' or a scalar where a key belongs
        # key: [value]
        mapping = top[3]
        if key in mapping or len(key) > _MAX_KEY:
            raise _Decline  # a duplicate key is the event loop's to report
        ks, ke = m.span(3)
        if val is None:
            pending = (key, ks, ke, ke + 1)
            mapping[key] = None  # holds the key's place
            continue
        vs, ve = m.span(4)
        c = val[0]
        if c == "[" or c == "{":
            mapping[key] = _flow(text, top, key, vs, ve, ks, ke, starts, add_start, add_end, add_kstart,
                                 add_kend, add_first, add_next, add_flag, firsts, nexts)
            continue
        if c == "'" or c == '"':
            value, flag = _quoted(val), 0
        else:
            value, flag = plain(val)
        mapping[key] = value
        _child(top, None, None, vs, ve, ks, ke, flag,
               starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)

    if root is None:
        raise _Decline  # empty, or comments only
    if pending is not None:
        pkey, ks, ke, ce = pending
        _child(stack[-1], pkey, None, ce, ce, ks, ke, _TYPED,
               starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)
    for frame in stack:
        ends[frame[2]] = n

    doc = Document(path, "yaml")
    doc.text = text
    doc.set_tree(TreePositions(tree, LineIndex(text), doc))
    doc.implicit = _Implicit(doc, tree)
    doc.data = root
    doc.parsed = True
    return doc


def _child(frame, key, value, s, e, ks, ke, flag,
           starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts):
    """Add a scalar's node under ``frame`` (and its value, when ``key`` is given)."""
    node = len(starts)
    add_start(s), add_end(e), add_kstart(ks), add_kend(ke), add_first(-1), add_next(-1), add_flag(flag)
    if frame[4] == -1:
        firsts[frame[2]] = node
    else:
        nexts[frame[4]] = node
    frame[4] = node
    if key is not None:
        frame[3][key] = value
    return node


def _close(stack, col, dash, p, ends):
    """End the collections a line at ``col`` leaves; the one it continues."""
    while stack:
        top = stack[-1]
        if top[1] > col or (top[5] and top[1] == col and dash is None):
            ends[top[2]] = p
            stack.pop()
        else:
            break
    if not stack or stack[-1][1] != col:
        raise _Decline  # indentation that matches no open collection
    return stack[-1]


def _flow(text, frame, key, vs, ve, ks, ke, starts, add_start, add_end, add_kstart, add_kend,
          add_first, add_next, add_flag, firsts, nexts):
    """A one-line flow sequence or mapping of scalars spanning [vs, ve)."""
    node = _child(frame, None, None, vs, ve, ks, ke, 0,
                  starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)
    is_map = text[vs] == "{"
    container = {} if is_map else []
    holder = [is_map, None, node, container, -1]  # a frame, for _child
    p = vs + 1
    close = ve - 1
    if text[p:close].strip(" ") == "":
        return container
    item = _FLOW_PAIR.match if is_map else _FLOW_ITEM.match
    while True:
        m = item(text, p, ve)
        if m is None:
            raise _Decline
        if is_map:
            k = m.group(1)
            if k in container or k == "<<":
                raise _Decline
            qs = m.group(2) or m.group(3)
            g, fks, fke = 2 if m.group(2) else 3 if m.group(3) else 4, m.start(1), m.end(1)
        else:
            qs = m.group(1) or m.group(2)
            g, fks, fke = 1 if m.group(1) else 2 if m.group(2) else 3, -1, -1
        raw = m.group(g)
        if qs is not None:
            value, flag = _quoted(raw), 0
        else:
            value, flag = _plain(raw)
        if is_map:
            container[k] = value
        else:
            container.append(value)
        _child(holder, None, None, m.start(g), m.end(g), fks, fke, flag,
               starts, add_start, add_end, add_kstart, add_kend, add_first, add_next, add_flag, firsts, nexts)
        p = m.end()
        if text[p - 1] != ",":
            break
    if p != ve:
        raise _Decline
    return container
