"""Leaderboard expressions as PL401-PL408 see them.

A leaderboard's ``values`` are trees: a leaf ``{experiment_id, phase, metric}``
reads ``experiments/<lb>/<experiment_id>/<phase>/summary.yaml``; an operation
``{op, args, weights}`` combines its args. This module walks those trees,
resolves leaves to their experiment files and evaluates expressions, once per
leaderboard and run (the result is kept in ``ctx.cache``), so the eight rules
share the work. A leaderboard checked only as a dependent of a change is
checked in focus (``Expressions.focus``, see focus.py): the rules then look
only at the values ``tops_in_view`` gives.

Shapes follow the schema (``op`` present: an operation, else a leaf). Whatever
the schema refuses (wrong types, unknown ops, unsafe ids) is reported by the
schema rules; here it is simply left unresolved, never guessed at and never
turned into a path.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from penguin_lint.core.layout import safe_segment
from penguin_lint.core.repo import Repository
from penguin_lint.rules.base import Rule

OPS = ("mean", "sum", "sub", "div", "weighted_mean")
LABEL_FIELDS = ("harness_name", "model_name", "algorithm")
DEFAULT_METRIC = "score_mean"
# The loaders already refuse nesting deeper than 64; this only keeps the
# recursive walks below safe if that limit ever grows.
MAX_NESTING = 200
# Real leaderboards have tens to hundreds of values of a few leaves each. A
# 5 MiB file can hold some 125,000 leaves, and every rule below walks them
# all (positions, labels, summaries): past these limits the rest of the
# values are not checked, and PL103 says so on the line where the limit is
# crossed. Every item under ``values`` and ``args`` counts as a term (a leaf,
# an operation, or something else the schema refuses).
MAX_VALUES = 10_000
MAX_TERMS = 50_000
# A leaf keeps the top level of its meta_info.yaml and summary.yaml, which
# is all the rules read (nested values become empty containers of their
# type); a file bigger than this (real ones are under a kilobyte) is also
# let go from the repository's documents at once, so that the files a big
# board reads do not add up in memory before its unit is done.
KEEP_BYTES = 64 * 1024

Path_ = Tuple[Any, ...]


def number(value) -> Optional[float]:
    """``value`` as a float if it is a real number (bool is not), else None.
    An int too large for a float becomes an infinity rather than raising."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def finite(value) -> Optional[float]:
    """``value`` as a finite float, else None."""
    f = number(value)
    return f if f is not None and math.isfinite(f) else None


def show(value, limit: int = 60) -> str:
    """A short quoted rendering of a value from a file, for messages."""
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Leaf:
    """A reference to one experiment's phase summary."""

    def __init__(self, path: Path_, data: dict):
        self.path = path
        self.experiment_id = data.get("experiment_id")
        self.phase = data.get("phase")
        self.metric = data.get("metric", DEFAULT_METRIC)
        self.metric_given = "metric" in data
        # Filled by Expressions (resolve() and its earlier stages); None/False
        # means unknown or absent. ``stage``: how far it got (Expressions.find).
        self.stage = 0
        self.exp_dir: Optional[str] = None      # set only for a safe experiment id
        self.exp_exists = False
        self.meta_path: Optional[str] = None
        self.meta_exists = False
        self.meta: Optional[dict] = None         # top level of a parsed mapping (_top_level)
        self.phase_dir: Optional[str] = None     # set only for a safe phase too
        self.phase_exists = False
        self.summary_path: Optional[str] = None
        self.summary_exists = False
        self.summary: Optional[dict] = None


# what Expressions.locate finds of a leaf: the same for every leaf naming its experiment and phase
_LOCATED_FIELDS = ("exp_dir", "exp_exists", "meta_path", "meta_exists", "phase_dir", "phase_exists",
                   "summary_path", "summary_exists")


# what makes a value a leaf
LEAF_KEYS = ("experiment_id", "phase", "metric")


