"""YAML through libyaml's event stream.

Building the data from events (instead of ``yaml.load``) gives, in one pass:
a position for every key and value, duplicate keys (PyYAML keeps the last one
silently), anchors, aliases, merge keys and directives *before* anything is
expanded (an alias is never followed, so an alias bomb costs nothing), and a
depth limit (libyaml's own composer recurses in C and crashes on deep input).
"""
from __future__ import annotations

import re

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import (
    AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent,
    ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent,
)
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_DEPTH, Document, mark_position, too_big

try:  # the C parser is ~10x faster; fall back only where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, MERGE, VALUE = (
    _T + n for n in ("str", "int", "float", "bool", "null", "timestamp", "merge", "value")
)
_SAFE_TAGS = {_T + n for n in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq", "binary")}
_RESOLVERS = Resolver.yaml_implicit_resolvers
_constructor = SafeConstructor()
_INF = float("inf")
_NUMERIC_START = frozenset("0123456789+-.")
_DEC_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_DEC_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z")
# Python reads at most 4300 decimal digits and prints no int of more. PyYAML
# reads YAML 1.1's other integer spellings without either bound: a sexagesimal
# 1:2:3:... of a few hundred KiB takes minutes (quadratic), and 0x... gives an
# int that no message can print. Both are refused as too large to read.
_MAX_INT_CHARS = 4300
_MAX_INT_BITS = 14000


def _resolve_plain(value: str) -> str:
    if value == "":
        return NULL
    for tag, regexp in _RESOLVERS.get(value[0], ()):
        if regexp.match(value):
            return tag
    return STR


def _construct(tag: str, value: str):
    # Plain decimal numbers are nearly all numbers in data files: convert
    # them directly; YAML 1.1's other spellings go through PyYAML.
    if tag == INT and _DEC_INT.match(value):
        return int(value)
    if tag == FLOAT and _DEC_FLOAT.match(value):
        return float(value)
    node = ScalarNode(tag, value)
    if tag == INT:
        if len(value) > _MAX_INT_CHARS:
            raise ValueError("integer literal too long")
        number = _constructor.construct_yaml_int(node)
        if number.bit_length() > _MAX_INT_BITS:
            raise ValueError("integer too large")
        return number
    if tag == FLOAT:
        return _constructor.construct_yaml_float(node)
    if tag == BOOL:
        return _constructor.construct_yaml_bool(node)
    if tag == NULL:
        return None
    # Timestamps stay as their source text: the rules judge the text (an
    # offset-less time must not silently become UTC).
    return value


def _pos(ev) -> Position:
    s, e = ev.start_mark, ev.end_mark
    return Position(s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def _marks(ev):
    # The index keeps libyaml's marks as they come; Document turns them into
    # positions only for the few values a finding points at.
    return (ev.start_mark, ev.end_mark)


def load_yaml(text: str, path: str) -> Document:
    doc = Document(path, "yaml")
    values, keys = {}, {}
    doc.set_index(values, keys)
    problems = doc.problems
    implicit = doc.implicit

    def problem(code, msg, ev, hint=None):
        # capped: a few MiB of aliases must not become a million findings
        doc.add(Problem(code, msg, _pos(ev), hint))

    loader = _Loader(text)
    # Each frame: [container, path, is_mapping, pending_key, seen_keys]
    stack = []
    root = None
    documents = 0
    try:
        get_event = loader.get_event
        while True:
            ev = get_event()
            cls = ev.__class__
            if cls is ScalarEvent:
                if stack:
                    frame = stack[-1]
                    if frame[2] and frame[3] is None and ev.anchor is None and (ev.tag is None or ev.tag == "!"):
                        # A key (half of all scalars): its text is the key,
                        # nothing to resolve; only a plain '<<' means more.
                        if ev.value == "<<" and not ev.style:
                            problem("PL003", "merge key '<<' in a data file", ev,
                                    "write the merged keys out")
                        frame[3] = (ev.value, _marks(ev))
                        continue
                if ev.anchor is not None:
                    problem("PL003", f"anchor '&{ev.anchor}' in a data file", ev,
                            "write the value out; anchors make reviews miss what a file says")
                tag = ev.tag
                plain = not ev.style
                if tag is not None and tag != "!":
                    if tag not in _SAFE_TAGS:
                        problem("PL001", f"tag '{_short(tag)}' is not allowed in a data file", ev,
                                "data files are loaded safely; remove the tag")
                        value = None
                    elif tag == STR:
                        value = ev.value
                    else:
                        try:
                            value = _construct(tag, ev.value)
                        except (ConstructorError, ValueError, IndexError, KeyError, TypeError, OverflowError):
                            # PyYAML's constructors fail in odd ways on odd text (!!int "")
                            shown = ev.value if len(ev.value) <= 60 else ev.value[:57] + "..."
                            problem("PL001", f"'{shown}' is not a valid {tag[len(_T):]}", ev)
                            value = None
                elif plain:
                    tag = _resolve_plain(ev.value)
                    try:
                        value = ev.value if tag == STR else _construct(tag, ev.value)
                    except ValueError:
                        # Python refuses to read integers of thousands of digits.
                        problem("PL001", f"number with {len(ev.value)} characters is too large to read", ev)
                        value = None
                else:
                    tag = STR
                    value = ev.value
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                if ev.anchor is not None:
                    problem("PL003", f"anchor '&{ev.anchor}' in a data file", ev,
                            "write the value out; anchors make reviews miss what a file says")
                if ev.tag is not None and ev.tag != "!" and ev.tag not in _SAFE_TAGS:
                    problem("PL001", f"tag '{_short(ev.tag)}' is not allowed in a data file", ev,
                            "data files are loaded safely; remove the tag")
                if len(stack) >= MAX_DEPTH:
                    problem("PL001", f"nesting deeper than {MAX_DEPTH} levels", ev)
                    return _failed(doc)
                value = {} if cls is MappingStartEvent else []
                tag = None
                plain = False
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                start = values.get(frame[1])
                if start is not None:
                    values[frame[1]] = (start[0], ev.end_mark)
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
                if ev.version is not None or ev.tags:
                    problem("PL003", "%YAML/%TAG directive in a data file", ev,
                            "remove the directive line")
                continue
            elif cls is StreamEndEvent:
                break
            else:  # StreamStart, DocumentEnd
                continue

            # Place the value into its parent.
            if not stack:
                root = value
                vpath = ()
                values[vpath] = _marks(ev)
            else:
                frame = stack[-1]
                parent = frame[0]
                if frame[2]:  # mapping
                    if frame[3] is None:
                        # This event is a key.
                        if cls is not ScalarEvent:
                            problem("PL001", "a mapping key must be a plain value", ev)
                            frame[3] = ("\0complex", _marks(ev))
                            if cls is not AliasEvent:
                                # swallow the complex key's children
                                stack.append([value, frame[1] + ("\0complex",), cls is MappingStartEvent, None, {}])
                            continue
                        if tag == MERGE and plain:
                            problem("PL003", "merge key '<<' in a data file", ev,
                                    "write the merged keys out")
                        frame[3] = (ev.value, _marks(ev))
                        continue
                    key, kpos = frame[3]
                    frame[3] = None
                    vpath = frame[1] + (key,)
                    seen = frame[4]
                    if key in seen:
                        first = mark_position(seen[key])
                        doc.add(Problem(
                            "PL002",
                            f"duplicate key '{key}' (first defined on line {first.line}); "
                            "the last one wins",
                            mark_position(kpos),
                            "remove one of them",
                        ))
                    else:
                        seen[key] = kpos
                    if key != "\0complex":
                        parent[key] = value
                    keys[vpath] = kpos
                else:
                    vpath = frame[1] + (len(parent),)
                    parent.append(value)
                values[vpath] = _marks(ev)
            if plain and tag == STR and ev.value[:1] in _NUMERIC_START and cls is ScalarEvent:
                # YAML 1.1 reads 1e3 as text: remember it for the hint
                implicit[vpath] = ("str", ev.value)
            elif plain and tag is not None and tag != STR:
                implicit[vpath] = (tag[len(_T):], ev.value)
                if tag == FLOAT and value != value or value in (_INF, -_INF) or too_big(value):
                    doc.nonfinite.append(vpath)
            if cls is MappingStartEvent or cls is SequenceStartEvent:
                stack.append([value, vpath, cls is MappingStartEvent, None, {}])
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        msg = (e.problem or str(e)).strip()
        if e.context:
            msg = f"{e.context.strip()}: {msg}"
        pos = Position(mark.line + 1, mark.column + 1) if mark is not None else Position(1, 1)
        problems.append(Problem("PL001", f"YAML does not parse: {msg}", pos))
        return _failed(doc)
    except yaml.YAMLError as e:  # reader errors (bad characters) carry no mark
        problems.append(Problem("PL001", f"YAML does not parse: {e}", Position(1, 1)))
        return _failed(doc)
    doc.data = root
    doc.parsed = True
    return doc


def _failed(doc: Document) -> Document:
    doc.data = None
    doc.parsed = False
    return doc


def _short(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag
