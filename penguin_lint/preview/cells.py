"""A row as the cells of a table, shared by every renderer: numbers,
the standard deviation with its formula, rank moves, before → after.
"""
from __future__ import annotations

from typing import List

from penguin_lint.preview.model import LABEL, Change, Row


def num(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{digits}f}"


def std_cell(r: Row) -> str:
    if r.std is None:
        return "-"
    return f"{r.std:.4f} ({r.std_formula})"


def cells(r: Row) -> List[str]:
    return [str(r.rank) if r.rank is not None else "-",
            *[r.label.get(f) or "?" for f in LABEL],
            num(r.mean) if r.problem is None else "n/a", std_cell(r),
            num(r.axes.get("cost")), num(r.axes.get("duration_ms")), num(r.axes.get("token")),
            "; ".join(n for n in (r.problem, r.warning, r.std_note, *r.summary_problems) if n)]


def entry(c: Change) -> str:
    """How a change names its row: its key, the row's label; a row keyed by
    its place (``values[1]``: its leaves differ, or a label is unknown) by
    its label as the table shows it, ``(mixed: …)`` and ``?`` included."""
    r = c.after or c.before
    if r is None or not c.key.startswith("values["):
        return c.key
    return " / ".join(str(r.label.get(f) or "?") for f in LABEL)


HEADERS = ["rank", "harness", "model", "algorithm", "phase", "mean", "std", "cost", "duration_ms", "token", "note"]


def ordered(rows: List[Row]) -> List[Row]:
    return sorted(rows, key=lambda r: (r.rank is None, r.rank or 0, r.index))



def arrow(b, a, fmt=num) -> str:
    fb, fa = fmt(b), fmt(a)
    return fa if fb == fa else f"{fb} → {fa}"


def rank_move(c: Change) -> str:
    b = c.before.rank if c.before else None
    a = c.after.rank if c.after else None
    if b == a:
        return str(a) if a is not None else "-"
    if b is None or a is None:
        return f"{b if b is not None else '-'} → {a if a is not None else '-'}"
    return f"{b} → {a} ({'▲' if a < b else '▼'}{abs(b - a)})"
