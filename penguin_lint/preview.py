"""The leaderboard as it will be rendered, and what a change does to it.

:func:`board` computes every entry of a leaderboard's ``values`` with
RFC-0005's formulas: the mean of the expression, Ȳ = Σ w_g S̄_g, and its
sample standard deviation, from the per-attempt composite scores
Y_j = Σ w_g S_{g,j} when every leaf has the same ``n_attempt`` (and its
attempt files), else from the independent formula sqrt(Σ w_g² s_g²) with
each leaf's ``score_std``; the row says which was used. It also gives the
label (harness, model, algorithm, phase), the rank by mean, and the Pareto
axes (``cost``, ``duration_ms``, ``token``: totals over the leaves, where
every summary has them). An entry that cannot be computed says why.

Everything here is a pure function of a repository-like object (the
working tree's :class:`~penguin_lint.core.repo.Repository`, or the base of a
pull request read from git behind the same interface): :func:`compare`
takes the rows before and after a change, and the renderers turn boards
and changes into an aligned text table, Markdown (a job summary) or JSON.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from penguin_lint.engine.context import Context
from penguin_lint.engine.subject import Subject
from penguin_lint.core.layout import safe_segment
from penguin_lint.output.log_guard import sanitize
from penguin_lint.output.markdown import md  # inert Markdown: no link, HTML or mention
from penguin_lint.rules._expressions import (
    DEFAULT_METRIC, LABEL_FIELDS, Expressions, Leaf, Operation, finite, number, show,
)

LABEL = LABEL_FIELDS + ("phase",)
AXES = ("cost", "duration_ms", "token")
PER_ATTEMPT, INDEPENDENT = "per-attempt", "independent"


@dataclass
class Row:
    index: int                                  # position in ``values`` (0-based)
    line: Optional[int]
    label: Dict[str, Any]                       # harness_name, model_name, algorithm, phase
    experiments: List[str]
    mean: Optional[float] = None
    std: Optional[float] = None
    std_formula: Optional[str] = None           # PER_ATTEMPT, INDEPENDENT, or None
    std_note: Optional[str] = None              # why there is no std, if there is none
    n_attempt: Optional[int] = None
    axes: Dict[str, Any] = field(default_factory=dict)
    problem: Optional[str] = None               # why there is no number
    warning: Optional[str] = None               # a number, but a doubtful one (mixed label)
    #: the summaries it reads that disagree with their attempts (PL303)
    summary_problems: List[str] = field(default_factory=list)
    rank: Optional[int] = None
    key: str = ""

    def to_dict(self) -> dict:
        return {
            "key": self.key, "index": self.index, "line": self.line, "rank": self.rank,
            **{f: self.label.get(f) for f in LABEL},
            "mean": self.mean, "std": self.std, "std_formula": self.std_formula,
            "std_note": self.std_note, "n_attempt": self.n_attempt,
            **{a: self.axes.get(a) for a in AXES},
            "experiments": self.experiments, "problem": self.problem, "warning": self.warning,
            "summary_problems": self.summary_problems,
        }


@dataclass
class Board:
    leaderboard: str
    path: str
    title: Optional[str] = None
    rows: List[Row] = field(default_factory=list)
    problem: Optional[str] = None               # the file itself is missing or broken
    note: Optional[str] = None                  # values past the limits, not shown

    def to_dict(self) -> dict:
        return {"leaderboard": self.leaderboard, "path": self.path, "title": self.title,
                "problem": self.problem, "note": self.note, "rows": [r.to_dict() for r in self.rows]}


@dataclass
class Change:
    kind: str                                    # "added", "removed", "changed", "unchanged"
    key: str
    before: Optional[Row]
    after: Optional[Row]
    fields: List[str] = field(default_factory=list)   # what differs, for "changed"
    note: Optional[str] = None                   # "relabelled from ..."

    def to_dict(self) -> dict:
        return {"kind": self.kind, "key": self.key, "fields": self.fields, "note": self.note,
                "before": self.before.to_dict() if self.before else None,
                "after": self.after.to_dict() if self.after else None}


# -- computing a board ----------------------------------------------------------
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
    return out


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


# -- before and after -----------------------------------------------------------
_COMPARED = ("mean", "std", "std_formula", "rank", "problem", "n_attempt")


def compare(before: Sequence[Row], after: Sequence[Row]) -> List[Change]:
    """Rows added, removed, changed (and unchanged), matched by label; a row
    whose label changed but that reads the same experiments is one row
    relabelled ("changed", with a note), not one removed and one added."""
    old = {r.key: r for r in before}
    new = {r.key: r for r in after}
    gone: Dict[Tuple[str, ...], List[Row]] = {}
    for r in before:
        if r.key not in new and r.experiments:
            gone.setdefault(tuple(sorted(r.experiments)), []).append(r)
    relabelled: Dict[str, Row] = {}
    for r in after:
        if r.key not in old and r.experiments:
            candidates = gone.get(tuple(sorted(r.experiments)))
            if candidates:
                relabelled[r.key] = candidates.pop(0)
    matched = {id(b) for b in relabelled.values()}
    out: List[Change] = []
    for r in after:
        b = old.get(r.key) or relabelled.get(r.key)
        if b is None:
            out.append(Change("added", r.key, None, r))
            continue
        diff = [f for f in _COMPARED if getattr(b, f) != getattr(r, f)]
        diff += [a for a in AXES if b.axes.get(a) != r.axes.get(a)]
        if b.key != r.key:
            out.append(Change("changed", r.key, b, r, ["label"] + diff, note=f"relabelled from {b.key}"))
            continue
        out.append(Change("changed" if diff else "unchanged", r.key, b, r, diff))
    for r in before:
        if r.key not in new and id(r) not in matched:
            out.append(Change("removed", r.key, r, None))
    return out


def compare_repos(before_repo, after_repo, ids: Optional[Sequence[str]] = None) -> List[Tuple[Board, Board, List[Change]]]:
    """For each leaderboard (``ids``, or every one on either side): the
    board before, the board after, and what changed."""
    if ids is None:
        names = leaderboards(after_repo)
        names += [n for n in leaderboards(before_repo) if n not in names]
    else:
        names = list(ids)
    out = []
    for lb in names:
        b, a = board(before_repo, lb), board(after_repo, lb)
        before_repo.forget("")  # one board's documents at a time
        after_repo.forget("")
        out.append((b, a, compare(b.rows, a.rows)))
    return out


def affected_leaderboards(changed, layout) -> List[str]:
    """The leaderboards a change can move: those whose leaderboard file or
    whose experiments (``experiments/<id>/...``) a changed path is in."""
    out: List[str] = []
    for path in sorted(changed):
        for top in (layout.roots["leaderboards"], layout.roots["experiments"]):
            if path.startswith(top + "/"):
                lb = path[len(top) + 1:].split("/", 1)[0]
                if safe_segment(lb) and lb not in out:
                    out.append(lb)
    return out


def pull_request_summary(before_repo, after_repo, changed) -> str:
    """Markdown for a pull request's job summary: for every leaderboard the
    change touches, the rows it adds, removes or changes, before -> after."""
    ids = affected_leaderboards(changed, after_repo.layout)
    if not ids:
        return ""
    return "## Leaderboards\n\n" + render_changes_markdown(compare_repos(before_repo, after_repo, ids))


# -- rendering -------------------------------------------------------------------
def _num(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{digits}f}"


def _std_cell(r: Row) -> str:
    if r.std is None:
        return "-"
    return f"{r.std:.4f} ({r.std_formula})"


def _cells(r: Row) -> List[str]:
    return [str(r.rank) if r.rank is not None else "-",
            *[r.label.get(f) or "?" for f in LABEL],
            _num(r.mean) if r.problem is None else "n/a", _std_cell(r),
            _num(r.axes.get("cost")), _num(r.axes.get("duration_ms")), _num(r.axes.get("token")),
            "; ".join(n for n in (r.problem, r.warning, r.std_note, *r.summary_problems) if n)]


HEADERS = ["rank", "harness", "model", "algorithm", "phase", "mean", "std", "cost", "duration_ms", "token", "note"]


def _order(rows: List[Row]) -> List[Row]:
    return sorted(rows, key=lambda r: (r.rank is None, r.rank or 0, r.index))


# A Markdown table is read in a job summary (GitHub keeps 1 MiB of it): a
# board lists its first MARKDOWN_ROWS rows, and the whole output stops at
# MARKDOWN_LIMIT characters, each with a note; text and JSON list every row.
MARKDOWN_ROWS = 500
MARKDOWN_LIMIT = 500_000


def _rows_note(n: int) -> str:
    return (f"*{n:,} more {'row' if n == 1 else 'rows'} not listed here "
            "(`penguin-lint preview --format json` lists every row).*")


def _cap_markdown(text: str) -> str:
    if len(text) <= MARKDOWN_LIMIT:
        return text
    cut = text[:MARKDOWN_LIMIT]
    cut = cut[:cut.rfind("\n") + 1]
    return (cut + f"\n*The preview stops here, at {MARKDOWN_LIMIT:,} characters "
            "(`penguin-lint preview --format json` has all of it).*\n")


def render_text(boards: Sequence[Board]) -> str:
    out = []
    for b in boards:
        # every line starts with text of ours: a name from the files can
        # never open a line (and so never pass for a CI log command)
        out.append("leaderboard " + sanitize(f"{b.leaderboard}: {b.title or ''}".rstrip(": "))
                   + f" ({sanitize(b.path)})")
        if b.problem:
            out += ["  " + sanitize(b.problem), ""]
            continue
        if b.note:
            out.append("  " + sanitize(b.note))
        rows = [[sanitize(c) for c in _cells(r)] for r in _order(b.rows)]
        widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(HEADERS)]
        right = {0, 5, 6, 7, 8, 9}

        def line(cells):
            return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
        out.append(line(HEADERS))
        out.extend(line(r) for r in rows)
        out.append("")
    return "\n".join(out)


def render_markdown(boards: Sequence[Board]) -> str:
    out = []
    for b in boards:
        out.append(f"### {md(b.leaderboard, False)}" + (f": {md(b.title, False)}" if b.title else ""))
        out.append("")
        if b.problem:
            out += [md(b.problem, False), ""]
            continue
        if b.note:  # the tool's own words (numbers only from the file): no code span
            out += [f"*{sanitize(b.note)}*", ""]
        out.append("| " + " | ".join(HEADERS) + " |")
        out.append("|" + "|".join("---:" if i in (0, 5, 6, 7, 8, 9) else "---" for i in range(len(HEADERS))) + "|")
        rows = _order(b.rows)
        for r in rows[:MARKDOWN_ROWS]:
            out.append("| " + " | ".join(md(c) for c in _cells(r)) + " |")
        if len(rows) > MARKDOWN_ROWS:
            out += ["", _rows_note(len(rows) - MARKDOWN_ROWS)]
        out.append("")
    return _cap_markdown("\n".join(out))


def _arrow(b, a, fmt=_num) -> str:
    fb, fa = fmt(b), fmt(a)
    return fa if fb == fa else f"{fb} → {fa}"


def _rank_move(c: Change) -> str:
    b = c.before.rank if c.before else None
    a = c.after.rank if c.after else None
    if b == a:
        return str(a) if a is not None else "-"
    if b is None or a is None:
        return f"{b if b is not None else '-'} → {a if a is not None else '-'}"
    return f"{b} → {a} ({'▲' if a < b else '▼'}{abs(b - a)})"


def render_changes_markdown(results, all_rows: bool = False) -> str:
    """The job-summary section: for each leaderboard with a change, its rows
    added, removed or changed, before → after, with rank moves."""
    out = []
    for b, a, changes in results:
        shown = [c for c in changes if all_rows or c.kind != "unchanged"]
        if not shown and not (b.problem != a.problem):
            continue
        title = a.title or b.title
        out.append(f"### {md(a.leaderboard, False)}" + (f": {md(title, False)}" if title else ""))
        out.append("")
        if a.problem or b.problem:
            out.append(f"before: {md(b.problem or 'ok', False)}; after: {md(a.problem or 'ok', False)}")
            out.append("")
        for note in dict.fromkeys(n for n in (b.note, a.note) if n):
            out += [f"*{sanitize(note)}*", ""]
        if not shown:
            continue
        out.append("| change | entry | rank | mean | std | cost | duration_ms | token | note |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for c in shown[:MARKDOWN_ROWS]:
            br, ar = c.before, c.after

            def val(r, f):
                if r is None:
                    return None
                return r.axes.get(f) if f in AXES else getattr(r, f)
            mean = _arrow(val(br, "mean") if not (br and br.problem) else "n/a",
                          val(ar, "mean") if not (ar and ar.problem) else "n/a",
                          lambda x: x if isinstance(x, str) else _num(x))
            std = _arrow(br, ar, lambda r: _std_cell(r) if r is not None else "-")
            axes = [_arrow(val(br, f), val(ar, f)) for f in AXES]
            problem = (ar.problem if ar and ar.problem else br.problem if br and br.problem and not ar else "") or ""
            note = "; ".join(n for n in (c.note, problem, *(ar.summary_problems if ar else ())) if n)
            out.append("| " + " | ".join([c.kind, md(c.key), _rank_move(c), md(mean), md(std), *map(md, axes), md(note)]) + " |")
        if len(shown) > MARKDOWN_ROWS:
            out += ["", _rows_note(len(shown) - MARKDOWN_ROWS)]
        out.append("")
    return _cap_markdown("\n".join(out)) if out else "No leaderboard changes.\n"


def render_changes_text(results, all_rows: bool = False) -> str:
    out = []
    for b, a, changes in results:
        shown = [c for c in changes if all_rows or c.kind != "unchanged"]
        if not shown:
            continue
        out.append("leaderboard " + sanitize(a.leaderboard) + f" ({sanitize(a.path)})")
        for c in shown:
            def m(r):
                return "-" if r is None else ("n/a" if r.problem else _num(r.mean))
            line = f"  {c.kind:<9} {sanitize(c.key)}  rank {_rank_move(c)}  mean {_arrow(m(c.before), m(c.after), str)}"
            if c.kind == "changed":
                line += "  (" + ", ".join(c.fields) + ")"
            problem = (c.after or c.before).problem
            for note in (c.note, problem, *(c.after.summary_problems if c.after else ())):
                if note:
                    line += f"  [{sanitize(note)}]"
            out.append(line)
        out.append("")
    return "\n".join(out) if out else "No leaderboard changes.\n"


def render_json(boards: Sequence[Board]) -> str:
    return json.dumps({"version": 1, "leaderboards": [b.to_dict() for b in boards]},
                      indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def render_changes_json(results) -> str:
    return json.dumps({"version": 1, "leaderboards": [
        {"leaderboard": a.leaderboard, "before": b.to_dict(), "after": a.to_dict(),
         "changes": [c.to_dict() for c in changes if c.kind != "unchanged"]}
        for b, a, changes in results]}, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
