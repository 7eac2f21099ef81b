"""YAML through libyaml's event stream.

Building the data from events (instead of ``yaml.load``) gives, in one pass:
a position for every key and value, duplicate keys (PyYAML keeps the last one
silently), anchors, aliases, merge keys and directives *before* anything is
expanded (an alias is never followed, so an alias bomb costs nothing), and a
depth limit (libyaml's own composer recurses in C and crashes on deep input).

Positions are libyaml's character offsets, kept in a PositionTree and turned
into lines by LineIndex (loaders/positions.py): libyaml's own line numbers
count U+2028, NEL and lone CRs as breaks, which editors and GitHub do not.
"""
from __future__ import annotations

import re

import yaml
from yaml.constructor import ConstructorError
from yaml.events import (
    AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent,
    ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent,
)

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_CONTAINERS, MAX_DEPTH, MAX_VALUES, Document, too_big
from penguin_lint.loaders import yaml_aliases as _aliases, yaml_fast as _fast
from penguin_lint.loaders.positions import LineIndex, PositionTree, TreePositions
from penguin_lint.loaders.yaml11 import (
    FLOAT, INF, INT, MERGE, NUMERIC_START, NUMERIC_TEXT, STR, TYPED, TYPED_START, VALUE,
    Implicit, construct, resolve_plain,
)

try:  # the C parser is ~10x faster; fall back only where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

# Scalar typing is YAML 1.1's, shared with the fast path (yaml11.py).
_T = "tag:yaml.org,2002:"

_DIVERGE_ANYWHERE = re.compile(r"\t|^%|(?s:.)\ufeff|[|>][-+0-9]*#", re.M).search


def _diverges(text: str) -> bool:
    """Whether libyaml may read ``text`` otherwise than safe_load: a tab, a
    directive, a byte-order mark past the start (safe_load keeps it), a block
    scalar's header followed by '#' with no space ('>#': safe_load refuses it), or a
    '?' or '!' in a text with flow collections (safe_load takes '?' for a key
    indicator where libyaml reads on, '[a ?b]', and '!,' for a tag where
    libyaml ends the tag at the ',')."""
    return bool(_DIVERGE_ANYWHERE(text)) or (
        ("?" in text or "!" in text) and ("[" in text or "{" in text))



class _AfterMark(yaml.SafeLoader):
    """safe_load's own reader of a text that began with two byte-order marks,
    the first dropped by load_bytes: given that one back, its scanner skips
    it, as safe_load's does, and reads the second as content (libyaml's
    reader would drop it too: '\ufeff 0' is text to safe_load, 0 to libyaml).
    Its marks count from the text penguin-lint holds, without the first."""

    shift = 1

    def __init__(self, text: str):
        super().__init__("\ufeff" + text)

    def get_mark(self):
        mark = super().get_mark()
        mark.index = max(mark.index - 1, 0)
        return mark


_COMPLEX = object()  # the key of a value whose key was not a scalar


def load_yaml(text: str, path: str) -> Document:
    """The Document of a YAML text: through the fast path (yaml_fast.py) when
    the text is in the subset it reads exactly, else through the event loop."""
    doc = _fast.load_fast(text, path)
    return doc if doc is not None else load_yaml_events(text, path)


class _Refused(Exception):
    """The reader refused the text; ``doc`` holds its PL001."""

    def __init__(self, doc: Document):
        super().__init__()
        self.doc = doc


def load_yaml_events(text: str, path: str) -> Document:
    """The Document of any YAML text, from libyaml's event stream.

    libyaml accepts what safe_load's own scanner refuses (a tab after a
    value, before a ':' or a line end) and refuses what it accepts (an
    unknown %directive): texts that hold either are read by PyYAML's
    pure-Python parser, the reference; the rest by libyaml, which agrees
    with it there and is ~10x faster. libyaml's scanner also refuses a few
    texts safe_load reads ('{cost:, tokens: 3}', '[a:]'): every text it
    refuses is read again by the pure-Python parser, whose reading wins (the
    second reading has the limits of the first: size, depth, values). A
    text that still begins with a byte-order mark (the file began with two)
    is read by the pure-Python parser too (_AfterMark)."""
    if text[:1] == "\ufeff":
        return _read_events(text, path, _AfterMark, False)
    if _Loader is yaml.SafeLoader or _diverges(text):
        return _read_events(text, path, yaml.SafeLoader, False)
    try:
        return _read_events(text, path, _Loader, True)
    except _Refused as e:
        # only the Document: the exception's frames hold what was read
        by_libyaml = e.doc
    try:
        return _read_events(text, path, yaml.SafeLoader, True)
    except _Refused as e:
        by_pyyaml = e.doc
    # the reason is where the reference stops: libyaml's finding (as it
    # always was) unless libyaml stopped earlier, at something it reads
    ours, ref = by_libyaml.problems[-1].pos, by_pyyaml.problems[-1].pos
    return by_pyyaml if (ours.line, ours.column) < (ref.line, ref.column) else by_libyaml


