"""YAML 1.1 scalar typing, as PyYAML's safe loader types scalars, without importing PyYAML.

A plain scalar's type comes from the YAML 1.1 type repository (bool, int, float, null,
timestamp, merge, value), tried in the order PyYAML tries them for the scalar's first
character; the value is then built as PyYAML's SafeConstructor builds it, failing on the
same texts with the same kinds of exception. Both loaders use this module: the fast path
(yaml_fast.py) reads most data files without libyaml, so a run that never needs the event
loop never pays for importing PyYAML. tests/loaders/test_yaml11.py holds it to PyYAML.
"""
from __future__ import annotations

import weakref

import re

from penguin_lint.loaders.document import Document
from penguin_lint.loaders.positions import PositionTree

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, MERGE, VALUE = (
    _T + n for n in ("str", "int", "float", "bool", "null", "timestamp", "merge", "value")
)
SAFE_TAGS = frozenset(_T + n for n in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq", "binary"))


class _Resolver:
    """A resolver's expression, compiled the first time a scalar needs it
    (a short run meets few kinds of scalar), then put in its place in the
    table, where later scalars find the compiled one."""

    __slots__ = ("source", "flags")

    def __init__(self, source: str, flags: int = 0):
        self.source, self.flags = source, flags

    def match(self, value: str):
        compiled = re.compile(self.source, self.flags)
        for ch, entries in list(_RESOLVERS.items()):
            if any(r is self for _, r in entries):
                _RESOLVERS[ch] = tuple((tag, compiled if r is self else r) for tag, r in entries)
        return compiled.match(value)


# The YAML 1.1 regular expressions (https://yaml.org/type/), with '$' as
# PyYAML writes them.
_BOOL = _Resolver(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")
_FLOAT = _Resolver(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X)
_INT = _Resolver(r"""^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+
                    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""", re.X)
_MERGE = _Resolver(r"^(?:<<)$")
_NULL = _Resolver(r"^(?:~|null|Null|NULL)$")
_TIMESTAMP = _Resolver(r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
                    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
                     (?:[Tt]|[ \t]+)[0-9][0-9]?
                     :[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
                     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""", re.X)
_VALUE = _Resolver(r"^(?:=)$")
# PyYAML lists this one for completeness: no plain scalar starts with an indicator.
_YAML = _Resolver(r"^(?:!|&|\*)$")


def _by_first_char():
    table: dict = {}
    # PyYAML's order of registration, which decides between two matches
    for tag, regexp, first in ((BOOL, _BOOL, "yYnNtTfFoO"), (FLOAT, _FLOAT, "-+0123456789."),
                               (INT, _INT, "-+0123456789"), (MERGE, _MERGE, "<"),
                               (NULL, _NULL, "~nN"), (TIMESTAMP, _TIMESTAMP, "0123456789"),
                               (VALUE, _VALUE, "="), (_T + "yaml", _YAML, "!&*")):
        for ch in first:
            table.setdefault(ch, []).append((tag, regexp))
    return {ch: tuple(v) for ch, v in table.items()}


_RESOLVERS = _by_first_char()
# A plain scalar starting with any other character is text.
TYPED_START = frozenset(_RESOLVERS)

INF = float("inf")
NUMERIC_START = frozenset("0123456789+-.")
_DEC_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_DEC_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z")
# Python reads at most 4300 decimal digits and prints no int of more. YAML
# 1.1's other integer spellings have no such bound: a sexagesimal 1:2:3:...
# of a few hundred KiB takes minutes (quadratic), and 0x... gives an int that
# no message can print. Both are refused as too large to read.
_MAX_INT_CHARS = 4300
_MAX_INT_BITS = 14000

_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def resolve_plain(value: str) -> str:
    """The tag YAML 1.1 gives the plain scalar ``value``."""
    if value == "":
        return NULL
    for tag, regexp in _RESOLVERS.get(value[0], ()):
        if regexp.match(value):
            return tag
    return STR


def _int(value: str) -> int:
    value = value.replace("_", "")
    sign = -1 if value[0] == "-" else 1  # IndexError on "", as PyYAML
    if value[0] in "+-":
        value = value[1:]
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value[0] == "0":
        return sign * int(value, 8)
    if ":" in value:
        total = 0
        for part in value.split(":"):
            total = total * 60 + int(part)
        return sign * total
    return sign * int(value)


# safe_load builds every .nan as one shared object, so two '.nan' keys are
# one key of its dict (a lookup matches the same object before comparing)
NAN = float("nan")


def _float(value: str) -> float:
    value = value.replace("_", "").lower()
    sign = -1.0 if value[0] == "-" else 1.0
    if value[0] in "+-":
        value = value[1:]
    if value == ".inf":
        return sign * INF
    if value == ".nan":
        return NAN
    if ":" in value:
        return sign * _sexagesimal(value)
    return sign * float(value)


def _sexagesimal(value: str) -> float:
    """YAML 1.1's base-60 float (1:30.5 is 90.5), in floats: PyYAML computes
    60**n as an integer, which overflows and grows without bound."""
    total = 0.0
    for part in value.split(":"):
        total = total * 60.0 + float(part)
    if total == INF:
        raise OverflowError("too large")
    return total


def construct(tag: str, value: str):
    """The value of a scalar of ``tag`` (a safe tag other than str) with text
    ``value``. Raises ValueError, IndexError or KeyError for text the tag
    cannot hold, OverflowError for a number too large."""
    # Plain decimal numbers are nearly all numbers in data files.
    if tag == INT and _DEC_INT.match(value):
        return int(value)
    if tag == FLOAT and _DEC_FLOAT.match(value):
        return float(value)
    if tag == INT:
        if len(value) > _MAX_INT_CHARS:
            raise ValueError("integer literal too long")
        number = _int(value)
        if number.bit_length() > _MAX_INT_BITS:
            raise ValueError("integer too large")
        return number
    if tag == FLOAT:
        return _float(value)
    if tag == BOOL:
        return _BOOLS[value.lower()]
    if tag == NULL:
        return None
    # Timestamps (and binary) stay as their source text: the rules judge the
    # text (an offset-less time must not silently become UTC).
    return value


# Node flags: how a plain scalar was typed, for "quote it" hints.
TYPED, NUMERIC_TEXT = 1, 2


class Implicit:
    """Path -> (yaml tag name, source text) for the plain scalars the parser
    typed on its own, worked out from the index when asked (a dict of them
    would cost more than the file)."""

    __slots__ = ("_ref", "_tree")

    def __init__(self, doc: Document, tree: PositionTree):
        # weak: the document holds this object (see Document.__slots__)
        self._ref, self._tree = weakref.ref(doc), tree

    @property
    def _doc(self):
        return self._ref()

    def _at(self, node: int):
        t = self._tree
        flag = t.flags[node]
        if not flag:
            return None
        src = " ".join(self._doc.text[t.start[node]:t.end[node]].split())
        if flag == NUMERIC_TEXT:
            return ("str", src)
        return (resolve_plain(src)[len(_T):], src)

    def get(self, path, default=None):
        node, depth = self._tree.find(self._doc.data, path)
        if node == -1 or depth != len(path):
            return default
        found = self._at(node)
        return default if found is None else found

    def __getitem__(self, path):
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path):
        return self.get(path) is not None

    def items(self):
        for path, node in self._tree.walk(self._doc.data):
            found = self._at(node)
            if found is not None:
                yield path, found

    def __iter__(self):
        return (path for path, _ in self.items())

    def __len__(self):
        return sum(1 for _ in self.items())
