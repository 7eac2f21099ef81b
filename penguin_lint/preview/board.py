"""The numbers of a board: every entry of a leaderboard's ``values``
computed with RFC-0005's formulas (mean, standard deviation, Pareto axes),
its label, and its rank.
"""
from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Tuple

from penguin_lint.core.layout import safe_segment
from penguin_lint.engine.context import Context
from penguin_lint.engine.subject import Subject
from penguin_lint.preview.figures import pareto, tasks
from penguin_lint.preview.model import AXES, INDEPENDENT, LABEL, PER_ATTEMPT, Board, Row
from penguin_lint.rules._expressions import (
    DEFAULT_METRIC, Expressions, Leaf, Operation, finite, number, show,
)


def leaderboards(repo) -> List[str]:
    """The leaderboard ids of a repository (folders under leaderboards/)."""
    root = repo.layout.roots["leaderboards"]
    return [name for name in repo.subdirs(root) if safe_segment(name)]


def board_id(arg: str, layout, root, cwd) -> str:
    """The leaderboard id that a command-line argument names: an id
    (``code-eval``), or the path of a leaderboard file or of its folder
    (``leaderboards/code-eval/leaderboard.yaml``), relative to ``cwd`` or to
    the root. ValueError for a path that is no leaderboard's."""
    if "/" not in arg and os.sep not in arg and not arg.endswith((".yaml", ".yml")):
        return arg
    top = layout.roots["leaderboards"]
    tried = []
    for base in (cwd, root):
        full = os.path.abspath(os.path.join(str(base), arg))
        rel = os.path.relpath(full, os.path.abspath(str(root))).replace(os.sep, "/")
        tried.append(rel)
        if not rel.startswith(top + "/"):
            continue
        parts = rel[len(top) + 1:].split("/")
        if len(parts) == 1 or (len(parts) == 2 and layout.leaderboard_file(parts[0]) == rel):
            return parts[0]
    raise ValueError(f"{arg} is not a leaderboard: give an id, or a path such as {layout.leaderboard_file('ID')} "
                     f"or {top}/ID")


def board(repo, leaderboard_id: str) -> Board:
    """Every entry of ``leaderboards/<leaderboard_id>/leaderboard.yaml``."""
    ctx = Context(repo, repo.config)
    path = ctx.layout.leaderboard_file(leaderboard_id)
    out = Board(leaderboard_id, path)
    if not safe_segment(leaderboard_id) or not repo.is_file(path):
        out.problem = f"no {path}"
        return out
    doc = ctx.valid_doc(path)
    if doc is None:
        out.problem = f"{path} does not load (see `penguin-lint {path}`)"
        return out
    title = doc.data.get("title")
    out.title = title if isinstance(title, str) else None
    values = doc.data.get("values")
    if not isinstance(values, list):
        out.problem = f"{path} has no list of values"
        return out
    # As many values as the leaderboard rules check (MAX_VALUES, MAX_TERMS):
    # the rows of a bigger file are neither computed nor shown.
    expr = Expressions(ctx, doc, leaderboard_id, values)
    for i, top in enumerate(expr.tops):
        out.rows.append(_row(expr, i, top))
    if expr.overflow is not None:
        where, what = expr.overflow
        n = len(expr.tops)
        shown = ("no value before it is shown" if n == 0 else "only the value before it is shown" if n == 1
                 else f"only the {n:,} values before it are shown")
        out.note = f"{what} (line {expr.pos(where).line}): {shown}"
    _rank(out.rows)
    _keys(out.rows)
    pareto(out.rows)
    return out


class Entries:
    """A board's entries one at a time, as a hover asks for them: the entry
    a line is in, and its row as :func:`board` computes it, ranked among
    every entry's mean (the means computed once, on the first rank asked
    for). Only the entries :func:`board` computes are known (``stop``: the
    line past which none is, with ``note`` saying why)."""

    def __init__(self, repo, leaderboard_id: str):
        self.expr: Optional[Expressions] = None
        self.stop: Optional[int] = None
        self.note: Optional[str] = None
        self._means: Optional[List[float]] = None
        self._rows: Dict[int, Row] = {}
        ctx = Context(repo, repo.config)
        path = ctx.layout.leaderboard_file(leaderboard_id)
        if not safe_segment(leaderboard_id) or not repo.is_file(path):
            return
        doc = ctx.valid_doc(path)
        values = doc.data.get("values") if doc is not None and isinstance(doc.data, dict) else None
        if not isinstance(values, list):
            return
        self.expr = Expressions(ctx, doc, leaderboard_id, values)
        if self.expr.overflow is not None:
            where, self.note = self.expr.overflow
            self.stop = self.expr.pos(where).line

    def _line(self, index: int) -> int:
        return self.expr.doc.value_pos(("values", index)).line or 0

    def index_at(self, line: int) -> Optional[int]:
        """The entry 1-based ``line`` is in: the last one starting at or
        before it (None: before the first, or past ``stop``)."""
        if self.expr is None or (self.stop is not None and line >= self.stop):
            return None
        lo, hi = 0, len(self.expr.tops)
        while lo < hi:  # entries start in order: a binary search reads a few positions
            mid = (lo + hi) // 2
            if self._line(mid) <= line:
                lo = mid + 1
            else:
                hi = mid
        return lo - 1 if lo else None

    def row(self, index: int) -> Row:
        row = self._rows.get(index)
        if row is None:
            row = self._rows[index] = _row(self.expr, index, self.expr.tops[index])
            if row.mean is not None:
                # _rank's: equal means share the rank of the first of them
                row.rank = 1 + sum(1 for m in self.means() if m > row.mean)
        return row

    def means(self) -> List[float]:
        """The mean of every entry that has one (as ``_row`` sets it)."""
        if self._means is None:
            out = []
            for top in self.expr.tops:
                mean = self.expr.value(top) if top is not None else None
                if mean is not None and math.isfinite(mean):
                    out.append(mean)
            self._means = out
        return self._means