class Operation:
    def __init__(self, path: Path_, data: dict, args: Optional[List["Node"]]):
        self.path = path
        self.op = data.get("op")
        self.has_weights = "weights" in data
        self.weights = data.get("weights")
        #: a leaf's keys the operation holds too (a value is one or the other)
        self.leaf_keys = [k for k in LEAF_KEYS if k in data]
        # Parsed args, or None when ``args`` is missing or not a list.
        self.args = args


Node = Union[Leaf, Operation, None]


class Expressions:
    """The parsed ``values`` of one leaderboard, resolved lazily."""

    def __init__(self, ctx, doc, leaderboard: Optional[str], values: list, focus=None):
        self.ctx = ctx
        self.doc = doc
        self.leaderboard = leaderboard
        #: (path, message) where MAX_VALUES or MAX_TERMS was crossed, else None
        self.overflow: Optional[Tuple[Path_, str]] = None
        self._terms = 0
        self.tops: List[Node] = []
        for i, v in enumerate(values):
            if i >= MAX_VALUES:
                self.overflow = (("values", i), f"the leaderboard has more than {MAX_VALUES:,} values")
                break
            top = self._parse(v, ("values", i), 0)
            if self.overflow is not None:
                break  # the value that crossed the limit is left out whole
            self.tops.append(top)
        self._values: Dict[Path_, Optional[float]] = {}
        # path -> top-level key -> the source text of a value YAML typed
        # (``yes``, ``~``, ``0x1A``): what messages quote, not Python's True
        self._written: Dict[str, Dict[str, str]] = {}
        # path -> its top level, and folder or file -> whether it is there:
        # leaves share experiments (a board's entries often read the same
        # few), and each is read once however many leaves name it
        self._top_levels: Dict[str, Optional[dict]] = {}
        self._there: Dict[Tuple[str, bool], bool] = {}
        self._located: Dict[Tuple[str, Optional[str]], Leaf] = {}
        #: a focus.Focus when the leaderboard is checked only as a dependent
        #: of a change (only the values it covers are looked at), else None
        self.focus = focus
        self._view: Optional[List[Tuple[int, Node]]] = None

    # -- focus -----------------------------------------------------------------
    def in_view(self, top: Node) -> bool:
        """Whether a top-level value is looked at: always, unless the
        leaderboard is checked in focus and no leaf of the value reads what
        the change touched (see focus.py)."""
        if self.focus is None:
            return True
        return any(self.focus.covers(leaf.experiment_id, leaf.phase) for leaf in self.leaves(top))

    def tops_in_view(self) -> List[Tuple[int, Node]]:
        """(index, value) of the values in view, in document order."""
        if self._view is None:  # asked by six rules
            self._view = [(i, top) for i, top in enumerate(self.tops) if self.in_view(top)]
        return self._view

    def nodes_in_view(self) -> Iterator[Union[Leaf, Operation]]:
        for _, top in self.tops_in_view():
            yield from self.nodes(top)

    def labels_may_differ(self) -> bool:
        """Whether the change can alter the label of any value: always,
        unless in focus no leaf names an experiment whose label fields the
        change may have altered (focus.py)."""
        if self.focus is None:
            return True
        relabelled = self.focus.relabelled
        return bool(relabelled) and any(
            isinstance(n, Leaf) and isinstance(n.experiment_id, str) and n.experiment_id in relabelled
            for n in self.all_nodes())

    # -- structure -------------------------------------------------------------
    def _parse(self, data, path: Path_, depth: int) -> Node:
        self._terms += 1
        if self._terms > MAX_TERMS:
            if self.overflow is None:
                self.overflow = (path, f"the leaderboard's values hold more than {MAX_TERMS:,} "
                                       "leaves and operations")
            return None
        if not isinstance(data, dict) or depth > MAX_NESTING:
            return None
        if "op" in data:
            raw = data.get("args")
            args = None
            if isinstance(raw, list):
                args = []
                for i, a in enumerate(raw):
                    args.append(self._parse(a, path + ("args", i), depth + 1))
                    if self.overflow is not None:
                        break
            return Operation(path, data, args)
        return Leaf(path, data)

    def nodes(self, node: Node) -> Iterator[Union[Leaf, Operation]]:
        """``node`` and everything below it, in document order."""
        if node is None:
            return
        yield node
        if isinstance(node, Operation) and node.args:
            for a in node.args:
                yield from self.nodes(a)

    def leaves(self, node: Node) -> List[Leaf]:
        return [n for n in self.nodes(node) if isinstance(n, Leaf)]

    def all_nodes(self) -> Iterator[Union[Leaf, Operation]]:
        for top in self.tops:
            yield from self.nodes(top)

    def pos(self, node_or_path, *sub):
        path = node_or_path.path if isinstance(node_or_path, (Leaf, Operation)) else tuple(node_or_path)
        return self.doc.value_pos(path + sub)

    def line(self, node) -> int:
        return self.pos(node).line

    # -- resolution ------------------------------------------------------------
    # A leaf is resolved in stages, each reading only what it needs, so that
    # a rule that needs less does not load more: _FOUND (the experiment
    # folder, one listing of experiments/<lb>/), _LOCATED (its meta_info.yaml,
    # phase folder and summary.yaml exist: listings), _META (meta_info.yaml
    # loaded), _SUMMARY (summary.yaml loaded too).
    _FOUND, _LOCATED, _META, _SUMMARY = 1, 2, 3, 4

    def find(self, leaf: Leaf) -> Leaf:
        """Look up the leaf's experiment folder. Ids that are not safe folder
        names are never joined into a path."""
        if leaf.stage < self._FOUND:
            leaf.stage = self._FOUND
            # a file linted with --kind has no experiments folder to look in
            exp = Repository.join(leaf.experiment_id) if self.leaderboard is not None else None
            if exp is not None:
                leaf.exp_dir = self.ctx.layout.experiment_dir(self.leaderboard, exp)
                leaf.exp_exists = self._is(leaf.exp_dir, True)
        return leaf

    def locate(self, leaf: Leaf) -> Leaf:
        """``find``, then whether meta_info.yaml, the phase folder and its
        summary.yaml exist (nothing is loaded). Leaves naming the same
        experiment and phase are located once."""
        if leaf.stage < self._LOCATED:
            self._locate(leaf)
        return leaf

    def _locate(self, leaf: Leaf) -> None:
        key = (leaf.experiment_id, leaf.phase)
        if type(key[0]) is str and (key[1] is None or type(key[1]) is str):
            same = self._located.get(key)
            if same is not None:
                for name in _LOCATED_FIELDS:
                    setattr(leaf, name, getattr(same, name))
                leaf.stage = self._LOCATED
                return
            self._located[key] = leaf
        self.find(leaf)
        leaf.stage = self._LOCATED
        if leaf.exp_exists:
            leaf.meta_path = f"{leaf.exp_dir}/meta_info.yaml"
            leaf.meta_exists = self._is(leaf.meta_path, False)
            if safe_segment(leaf.phase):
                leaf.phase_dir = f"{leaf.exp_dir}/{leaf.phase}"
                leaf.phase_exists = self._is(leaf.phase_dir, True)
                leaf.summary_path = f"{leaf.phase_dir}/summary.yaml"
                leaf.summary_exists = self._is(leaf.summary_path, False)

    def _is(self, path: str, folder: bool) -> bool:
        """Whether ``path`` is a folder (``folder``) or a file, asked of the
        repository once."""
        key = (path, folder)
        there = self._there.get(key)
        if there is None:
            there = self._there[key] = self.ctx.repo.is_dir(path) if folder else self.ctx.repo.is_file(path)
        return there

    def resolve_meta(self, leaf: Leaf) -> None:
        """``locate``, then load the experiment's meta_info.yaml."""
        if leaf.stage < self._META:
            self.locate(leaf)
            leaf.stage = self._META
            if leaf.meta_exists:
                leaf.meta = self._top_level(leaf.meta_path)

    def resolve(self, leaf: Leaf) -> None:
        """Everything about the leaf: its folders, meta_info.yaml and summary."""
        if leaf.stage < self._SUMMARY:
            self.resolve_meta(leaf)
            leaf.stage = self._SUMMARY
            if leaf.summary_exists:
                leaf.summary = self._top_level(leaf.summary_path)

    def _top_level(self, path: str) -> Optional[dict]:
        """The top level of the mapping in ``path`` (see KEEP_BYTES), read
        once: the leaves that name it share it (none changes it)."""
        if path not in self._top_levels:
            self._top_levels[path] = self._read_top_level(path)
        return self._top_levels[path]

    def _read_top_level(self, path: str) -> Optional[dict]:
        doc = self.ctx.valid_doc(path)
        if doc is None:
            return None
        data = {k: type(v)() if isinstance(v, (dict, list)) else v for k, v in doc.data.items()}
        written = {k: doc.implicit[(k,)][1] for k, v in data.items()
                   if not isinstance(v, (str, dict, list)) and (k,) in doc.implicit}
        if written:
            self._written[path] = written
        st = doc.file_stat
        if st is not None and st[1] > KEEP_BYTES:
            self.ctx.repo.forget(path)
        return data

    def fields(self, leaf: Leaf) -> Dict[str, Any]:
        """The label fields known for a leaf: harness_name, model_name and
        algorithm from its meta_info.yaml, and its phase."""
        self.resolve_meta(leaf)
        out: Dict[str, Any] = {}
        if leaf.meta is not None:
            for f in LABEL_FIELDS:
                if f in leaf.meta:
                    out[f] = leaf.meta[f]
        if isinstance(leaf.phase, str):
            out["phase"] = leaf.phase
        return out

    def shown(self, leaf: Leaf, field: str, value) -> str:
        """A label field's value as a message quotes it: as its
        meta_info.yaml writes it when YAML typed it (``yes``, not True)."""
        written = self._written.get(leaf.meta_path, {}).get(field) if field in LABEL_FIELDS else None
        return written if written is not None and len(written) <= 60 else show(value)

    def n_attempt(self, leaf: Leaf) -> Optional[int]:
        self.resolve(leaf)
        n = leaf.summary.get("n_attempt") if leaf.summary is not None else None
        return n if isinstance(n, int) and not isinstance(n, bool) else None

    def benchmark(self, leaf: Leaf) -> Optional[str]:
        self.resolve_meta(leaf)
        b = leaf.meta.get("benchmark_id") if leaf.meta is not None else None
        return b if isinstance(b, str) else None

    def label(self, top: Node) -> Optional[Tuple[Any, ...]]:
        """(harness_name, model_name, algorithm, phase) of a top-level
        expression, or None when a field is unknown or its leaves disagree."""
        leaves = self.leaves(top)
        out = []
        for f in LABEL_FIELDS + ("phase",):
            seen = set()
            for leaf in leaves:
                fields = self.fields(leaf)
                if f not in fields:
                    return None
                seen.add(same_key(fields[f]))
            if len(seen) != 1:
                return None
            out.append(seen.pop())
        return tuple(out)

    # -- evaluation ------------------------------------------------------------
    def value(self, node: Node) -> Optional[float]:
        """The number an expression evaluates to, or None when any part is
        unresolved or invalid (including a division by zero)."""
        if node is None:
            return None
        if node.path in self._values:
            return self._values[node.path]
        try:
            result = self._evaluate(node)
        except (ArithmeticError, ValueError, TypeError):
            # Float arithmetic yields inf/nan rather than raising; this is a
            # backstop so that odd data can never stop the run.
            result = None
        self._values[node.path] = result
        return result

    def _evaluate(self, node) -> Optional[float]:
        if isinstance(node, Leaf):
            self.resolve(node)
            if node.summary is None or not isinstance(node.metric, str):
                return None
            return finite(node.summary.get(node.metric))
        if node.op not in OPS or node.args is None:
            return None
        vals = [self.value(a) for a in node.args]
        if not vals or any(v is None for v in vals):
            return None
        op = node.op
        if op == "sum":
            return sum(vals)
        if op == "mean":
            return sum(vals) / len(vals)
        if len(vals) != 2 and op in ("sub", "div"):
            return None
        if op == "sub":
            return vals[0] - vals[1]
        if op == "div":
            return None if vals[1] == 0 else vals[0] / vals[1]
        # weighted_mean
        ws = node.weights
        if not isinstance(ws, list) or len(ws) != len(vals):
            return None
        weights = [number(w) for w in ws]
        if any(w is None or not w >= 0 for w in weights):
            return None
        # a zero total raises ZeroDivisionError: no number (value())
        return sum(w * v for w, v in zip(weights, vals)) / sum(weights)