def _read_events(text: str, path: str, loader_class, refusal_raises: bool) -> Document:
    """The Document of ``text`` from ``loader_class``'s events; where it
    refuses the text, _Refused if ``refusal_raises``, else the failed Document."""
    doc = Document(path, "yaml")
    doc.text = text
    lines = LineIndex(text)
    tree = PositionTree(len(text))
    doc.set_tree(TreePositions(tree, lines, doc))
    doc.implicit = Implicit(doc, tree)
    starts, ends, kstarts, kends = tree.start, tree.end, tree.kstart, tree.kend
    firsts, nexts, flags = tree.first, tree.next, tree.flags
    add_start, add_end, add_kstart, add_kend = starts.append, ends.append, kstarts.append, kends.append
    add_first, add_next, add_flag = firsts.append, nexts.append, flags.append

    def problem(code, msg, ev, hint=None):
        # capped: a few MiB of aliases must not become a million findings
        s, e = ev.start_mark.index, ev.end_mark.index
        doc.add_at(code, msg, lambda: lines.position(s, e), hint)

    # Each frame: [container, node, is_mapping, pending key (text, start, end),
    #              key -> node seen in this mapping, last child node, path].
    # Node -1: a complex key or its value, parsed and thrown away.
    stack = []
    # node -> where a repeated key was first written: the node's own spans
    # move to the last occurrence, which the data holds
    first_keys = {}
    root = None
    documents = 0
    containers = 0
    try:
        get_event = loader_class(text).get_event  # the pure-Python reader checks characters here
        while True:
            ev = get_event()
            cls = ev.__class__
            flag = 0
            if cls is ScalarEvent:
                if stack:
                    frame = stack[-1]
                    if frame[2] and frame[3] is None and ev.anchor is None and (ev.tag is None or ev.tag == "!"):
                        # A key (half of all scalars): its text is the key,
                        # nothing to resolve; only a plain '<<' means more.
                        key = ev.value
                        if not ev.style or ev.tag == "!":  # '!' asks for the plain typing, quoted or not
                            key = _plain_key(key, problem, ev)
                            if ev.value == "<<" and not ev.style:
                                _aliases.note_merge_key(doc, frame[0], frame[1], ev.start_mark.index)
                        frame[3] = (key, ev.start_mark.index, ev.end_mark.index)
                        continue
                if ev.anchor is not None:
                    problem("PL003", f"anchor '&{ev.anchor}' in a data file", ev,
                            "write the value out; anchors make reviews miss what a file says")
                tag = ev.tag
                plain = not ev.style or tag == "!"
                if tag is not None and tag != "!":
                    if _tag_problem(problem, ev, "scalar"):
                        value = None
                    elif tag == STR or tag in _TEXT_TAGS:
                        value = ev.value
                    else:
                        try:
                            value = construct(tag, ev.value)
                        except OverflowError:
                            problem("PL001", f"'{_shown(ev.value)}' is too large to be a number", ev)
                            value = None
                        except (ConstructorError, ValueError, IndexError, KeyError, TypeError):
                            # PyYAML's constructors fail in odd ways on odd text (!!int "")
                            problem("PL001", f"'{_shown(ev.value)}' is not a valid {tag[len(_T):]}", ev)
                            value = None
                    plain = False
                elif plain:
                    v = ev.value
                    # a small decimal integer, the commonest plain scalar: no resolver needed
                    tag = INT if v.isdigit() and v.isascii() and len(v) < 19 and (v[0] != "0" or len(v) == 1) \
                        else resolve_plain(v)
                    if tag == STR:
                        value = ev.value
                        if value[:1] in NUMERIC_START:
                            flag = NUMERIC_TEXT  # YAML 1.1 reads 1e3 as text: remember it for the hint
                    elif (tag == MERGE or tag == VALUE) and not (stack and stack[-1][2] and stack[-1][3] is None):
                        # PyYAML has no constructor for these: safe_load fails
                        problem("PL001", f"a plain '{v}' is YAML 1.1's !!{tag[len(_T):]} and cannot be loaded",
                                ev, f"quote it: '{v}'")
                        value = None
                    else:
                        flag = TYPED
                        try:
                            value = int(v) if tag == INT and v.isdigit() and (v[0] != "0" or len(v) == 1) \
                                else construct(tag, v)
                        except OverflowError:
                            # a base-60 float of hundreds of groups
                            problem("PL001", f"'{_shown(ev.value)}' is too large to be a number", ev,
                                    "quote it if it is text")
                            value = None
                        except ValueError:
                            # Python refuses to read integers of thousands of digits.
                            problem("PL001", f"number with {len(ev.value)} characters is too large to read", ev)
                            value = None
                else:
                    value = ev.value
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                if ev.anchor is not None:
                    problem("PL003", f"anchor '&{ev.anchor}' in a data file", ev,
                            "write the value out; anchors make reviews miss what a file says")
                if ev.tag is not None and ev.tag != "!":
                    _tag_problem(problem, ev, "mapping" if cls is MappingStartEvent else "sequence")
                if len(stack) >= MAX_DEPTH:
                    problem("PL001", f"nesting deeper than {MAX_DEPTH} levels", ev)
                    return _failed(doc)
                containers += 1
                if containers > MAX_CONTAINERS:
                    problem("PL001", f"more than {MAX_CONTAINERS:,} mappings and sequences in one file", ev,
                            "a data file this large belongs under data/<benchmark-id>/")
                    return _failed(doc)
                value = {} if cls is MappingStartEvent else []
                tag = None
                plain = False
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                if frame[1] >= 0:
                    ends[frame[1]] = ev.end_mark.index
                continue
            elif cls is AliasEvent:
                problem("PL003", f"alias '*{ev.anchor}' in a data file (not expanded)", ev,
                        "write the value out instead of referring to an anchor")
                value, tag, plain = None, None, False
            elif cls is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    problem("PL001", "more than one YAML document in a file", ev,
                            "a data file holds one document; remove the extra '---'")
                    return _failed(doc)
                if ev.version is not None or ev.tags or text.startswith("%") \
                        or "\n%" in text[:ev.start_mark.index]:
                    problem("PL003", "%YAML, %TAG or other directive in a data file", ev,
                            "remove the directive line")
                continue
            elif cls is StreamEndEvent:
                break
            else:  # StreamStart, DocumentEnd
                continue

            # Place the value into its parent, and its span into the index.
            start, end = ev.start_mark.index, ev.end_mark.index
            if not stack:
                root = value
                node, vpath = 0, ()
                add_start(start), add_end(end), add_kstart(-1), add_kend(-1)
                add_first(-1), add_next(-1), add_flag(flag)
            else:
                frame = stack[-1]
                parent = frame[0]
                ks = ke = -1
                if frame[2]:  # mapping
                    if frame[3] is None:
                        # This event is a key.
                        if cls is not ScalarEvent:
                            problem("PL001", "a mapping key must be a plain value", ev)
                            frame[3] = (_COMPLEX, start, end)
                            if cls is not AliasEvent:
                                # swallow the complex key's children
                                stack.append([value, -1, cls is MappingStartEvent, None, None, -1, None])
                            continue
                        if tag == MERGE and plain:
                            problem("PL003", "merge key '<<' in a data file", ev,
                                    "write the merged keys out")
                            _aliases.note_merge_key(doc, frame[0], frame[1], start)
                        elif ev.anchor is not None:
                            _aliases.note(doc, ev, value, -1, None, None, False)
                        # a key as safe_load types it (True, 1, None...), but
                        # a plain '=' key is the text '=' there
                        frame[3] = (ev.value if plain and tag in (MERGE, VALUE) else value, start, end)
                        continue
                    key, ks, ke = frame[3]
                    frame[3] = None
                    if frame[1] < 0 or key is _COMPLEX:
                        node = -1
                    else:
                        vpath = frame[6] + (key,)
                        node = frame[4].get(key, -1)
                        if node != -1:
                            fs, fe = first_keys.setdefault(node, (kstarts[node], kends[node]))
                            first_line = lines.pos(fs)[0]
                            shown, first = _shown(text[ks:ke]), _shown(text[fs:fe])
                            if shown == first:
                                message, hint = (f"duplicate key '{shown}' (first defined on line {first_line}); "
                                                 "the last one wins"), "remove one of them"
                            else:  # two spellings of one value: on/yes/true, 0x1/1, ~/null
                                message = (f"duplicate key '{shown}': YAML 1.1 reads it as {_as_yaml(key)}, "
                                           f"the same key as '{first}' on line {first_line}; the last one wins")
                                hint = "quote both keys if they are different keys, or remove one of them"
                            doc.add_at("PL002", message, lambda ks=ks, ke=ke: lines.position(ks, ke), hint)
                            # the key keeps its first place and takes the last value
                            starts[node], ends[node], kstarts[node], kends[node] = start, end, ks, ke
                            firsts[node], flags[node] = -1, flag
                            tree.forget(node)
                        parent[key] = value
                else:
                    parent.append(value)
                    node = -1 if frame[1] < 0 else -2
                    if node == -2:
                        vpath = frame[6] + (len(parent) - 1,)
                if node == -2 or (node == -1 and frame[1] >= 0 and key is not _COMPLEX and frame[2]):
                    node = len(starts)
                    if node >= MAX_VALUES:
                        problem("PL001", f"more than {MAX_VALUES:,} values in one file", ev,
                                "a data file this large belongs under data/<benchmark-id>/")
                        return _failed(doc)
                    add_start(start), add_end(end), add_kstart(ks), add_kend(ke)
                    add_first(-1), add_next(-1), add_flag(flag)
                    if frame[5] == -1:
                        firsts[frame[1]] = node
                    else:
                        nexts[frame[5]] = node
                    frame[5] = node
                    if frame[2]:
                        frame[4][key] = node
            if ev.anchor is not None or (doc.aliases is not None and doc.aliases.pending is not None):
                # where anchors, aliases and merge sources are, for a Harbor
                # file to expand them (yaml_aliases.py)
                if stack:
                    _aliases.note(doc, ev, value, node, frame[0], key if frame[2] else len(frame[0]) - 1,
                                  cls is AliasEvent)
                else:
                    _aliases.note(doc, ev, value, node, None, None, cls is AliasEvent)
            if cls is ScalarEvent:
                if node >= 0 and (tag == FLOAT and value != value or value in (INF, -INF) or too_big(value)):
                    doc.nonfinite.append(vpath)
            elif cls is not AliasEvent:
                stack.append([value, node, cls is MappingStartEvent, None, {} if node >= 0 else None, -1,
                              vpath if node >= 0 else None])
    except yaml.MarkedYAMLError as e:
        # the innermost flow collection still open, if the file ended inside it
        opener = next((starts[f[1]] for f in reversed(stack)
                       if f[1] >= 0 and text[starts[f[1]]:starts[f[1]] + 1] in ("{", "[")), None)
        doc.problems.append(_syntax_problem(e, text, lines, opener))
        if refusal_raises:
            raise _Refused(_failed(doc)) from None
        return _failed(doc)
    except yaml.YAMLError as e:  # reader errors (bad characters) carry no mark
        msg = str(e).split("\n")[0].strip()
        if isinstance(getattr(e, "character", None), int) and getattr(e, "reason", None):
            msg = f"unacceptable character #x{e.character:04x}: {e.reason}"
        where = _reader_position(e, text, lines, loader_class)
        doc.problems.append(Problem("PL001", f"YAML does not parse: {msg}", where,
                                    "data files are text; remove the control character"))
        if refusal_raises:
            raise _Refused(_failed(doc)) from None
        return _failed(doc)
    doc.data = root
    doc.parsed = True
    doc.settle_nonfinite()
    return doc


