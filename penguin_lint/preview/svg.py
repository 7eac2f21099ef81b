"""The figures of the HTML preview as inline SVG: a row's score bar with
its std whisker, the Pareto plot of one cost axis, and the Waffle of tasks
by entries. Every number drawn is a number of the board (``board``,
``figures``), the ones the JSON report gives; every text is escaped.
"""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

from penguin_lint.output.html import esc
from penguin_lint.preview.model import Row

# The Waffle draws at most this many entries and tasks (a note says so):
# a page stays readable and bounded whatever a board holds.
WAFFLE_ENTRIES = 200
WAFFLE_TASKS = 300
AXIS_NAMES = {"cost": "cost (USD)", "duration_ms": "duration", "token": "tokens"}


def short(v: float, axis: str = "") -> str:
    """A number as an axis or a tooltip shows it."""
    if axis == "duration_ms":
        s = v / 1000
        return f"{s / 3600:.3g} h" if s >= 3600 else f"{s / 60:.3g} min" if s >= 60 else f"{s:.3g} s"
    if axis == "cost":
        return f"${v:,.2f}" if v >= 0.01 or v == 0 else f"${v:.2g}"
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{v / div:.3g}{unit}"
    return f"{v:.4g}"


def label(r: Row) -> str:
    return r.label.get("model_name") or r.key or f"values[{r.index}]"


def middle(name: str, n: int) -> str:
    """``name`` in at most ``n`` characters, shortened in the middle (the
    ends of task and model names are where they differ)."""
    if len(name) <= n:
        return name
    head = (n - 1) - (n - 1) // 2
    return name[:head] + "…" + name[len(name) - (n - 1 - head):]


def distinct(names: Sequence[str], n: int) -> List[str]:
    """Each name shortened to ``n`` characters, longer where that would make
    two different names read the same."""
    out = [middle(x, n) for x in names]
    width = n
    while len(set(out)) < len(set(names)) and width < max(map(len, names)):
        width += 4
        seen: Dict[str, set] = {}
        for full, short_ in zip(names, out):
            seen.setdefault(short_, set()).add(full)
        out = [middle(full, width) if len(seen[s_]) > 1 else s_ for full, s_ in zip(names, out)]
    return out


def entry_labels(rows: Sequence[Row], n: int = 30) -> Dict[int, str]:
    """What the figures call each row (by ``id``): its model, with the
    algorithm where two rows share a model, then harness and phase, then
    the rank, as the Table tells them apart; shortened in the middle."""
    names = {id(r): label(r) for r in rows}
    for fields in (("algorithm",), ("harness_name", "phase")):
        counts: Dict[str, int] = {}
        for v in names.values():
            counts[v] = counts.get(v, 0) + 1
        for r in rows:
            if counts[names[id(r)]] > 1:
                extra = [str(r.label[f]) for f in fields if r.label.get(f)]
                names[id(r)] = " · ".join([names[id(r)]] + extra)
    counts = {}
    for v in names.values():
        counts[v] = counts.get(v, 0) + 1
    for r in rows:
        if counts[names[id(r)]] > 1:
            names[id(r)] = (f"#{r.rank} {names[id(r)]}" if r.rank is not None
                            else f"{names[id(r)]} (values[{r.index}])")
    keys = list(names)
    return dict(zip(keys, distinct([names[k] for k in keys], n)))


def score_range(rows: Sequence[Row]) -> Tuple[float, float]:
    """From 0 (or the lowest score) to the highest score plus its std."""
    lo, hi = 0.0, 0.0
    for r in rows:
        if r.mean is None:
            continue
        s = r.std or 0.0
        lo, hi = min(lo, r.mean - s), max(hi, r.mean + s)
    return (lo, hi if hi > lo else lo + 1.0)


def bar(r: Row, lo: float, hi: float, width: int = 220) -> str:
    """The Table's bar: the score from the axis's zero, the std as a whisker."""
    if r.mean is None:
        return ""

    def x(v):
        return 2 + (width - 4) * (v - lo) / (hi - lo)
    zero, m = x(max(lo, 0.0)), x(r.mean)
    tip = f"{r.mean:.4f}" + (f" ± {r.std:.4f}" if r.std is not None else "")
    out = [f'<svg class="bar" width="{width}" height="18" viewBox="0 0 {width} 18" role="img">',
           f"<title>{esc(tip)}</title>",
           f'<rect class="fill" x="{min(zero, m):.1f}" y="3" width="{abs(m - zero):.1f}" height="12" rx="2"/>']
    if r.std:
        a, b = x(r.mean - r.std), x(r.mean + r.std)
        out.append(f'<path class="whisker" d="M{a:.1f} 9H{b:.1f}M{a:.1f} 5V13M{b:.1f} 5V13"/>')
    out.append("</svg>")
    return "".join(out)