def same_key(value):
    """A hashable key under which equal label values compare equal (a string
    as itself; anything else by type and repr, so NaN equals NaN and a list
    can be compared at all)."""
    if isinstance(value, str):
        return value
    return (type(value).__name__, repr(value))


def expressions(subject, ctx) -> Optional[Expressions]:
    """The leaderboard's expressions, built once per run; None when the file
    did not load or has no list of values (other rules report that)."""
    key = ("leaderboard-expressions", subject.path, subject.focus)
    if key in ctx.cache:
        return ctx.cache[key]
    result = None
    doc = ctx.valid_doc(subject.path)
    if doc is not None and isinstance(doc.data.get("values"), list):
        result = Expressions(ctx, doc, subject.groups.get("leaderboard"), doc.data["values"],
                             focus=subject.focus)
    ctx.cache[key] = result
    return result


def overflow_problems(subject, ctx) -> list:
    """PL103 where the leaderboard crosses MAX_VALUES or MAX_TERMS (the
    values after that are not checked), as a schema problem."""
    from penguin_lint.findings import Problem

    ex = expressions(subject, ctx)
    if ex is None or ex.overflow is None:
        return []
    path, what = ex.overflow
    checked = len(ex.tops)
    before = ("no value before this one is checked" if checked == 0 else
              "only the value before this one is checked" if checked == 1 else
              f"only the {checked:,} values before this one are checked")
    return [Problem("PL103", f"{what}: {before}",
                    ex.pos(path),
                    f"split the leaderboard; the leaderboard rules stop at {MAX_VALUES:,} values "
                    f"and {MAX_TERMS:,} leaves and operations")]


