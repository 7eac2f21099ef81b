"""A parsed data file that remembers where every key and value came from."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.positions import LineIndex  # noqa: F401  (re-exported)

Path_ = Tuple[Any, ...]  # a JSON-pointer-like path: ("values", 0, "args", 1)

# Nesting deeper than this is not data anyone writes by hand; refusing it keeps
# every later walk (validation, rules) far from Python's recursion limit.
MAX_DEPTH = 64

# A data file holds at most this many values (keys' values, items, the top
# value), and of them at most MAX_CONTAINERS mappings and sequences. Once
# parsed, a scalar costs some 60 bytes and a container some 200, whatever the
# file's size: together they keep a document under about 150 MB however it is
# nested. Data written by hand or by a harness is far below both.
MAX_VALUES = 1_000_000
MAX_CONTAINERS = 250_000

# A hostile file can hold a million anchors or repeated keys in a few MiB.
# Past this many problems of one code in one file, the rest are counted in a
# single problem instead of each becoming a finding and a line of output.
MAX_PROBLEMS_PER_CODE = 100


class Document:
    """Data plus positions.

    ``data`` is plain JSON-like Python (dict/list/str/int/float/bool/None), or
    ``None`` with ``parsed = False`` when the file did not load. YAML and
    JSON keep positions in a PositionTree (a few dozen bytes a value, see
    loaders/positions.py); TOML scans for them on the first lookup
    (loaders/toml_positions.py). Either is set with ``set_tree``.
    """

    __slots__ = (
        "path", "fmt", "data", "parsed", "problems", "_values", "_keys",
        "implicit", "text", "nonfinite", "_counts", "_dropped", "_tree",
        "directives", "content_id", "file_stat", "aliases",
        # its positions and implicit types refer back to it by a weak
        # reference: a cycle would outlive its unit (the CLI runs with the
        # cyclic collector off), and every document of a run would add up
        "__weakref__",
    )

    def __init__(self, path: str, fmt: str):
        self.path = path
        self.fmt = fmt
        self.data: Any = None
        self.parsed = False
        self.problems: List[Problem] = []
        self._values: Optional[Dict[Path_, Position]] = None
        self._keys: Optional[Dict[Path_, Position]] = None
        # path -> (yaml tag name, source text) for scalars the parser typed
        # on its own (unquoted): the source of "quote it" hints.
        self.implicit: Dict[Path_, Tuple[str, str]] = {}
        self.text: Optional[str] = None
        # paths of NaN/infinite numbers (every comparison with them is False,
        # so a schema's minimum would let them through), each once, of the
        # values the data holds (``settle_nonfinite``)
        self.nonfinite: List[Path_] = []
        self._counts: Dict[str, int] = {}
        self._dropped: Dict[str, Optional[Position]] = {}
        # where each key and value is (loaders/positions.py, toml_positions.py)
        self._tree = None
        # inline "# penguin-lint: disable=..." comments (suppressions.py)
        self.directives: tuple = ()
        # for a file read from the work tree: git's blob id of the bytes
        # parsed (or why there were none), and (mtime, size, inode, ctime)
        # from the fstat of the read; the cache names the file by them
        self.content_id: Optional[str] = None
        self.file_stat: Optional[tuple] = None
        # YAML: where anchors, aliases and merge keys are, for a Harbor file
        # to expand them (loaders/yaml_aliases.py); None when there are none
        self.aliases = None

    # -- problems ----------------------------------------------------------
    def add(self, problem: Problem) -> None:
        """Record a problem that a file can repeat without bound (capped)."""
        n = self._counts.get(problem.code, 0) + 1
        self._counts[problem.code] = n
        if n <= MAX_PROBLEMS_PER_CODE:
            self.problems.append(problem)
        elif n == MAX_PROBLEMS_PER_CODE + 1:
            self._dropped[problem.code] = problem.pos

    def add_at(self, code: str, message: str, where: Callable[[], Position],
               hint: Optional[str] = None) -> None:
        """Like ``add``, but the position is worked out only for a problem
        that is kept: a million aliases cost a count, not a million lookups."""
        n = self._counts.get(code, 0) + 1
        self._counts[code] = n
        if n <= MAX_PROBLEMS_PER_CODE:
            self.problems.append(Problem(code, message, where(), hint))
        elif n == MAX_PROBLEMS_PER_CODE + 1:
            self._dropped[code] = where()

    def close_problems(self) -> None:
        """Add one problem per capped code that counts what was left out."""
        for code, pos in self._dropped.items():
            more = self._counts[code] - MAX_PROBLEMS_PER_CODE
            self.problems.append(Problem(
                code, f"{more} more like the above in this file (not listed one by one)", pos))
        self._dropped = {}

    # -- positions ---------------------------------------------------------
    def _ensure_index(self) -> None:
        if self._values is None:
            self._values, self._keys = {}, {}

    def set_tree(self, tree) -> None:
        """Positions from a ``TreePositions`` or a ``TomlPositions``."""
        self._tree = tree
        self._values, self._keys = {}, {}

    def value_pos(self, path: Path_) -> Position:
        """Where the value at ``path`` is, else its nearest ancestor, else 1:1."""
        if self._tree is not None:
            return self._tree.value(tuple(path))
        self._ensure_index()
        path = tuple(path)
        while True:
            pos = self._values.get(path) or self._keys.get(path)
            if pos is not None:
                return pos if type(pos) is Position else mark_position(pos)
            if not path:
                return Position(1, 1)
            path = path[:-1]

    def key_pos(self, path: Path_) -> Position:
        """Where the key naming ``path`` is (falls back to the value)."""
        if self._tree is not None:
            return self._tree.key(tuple(path))
        self._ensure_index()
        pos = self._keys.get(tuple(path))
        if pos is None:
            return self.value_pos(path)
        return pos if type(pos) is Position else mark_position(pos)

    def settle_nonfinite(self) -> None:
        """Keep the paths of ``nonfinite`` whose value the data still holds,
        each once: a key written twice is read with its last value (as
        safe_load and json.loads read it), and what the first one held, or
        held below it, is no longer there."""
        if self.nonfinite:
            self.nonfinite = list(dict.fromkeys(p for p in self.nonfinite if _nonfinite(_at(self.data, p))))

    def get(self, *path, default=None):
        """Safe lookup of a nested value; ``default`` on any mismatch."""
        cur = self.data
        for part in path:
            if isinstance(cur, dict) and isinstance(part, str):
                if part not in cur:
                    return default
                cur = cur[part]
            elif isinstance(cur, list) and isinstance(part, int):
                if not -len(cur) <= part < len(cur):
                    return default
                cur = cur[part]
            else:
                return default
        return cur


def _at(data, path):
    """The value at ``path``, whatever its keys' types (YAML's keys may be
    numbers or booleans); None where there is none."""
    cur = data
    for part in path:
        if isinstance(cur, dict):
            cur = cur.get(part)
        elif isinstance(cur, list) and type(part) is int and 0 <= part < len(cur):
            cur = cur[part]
        else:
            return None
    return cur


def _nonfinite(value) -> bool:
    return isinstance(value, float) and (value != value or value in (_INF, -_INF)) or too_big(value)


_INF = float("inf")


def mark_position(marks) -> Position:
    """(start mark, end mark) of libyaml -> 1-based Position."""
    s, e = marks
    return Position(s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def too_big(value) -> bool:
    """An integer that no float can hold: a mean, a sum with a float or a
    tolerance check on it raises OverflowError instead of giving a number."""
    if type(value) is not int or value.bit_length() <= 1000:
        return False
    try:
        float(value)
    except OverflowError:
        return True
    return False