def _ticks(lo: float, hi: float, n: int = 5) -> List[float]:
    step = 10 ** math.floor(math.log10((hi - lo) / n))
    for k in (1, 2, 2.5, 5, 10):
        if (hi - lo) / (step * k) <= n:
            step *= k
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


class _Scale:
    """A linear axis, or a log one when the values span two decades."""

    def __init__(self, values: Sequence[float], a: float, b: float, start_zero: bool):
        lo, hi = min(values), max(values)
        self.log = not start_zero and lo > 0 and hi / lo >= 100
        if self.log:
            lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
        else:
            lo = min(0.0, lo) if start_zero or lo >= 0 else lo
            hi = hi * 1.08 if hi > 0 else hi + 1
            if hi <= lo:
                hi = lo + 1.0
        self.lo, self.hi, self.a, self.b = lo, hi, a, b

    def __call__(self, v: float) -> float:
        if self.log:
            t = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            t = (v - self.lo) / (self.hi - self.lo)
        return self.a + (self.b - self.a) * t

    def ticks(self) -> List[float]:
        if self.log:
            e0, e1 = round(math.log10(self.lo)), round(math.log10(self.hi))
            return [10.0 ** e for e in range(e0, e1 + 1)]
        return _ticks(self.lo, self.hi)


def pareto(rows: Sequence[Row], axis: str, before: Optional[Dict[int, Row]] = None) -> str:
    """Score against one cost axis: a point per entry with a positive cost
    (its std as a whisker), the front's points marked and joined; with
    ``before`` (row id -> the row before a change), where a point was."""
    pts = [r for r in rows if r.mean is not None and r.problem is None
           and r.axes.get(axis) is not None and r.axes[axis] > 0]
    if not pts:
        return f'<p class="empty">No entry has a positive {esc(AXIS_NAMES[axis])}: nothing to plot.</p>'
    w, h, left, right, top, bottom = 760, 400, 70, 170, 20, 52
    olds = [o for o in (before or {}).values() if o.mean is not None and (o.axes.get(axis) or 0) > 0]
    xs = _Scale([float(r.axes[axis]) for r in pts + olds], left, w - right, False)
    lo, hi = score_range(pts + olds)
    ys = _Scale([lo, hi], h - bottom, top, True)
    out = [f'<svg class="pareto-plot" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">']
    for t in ys.ticks():
        out.append(f'<line class="grid" x1="{left}" x2="{w - right}" y1="{ys(t):.1f}" y2="{ys(t):.1f}"/>'
                   f'<text class="tick" x="{left - 8}" y="{ys(t) + 4:.1f}" text-anchor="end">{short(t)}</text>')
    for t in xs.ticks():
        out.append(f'<line class="grid" y1="{top}" y2="{h - bottom}" x1="{xs(t):.1f}" x2="{xs(t):.1f}"/>'
                   f'<text class="tick" y="{h - bottom + 18}" x="{xs(t):.1f}" text-anchor="middle">'
                   f"{esc(short(t, axis))}</text>")
    out.append(f'<text class="axis" x="{(left + w - right) / 2}" y="{h - 10}" text-anchor="middle">'
               f"{esc(AXIS_NAMES[axis])}{' (log scale)' if xs.log else ''}</text>"
               f'<text class="axis" transform="translate(16 {(top + h - bottom) / 2}) rotate(-90)" '
               f'text-anchor="middle">score</text>')
    front = sorted((r for r in pts if r.pareto.get(axis)), key=lambda r: float(r.axes[axis]))
    if len(front) > 1:
        path = " ".join(f"{xs(float(r.axes[axis])):.1f},{ys(r.mean):.1f}" for r in front)
        out.append(f'<polyline class="frontier" points="{path}"/>')
    names = entry_labels(rows, 28)
    spots = _label_spots(pts, axis, xs, ys, names, (left, w - 2, 2, h - bottom))
    for r in sorted(pts, key=lambda r: r.pareto.get(axis, False)):  # the front drawn on top
        out.append(_point(r, axis, xs, ys, (before or {}).get(id(r)), names[id(r)], spots.get(id(r))))
    out.append("</svg>")
    return "".join(out)