# The tags safe_load constructs, by the kind of node they fit: JSON's types,
# then the ones it builds into something no data file means (a set, a list
# of pairs, bytes, a date), which are PL003 here. Any other tag, or a tag on
# the wrong kind of node, is a ConstructorError in safe_load.
_JSON_TAGS = {"scalar": {STR, INT, FLOAT, _T + "bool", _T + "null"}, "mapping": {_T + "map"}, "sequence": {_T + "seq"}}
_OTHER_TAGS = {"scalar": {_T + "binary", _T + "timestamp"}, "mapping": {_T + "set"},
               "sequence": {_T + "omap", _T + "pairs"}}
_TEXT_TAGS = _OTHER_TAGS["scalar"]  # kept as their source text, as plain timestamps are


def _tag_problem(problem, ev, kind: str) -> bool:
    """Report the explicit tag of a node of ``kind``; True if safe_load
    cannot construct the node (PL001), False if it can."""
    tag = ev.tag
    if tag in _JSON_TAGS[kind]:
        return False
    if tag in _OTHER_TAGS[kind]:
        problem("PL003", f"tag '{_short(tag)}' in a data file", ev,
                "data files hold mappings, lists, text, numbers and booleans; remove the tag")
        return False
    if any(tag in tags for tags in _JSON_TAGS.values()) or any(tag in tags for tags in _OTHER_TAGS.values()):
        problem("PL001", f"tag '{_short(tag)}' cannot be given to a {kind}", ev, "remove the tag")
    else:
        problem("PL001", f"tag '{_short(tag)}' is not allowed in a data file", ev,
                "data files are loaded safely; remove the tag")
    return True