class LeaderboardRule(Rule):
    """Base of the rules that read a leaderboard together with the
    experiments it references."""

    kinds = ("leaderboard",)

    affects = (("under", "experiments", 0, 3, None),
               ("under", "experiments", 4, 4, "summary.yaml"))

    def affected_by(self, changed, ctx):
        # A leaderboard reads its experiments' meta_info.yaml and their
        # phases' summary.yaml: a change to one of those, or an experiment or
        # phase folder that appears or vanishes, can change how
        # leaderboards/<lb>/leaderboard.yaml resolves; an attempt file or
        # anything else cannot. Only the path is looked at: pull-request
        # mode calls this for every changed path.
        root = ctx.layout.roots["experiments"]
        if changed == root:
            # The whole experiments folder: every leaderboard (one cached listing).
            for lb in ctx.repo.subdirs(ctx.layout.roots["leaderboards"]):
                yield ctx.layout.leaderboard_file(lb)
            return
        if changed.startswith(root + "/"):
            parts = changed[len(root) + 1:].split("/")
            lb = parts[0]
            if not safe_segment(lb):
                return
            if (len(parts) <= 3 and not (len(parts) == 3 and parts[2] != "meta_info.yaml"
                                         and ctx.repo.is_file(changed))) \
                    or (len(parts) == 4 and parts[3] == "summary.yaml"):
                yield ctx.layout.leaderboard_file(lb)