# where a point's label may go, from the point: right and above first
_SPOTS = ((9, -8, "start"), (9, 16, "start"), (-9, -8, "end"), (-9, 16, "end"))
_CHAR = 6.8  # the width of a character of a label, roughly, at 12px


def _label_spots(pts: Sequence[Row], axis: str, xs: _Scale, ys: _Scale, names: Dict[int, str],
                 frame: Tuple[float, float, float, float]) -> Dict[int, Tuple[float, float, str]]:
    """Where each point's label is drawn (row id -> x, y, anchor): the
    front's first, then the others by rank, each where it overlaps no label
    and no other point and stays in the plot; a point off the front with no
    such place has its name in its tooltip only. The front is always labelled."""
    left, right, top, bottom = frame
    dots = {id(r): (xs(float(r.axes[axis])), ys(r.mean)) for r in pts}
    boxes: List[Tuple[float, float, float, float]] = []
    out: Dict[int, Tuple[float, float, str]] = {}
    order = sorted(pts, key=lambda r: (not r.pareto.get(axis), r.rank if r.rank is not None else math.inf))
    for r in order:
        x, y = dots[id(r)]
        width = _CHAR * len(names[id(r)]) + 2
        for dx, dy, anchor in _SPOTS:
            x0 = x + dx if anchor == "start" else x + dx - width
            box = (x0, y + dy - 11, x0 + width, y + dy + 3)
            if box[0] < left or box[2] > right or box[1] < top or box[3] > bottom:
                continue
            if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
                continue
            if any(k != id(r) and box[0] - 6 < px < box[2] + 6 and box[1] - 6 < py < box[3] + 6
                   for k, (px, py) in dots.items()):
                continue
            boxes.append(box)
            out[id(r)] = (x + dx, y + dy, anchor)
            break
        else:
            if r.pareto.get(axis):
                out[id(r)] = (x + 9, y - 8, "start")
    return out


def _point(r: Row, axis: str, xs: _Scale, ys: _Scale, old: Optional[Row], name: str = "",
           spot: Optional[Tuple[float, float, str]] = None) -> str:
    x, y = xs(float(r.axes[axis])), ys(r.mean)
    out = []
    if old is not None and old.mean is not None and (old.axes.get(axis) or 0) > 0:
        ox, oy = xs(float(old.axes[axis])), ys(old.mean)
        if (round(ox, 1), round(oy, 1)) != (round(x, 1), round(y, 1)):
            out.append(f'<line class="moved" x1="{ox:.1f}" y1="{oy:.1f}" x2="{x:.1f}" y2="{y:.1f}"/>'
                       f'<circle class="ghost" cx="{ox:.1f}" cy="{oy:.1f}" r="5"><title>'
                       f"{esc(label(old))} before: score {old.mean:.4f}, {esc(AXIS_NAMES[axis])} "
                       f"{esc(short(float(old.axes[axis]), axis))}</title></circle>")
    if r.std:
        out.append(f'<path class="whisker" d="M{x:.1f} {ys(r.mean - r.std):.1f}V{ys(r.mean + r.std):.1f}"/>')
    on = bool(r.pareto.get(axis))
    moved = ""
    if old is not None and bool(old.pareto.get(axis)) != on:
        moved = " (joined the front)" if on else " (left the front)"
    more = [str(r.label[f]) for f in ("algorithm", "harness_name", "phase") if r.label.get(f)]
    tip = (f"#{r.rank} {label(r)}: score {r.mean:.4f}" + (f" ± {r.std:.4f}" if r.std else "")
           + f", {AXIS_NAMES[axis]} {short(float(r.axes[axis]), axis)}"
           + (" (on the Pareto front)" if on else "") + moved + (f"; {' · '.join(more)}" if more else ""))
    out.append(f'<circle class="pt{" front" if on else ""}" cx="{x:.1f}" cy="{y:.1f}" r="{6 if on else 5}">'
               f"<title>{esc(tip)}</title></circle>")
    if spot is not None:
        lx, ly, anchor = spot
        end = ' text-anchor="end"' if anchor == "end" else ""
        out.append(f'<text class="pt-label{"" if on else " off"}" x="{lx:.1f}" y="{ly:.1f}"{end}>'
                   f"{esc(name or label(r))}</text>")
    return "".join(out)