def _row(expr: Expressions, index: int, top) -> Row:
    line = expr.doc.value_pos(("values", index)).line
    leaves = expr.leaves(top)
    row = Row(index, line, _label(expr, leaves), [
        leaf.experiment_id for leaf in leaves if isinstance(leaf.experiment_id, str)])
    if top is None:
        row.problem = "not an expression (a leaf or an operation)"
        return row
    mixed = [f for f in LABEL if isinstance(row.label.get(f), str) and row.label[f].startswith("(mixed")]
    if mixed:
        row.warning = f"leaves differ in {', '.join(mixed)} (PL403)"
    row.mean = expr.value(top)
    if row.mean is None or not math.isfinite(row.mean):
        row.problem = why(expr, top) or (
            "the value is too large to compute" if row.mean is not None else "cannot be computed")
        row.mean = None
        return row
    row.summary_problems = _summary_problems(expr, leaves)
    row.tasks = tasks(expr, leaves)
    ns = {expr.n_attempt(leaf) for leaf in leaves}
    row.n_attempt = ns.pop() if len(ns) == 1 else None
    try:
        row.std, row.std_formula, row.std_note = _std(expr, top, leaves)
    except (OverflowError, ValueError):  # fsum of numbers near the float limit
        row.std, row.std_formula, row.std_note = None, None, "too large to compute"
    for axis in AXES:
        vals = [leaf.summary.get(axis) if leaf.summary is not None else None for leaf in leaves]
        if vals and all(number(v) is not None and math.isfinite(number(v)) for v in vals):
            try:
                total = sum(vals) if all(isinstance(v, int) for v in vals) else math.fsum(map(float, vals))
            except (OverflowError, ValueError):
                continue
            if isinstance(total, int) or math.isfinite(total):
                row.axes[axis] = total
    return row


def _summary_problems(expr: Expressions, leaves: List[Leaf]) -> List[str]:
    """What PL303 says of the summaries a row reads: a number shown from a
    summary that disagrees with its attempt files is not the one the
    attempts give."""
    from penguin_lint.rules.pl303_summary_mismatch import SummaryMismatch

    rule = SummaryMismatch()
    out = []
    for leaf in leaves:
        if not leaf.summary_exists or leaf.summary is None:
            continue
        for f in rule.check(Subject(leaf.summary_path, "summary"), expr.ctx):
            out.append(f"{leaf.experiment_id}/{leaf.phase}/summary.yaml fails PL303: {f.message}")
    return out


def _label(expr: Expressions, leaves: List[Leaf]) -> Dict[str, Any]:
    """Each label field when every leaf agrees on it; "(mixed)" when they do not."""
    out: Dict[str, Any] = {}
    for f in LABEL:
        seen = []
        for leaf in leaves:
            v = expr.fields(leaf).get(f)
            if v not in seen:
                seen.append(v)
        if len(seen) == 1 and seen[0] is not None:
            out[f] = seen[0] if isinstance(seen[0], str) else show(seen[0])
        elif len(seen) > 1:
            out[f] = "(mixed: " + ", ".join(str(s) for s in seen) + ")"
        else:
            out[f] = None
    return out


def why(expr: Expressions, node) -> Optional[str]:
    """The first reason an expression has no value, in words."""
    if node is None:
        return "an argument is not an expression"
    if isinstance(node, Leaf):
        expr.resolve(node)
        eid = node.experiment_id
        if not isinstance(eid, str) or not safe_segment(eid):
            return f"experiment_id {show(eid)} is not a folder name"
        if not node.exp_exists:
            return f"experiment '{eid}' does not exist"
        if not safe_segment(node.phase):
            return f"phase {show(node.phase)} of '{eid}' is not a folder name"
        if not node.summary_exists:
            return f"'{eid}' has no {node.phase}/summary.yaml"
        if node.summary is None:
            return f"{node.summary_path} does not load"
        if not isinstance(node.metric, str):
            return f"metric {show(node.metric)} is not a name"
        value = node.summary.get(node.metric)
        if value is None:
            return f"{node.summary_path} has no '{node.metric}'"
        if finite(value) is None:
            return f"'{node.metric}' of {node.summary_path} is not a finite number: {show(value)}"
        return None
    for arg in node.args or ():
        reason = why(expr, arg)
        if reason:
            return reason
    if node.args is None:
        return f"'{node.op}' has no list of args"
    if node.op not in ("mean", "sum", "sub", "div", "weighted_mean"):
        return f"unknown op {show(node.op)}"
    if not node.args:
        return f"'{node.op}' has no args"
    if node.op in ("sub", "div") and len(node.args) != 2:
        return f"'{node.op}' takes two args, not {len(node.args)}"
    if node.op == "div" and expr.value(node.args[1]) == 0:
        return "division by zero"
    if node.op == "weighted_mean":
        return "weights are missing or invalid (one non-negative number per arg, positive sum)"
    return None