def _plain_key(text: str, problem, ev):
    """A plain key as safe_load's dict holds it: YAML 1.1 types keys as it
    types values (on -> True, 0x1 -> 1, ~ -> None), so `on:` and `1:` are
    one key and `on:` and `'on':` are two."""
    if text and text[0] not in TYPED_START:
        return text  # no YAML 1.1 type starts so: nearly every key
    tag = resolve_plain(text)
    if tag == STR or tag == VALUE:  # safe_load makes a '=' key the text '='
        return text
    if tag == MERGE:
        problem("PL003", "merge key '<<' in a data file", ev, "write the merged keys out")
        return text
    try:
        return construct(tag, text)
    except (OverflowError, ValueError):
        problem("PL001", f"key '{_shown(text)}' is too large to be a number", ev, "quote it")
        return text


def _as_yaml(value) -> str:
    """A key as safe_load typed it, written as YAML writes that value."""
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value) if isinstance(value, (int, float)) else f"'{_shown(str(value))}'"


def _shown(value: str) -> str:
    return value if len(value) <= 60 else value[:57] + "..."


def _syntax_problem(e, text: str, lines: LineIndex, opener) -> Problem:
    mark = e.problem_mark or e.context_mark
    problem = (e.problem or str(e)).strip()
    context = (e.context or "").strip()
    offset = mark.index if mark is not None else 0
    hint = None
    at_end = not text[offset:].strip()
    if at_end and context == "while scanning a quoted scalar" and e.context_mark is not None:
        msg = f"the quoted string opened at line {lines.pos(e.context_mark.index)[0]} is never closed"
        hint = "close the quotes"
    elif at_end and opener is not None:
        # libyaml reached the end of the file inside a flow collection
        what, close = ("flow mapping", "}") if text[opener] == "{" else ("flow sequence", "]")
        msg = f"the {what} opened at line {lines.pos(opener)[0]} is never closed"
        hint = f"close it with '{close}'"
    elif context in ("while parsing a flow mapping", "while parsing a flow sequence") and e.context_mark is not None:
        # not at the end: a missing comma, or a collection left open above
        what, close = ("flow mapping", "}") if "mapping" in context else ("flow sequence", "]")
        msg = f"{problem} in the {what} opened at line {lines.pos(e.context_mark.index)[0]}"
        hint = f"close it with '{close}', or separate its entries with ','"
    else:
        msg = f"{context}: {problem}" if context else problem
    if text[offset:offset + 1] == "\t" or "tab" in problem:
        hint = "YAML indents with spaces only; replace the tab with spaces"
    return Problem("PL001", f"YAML does not parse: {msg}", lines.position(offset), hint)


def _reader_position(e, text: str, lines: LineIndex, loader_class) -> Position:
    offset = getattr(e, "position", None)
    if not isinstance(offset, int):
        return Position(1, 1)
    if isinstance(getattr(e, "character", None), int) and not issubclass(loader_class, yaml.SafeLoader):
        # the C reader counts bytes of the UTF-8 text
        offset = len(text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "ignore"))
    return lines.position(offset - getattr(loader_class, "shift", 0))


def _failed(doc: Document) -> Document:
    doc.data = None
    doc.parsed = False
    return doc


def _short(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag
