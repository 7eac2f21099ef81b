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
tests/loaders/test_yaml_fast.py holds it to against the event loop.

What libyaml does that is mirrored here: a block collection starts at its
first key or ``-`` and ends where the next token starts (the first character
of the next line with content, or the end of the text); a flow collection
spans its brackets; ``key:`` with nothing after it is a null at the end of
its colon; a scalar spans its text (quotes included, trailing spaces not).
"""
from __future__ import annotations

import re

from penguin_lint.loaders import document as _document
from penguin_lint.loaders.document import Document, too_big
from penguin_lint.loaders.positions import LineIndex, PositionTree, TreePositions
from penguin_lint.loaders.yaml11 import (
    FLOAT, INF, INT, MERGE, NUMERIC_START, NUMERIC_TEXT, STR, TYPED, TYPED_START, VALUE, Implicit, construct,
    resolve_plain,
)

# Above this the event loop runs (it has the limits for hostile sizes).
MAX_TEXT = 256 * 1024
# Well below MAX_DEPTH: deeper files take the event loop, which reports it.
_MAX_DEPTH = 48
# libyaml's limit for a simple key is 1024 characters.
_MAX_KEY = 1000


# A plain scalar in block context: not starting with an indicator (a '-'
# only before a non-space), no ': ' or ' #' inside, no trailing spaces.
# Every pattern here is an unrolled loop (runs of one class between
# separators of another), so a line that does not match fails in linear time.
_PLAIN = (r"(?:[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=[^ \r\n]))"
          r"[^ \r\n:]*(?:(?::(?=[^ \r\n])| +(?=[^ \r\n#]))[^ \r\n:]*)*")
_SQ = r"'[^'\r\n]*(?:''[^'\r\n]*)*'"
_DQ = r'"[^"\\\r\n]*(?:\\[^\r\n][^"\\\r\n]*)*"'
# A plain key: no ':' at all, no '#' (so no comment can hide in it), not '<<'.
_KEY = r"[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`<][^ \r\n:#]*(?: +[^ \r\n:#]+)*"
# One line, every character in a group: indentation, '- ', key, ': ',
# value (quoted, plain, or a one-line flow collection without nesting), and
# the rest (spaces, a comment after a space, the line break).
_LINE = re.compile(
    r"( *)"
    r"((?:-(?: +|(?=\r?\n|\Z)))?)"
    r"(?:(" + _KEY + r")(:(?: +|(?=\r?\n|\Z))))?"
    r"(" + _SQ + "|" + _DQ + r"|\[[^\[\]{}\r\n#]*\]|\{[^\[\]{}\r\n#]*\}|" + _PLAIN + ")?"
    r"( *(?:(?<![^ \n])#[^\r\n]*)?\r?(?:\n|\Z))")

# Inside a one-line flow collection a plain scalar also stops at ',?[]{}'
# (safe_load's scanner ends it at a '?': '[why?]' does not load), and holds
# no ':', '#' or quote.
_FCH = r"[^ \r\n:,?\[\]{}#'\"]"
_FPLAIN = r"(?:[^ \r\n\-?:,\[\]{}#&*!|>'\"%@`]|-(?=" + _FCH + "))" + _FCH + "*(?: +" + _FCH + "+)*"


class _OnFirstUse:
    """A pattern that most texts never need (flow collections, escapes),
    compiled the first time one does and bound in its place."""

    __slots__ = ("name", "source")

    def __init__(self, name: str, source: str):
        self.name, self.source = name, source

    def __getattr__(self, attr: str):
        compiled = globals()[self.name] = re.compile(self.source)
        return getattr(compiled, attr)


_FLOW_ITEM = _OnFirstUse("_FLOW_ITEM", r" *(?:(" + _SQ + ")|(" + _DQ + ")|(" + _FPLAIN + r")) *([,\]])")
_FLOW_PAIR = _OnFirstUse("_FLOW_PAIR", r" *(" + _FPLAIN + "): +(?:(" + _SQ + ")|(" + _DQ + ")|(" + _FPLAIN + r")) *([,}])")

_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+\Z")

_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
            "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_ESCAPE = _OnFirstUse("_ESCAPE", r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")

# Plain scalar text -> (value, flag), and line text -> what the line holds
# (_scan), shared by every file (the values are immutable): data files
# repeat their lines ("    score: 0.25") and values ("test", 0.5) a lot.
_typed: dict = {}
_MAX_TYPED = 20000
_MAX_TYPED_TEXT = 100
_lines: dict = {}
_MAX_LINES = 20000
_MAX_LINE_TEXT = 200


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
        hit = (int(v), TYPED)
    elif len(v) < 300 and _DECIMAL.match(v):
        # what YAML 1.1 reads as a float first, short of overflowing one
        hit = (float(v), TYPED)
    else:
        tag = resolve_plain(v)
        if tag == STR:
            hit = (v, NUMERIC_TEXT if v[:1] in NUMERIC_START else 0)
        elif tag == MERGE or tag == VALUE:
            raise _Decline  # safe_load cannot construct them: the event loop reports it
        else:
            try:
                value = int(v) if tag == INT and v.isdigit() and (v[0] != "0" or len(v) == 1) else construct(tag, v)
            except Exception:  # the event loop reports it (too large, ...)
                raise _Decline from None
            if tag == FLOAT and value != value or value in (INF, -INF) or too_big(value):
                raise _Decline  # rare: the event loop records its path in doc.nonfinite
            hit = (value, TYPED)
    if len(v) <= _MAX_TYPED_TEXT:
        if len(_typed) >= _MAX_TYPED:
            _typed.clear()
        _typed[v] = hit
    return hit


def _key(key: str):
    """A plain key as safe_load's dict holds it: YAML 1.1 types keys (on,
    1, ~ ...) as it types values, so `on:` and `1:` are one key."""
    if key[0] not in TYPED_START:
        return key  # no YAML 1.1 type starts so: nearly every key
    tag = resolve_plain(key)
    if tag == STR:
        return key
    if tag == MERGE or tag == VALUE:
        raise _Decline  # PL003, or the text '=': the event loop's
    return _plain(key)[0]


def load_fast(text: str, path: str):
    """The Document of ``text`` if it is in the subset, else None."""
    n = len(text)
    if not n or n > MAX_TEXT:
        return None
    # Printable characters only, besides line ends: no tab, no control
    # character libyaml refuses, no lone CR, NEL or U+2028/U+2029 (breaks to
    # libyaml, not to editors: positions.py), no byte-order mark, no
    # non-breaking or other unusual space.
    if not text.replace("\r\n", "").replace("\n", "").isprintable():
        return None
    if text.startswith(("---", "...")) or "\n---" in text or "\n..." in text:
        return None
    try:
        return _load(text, path, n)
    except (_Decline, IndexError):  # IndexError: more nodes than the arrays were sized for
        return None


def _load(text: str, path: str, n: int):
    # The index's arrays, sized for the most nodes the text can hold: four a
    # line ('- key:' opens a mapping and a value, a line's '-' or 'key:' can
    # end the one before), one more per flow item.
    cap = 4 * text.count("\n") + text.count(",") + 8
    minus = [-1]
    S, E, KS, KE, F, NX = minus * cap, minus * cap, minus * cap, minus * cap, minus * cap, minus * cap
    FL = bytearray(cap)
    cnt = 0
    find = text.find
    lines_get = _lines.get

    # Open block collections, innermost last: [is_map, column, node,
    # container, last child node, indentless sequence]; top is the last.
    stack = []
    top = None
    tmap = tind = False
    tcol = -1
    root = None
    # 'key:' or '-' with the value on the next lines: (key, or -1 for an
    # item, key start, key end, where libyaml would put a null)
    pending = None
    ls = 0
    while ls < n:
        e = find("\n", ls) + 1 or n
        line = text[ls:e]
        rec = lines_get(line)
        if rec is None:
            rec = _scan(line)
        col, dash, key, ksr, ker, vsr, ver, kind, value, flag = rec
        line_start = ls
        ls = e
        if col < 0:
            continue  # blank or comment
        p = line_start + col  # the line's first character: '-', a key or a value

        if pending is not None or col != tcol or (tind and not dash):
            if top is None:
                if not dash and ker == ksr:
                    raise _Decline  # a bare scalar or flow collection
                root = [] if dash else {}
                S[0] = p
                cnt = 1
                top = [not dash, col, 0, root, -1, False]
                stack.append(top)
                tmap, tcol, tind = not dash, col, False
            else:
                opened = False
                if pending is not None:
                    pkey, pks, pke, mark = pending
                    pending = None
                    node = cnt
                    cnt += 1
                    KS[node], KE[node] = pks, pke
                    last = top[4]
                    if last < 0:
                        F[top[2]] = node
                    else:
                        NX[last] = node
                    top[4] = node
                    if col > tcol or (tmap and col == tcol and dash):
                        # the key's value is a block collection starting here
                        if len(stack) >= _MAX_DEPTH:
                            raise _Decline
                        S[node] = p
                        container = [] if dash else {}
                        top[3][pkey] = container
                        top = [not dash, col, node, container, -1, col == tcol]
                        stack.append(top)
                        tmap, tind, tcol = not dash, col == tcol, col
                        opened = True
                    else:
                        # a null, where libyaml puts it: just after the ':' or '-'
                        S[node] = E[node] = mark
                        FL[node] = TYPED
                if not opened:
                    # close what this line's indentation leaves
                    while tcol > col or (tind and tcol == col and not dash):
                        E[top[2]] = p
                        stack.pop()
                        if not stack:
                            raise _Decline
                        top = stack[-1]
                        tmap, tcol, tind = top[0], top[1], top[5]
                    if tcol != col:
                        raise _Decline  # indentation that matches no open collection

        if tmap:
            if dash or ker == ksr:
                raise _Decline  # a '-' or a scalar where a key belongs
        else:
            if not dash:
                raise _Decline
            if ker == ksr:
                if not kind:
                    pending = (-1, -1, -1, p + 1)
                    top[3].append(None)  # holds the item's place
                    continue
                # '- value'
                node = cnt
                cnt += 1
                S[node], E[node] = line_start + vsr, line_start + ver
                last = top[4]
                if last < 0:
                    F[top[2]] = node
                else:
                    NX[last] = node
                top[4] = node
                if kind == 2:
                    value, cnt = _flow(text, line_start + vsr, line_start + ver, node, S, E, KS, KE, F, NX, FL, cnt)
                elif flag:
                    FL[node] = flag
                top[3].append(value)
                continue
            # '- key: ...': a mapping starts at the key
            if len(stack) >= _MAX_DEPTH:
                raise _Decline
            node = cnt
            cnt += 1
            S[node] = line_start + ksr
            last = top[4]
            if last < 0:
                F[top[2]] = node
            else:
                NX[last] = node
            top[4] = node
            container = {}
            top[3].append(container)
            tcol = ksr
            top = [True, tcol, node, container, -1, False]
            stack.append(top)
            tmap, tind = True, False

        # key: [value]
        mapping = top[3]
        if key in mapping:
            raise _Decline  # a duplicate key is the event loop's to report
        ks, ke = line_start + ksr, line_start + ker
        if not kind:
            pending = (key, ks, ke, ke + 1)
            mapping[key] = None  # holds the key's place
            continue
        node = cnt
        cnt += 1
        S[node], E[node], KS[node], KE[node] = line_start + vsr, line_start + ver, ks, ke
        last = top[4]
        if last < 0:
            F[top[2]] = node
        else:
            NX[last] = node
        top[4] = node
        if kind == 2:
            value, cnt = _flow(text, line_start + vsr, line_start + ver, node, S, E, KS, KE, F, NX, FL, cnt)
        elif flag:
            FL[node] = flag
        mapping[key] = value

    if root is None:
        raise _Decline  # empty, or comments only
    if pending is not None:
        pkey, pks, pke, mark = pending
        node = cnt
        cnt += 1
        S[node] = E[node] = mark
        KS[node], KE[node] = pks, pke
        FL[node] = TYPED
        last = top[4]
        if last < 0:
            F[top[2]] = node
        else:
            NX[last] = node
    for frame in stack:
        E[frame[2]] = n
    if cnt >= min(_document.MAX_VALUES, _document.MAX_CONTAINERS):
        raise _Decline  # near a budget: the event loop words the finding

    tree = PositionTree(n)
    tree.start.fromlist(S[:cnt])
    tree.end.fromlist(E[:cnt])
    tree.kstart.fromlist(KS[:cnt])
    tree.kend.fromlist(KE[:cnt])
    tree.first.fromlist(F[:cnt])
    tree.next.fromlist(NX[:cnt])
    del FL[cnt:]
    tree.flags = FL
    doc = Document(path, "yaml")
    doc.text = text
    doc.set_tree(TreePositions(tree, LineIndex(text), doc))
    doc.implicit = Implicit(doc, tree)
    doc.data = root
    doc.parsed = True
    return doc


_BLANK = (-1, False, "", 0, 0, 0, 0, 0, None, 0)


def _scan(line: str):
    """What one line holds, as (column, has '-', key, key start, key end,
    value start, value end (offsets in the line), kind of value: 0 none,
    1 scalar, 2 flow collection, the scalar's value, its flag)."""
    m = _LINE.match(line)
    if m is None:
        raise _Decline
    ind, dash, key, colon, val, _ = m.groups("")
    col = len(ind)
    if not key and not val and not dash:
        rec = _BLANK
    else:
        if len(key) > _MAX_KEY:
            raise _Decline
        ksr = col + len(dash)
        ker = ksr + len(key)
        if key:
            key = _key(key)  # typed: True, 0 or None is a key too, so "has a key" is ker > ksr
        vsr = ker + len(colon)
        ver = vsr + len(val)
        value, flag = None, 0
        if not val:
            kind = 0
        elif val[0] == "[" or val[0] == "{":
            kind = 2
        else:
            kind = 1
            if val[0] == "'" or val[0] == '"':
                value = _quoted(val)
            else:
                value, flag = _plain(val)
        rec = (col, bool(dash), key, ksr, ker, vsr, ver, kind, value, flag)
    if len(line) <= _MAX_LINE_TEXT:
        if len(_lines) >= _MAX_LINES:
            _lines.clear()
        _lines[line] = rec
    return rec


def _flow(text, vs, ve, fnode, S, E, KS, KE, F, NX, FL, cnt):
    """The scalars of the one-line flow collection at [vs, ve) (node
    ``fnode``) into the index: (its value, the next free node)."""
    is_map = text[vs] == "{"
    container = {} if is_map else []
    if not text[vs + 1:ve - 1].strip(" "):
        return container, cnt
    item = _FLOW_PAIR.match if is_map else _FLOW_ITEM.match
    off = 2 if is_map else 1  # the group of a single-quoted value
    p = vs + 1
    prev = -1
    while True:
        m = item(text, p, ve)
        if m is None:
            raise _Decline
        g = m.groups()
        node = cnt
        cnt += 1
        if is_map:
            k = g[0]
            if len(k) > _MAX_KEY:
                raise _Decline
            k = _key(k)
            if k in container:
                raise _Decline
            KS[node], KE[node] = m.span(1)
        if g[off - 1] is not None:
            gi = off
            value = _quoted(g[off - 1])
        elif g[off] is not None:
            gi = off + 1
            value = _quoted(g[off])
        else:
            gi = off + 2
            value, FL[node] = _plain(g[off + 1])
        S[node], E[node] = m.span(gi)
        if prev < 0:
            F[fnode] = node
        else:
            NX[prev] = node
        prev = node
        if is_map:
            container[k] = value
        else:
            container.append(value)
        p = m.end()
        if g[-1] != ",":
            break
    if p != ve:
        raise _Decline
    return container, cnt