def weights(expr: Expressions, node, factor: float = 1.0) -> Optional[List[Tuple[Leaf, float]]]:
    """The expression as Σ w_g X_g: (leaf, w_g) pairs, or None when it is
    not linear in its leaves (a ``div``)."""
    if isinstance(node, Leaf):
        return [(node, factor)]
    if not isinstance(node, Operation) or not node.args:
        return None
    if node.op == "mean":
        parts = [weights(expr, a, factor / len(node.args)) for a in node.args]
    elif node.op == "sum":
        parts = [weights(expr, a, factor) for a in node.args]
    elif node.op == "sub" and len(node.args) == 2:
        parts = [weights(expr, node.args[0], factor), weights(expr, node.args[1], -factor)]
    elif node.op == "weighted_mean":
        ws = [number(w) for w in node.weights] if isinstance(node.weights, list) else None
        if not ws or len(ws) != len(node.args) or any(w is None or not w >= 0 for w in ws) or not sum(ws) > 0:
            return None
        total = sum(ws)
        parts = [weights(expr, a, factor * w / total) for a, w in zip(node.args, ws)]
    else:
        return None
    if any(p is None for p in parts):
        return None
    return [pair for p in parts for pair in p]


def _std(expr: Expressions, top, leaves: List[Leaf]):
    """(std, formula, note): RFC-0005's per-attempt formula when it applies,
    else the independent one, else None and why."""
    pairs = weights(expr, top)
    if pairs is None:
        return None, None, "no standard deviation for a div (not a weighted sum)"
    if any(leaf.metric != DEFAULT_METRIC for leaf, _ in pairs):
        return None, None, "the standard deviation is that of score_mean leaves only"
    ns = [expr.n_attempt(leaf) for leaf, _ in pairs]
    if all(n == 1 for n in ns):
        return None, None, "n_attempt = 1"
    if None not in ns and len(set(ns)) == 1:
        n = ns[0]
        scores = [_attempt_scores(expr, leaf, n) for leaf, _ in pairs]
        if all(s is not None for s in scores):
            ys = [math.fsum(w * s[j] for (_, w), s in zip(pairs, scores)) for j in range(n)]
            y_bar = math.fsum(ys) / n
            std = math.sqrt(math.fsum((y - y_bar) ** 2 for y in ys) / (n - 1))
            return (std, PER_ATTEMPT, None) if math.isfinite(std) else (None, None, "overflow")
    stds = [finite(leaf.summary.get("score_std")) if leaf.summary is not None else None
            for leaf, _ in pairs]
    # a leaf of one attempt has no spread of its own
    stds = [0.0 if s is None and n == 1 else s for s, n in zip(stds, ns)]
    if any(s is None or s < 0 for s in stds):
        return None, None, "a leaf has no score_std"
    std = math.sqrt(math.fsum((w * s) ** 2 for (_, w), s in zip(pairs, stds)))
    return (std, INDEPENDENT, None) if math.isfinite(std) else (None, None, "overflow")


def _attempt_scores(expr: Expressions, leaf: Leaf, n: int) -> Optional[List[float]]:
    if leaf.phase_dir is None or n < 2:
        return None
    out = []
    for j in range(1, n + 1):
        doc = expr.ctx.valid_doc(f"{leaf.phase_dir}/attempt-{j}.yaml")
        s = finite(doc.data.get("score")) if doc is not None else None
        if s is None:
            return None
        out.append(s)
    return out


def _rank(rows: List[Row]) -> None:
    """Rank by mean, highest first; equal means share a rank (1, 2, 2, 4)."""
    ranked = sorted((r for r in rows if r.mean is not None), key=lambda r: -r.mean)
    for i, r in enumerate(ranked):
        r.rank = ranked[i - 1].rank if i and ranked[i - 1].mean == r.mean else i + 1


def _keys(rows: List[Row]) -> None:
    """A row's identity across a change: its label, else its position."""
    seen: Dict[str, int] = {}
    for r in rows:
        parts = [r.label.get(f) for f in LABEL]
        key = " / ".join(parts) if all(isinstance(p, str) and not p.startswith("(mixed") for p in parts) \
            else f"values[{r.index}]"
        seen[key] = seen.get(key, 0) + 1
        r.key = key if seen[key] == 1 else f"{key} #{seen[key]}"
