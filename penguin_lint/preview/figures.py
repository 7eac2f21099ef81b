"""The numbers behind RFC-0005's Pareto and Waffle views: which entries are
on the front for each cost axis, and each task's scores over the attempts.

Both are pure functions of the rows and of the attempt files the board
reads, so the JSON report and the HTML page draw the same figures.
"""
from __future__ import annotations

import math
from typing import Dict, List, Sequence

from penguin_lint.core.layout import safe_segment
from penguin_lint.preview.model import AXES, Row
from penguin_lint.rules._expressions import Expressions, Leaf, finite

# A hostile attempt file may list any number of records: the Waffle reads
# this many per attempt and this many tasks per entry, and says so past it.
MAX_RECORDS = 10_000
MAX_TASKS = 2_000


def pareto(rows: Sequence[Row]) -> None:
    """Set ``row.pareto[axis]`` for every axis: on the front of its board.

    As Terminal-Bench draws it: only entries with a score and a positive
    cost take part, and an entry is on the front when no other entry is
    at least as good on both (higher score, lower cost) and better on one.
    """
    for axis in AXES:
        points = [(r, float(r.axes[axis])) for r in rows if _plotted(r, axis)]
        # sorted by cost, then best score first: one sweep keeps the best
        # score seen so far; an entry is dominated unless it beats it
        points.sort(key=lambda p: (p[1], -p[0].mean))
        best = -math.inf
        front = set()
        last = None
        for r, cost in points:
            if r.mean > best:
                front.add(id(r))
                best = r.mean
                last = (r.mean, cost)
            elif last is not None and (r.mean, cost) == last:
                front.add(id(r))  # the same point twice: neither dominates
        for r in rows:
            r.pareto[axis] = id(r) in front


def _plotted(r: Row, axis: str) -> bool:
    v = r.axes.get(axis)
    return r.mean is not None and r.problem is None and v is not None and v > 0


def tasks(expr: Expressions, leaves: List[Leaf]) -> List[dict]:
    """Each task an entry was scored on: ``{source, benchmark, scores, mean}``
    with the task's score in every attempt (``attempt-1`` .. ``attempt-n``),
    in the order the attempt files first list them. ``benchmark`` is the
    benchmark the task belongs to, whether the entry reads one or several:
    a task is named by both, the same on every entry of the board."""
    out: Dict[tuple, dict] = {}
    for leaf in leaves:
        count = expr.n_attempt(leaf)
        if leaf.phase_dir is None or not isinstance(count, int) or count < 1:
            continue
        bench = expr.benchmark(leaf)
        for j in range(1, count + 1):
            doc = expr.ctx.valid_doc(f"{leaf.phase_dir}/attempt-{j}.yaml")
            if doc is None:
                break  # attempts run 1..n without gaps: a summary's n_attempt can be any number
            results = doc.data.get("results") if isinstance(doc.data, dict) else None
            if not isinstance(results, list):
                continue
            for rec in results[:MAX_RECORDS]:
                src = rec.get("source") if isinstance(rec, dict) else None
                score = finite(rec.get("score")) if isinstance(rec, dict) else None
                if not isinstance(src, str) or not safe_segment(src) or score is None:
                    continue
                key = (bench, src)
                if key not in out:
                    if len(out) >= MAX_TASKS:
                        continue
                    out[key] = {"source": src, "benchmark": bench, "scores": []}
                out[key]["scores"].append(score)
    for t in out.values():
        t["mean"] = math.fsum(t["scores"]) / len(t["scores"])
        if not math.isfinite(t["mean"]):
            t["mean"] = None
    return list(out.values())