def _whole(r: Row) -> str:
    """A row's whole name, for a tooltip: rank, model, algorithm, harness, phase."""
    parts = [str(r.label[f]) for f in ("model_name", "algorithm", "harness_name", "phase") if r.label.get(f)]
    return (f"#{r.rank} " if r.rank is not None else "") + (" · ".join(parts) or r.key or f"values[{r.index}]")


def _colour(t: float) -> str:
    """Red (0) through amber to green (1)."""
    t = min(1.0, max(0.0, t))
    return f"hsl({t * 130:.0f}, 62%, {50 - 8 * t:.0f}%)"


def waffle(rows: Sequence[Row]) -> str:
    """Tasks by entries, each cell coloured by the task's mean score over
    the attempts, its scores on hover; a task an entry has no result for
    is a grey cell."""
    entries = [r for r in rows if r.mean is not None][:WAFFLE_ENTRIES]
    keys: List[tuple] = []
    for r in entries:
        for t in r.tasks:
            key = (t.get("benchmark"), t["source"])
            if key not in keys and len(keys) < WAFFLE_TASKS:
                keys.append(key)
    if not entries or not keys:
        return '<p class="empty">No attempt lists a task result: no Waffle to draw.</p>'
    # one column per (benchmark, task), named by the task (by both where
    # two benchmarks have a task of that name); the whole name in the tooltip
    full = [f"{b}/{src}" if b else src for b, src in keys]
    clash = {src for _, src in keys if sum(1 for _, s in keys if s == src) > 1}
    columns = dict(zip(keys, full))
    heads = distinct([f if src in clash else src for f, (_, src) in zip(full, keys)], 26)
    names = entry_labels(entries)
    means = [t["mean"] for r in entries for t in r.tasks if t.get("mean") is not None]
    lo, hi = min([0.0] + means), max(means + [0.0])
    hi = 1.0 if 0 < hi <= 1 else 100.0 if 1 < hi <= 100 and lo >= 0 else hi
    span = hi - lo if hi > lo else 1.0
    cell, gap, left, top = 20, 3, 230, 150
    w = left + len(columns) * (cell + gap) + 150  # room for the last slanted name
    hgt = top + len(entries) * (cell + gap) + 10
    out = [f'<svg class="waffle-plot" width="{w}" height="{hgt}" viewBox="0 0 {w} {hgt}" role="img">']
    for i, (name, shown) in enumerate(zip(columns.values(), heads)):
        x = left + i * (cell + gap) + cell / 2
        out.append(f'<text class="task" transform="translate({x:.1f} {top - 8}) rotate(-50)">'
                   f"<title>{esc(name)}</title>{esc(shown)}</text>")
    for j, r in enumerate(entries):
        y = top + j * (cell + gap)
        who = _whole(r)
        out.append(f'<text class="entry" x="{left - 10}" y="{y + cell - 5}" text-anchor="end">'
                   f"<title>{esc(who)}</title>{esc(names[id(r)])}</text>")
        by = {(t.get("benchmark"), t["source"]): t for t in r.tasks}
        for i, (key, name) in enumerate(columns.items()):
            x = left + i * (cell + gap)
            t = by.get(key)
            if t is None or t.get("mean") is None:
                out.append(f'<rect class="cell none" x="{x}" y="{y}" width="{cell}" height="{cell}" rx="3">'
                           f"<title>{esc(who)} · {esc(name)}: no result</title></rect>")
                continue
            scores = ", ".join(short(s) for s in t["scores"][:20]) + (", …" if len(t["scores"]) > 20 else "")
            out.append(f'<rect class="cell" x="{x}" y="{y}" width="{cell}" height="{cell}" rx="3" '
                       f'fill="{_colour((t["mean"] - lo) / span)}"><title>{esc(who)} · {esc(name)}: '
                       f"{t['mean']:.4g} (attempts: {esc(scores)})</title></rect>")
    out.append("</svg>")
    legend = "".join(f'<span class="swatch" ><svg width="14" height="14"><rect width="14" height="14" rx="3" '
                     f'fill="{_colour(k / 4)}"/></svg>{short(lo + span * k / 4)}</span>' for k in range(5))
    return "".join(out) + f'<p class="legend">task score: {legend}<span class="swatch"><svg width="14" ' \
        f'height="14"><rect class="none" width="14" height="14" rx="3"/></svg>no result</span></p>'
